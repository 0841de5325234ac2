// The calculator module (build/shardreel-calc.wasm, calc/) against the native binary: for
// random settings drawn from the settings table the module itself describes, the module's answer
// equals what `shardreel numbers --format json` prints: the same report text byte for byte, or
// the same errors line for line. Valid and invalid settings are counted until each reaches its
// quota (default 1,000 valid and 100 invalid, some with --tokens). Then the same for `plan
// --format json --top 3` on clusters of 1 to 64 GPUs (default 40 valid and 20 invalid, of which
// those where nothing fits: plan's shortfall message). The refusals, a flag's value's and the
// engine's, come with their templates and arguments beside the lines (problems): each filled in
// English (with "--flag: " first where numbers writes it) must be its line, and every refusal,
// plan's shortfall too, must have them; the nearest layout's name inside the shortfall, a template
// of its own (parts), filled in English must be its argument's text.
// Seeded, so a failure repeats.
// Usage: node calc_equal_test.mjs SHARDREEL CALC_WASM [VALID] [INVALID] [PLAN_VALID] [PLAN_INVALID]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { draws } from './draws.mjs';

const [binary, wasm, validWanted = '1000', invalidWanted = '100', planValid = '40',
  planInvalid = '20'] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { loadCalc, problemText } = await import(pathToFileURL(path.join(root, 'calc/calc.js')));
const calc = await loadCalc(fs.readFileSync(wasm));

const settings = calc.settings();
const { draw, drawPlan, native, random } = draws(settings, binary);

// Each argument with a template of its own (plan's nearest layout, and its parts), filled in
// English, is that argument's text.
const partsFilled = (p) => Object.entries(p.parts ?? {}).every(([name, part]) =>
  problemText(part) === p.args[name] && partsFilled(part));

// Draws until `wanted` valid and invalid answers of the native command have been compared with
// the module's; answers refused by the command line's parser (before the settings) are left out.
function compare(name, wanted, drawFlags, command, module) {
  const counts = { valid: 0, invalid: 0, cli: 0 };
  for (let n = 0; counts.valid < wanted.valid || counts.invalid < wanted.invalid; n++) {
    if (n > 20 * (wanted.valid + wanted.invalid))
      throw new Error(`${name}: too few draws: ${JSON.stringify(counts)}`);
    const flags = drawFlags(counts.valid >= wanted.valid || random() < 0.1);
    const want = native(flags, command);
    const kind = want.report !== undefined ? 'valid' : 'invalid';
    if (counts[kind] >= wanted[kind]) continue;
    if (want.errors?.some((e) => e.startsWith('(cli) '))) {
      counts.cli++;
      continue;
    }
    counts[kind]++;
    if (want.errors?.[0].startsWith('no layout of ')) counts.shortfall = (counts.shortfall ?? 0) + 1;
    const got = module(flags);
    if (got.problems) {
      counts.templated = (counts.templated ?? 0) + 1;
      const lines = got.problems.map((p) => problemText(p));
      if (JSON.stringify(lines) !== JSON.stringify(got.errors) && failures.length < 5)
        failures.push({ name, flags, templates: 'filled in English differ from the lines', lines, got });
      if (got.problems.some((p) => p.args.flag !== undefined)) counts.flagged = (counts.flagged ?? 0) + 1;
      if (!got.problems.every(partsFilled) && failures.length < 5)
        failures.push({ name, flags, parts: 'filled in English differ from their arguments', got });
      if (got.problems.some((p) => p.parts)) counts.parts = (counts.parts ?? 0) + 1;
      delete got.problems;
    } else if (want.errors?.length && failures.length < 5)
      failures.push({ name, flags, templates: 'missing beside the lines', want });
    if (JSON.stringify(got) !== JSON.stringify(want) && failures.length < 5)
      failures.push({ name, flags, want, got });
  }
  console.log(`${name}: compared ${counts.valid} valid and ${counts.invalid} invalid settings ` +
    `(${counts.cli} left out: refused by the command line's parser before the settings; ` +
    `${counts.shortfall ?? 0} where nothing fits, ${counts.parts ?? 0} naming a layout in parts; ` +
    `${counts.templated ?? 0} refusals with templates, ` +
    `${counts.flagged ?? 0} of them a flag's)`);
  return counts;
}

const failures = [];
compare('numbers', { valid: +validWanted, invalid: +invalidWanted }, draw,
  ['numbers', '--format', 'json'], (flags) => calc.numbers(flags));
const plans = compare('plan', { valid: +planValid, invalid: +planInvalid }, drawPlan,
  ['plan', '--format', 'json', '--top', '3'], (flags) => calc.plan(flags, 3));
if (+planInvalid >= 20 && !plans.shortfall) failures.push('no plan where nothing fits was drawn');
for (const f of failures) console.log('DIFFERS:', JSON.stringify(f).slice(0, 2000));
process.exit(failures.length ? 1 : 0);
