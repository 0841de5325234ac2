#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SHARDREEL_BUILD:-$root/build}"
"$root/scripts/deps.sh" test
# Configure every time with the tests required: a build directory first made by ./shardreel,
# before Catch2 was installed, would otherwise keep building no tests at all.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${SHARDREEL_BUILD_TYPE:-Release}" \
      -DSHARDREEL_TESTS=ON > /dev/null
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
