// The calculator page's script (after calc/calc.js in the same module): controls generated from
// calc.settings(), the inputs kept in the URL fragment, the engine's answer drawn as outputs, and
// its refusals shown beside their controls while the last good result stays on screen.
// Its words and numbers follow the page's language (#calc-locale, written by calc_page.cpp from
// the message catalogue: the messages of this script's tr() and N_() calls, translated).
const LOCALE = JSON.parse(document.getElementById("calc-locale").textContent);
const N_ = (msgid) => msgid;
const tr = (msgid, args = {}) => (LOCALE.words[msgid] ?? msgid).replace(/\{(\w+)\}/g, (m, k) => args[k] ?? m);
const SECTIONS = { model: N_("Model"), training: N_("Training"), cluster: N_("Cluster"), parallel: N_("Parallelism") };
const STACK = [["weights", N_("Weights")], ["gradients", N_("Gradients")], ["optimizer", N_("Optimizer states")],
  ["activations", N_("Activations")]];
// The report's terms as words(key) names them: the expected peak's and communication's kinds.
const TERMS = [N_("layers"), N_("in flight micro batches"), N_("weights"), N_("gradients"), N_("grad accum"),
  N_("optimizer"), N_("dp buckets"), N_("param gather"), N_("tp gather"), N_("activations"), N_("logits"),
  N_("reserve"), N_("context"), N_("allocator"), N_("total"), N_("dp"), N_("tp"), N_("pp"), N_("dp intra"),
  N_("dp inter"), N_("ep"), N_("cp"), N_("time")];
// The settings' names as the controls' labels write them (the table's name, "_" a space); a
// setting added to the table is labelled in English until it is listed here and translated.
const SETTING_NAMES = [N_("model"), N_("arch"), N_("precision"), N_("grad dtype"), N_("grad accum dtype"), N_("grad reduce"),
  N_("tie embeddings"), N_("optimizer"), N_("seq len"), N_("micro batch"), N_("micro batches"),
  N_("recompute"), N_("flash attention"), N_("sequence parallel"), N_("schedule"), N_("chunks"), N_("mfu"),
  N_("overlap"), N_("step time"), N_("capacity factor"), N_("gpu"), N_("gpus per node"), N_("nodes"),
  N_("nvlink"), N_("network"), N_("gpus"), N_("tp"), N_("pp"), N_("zero"), N_("ep"), N_("shard group"),
  N_("offload"), N_("pipeline split"), N_("cp"), N_("cp mode"), N_("cp split"), N_("params"), N_("layers"),
  N_("hidden"), N_("heads"), N_("kv heads"), N_("ffn"), N_("vocab"), N_("experts"), N_("top k"),
  N_("expert ffn"), N_("shared experts"), N_("dense layers"), N_("global batch"), N_("tokens")];
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, ...kids) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...kids);
  return e;
}

// What the outputs of a report are made of besides its figures: the terms and kinds it lists,
// offload, the run, the chapters the film's page has. The same shape as the outputs on screen:
// refresh() rewrites only the figures that changed and moves the bar's parts (so a change
// restyles, lays out and repaints only those), else they are built again.
const shape = (r) => JSON.stringify([Object.keys(r.expected_peak.first_stage), Object.keys(r.comm_per_step),
  r.offload.mode, Boolean(r.run), [...seekable], CHAPTERS]);
function refresh(report) {
  for (const e of document.querySelectorAll("#key [data-key], #results [data-key]")) {
    const v = lookup(report, e.dataset.key), value = JSON.stringify(v);
    if (e.dataset.value === value) continue;
    e.dataset.value = value;
    e.textContent = FORMATS[e.dataset.unit](v);
  }
  updateBar(document.querySelector("#results svg.stack"), report);
}

// Figures as shown: bytes in GB (10^9, as the film), fractions in percent, seconds, tokens; in
// the page's digits and separators (its numbering system, as the binary's ICU writes the film's
// figures), each formatter made once. Rounded as toFixed rounds (the double's exact value; Intl
// alone rounds its shortest decimal, 4.55 GB up to 4.6 where the value is 4.5499...), then written.
const decimals = (digits, grouping = false) => {
  const format = new Intl.NumberFormat(LOCALE.lang, { numberingSystem: LOCALE.numbering,
    minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: grouping, signDisplay: "negative" });
  return (v) => format.format(Number(v.toFixed(digits)));
};
// Where the step time comes from (the report's step.source), as `numbers` names it.
const STEP_SOURCES = { predicted: N_("Step time (predicted, set on nanotron's H100 runs)"),
  mfu: N_("Step time (at the given MFU)"), measured: N_("Step time (measured)") };
const NUMBER = { one: decimals(1), three: decimals(3), whole: decimals(0, true), plain: decimals(0) };
const FORMATS = {
  GB: (v) => `${NUMBER.one(v / 1e9)} GB`,
  percent: (v) => `${NUMBER.one(v * 100)} %`,
  seconds: (v) => `${NUMBER.three(v)} s`,
  rate: (v) => tr("{n} tokens/s", { n: NUMBER.whole(Math.round(v)) }),
  count: (v) => NUMBER.whole(Math.round(v)),
  days: (v) => tr("{n} days", { n: NUMBER.one(v) }),
  yes: (v) => (v ? tr("yes") : tr("no")),
  source: (v) => tr(STEP_SOURCES[v]),
};
const lookup = (json, key) => key.split(".").reduce((o, k) => (o == null ? o : o[k]), json);
const words = (key) => key.replace(/_bytes(_per_gpu)?$|_seconds$/, "").replaceAll("_", " ");

// A shown figure: its text and, for the tests, the report key, unit and value it shows.
function shownAs(report, key, unit, tag = "td", attrs = {}) {
  const v = lookup(report, key);
  return el(tag, { ...attrs, "data-key": key, "data-unit": unit, "data-value": JSON.stringify(v) }, FORMATS[unit](v));
}
const figure = (report, key, unit) => shownAs(report, key, unit);
function row(label, ...cells) {
  return el("tr", {}, el("th", { scope: "row" }, label), ...cells);
}
// The film's chapters that explain an output, by chapter kind, with the default film's titles.
const CHAPTERS = { bytes_per_parameter: N_("Why a large model does not fit"),
  ring_allreduce: N_("Data parallel: the ring all-reduce"), zero_stages: N_("ZeRO: stop keeping copies"),
  fsdp_gather: N_("FSDP: gather, use, free"), tensor_parallel: N_("Tensor parallelism"),
  pipeline_bubble: N_("The pipeline bubble"), activation_checkpointing: N_("Activation checkpointing"),
  interconnect: N_("The interconnect decides the layout"), layout_3d: N_("Three ways to split, one rack"),
  summary: N_("Every strategy, side by side") };
// In the film's page (a frame of it), the chapters it has, by kind: a mention seeks its film.
const seekable = new Set();
function mention(kind) {
  const quoted = tr("“{title}”", { title: tr(CHAPTERS[kind]) });
  if (!seekable.has(kind)) return el("span", { "data-chapter": kind }, quoted);
  const button = el("button", { type: "button", class: "seek", "data-chapter": kind }, quoted);
  button.addEventListener("click", () => window.parent.postMessage({ seek: kind }, "*"));
  return button;
}
function output(id, title, kinds, ...body) {
  const names = kinds.map(mention);
  const list = names.flatMap((n, i) => (i ? [", ", n] : [n]));
  return el("section", { class: "output", id, "aria-labelledby": `${id}-title` },
    el("h2", { id: `${id}-title` }, title), ...body,
    el("p", { class: "chapter" }, tr("Explained in the film:"), " ", ...list, "."));
}

function memoryOutput(r) {
  const legend = el("ul", { class: "legend" }, ...STACK.map(([part, label]) =>
    el("li", {}, el("i", { class: `s-${part}` }), tr(label), " ", shownAs(r, `per_gpu.${part}_bytes`, "GB", "span"))),
    el("li", {}, el("i", { class: "s-other" }), tr("Other terms of the expected peak")));
  const table = el("table", {}, el("tbody", {},
    row(tr("On paper, per GPU"), figure(r, "per_gpu.total_bytes", "GB")),
    row(tr("Card’s capacity"), figure(r, "per_gpu.capacity_bytes", "GB")),
    row(tr("Fits"), shownAs(r, "per_gpu.fits", "yes", "td", { class: "fits" }))));
  return output("memory", tr("Memory per GPU"), ["bytes_per_parameter", "zero_stages",
    "activation_checkpointing"], stackBar(r), legend, table);
}

// The expected peak: each term of the first and the last pipeline stage, as the report lists them.
function peakOutput(r) {
  const terms = Object.keys(r.expected_peak.first_stage).filter((k) => k.endsWith("_bytes"));
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col" }, tr("Term")),
    el("th", { scope: "col" }, tr("First stage")), el("th", { scope: "col" }, tr("Last stage"))));
  const body = el("tbody", {}, ...terms.map((t) => row(tr(words(t)),
    figure(r, `expected_peak.first_stage.${t}`, "GB"), figure(r, `expected_peak.last_stage.${t}`, "GB"))));
  const summary = el("table", {}, el("tbody", {},
    row(tr("Expected peak"), figure(r, "expected_peak.total_bytes", "GB")),
    row(tr("Fits"), shownAs(r, "expected_peak.fits", "yes", "td", { class: "fits" }))));
  return output("peak", tr("Expected peak"), ["bytes_per_parameter", "fsdp_gather"],
    summary, el("table", { class: "terms" }, head, body));
}

function commOutput(r) {
  const comm = r.comm_per_step;
  const kinds = Object.keys(comm).filter((k) => k.endsWith("_bytes_per_gpu"));
  const rows = kinds.map((k) => row(tr(words(k)), figure(r, `comm_per_step.${k}`, "GB")));
  rows.push(row(tr("time"), figure(r, "comm_per_step.seconds", "seconds")));
  if (r.offload.mode !== "none") rows.push(row(tr("offload over PCIe"), figure(r, "offload.pcie_bytes_per_step", "GB")));
  return output("comm", tr("Communication per step, per GPU, on paper"), ["ring_allreduce",
    "tensor_parallel", "interconnect"], el("table", {}, el("tbody", {}, ...rows)));
}

function speedOutput(r) {
  const rows = [row(tr("Pipeline bubble"), figure(r, "pipeline.bubble_fraction", "percent")),
    el("tr", {}, shownAs(r, "step.source", "source", "th", { scope: "row" }), figure(r, "step.seconds", "seconds")),
    row(tr("MFU"), figure(r, "step.mfu", "percent")),
    row(tr("Tokens per second per GPU"), figure(r, "step.tokens_per_second_per_gpu", "rate"))];
  return output("speed", tr("Bubble and speed"), ["pipeline_bubble", "summary"],
    el("table", {}, el("tbody", {}, ...rows)));
}

// The figures a reader looks for first, kept in sight (on a phone, above the form as it scrolls).
function keyFigures(r) {
  const item = (label, key, unit) => el("span", {}, `${label} `, shownAs(r, key, unit, "b"));
  return [item(tr("Peak per GPU"), "expected_peak.total_bytes", "GB"), item(tr("of"), "expected_peak.capacity_bytes", "GB"),
    item(tr("step"), "step.seconds", "seconds"), item(tr("MFU"), "step.mfu", "percent")];
}

// A whole run (--tokens): its steps, days and GPU-hours from the step time.
function runOutput(r) {
  const rows = [row(tr("Tokens"), figure(r, "run.tokens", "count")), row(tr("Steps"), figure(r, "run.steps", "count")),
    row(tr("Days"), figure(r, "run.days", "days")), row(tr("GPU-hours"), figure(r, "run.gpu_hours", "count"))];
  return output("run", tr("The whole run"), ["summary"], el("table", {}, el("tbody", {}, ...rows)));
}

// The planner's layouts as a reader names them, and as flat rows for CSV ("step.seconds").
// (Its counts in the page's digits, ungrouped.)
const int = (n) => NUMBER.plain(n);
const layoutText = (e) => `dp ${int(e.dp)} × tp ${int(e.tp)} × pp ${int(e.pp)}` + (e.cp > 1 ? ` × cp ${int(e.cp)}` : "") +
  (e.ep > 1 ? `, ep ${int(e.ep)}` : "");
const zeroText = (e) => {
  const stage = e.shard_group ? tr("{zero} in groups of {n}", { zero: int(e.zero), n: int(e.shard_group) }) : int(e.zero);
  return e.offload.mode !== "none" ? tr("{zero}, offload {mode}", { zero: stage, mode: e.offload.mode }) : stage;
};
const scheduleText = (e) => e.schedule + (e.schedule === "interleaved" ? ` (${int(e.chunks)})` : "");
const flat = (j, prefix = "") => Object.entries(j).flatMap(([k, v]) =>
  (v && typeof v === "object" ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
function planCsv(layouts) {
  const rows = layouts.map((e) => flat(e));
  return [rows[0].map(([k]) => k).join(","), ...rows.map((r) => r.map(([, v]) => JSON.stringify(v)).join(","))].join("\n") + "\n";
}
const PLAN_COLUMNS = [[N_("Layout"), layoutText], [N_("ZeRO"), zeroText], [N_("Recompute"), (e) => e.recompute],
  [N_("Schedule"), scheduleText], [N_("Micro-batches"), (e) => `${int(e.micro_batches)} × ${int(e.micro_batch)}`],
  [N_("Peak per GPU"), (e) => FORMATS.GB(e.expected_peak.total_bytes)], [N_("Step"), (e) => FORMATS.seconds(e.step.seconds)],
  [N_("MFU"), (e) => FORMATS.percent(e.step.mfu)]];

// The top layouts plan finds for the inputs (all but the layout's own), each a button away from
// being the inputs, with the list as CSV and JSON; or why none fits.
const PLAN_KINDS = ["layout_3d", "interconnect"];
function planOutput(answer, use) {
  const kinds = PLAN_KINDS;
  if (answer.errors) {
    return output("plan", tr("Top layouts"), kinds,
      ...refusalLines(answer).map(({ nodes }) => el("p", { class: "refusal" }, ...nodes)));
  }
  const layouts = JSON.parse(answer.report);
  const head = el("tr", {}, el("th", { scope: "col" }, "#"), ...PLAN_COLUMNS.map(([name]) => el("th", { scope: "col" }, tr(name))),
    el("th", { scope: "col" }, el("span", { class: "sr" }, tr("Use"))));
  const rows = layouts.map((e, i) => {
    const button = el("button", { type: "button", "data-use": i, "aria-label": tr("Use layout {n}: {layout}", { n: int(i + 1), layout: layoutText(e) }) }, tr("Use"));
    button.addEventListener("click", () => use(e));
    return el("tr", { "data-layout": i }, el("th", { scope: "row" }, int(i + 1)),
      ...PLAN_COLUMNS.map(([, text]) => el("td", {}, text(e))), el("td", {}, button));
  });
  const data = (type, text) => `data:${type};charset=utf-8,${encodeURIComponent(text)}`;
  const exports = el("p", { class: "exports" }, tr("Download:"), " ",
    el("a", { href: data("text/csv", planCsv(layouts)), download: "plan.csv" }, "CSV"), " · ",
    el("a", { href: data("application/json", `${answer.report}\n`), download: "plan.json" }, "JSON"));
  // Where the column's step times come from, as the speed table names its own (plan answers
  // with at least one layout, or with errors).
  const { source: from } = layouts[0].step;
  const source = el("p", { class: "note", "data-source": from }, tr(STEP_SOURCES[from]));
  return output("plan", tr("Top layouts"), kinds, el("div", { class: "scroll" },
    el("table", { class: "plan" }, el("thead", {}, head), el("tbody", {}, ...rows))), source, exports);
}

// A layout of plan's as the flags of the settings it chooses; the global batch becomes its
// micro-batches.
function layoutFlags(settings, e) {
  const flags = {};
  for (const s of settings.filter((x) => x.planned)) {
    flags[s.flag] = String(s.name === "offload" ? e.offload.mode : e[s.name]);
  }
  return flags;
}

// The fragment: "#--model=llama-2-70b&--tp=8"; unreadable parts are left out, never thrown.
function readFragment(hash = location.hash) {
  const flags = {};
  for (const part of hash.slice(1).split("&")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    try {
      flags[decodeURIComponent(part.slice(0, at))] = decodeURIComponent(part.slice(at + 1));
    } catch {
      // a malformed escape: that part is not a setting
    }
  }
  return flags;
}
const writeFragment = (flags) => Object.entries(flags)
  .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");

function control(s) {
  const id = `in${s.flag}`;
  const values = s.choices ?? (s.type === "flag" ? ["true", "false"] : null);
  let input;
  if (values) {
    input = el("select", { id }, el("option", { value: "" }, tr("default")),
      ...values.map((v) => el("option", { value: v }, s.type === "flag" ? (v === "true" ? tr("on") : tr("off")) : v)));
  } else if (s.bounds && (s.type === "whole" || s.type === "ranged")) {
    input = el("input", { id, type: "number", min: s.bounds[0], max: s.bounds[1],
      step: s.type === "whole" ? "1" : "any", placeholder: tr("default") });
  } else {
    input = el("input", { id, type: "text", spellcheck: "false", placeholder: tr("default") });
  }
  input.setAttribute("aria-describedby", `${id}-help ${id}-error`);
  const error = el("span", { class: "error", id: `${id}-error` });
  const field = el("div", { class: "field" }, el("label", { for: id }, tr(s.name.replaceAll("_", " "))), input,
    el("span", { class: "help", id: `${id}-help` }, isolate(s.flag, true), ": ", ...helpNodes(tr(s.help))), error);
  return { flag: s.flag, input, error, field };
}

// A value the fragment gives a control. A select takes one that is not among its choices as an
// option of its own: numbers takes a model by its count ("--model=7B", as a storyboard's
// `model: 7B` links here), and the select set to an unknown value would show and send its default.
function setValue(input, value) {
  if (input.tagName === "SELECT" && value && ![...input.options].some((o) => o.value === value))
    input.append(el("option", { value }, value));
  input.value = value;
}

// The form: one fieldset per section, in the table's order; the controls by flag.
function buildForm(form, settings) {
  const controls = new Map();
  const sections = new Map();
  for (const s of settings) {
    if (!sections.has(s.section)) {
      sections.set(s.section, el("fieldset", {}, el("legend", {}, tr(SECTIONS[s.section] ?? s.section))));
      form.append(sections.get(s.section));
    }
    const c = control(s);
    controls.set(c.flag, c);
    sections.get(s.section).append(c.field);
  }
  return controls;
}

// An English number ("12", "0.5", "-1", "16,384", "84.6 GB") in the page's digits, decimal and
// group signs, sign for sign, its unit as it is (a number printf writes with an exponent, or not
// finite, stays as it is).
const DIGIT = new Intl.NumberFormat(LOCALE.lang, { numberingSystem: LOCALE.numbering, useGrouping: true });
const SIGN = Object.fromEntries(DIGIT.formatToParts(12345.5).filter((p) => p.type === "decimal" || p.type === "group")
  .map((p) => [p.type === "decimal" ? "." : ",", p.value]));
function localNumber(text) {
  const number = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/.exec(text)?.[0];
  if (!number || !/^(\s[A-Za-z/]+)?$/.test(text.slice(number.length))) return text;
  return number.replace(/[0-9.,]/g, (c) => SIGN[c] ?? DIGIT.format(Number(c))) + text.slice(number.length);
}

// A refusal's code-like tokens, which an isolate keeps left to right inside a right-to-left line:
// "tp={tp}", "tp x pp = {product}", "{name} = {value}", a snake_case name, a flag (with its value:
// "--gpus {fit_flag}").
const TERM = String.raw`(?:(?<![{\w])[A-Za-z][\w-]*(?![\w}])|\{\w+\})`;
const CHAIN = String.raw`${TERM}(?: x ${TERM})*`;
// (A name inside a mark, "{seq_len}", is the mark's, not a token.)
const CODE = new RegExp(String.raw`${CHAIN} ?<?= ?${CHAIN}|--[a-z][\w-]*(?: \{\w+\})?|(?<![{\w])[a-z]+(?:_[a-z0-9]+)+(?![\w}])`, "g");
const isolate = (text, ltr) => el("bdi", ltr ? { dir: "ltr" } : {}, text);

// A refusal in the page's language (its template's translation, filled by problemParts with the
// numbers in the page's digits), as nodes: each code-like token isolated left to right, each other
// argument isolated (numbers by their own direction; one with a template of its own, p.parts,
// translated and filled the same way), and "--flag: " first when numbers prints it.
function problemNodes(p) {
  const format = tr(p.format);
  const nodes = flagFirst(p, format) ? [isolate(p.args.flag, true), ": "] : [];
  const fill = (segment) => problemParts(p, segment, localNumber);
  const arg = (part) => (typeof part === "string" ? part : p.parts?.[part.name] ? partNode(p.parts[part.name])
    : isolate(part.text, !p.numbers.includes(part.name)));
  let done = 0;
  for (const code of format.matchAll(CODE)) {
    nodes.push(...fill(format.slice(done, code.index)).map(arg));
    nodes.push(isolate(fill(code[0]).map((part) => (typeof part === "string" ? part : part.text)).join(""), true));
    done = code.index + code[0].length;
  }
  nodes.push(...fill(format.slice(done)).map(arg));
  return nodes;
}
// An argument's own template (plan's nearest layout, "dp 8 x tp 1 x pp 2, ZeRO-3, full
// recompute", and its parts) in an isolate: left to right when the catalogue has no words for it
// (code: "dp {dp} x tp {tp} x pp {pp}", "ZeRO-{zero}"), else in the direction of its words.
const partNode = (p) => el("bdi", p.format in LOCALE.words ? {} : { dir: "ltr" }, ...problemNodes(p));

// A help text in a right-to-left page, each run of Latin letters, digits and ASCII signs in it (a
// flag, a formula, a keyword, a unit, a name: "--gpus", "gpus / (tp x pp x cp)", "900GB/s")
// isolated left to right, so it is drawn in its own order; the spaces, signs and unpaired brackets
// at a run's ends stay in the sentence ("= gpus / (tp x pp x cp)" isolates from "gpus",
// "(400Gb/s،" just "400Gb/s"). In a left-to-right page, the text as it is.
const RTL = document.documentElement.dir === "rtl";
const count = (text, c) => text.split(c).length - 1;
function codeRun(run) {
  let code = run;
  for (let before = null; before !== code;) {
    before = code;
    code = code.replace(/^(?:[^\w(-]|-(?![\w-]))+/, "").replace(/[^\w)]+$/, "");
    if (code.startsWith("(") && count(code, "(") > count(code, ")")) code = code.slice(1);
    if (code.endsWith(")") && count(code, ")") > count(code, "(")) code = code.slice(0, -1);
  }
  return /[A-Za-z0-9]/.test(code) ? code : "";
}
function helpNodes(text) {
  if (!RTL) return [text];
  const nodes = [];
  let done = 0;
  for (const run of text.matchAll(/[ -~]+/g)) {
    const code = codeRun(run[0]);
    if (!code) continue;
    const at = run.index + run[0].indexOf(code);
    nodes.push(text.slice(done, at), isolate(code, true));
    done = at + code.length;
  }
  return [...nodes, text.slice(done)].filter((n) => n !== "");
}

// The lines of a refusal in the page's language, each with the flag whose control it stands
// beside (none: at the top): a flag's and the engine's from their problems; any other line (not
// one the reader's settings cause) as it is, beside the flag that starts it.
const refusalLines = (answer) => answer.problems?.map((p) => ({ flag: p.args.flag, nodes: problemNodes(p) })) ??
  (answer.errors ?? []).map((line) => ({ flag: /^--[a-z0-9-]+/.exec(line)?.[0], nodes: [line] }));

// Each line beside its flag's control, else at the top; none clears them all. With no good
// result yet, the key figures say why they are missing.
function showErrors(controls, problems, lines, kept) {
  for (const c of controls.values()) {
    c.error.replaceChildren();
    c.input.removeAttribute("aria-invalid");
  }
  problems.replaceChildren();
  for (const { flag, nodes } of lines) {
    const c = controls.get(flag);
    if (c) {
      c.error.append(...(c.error.childNodes.length ? [" "] : []), el("span", { class: "line" }, ...nodes));
      c.input.setAttribute("aria-invalid", "true");
    } else problems.append(el("p", {}, ...nodes));
  }
  if (lines.length && kept) problems.append(el("p", {}, tr("The figures shown are the last result the engine accepted.")));
  if (lines.length && !kept) {
    document.getElementById("key").replaceChildren(el("p", { class: "none" },
      tr("No figures: the engine refuses these settings; the message beside the setting, or above, says why.")));
  }
}

// A worker of its own for plan (which takes up to some 100 ms), so no input waits for it: the
// loader's own text and the module's bytes, started from a data: URL (no request, from file://).
function planWorker(bytes) {
  const source = `${loadCalc}\nlet calc;\nonmessage = async ({ data }) => {
  if (data.bytes) calc = loadCalc(data.bytes);
  else postMessage({ key: data.key, answer: (await calc).plan(data.flags, data.top) });
};`;
  const worker = new Worker(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
  worker.postMessage({ bytes });
  return worker;
}

// A call of `act` once the inputs rest for `delay` ms (the last value given wins), not in an
// input's frame nor once per step of a dragged value; flush() makes the call at once.
function onRest(act, delay = 150) {
  let latest = null, timer = 0;
  const flush = () => {
    clearTimeout(timer);
    if (latest !== null) act(latest);
    latest = null;
  };
  const give = (value) => {
    latest = value;
    clearTimeout(timer);
    timer = setTimeout(flush, delay);
  };
  return { give, flush };
}

// The plan for the inputs but the layout's own (and --tokens), asked of the worker when those
// inputs change and then rest for 100 ms (plan takes a core for up to some 100 ms: asked on every
// step of a dragged value, it took the core the page's frames need); its answer drawn when it is
// still the latest asked. Until then the layouts on screen stay, marked busy, "Planning…" beside
// their title; back at the inputs they were planned for, they are current again and nothing is asked.
const withStatus = (section) => {
  section.querySelector("h2").append(" ", el("span", { class: "status" }));
  return section;
};
function planner(worker, settings, results, use) {
  const left = new Set([...settings.filter((s) => s.planned).map((s) => s.flag), "--tokens"]);
  let key = null, drawn = null;
  let section = withStatus(output("plan", tr("Top layouts"), PLAN_KINDS));
  const ask = onRest((request) => worker.postMessage(request), 100);
  worker.onmessage = ({ data }) => {
    if (data.key !== key) return;
    const next = withStatus(planOutput(data.answer, use));
    document.getElementById("plan")?.replaceWith(next);
    [section, drawn] = [next, key];
    results.dataset.planned = key;
  };
  return (given) => {
    const flags = Object.fromEntries(Object.entries(given).filter(([f]) => !left.has(f)));
    const next = JSON.stringify(flags);
    if (next === key) return section;
    key = next;
    const fresh = key === drawn;
    results.dataset.planned = fresh ? key : "";
    section.setAttribute("aria-busy", String(!fresh));
    section.querySelector(".status").textContent = fresh ? "" : tr("Planning…");
    ask.give(fresh ? null : { key, flags, top: 5 });  // (null: a request waiting is dropped)
    return section;
  };
}

// The URL fragment, written once the inputs rest (history.replaceState is a round trip to the
// browser of some milliseconds).
const fragmentWriter = () => onRest((flags) => history.replaceState(null, "", `#${writeFragment(flags)}`));

function start(calc, worker) {
  const form = document.getElementById("settings");
  const results = document.getElementById("results");
  const problems = document.getElementById("problems");
  const settings = calc.settings();
  const controls = buildForm(form, settings);
  const given = () => Object.fromEntries([...controls].map(([f, c]) => [f, c.input.value.trim()]).filter(([, v]) => v));
  const show = (flags) => {
    for (const [f, c] of controls) setValue(c.input, flags[f] ?? "");
    update();
  };
  const use = (layout) => {
    const flags = { ...given(), ...layoutFlags(settings, layout) };
    delete flags["--global-batch"];
    show(flags);
  };
  const plan = planner(worker, settings, results, use);
  const fragment = fragmentWriter();
  addEventListener("pagehide", fragment.flush);
  let shown = "";  // the shape of the outputs on screen
  function update() {
    const flags = given();
    fragment.give(flags);
    const answer = calc.numbers(flags);
    showErrors(controls, problems, refusalLines(answer), results.childElementCount > 0);
    if (answer.errors) return;
    const report = JSON.parse(answer.report);
    if (shape(report) === shown) {
      refresh(report);
      const planned = plan(flags), now = document.getElementById("plan");
      if (now !== planned) now.replaceWith(planned);
      return;
    }
    shown = shape(report);
    document.getElementById("key").replaceChildren(...keyFigures(report));
    results.replaceChildren(memoryOutput(report), peakOutput(report), commOutput(report), speedOutput(report),
      ...(report.run ? [runOutput(report)] : []), plan(flags));
  }
  form.addEventListener("input", update);
  // The fragment followed, not location's: a write of the inputs before (due once they rested)
  // can land between the navigation and this event, and location then holds the old inputs.
  window.addEventListener("hashchange", ({ newURL }) => show(readFragment(new URL(newURL).hash)));
  // The film's page names its chapters by kind: its titles, each mention a button seeking there.
  window.addEventListener("message", ({ source, data }) => {
    if (source !== window.parent || source === window || !data?.chapters) return;
    for (const [kind, title] of Object.entries(data.chapters)) {
      CHAPTERS[kind] = title;
      seekable.add(kind);
    }
    update();
  });
  // For tests and benches: the inputs set as the controls set them, and the engine.
  window.calculator = { show, calc, flush: fragment.flush };
  show(readFragment());
}

const moduleText = atob(document.getElementById("calc-module").textContent.trim());
const moduleBytes = Uint8Array.from(moduleText, (ch) => ch.charCodeAt(0));
start(await loadCalc(moduleBytes), planWorker(moduleBytes));
