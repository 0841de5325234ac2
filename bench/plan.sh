#!/usr/bin/env bash
# Benchmark (not part of the test suite): how long `shardreel plan` takes to answer for clusters
# of 1,024 to 65,536 GPUs, against one `numbers` call (a single layout's figures, the process's
# own start-up included) on the same model and cluster. Prints a Markdown table for docs/performance.md.
# Usage: [RUNS=N] bench/plan.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
cd "$root"
"$root/scripts/deps.sh" bench
[ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" shardreel >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/bench/lib.sh"
runs=${RUNS:-10}
bin="$build/shardreel"
echo "| model | GPUs | plan (s) | numbers (s) | plan / numbers | layouts considered |"
echo "|---|---:|---:|---:|---:|---:|"
for model in llama-3.1-405b deepseek-v3 llama-2-70b; do
  for gpus in 1024 16384 65536; do
    args=(--model "$model" --gpus "$gpus" --seq 8192 --global-batch 2048)
    measure_runs plan "$runs" "$bin" plan "${args[@]}" --format json
    measure_runs numbers "$runs" "$bin" numbers --model "$model" --gpus "$gpus" --seq 8192 \
      --tp 8 --pp 16 --format json
    considered=$("$bin" plan "${args[@]}" | sed -n 's/^Layouts considered: \([0-9,]*\);.*/\1/p')
    echo "| $model | $gpus | $wall_plan | $wall_numbers | $(ratio "$wall_plan" "$wall_numbers") | ${considered:-none fits} |"
  done
done
