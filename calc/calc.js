// The calculator module's loader, for the page and for node: instantiates shardreel-calc.wasm
// (the engine compiled for the browser, calc/calc.cpp) and wraps its exports. The module does no
// I/O; the three WASI calls libc links in (on paths it never takes) are answered with nothing.
// loadCalc refers to nothing outside itself, so a page can start it in a worker from its text.
export async function loadCalc(bytes) {
  const text = { encoder: new TextEncoder(), decoder: new TextDecoder() };
  const none = () => 0;
  const { instance } = await WebAssembly.instantiate(bytes, {
    wasi_snapshot_preview1: { fd_close: none, fd_seek: none, fd_write: none },
  });
  const calc = instance.exports;
  calc._initialize();
  // The NUL-terminated text at address `at` of the module's memory, parsed.
  const answer = (at) => {
    const memory = new Uint8Array(calc.memory.buffer);
    let end = at;
    while (memory[end]) end++;
    return JSON.parse(text.decoder.decode(memory.subarray(at, end)));
  };
  // The flags, as JSON, into the module's input buffer.
  const give = (flags) => {
    const input = text.encoder.encode(JSON.stringify(flags));
    const at = calc.calc_input(input.length);
    new Uint8Array(calc.memory.buffer, at, input.length).set(input);
  };
  return {
    // Every setting the calculator takes: the one settings table, the shape and the batch.
    settings: () => answer(calc.calc_settings()),
    // {report: TEXT} as `shardreel numbers --format json` prints it, or {errors: [...]}, for
    // flags given as on the command line ({"--tp": "4"}); with "--tokens": "15T", the run's
    // totals as well. When the engine refuses the configuration, problems: [...] beside the
    // errors, each line's template and arguments (problemText writes it).
    numbers(flags) {
      give(flags);
      return answer(calc.calc_numbers());
    },
    // {report: TEXT} as `shardreel plan --format json --top TOP` prints it (the top layouts,
    // best first), or {errors: [...]}; the flags of what the planner chooses (--tp, --zero, ...)
    // and --tokens are left out.
    plan(flags, top = 5) {
      give(flags);
      return answer(calc.calc_plan(top));
    },
  };
}

// A refusal ({format, args, numbers}, one of numbers()' problems: the engine's, or a flag's value
// with its flag as args.flag) in parts: the template's text, and each {name} filled as
// {name, text}, a number through `number` (its English text, as numbers prints it, by default).
// `format` is its template or a translation of it; a mark with no argument stays as written. An
// argument with a template of its own (plan's nearest layout) has it in problem.parts[name],
// {format, args, numbers} alike, whose English is args[name].
export function problemParts(problem, format = problem.format, number = (text) => text) {
  const parts = [];
  let done = 0;
  for (const mark of format.matchAll(/\{(\w+)\}/g)) {
    const text = problem.args[mark[1]];
    if (text === undefined) continue;
    parts.push(format.slice(done, mark.index),
      { name: mark[1], text: problem.numbers.includes(mark[1]) ? number(text) : text });
    done = mark.index + mark[0].length;
  }
  parts.push(format.slice(done));
  return parts;
}

// Whether the line of a flag's refusal starts with its flag: "--tp: " and the template, unless
// the template names {flag} itself (as numbers prints it).
export const flagFirst = (problem, format = problem.format) =>
  problem.args.flag !== undefined && !format.includes("{flag}");

// The refusal as one line of text (numbers' line, with the defaults).
export function problemText(problem, format = problem.format, number = (text) => text) {
  const text = problemParts(problem, format, number).map((p) => (typeof p === "string" ? p : p.text)).join("");
  return flagFirst(problem, format) ? `${problem.args.flag}: ${text}` : text;
}
