// `shardreel studio` over HTTP, as scripts use it: every endpoint against the CLI that makes the
// same thing (`still` for frames and stills, `numbers` for figures, `check` for errors), the
// event stream on a save, the refusals (400, 404, 405, 413, 414, 431, no file ever served), many
// clients at once, and how the server ends (Ctrl-C: 130; a taken port: 1; another host: a
// warning), and which Host headers it answers (its own address and port, --allow-host names;
// DNS rebinding gets 403). Node's own http and net: no browser.
// Usage: node studio_http_test.mjs SHARDREEL STORYBOARD WORK_DIR (spoken.yaml beside STORYBOARD)
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { dirname, join, resolve } from "node:path";

import { startStudio } from "./studio_process.mjs";

const [shardreel, storyboard, work] = process.argv.slice(2).map((p) => resolve(p));
const failures = [];
const check = (ok, what) => ok || failures.push(what);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const film = join(work, "film.yaml");
copyFileSync(storyboard, film);
const written = readFileSync(film, "utf8");
const cache = join(work, "cache");
let studio = await startStudio(shardreel, [film, "--cache", cache]);

function get(path, { method = "GET", headers = {}, agent = undefined } = {}) {
  return new Promise((done, fail) => {
    const req = http.request({ host: "127.0.0.1", port: studio.port, path, method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });
}
// Bytes as they are, for requests no well-behaved client sends: the reply's first 2 kB.
function raw(bytes) {
  return new Promise((done) => {
    const s = net.connect(studio.port, "127.0.0.1", () => s.write(bytes));
    let got = "";
    const finish = () => {
      s.destroy();
      done(got);
    };
    s.on("data", (d) => {
      got += d;
      if (got.includes("\r\n\r\n")) setTimeout(finish, 50);
    });
    s.on("close", finish);
    s.on("error", finish);
    setTimeout(finish, 3000);
  });
}
const cli = (...args) => execFileSync(shardreel, args, { stdio: ["ignore", "pipe", "pipe"] });
const stillBytes = (at, ext, size) => {
  const out = join(work, `still${ext}`);
  cli("still", film, "--at", at, "-o", out, ...(size ? ["--size", size] : []));
  return readFileSync(out);
};
const json = async (path) => JSON.parse((await get(path)).body);

// The page and the timeline.
const home = await get("/");
check(home.status === 200 && home.body.includes("<title>shardreel studio</title>"), `GET / is ${home.status}`);
const timeline = await json("/film.json");
const f = timeline.film;
check(f.chapters.map((c) => c.id).join() === "bytes,bubble,zero", `chapters ${f.chapters.map((c) => c.id)}`);
check(f.frames === 100 && f.fps === 10 && f.duration === 10, `frames ${f.frames} at ${f.fps} fps, ${f.duration} s`);
check(f.chapters[1].frame === 30 && f.chapters[1].beats[1].frame === 50, "bubble starts at frame 30, its second beat at 50");
check(f.captions.length === 4 && f.captions[2].text === "More micro-batches shrink it.", "four captions, the third the bubble's");
check(timeline.errors.length === 0 && timeline.version >= 1, "a first good load");

// Frames: the bytes `still` writes, named by ID@TIME or by seconds into the film, at any size.
for (const [query, at, size] of [
  ["at=bubble@2s", "bubble@2s"],
  ["t=5", "bubble@2s"],
  ["at=zero@end", "zero@end"],
  ["t=1.25&size=320x180", "bytes@1.2s", "320x180"],
]) {
  const r = await get(`/frame.png?${query}`);
  check(r.status === 200 && r.headers["content-type"] === "image/png", `frame ${query}: ${r.status}`);
  check(r.body.equals(stillBytes(at, ".png", size)), `frame ${query} is not still --at ${at}${size ? " --size " + size : ""}`);
}
const head = await get("/frame.png?at=bubble@2s", { method: "HEAD" });
check(head.status === 200 && head.body.length === 0, `HEAD /frame.png: ${head.status}, ${head.body.length} bytes`);

// Stills to save: full size, as `still` writes them, named as a download.
for (const ext of [".png", ".svg"]) {
  const r = await get(`/still${ext}?at=bubble@3s`);
  check(r.status === 200 && r.body.equals(stillBytes("bubble@3s", ext)), `/still${ext} is not still's`);
  check(/attachment; filename="film-bubble-30f\.(png|svg)"/.test(r.headers["content-disposition"] ?? ""), `/still${ext}: ${r.headers["content-disposition"]}`);
}

// The figures of a moment: `numbers` with the settings on screen then.
const n = await json("/numbers.json?at=bubble@3s");
const engine = JSON.parse(cli("numbers", film, "--micro-batches", "16", "--format", "json"));
check(JSON.stringify(n.numbers) === JSON.stringify(engine), "numbers at bubble@3s are not numbers --micro-batches 16");
check(n.stats.some((s) => s.key === "pipeline.bubble_fraction" && s.value === engine.pipeline.bubble_fraction), "no bubble stat");
const n0 = await json("/numbers.json?at=bubble@0s");
check(JSON.stringify(n0.numbers) === JSON.stringify(JSON.parse(cli("numbers", film, "--format", "json"))), "numbers at bubble@0s are not the storyboard's");

// Refusals, each with a status and a reason; the server serves on.
const refusals = [
  ["/frame.png?at=bubbel@1s", 400, "did you mean 'bubble'"],
  ["/frame.png?t=-1", 400, "t expects seconds"],
  ["/frame.png?t=abc", 400, "t expects seconds"],
  ["/frame.png?t=10.5", 400, "0 to 10"],
  ["/frame.png?size=641x360", 400, "even width"],
  ["/numbers.json?at=zero@9s", 400, "outside chapter"],
  ["/nope", 404, "no page /nope"],
];
for (const [path, status, says] of refusals) {
  const r = await get(path);
  check(r.status === status && r.body.toString().includes(says), `${path}: ${r.status} "${r.body}"`);
}
const post = await get("/frame.png", { method: "POST" });
check(post.status === 405 && post.headers.allow === "GET, HEAD", `POST: ${post.status}`);
const status = (reply) => Number(reply.split(" ")[1]);
const own = () => `Host: 127.0.0.1:${studio.port}`;
const rawCases = [
  ["a body", `GET /frame.png HTTP/1.1\r\n${own()}\r\nContent-Length: 10\r\n\r\n0123456789`, 413],
  ["5 kB of headers", `GET / HTTP/1.1\r\n${own()}\r\nX-Big: ${"a".repeat(5000)}\r\n\r\n`, 431],
  // cpp-httplib 0.11 (Debian 12) counts them into the headers' size, 431; 0.18 (Debian 13) stops
  // at its 100-header limit with 400. Either refuses.
  ["100 headers", `GET / HTTP/1.1\r\n${own()}\r\n${[...Array(100).keys()].map((i) => `X-${i}: ${"a".repeat(60)}\r\n`).join("")}\r\n`, [431, 400]],
  ["a 9 kB URI", `GET /${"a".repeat(9000)} HTTP/1.1\r\n${own()}\r\n\r\n`, 414],
  ["garbage", "GARBAGE\r\n\r\n", 400],
  ["a header line over 8 kB", `GET / HTTP/1.1\r\n${own()}\r\nX-Big: ${"a".repeat(9000)}\r\n\r\n`, 400],
];
for (const [name, bytes, want] of rawCases) {
  const reply = await raw(bytes);
  check([want].flat().includes(status(reply)), `${name}: "${reply.split("\r\n")[0]}", not ${want}`);
}
for (const path of ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/frame.png/../../../etc/passwd", `/${work}/film.yaml`]) {
  const reply = await raw(`GET ${path} HTTP/1.1\r\n${own()}\r\nConnection: close\r\n\r\n`);
  check(status(reply) === 404 && !reply.includes("root:") && !reply.includes("chapters:"), `${path}: ${reply.split("\r\n")[0]}`);
}
check((await get("/film.json")).status === 200, "the server stopped serving after the refusals");
console.log(`endpoints: frames, stills and numbers equal still and numbers; ${refusals.length + rawCases.length + 6} refusals`);

// DNS rebinding: only a Host naming the studio's own address and port is answered, on every
// route; a forged one, another port or none gets 403 with the reason; no CORS header anywhere.
const routes = ["/", "/film.json", "/frame.png?t=1", "/numbers.json?t=1", "/still.svg?t=1", "/audio.m4a", "/events", "/nope"];
for (const path of routes) {
  const r = await get(path, { headers: { Host: `evil.example:${studio.port}` } });
  check(r.status === 403 && r.body.toString().includes("answers only requests for its own address"), `forged Host on ${path}: ${r.status} "${r.body}"`);
  check(!("access-control-allow-origin" in r.headers), `${path} sends a CORS header`);
}
const hosts = [
  [`localhost:${studio.port}`, 200], [`LOCALHOST:${studio.port}`, 200], [`[::1]:${studio.port}`, 200],
  [`127.0.0.1:${studio.port}`, 200], ["127.0.0.1", 403], ["127.0.0.1:1", 403],
  [`127.0.0.1.evil.example:${studio.port}`, 403], [`[::2]:${studio.port}`, 403],
];
for (const [host, want] of hosts) {
  const r = await get("/film.json", { headers: { Host: host } });
  check(r.status === want, `Host ${host}: ${r.status}, not ${want}`);
  check(!("access-control-allow-origin" in r.headers), `Host ${host}: a CORS header`);
}
const hostless = await raw("GET /film.json HTTP/1.1\r\nConnection: close\r\n\r\n");
check(status(hostless) === 403 && hostless.includes("no Host header"), `no Host: ${hostless.split("\r\n")[0]}`);
console.log(`hosts: a forged Host refused on ${routes.length} routes, ${hosts.length} Host headers judged, none refused without a reason`);

// Many clients at once, with an event stream open: every reply is the one a lone client gets.
const events = [];
const stream = http.get({ host: "127.0.0.1", port: studio.port, path: "/events" }, (res) => {
  check(res.headers["content-type"] === "text/event-stream", `/events: ${res.headers["content-type"]}`);
  res.setEncoding("utf8");
  let buf = "";
  res.on("data", (d) => {
    buf += d;
    for (let i; (i = buf.indexOf("\n\n")) >= 0; buf = buf.slice(i + 2)) {
      const data = buf.slice(0, i).split("\n").find((l) => l.startsWith("data: "));
      if (data) events.push({ at: performance.now(), ...JSON.parse(data.slice(6)) });
    }
  });
});
const moments = [0.5, 2.2, 3.9, 5.1, 6.6, 8.8];
const lone = await Promise.all(moments.map(async (t) => (await get(`/frame.png?t=${t}`)).body));
const t0 = performance.now();
// 16 clients, each on its own keep-alive connection, asking for 6 frames one after another.
const replies = (await Promise.all(
  [...Array(16).keys()].map(async (c) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const same = [];
    for (let i = 0; i < 6; ++i) {
      const k = (c + i) % moments.length;
      const r = await get(`/frame.png?t=${moments[k]}`, { agent });
      same.push(r.status === 200 && r.body.equals(lone[k]));
    }
    agent.destroy();
    return same;
  }),
)).flat();
const concurrentMs = performance.now() - t0;
check(replies.every((ok) => ok), `${replies.filter((ok) => !ok).length} of ${replies.length} concurrent frames differ`);
console.log(`concurrency: 16 clients x 6 frames, all identical to a lone client's, in ${concurrentMs.toFixed(0)} ms`);

// A save is announced on the stream and served; a broken one keeps the film, with check's errors.
// (The stream also announces the sound being made, so events are looked for, not counted.)
const event = async (ok, ms = 2000) => {
  for (const t0 = performance.now(); performance.now() - t0 < ms; await new Promise((r) => setTimeout(r, 10))) {
    const e = events.find(ok);
    if (e) return e;
  }
  return null;
};
while (events.length === 0) await new Promise((r) => setTimeout(r, 20));
const base = events.at(-1).version;
const saved = performance.now();
writeFileSync(film, written.replace("More micro-batches shrink it.", "Sixteen micro-batches shrink it."));
const announcedEvent = await event((e) => e.version > base && e.errors.length === 0);
const announced = announcedEvent ? announcedEvent.at - saved : Infinity;
check(announced < 1000, `the save was announced after ${announced} ms`);
check((await json("/film.json")).film.captions[2].text === "Sixteen micro-batches shrink it.", "the new caption is not served");
writeFileSync(film, written.replace("duration: 4s", "duration: 4x"));
const brokenEvent = await event((e) => e.errors.length > 0);
let checked = "";
try {
  cli("check", film);
} catch (e) {
  checked = e.stderr.toString();
}
const broken = await json("/film.json");
check(JSON.stringify(broken.errors) === JSON.stringify(checked.split("\n").filter((l) => l)), `errors ${JSON.stringify(broken.errors)} vs check's ${checked}`);
check(JSON.stringify(brokenEvent?.errors) === JSON.stringify(broken.errors), "the stream did not carry the errors");
check(broken.film?.captions[2].text === "Sixteen micro-batches shrink it.", "the last good film was dropped");
check((await get("/frame.png?t=5")).status === 200, "no frame while the storyboard is broken");
writeFileSync(film, written);
await event((e) => e.version > brokenEvent?.version && e.errors.length === 0);
check((await json("/film.json")).errors.length === 0, "the errors stayed after the fix");
console.log(`reload: announced ${announced.toFixed(0)} ms after the save; a broken save keeps the film and lists check's errors`);

// Ctrl-C with a stream open: 130, promptly.
const stopAt = performance.now();
const code = await studio.stop();
const stopMs = performance.now() - stopAt;
stream.destroy();
check(code === 130 && stopMs < 3000, `Ctrl-C: exit ${code} after ${stopMs.toFixed(0)} ms`);

// Another host: a warning. A taken port: exit 1, saying so.
const open = await startStudio(shardreel, [film, "--host", "0.0.0.0", "--allow-host", "studio.test", "--cache", cache]);
await new Promise((r) => setTimeout(r, 200));
check(open.stderr().includes("warning: listening on 0.0.0.0"), `no warning for 0.0.0.0: ${open.stderr()}`);
// Listening on every address, it answers the machine's own addresses and the allowed name only.
const address = Object.values(os.networkInterfaces()).flat().find((a) => a.family === "IPv4" && !a.internal)?.address ?? "127.0.0.1";
const asked = async (host) => (await new Promise((done, fail) => {
  const req = http.request({ host: "127.0.0.1", port: open.port, path: "/film.json", headers: { Host: host } }, (res) => { res.resume(); done(res.statusCode); });
  req.on("error", fail);
  req.end();
}));
for (const [host, want] of [[`${address}:${open.port}`, 200], [`studio.test:${open.port}`, 200], [`evil.example:${open.port}`, 403]])
  check((await asked(host)) === want, `0.0.0.0 with --allow-host studio.test: Host ${host} is not ${want}`);
let taken = { status: 0, stderr: "" };
try {
  execFileSync(shardreel, ["studio", film, "--port", String(open.port), "--cache", cache], { stdio: ["ignore", "pipe", "pipe"], timeout: 20000 });
} catch (e) {
  taken = { status: e.status, stderr: e.stderr.toString() };
}
check(taken.status === 1 && taken.stderr.includes("cannot listen on 127.0.0.1"), `a taken port: exit ${taken.status}: ${taken.stderr}`);
await open.stop();
console.log(`exit: Ctrl-C 130 after ${stopMs.toFixed(0)} ms; a taken port 1; 0.0.0.0 warned`);

// A narrated film's sound: /audio.m4a is what `render --audio-only` writes, made again on a save.
const spoken = join(work, "spoken.yaml");
const spokenText = readFileSync(join(dirname(storyboard), "spoken.yaml"), "utf8");
writeFileSync(spoken, spokenText);
studio = await startStudio(shardreel, [spoken, "--cache", cache]);
const soundOf = async (version) => {
  for (const t0 = performance.now(); performance.now() - t0 < 20000; await new Promise((r) => setTimeout(r, 50))) {
    const j = await json("/film.json");
    if (j.audio && j.audio.version === version) return j.audio;
  }
  return null;
};
const first = await soundOf(1);
check(first && !first.none, `no sound for the narrated film: ${JSON.stringify(first)}`);
const m4a = await get("/audio.m4a");
cli("render", spoken, "--audio-only", "-o", join(work, "spoken.m4a"), "--cache", cache);
check(m4a.status === 200 && m4a.headers["content-type"] === "audio/mp4" && m4a.body.equals(readFileSync(join(work, "spoken.m4a"))),
      `/audio.m4a (${m4a.status}, ${m4a.body.length} bytes) is not render --audio-only's`);
const part = await get("/audio.m4a", { headers: { Range: "bytes=100-199" } });
check(part.status === 206 && part.body.length === 100, `a range of the sound: ${part.status}, ${part.body.length} bytes`);
const resaid = performance.now();
writeFileSync(spoken, spokenText.replace("more than one card", "two cards at least"));
const second = await soundOf(2);
const resoundMs = performance.now() - resaid;
check(second && !second.none, "no sound after the save");
check(!(await get("/audio.m4a")).body.equals(m4a.body), "the sound did not change with its line");
check((await studio.stop()) === 130, "the narrated studio did not end with 130");
const silent = await startStudio(shardreel, [film, "--cache", cache]);
studio = silent;
const none = await soundOf(1);
const noSound = await get("/audio.m4a");
check(none?.none === true && noSound.status === 404 && noSound.body.includes("makes no sound"), `a silent film's sound: ${noSound.status} ${noSound.body}`);
await silent.stop();
console.log(`sound: /audio.m4a = render --audio-only (${m4a.body.length} bytes), ranges served; a changed line sounds ${resoundMs.toFixed(0)} ms after the save; a silent film 404`);

// --lang: the film in one of the languages the storyboard lists; one it does not list is an error
// the studio serves (the storyboard may be edited to add it), a malformed tag exits 2.
const languages = join(dirname(storyboard), "languages.yaml");
studio = await startStudio(shardreel, [languages, "--lang", "de", "--cache", cache]);
const german = await json("/film.json");
check(german.errors.length === 0 && german.film.captions[0].text === "Eine Titelkarte.",
      `studio --lang de: ${JSON.stringify(german.film?.captions?.[0])} ${german.errors}`);
await studio.stop();
studio = await startStudio(shardreel, [languages, "--lang", "ja", "--cache", cache]);
const unlisted = await json("/film.json");
check(JSON.stringify(unlisted.errors).includes("no ja text"), `studio --lang ja (not listed): ${unlisted.errors}`);
await studio.stop();
let malformed = 0;
try {
  execFileSync(shardreel, ["studio", languages, "--lang", "x!", "--port", "0"], { stdio: "pipe" });
} catch (e) {
  malformed = e.status;
}
check(malformed === 2, `studio --lang x! exits ${malformed}`);
console.log("languages: studio --lang de serves the German film; an unlisted language is an error served; a bad tag exits 2");

for (const x of failures) console.error(`FAIL: ${x}`);
console.log(failures.length ? `${failures.length} failures` : "the studio's HTTP passes");
process.exit(failures.length ? 1 : 0);
