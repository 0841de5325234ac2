// The studio's page; see studio_page.hpp. The script keeps one frame request in flight: when the
// playhead moves faster than frames arrive, the frames between are skipped, never queued.
#include "render/studio/studio_page.hpp"

namespace render {
namespace {

const char* kPage = R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark light">
<title>shardreel studio</title>
<link rel="icon" href="data:,">
<style>
:root{color-scheme:dark;--bg:#0e1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--accent:#4493f8;--panel:#151b23;--bad:#f85149;--beat:#d29922}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
header h1{font-size:1.05rem;margin:0}
header .path,#status{color:var(--muted);font-size:.9rem}
#status{margin-left:auto;font-variant-numeric:tabular-nums}
main{display:grid;grid-template-columns:minmax(0,1fr) 22rem;gap:1rem;padding:1rem;max-width:110rem;margin:0 auto}
@media (max-width:60rem){main{grid-template-columns:minmax(0,1fr)}}
.stage{align-self:start;position:relative;background:#000;border-radius:6px;overflow:hidden;line-height:0}
#frame{display:block;width:100%;height:auto}
#errors{position:absolute;left:0;right:0;bottom:0;line-height:1.45;background:rgba(40,10,12,.94);border-top:3px solid var(--bad);padding:.6rem 1rem;max-height:60%;overflow:auto}
#errors h2{font-size:1rem;margin:0 0 .3rem;color:#ffb3ad}
#errors ul{margin:0;padding-left:1.1rem;font:13px/1.45 ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre-wrap}
aside{display:flex;flex-direction:column;gap:.75rem;min-width:0}
aside h2{font-size:1.15rem;margin:0}
#where{color:var(--muted);margin:0}
#caption{margin:0;padding:.5rem .75rem;background:var(--panel);border-radius:6px;min-height:2.5rem}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--line);padding:.3rem .4rem;text-align:left;vertical-align:top;font-weight:400}
td{text-align:right;white-space:nowrap}
#maths math{display:block;margin:.3rem 0;font-size:1rem;max-width:100%;overflow-x:auto}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}
button,a.button{font:inherit;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.3rem .7rem;cursor:pointer;text-decoration:none}
button:hover,a.button:hover{border-color:var(--accent)}
button:focus-visible,a:focus-visible,#timeline:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
#command{display:block;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;background:var(--panel);padding:.4rem .6rem;border-radius:6px;overflow-wrap:anywhere}
.transport{grid-column:1/-1;display:flex;flex-direction:column;gap:.5rem}
.controls{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.sound{display:inline-flex;gap:.3rem;align-items:center;margin-left:.5rem;color:var(--muted)}
#clock{margin-left:.5rem;font-variant-numeric:tabular-nums;color:var(--muted)}
#timeline{position:relative;height:3.4rem;background:var(--panel);border:1px solid var(--line);border-radius:6px;cursor:pointer;user-select:none;touch-action:none}
.block{position:absolute;top:0;bottom:0;border-right:1px solid var(--line);overflow:hidden;padding:.2rem .35rem;font-size:.8rem;color:var(--muted);white-space:nowrap;text-overflow:ellipsis}
.block.now{background:rgba(68,147,248,.12);color:var(--fg)}
.tick{position:absolute;bottom:0;width:2px;height:.9rem;background:var(--beat);margin-left:-1px}
#playhead{position:absolute;top:-3px;bottom:-3px;width:2px;background:var(--accent);margin-left:-1px;pointer-events:none}
details{color:var(--muted)}
kbd{font:12px ui-monospace,monospace;border:1px solid var(--line);border-radius:4px;padding:0 .3rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
</style>
</head>
<body>
<header><h1 id="title">shardreel studio</h1><span class="path" id="path"></span><span id="status" role="status"></span></header>
<main>
<section class="stage" aria-label="Preview">
<img id="frame" alt="The frame at the playhead">
<div id="errors" role="alert" hidden><h2>The storyboard has errors: the picture is the last good one</h2><ul id="error-list"></ul></div>
</section>
<aside aria-label="The moment">
<div><h2 id="chapter">&nbsp;</h2><p id="where"></p></div>
<p id="caption" aria-live="polite"></p>
<table id="stats"><caption class="sr">The cost model at this moment</caption><tbody></tbody></table>
<div id="maths"></div>
<div class="actions"><a class="button" id="save-png" download>Save PNG</a><a class="button" id="save-svg" download>Save SVG</a><button type="button" id="copy">Copy command</button></div>
<code id="command"></code>
</aside>
<section class="transport" aria-label="Timeline">
<div class="controls">
<button type="button" id="prev-beat" title="Previous beat ([)">&#9664;&#9664; Beat</button>
<button type="button" id="prev-frame" title="Previous frame (Left)">&#9664; Frame</button>
<button type="button" id="play" title="Play or pause (Space, K)">&#9654; Play</button>
<button type="button" id="next-frame" title="Next frame (Right)">Frame &#9654;</button>
<button type="button" id="next-beat" title="Next beat (])">Beat &#9654;&#9654;</button>
<label class="sound"><input type="checkbox" id="sound" checked> Sound</label>
<span id="clock"></span>
</div>
<audio id="audio" preload="auto"></audio>
<div id="timeline" role="slider" tabindex="0" aria-label="Playhead" aria-valuemin="0"><div id="playhead"></div></div>
<details><summary>Keyboard</summary><p><kbd>Space</kbd> play/pause · <kbd>&larr;</kbd> <kbd>&rarr;</kbd> a frame (with <kbd>Shift</kbd>: a second) · <kbd>J</kbd> <kbd>K</kbd> <kbd>L</kbd> back, pause, forward (again: faster) · <kbd>[</kbd> <kbd>]</kbd> previous/next beat · <kbd>Home</kbd> <kbd>End</kbd></p></details>
</section>
</main>
<script>
(() => {
  const $ = (id) => document.getElementById(id);
  const studio = window.studio = { film: null, version: -1, frame: 0, shown: null, shownBlob: null, fps: 0 };
  let speed = 0, lastTick = 0, inFlight = false, wanted = null, numbersAt = null, drawn = [];

  const clock = (s) => { const m = Math.floor(s / 60); return m + ':' + (s - 60 * m).toFixed(2).padStart(5, '0'); };
  const secs = (f) => f / studio.film.fps;
  const chapterAt = (f) => { const cs = studio.film.chapters; let i = cs.length - 1; while (i > 0 && cs[i].frame > f) --i; return i; };
  const beatAt = (c, f) => { let b = -1; c.beats.forEach((x, i) => { if (x.frame <= f) b = i; }); return b; };
  const localAt = (f) => { const c = studio.film.chapters[chapterAt(f)]; return c.id + '@' + +((f - c.frame) / studio.film.fps).toFixed(3) + 's'; };

  function layout() {
    const f = studio.film, line = $('timeline');
    line.querySelectorAll('.block,.tick').forEach((e) => e.remove());
    for (const c of f.chapters) {
      const b = document.createElement('div');
      b.className = 'block';
      b.style.left = (100 * c.frame / f.frames) + '%';
      b.style.width = (100 * c.frames / f.frames) + '%';
      b.textContent = c.title;
      b.dataset.id = c.id;
      line.appendChild(b);
      for (const beat of c.beats) {
        const t = document.createElement('div');
        t.className = 'tick';
        t.style.left = (100 * beat.frame / f.frames) + '%';
        t.title = beat.say;
        line.appendChild(t);
      }
    }
    line.setAttribute('aria-valuemax', (f.frames / f.fps).toFixed(2));
    $('title').textContent = f.title || 'shardreel studio';
    $('path').textContent = f.storyboard;
    $('frame').width = f.preview.width;
    $('frame').height = f.preview.height;
  }

  function show() {
    const f = studio.film; if (!f) return;
    const frame = studio.frame, ci = chapterAt(frame), c = f.chapters[ci], bi = beatAt(c, frame);
    $('playhead').style.left = (100 * frame / f.frames) + '%';
    const line = $('timeline');
    line.setAttribute('aria-valuenow', secs(frame).toFixed(2));
    line.setAttribute('aria-valuetext', clock(secs(frame)) + ', ' + c.title);
    line.querySelectorAll('.block').forEach((b) => b.classList.toggle('now', b.dataset.id === c.id));
    $('clock').textContent = clock(secs(frame)) + ' / ' + clock(f.duration) + ' · frame ' + frame + ' of ' + f.frames;
    $('chapter').textContent = c.title;
    $('where').textContent = 'Chapter ' + (ci + 1) + ' of ' + f.chapters.length + ' (' + c.kind + ') · ' +
      (bi < 0 ? 'before its first beat' : 'beat ' + (bi + 1) + ' of ' + c.beats.length) + ' · ' + localAt(frame);
    const t = secs(frame), cue = f.captions.find((q) => q.start <= t && t < q.end);
    $('caption').textContent = cue ? cue.text : '';
    const at = encodeURIComponent(localAt(frame));
    $('save-png').href = '/still.png?at=' + at;
    $('save-svg').href = '/still.svg?at=' + at;
    $('command').textContent = 'shardreel still ' + f.storyboard + ' --at ' + localAt(frame);
    request();
    if (!speed) numbers();
  }

  // One frame request at a time; the latest playhead wins.
  function request() {
    wanted = { frame: studio.frame, version: studio.version };
    if (inFlight) return;
    const asked = wanted;
    wanted = null;
    inFlight = true;
    fetch('/frame.png?t=' + secs(asked.frame) + '&v=' + asked.version).then((r) => {
      if (!r.ok) throw new Error('frame ' + r.status);
      return r.blob();
    }).then((blob) => {
      const old = $('frame').src;
      $('frame').src = URL.createObjectURL(blob);
      if (old.startsWith('blob:')) URL.revokeObjectURL(old);
      studio.shown = asked;
      studio.shownBlob = blob;
      drawn.push(performance.now());
      drawn = drawn.filter((x) => x > performance.now() - 2000);
    }).catch((e) => console.warn(e.message)).finally(() => {
      inFlight = false;
      if (wanted && (wanted.frame !== asked.frame || wanted.version !== asked.version)) request();
      else wanted = null;
    });
  }

  function numbers() {
    const key = studio.version + ':' + studio.frame;
    if (numbersAt === key) return;
    numbersAt = key;
    fetch('/numbers.json?t=' + secs(studio.frame)).then((r) => r.ok ? r.json() : null).then((n) => {
      if (!n || numbersAt !== key) return;
      $('stats').tBodies[0].innerHTML = '';
      for (const s of n.stats) {
        const row = $('stats').tBodies[0].insertRow();
        const th = document.createElement('th');
        th.scope = 'row';
        th.textContent = s.label;
        row.appendChild(th);
        const td = row.insertCell();
        td.textContent = s.text;
        td.dataset.key = s.key;
      }
      $('maths').innerHTML = n.maths;
    });
  }

  function seek(frame) {
    if (!studio.film) return;
    studio.frame = Math.max(0, Math.min(studio.film.frames - 1, Math.round(frame)));
    show();
  }
  // The sound plays with the picture going forward (at its speed); then it is the clock.
  const audio = $('audio');
  const sounding = () => speed > 0 && $('sound').checked && audio.src && !audio.paused;
  function syncSound() {
    if (speed > 0 && $('sound').checked && audio.src) {
      audio.playbackRate = speed;
      audio.currentTime = secs(studio.frame);
      audio.play().catch(() => {});
    } else audio.pause();
  }
  function play(s) {
    speed = s;
    $('play').innerHTML = speed ? '&#10073;&#10073; Pause' : '&#9654; Play';
    lastTick = performance.now();
    syncSound();
    if (!speed) numbers();
  }
  $('sound').addEventListener('change', syncSound);
  async function loadSound(a) {
    if (!a || a.none || a.version !== studio.version || studio.soundVersion === a.version) return;
    const r = await fetch('/audio.m4a?v=' + a.version);
    if (!r.ok) return;
    const old = audio.src;
    audio.src = URL.createObjectURL(await r.blob());
    if (old.startsWith('blob:')) URL.revokeObjectURL(old);
    studio.soundVersion = a.version;
    syncSound();
  }
  function beatFrames() { return studio.film.chapters.flatMap((c) => [c.frame, ...c.beats.map((b) => b.frame)]).sort((a, b) => a - b); }
  function toBeat(dir) {
    const all = beatFrames(), f = studio.frame;
    const next = dir > 0 ? all.find((x) => x > f) : all.filter((x) => x < f).pop();
    if (next !== undefined) seek(next);
    syncSound();
  }

  function tick(now) {
    if (sounding() && studio.film) {
      const f = Math.round(audio.currentTime * studio.film.fps);
      if (f !== studio.frame) seek(f);
      if (audio.ended) play(0);
      lastTick = now;
    } else if (speed && studio.film) {
      const step = (now - lastTick) / 1000 * studio.film.fps * speed;
      if (Math.abs(step) >= 1) {
        lastTick = now - ((Math.abs(step) % 1) / studio.film.fps / Math.abs(speed)) * 1000;
        const next = studio.frame + Math.trunc(step);
        if (next >= studio.film.frames - 1 || next <= 0) { seek(next); play(0); } else seek(next);
      }
    } else lastTick = now;
    studio.fps = drawn.length / 2;
    $('status').textContent = [studio.film ? 'version ' + studio.version : '',
      speed ? speed + '× · ' + studio.fps.toFixed(1) + ' frames/s shown' : ''].filter((x) => x).join(' · ');
    requestAnimationFrame(tick);
  }

  async function reload(errors) {
    const list = $('error-list');
    list.innerHTML = '';
    for (const e of errors) { const li = document.createElement('li'); li.textContent = e; list.appendChild(li); }
    $('errors').hidden = errors.length === 0;
    studio.errors = errors;
    if (errors.length && studio.film) return;  // keep the last good picture
    const r = await fetch('/film.json');
    const j = await r.json();
    if (!j.film) return;
    const fresh = studio.version !== j.version;
    studio.film = j.film;
    studio.version = j.version;
    if (fresh) {
      layout();
      seek(studio.frame);
    }
    loadSound(j.audio);
  }

  const events = new EventSource('/events');
  events.addEventListener('film', (e) => reload(JSON.parse(e.data).errors));

  function scrub(e) {
    const r = $('timeline').getBoundingClientRect();
    seek((e.clientX - r.left) / r.width * studio.film.frames);
  }
  $('timeline').addEventListener('pointerdown', (e) => { $('timeline').setPointerCapture(e.pointerId); play(0); scrub(e); });
  $('timeline').addEventListener('pointermove', (e) => { if (e.buttons & 1) scrub(e); });
  $('play').addEventListener('click', () => play(speed ? 0 : 1));
  $('prev-frame').addEventListener('click', () => { play(0); seek(studio.frame - 1); });
  $('next-frame').addEventListener('click', () => { play(0); seek(studio.frame + 1); });
  $('prev-beat').addEventListener('click', () => toBeat(-1));
  $('next-beat').addEventListener('click', () => toBeat(1));
  $('copy').addEventListener('click', async () => {
    const text = $('command').textContent;
    try { await navigator.clipboard.writeText(text); $('copy').textContent = 'Copied'; }
    catch { getSelection().selectAllChildren($('command')); $('copy').textContent = 'Selected: press Ctrl+C'; }
    setTimeout(() => { $('copy').textContent = 'Copy command'; }, 1500);
  });
  document.addEventListener('keydown', (e) => {
    if (!studio.film || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest('a,button') && (e.key === ' ' || e.key === 'Enter')) return;
    const fps = studio.film.fps, k = e.key;
    const act = {
      ' ': () => play(speed ? 0 : 1), k: () => play(0), K: () => play(0),
      l: () => play(speed > 0 ? Math.min(speed * 2, 8) : 1), L: () => play(speed > 0 ? Math.min(speed * 2, 8) : 1),
      j: () => play(speed < 0 ? Math.max(speed * 2, -8) : -1), J: () => play(speed < 0 ? Math.max(speed * 2, -8) : -1),
      ArrowLeft: () => { play(0); seek(studio.frame - (e.shiftKey ? fps : 1)); },
      ArrowRight: () => { play(0); seek(studio.frame + (e.shiftKey ? fps : 1)); },
      '[': () => toBeat(-1), ']': () => toBeat(1),
      Home: () => seek(0), End: () => seek(studio.film.frames - 1),
    }[k];
    if (!act) return;
    e.preventDefault();
    act();
  });
  // For scripts and tests: the shown frame's bytes, base64.
  studio.shownBase64 = async () => {
    const bytes = new Uint8Array(await studio.shownBlob.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  };
  studio.seek = seek;
  requestAnimationFrame(tick);
})();
</script>
</body>
</html>
)HTML";

}  // namespace

const std::string& studio_page() {
    static const std::string page = kPage;
    return page;
}

}  // namespace render
