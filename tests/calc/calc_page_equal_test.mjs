// The calculator page against the native binary, through the page (README, docs/calculator.md):
// Debian's chromium opens `shardreel calculator`'s page from file:// and, for random settings
// (tests/calc/draws.mjs), sets the controls through the page's own entry
// (window.calculator.show: the controls take the values, then the same update a control's input
// event runs), then reads what the page shows: the flags it computed with (its URL fragment),
// every figure (data-key, the raw value in data-value and its text) or the refusals beside their
// controls and at the top. Each is compared with `shardreel numbers --format json` for the same
// flags: every figure's value equal to the report's and written as the page writes that unit, no
// figure missing, --tokens' run shown exactly when given; the same lines refused, in the same
// places, with the last good figures kept. Until 1,000 valid and 100 invalid settings compared.
// Exits 77 (ctest: Skipped) when there is no chromium.
// Usage: node calc_page_equal_test.mjs SOURCE_DIR SHARDREEL OUT_DIR [VALID] [INVALID]
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { browserTools, watchedPage } from "../js/browser.mjs";
import { shown } from "./shown.mjs";
import { draws } from "./draws.mjs";

const [root, shardreel, outDir] = process.argv.slice(2, 5).map((p) => resolve(p));
const [validWanted = 1000, invalidWanted = 100] = process.argv.slice(5).map(Number);
const { chromium, puppeteer, failures, check } = browserTools(root);
const started = Date.now();

rmSync(outDir, { recursive: true, force: true });
const pagePath = execFileSync(shardreel, ["calculator", "-o", outDir], { encoding: "utf8" }).trim();

const lookup = (json, key) => key.split(".").reduce((o, k) => (o == null ? o : o[k]), json);
const KEPT = "The figures shown are the last result the engine accepted.";

// In the page: each set of flags shown in turn, in one task (so the deferred plan runs once, for
// the last), and what the page then shows.
function showAll(list) {
  const fragment = () => Object.fromEntries(location.hash.slice(1).split("&").filter((p) => p)
    .map((p) => p.split("=").map(decodeURIComponent)));
  return list.map((flags) => {
    window.calculator.show(flags);
    window.calculator.flush();  // the fragment, written at once rather than once the inputs rest
    return {
      given: fragment(),
      figures: [...document.querySelectorAll("#results [data-key]")].map((e) =>
        [e.dataset.key, e.dataset.unit, e.dataset.value, e.textContent]),
      beside: Object.fromEntries([...document.querySelectorAll(".field .error")].filter((e) => e.textContent)
        .map((e) => [e.id.slice(2, -"-error".length), e.textContent])),
      top: [...document.querySelectorAll("#problems p")].map((p) => p.textContent),
    };
  });
}

// One reading against numbers' answer for the flags the page computed with.
function compare(seen, want, lastGood, controlled, where) {
  if (want.report) {
    const report = JSON.parse(want.report);
    for (const [key, unit, value, text] of seen.figures) {
      const v = lookup(report, key);
      check(value === JSON.stringify(v), `${where}: ${key} holds ${value}, numbers says ${JSON.stringify(v)}`);
      check(text === shown[unit](v), `${where}: ${key} reads "${text}", not "${shown[unit](v)}"`);
    }
    const keys = new Set(seen.figures.map(([key]) => key));
    for (const key of ["per_gpu.total_bytes", "expected_peak.total_bytes", "comm_per_step.seconds",
      "pipeline.bubble_fraction", "step.seconds", "step.mfu", "step.tokens_per_second_per_gpu"])
      check(keys.has(key), `${where}: ${key} is not shown`);
    check(keys.has("run.days") === "--tokens" in seen.given, `${where}: the run is shown: ${keys.has("run.days")}`);
    check(!seen.top.length && !Object.keys(seen.beside).length, `${where}: refusals shown for valid settings`);
    return true;
  }
  const errors = want.errors;
  const beside = {}, top = [];
  for (const line of errors) {
    const flag = /^--[a-z0-9-]+/.exec(line)?.[0];
    if (controlled.has(flag)) beside[flag] = beside[flag] ? `${beside[flag]} ${line}` : line;
    else top.push(line);
  }
  const sorted = (o) => JSON.stringify(Object.entries(o).sort());
  check(sorted(seen.beside) === sorted(beside), `${where}: beside the controls ${JSON.stringify(seen.beside)}, numbers says ${JSON.stringify(beside)}`);
  check(JSON.stringify(seen.top.filter((l) => l !== KEPT)) === JSON.stringify(top), `${where}: at the top ${JSON.stringify(seen.top)}, numbers says ${JSON.stringify(top)}`);
  if (lastGood) check(JSON.stringify(seen.figures) === JSON.stringify(lastGood), `${where}: the last good figures were not kept`);
  return false;
}

const { browser, page, problems } = await watchedPage(puppeteer, chromium);
const counts = { valid: 0, invalid: 0, cli: 0 };
const timing = { page: 0, native: 0 };
try {
  await page.goto(pathToFileURL(pagePath).href, { waitUntil: "load" });
  await page.waitForSelector("#results #speed", { timeout: 20000 });
  const settings = await page.evaluate(() => window.calculator.calc.settings());
  const controlled = new Set(settings.map((s) => s.flag));
  const { draw, nativeAsync, random } = draws(settings, shardreel, 34);
  let lastGood = null;
  for (let round = 0; counts.valid < validWanted || counts.invalid < invalidWanted; round++) {
    if (round > 30) throw new Error(`too few draws: ${JSON.stringify(counts)}`);
    const list = Array.from({ length: 100 }, () => draw(counts.valid >= validWanted || random() < 0.15));
    let t = Date.now();
    const seen = await page.evaluate(showAll, list);
    timing.page += Date.now() - t;
    t = Date.now();
    // numbers for each, four at a time
    const answers = new Array(seen.length);
    let next = 0;
    const worker = async () => {
      while (next < seen.length) {
        const i = next++;
        answers[i] = await nativeAsync(seen[i].given);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    timing.native += Date.now() - t;
    for (const [i, s] of seen.entries()) {
      const want = answers[i];
      const where = `round ${round} #${i} ${JSON.stringify(s.given)}`;
      if (want.errors?.some((e) => e.startsWith("(cli) "))) {
        counts.cli++;
        continue;
      }
      const valid = compare(s, want, lastGood, controlled, where);
      if (valid) lastGood = s.figures;
      const kind = valid ? "valid" : "invalid";
      counts[kind] += counts[kind] < (valid ? validWanted : invalidWanted);
    }
  }
} finally {
  await browser.close();
}
failures.push(...problems);
for (const f of failures.slice(0, 20)) console.error(`FAIL: ${f}`);
console.log(`compared ${counts.valid} valid and ${counts.invalid} invalid settings through the page ` +
  `(${counts.cli} refused by the command line's parser left out) in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
  `(the page ${(timing.page / 1000).toFixed(1)} s, numbers ${(timing.native / 1000).toFixed(1)} s)`);
console.log(failures.length ? `${failures.length} failures` : "the page shows what numbers prints");
process.exit(failures.length ? 1 : 0);
