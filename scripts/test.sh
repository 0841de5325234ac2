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
if [ "${1:-}" = --sanitize ]; then
  shift
  build="$root/build-asan" build_type=RelWithDebInfo sanitize=ON
  # The CLI tests run the sanitized binary too: these reach it through the environment.
  # Full malloc stacks (system libraries have no frame pointers) so that scripts/lsan.supp can
  # match third-party frames by name.
  # intercept_tls_get_addr=0: GCC 12's runtime (fixed in LLVM 17) takes a dynamic TLS block
  # whose address is 16 mod 4096 for a pre-2.25 glibc block with a header, reads two words of
  # the heap as its start and size, and LeakSanitizer's tracer then dies scanning that range at
  # the process's exit ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal
  # error", no leak reported; google/sanitizers#1322). It depends on where malloc put the block,
  # so it looked like a flake, and a rerun of the test failed as well. Without the interceptor
  # the suite still reports no leak (every leak check passes).
  export ASAN_OPTIONS="suppressions=$root/scripts/asan.supp:halt_on_error=1:detect_leaks=1:fast_unwind_on_malloc=0:check_initialization_order=1:strict_init_order=1:intercept_tls_get_addr=0"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
fi
# Configure every time with the tests required: a build directory first made by ./shardreel,
# before Catch2 was installed, would otherwise keep building no tests at all.
# Warnings are errors here (and so in CI), never in a user's plain build.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DSHARDREEL_TESTS=ON \
      -DSHARDREEL_WERROR=ON -DSHARDREEL_SANITIZE="$sanitize" > /dev/null
SHARDREEL_BUILD="$build" "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
