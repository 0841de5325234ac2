#!/usr/bin/env bash
# Benchmark (not part of the test suite): what narration costs the default film. Renders
# storyboards/distributed-training.yaml from empty caches twice, back to back: narrated (Festival
# speaks all 67 lines, the sound is mixed and encoded to AAC) and with --no-audio, its speech
# cache filled beforehand (the same timing and pictures, no voice, no sound). Reports wall and
# CPU time and peak memory of both and their ratios.
# Usage: bench/narration.sh [BUILD_DIR] [render options, e.g. --size 1280x720]
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
rm -rf "$work"; mkdir -p "$work/silent"
trap 'rm -rf "$work"' EXIT
source "$root/bench/lib.sh"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
measure narrated "$bin" render "$film" -o "$work/narrated.mp4" --cache "$work/narrated" --quiet "$@"
cp -r "$work/narrated/speech" "$work/silent/speech"
measure silent "$bin" render "$film" -o "$work/silent.mp4" --cache "$work/silent" --no-audio --quiet "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

cat <<TABLE
| default film, empty caches | wall s | CPU s | peak RSS MB |
|---|---|---|---|
| narrated (speech, mix, AAC) | $wall_narrated | $cpu_narrated | $rss_narrated |
| --no-audio, speech cached | $wall_silent | $cpu_silent | $rss_silent |
| narrated / silent | $(ratio "$wall_narrated" "$wall_silent") | $(ratio "$cpu_narrated" "$cpu_silent") | +$(( rss_narrated - rss_silent )) MB |
TABLE
