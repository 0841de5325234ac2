// The article page of `shardreel page` in a real browser: Debian's chromium, driven by
// puppeteer-core from tests/js, opening DIR/index.html from file://. It checks what a reader
// meets: no console error, no failed and no external request; the film's metadata and duration
// (read from the MP4's own header), the chapter track against the chapter list, seeking; every
// slider position and pill, operated from the keyboard, against the pre-rendered figure and
// `shardreel numbers --format json`; the calculator framed at the end, opened at each chapter's
// configuration and seeking the film; axe-core in light and dark; no overflow at 1280x800 and
// 390x844 (screenshots in SHOTS to look at); prefers-reduced-motion keeps the film still.
// Exits 77 (ctest: Skipped) when there is no chromium.
// Usage: node page_test.mjs SOURCE_DIR SHARDREEL PAGE_DIR STORYBOARD SHOTS_DIR
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [root, shardreel, pageDir, storyboard, shotsDir] = process.argv.slice(2).map((p) => resolve(p));
const chromium = process.env.SHARDREEL_CHROMIUM ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.log(`skipped: no browser at ${chromium} (scripts/deps.sh test installs chromium)`);
  process.exit(77);
}
const tools = createRequire(join(root, "tests/js/package.json"));
let puppeteer, axeSource;
try {
  puppeteer = tools("puppeteer-core");
  axeSource = readFileSync(tools.resolve("axe-core/axe.min.js"), "utf8");
} catch (e) {
  console.error(`${e.message}\nthe test tools are missing: run scripts/deps.sh test`);
  process.exit(1);
}

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  return ok;
};
const url = pathToFileURL(join(pageDir, "index.html")).href;

// The film's length from its movie header (mvhd: version, times, timescale, duration).
function mp4Seconds(path) {
  const bytes = readFileSync(path);
  const at = bytes.indexOf("mvhd");
  if (at < 0) throw new Error(`${path}: no mvhd box`);
  const version = bytes[at + 4];
  const body = at + 8 + (version === 1 ? 16 : 8);
  const timescale = bytes.readUInt32BE(body);
  const duration = version === 1 ? Number(bytes.readBigUInt64BE(body + 4)) : bytes.readUInt32BE(body + 4);
  return duration / timescale;
}

// `shardreel numbers` for the configuration on screen at the figure's moment, with a variant's
// settings as flags over it.
function engineFigures(at, settings) {
  const flags = Object.entries(settings).flatMap(([key, value]) => [
    key === "seq_len" ? "--seq" : `--${key.replaceAll("_", "-")}`,
    String(value),
  ]);
  const out = execFileSync(shardreel, ["numbers", storyboard, "--at", at, ...flags, "--format", "json"]);
  return JSON.parse(out);
}
const lookup = (json, dotted) => dotted.split(".").reduce((o, k) => (o == null ? o : o[k]), json);

async function openPage(browser, { width = 1280, height = 800, media = [] } = {}) {
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`script error: ${e.message}`));
  page.on("requestfailed", (r) => {
    // With preload="metadata" chromium stops fetching the film once it has the header: that
    // request ends as net::ERR_ABORTED, which is the browser's choice, not a failure.
    const error = r.failure()?.errorText;
    if (r.resourceType() === "media" && error === "net::ERR_ABORTED") return;
    problems.push(`failed request: ${r.url()} (${error})`);
  });
  page.on("request", (r) => {
    if (!/^(file|data|blob):/.test(r.url())) problems.push(`external request: ${r.url()}`);
  });
  await page.setViewport({ width, height });
  await page.emulateMediaFeatures(media);
  await page.goto(url, { waitUntil: "load" });
  return { page, problems };
}

// The film: metadata, duration, the chapter track against the list, seeking by the list.
async function checkFilm(page) {
  const film = await page.evaluate(async () => {
    const v = document.getElementById("film");
    const track = [...v.querySelectorAll("track")].find((t) => t.kind === "chapters");
    track.track.mode = "hidden"; // loads the cues without showing them
    const loaded = (el, ok, bad) =>
      new Promise((done) => {
        el.addEventListener(ok, () => done(true), { once: true });
        el.addEventListener(bad, () => done(false), { once: true });
        setTimeout(() => done(false), 10000);
      });
    const cuesLoaded = track.readyState === 2 || (await loaded(track, "load", "error"));
    const playable = v.canPlayType('video/mp4; codecs="avc1.640028"') !== "";
    const metadata = playable && (v.readyState >= 1 || (await loaded(v, "loadedmetadata", "error")));
    const cues = [...(track.track.cues ?? [])].map((c) => ({ start: c.startTime, end: c.endTime, text: c.text }));
    const buttons = [...document.querySelectorAll("nav.chapters button.seek")].map((b) => ({
      start: Number(b.dataset.start),
      text: b.textContent,
    }));
    return { cuesLoaded, playable, metadata, duration: v.duration, cues, buttons };
  });
  const seconds = mp4Seconds(join(pageDir, "film.mp4"));
  check(film.cuesLoaded, "the chapter track did not load");
  check(film.cues.length === film.buttons.length && film.buttons.length > 0,
        `${film.cues.length} chapter cues, ${film.buttons.length} chapter buttons`);
  film.cues.forEach((c, i) => {
    const b = film.buttons[i] ?? {};
    check(c.text === b.text && Math.abs(c.start - b.start) < 0.002,
          `chapter cue ${i} "${c.text}" at ${c.start} s, button "${b.text}" at ${b.start} s`);
  });
  const last = film.cues.at(-1);
  check(last && Math.abs(last.end - seconds) < 0.05, `the last chapter ends at ${last?.end} s, the film at ${seconds} s`);
  if (!film.playable || !film.metadata) {
    console.log(`note: this chromium cannot decode H.264 (canPlayType ${film.playable}); ` +
                `the tracks were checked, the duration and seeking were not`);
    return;
  }
  check(Math.abs(film.duration - seconds) < 0.05, `the video says ${film.duration} s, the MP4 ${seconds} s`);
  // Paused first: a playing film moves on between the click and the reading.
  await page.evaluate(() => document.getElementById("film").pause());
  const buttons = await page.$$("nav.chapters button.seek");
  for (const [i, b] of buttons.entries()) {
    await b.click();
    const now = await page.evaluate(() => document.getElementById("film").currentTime);
    check(Math.abs(now - film.buttons[i].start) < 0.05,
          `"${film.buttons[i].text}" seeks to ${now} s, not ${film.buttons[i].start} s`);
  }
  console.log(`film: ${film.duration.toFixed(3)} s (MP4 header ${seconds.toFixed(3)} s), ` +
              `${film.cues.length} chapters, every button seeks to its cue`);
}

// What one explore box shows now: the figure, its alt text, the table's cells.
const shown = (page, id) =>
  page.evaluate((id) => {
    const section = document.getElementById("ch-" + id);
    const art = section.querySelector("figure .art");
    const cells = Object.fromEntries(
      [...section.querySelectorAll("td[data-key]")].map((td) => [
        td.dataset.key,
        { text: td.textContent, value: JSON.parse(td.dataset.value) },
      ]),
    );
    return { figure: art.innerHTML, alt: art.getAttribute("aria-label"), cells };
  }, id);

const template = (page, id) => page.evaluate((id) => document.getElementById(id).innerHTML, id);

// The control's first value, from the keyboard: Home on a slider; on pills (whose arrows wrap
// around), focus the first and select it with Space.
async function toFirst(page, selector, slider) {
  await page.focus(slider ? selector : `${selector} input`);
  await page.keyboard.press(slider ? "Home" : "Space");
}

// Every value of every control, reached with the keyboard, against the templates and the engine.
async function checkExplore(page) {
  const boxes = await page.$$eval(".explore", (all) =>
    all.map((b) => ({
      id: b.dataset.chapter,
      data: JSON.parse(document.getElementById("variants-" + b.dataset.chapter).textContent),
    })),
  );
  check(boxes.length > 0, "no explore box on the page");
  let positions = 0;
  for (const { id, data } of boxes) {
    for (const [p, param] of data.params.entries()) {
      const selector = `.explore[data-chapter="${id}"] [data-param="${param}"]`;
      const slider = await page.$eval(selector, (c) => c.matches("input"));
      await toFirst(page, selector, slider);
      let before = null;
      for (let i = 0; i < data.values[p].length; ++i) {
        if (i > 0) await page.keyboard.press("ArrowRight");
        const at = [...data.base];
        at[p] = i;
        const v = data.variants[at.join(",")];
        const now = await shown(page, id);
        const where = `${id}: ${param} = ${data.values[p][i]}`;
        check(now.figure === (await template(page, v.figure)), `${where}: the figure is not ${v.figure}`);
        check(now.alt === v.alt, `${where}: alt text "${now.alt}"`);
        if (before) check(now.figure !== before.figure, `${where}: the figure did not change`);
        const engine = engineFigures(data.at, v.settings);
        for (const [key, cell] of Object.entries(now.cells)) {
          const expected = lookup(engine, key);
          check(JSON.stringify(cell.value) === JSON.stringify(expected),
                `${where}: ${key} shows ${JSON.stringify(cell.value)}, numbers says ${JSON.stringify(expected)}`);
          check(cell.text === v.stats[key]?.text, `${where}: ${key} reads "${cell.text}"`);
        }
        before = now;
        ++positions;
      }
      // Leave this parameter as written, so the next one varies from the page's base.
      await toFirst(page, selector, slider);
      for (let k = 0; k < data.base[p]; ++k) await page.keyboard.press("ArrowRight");
    }
  }
  console.log(`explore: ${boxes.length} boxes, ${positions} positions match their figure and numbers`);
}

// The calculator's figures once they have settled on report's (up to 5 s), checked against it.
// The fragment changes before the figures do: the calculator recomputes on the next frame (and
// asks plan once the inputs rest), so the previous configuration's may show until then. Debian
// 13's chromium read them in between, the bubble chapter's 16 micro-batches still showing for
// the zero chapter's 8.
async function checkFigures(frame, report, what) {
  const read = () => frame.$$eval("#results [data-key]", (all) => all.map((e) => [e.dataset.key, e.dataset.value]));
  const agrees = (figs) => figs.every(([key, value]) => value === JSON.stringify(lookup(report, key)));
  let shownFigures = await read();
  for (let i = 0; i < 50 && !agrees(shownFigures); i++) {
    await new Promise((r) => setTimeout(r, 100));
    shownFigures = await read();
  }
  for (const [key, value] of shownFigures)
    check(value === JSON.stringify(lookup(report, key)), `calculator for ${what}: ${key} holds ${value}, numbers says ${JSON.stringify(lookup(report, key))}`);
  check(shownFigures.length > 40, `calculator for ${what}: ${shownFigures.length} figures`);
  return shownFigures.length;
}

// The calculator framed at the end: it opens on the storyboard's defaults (its figures equal to
// `numbers STORYBOARD`), each chapter's link opens its configuration there (every figure the
// frame shows equal to `numbers STORYBOARD --at` the chapter's figure), and a chapter the
// calculator names seeks the film to that chapter.
async function checkCalculator(page) {
  // The frame as it is now: a link loads the calculator again.
  const calculator = () => page.frames().find((f) => f.name() === "calculator");
  if (!check(calculator(), "no calculator frame")) return;
  await calculator().waitForSelector("#results #speed", { timeout: 20000 });
  const defaults = JSON.parse(execFileSync(shardreel, ["numbers", storyboard, "--format", "json"]));
  let figures = await checkFigures(calculator(), defaults, "the storyboard's defaults");
  const links = await page.$$eval("a[data-calc]", (all) => all.map((a) => a.dataset.calc));
  let frame;
  for (const at of links) {
    const href = await page.$eval(`a[data-calc="${at}"]`, (a) => a.href);
    await page.click(`a[data-calc="${at}"]`);
    // The calculator writes its fragment back in its controls' order.
    const params = (u) => [...new URLSearchParams(new URL(u).hash.slice(1))].sort().join("&");
    for (let i = 0; i < 100 && params(calculator()?.url() ?? href + "?") !== params(href); i++)
      await new Promise((r) => setTimeout(r, 100));
    frame = calculator();
    check(params(frame.url()) === params(href), `the calculator shows ${frame.url()}, not ${href}`);
    await frame.waitForSelector("#results #speed", { timeout: 20000 });
    const report = JSON.parse(execFileSync(shardreel, ["numbers", storyboard, "--at", at, "--format", "json"]));
    figures += await checkFigures(frame, report, at);
  }
  check(links.length > 0, "no chapter links into the calculator");
  await page.evaluate(() => document.getElementById("film").pause());
  const starts = await page.$$eval("nav.chapters button.seek", (all) => Object.fromEntries(all.reverse().map((b) => [b.dataset.kind, Number(b.dataset.start)])));
  const mentions = await frame.$$eval("button.seek[data-chapter]", (all) => [...new Set(all.map((b) => b.dataset.chapter))]);
  check(mentions.length > 0, "the calculator seeks no chapter of the film");
  for (const kind of mentions) {
    await frame.click(`button.seek[data-chapter="${kind}"]`);
    await page.waitForFunction((t) => Math.abs(document.getElementById("film").currentTime - t) < 0.05, { timeout: 5000 }, starts[kind])
      .catch(() => check(false, `the calculator's "${kind}" does not seek the film to ${starts[kind]} s`));
  }
  console.log(`calculator: opens on the defaults, ${links.length} chapters open in it (${figures} figures equal to numbers), ` +
    `${mentions.length} chapter kinds it names seek the film`);
}

async function checkAxe(page, scheme) {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => (await axe.run(document)).violations);
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  for (const v of bad)
    failures.push(`axe (${scheme}): ${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target).join(" ")}`);
  console.log(`axe (${scheme}): ${violations.length} violations, ${bad.length} serious or critical`);
}

// Nothing wider than the viewport: the document, and every box of text.
async function checkOverflow(page, name) {
  const wide = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > w) out.push(`the page scrolls to ${document.documentElement.scrollWidth} px`);
    for (const el of document.querySelectorAll("h1,h2,h3,p,li,th,td,dt,dd,summary,math,figure,svg,video,nav,fieldset,label,output,input")) {
      if (el.closest(".glyphs")) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5))
        out.push(`${el.tagName.toLowerCase()} "${el.textContent.slice(0, 40)}" spans ${r.left.toFixed(0)}..${r.right.toFixed(0)} of ${w} px`);
    }
    return out;
  });
  for (const w of wide) failures.push(`${name}: ${w}`);
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
  console.log(`${name}: ${wide.length} boxes overflow; screenshot ${join(shotsDir, name + ".png")}`);
}

async function checkMotion(browser) {
  for (const value of ["reduce", "no-preference"]) {
    const { page, problems } = await openPage(browser, { media: [{ name: "prefers-reduced-motion", value }] });
    // Autoplay starts once enough of the film has loaded; on a busy machine that takes a while.
    if (value === "no-preference")
      await page.waitForFunction(() => !document.getElementById("film").paused, { timeout: 10000 }).catch(() => {});
    else await new Promise((r) => setTimeout(r, 1000));
    const state = await page.evaluate(() => {
      const v = document.getElementById("film");
      return { paused: v.paused, poster: v.getAttribute("poster"), playable: v.readyState >= 1 };
    });
    failures.push(...problems);
    check(existsSync(join(pageDir, state.poster)), `the poster ${state.poster} is missing`);
    if (value === "reduce") check(state.paused, "with reduced motion the film plays by itself");
    else if (state.playable) check(!state.paused, "without reduced motion the muted film does not start");
    console.log(`prefers-reduced-motion: ${value}: the film is ${state.paused ? "paused on its poster" : "playing"}`);
    await page.close();
  }
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--mute-audio"],
});
try {
  const { page, problems } = await openPage(browser);
  await checkFilm(page);
  await checkExplore(page);
  await checkCalculator(page);
  await checkAxe(page, "light");
  await checkOverflow(page, "desktop-1280x800-light");
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
  await checkAxe(page, "dark");
  await page.setViewport({ width: 390, height: 844 });
  await checkOverflow(page, "phone-390x844-dark");
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);
  await checkOverflow(page, "phone-390x844-light");
  failures.push(...problems);
  console.log(`requests and console: ${problems.length} problems`);
  await checkMotion(browser);
} finally {
  await browser.close();
}
for (const f of failures) console.error(`FAIL: ${f}`);
console.log(failures.length ? `${failures.length} failures` : "the page passes in chromium");
process.exit(failures.length ? 1 : 0);
