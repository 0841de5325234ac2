#!/usr/bin/env bash
# Benchmark (not part of the test suite): the calculator page's latency in Debian's chromium
# (bench/calc.mjs prints a Markdown table for docs/calculator.md): an input change until every
# output is drawn (p50/p95, target 16 ms) and plan for 64 GPUs in the page (target 100 ms).
# Usage: [CHANGES=N] bench/calc.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
cd "$root"
source "$root/bench/lib.sh"
prepare_build "$root" "$build" shardreel shardreel_calc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/shardreel" calculator -o "$work" >/dev/null
load_before=$(cut -d" " -f1-3 /proc/loadavg)
node "$root/bench/calc.mjs" "$root" "$work/index.html" "${CHANGES:-300}"
echo "load average before and after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg)"
