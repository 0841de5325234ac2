#!/usr/bin/env bash
# bench/measured.sh on another file of the benchmark's runs (what the sizes held back from
# calibration are judged with): each model found gets its row in the tables, measured with the
# shape the benchmark gives it; the 1B's parameters counted by the script give the peak that
# `numbers` gives with the count the calibration uses; an unknown size stops it with exit 2
# before any row runs.
# Usage: tests/bench/measured_csv_test.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data="$root/tests/data/measured/nanotron-h100-1b-8b.csv"
fail() { echo "measured_csv_test: $*" >&2; exit 1; }

# One completed 1B run, and the same run under each other size's name (their figures are
# meaningless; what is checked is that each size is known and measured).
head -1 "$data" >"$work/runs.csv"
row=$(grep -m1 '^1B,1,1,32,256,8,1,1,0,' "$data")
[ -n "$row" ] || fail "the 1B row 1:32:8:1:1 ZeRO-0 is not in $data"
for model in 1B 3B 8B 70B 405B; do echo "$model,${row#1B,}" >>"$work/runs.csv"; done
out=$("$root/bench/measured.sh" "$build" "$work/runs.csv")
for model in 1B 3B 8B 70B 405B all; do
  grep -q "^| $model | " <<<"$out" || fail "no row for $model in:"$'\n'"$out"
done

# The 1B's error as the script prints it, against `numbers` with the calibration's count.
mem=$(cut -d, -f12 <<<"$row")
peak=$("$build/shardreel" numbers --params 1342244864 --layers 16 --hidden 2048 --ffn 8192 \
  --heads 32 --kv-heads 32 --vocab 131072 --tie-embeddings true --seq 4096 --gpu h100-sxm-80gb \
  --gpus-per-node 8 --nodes 1 --gpus 8 --tp 1 --pp 1 --zero 0 --micro-batch 1 \
  --micro-batches 32 --sequence-parallel off --grad-accum-dtype fp32 --pipeline-split compute \
  --format csv | awk -F, '$1 == "expected_peak.first_stage.allocator_bytes" { print $2 }')
want=$(awk -v p="$peak" -v m="$mem" 'BEGIN { e = p / (m * 1073741824) - 1; if (e < 0) e = -e
  printf "%.1f%%", 100 * e }')
got=$(awk -F' *\\| *' '$2 == "1B" { print $5; exit }' <<<"$out")
[ "$got" = "$want" ] || fail "1B's error is $got, numbers gives $want"

# An unknown size: exit 2, its name and the five sizes in the message, no table.
sed 's/^8B,/13B,/' "$work/runs.csv" >"$work/unknown.csv"
rc=0
"$root/bench/measured.sh" "$build" "$work/unknown.csv" >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 2 ] || fail "an unknown size exited $rc, not 2"
grep -q "model '13B' is none of the benchmark's (1B 3B 8B 70B 405B)" "$work/err" ||
  fail "unclear message: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "a table was printed for a file with an unknown size"
echo "measured_csv_test: ok"
