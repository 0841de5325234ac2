#!/usr/bin/env bash
# Benchmark (not part of the test suite): what narration costs the default film, and which part
# costs it. Renders storyboards/distributed-training.yaml from empty segment caches, three ways:
#   narrated  speech cache empty: Festival speaks all 67 lines, the sound is mixed and encoded
#   sound     speech cache filled beforehand: the sound is mixed and encoded, nothing is spoken
#   silent    speech cache filled beforehand, --no-audio: the same timing and pictures, no sound
# narrated / silent is what narration costs; narrated - sound is the speech, sound - silent the
# sound. Reports wall and CPU time and peak memory of each, and the ratios.
# Usage: [ROUNDS=N] bench/narration.sh [BUILD_DIR] [render options, e.g. --size 1280x720]
set -euo pipefail

source "$(dirname "$0")/lib.sh"
bench_start narration "$@"  # root, build, bin, work: out/bench-narration
set -- "${args[@]}"  # the render options
film=storyboards/distributed-training.yaml

# The lines spoken once, for the runs that start with them cached.
"$bin" render "$film" -o "$work/seed.m4a" --audio-only --cache "$work/seed" --quiet "$@" >/dev/null

# run WAY: one render of the film, WAY one of narrated, sound or silent, from an empty cache.
run() {
  local way=$1 flags=(); shift
  rm -rf "$work/$way"; mkdir -p "$work/$way"
  [ "$way" = narrated ] || cp -r "$work/seed/speech" "$work/$way/speech"
  [ "$way" = silent ] && flags=(--no-audio)
  measure "$way" "$bin" render "$film" -o "$work/$way.mp4" --cache "$work/$way" --quiet \
    "${flags[@]}" "$@"
}

# A shared machine drifts by several percent between runs of the same render, so the three ways
# run in rounds, forwards then backwards (ABC CBA: a drift in time falls on each way alike), and
# each round's ratios are against its own silent run; the medians over rounds are quoted.
rounds=${ROUNDS:-2}
rows=""; cost=(); sound=()
for i in $(seq "$rounds"); do
  echo "round $i of $rounds, load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
  ways=(narrated sound silent)
  (( i % 2 == 0 )) && ways=(silent sound narrated)
  for way in "${ways[@]}"; do run "$way" "$@"; done
  cost+=("$(ratio "$wall_narrated" "$wall_silent" 3)"); sound+=("$(ratio "$wall_sound" "$wall_silent" 3)")
  rows+="| round $i | $wall_narrated / $cpu_narrated | $wall_sound / $cpu_sound | $wall_silent / $cpu_silent"
  rows+=" | ${cost[-1]} / $(ratio "$cpu_narrated" "$cpu_silent" 3) | ${sound[-1]} / $(ratio "$cpu_sound" "$cpu_silent" 3)"
  rows+=" | $rss_narrated / $rss_sound / $rss_silent |"$'\n'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

cat <<TABLE
| default film, empty caches | narrated wall / CPU s | sound only | silent | narrated / silent (wall / CPU) | sound / silent | peak MB (narrated / sound / silent) |
|---|---|---|---|---|---|---|
${rows}| median wall ratio | | | | $(median "${cost[@]}") | $(median "${sound[@]}") | |
TABLE
