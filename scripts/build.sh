#!/usr/bin/env bash
# Configures (once) and builds shardreel with CMake + Ninja into build/ (or $SHARDREEL_BUILD).
# The first build takes minutes and says so; on a terminal CMake and Ninja show their progress,
# in a log (stderr not a terminal) only warnings and what fails.
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SHARDREEL_BUILD:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  echo "shardreel: building for the first time into $build: about 5 minutes on 2 cores" \
    "(later runs rebuild only what changed)" >&2
  # CMake's and Ninja's progress on a terminal; in a log only their warnings and errors.
  if [ -t 2 ]; then out=/dev/stderr; else out=/dev/null; fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${SHARDREEL_BUILD_TYPE:-Release}" >"$out"
fi
if [ -t 2 ]; then
  (cd "$build" && ninja "$@") >&2
else
  ninja -C "$build" --quiet "$@" >&2
fi
