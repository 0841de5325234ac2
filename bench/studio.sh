#!/usr/bin/env bash
# Benchmark (not part of the test suite): the studio's frame latency and playback rate on the
# default film (bench/studio.mjs prints a Markdown table for docs/performance.md).
# Usage: [SCRUBS=N] bench/studio.sh [BUILD_DIR] [STORYBOARD]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
cd "$root"
"$root/scripts/deps.sh" build
[ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" shardreel >/dev/null
# The default film is narrated: its lines are spoken once into out/cache/speech before timing.
"$build/shardreel" check "${2:-storyboards/distributed-training.yaml}" >/dev/null
node "$root/bench/studio.mjs" "$build/shardreel" "${2:-storyboards/distributed-training.yaml}" "${SCRUBS:-300}"
