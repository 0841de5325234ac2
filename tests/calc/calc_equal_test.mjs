// The calculator module (build/shardreel-calc.wasm, calc/) against the native binary: for
// random settings drawn from the settings table the module itself describes, the module's answer
// equals what `shardreel numbers --format json` prints: the same report text byte for byte, or
// the same errors line for line. Valid and invalid settings are counted until each reaches its
// quota (default 1,000 valid and 100 invalid). Seeded, so a failure repeats.
// Usage: node calc_equal_test.mjs SHARDREEL CALC_WASM [VALID] [INVALID]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [binary, wasm, validWanted = '1000', invalidWanted = '100'] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { loadCalc } = await import(pathToFileURL(path.join(root, 'calc/calc.js')));
const calc = await loadCalc(fs.readFileSync(wasm));

// mulberry32: a small seeded generator.
let seed = 20261205;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const settings = calc.settings();
const byFlag = new Map(settings.map((s) => [s.flag, s]));
for (const flag of ['--model', '--tp', '--pp', '--gpus', '--zero', '--params', '--global-batch'])
  if (!byFlag.has(flag)) throw new Error(`calc_settings() lacks ${flag}`);

// A value the setting may well take: one the tests try, a keyword or preset, or a number in
// its bounds.
function plausible(s) {
  const options = [...(s.tried ?? []), ...(s.choices ?? [])];
  if (s.bounds && s.type === 'whole') {
    const [lo, hi] = s.bounds;
    options.push(String(lo), String(Math.min(hi, lo + Math.floor(random() * 64))));
  }
  if (s.type === 'count') options.push('7B', '13B', '70e9', '1.3B');
  if (s.type === 'batch') options.push('256', '1024', '4M tokens');
  return options.length ? pick(options) : null;
}
// A value it must refuse (or that the native binary refuses the same way).
function wrong(s) {
  const options = ['', 'abc', '-1', '1e400', 'nan', '0x10', ' 4', '+4', '4 GB', '1.5'];
  if (s.bounds) options.push(String(s.bounds[0] - 1), String(s.bounds[1] * 10 + 1));
  return pick(options);
}

function draw(invalid) {
  const flags = {};
  const chosen = new Set();
  const count = 1 + Math.floor(random() * 5);
  if (random() < 0.7) flags['--model'] = pick(byFlag.get('--model').choices);
  for (let i = 0; i < count; i++) {
    const s = pick(settings);
    if (chosen.has(s.flag) || s.flag === '--model') continue;
    const value = plausible(s);
    if (value === null) continue;
    chosen.add(s.flag);
    flags[s.flag] = value;
  }
  if (invalid) {
    const s = pick(settings);
    flags[s.flag] = wrong(s);
  }
  return flags;
}

function native(flags) {
  const args = ['numbers', '--format', 'json', ...Object.entries(flags).map(([f, v]) => `${f}=${v}`)];
  const run = spawnSync(binary, args, { encoding: 'utf8' });
  if (run.status === 0) return { report: run.stdout.replace(/\n$/, '') };
  if (run.status !== 2) throw new Error(`${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
  const prefix = 'shardreel: error: ';
  const lines = run.stderr.split('\n').filter((l) => l);
  return { errors: lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : `(cli) ${l}`)) };
}

const counts = { valid: 0, invalid: 0, cli: 0 };
const failures = [];
for (let n = 0; counts.valid < +validWanted || counts.invalid < +invalidWanted; n++) {
  if (n > 20 * (+validWanted + +invalidWanted)) throw new Error(`too few draws: ${JSON.stringify(counts)}`);
  const flags = draw(counts.valid >= +validWanted || random() < 0.1);
  const want = native(flags);
  const kind = want.report !== undefined ? 'valid' : 'invalid';
  if (counts[kind] >= +(kind === 'valid' ? validWanted : invalidWanted)) continue;
  if (want.errors?.some((e) => e.startsWith('(cli) '))) {  // refused by the flag parser
    counts.cli++;
    continue;
  }
  counts[kind]++;
  const got = calc.numbers(flags);
  if (JSON.stringify(got) !== JSON.stringify(want) && failures.length < 5)
    failures.push({ flags, want, got });
}
console.log(`compared ${counts.valid} valid and ${counts.invalid} invalid settings ` +
  `(${counts.cli} left out: refused by the command line's parser before the settings)`);
for (const f of failures) console.log('DIFFERS:', JSON.stringify(f).slice(0, 2000));
process.exit(failures.length ? 1 : 0);
