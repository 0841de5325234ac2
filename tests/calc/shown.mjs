// How the calculator page writes a figure of each unit (docs/calculator.md), said again here so
// the chromium tests hold the page to it: GB of 10^9 with one decimal, percent with one, seconds
// with three, counts and rates grouped as English groups them, days with one, yes or no; where
// the step time comes from as `numbers` names it.
const grouped = (v) => Math.round(v).toLocaleString("en-US");
export const shown = {
  GB: (v) => `${(v / 1e9).toFixed(1)} GB`, percent: (v) => `${(v * 100).toFixed(1)} %`,
  seconds: (v) => `${v.toFixed(3)} s`, rate: (v) => `${grouped(v)} tokens/s`,
  count: grouped, days: (v) => `${v.toFixed(1)} days`, yes: (v) => (v ? "yes" : "no"),
  source: (v) => ({ predicted: "Step time (predicted, set on nanotron's H100 runs)",
    mfu: "Step time (at the given MFU)", measured: "Step time (measured)" })[v],
};
