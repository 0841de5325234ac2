#!/usr/bin/env bash
# Configures (once) and builds shardreel with CMake + Ninja into build/ (or $SHARDREEL_BUILD).
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SHARDREEL_BUILD:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${SHARDREEL_BUILD_TYPE:-Release}" >&2
fi
ninja -C "$build" --quiet "$@" >&2
