// The calculator page in the page's language (`shardreel calculator --lang L`, as `shardreel
// page` writes it for a film in L), in Debian's chromium: German and Arabic. The page's language
// and direction, its words (labels, its controls' names and helps) from the message catalogue
// (locale/L.po, read here, not from the page), and its figures in that language's digits and
// separators: each figure shown is the English text the calculator writes (tests/calc/shown.mjs)
// with the locale's decimal sign, grouping sign and digits put in, so a figure that kept English
// digits or separators fails; a refusal of a flag's value beside its control and one of the
// engine at the top: each template as locale/L.po translates it, filled with the arguments
// `numbers`' English line names (numbers in L's digits), every argument and code-like token in
// an isolate, and in Arabic "tp=٤" drawn left to right (x of "t" < "=" < "٤"); on a phone (320
// to 412 px) no output's table wider than its card; plan's shortfall
// with the nearest layout's name in L ("ZeRO-٣" drawn left to right), none of its isolates
// broken across lines on a phone ("--gpus ٣٢" whole); in Arabic, the code-like
// runs of four helps ("--gpus", "gpus / (tp x pp x cp)") each drawn left to right; opened on a
// refused layout, the key figures' row says why it has no figures until a control is set to a
// layout the engine takes; a clean console. Exits 77 (ctest: Skipped) when there is no chromium.
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
const fill = (format, number, args = REFUSAL_ARGS) => format.replace(/\{(\w+)\}/g, (m, k) => number(args[k]));
const native = spawnSync(shardreel, ["numbers", ...Object.entries(REFUSED).flat()], { encoding: "utf8" });
check(native.stderr === `shardreel: error: ${fill(REFUSAL, (n) => n)}\n`, `numbers refuses with "${native.stderr}"`);
const CP_REFUSED = { "--model": "llama-2-7b", "--seq": "1", "--cp": "2" };
const CP_REFUSAL = "cp = {cp} does not divide the sequence of {seq_len} tokens (try cp={fit})";
const CP_ARGS = { cp: "2", seq_len: "1", fit: "1" };
const nativeCp = spawnSync(shardreel, ["numbers", ...Object.entries(CP_REFUSED).flat()], { encoding: "utf8" });
check(nativeCp.stderr === `shardreel: error: ${fill(CP_REFUSAL, (n) => n, CP_ARGS)}\n`, `numbers refuses cp with "${nativeCp.stderr}"`);
// A flag's value out of its bounds: numbers' line, then the template beside the control.
const BOUNDS = "'{name}' must be between {lo} and {hi}, got {value}";
const BOUNDS_ARGS = { name: "tp", lo: "1", hi: "65536", value: "0" };
const boundsLine = (format, number) => `--tp: ${fill(format, (t) => (t === "tp" ? t : number(t)), BOUNDS_ARGS)}`;
const nativeBounds = spawnSync(shardreel, ["numbers", "--model", "llama-2-70b", "--tp", "0"], { encoding: "utf8" });
check(nativeBounds.stderr === `shardreel: error: ${boundsLine(BOUNDS, (n) => n)}\n`,
  `numbers refuses --tp 0 with "${nativeBounds.stderr}"`);
const NO_FIGURES = "No figures: the engine refuses these settings; the message beside the setting, or above, says why.";
// A model nothing on 16 cards holds: plan's shortfall names the nearest layout, whose words
// ("offload", "recompute") the page translates too (its own template, problem.parts).
const SHORT = { "--model": "llama-3.1-405b", "--gpus": "16", "--seq": "8192" };
const nativeShort = spawnSync(shardreel, ["plan", ...Object.entries(SHORT).flat()], { encoding: "utf8" });
check(nativeShort.stderr.includes("the nearest (dp 8 x tp 1 x pp 2, ZeRO-3, offload optimizer, full recompute)"),
  `plan refuses with "${nativeShort.stderr}"`);
// A problem (the module's) as locale/L.po words it, its numbers in L's digits, each argument with
// a template of its own filled alike (one the catalogue has no words for is code: as it is).
const filled = (p, lang, l) => (translation(lang, p.format) ?? p.format).replace(/\{(\w+)\}/g, (m, k) =>
  (p.parts?.[k] ? filled(p.parts[k], lang, l) : p.numbers.includes(k) ? localized(p.args[k], l) : p.args[k]));
// Each help in Arabic whose text has a run of Latin letters and signs the bidi algorithm would
// reorder: the run, drawn left to right character by character (a flag between Arabic words, a
// formula ending in a bracket).
const HELP_RUNS = [["--nodes", "--gpus"], ["--nodes", "gpus-per-node x nodes"], ["--gpus", "gpus / (tp x pp x cp)"],
  ["--cp", "dp = gpus / (tp x pp x cp)"], ["--shard-group", "--zero 3"]];

// Where each character of `text` inside `selector`'s first element that has it is drawn: the x of
// its box's left edge (a Range over the character), for reading a line's visual order.
const xOf = (page, selector, chars) => page.$$eval(selector, (all, chars) => {
  const e = all.find((x) => chars.every((c) => x.textContent.includes(c)));
  if (!e) return null;
  const node = [...e.childNodes].find((n) => n.nodeType === Node.TEXT_NODE) ?? e.firstChild;
  return chars.map((c) => {
    const range = document.createRange();
    const at = node.textContent.indexOf(c);
    range.setStart(node, at);
    range.setEnd(node, at + c.length);
    return range.getClientRects()[0].x;
  });
}, chars);

// Where each character of `text` is drawn, in the first element of `selector` whose text has it
// (across its isolates): the x of each box's left edge and its line's top, spaces left out.
const xsOf = (page, selector, text) => page.$$eval(selector, (all, text) => {
  const e = all.find((x) => x.textContent.includes(text));
  if (!e) return null;
  const nodes = [], walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(), at = 0; n; at += n.textContent.length, n = walk.nextNode()) nodes.push([n, at]);
  const start = e.textContent.indexOf(text);
  return [...text].map((c, i) => {
    if (c === " ") return null;
    const [node, at] = nodes.findLast(([, at]) => at <= start + i);
    const range = document.createRange();
    range.setStart(node, start + i - at);
    range.setEnd(node, start + i - at + 1);
    const box = range.getClientRects()[0];
    return [box.x, box.top];
  }).filter((x) => x !== null);
}, text);
// Drawn in order, left to right: each character right of the one before on its line, or on a
// later line (a run can wrap).
const ascending = (boxes) => boxes?.length > 1 && boxes.every(([x, top], i) => i === 0 ||
  (top === boxes[i - 1][1] ? boxes[i - 1][0] < x : top > boxes[i - 1][1]));

const { browser, page, problems } = await watchedPage(puppeteer, chromium);
try {
  for (const [lang, l] of Object.entries(LOCALES)) {
    const dir = join(outDir, lang);
    execFileSync(shardreel, ["calculator", "--lang", lang, "-o", dir]);
    // Opened on a refused layout: no figures yet, the row says why and the refusal is beside --tp
    // in L; set --tp to 8 through its control, and the figures replace the line.
    await page.goto(`${pathToFileURL(join(dir, "index.html")).href}#--model=llama-2-70b&--tp=0`, { waitUntil: "load" });
    await page.waitForSelector('[id="in--tp-error"] .line', { timeout: 20000 });
    const opened = await page.evaluate(() => ({ key: document.getElementById("key").textContent,
      figures: document.querySelectorAll("#key [data-key], #results [data-key]").length,
      beside: document.getElementById("in--tp-error").textContent,
      top: [...document.querySelectorAll("#problems p")].map((p) => p.textContent) }));
    const bounds = boundsLine(translation(lang, BOUNDS), (n) => localized(n, l));
    check(opened.key === translation(lang, NO_FIGURES) && opened.figures === 0 && opened.top.length === 0,
      `${lang}: opened refused, the key figures read "${opened.key}" (${opened.figures} figures, top ${JSON.stringify(opened.top)})`);
    check(opened.beside === bounds && !bounds.includes("must be between"),
      `${lang}: beside --tp: "${opened.beside}", not "${bounds}"`);
    const flagIsolate = await page.$eval('[id="in--tp-error"] bdi', (b) => [b.textContent, b.dir, getComputedStyle(b).unicodeBidi]);
    check(JSON.stringify(flagIsolate) === JSON.stringify(["--tp", "ltr", "isolate"]), `${lang}: the flag's isolate is ${flagIsolate}`);
    const argIsolates = await page.$$eval('[id="in--tp-error"] bdi', (all) => all.map((b) => [b.textContent, getComputedStyle(b).unicodeBidi]));
    for (const n of ["1", "65536", "0"]) {
      check(argIsolates.some(([t, bidi]) => t === localized(n, l) && bidi === "isolate"), `${lang}: ${n} is not isolated: ${JSON.stringify(argIsolates)}`);
    }
    await page.$eval('[id="in--tp"]', (input) => {
      input.value = "8";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    const fixed = await page.evaluate(() => ({ key: document.getElementById("key").textContent,
      figures: document.querySelectorAll("#key [data-key]").length, beside: document.getElementById("in--tp-error").textContent }));
    check(fixed.figures === 4 && !fixed.key.includes(translation(lang, NO_FIGURES)) && fixed.beside === "",
      `${lang}: once --tp is 8 the key figures read "${fixed.key}" (${fixed.figures} figures), beside --tp "${fixed.beside}"`);
    await page.goto("about:blank");
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
    // In Arabic, each code-like run of a help drawn in its own order, left to right.
    let runs = 0;
    for (const [flag, run] of l.dir === "rtl" ? HELP_RUNS : []) {
      check(translation(lang, helps.find(([f]) => f === flag)[1]).includes(run), `${lang}: the help of ${flag} has no "${run}"`);
      const xs = await xsOf(page, `[id="in${flag}-help"]`, run);
      runs += check(ascending(xs), `${lang}: "${run}" in the help of ${flag} is drawn at x ${JSON.stringify(xs)}`) === true;
    }
    // Every figure: the English text in the locale's signs and digits (days and tokens/s in the
    // catalogue's words around the number; where the step time comes from, the catalogue's words).
    const figures = await page.$$eval("#results [data-key], #key [data-key]", (all) =>
      all.map((e) => [e.dataset.key, e.dataset.unit, JSON.parse(e.dataset.value), e.textContent]));
    const words = { days: ["{n} days", " days"], rate: ["{n} tokens/s", " tokens/s"] };
    let numbers = 0;
    for (const [key, unit, value, text] of figures) {
      if (unit === "yes") continue;
      if (unit === "source") {  // where the step time comes from: words only, the catalogue's
        const want = translation(lang, shown.source(value));
        check(want && text === want, `${lang}: ${key} reads "${text}", not "${want}"`);
        continue;
      }
      const [msgid, unitWords] = words[unit] ?? ["{n}", ""];
      const number = localized(shown[unit](value).replace(unitWords, ""), l);
      const want = (translation(lang, msgid) ?? msgid).replace("{n}", number);
      numbers += check(text === want, `${lang}: ${key} reads "${text}", not "${want}"`) === true;
    }
    check(numbers > 40, `${lang}: ${numbers} figures checked`);
    // On a phone every output's table (but plan's, which scrolls in its own box) stays inside its
    // card: a long word, as German's compounds, breaks where its translation lets it.
    const roomy = page.viewport(), spills = [];
    for (const width of [320, 360, 390, 412]) {
      await page.setViewport({ width, height: 740 });
      spills.push(...(await page.$$eval("#results section table", (all) => all.filter((t) => !t.closest(".scroll"))
        .map((t) => [t.closest("section").id, t.closest("section").getBoundingClientRect(), t.getBoundingClientRect()])
        .filter(([, s, r]) => r.left < s.left || r.right > s.right)
        .map(([id, s, r]) => `${id} by ${Math.round(Math.max(s.left - r.left, r.right - s.right))} px`)))
        .map((spill) => `${width} px: ${spill}`));
    }
    await page.setViewport(roomy);
    check(spills.length === 0, `${lang}: on a phone tables spill out of their cards: ${JSON.stringify(spills)}`);
    // A refusal of a flag's value beside its control, in L, with the figures kept.
    await page.evaluate(() => window.calculator.show({ "--model": "llama-2-70b", "--tp": "0" }));
    const beside = await page.$eval('[id="in--tp-error"]', (e) => e.textContent);
    check(beside === bounds, `${lang}: beside --tp: "${beside}", not "${bounds}"`);
    // The engine's refusal at the top, in L, its numbers in L's digits; the last good figures kept.
    await page.evaluate((flags) => window.calculator.show(flags), REFUSED);
    const top = await page.$$eval("#problems p", (all) => all.map((p) => p.textContent));
    const want = [fill(translation(lang, REFUSAL), (n) => localized(n, l)),
      translation(lang, "The figures shown are the last result the engine accepted.")];
    check(JSON.stringify(top) === JSON.stringify(want) && !want[0].includes(" does not divide "),
      `${lang}: the engine's refusal reads ${JSON.stringify(top)}, not ${JSON.stringify(want)}`);
    // Its code-like tokens isolated left to right: "tp={tp}" filled is one isolate, drawn in order.
    const tpIs = `tp=${localized("4", l)}`;
    const isolates = await page.$$eval("#problems p:first-child bdi", (all) =>
      all.map((b) => [b.textContent, b.dir, getComputedStyle(b).unicodeBidi]));
    check(isolates.some(([t, d, bidi]) => t === tpIs && d === "ltr" && bidi === "isolate") &&
      isolates.some(([t]) => t === `tp x pp = ${localized("12", l)}`),
      `${lang}: the engine's refusal's isolates: ${JSON.stringify(isolates)}`);
    const xs = await xOf(page, "#problems p:first-child bdi", ["t", "=", localized("4", l)]);
    check(xs && xs[0] < xs[1] && xs[1] < xs[2], `${lang}: "${tpIs}" is drawn with t, = and the digit at x ${JSON.stringify(xs)}`);
    // A template whose mark is a snake_case name ({seq_len}): filled, not cut as a code-like token.
    await page.evaluate((flags) => window.calculator.show(flags), CP_REFUSED);
    const cpTop = await page.$eval("#problems p", (p) => p.textContent);
    const cpWant = fill(translation(lang, CP_REFUSAL), (n) => localized(n, l), CP_ARGS);
    check(cpTop === cpWant && !cpTop.includes("{"), `${lang}: the cp refusal reads "${cpTop}", not "${cpWant}"`);
    // Plan's shortfall, the nearest layout's name in L too: its words the catalogue's, its numbers
    // in L's digits, "ZeRO-3" one isolate drawn left to right.
    await page.evaluate((flags) => window.calculator.show(flags), SHORT);
    await page.waitForSelector("#plan .refusal", { timeout: 20000 });
    const shortfall = await page.$eval("#plan .refusal", (p) => p.textContent);
    const answer = await page.evaluate((flags) => window.calculator.calc.plan(flags, 5), SHORT);
    const layout = answer.problems?.[0]?.parts?.layout;
    const shortWant = answer.problems && filled(answer.problems[0], lang, l);
    check(layout && shortfall === shortWant && !/offload|recompute|nearest/.test(shortfall) &&
      shortfall.includes(`dp ${localized("8", l)} x tp ${localized("1", l)} x pp ${localized("2", l)}`),
      `${lang}: plan's shortfall reads "${shortfall}", not "${shortWant}"`);
    const zero = `ZeRO-${localized("3", l)}`;
    const zeroIsolate = await page.$$eval("#plan .refusal bdi", (all, zero) =>
      all.some((b) => b.textContent === zero && b.dir === "ltr"), zero);
    const zeroXs = await xsOf(page, "#plan .refusal", zero);
    check(zeroIsolate && ascending(zeroXs), `${lang}: "${zero}" in plan's shortfall: isolated ${zeroIsolate}, drawn at x ${JSON.stringify(zeroXs)}`);
    // On a phone no left-to-right isolate of the shortfall breaks across lines ("--gpus ٣٢"), at
    // four common widths.
    const wide = page.viewport();
    const broken = [];
    for (const width of [320, 360, 390, 412]) {
      await page.setViewport({ width, height: 740 });
      broken.push(...(await page.$$eval("#plan .refusal bdi[dir=ltr]", (all) =>
        all.filter((b) => new Set([...b.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size > 1)
          .map((b) => b.textContent))).map((text) => `${width} px: ${text}`));
      if (await page.$eval("#plan .refusal", (p) => p.scrollWidth > p.clientWidth)) broken.push(`${width} px: wider than its box`);
    }
    const flagRun = await page.$$eval("#plan .refusal bdi[dir=ltr]", (all) => all.some((b) => b.textContent.startsWith("--gpus ")));
    await page.setViewport(wide);
    check(broken.length === 0 && flagRun, `${lang}: on a phone plan's shortfall breaks ${JSON.stringify(broken)} across lines (a "--gpus" run: ${flagRun})`);
    console.log(`${lang}: ${LABELS.length} labels, ${named} controls' names, ${helps.length} helps, ${numbers} figures in the locale's digits and signs, ${runs} code-like runs of helps drawn in order, plan's shortfall: ${shortfall}, opened refused: "${opened.key}", beside --tp: "${beside}", the engine's at the top: ${top[0]} ("${tpIs}" at x ${xs?.map((x) => x.toFixed(1)).join(" < ")})`);
  }
} finally {
  await browser.close();
}
finish(failures, problems, "the calculator speaks German and Arabic in chromium");
