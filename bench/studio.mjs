// Benchmark (not part of the test suite): how fast the studio answers. Over one running studio:
// the latency of /frame.png for SCRUBS scrubs (random moments of the film, one request at a time,
// as the page asks) at each preview size, p50/p95/max; playback (consecutive frames, one at a
// time) in frames per second; and, as the ratio the project reports, the scrub p50 over one
// `shardreel still` of the same moment at the same size (the loop the studio replaces).
// Usage: node bench/studio.mjs SHARDREEL STORYBOARD [SCRUBS]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import http from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { startStudio } from "../tests/render/studio_process.mjs";

const [shardreel, storyboard] = process.argv.slice(2, 4).map((p) => resolve(p));
const scrubs = Number(process.argv[4] ?? 300);
const studio = await startStudio(shardreel, [storyboard]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (path) =>
  new Promise((done, fail) => {
    const t0 = performance.now();
    http.get({ host: "127.0.0.1", port: studio.port, path, agent }, (res) => {
      let bytes = 0;
      res.on("data", (c) => (bytes += c.length));
      res.on("end", () => (res.statusCode === 200 ? done({ ms: performance.now() - t0, bytes }) : fail(new Error(`${path}: ${res.statusCode}`))));
    }).on("error", fail);
  });
const film = JSON.parse(await new Promise((done) => http.get({ host: "127.0.0.1", port: studio.port, path: "/film.json", agent }, (res) => {
  let s = "";
  res.on("data", (c) => (s += c));
  res.on("end", () => done(s));
}))).film;

let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const scratch = mkdtempSync(join(tmpdir(), "studio-bench-"));

console.log(`studio on ${film.storyboard}: ${film.frames} frames at ${film.fps} fps, ${scrubs} scrubs per size; load ${(await import("node:os")).loadavg()[0].toFixed(2)}`);
console.log("| size | scrub p50 ms | p95 ms | max ms | mean PNG kB | playback frames/s | still CLI ms | scrub p50 / still |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const size of ["960x540", "1920x1080"]) {
  const times = [], sizes = [];
  for (let i = 0; i < 10; ++i) await get(`/frame.png?t=${(i * film.duration) / 10}&size=${size}`); // every chapter built once
  for (let i = 0; i < scrubs; ++i) {
    const t = Math.floor(random() * film.frames) / film.fps;
    const r = await get(`/frame.png?t=${t}&size=${size}`);
    times.push(r.ms);
    sizes.push(r.bytes);
  }
  // Playback: 4 s of film from the middle of a chapter, frame after frame.
  const start = film.chapters[Math.floor(film.chapters.length / 2)].frame;
  const frames = 4 * film.fps, t0 = performance.now();
  for (let f = start; f < start + frames; ++f) await get(`/frame.png?t=${f / film.fps}&size=${size}`);
  const playback = frames / ((performance.now() - t0) / 1000);
  // One still of a moment in the middle of the film, as the CLI draws it (process and all).
  const c = film.chapters[Math.floor(film.chapters.length / 2)];
  const s0 = performance.now();
  for (let i = 0; i < 5; ++i)
    execFileSync(shardreel, ["still", storyboard, "--at", `${c.id}@${(c.duration / 2).toFixed(2)}s`, "--size", size, "-o", join(scratch, "s.png")]);
  const still = (performance.now() - s0) / 5;
  const p50 = quantile(times, 0.5);
  console.log(`| ${size} | ${p50.toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024).toFixed(0)} | ${playback.toFixed(1)} | ${still.toFixed(0)} | ${(p50 / still).toFixed(2)} |`);
}
// Playback in the page itself, in chromium when there is one: the frames shown per second while
// it plays at 1x (30 fps wanted), image decoding and all.
const chromium = process.env.SHARDREEL_CHROMIUM ?? "/usr/bin/chromium";
if (existsSync(chromium)) {
  const tools = createRequire(resolve(dirname(fileURLToPath(import.meta.url)), "../tests/js/package.json"));
  const browser = await tools("puppeteer-core").launch({ executablePath: chromium, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(studio.url, { waitUntil: "load" });
  await page.waitForFunction(() => studio.film && studio.shown, { timeout: 30000 });
  await page.evaluate(() => studio.seek(studio.film.chapters[Math.floor(studio.film.chapters.length / 2)].frame));
  await page.focus("#timeline");
  await page.keyboard.press("l");
  await new Promise((r) => setTimeout(r, 4000));
  const shown = await page.evaluate(() => studio.fps);
  console.log(`\nin chromium at 1x (the film's ${film.fps} fps wanted): ${shown.toFixed(1)} frames/s shown (over the last 2 s)`);
  await browser.close();
}
agent.destroy();
await studio.stop();
rmSync(scratch, { recursive: true, force: true });
