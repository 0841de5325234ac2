#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test with ctest.
# Usage: scripts/test.sh [--sanitize] [ctest arguments...]
#   --sanitize: build into build-asan/ with AddressSanitizer + UndefinedBehaviorSanitizer and run
#               the whole suite under them (any report fails the test; leaks are checked too).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh" test
build="${SHARDREEL_BUILD:-$root/build}"
build_type="${SHARDREEL_BUILD_TYPE:-Release}"
sanitize=OFF
retry=()
if [ "${1:-}" = --sanitize ]; then
  shift
  build="$root/build-asan" build_type=RelWithDebInfo sanitize=ON
  # The CLI tests run the sanitized binary too: these reach it through the environment.
  # Full malloc stacks (system libraries have no frame pointers) so that scripts/lsan.supp can
  # match third-party frames by name.
  export ASAN_OPTIONS="suppressions=$root/scripts/asan.supp:halt_on_error=1:detect_leaks=1:fast_unwind_on_malloc=0:check_initialization_order=1:strict_init_order=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
  # LeakSanitizer's stop-the-world tracer itself sometimes crashes at a process's exit on a busy
  # machine ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error", no leak
  # reported; google/sanitizers#1353): a failed test runs once more. A real report repeats.
  retry=(--repeat until-pass:2)
fi
# Configure every time with the tests required: a build directory first made by ./shardreel,
# before Catch2 was installed, would otherwise keep building no tests at all.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DSHARDREEL_TESTS=ON \
      -DSHARDREEL_SANITIZE="$sanitize" > /dev/null
SHARDREEL_BUILD="$build" "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --no-tests=error -j "$(nproc)" "${retry[@]}" "$@"
