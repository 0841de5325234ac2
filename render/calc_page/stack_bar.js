// The calculator's memory bar (before calculator.js in the page's script, which it draws with):
// the per-GPU stack on paper and at the expected peak against the card's capacity, in the film's
// colours. Built once; a new report moves its rects and rewrites only the words whose text changed
// (new SVG text is laid out and shaped again, the most costly part of a change's frame).
// What is over capacity follows STYLE.md as the film draws it (story::add_overflow): the stack's
// own colours past the capacity line, hatched in the background colour, and "over by X GB" in the
// highlight colour.
const BAR = { width: 598, height: 34, rows: { paper: 24, peak: 86 } };
const bars = new WeakMap();  // a bar's elements by row and part, and its labels

function setAttributes(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    const text = String(v);
    if (node.getAttribute(k) !== text) node.setAttribute(k, text);
  }
}
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// The stage of the expected peak (the first or the last), and its terms as the film stacks
// them: the four of the on-paper stack, then the rest (buffers, gathers, logits, reserve, context).
function peakStack(r) {
  const { first_stage: first, last_stage: last } = r.expected_peak;
  const stage = first.total_bytes >= last.total_bytes ? first : last;
  const parts = Object.fromEntries(STACK.map(([part]) => [part, stage[`${part}_bytes`]]));
  parts.other = stage.total_bytes - Object.values(parts).reduce((a, b) => a + b, 0);
  return { parts, total: stage.total_bytes };
}
function barStacks(r) {
  const per = r.per_gpu;
  const paper = Object.fromEntries(STACK.map(([part]) => [part, per[`${part}_bytes`]]));
  return { paper: { parts: { ...paper, other: 0 }, total: per.total_bytes }, peak: peakStack(r) };
}

// The bar's elements, empty: each row's name, parts (the four terms and the other terms), the
// hatch over what is past capacity and its label; the capacity line and its label.
function stackBar(r) {
  const svg = el("svg:svg", { class: "stack", viewBox: "0 0 600 150", role: "img" });
  svg.append(el("svg:defs", {}, el("svg:pattern", { id: "over-hatch", class: "hatch", width: 10, height: 10,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, el("svg:line", { x1: 0, y1: 0, x2: 0, y2: 10 }))));
  const parts = {}, over = {};
  for (const [row, y] of Object.entries(BAR.rows)) {
    svg.append(el("svg:text", { x: 1, y: y - 8 }, row === "paper" ? tr("On paper") : tr("Expected peak")));
    for (const part of [...STACK.map(([p]) => p), "other", "over"]) {
      parts[`${row}.${part}`] = el("svg:rect", { class: part === "over" ? "over" : `s-${part}`, "data-row": row,
        "data-part": part, y, height: BAR.height });
      svg.append(parts[`${row}.${part}`]);
    }
    over[row] = el("svg:text", { class: "over-label", x: 598, y: y - 8, "text-anchor": "end", "data-over": row });
    svg.append(over[row]);
  }
  const line = el("svg:line", { class: "capacity", y1: 18, y2: 124 }), capacity = el("svg:text", { y: 142 });
  svg.append(line, capacity);
  bars.set(svg, { parts, over, line, capacity });
  updateBar(svg, r);
  return svg;
}

// The bar drawn for a report: each part's place and width at the scale where the largest of the
// two stacks and the capacity fills it, the part past capacity hatched and labelled.
function updateBar(svg, r) {
  const { parts, over, line, capacity: capLabel } = bars.get(svg);
  const stacks = barStacks(r), capacity = r.per_gpu.capacity_bytes;
  const scale = BAR.width / Math.max(stacks.paper.total, stacks.peak.total, capacity);
  const cap = 1 + capacity * scale;
  for (const [row, stack] of Object.entries(stacks)) {
    let x = 1;
    for (const [part, bytes] of Object.entries(stack.parts)) {
      setAttributes(parts[`${row}.${part}`], { x, width: bytes * scale });
      x += bytes * scale;
    }
    const past = Math.max(0, stack.total - capacity);
    setAttributes(parts[`${row}.over`], { x: cap, width: past * scale });
    setText(over[row], past > 0 ? tr("over by {n}", { n: FORMATS.GB(past) }) : "");
  }
  setAttributes(line, { x1: cap, x2: cap });
  setAttributes(capLabel, { x: Math.min(cap, 450) });
  setText(capLabel, tr("capacity {n}", { n: FORMATS.GB(capacity) }));
  setAttributes(svg, { "aria-label": tr("{paper} per GPU on paper, {peak} at the expected peak, against {capacity}",
    { paper: FORMATS.GB(stacks.paper.total), peak: FORMATS.GB(stacks.peak.total), capacity: FORMATS.GB(capacity) }) });
}
