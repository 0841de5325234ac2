#!/usr/bin/env bash
# Benchmark (not part of the test suite): what a render with nothing changed costs against the
# cold render before it. Each storyboard is rendered into an empty cache (cold: every line spoken,
# every segment drawn), then RUNS times each, in turn, again with nothing changed: with the film's
# record (the film kept: no segment looked up, nothing joined, no video module loaded), with the
# films' records removed before the run (the film joined again from the segments its first keys'
# records name, as before films' records), and with the first keys' records removed too (every
# chapter's scenes built to key it, as before first keys). Prints a Markdown table of wall seconds
# (medians) and the ratios to the cold render.
# Usage: [RUNS=N] bench/rerender.sh [BUILD_DIR] [render options, e.g. --quality low]
#        (default storyboards: the default film and light-tour.yaml; STORYBOARDS="a.yaml b.yaml"
#        names others)
set -euo pipefail

source "$(dirname "$0")/lib.sh"
bench_start rerender "$@"  # root, build, bin, work: out/bench-rerender
set -- "${args[@]}"  # the render options

runs=${RUNS:-3}
boards=(${STORYBOARDS:-storyboards/distributed-training.yaml storyboards/light-tour.yaml})

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
rows=""
for board in "${boards[@]}"; do
  name=$(basename "$board" .yaml)
  render=("$bin" render "$board" -o "$work/$name.mp4" --cache "$work/$name" --quiet "$@")
  measure cold "${render[@]}"
  recorded=(); joined=(); scenes=()
  for i in $(seq "$runs"); do
    measure recorded "${render[@]}"; recorded+=("$wall_recorded")
    rm -rf "$work/$name/films"
    measure joined "${render[@]}"; joined+=("$wall_joined")
    rm -rf "$work/$name/films" "$work/$name/first"
    measure scenes "${render[@]}"; scenes+=("$wall_scenes")
  done
  row="| $name | $wall_cold"
  for m in "$(median "${recorded[@]}")" "$(median "${joined[@]}")" "$(median "${scenes[@]}")"; do
    row+=" | $m | $(ratio "$m" "$wall_cold" 4)"
  done
  rows+="$row |"$'\n'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

cat <<TABLE
| storyboard (render options: ${*:-none}) | cold s | no change s (median of $runs) | / cold | film joined again s | / cold | scenes built too s | / cold |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows%$'\n'}
TABLE
