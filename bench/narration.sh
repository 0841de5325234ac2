#!/usr/bin/env bash
# Benchmark (not part of the test suite): what narration costs the default film. Renders
# storyboards/distributed-training.yaml from empty caches, in pairs: narrated (Festival
# speaks all 67 lines, the sound is mixed and encoded to AAC) and with --no-audio, its speech
# cache filled beforehand (the same timing and pictures, no voice, no sound). Reports wall and
# CPU time and peak memory of both and their ratios.
# Usage: [PAIRS=N] bench/narration.sh [BUILD_DIR] [render options, e.g. --size 1280x720]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
shift $(( $# > 0 ? 1 : 0 ))
work="$root/out/bench-narration"  # scratch, removed at exit
cd "$root"
"$root/scripts/deps.sh" bench
[ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" shardreel >/dev/null
bin="$build/shardreel"
film=storyboards/distributed-training.yaml
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
source "$root/bench/lib.sh"

# The two renders alternate, PAIRS times (default 2): a shared machine drifts by several percent
# between runs of the same render, so each narrated run is set against the silent one right after
# it, and the median of the pairs' ratios is the figure to quote.
pairs=${PAIRS:-2}
rows=""; ratios=()
for i in $(seq "$pairs"); do
  echo "pair $i of $pairs, load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
  rm -rf "$work/narrated" "$work/silent"; mkdir -p "$work/silent"
  measure narrated "$bin" render "$film" -o "$work/narrated.mp4" --cache "$work/narrated" --quiet "$@"
  cp -r "$work/narrated/speech" "$work/silent/speech"
  measure silent "$bin" render "$film" -o "$work/silent.mp4" --cache "$work/silent" --no-audio --quiet "$@"
  r=$(ratio "$wall_narrated" "$wall_silent"); ratios+=("$r")
  rows+="| pair $i | $wall_narrated | $wall_silent | $r | $(ratio "$cpu_narrated" "$cpu_silent") | $rss_narrated | $rss_silent |"$'\n'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR] = $1} END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')

cat <<TABLE
| default film, empty caches | narrated wall s | silent wall s | wall ratio | CPU ratio | narrated peak MB | silent peak MB |
|---|---|---|---|---|---|---|
${rows}| median wall ratio | | | $median | | | |
TABLE
