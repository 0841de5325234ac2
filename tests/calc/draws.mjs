// Random settings for the calculator's equality tests (calc_equal_test.mjs against the module,
// calc_page_equal_test.mjs through the page), drawn from the settings the module describes
// (calc.settings()): values the table's tests try, keywords, presets and numbers in bounds; for
// invalid ones a wrong value. Seeded, so a failure repeats. And the native binary's answer for
// them: the report's text, or the lines after "shardreel: error: " ("(cli) ..." for a line of
// the command line's parser, which refuses before the settings).
import { execFile, spawnSync } from 'node:child_process';

export function draws(settings, binary, start = 20261205) {
  // mulberry32: a small seeded generator.
  let seed = start;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];

  const byFlag = new Map(settings.map((s) => [s.flag, s]));
  for (const flag of ['--model', '--tp', '--pp', '--gpus', '--zero', '--params', '--global-batch',
    '--tokens'])
    if (!byFlag.has(flag)) throw new Error(`calc_settings() lacks ${flag}`);

  // A value the setting may well take: one the tests try, a keyword or preset, or a number in
  // its bounds.
  function plausible(s) {
    const options = [...(s.tried ?? []), ...(s.choices ?? [])];
    if (s.bounds && s.type === 'whole') {
      const [lo, hi] = s.bounds;
      options.push(String(lo), String(Math.min(hi, lo + Math.floor(random() * 64))));
    }
    if (s.type === 'count') options.push('7B', '13B', '70e9', '1.3B');
    if (s.type === 'batch') options.push('256', '1024', '4M tokens');
    if (s.type === 'tokens') options.push('15T', '300B', '2e12', '1', '7.5B');
    return options.length ? pick(options) : null;
  }
  // A value it must refuse (or that the native binary refuses the same way).
  function wrong(s) {
    const options = ['', 'abc', '-1', '1e400', 'nan', '0x10', ' 4', '+4', '4 GB', '1.5'];
    if (s.bounds) options.push(String(s.bounds[0] - 1), String(s.bounds[1] * 10 + 1));
    return pick(options);
  }

  function draw(invalid) {
    const flags = {};
    const chosen = new Set();
    const count = 1 + Math.floor(random() * 5);
    if (random() < 0.7) flags['--model'] = pick(byFlag.get('--model').choices);
    for (let i = 0; i < count; i++) {
      const s = pick(settings);
      if (chosen.has(s.flag) || s.flag === '--model') continue;
      const value = plausible(s);
      if (value === null) continue;
      chosen.add(s.flag);
      flags[s.flag] = value;
    }
    if (invalid) {
      const s = pick(settings);
      flags[s.flag] = wrong(s);
    }
    return flags;
  }

  // Settings for plan: none of what it chooses (the module leaves those out, the command refuses
  // them), no --tokens, and a small cluster so the native plan answers fast.
  function drawPlan(invalid) {
    const flags = draw(invalid);
    for (const s of settings) if (s.planned) delete flags[s.flag];
    delete flags['--tokens'];
    if (!invalid || random() < 0.5) {
      flags['--gpus'] = pick(['1', '8', '16', '32', '64']);
      delete flags['--nodes'];
    }
    return flags;
  }

  const argsOf = (flags, command) => [...command, ...Object.entries(flags).map(([f, v]) => `${f}=${v}`)];
  // The exit status and stderr of a run as an answer.
  function answer(args, status, stdout, stderr) {
    if (status === 0) return { report: stdout.replace(/\n$/, '') };
    if (status !== 2) throw new Error(`${args.join(' ')}: exit ${status}: ${stderr}`);
    const prefix = 'shardreel: error: ';
    const lines = stderr.split('\n').filter((l) => l);
    return { errors: lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : `(cli) ${l}`)) };
  }
  function native(flags, command = ['numbers', '--format', 'json']) {
    const args = argsOf(flags, command);
    const run = spawnSync(binary, args, { encoding: 'utf8' });
    return answer(args, run.status, run.stdout, run.stderr);
  }
  // The same without waiting, so several run while a browser works.
  function nativeAsync(flags, command = ['numbers', '--format', 'json']) {
    const args = argsOf(flags, command);
    return new Promise((resolve, reject) => {
      execFile(binary, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
        try {
          resolve(answer(args, error ? error.code : 0, stdout, stderr));
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  return { draw, drawPlan, native, nativeAsync, random, pick };
}
