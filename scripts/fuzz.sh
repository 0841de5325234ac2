#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) into build-fuzz/ and runs one for
# SECONDS at nice 19 (docs/fuzzing.md). storyboard and still are seeded with every storyboard in
# the tree, the others with their corpus in fuzz/corpus/TARGET/; each target has its dictionary.
# New crashers go to tests/fuzz-crashers/. `minimize TARGET` merges what the runs found into
# fuzz/corpus/TARGET/, keeping only inputs that add coverage.
# Usage: scripts/fuzz.sh SECONDS [TARGET|all]   (all: each target for SECONDS)
#        scripts/fuzz.sh minimize TARGET
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SHARDREEL_FUZZ_BUILD:-$root/build-fuzz}"
all=(storyboard still audio studio flags calc)
usage="usage: scripts/fuzz.sh SECONDS [storyboard|still|audio|studio|flags|calc|all] | minimize TARGET"
seconds="${1:?$usage}"
target="${2:-storyboard}"
# Seconds an input may take, by the wall clock: at nice 19 on a shared 2-core machine a sound
# file that needs 0.7 s of CPU took 11 s, so 10 s reported hangs that were not.
timeout="${SHARDREEL_FUZZ_TIMEOUT:-60}"
case " ${all[*]} all " in
  *" $target "*) ;;
  *) echo "fuzz.sh: unknown target '$target' (expected ${all[*]} or all)" >&2; exit 2 ;;
esac
targets=("$target")
[ "$target" = all ] && targets=("${all[@]}")

"$root/scripts/deps.sh" fuzz
# Warnings are errors, but for one: clang 19 over Debian 12's libstdc++ 12 flags the
# get_temporary_buffer that std::stable_sort calls inside the library's own header.
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="clang++-$("$root/scripts/deps.sh" llvm)" -DSHARDREEL_FUZZ=ON -DSHARDREEL_CALC=OFF \
    -DSHARDREEL_WERROR=ON -DCMAKE_CXX_FLAGS=-Wno-error=deprecated-declarations >&2
fi
ninja -C "$build" --quiet "${targets[@]/#/fuzz_}" >&2

# The target's dictionary and longest input: storyboards, or the requests, command lines and
# JSON of the new targets (4 KiB), or sound files (64 KiB).
options() {
  case "$1" in
    storyboard | still) echo "-dict=$root/fuzz/storyboard.dict -max_len=16384" ;;
    audio) echo "-dict=$build/fuzz/audio.dict -max_len=65536" ;;
    *) echo "-dict=$build/fuzz/$1.dict -max_len=4096" ;;
  esac
}
# Sound files are read with no network at all (a private network namespace, as root; libav's
# nested protocols stay file-only anyway).
isolate() {
  if [ "$1" = audio ] && [ "$(id -u)" = 0 ] && unshare --net true 2>/dev/null; then
    echo "unshare --net"
  fi
}

if [ "$seconds" = minimize ]; then
  t="$target" corpus="$root/fuzz/corpus/$target"
  mkdir -p "$corpus"
  # shellcheck disable=SC2046
  (cd "$build" && $(isolate "$t") nice -n 19 "$build/fuzz/fuzz_$t" -merge=1 $(options "$t") \
    -timeout="$timeout" -rss_limit_mb=4096 "$corpus" "$build/corpus-$t")
  exit 0
fi

crashers="$root/tests/fuzz-crashers"
status=0
for t in "${targets[@]}"; do
  # Seeds are copied at run time; the corpus libFuzzer grows stays in the build directory.
  seeds="$build/seeds-$t" corpus="$build/corpus-$t"
  rm -rf "$seeds" && mkdir -p "$seeds" "$corpus" "$crashers"
  case "$t" in
    storyboard | still)
      find "$root/storyboards" "$root/tests/storyboards" -name '*.yaml' -exec cp -t "$seeds" {} + ;;
    *) cp -t "$seeds" "$root/fuzz/corpus/$t"/* ;;
  esac
  echo "fuzz.sh: fuzz_$t for ${seconds}s" >&2
  # shellcheck disable=SC2046
  (cd "$build" && $(isolate "$t") nice -n 19 "$build/fuzz/fuzz_$t" "$corpus" "$seeds" \
    -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 $(options "$t") \
    -artifact_prefix="$crashers/$t-" -print_final_stats=1) || status=$?
done
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: a crasher was kept in tests/fuzz-crashers/:" >&2
  ls -t "$crashers" | head -n 5 >&2
fi
exit "$status"
