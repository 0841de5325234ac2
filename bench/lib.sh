# Shell helpers of the benchmarks (sourced by every script in bench/); measure writes GNU time's
# reports under $work.
# prepare_build ROOT BUILD [TARGET...]: what the benchmarks need (scripts/deps.sh bench), BUILD
# configured for Release unless it is already, and TARGET (default shardreel) built in it.
prepare_build() {
  local root=$1 build=$2; shift 2
  "$root/scripts/deps.sh" bench
  [ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" "${@:-shardreel}" >/dev/null
}
# bench_start NAME [BUILD_DIR] [ARG...]: a render benchmark's setting: root, the source tree (made
# the current directory); build, BUILD_DIR (default build/, shardreel built there); bin; work,
# out/bench-NAME (an empty scratch, removed when the script exits); args, the ARGs.
bench_start() {
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  build=$(realpath -m "${2:-$root/build}")
  bin="$build/shardreel"
  work="$root/out/bench-$1"
  args=("${@:3}")
  cd "$root"
  prepare_build "$root" "$build"
  rm -rf "$work"; mkdir -p "$work"
  trap 'rm -rf "$work"' EXIT
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# measure NAME CMD...: runs CMD under /usr/bin/time -v; sets wall_NAME, cpu_NAME (user+sys, s)
# and rss_NAME (peak resident set, MB).
measure() {
  local name=$1; shift
  /usr/bin/time -v -o "$work/$name.time" "$@" >/dev/null
  eval "$(awk -v n="$name" -F': ' '
    /Elapsed \(wall clock\)/ { k = split($2, p, ":"); w = 0; for (i = 1; i <= k; i++) w = w * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
    END { printf "wall_%s=%.2f cpu_%s=%.2f rss_%s=%.0f\n", n, w, n, u + s, n, m / 1024 }' \
    "$work/$name.time")"
}
# measure_runs NAME RUNS CMD...: CMD RUNS times in a row under one measure (a still takes less than
# GNU time's 10 ms resolution would show well); sets wall_NAME and cpu_NAME per run (the means)
# and rss_NAME (the largest run's peak).
measure_runs() {
  local name=$1 runs=$2 v; shift 2
  measure "$name" sh -c 'n=$1; shift; for i in $(seq "$n"); do "$@" >/dev/null || exit 1; done' sh "$runs" "$@"
  for v in "wall_$name" "cpu_$name"; do
    printf -v "$v" '%s' "$(awk -v t="${!v}" -v n="$runs" 'BEGIN { printf "%.3f", t / n }')"
  done
}
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf("%." d "f", a / b) }'; }  # [decimals, default 2]
fps() { awk -v f="$1" -v s="$2" 'BEGIN { printf "%.1f", f / s }'; }
