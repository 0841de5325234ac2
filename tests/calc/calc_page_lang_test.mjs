// The calculator page in the page's language (`shardreel calculator --lang L`, as `shardreel
// page` writes it for a film in L), in Debian's chromium: German and Arabic. The page's language
// and direction, its words (labels, its controls' names and helps) from the message catalogue
// (locale/L.po, read here, not from the page), and its figures in that language's digits and
// separators: each figure shown is the English text the calculator writes (tests/calc/shown.mjs)
// with the locale's decimal sign, grouping sign and digits put in, so a figure that kept English
// digits or separators fails; a refusal of a flag (in English) beside its control, and one of
// the engine at the top: its template as locale/L.po translates it, filled with the numbers
// `numbers` names (in L's digits); a clean console. Exits 77 (ctest: Skipped) when there is no
// chromium.
// Usage: node calc_page_lang_test.mjs SOURCE_DIR SHARDREEL OUT_DIR
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { browserTools, finish, watchedPage } from "../js/browser.mjs";
import { shown } from "./shown.mjs";

const [root, shardreel, outDir] = process.argv.slice(2).map((p) => resolve(p));
const { chromium, puppeteer, failures, check } = browserTools(root);
rmSync(outDir, { recursive: true, force: true });

// A translation as locale/L.po has it (msgid and msgstr on one line each, as the catalogue
// script writes them).
function translation(lang, msgid) {
  const po = readFileSync(join(root, `locale/${lang}.po`), "utf8");
  const at = po.indexOf(`\nmsgid ${JSON.stringify(msgid)}\nmsgstr "`);
  if (at < 0) return null;
  const line = po.slice(at + 1).split("\n")[1];
  return JSON.parse(line.slice("msgstr ".length));
}

// English figure text in a locale: "." the decimal sign, "," the grouping sign, digits mapped.
const LOCALES = {
  de: { dir: "ltr", decimal: ",", group: ".", digits: "0123456789" },
  ar: { dir: "rtl", decimal: "٫", group: "٬", digits: "٠١٢٣٤٥٦٧٨٩" },
};
const localized = (text, l) => text.replace(/[0-9.,]/g, (c) => (c === "." ? l.decimal : c === "," ? l.group
  : [...l.digits][Number(c)]));

// The labels checked: a section of the form, an output's title, a row, the key figures' bar.
const LABELS = [["#settings legend", "Parallelism"], ["#memory-title", "Memory per GPU"],
  ["#speed th", "Pipeline bubble"], ["#key span", "Peak per GPU"]];
const FLAGS = "#--model=llama-2-70b&--gpus=64&--tp=8&--tokens=2T";

// A layout the engine refuses, its template and the numbers it names: the English line must be
// what `numbers` prints for it.
const REFUSED = { "--model": "llama-2-70b", "--gpus": "16", "--tp": "4", "--pp": "3" };
const REFUSAL = "tp x pp = {product} does not divide {gpus} GPUs (try tp={tp}, pp={pp})";
const REFUSAL_ARGS = { product: "12", gpus: "16", tp: "4", pp: "4" };
const fill = (format, number) => format.replace(/\{(\w+)\}/g, (m, k) => number(REFUSAL_ARGS[k]));
const native = spawnSync(shardreel, ["numbers", ...Object.entries(REFUSED).flat()], { encoding: "utf8" });
check(native.stderr === `shardreel: error: ${fill(REFUSAL, (n) => n)}\n`, `numbers refuses with "${native.stderr}"`);

const { browser, page, problems } = await watchedPage(puppeteer, chromium);
try {
  for (const [lang, l] of Object.entries(LOCALES)) {
    const dir = join(outDir, lang);
    execFileSync(shardreel, ["calculator", "--lang", lang, "-o", dir]);
    await page.goto(`${pathToFileURL(join(dir, "index.html")).href}${FLAGS}`, { waitUntil: "load" });
    await page.waitForSelector("#results #run", { timeout: 20000 });
    const html = await page.$eval("html", (h) => [h.lang, h.dir]);
    check(html[0] === lang && html[1] === l.dir, `${lang}: the page is lang=${html[0]} dir=${html[1]}`);
    for (const [selector, msgid] of LABELS) {
      const want = translation(lang, msgid);
      const texts = await page.$$eval(selector, (all) => all.map((e) => e.firstChild.textContent.trim()));
      check(want && want !== msgid && texts.includes(want), `${lang}: no ${selector} reads "${want}" (${texts.join(" | ")})`);
    }
    // Every control's label: the setting's name in the catalogue's words, where it has them.
    const controls = await page.evaluate(() => window.calculator.calc.settings().map((s) =>
      [s.name.replaceAll("_", " "), document.querySelector(`label[for="in${s.flag}"]`).textContent]));
    let named = 0;
    for (const [name, text] of controls) {
      const want = translation(lang, name) || name;
      check(text === want, `${lang}: the label of ${name} reads "${text}", not "${want}"`);
      named += want !== name;
    }
    check(named >= 40, `${lang}: ${named} of ${controls.length} controls' labels translated`);
    // Every control's help: its flag, then the settings table's help as the catalogue translates it.
    const helps = await page.evaluate(() => window.calculator.calc.settings().map((s) =>
      [s.flag, s.help, document.getElementById(`in${s.flag}-help`).textContent]));
    for (const [flag, help, text] of helps) {
      const want = translation(lang, help);
      check(want && want !== help && text === `${flag}: ${want}`, `${lang}: the help of ${flag} reads "${text}"`);
    }
    // Every figure: the English text in the locale's signs and digits (days and tokens/s in the
    // catalogue's words around the number).
    const figures = await page.$$eval("#results [data-key], #key [data-key]", (all) =>
      all.map((e) => [e.dataset.key, e.dataset.unit, JSON.parse(e.dataset.value), e.textContent]));
    const words = { days: ["{n} days", " days"], rate: ["{n} tokens/s", " tokens/s"] };
    let numbers = 0;
    for (const [key, unit, value, text] of figures) {
      if (unit === "yes") continue;
      const [msgid, unitWords] = words[unit] ?? ["{n}", ""];
      const number = localized(shown[unit](value).replace(unitWords, ""), l);
      const want = (translation(lang, msgid) ?? msgid).replace("{n}", number);
      numbers += check(text === want, `${lang}: ${key} reads "${text}", not "${want}"`) === true;
    }
    check(numbers > 40, `${lang}: ${numbers} figures checked`);
    // A refusal: the engine's own line (in English, as numbers prints it) beside its control.
    await page.evaluate(() => window.calculator.show({ "--model": "llama-2-70b", "--tp": "0" }));
    const beside = await page.$eval('[id="in--tp-error"]', (e) => e.textContent);
    check(beside === "--tp: 'tp' must be between 1 and 65536, got 0", `${lang}: beside --tp: "${beside}"`);
    // The engine's refusal at the top, in L, its numbers in L's digits; the last good figures kept.
    await page.evaluate((flags) => window.calculator.show(flags), REFUSED);
    const top = await page.$$eval("#problems p", (all) => all.map((p) => p.textContent));
    const want = [fill(translation(lang, REFUSAL), (n) => localized(n, l)),
      translation(lang, "The figures shown are the last result the engine accepted.")];
    check(JSON.stringify(top) === JSON.stringify(want) && !want[0].includes(" does not divide "),
      `${lang}: the engine's refusal reads ${JSON.stringify(top)}, not ${JSON.stringify(want)}`);
    console.log(`${lang}: ${LABELS.length} labels, ${named} controls' names, ${helps.length} helps, ${numbers} figures in the locale's digits and signs, the refusal beside --tp, the engine's at the top: ${top[0]}`);
  }
} finally {
  await browser.close();
}
finish(failures, problems, "the calculator speaks German and Arabic in chromium");
