#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) into build-fuzz/ and runs one for
# SECONDS, seeded with every storyboard in the tree. New crashers go to tests/fuzz-crashers/.
# Usage: scripts/fuzz.sh SECONDS [storyboard|still|all]   (all: each target for SECONDS)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SHARDREEL_FUZZ_BUILD:-$root/build-fuzz}"
seconds="${1:?usage: scripts/fuzz.sh SECONDS [storyboard|still|all]}"
target="${2:-storyboard}"
case "$target" in
  storyboard | still) targets=("$target") ;;
  all) targets=(storyboard still) ;;
  *) echo "fuzz.sh: unknown target '$target' (expected storyboard, still or all)" >&2; exit 2 ;;
esac

"$root/scripts/deps.sh" fuzz
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++-14 -DSHARDREEL_FUZZ=ON -DSHARDREEL_WERROR=ON >&2
fi
ninja -C "$build" --quiet "${targets[@]/#/fuzz_}" >&2

crashers="$root/tests/fuzz-crashers"
status=0
for t in "${targets[@]}"; do
  # Seeds are copied at run time; the corpus libFuzzer grows stays in the build directory.
  seeds="$build/seeds-$t" corpus="$build/corpus-$t"
  rm -rf "$seeds" && mkdir -p "$seeds" "$corpus" "$crashers"
  find "$root/storyboards" "$root/tests/storyboards" -name '*.yaml' -exec cp -t "$seeds" {} +
  echo "fuzz.sh: fuzz_$t for ${seconds}s" >&2
  (cd "$build" && "$build/fuzz/fuzz_$t" "$corpus" "$seeds" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=4096 -max_len=16384 -dict="$root/fuzz/storyboard.dict" \
    -artifact_prefix="$crashers/$t-" -print_final_stats=1) || status=$?
done
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: a crasher was kept in tests/fuzz-crashers/:" >&2
  ls -t "$crashers" | head -n 5 >&2
fi
exit "$status"
