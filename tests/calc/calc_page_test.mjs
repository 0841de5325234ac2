// The calculator page of `shardreel calculator` in a real browser: Debian's chromium, driven by
// puppeteer-core from tests/js, opening DIR/index.html from file://. It sets settings through the
// page's controls and compares every figure shown (and the memory bar's widths) with
// `shardreel numbers --format json` for the same flags; checks that a value the engine refuses
// shows the engine's own line beside its control (or at the top when the line names no flag)
// and keeps the last result; that the URL fragment round-trips through a reload; no console
// error and no request but file: and data:; axe-core 0 violations in light and dark; no
// horizontal scroll at 390 px, the key figures in sight at the form's end. Exits 77 (ctest: Skipped) when there is no chromium.
// Usage: node calc_page_test.mjs SOURCE_DIR SHARDREEL OUT_DIR
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { browserTools, finish, watchedPage } from "../js/browser.mjs";
import { shown } from "./shown.mjs";

const [root, shardreel, outDir] = process.argv.slice(2).map((p) => resolve(p));
const { chromium, puppeteer, axeSource, failures, check } = browserTools(root);

rmSync(outDir, { recursive: true, force: true });
const written = execFileSync(shardreel, ["calculator", "-o", outDir], { encoding: "utf8" }).trim();
const pagePath = join(outDir, "index.html");
check(written === pagePath, `calculator printed "${written}", not ${pagePath}`);
const size = statSync(pagePath).size;
check(size < 1e6, `the page (module and scripts inside) is ${size} bytes, over 1 MB`);
console.log(`page: ${size} bytes`);
const url = pathToFileURL(pagePath).href;

// The native answer: the report, or the lines after "shardreel: error: ".
function native(flags, command = "numbers") {
  const args = [command, ...Object.entries(flags).flat(), "--format", "json"];
  const run = spawnSync(shardreel, args, { encoding: "utf8" });
  if (run.status === 0) return { report: JSON.parse(run.stdout), text: run.stdout };
  return { errors: run.stderr.trim().split("\n").map((l) => l.replace(/^shardreel: error: /, "")) };
}
const lookup = (json, key) => key.split(".").reduce((o, k) => (o == null ? o : o[k]), json);

const { browser, page, problems } = await watchedPage(puppeteer, chromium);
await page.setViewport({ width: 1280, height: 900 });

const ready = () => page.waitForSelector("#results #speed", { timeout: 20000 });
// Sets a control as a reader does: picks the option, or selects the text and types over it.
async function set(flag, value) {
  const selector = `[id="in${flag}"]`;
  if (await page.$eval(selector, (e) => e.tagName === "SELECT")) await page.select(selector, value);
  else {
    // Typed over the selected text, so no value but the last is ever in the control alone.
    await page.focus(selector);
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyA");
    await page.keyboard.up("Control");
    if (value) await page.keyboard.type(value);
    else await page.keyboard.press("Backspace");
  }
}
const figures = () => page.$$eval("[data-key]", (all) => all.map((e) =>
  ({ key: e.dataset.key, unit: e.dataset.unit, text: e.textContent })));
const inputs = () => page.$$eval("#settings input, #settings select", (all) =>
  Object.fromEntries(all.map((e) => [e.id.slice(2), e.value])));

// In the page: how a row's part over capacity is drawn, and the colours it should be drawn in.
function overLook(row) {
  const style = (selector) => getComputedStyle(document.querySelector(`svg.stack ${selector}`));
  const colour = (name) => {
    const probe = document.body.appendChild(document.createElement("i"));
    probe.style.color = `var(--${name})`;
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  };
  const over = style(`rect[data-row="${row}"][data-part="over"]`);
  return { fill: over.fill, stroke: over.stroke, hatch: style("pattern line").stroke, bg: colour("bg"),
    label: style(`[data-over="${row}"]`).fill, highlight: colour("highlight") };
}

// Every figure on screen against the native report, the bar's parts against its bytes.
async function compare(flags, what) {
  const { report, errors } = native(flags);
  if (!check(report, `${what}: numbers refuses ${JSON.stringify(flags)}: ${errors}`)) return;
  const shownFigures = await figures();
  let compared = 0;
  for (const f of shownFigures) {
    const v = lookup(report, f.key);
    const want = typeof v === "boolean" ? (v ? "yes" : "no") : shown[f.unit](v);
    compared += check(f.text === want, `${what}: ${f.key} shows "${f.text}", numbers says "${want}"`) === true;
  }
  for (const key of ["per_gpu.weights_bytes", "expected_peak.total_bytes", "comm_per_step.tp_bytes_per_gpu",
    "pipeline.bubble_fraction", "step.source", "step.seconds", "step.mfu", "step.tokens_per_second_per_gpu"])
    check(shownFigures.some((f) => f.key === key), `${what}: ${key} is not shown`);
  const bars = await page.$$eval("svg.stack rect", (all) => all.map((r) =>
    [r.dataset.row, r.dataset.part, Number(r.getAttribute("width"))]));
  const labels = await page.$$eval("[data-over]", (all) => Object.fromEntries(all.map((t) => [t.dataset.over, t.textContent])));
  const per = report.per_gpu;
  const { first_stage: first, last_stage: last } = report.expected_peak;
  const stage = first.total_bytes >= last.total_bytes ? first : last;
  const scale = bars[0][2] / per.weights_bytes;
  const rows = { paper: [per, per.total_bytes], peak: [stage, stage.total_bytes] };
  for (const [row, [bytes, total]] of Object.entries(rows)) {
    const bar = Object.fromEntries(bars.filter(([r]) => r === row).map(([, part, w]) => [part, w]));
    for (const part of ["weights", "gradients", "optimizer", "activations"])
      check(Math.abs(bar[part] - bytes[`${part}_bytes`] * scale) < 1e-6, `${what}: the ${row} ${part} bar is ${bar[part]} wide`);
    const other = total - ["weights", "gradients", "optimizer", "activations"].reduce((a, p) => a + bytes[`${p}_bytes`], 0);
    check(Math.abs((bar.other ?? 0) - other * scale) < 1e-6, `${what}: the ${row} row's other terms are ${bar.other} wide`);
    const over = total - per.capacity_bytes;
    check((bar.over ?? 0) > 0 === over > 0, `${what}: ${row} hatched ${bar.over} for ${over} bytes over capacity`);
    if (over <= 0) continue;
    check(labels[row] === `over by ${shown.GB(over)}`, `${what}: the ${row} overflow reads "${labels[row]}"`);
    check(Math.abs(bar.over - over * scale) < 1e-6, `${what}: the ${row} hatched part is ${bar.over} wide`);
    // As the film spills it (STYLE.md): the parts' own colours under a hatch in the background
    // colour, no outline, "over by" in the highlight colour.
    const look = await page.evaluate(overLook, row);
    check(look.stroke === "none" && look.fill.includes("#over-hatch") && look.hatch === look.bg &&
      look.label === look.highlight, `${what}: the ${row} overflow looks ${JSON.stringify(look)}`);
  }
  const over = per.total_bytes - per.capacity_bytes;
  console.log(`${what}: ${compared} figures equal to numbers' (${over > 0 ? "over capacity" : "fits"})`);
  return shownFigures;
}

// A refused value: the engine's lines beside the control (or at the top), the last result kept.
async function refuse(flags, flag, value, placeAt) {
  const before = await figures();
  await set(flag, value);
  const { errors } = native({ ...flags, [flag]: value });
  if (!check(errors, `${flag} ${value}: numbers takes it`)) return;
  const beside = await page.$eval(`[id="in${flag}-error"]`, (e) => e.textContent);
  const top = await page.$$eval("#problems p", (all) => all.map((p) => p.textContent));
  const invalid = await page.$eval(`[id="in${flag}"]`, (e) => e.getAttribute("aria-invalid"));
  if (placeAt === "beside") {
    check(beside === errors.join(" "), `${flag} ${value}: beside the control "${beside}", numbers says "${errors}"`);
    check(invalid === "true", `${flag} ${value}: the control is not marked invalid`);
  } else {
    check(errors.every((e) => top.includes(e)), `${flag} ${value}: at the top ${JSON.stringify(top)}, numbers says "${errors}"`);
    check(beside === "", `${flag} ${value}: "${beside}" beside the control, though the line names no flag`);
  }
  check(JSON.stringify(await figures()) === JSON.stringify(before), `${flag} ${value}: the last result changed`);
  await set(flag, flags[flag] ?? "");
  check(await page.$eval(`[id="in${flag}-error"]`, (e) => e.textContent) === "", `${flag}: the error stays after the fix`);
  console.log(`${flag} ${value}: "${errors[0]}" shown ${placeAt}, the last result kept`);
}

// The top layouts: each row against `plan --format json` for the inputs but the layout's own,
// the CSV and JSON downloads, and the last row's button making that layout the inputs.
async function planned(flags) {
  await page.waitForFunction(() => document.getElementById("results").dataset.planned, { timeout: 20000 });
  const layoutFlags = ["--tp", "--pp", "--cp", "--ep", "--zero", "--shard-group", "--offload", "--micro-batch",
    "--micro-batches", "--schedule", "--chunks", "--recompute", "--sequence-parallel"];
  const rest = Object.fromEntries(Object.entries(flags).filter(([f]) => !layoutFlags.includes(f)));
  const { report: layouts, text } = native({ ...rest, "--top": "5" }, "plan");
  const rows = await page.$$eval("#plan tbody tr", (all) => all.map((r) => [...r.cells].map((c) => c.textContent)));
  check(rows.length === layouts.length, `plan: ${rows.length} rows shown, plan prints ${layouts.length}`);
  layouts.forEach((e, i) => {
    const want = [`${i + 1}`, `dp ${e.dp} × tp ${e.tp} × pp ${e.pp}${e.cp > 1 ? ` × cp ${e.cp}` : ""}`,
      `${e.micro_batches} × ${e.micro_batch}`, shown.GB(e.expected_peak.total_bytes), shown.seconds(e.step.seconds),
      shown.percent(e.step.mfu)];
    for (const cell of want) check(rows[i]?.includes(cell), `plan row ${i + 1}: ${JSON.stringify(rows[i])} lacks "${cell}"`);
  });
  const source = await page.$eval("#plan [data-source]", (p) => p.textContent);
  check(source === shown.source(layouts[0].step.source), `plan: its steps are named "${source}"`);
  const links = await page.$$eval("#plan a[download]", (all) => Object.fromEntries(all.map((a) => [a.download, a.href])));
  const body = (href) => decodeURIComponent(href.slice(href.indexOf(",") + 1));
  check(body(links["plan.json"] ?? ",") === text, "plan.json is not what plan --format json prints");
  const csv = body(links["plan.csv"] ?? ",").trim().split("\n").map((l) => l.split(","));
  const stepColumn = csv[0].indexOf("step.seconds");
  check(csv.length === layouts.length + 1 && stepColumn >= 0 &&
    layouts.every((e, i) => Number(csv[i + 1][stepColumn]) === e.step.seconds), "plan.csv's step.seconds column differs from plan's");
  const last = layouts.length - 1, chosen = layouts[last];
  await page.click(`#plan [data-use="${last}"]`);
  const now = await inputs();
  const want = { "--tp": chosen.tp, "--pp": chosen.pp, "--zero": chosen.zero, "--micro-batches": chosen.micro_batches,
    "--schedule": chosen.schedule, "--recompute": chosen.recompute, "--offload": chosen.offload.mode };
  for (const [flag, value] of Object.entries(want))
    check(now[flag] === String(value), `after "Use" on layout ${last + 1}: ${flag} is "${now[flag]}", not ${value}`);
  const given = Object.fromEntries(Object.entries(now).filter(([, v]) => v));
  const result = await compare(given, `layout ${last + 1} of plan, one click away`);
  const peak = result?.find((f) => f.key === "expected_peak.total_bytes");
  check(peak?.text === shown.GB(chosen.expected_peak.total_bytes), `layout ${last + 1}: the peak shown is not plan's`);
  console.log(`plan: ${rows.length} layouts as plan prints them, CSV and JSON, layout ${last + 1} one click away`);
  return given;
}

async function axeRun(scheme) {
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => (await axe.run(document)).violations);
  for (const v of violations) failures.push(`axe (${scheme}): ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target).join(" ")}`);
  console.log(`axe (${scheme}): ${violations.length} violations`);
}

try {
  await page.goto(`${url}#--model=llama-2-70b&--gpus=8`, { waitUntil: "load" });
  await ready();
  await compare({ "--model": "llama-2-70b", "--gpus": "8" }, "from the fragment");
  // A model by its count, as a storyboard's `model: 7B` links here: shown and computed, not
  // dropped for the default llama-2-7b.
  const counted = { "--model": "7B", "--micro-batches": "4", "--zero": "1" };
  await page.goto(`${url}#--model=7B&--micro-batches=4&--zero=1`, { waitUntil: "load" });
  await ready();
  check((await inputs())["--model"] === "7B", `#--model=7B shows the model "${(await inputs())["--model"]}"`);
  await compare(counted, "a model by its count");
  await page.goto(`${url}#--model=llama-2-70b&--gpus=8`, { waitUntil: "load" });
  await ready();
  const flags = { "--model": "llama-2-70b", "--gpus": "64", "--tp": "8", "--pp": "2", "--zero": "1",
    "--micro-batches": "8", "--schedule": "1f1b", "--recompute": "selective", "--gpu": "h200-sxm-141gb" };
  for (const [flag, value] of Object.entries(flags)) await set(flag, value);
  const result = await compare(flags, "set through the controls");
  await refuse(flags, "--tp", "0", "beside");
  await refuse(flags, "--network", "fast", "beside");
  await refuse(flags, "--tp", "3", "at the top");
  // The fragment is written once the inputs rest (flush: now).
  const hash = await page.evaluate(() => {
    window.calculator.flush();
    return location.hash;
  });
  const want = `#${Object.entries(flags).map(([k, v]) => `${k}=${v}`).join("&")}`;
  check([...new URLSearchParams(hash.slice(1))].sort().join() === [...new URLSearchParams(want.slice(1))].sort().join(),
    `the fragment is ${hash}, not ${want}`);
  const before = await inputs();
  await page.reload({ waitUntil: "load" });
  await ready();
  check(JSON.stringify(await inputs()) === JSON.stringify(before), "a reload gives other inputs");
  check(JSON.stringify(await figures()) === JSON.stringify(result), "a reload gives other figures");
  console.log(`fragment: ${hash} round-trips through a reload`);
  // Where the step time comes from, named beside it as numbers names it, and renamed in place
  // when an MFU or a measured step is given (and again when it is taken away).
  const source = () => page.$eval('#speed [data-key="step.source"]', (e) => e.textContent);
  check(await source() === "Step time (predicted, set on nanotron's H100 runs)", `predicted: the step reads "${await source()}"`);
  for (const [flag, value, words] of [["--mfu", "0.45", "Step time (at the given MFU)"],
    ["--step-time", "12", "Step time (measured)"]]) {
    await set(flag, value);
    await page.waitForFunction((w) => document.querySelector('#speed [data-key="step.source"]')?.textContent === w,
      { timeout: 20000 }, words).catch(() => {});
    await compare({ ...flags, "--mfu": "0.45", ...(flag === "--step-time" ? { "--step-time": value } : {}) }, `with ${flag} ${value}`);
    check(await source() === words, `with ${flag} ${value}: the step reads "${await source()}"`);
  }
  await set("--step-time", "");
  await set("--mfu", "");
  await page.waitForFunction(() => document.querySelector('#speed [data-key="step.source"]')?.textContent.includes("predicted"),
    { timeout: 20000 }).catch(() => {});
  check(await source() === "Step time (predicted, set on nanotron's H100 runs)", `given back: the step reads "${await source()}"`);
  console.log("step time: named predicted, at the given MFU and measured as numbers names it");
  const layout = await planned(flags);
  await set("--tokens", "2T");
  await compare({ ...layout, "--tokens": "2T" }, "a run of 2T tokens");
  check(await page.$("#run") !== null, "no run totals for --tokens 2T");
  // A link followed while the last inputs wait to be written: that write lands before the
  // hashchange event (as it did on a loaded machine, the film page's links clicked in turn), and
  // the calculator still shows the link's inputs and ends with them in its fragment.
  const link = { "--model": "llama-2-70b", "--gpus": "32", "--tp": "4" };
  const shown = await page.evaluate((flags, hash) => new Promise((done) => {
    addEventListener("hashchange", () => setTimeout(() => {
      window.calculator.flush();
      done(location.hash);
    }), { once: true });
    window.calculator.show(flags);
    location.hash = hash;
    window.calculator.flush();
  }), { ...flags, "--tp": "2" }, `#${Object.entries(link).map(([k, v]) => `${k}=${v}`).join("&")}`);
  const linked = Object.fromEntries(Object.entries(await inputs()).filter(([, v]) => v));
  check(JSON.stringify(linked) === JSON.stringify(link), `after a link followed mid-write the inputs are ${JSON.stringify(linked)}`);
  check(new URLSearchParams(shown.slice(1)).get("--gpus") === "32", `after a link followed mid-write the fragment is ${shown}`);
  console.log(`fragment: a link followed while a write waits shows ${shown}`);
  await axeRun("light");
  await axeRun("dark");
  await page.setViewport({ width: 390, height: 844 });
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  check(widths[0] <= widths[1], `at 390 px the page scrolls to ${widths[0]} px of ${widths[1]}`);
  // The key figures stay in sight while the reader works down the form.
  await page.focus("#settings fieldset:last-of-type .field:last-child input, #settings fieldset:last-of-type .field:last-child select");
  const key = await page.$eval("#key", (k) => ({ top: k.getBoundingClientRect().top, bottom: k.getBoundingClientRect().bottom,
    scrolled: window.scrollY, figures: k.querySelectorAll("[data-key]").length }));
  check(key.scrolled > 0 && key.top >= 0 && key.bottom <= 844 && key.figures === 4,
    `at 390 px, at the form's last control (scrolled ${key.scrolled} px), the key figures are at ${key.top}..${key.bottom} px`);
  console.log(`phone: ${widths[0]} px wide in ${widths[1]}; at the form's end (scrolled ${key.scrolled} px) the key figures at ${Math.round(key.top)}..${Math.round(key.bottom)} px`);
} finally {
  await browser.close();
}
finish(failures, problems, "the calculator page passes in chromium");
