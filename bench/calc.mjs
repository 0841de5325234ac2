// The calculator page's latency in Debian's chromium (bench/calc.sh): an input change until
// every output is drawn, the top layouts redrawn after a change plan reads, and plan for 64
// GPUs, each timed inside the page.
// Usage: node bench/calc.mjs SOURCE_DIR PAGE.html CHANGES
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { browserTools } from "../tests/js/browser.mjs";

const [root, pagePath, changes = "300"] = process.argv.slice(2);
const { chromium, puppeteer } = browserTools(resolve(root));
const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))];
const ms = (v) => v.toFixed(1);

// In the page: a control changed as a reader changes it (its value, then its input event), the
// time until the handler has redrawn every output, until the next frame is painted, and the
// main thread's work in it: the handler, then the frame's style, layout and paint (from its
// animation frame to the task after it), without the wait for the frame's turn.
async function change(flag, value) {
  const input = document.getElementById(`in${flag}`);
  const t0 = performance.now();
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  const handled = performance.now() - t0;
  let frame = 0;
  await new Promise((done) => requestAnimationFrame(() => {
    frame = performance.now();
    setTimeout(done);
  }));
  const end = performance.now();
  return [handled, end - t0, handled + end - frame];
}

// In the page: a change of an input plan reads (the sequence length), until the top layouts
// for it are drawn (plan runs in its worker, outside the input's frame).
async function replanned(value) {
  const results = document.getElementById("results");
  const t0 = performance.now();
  window.calculator.show({ ...Object.fromEntries(new URLSearchParams(location.hash.slice(1))), "--seq": value });
  while (!results.dataset.planned) await new Promise((done) => setTimeout(done, 1));
  return performance.now() - t0;
}

// In the page: plan's top 5 for a model on 64 GPUs, timed; and its size.
function plan(model) {
  const t0 = performance.now();
  const answer = window.calculator.calc.plan({ "--model": model, "--gpus": "64" }, 5);
  return [performance.now() - t0, answer.report ? JSON.parse(answer.report).length : answer.errors[0]];
}

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
  args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${pathToFileURL(pagePath).href}#--model=llama-2-70b&--gpus=64&--tp=8`, { waitUntil: "load" });
  await page.waitForSelector("#results #speed");
  // The changes a reader makes: micro-batches, tp, ZeRO stage, sequence length, in turn.
  const steps = [["--micro-batches", ["4", "8", "16", "32"]], ["--tp", ["1", "2", "4", "8"]],
    ["--zero", ["0", "1", "2", "3"]], ["--seq", ["2048", "4096", "8192"]]];
  const handled = [], framed = [], worked = [];
  for (let i = 0; i < +changes; i++) {
    const [flag, values] = steps[i % steps.length];
    const [h, f, w] = await page.evaluate(change, flag, values[Math.floor(i / steps.length) % values.length]);
    handled.push(h);
    framed.push(f);
    worked.push(w);
  }
  await page.evaluate(() => window.calculator.flush?.());  // (a page before the flush wrote it at once)
  const layouts = [];
  for (let i = 0; i < 20; i++) layouts.push(await page.evaluate(replanned, ["2048", "4096", "8192"][i % 3]));
  const plans = [];
  for (const model of ["llama-2-7b", "llama-2-70b", "llama-3.1-405b", "deepseek-v3"]) {
    const times = [];
    let layouts;
    for (let i = 0; i < 10; i++) {
      const [t, n] = await page.evaluate(plan, model);
      times.push(t);
      layouts = n;
    }
    plans.push([model, times, layouts]);
  }
  console.log(`| what | runs | p50 (ms) | p95 (ms) | max (ms) |\n|---|---:|---:|---:|---:|`);
  const row = (what, list) => console.log(`| ${what} | ${list.length} | ${ms(quantile(list, 0.5))} | ${ms(quantile(list, 0.95))} | ${ms(Math.max(...list))} |`);
  row("input change → every output redrawn (handler)", handled);
  row("input change → handler and the next frame's style, layout, paint", worked);
  row("input change → next frame painted (with the wait for it)", framed);
  row("input change plan reads → top layouts redrawn (llama-2-70b on 64 GPUs)", layouts);
  for (const [model, times, layouts] of plans) row(`plan, ${model} on 64 GPUs (top ${layouts})`, times);
} finally {
  await browser.close();
}
