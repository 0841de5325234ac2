#!/usr/bin/env bash
# Benchmark (not part of the test suite): the cost model against measured training runs,
# nanotron's H100 scaling benchmark behind the Ultra-Scale Playbook (tests/data/measured/, 1B and
# 8B, or another file of its runs). Every row becomes a `shardreel numbers --format csv` call with the run's shape and layout;
# the first stage's expected peak in PyTorch's allocator (what the benchmark logs: rank 0's
# reserved peak, GiB) meets the measured one, whether the layout fits meets whether the run
# completed, and the predicted tokens/s per GPU meet the measured ones. Prints nine Markdown tables
# for docs/performance.md: median |error| of the peak over the completed runs and fits accuracy
# over all runs, per model and overall; per (model, nodes) group of completed runs, the Spearman
# rank correlation of predicted against measured throughput and the measured throughput of the
# layout the model ranks first among those it says fit, over the group's best; the ZeRO 0 and 1
# twins against each other; the step's excess per micro-batch with and without a pipeline; the
# pipelines DDP reduces against the others; the fits no memory model gets right; and the
# tensor-parallel runs measured well above the expected peak against the others, with their speed;
# how far the predicted tokens/s/GPU is from the measured; and a layer's time with tensor
# parallelism, without a pipeline, with one inside a node and with one across nodes.
# A build without the expected peak (before it existed) is measured by its on-paper total.
# Usage: bench/measured.sh [BUILD_DIR] [CSV]
#   CSV: runs of the same benchmark in the same columns (default the 1B and 8B calibration rows,
#   tests/data/measured/nanotron-h100-1b-8b.csv); its models may be any of the benchmark's five
#   sizes (1B, 3B, 8B, 70B, 405B), so the model is judged on sizes it was not fitted to as on these.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
csv=$(realpath -m "${2:-$root/tests/data/measured/nanotron-h100-1b-8b.csv}")
[ -r "$csv" ] || { echo "measured.sh: cannot read $csv" >&2; exit 2; }
source "$root/bench/lib.sh"
[ -x "$build/shardreel" ] || prepare_build "$root" "$build"
bin="$build/shardreel"
has_peak=0 has_reduce=0
# The help read whole first: grep -q stops reading at its match, and under pipefail the writer's
# SIGPIPE then made the test fail at random, measuring this build by its on-paper total.
help=$("$bin" numbers --help)
[[ $help == *--pipeline-split* ]] && has_peak=1
[[ $help == *--grad-reduce* ]] && has_reduce=1

# A model's shape as the benchmark builds it (nanotron's scripts/scaling_benchmarks.py,
# model_configs: layers, hidden size, heads, MLP size; key/value heads = heads, vocabulary 131,072;
# the embedding tied to the output layer when the MLP is narrower than 10,000), as flags; its
# parameters counted as that script counts them, with the two norms of each layer and the final
# one (1B: 1,342,244,864; 8B: 8,858,636,288).
shape() {
  local layers hidden heads ffn tie params
  case "$1" in
    1B) layers=16 hidden=2048 heads=32 ffn=8192 ;;
    3B) layers=28 hidden=3072 heads=32 ffn=8192 ;;
    8B) layers=32 hidden=4096 heads=32 ffn=14336 ;;
    70B) layers=80 hidden=8192 heads=64 ffn=28672 ;;
    405B) layers=126 hidden=16384 heads=128 ffn=53248 ;;
    *) echo "measured.sh: $csv: model '$1' is none of the benchmark's (1B 3B 8B 70B 405B)" >&2
       return 2 ;;
  esac
  tie=$((ffn < 10000 ? 1 : 0))
  params=$(((2 - tie) * 131072 * hidden + layers * (3 * hidden * ffn + 4 * hidden * hidden) +
    (2 * layers + 1) * hidden))
  echo "--params $params --layers $layers --hidden $hidden --ffn $ffn --heads $heads" \
    "--kv-heads $heads --vocab 131072"
  [ "$has_peak" = 1 ] && echo "--tie-embeddings $([ "$tie" = 1 ] && echo true || echo false)"
  return 0
}

# One row's flags: its model's shape, the benchmark's setup (its README) and the row's layout.
flags() {
  local model=$1 nodes=$2 mbs=$3 acc=$4 dp=$5 pp=$6 tp=$7 zero=$8
  shape "$model" || return 2
  echo "--seq 4096 --gpu h100-sxm-80gb" \
    "--gpus-per-node 8 --nodes $nodes --gpus $((dp * tp * pp)) --tp $tp --pp $pp --zero $zero" \
    "--micro-batch $mbs --micro-batches $acc --sequence-parallel $([ "$tp" -gt 1 ] && echo on || echo off)"
  if [ "$has_peak" = 1 ]; then
    echo "--grad-accum-dtype fp32 --pipeline-split compute"
  fi
  # nanotron wraps the model in DDP (its gradients reduced during the last backward) only at
  # ZeRO-0; at ZeRO-1 with fp32 accumulation it all-reduces the fp32 buffer after the backward.
  if [ "$has_reduce" = 1 ]; then
    echo "--grad-reduce $([ "$zero" = 1 ] && echo after-backward || echo overlapped)"
  fi
}

# Every model of the file is one of the benchmark's, checked before the first row is run.
for model in $(tail -n +2 "$csv" | cut -d, -f1 | sort -u); do shape "$model" >/dev/null || exit 2; done

# model, measured GiB (nan: did not complete), predicted bytes (nan: refused), fits (0/1),
# nodes, measured and predicted tokens/s per GPU, then the layout without its ZeRO stage
# (mbs:acc:dp:pp:tp) and the stage
predict() {
  local key=per_gpu.total_bytes
  [ "$has_peak" = 1 ] && key=expected_peak.first_stage.allocator_bytes
  tail -n +2 "$csv" |
    while IFS=, read -r model nodes mbs acc _gbs dp pp tp zero _mfu tok mem _status; do
      # shellcheck disable=SC2046
      if out=$("$bin" numbers $(flags "$model" "$nodes" "$mbs" "$acc" "$dp" "$pp" "$tp" "$zero") \
        --format csv 2>/dev/null); then
        echo "$out" | awk -F, -v m="$model" -v mem="$mem" -v key="$key" -v n="$nodes" -v t="$tok" '
          $1 == key { peak = $2 } $1 == "per_gpu.fits" { fits = ($2 == "true") }
          $1 == "step.tokens_per_second_per_gpu" { speed = $2 }
          END { printf "%s %s %s %s %s %s %s ", m, mem, peak, fits, n, t, speed }'
      else
        echo -n "$model $mem nan 0 $nodes $tok nan "
      fi
      echo "$mbs:$acc:$dp:$pp:$tp $zero"
    done
}

# Medians and Spearman's rank correlation (ties share their mean rank), for the tables below.
stats='
  function median(list, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && list[j - 1] > list[j]; j--) {
      t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
    return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
  }
  function ranks(x, n, r,   i, j, k, t, idx) {
    for (i = 1; i <= n; i++) idx[i] = i
    for (i = 2; i <= n; i++) for (j = i; j > 1 && x[idx[j - 1]] > x[idx[j]]; j--) {
      t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t }
    for (i = 1; i <= n; i = k + 1) {
      for (k = i; k < n && x[idx[k + 1]] == x[idx[i]]; k++) {}
      for (j = i; j <= k; j++) r[idx[j]] = (i + k) / 2
    }
  }
  # The tokens one GPU runs in a step of layout mbs:acc:dp:pp:tp (sequences of 4,096): the batch
  # its micro-batches, accumulation and replicas make (2^20 for all but 20 of the benchmark rows,
  # whose gbs column says 256 sequences where dp x grad_acc x mbs makes 16 to 4,096).
  function step_tokens(layout,   l) {
    split(layout, l, ":"); return l[1] * l[2] * l[3] * 4096 / (l[3] * l[4] * l[5])
  }
  # " | n | median | median" of the n values x[k, i] and y[k, i], in the number format fmt.
  function pair_cells(x, y, k, n, fmt,   i, a, b) {
    if (!n) { printf " | 0 | | "; return }
    for (i = 1; i <= n; i++) { a[i] = x[k, i]; b[i] = y[k, i] }
    printf " | %d | " fmt " | " fmt, n, median(a, n), median(b, n)
  }
  function rho(x, y, n,   i, m, cov, va, vb, rx, ry) {
    ranks(x, n, rx); ranks(y, n, ry); m = (n + 1) / 2; cov = va = vb = 0
    for (i = 1; i <= n; i++) {
      cov += (rx[i] - m) * (ry[i] - m); va += (rx[i] - m) ^ 2; vb += (ry[i] - m) ^ 2 }
    return cov / sqrt(va * vb)
  }
'

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
predict >"$rows"
echo "| model | runs | completed | median abs error of peak memory | fits right |"
echo "|---|---:|---:|---:|---:|"
awk "$stats"'
  function add(k, ran, fits, err) {
    runs[k]++; right[k] += (fits == ran)
    if (ran && err != "") { done[k]++; errors[k, done[k]] = err }
  }
  {
    ran = ($2 != "nan"); err = ""
    if (ran && $3 != "nan") { err = $3 / ($2 * 1073741824) - 1; if (err < 0) err = -err }
    add($1, ran, $4, err); add("all", ran, $4, err)
    if (!($1 in runs_of)) { runs_of[$1] = 1; keys[++models] = $1 }
  }
  END {
    keys[++models] = "all"
    for (i = 1; i <= models; i++) {
      k = keys[i]; n = done[k]
      for (j = 1; j <= n; j++) e[j] = errors[k, j]
      printf "| %s | %d | %d | %.1f%% | %.1f%% |\n", k, runs[k], n, 100 * median(e, n),
        100 * right[k] / runs[k]
      delete e
    }
  }' "$rows"
echo
echo "| group | completed runs | Spearman, predicted vs measured tokens/s/GPU | first choice / best measured |"
echo "|---|---:|---:|---:|"
awk "$stats"'
  $6 != "nan" && $7 != "nan" {
    g = $1 " on " $5 " nodes"; if (!(g in size)) order[++groups] = g
    k = ++size[g]; pred[g, k] = $7; meas[g, k] = $6; fit[g, k] = $4
  }
  END {
    for (q = 1; q <= groups; q++) {
      g = order[q]; n = size[g]; best = 0; first = 0
      for (i = 1; i <= n; i++) {
        a[i] = pred[g, i]; b[i] = meas[g, i]
        if (b[i] > best) best = b[i]
        if (fit[g, i] && (!first || a[i] > a[first])) first = i
      }
      corr[q] = rho(a, b, n); share[q] = first ? b[first] / best : 0
      printf "| %s | %d | %.2f | %.0f%% |\n", g, n, corr[q], 100 * share[q]
      delete a; delete b
    }
    printf "| median of %d groups | | %.2f | %.0f%% |\n", groups, median(corr, groups),
      100 * median(share, groups)
  }' "$rows"
echo
# The benchmark against itself: layouts run twice, with ZeRO 0 and 1 (the same matmuls; at ZeRO-0
# DDP reduces the gradients during the last backward, at ZeRO-1 one all-reduce follows it and an
# all-gather of the weights the step), both completed. Per group
# with at least 5 such pairs, the Spearman correlation of one run's tokens/s/GPU against its
# twin's (what any model of the layout can at best expect), and the model's against the ZeRO-1
# runs over the same layouts.
echo "| group | layouts run with ZeRO 0 and 1 | Spearman, ZeRO-0 run vs its ZeRO-1 twin | Spearman, predicted vs ZeRO-1 run |"
echo "|---|---:|---:|---:|"
awk "$stats"'
  $6 != "nan" && $7 != "nan" {
    g = $1 " on " $5 " nodes"; k = g SUBSEP $8
    if ($9 == 0) zero0[k] = $6; else { zero1[k] = $6; pred[k] = $7 }
    if (!(g in seen)) { seen[g] = 1; order[++groups] = g }
  }
  END {
    for (k in zero0) if (k in zero1) { split(k, part, SUBSEP); g = part[1]; n = ++size[g]
      a[g, n] = zero0[k]; b[g, n] = zero1[k]; p[g, n] = pred[k] }
    for (q = 1; q <= groups; q++) {
      g = order[q]; n = size[g]; if (n < 5) continue
      for (i = 1; i <= n; i++) { x[i] = a[g, i]; y[i] = b[g, i]; z[i] = p[g, i] }
      printf "| %s | %d | %.2f | %.2f |\n", g, n, rho(x, y, n), rho(z, y, n)
      delete x; delete y; delete z
    }
  }' "$rows"
echo
# What the predicted step leaves out, per group of completed runs, with and without a pipeline:
# each run's measured step (the benchmark's 2^20 tokens over its GPUs, at its tokens/s/GPU) less
# the predicted one, per micro-batch; how many runs exceed the prediction by over 0.4 s per
# micro-batch, and the median excess. With a pipeline the runs stall about 1.2 s per micro-batch,
# more of them the more nodes (issue 32's closing notes, docs/performance.md).
echo "| group | runs with a pipeline | over 0.4 s/micro-batch | median excess s/micro-batch | runs without | over 0.4 s | median excess |"
echo "|---|---:|---:|---:|---:|---:|---:|"
awk "$stats"'
  $6 != "nan" && $7 != "nan" {
    split($8, l, ":"); tokens = step_tokens($8)
    excess = (tokens / $6 - tokens / $7) / l[2]
    g = $1 " on " $5 " nodes"; if (!(g in seen)) { seen[g] = 1; order[++groups] = g }
    k = g SUBSEP (l[4] > 1); n = ++size[k]; ex[k, n] = excess; over[k] += (excess > 0.4)
  }
  END {
    for (q = 1; q <= groups; q++) {
      g = order[q]; printf "| %s", g
      for (pipe = 1; pipe >= 0; pipe--) {
        k = g SUBSEP pipe; n = size[k]
        for (i = 1; i <= n; i++) e[i] = ex[k, i]
        if (n) printf " | %d | %d | %.2f", n, over[k], median(e, n); else printf " | 0 | | "
        delete e
      }
      print " |"
    }
  }' "$rows"
echo
# Pipelines whose gradients PyTorch's DDP reduces (nanotron wraps its model in DDP at ZeRO-0 with
# dp > 1 only: engine/peak.cpp) against the other pipelines, all runs of each group: how many
# completed, and how many of those exceed the predicted step by over 0.4 s per micro-batch.
echo "| group | pipelines with DDP | completed | over 0.4 s/micro-batch | other pipelines | completed | over 0.4 s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
awk "$stats"'
  { split($8, l, ":"); if (l[4] == 1) next
    g = $1 " on " $5 " nodes"; if (!(g in seen)) { seen[g] = 1; order[++groups] = g }
    k = g SUBSEP (l[3] > 1 && $9 == 0); runs[k]++
    if ($6 == "nan" || $7 == "nan") next
    tokens = step_tokens($8); done[k]++
    over[k] += ((tokens / $6 - tokens / $7) / l[2] > 0.4) }
  END {
    for (q = 1; q <= groups; q++) {
      g = order[q]; printf "| %s", g
      for (ddp = 1; ddp >= 0; ddp--) { k = g SUBSEP ddp; printf " | %d | %d | %d", runs[k], done[k], over[k] }
      print " |"
    }
  }' "$rows"
echo
# Fits that no memory model gets right: crashed runs predicted further below the GPU than the
# model under-predicts any completed run (the worst such miss, GiB), and layouts recorded twice,
# once completed and once crashed (one of the two is wrong whatever the prediction).
echo "| model | runs | fits wrong | crashed, predicted below the card by more than the worst miss | layouts both completed and crashed | fits right at best |"
echo "|---|---:|---:|---:|---:|---:|"
awk -v capacity="$(printf '%s' "$("$bin" numbers --params 1e9 --gpu h100-sxm-80gb --format csv |
  awk -F, '$1 == "per_gpu.capacity_bytes" { print $2 }')")" '
  { gib = $3 / 1073741824; ran = ($2 != "nan"); row[NR] = $0; model[NR] = $1
    if (ran && $3 != "nan" && $2 - gib > worst) worst = $2 - gib
    k = $1 SUBSEP $5 SUBSEP $8 SUBSEP $9; seen[k] += 1; completed[k] += ran
    if (!($1 in known)) { known[$1] = 1; keys[++models] = $1 } }
  END {
    card = capacity / 1073741824
    for (i = 1; i <= NR; i++) {
      split(row[i], f, " "); ran = (f[2] != "nan"); m = f[1]
      k = m SUBSEP f[5] SUBSEP f[8] SUBSEP f[9]
      for (a = 1; a <= 2; a++) { key = a == 1 ? m : "all"; runs[key]++
        wrong[key] += (f[4] != ran)
        if (!ran && f[3] != "nan" && f[3] / 1073741824 < card - worst) hopeless[key]++
        else if (!ran && seen[k] > 1 && completed[k] > 0) twice[key]++ }
    }
    keys[++models] = "all"
    for (i = 1; i <= models; i++) { key = keys[i]
      printf "| %s | %d | %d | %d | %d | %.1f%% |\n", key, runs[key], wrong[key], hopeless[key],
        twice[key], 100 * (runs[key] - hopeless[key] - twice[key]) / runs[key] }
    printf "\nworst under-prediction of a completed run: %.1f GiB of %.1f GiB\n", worst, card
  }' "$rows"
echo
# Where the peak runs high: completed runs with tensor parallelism of 8 or more and micro-batches
# of 4 sequences or more, split at 1.25 times the expected peak. The runs measured above it are
# the fast ones: their measured tokens/s/GPU over the predicted against the others' (the same
# layouts, run on other node counts or days; docs/performance.md).
echo "| runs | measured over 1.25 x the expected peak | its median measured / expected | tokens/s measured / predicted | the others | median measured / expected | tokens/s measured / predicted |"
echo "|---|---:|---:|---:|---:|---:|---:|"
awk "$stats"'
  $2 != "nan" && $3 != "nan" && $6 != "nan" && $7 != "nan" {
    split($8, l, ":"); if (l[5] < 8 || l[1] < 4) next
    g = $1 ", tp " (l[5] == 8 ? "8" : "16 and 32"); if (!(g in seen)) { seen[g] = 1; order[++groups] = g }
    r = $2 * 1073741824 / $3; k = g SUBSEP (r > 1.25); n = ++size[k]; mem[k, n] = r; speed[k, n] = $6 / $7 }
  END {
    for (q = 1; q <= groups; q++) {
      g = order[q]; printf "| %s", g
      for (high = 1; high >= 0; high--) pair_cells(mem, speed, g SUBSEP high, size[g SUBSEP high], "%.2f")
      print " |"
    }
  }' "$rows"
echo
# How far the predicted tokens/s/GPU is from the measured, per model over the completed runs:
# how many are within a factor of two (the others stalled or crashed through, docs/performance.md)
# and, over those, the median of the larger over the smaller, less 1; and the median measured / predicted
# over all of them.
echo "| model | completed runs | within a factor of 2 | their median error of tokens/s/GPU (larger / smaller - 1) | median measured / predicted, all |"
echo "|---|---:|---:|---:|---:|"
awk "$stats"'
  $6 != "nan" && $7 != "nan" {
    if (!($1 in seen)) { seen[$1] = 1; order[++models] = $1 }
    r = $6 / $7; n = ++all[$1]; ratio[$1, n] = r
    if (r > 0.5 && r < 2) { k = ++near[$1]; err[$1, k] = (r > 1 ? r - 1 : 1 / r - 1) } }
  END {
    for (q = 1; q <= models; q++) {
      m = order[q]; n = all[m]; k = near[m]
      for (i = 1; i <= n; i++) a[i] = ratio[m, i]
      for (i = 1; i <= k; i++) b[i] = err[m, i]
      printf "| %s | %d | %d | %.0f%% | %.2f |\n", m, n, k, 100 * median(b, k), median(a, n)
      delete a; delete b
    }
  }' "$rows"
echo
# A layer's time with one sequence a micro-batch and tensor parallelism inside a node, on up to 16
# nodes: the step (2^20 tokens over the GPUs at the tokens/s/GPU) over the 1F1B schedule's slots
# (micro-batches + stages - 1) over a stage's share of the layers, measured and predicted alike,
# without a pipeline, with one inside a node and with one whose stages sit on different nodes
# (which the model leaves out: docs/performance.md).
echo "| tp | no pipeline: runs | measured ms a layer | predicted | pipeline in one node: runs | measured | predicted | pipeline across nodes: runs | measured | predicted |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
awk "$stats"'
  $6 != "nan" && $7 != "nan" {
    split($8, l, ":"); mbs = l[1]; acc = l[2]; dp = l[3]; pp = l[4]; tp = l[5]
    if (mbs != 1 || tp == 1 || tp > 8 || $5 > 16) next
    layers = ($1 == "1B" ? 16 : $1 == "8B" ? 32 : 0); if (!layers) next
    per = step_tokens($8) / (acc + pp - 1) / (layers / pp) * 1000
    kind = pp == 1 ? 0 : $5 == 1 ? 1 : 2; k = tp SUBSEP kind; n = ++size[k]
    meas[k, n] = per / $6; pred[k, n] = per / $7 }
  END {
    for (tp = 2; tp <= 8; tp *= 2) {
      printf "| %d", tp
      for (kind = 0; kind <= 2; kind++) pair_cells(meas, pred, tp SUBSEP kind, size[tp SUBSEP kind], "%.1f")
      print " |"
    }
  }' "$rows"
