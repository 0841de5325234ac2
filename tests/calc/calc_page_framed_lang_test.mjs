// The calculator framed in a German article page (`shardreel page --lang de` of a storyboard in
// three languages), in Debian's chromium: the page and its frame in German (lang, the page's
// section and the frame's labels as locale/de.po translates them), one figure in German format
// (the expected peak per GPU: numbers' value, written as the English page writes it with the
// German decimal sign), a refusal beside its control as locale/de.po words its template, filled
// with the arguments of `shardreel numbers`' English line, under the German note that the last
// good figures are kept, and a clean console (no error, no request but
// file: and data:). Exits 77 (ctest: Skipped) when there is no chromium.
// Usage: node calc_page_framed_lang_test.mjs SOURCE_DIR SHARDREEL STORYBOARD OUT_DIR
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { browserTools, finish, watchedPage } from "../js/browser.mjs";
import { shown } from "./shown.mjs";

const [root, shardreel, storyboard, outDir] = process.argv.slice(2).map((p) => resolve(p));
const { chromium, puppeteer, failures, check } = browserTools(root);
rmSync(outDir, { recursive: true, force: true });
const pageDir = join(outDir, "page");
execFileSync(shardreel, ["page", storyboard, "--lang", "de", "-o", pageDir, "--cache", join(outDir, "cache")]);

// A German translation as locale/de.po has it (msgid and msgstr on one line each).
const po = readFileSync(join(root, "locale/de.po"), "utf8");
function german(msgid) {
  const at = po.indexOf(`\nmsgid ${JSON.stringify(msgid)}\nmsgstr "`);
  const text = at < 0 ? null : JSON.parse(po.slice(at + 1).split("\n")[1].slice("msgstr ".length));
  check(text && text !== msgid, `locale/de.po does not translate "${msgid}"`);
  return text;
}
// numbers' answer for flags: its report, or the lines after "shardreel: error: ".
function numbers(flags) {
  const run = spawnSync(shardreel, ["numbers", ...Object.entries(flags).flat(), "--format", "json"], { encoding: "utf8" });
  if (run.status === 0) return { report: JSON.parse(run.stdout) };
  return { errors: run.stderr.trim().split("\n").map((l) => l.replace(/^shardreel: error: /, "")) };
}
const text = (frame, selector) => frame.$eval(selector, (e) => e.textContent);

const FLAGS = { "--model": "llama-2-70b", "--gpus": "64", "--tp": "8" };
const { browser, page, problems } = await watchedPage(puppeteer, chromium);
try {
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(pathToFileURL(join(pageDir, "index.html")).href, { waitUntil: "load" });
  check(await page.$eval("html", (h) => h.lang) === "de", "the article page is not lang=de");
  const frame = page.frames().find((f) => f.name() === "calculator");
  if (!check(frame, "no frame named calculator")) throw new Error("no calculator frame");
  await frame.waitForSelector("#results #speed", { timeout: 20000 });
  check(await frame.$eval("html", (h) => h.lang) === "de", "the framed calculator is not lang=de");

  // Labels: a section of the form, a control's name, an output's title, a row of the key figures.
  const labels = [["#settings fieldset:last-of-type legend", "Parallelism"], ['label[for="in--micro-batches"]', "micro batches"],
    ["#memory-title", "Memory per GPU"]];
  for (const [selector, msgid] of labels) {
    const shownText = (await text(frame, selector)).trim();
    check(shownText === german(msgid), `${selector} reads "${shownText}", not "${german(msgid)}"`);
  }

  // One number in German format: the expected peak per GPU, "70,3 GB" where English reads "70.3 GB".
  await frame.evaluate((flags) => window.calculator.show(flags), FLAGS);
  const { report } = numbers(FLAGS);
  const peak = report.expected_peak.total_bytes;
  const figure = await frame.$eval('#results [data-key="expected_peak.total_bytes"]', (e) => [JSON.parse(e.dataset.value), e.textContent]);
  const want = shown.GB(peak).replace(".", ",");
  check(figure[0] === peak && figure[1] === want && want.includes(","), `the expected peak reads "${figure[1]}" (${figure[0]}), not "${want}" (${peak})`);

  // A refusal: numbers' line beside --tp in German, the German note at the top that the figures
  // are the last good ones.
  await frame.evaluate((flags) => window.calculator.show(flags), { ...FLAGS, "--tp": "0" });
  const { errors } = numbers({ ...FLAGS, "--tp": "0" });
  const beside = await text(frame, '[id="in--tp-error"]');
  const bounds = "'{name}' must be between {lo} and {hi}, got {value}";
  const args = { name: "tp", lo: "1", hi: "65536", value: "0" };
  const fill = (format) => format.replace(/\{(\w+)\}/g, (m, k) => args[k]);
  check(errors?.length === 1 && errors[0] === `--tp: ${fill(bounds)}` && beside === `--tp: ${fill(german(bounds))}`,
    `beside --tp: "${beside}", numbers says ${JSON.stringify(errors)}`);
  const top = await frame.$$eval("#problems p", (all) => all.map((p) => p.textContent));
  const kept = german("The figures shown are the last result the engine accepted.");
  check(top.length === 1 && top[0] === kept, `at the top: ${JSON.stringify(top)}, not "${kept}"`);
  const still = await frame.$eval('#results [data-key="expected_peak.total_bytes"]', (e) => e.textContent);
  check(still === want, `after the refusal the expected peak reads "${still}", not the last good "${want}"`);
  console.log(`page --lang de: ${labels.length} labels, the expected peak "${want}", the refusal beside --tp, the German note`);
} finally {
  await browser.close();
}
finish(failures, problems, "the German page frames the German calculator in chromium");
