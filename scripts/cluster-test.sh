#!/usr/bin/env bash
# The cluster path of `shardreel jobs`, proven on real engines: a single-node Slurm (Debian's
# munge and slurm-wlm, a generated slurm.conf, every daemon in the foreground as a background job
# of this script, all under one mktemp -d) and GNU parallel. For each engine: the storyboard's
# segments are drawn by the engine and assembled; the film must be byte-identical to a local
# render and the assemble must draw no frame. Then two segments are taken out of the cache, the
# engine draws them again, one worker is SIGKILLed mid-segment on purpose, and a resubmission of
# what `jobs` still lists must redraw only that one and assemble the same film. Last, `jobs
# --page` through GNU parallel: the pages' films drawn by the workers, the pages drawing none of
# their frames. Timings are
# printed at the end (docs/commands/jobs.md records them). Needs root (munged runs as the
# munge user, slurmd as root); stops every daemon it started and removes its directory on exit.
# Usage: scripts/cluster-test.sh [--engine slurm|parallel|both] [--quality Q] [STORYBOARD]
#   default: both engines, storyboards/distributed-training.yaml at --quality low;
#   SHARDREEL_BINARY: the binary (default build/shardreel); KEEP=1 keeps the directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SHARDREEL_BINARY:-$root/build/shardreel}"
engine=both quality=low board="$root/storyboards/distributed-training.yaml"
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    --quality) quality="$2"; shift 2 ;;
    -*) echo "usage: $0 [--engine slurm|parallel|both] [--quality Q] [STORYBOARD]" >&2; exit 2 ;;
    *) board="$(readlink -f -- "$1")"; shift ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "cluster-test: run as root (munged, slurmd)" >&2; exit 2; }
"$root/scripts/deps.sh" cluster
[ -x "$bin" ] || { echo "cluster-test: no binary $bin (build it first)" >&2; exit 2; }

tmp="$(mktemp -d /tmp/shardreel-cluster.XXXXXX)"
chmod 755 "$tmp"  # the munge user reaches its directory through it
pids=()
declare -A timing=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "cluster-test: kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "cluster-test: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
jobs_of() { (cd "$tmp/work" && "$bin" jobs "$board" --quality "$quality" --cache "$1" "${@:2}"); }

# ---- the local reference: draw the segments, assemble, no engine --------------------------------
local_render() {
  mkdir -p "$tmp/work" "$tmp/local"
  local t0
  t0=$(now)
  # The first call times the narration's lines into the speech cache the engines share.
  jobs_of "$tmp/local/cache" > "$tmp/local/jobs.txt"
  timing[jobs_cold]=$(since "$t0")
  segments=$(wc -l < "$tmp/local/jobs.txt")
  t0=$(now)
  nice -n 19 "$bin" render "$board" --quality "$quality" --cache "$tmp/local/cache" -q \
    --segment-only
  timing[local_draw]=$(since "$t0")
  t0=$(now)
  nice -n 19 "$bin" render "$board" --quality "$quality" --cache "$tmp/local/cache" -q \
    -o "$tmp/local/film.mp4"
  timing[local_assemble]=$(since "$t0")
  log "local: $segments segments drawn in ${timing[local_draw]} s, assembled in ${timing[local_assemble]} s"
}

# The engine's film (the assemble's default output under the work directory) must be the local
# one, and its assemble must have drawn nothing; the film is removed for the next round.
check_film() {  # NAME ASSEMBLE_LOG
  local film
  film="$tmp/work/out/$(basename "${board%.*}").mp4"
  cmp "$film" "$tmp/local/film.mp4" || fail "$1: the film differs from the local render"
  grep -q "(0 frames drawn" "$2" || fail "$1: the assemble drew frames: $(cat "$2")"
  rm "$film"
  log "$1: film byte-identical to the local render, assemble drew no frame"
}

# Takes the two largest segments out of a cache (the video ones: <key>.mp4 and its record).
drop_two_segments() {
  local mp4
  for mp4 in $(find "$1" -maxdepth 1 -name '*.mp4' -printf '%s %p\n' | sort -rn | head -2 | cut -d' ' -f2); do
    rm -f "$mp4" "${mp4%.mp4}.json"
  done
}

# Waits for a segment being written into the cache; prints its writer's PID (from the
# temporary name .<key>.mp4.tmp-PID-N).
writer_pid() {
  local temp
  for _ in $(seq 1200); do
    temp=$(find "$1" -maxdepth 1 -name '.*.mp4.tmp-*' | head -1)
    if [ -n "$temp" ]; then
      temp=${temp##*.tmp-}
      echo "${temp%%-*}"
      return
    fi
    sleep 0.05
  done
  fail "no segment was being written into $1"
}

# The cache must list exactly COUNT pending segments.
expect_pending() {  # CACHE COUNT WHAT [JOBS-ARGS...]
  local n
  n=$(jobs_of "$1" "${@:4}" 2>/dev/null | wc -l)
  [ "$n" -eq "$2" ] || fail "$3: jobs lists $n pending segments, expected $2"
  log "$3: jobs lists $n pending"
}

# ---- Slurm ---------------------------------------------------------------------------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])'; }

start_munge() {
  local m="$tmp/munge"
  mkdir -p "$m"
  dd if=/dev/urandom bs=1024 count=1 status=none > "$m/munge.key"
  chmod 755 "$m" && chmod 400 "$m/munge.key" && chown -R munge:munge "$m"
  setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged -F \
    --key-file="$m/munge.key" --socket="$m/munge.socket" --pid-file="$m/munged.pid" \
    --log-file="$m/munged.log" --seed-file="$m/munged.seed" 2> "$m/stderr.log" &
  pids+=($!)
  for _ in $(seq 50); do [ -S "$m/munge.socket" ] && return; sleep 0.1; done
  fail "munged did not start: $(cat "$m/munged.log" 2>/dev/null)"
}

write_slurm_conf() {
  local s="$tmp/slurm" host cpus
  host=$(hostname -s) cpus=$(nproc)
  mkdir -p "$s/state" "$s/spool"
  cat > "$s/slurm.conf" <<EOF
ClusterName=shardreel
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=3600
MailProg=/bin/true
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$s/slurm.conf"
}

start_slurm() {
  local t0
  t0=$(now)
  start_munge
  write_slurm_conf
  /usr/sbin/slurmctld -D -c -f "$SLURM_CONF" 2> "$tmp/slurm/slurmctld.stderr" &
  pids+=($!)
  # The tasks inherit nice 19.
  nice -n 19 /usr/sbin/slurmd -D -f "$SLURM_CONF" 2> "$tmp/slurm/slurmd.stderr" &
  pids+=($!)
  for _ in $(seq 300); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
    sleep 0.1
  done
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || fail "the node is not idle: $(sinfo 2>&1)"
  timing[slurm_start]=$(since "$t0")
  log "slurm: munged, slurmctld and slurmd up, node idle after ${timing[slurm_start]} s"
}

job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' '; }

# Waits until no job of the given ids is pending or running.
wait_jobs() {
  while [ -n "$(squeue -h -j "$(IFS=,; echo "$*")" 2>/dev/null)" ]; do sleep 0.2; done
}

# Writes the engine's script for a cache (`jobs --format`); its time goes to timing[KEY] if given.
write_script() {  # FORMAT CACHE FILE [KEY]
  local t0
  t0=$(now)
  jobs_of "$2" --format "$1" --log-dir "$tmp/slurm/logs" > "$3"
  if [ -n "${4:-}" ]; then timing[$4]=$(since "$t0"); fi
}

slurm_round() {
  local cache="$tmp/slurm/cache" t0 array assemble task
  write_script slurm "$cache" "$tmp/slurm/jobs.sbatch" slurm_jobs
  t0=$(now)
  read -r array assemble < <(bash "$tmp/slurm/jobs.sbatch")
  wait_jobs "$array"
  timing[slurm_array]=$(since "$t0")
  wait_jobs "$assemble"
  timing[slurm_total]=$(since "$t0")
  [ "$(job_state "$array")" = "COMPLETED " ] || fail "slurm: array $array ended $(job_state "$array")"
  [ "$(job_state "$assemble")" = "COMPLETED " ] || fail "slurm: assemble ended $(job_state "$assemble")"
  check_film slurm "$tmp/slurm/logs/assemble-$assemble.err"

  # Two segments gone; one of their tasks is killed mid-segment (SIGKILL to the batch step).
  drop_two_segments "$cache"
  write_script slurm "$cache" "$tmp/slurm/jobs.sbatch"
  read -r array assemble < <(bash "$tmp/slurm/jobs.sbatch")
  writer_pid "$cache" > /dev/null
  task=$(squeue -h -j "$array" -t R -o %i | head -1)
  scancel --batch --signal=KILL "$task"
  log "slurm: killed task $task mid-segment"
  wait_jobs "$array" "$assemble"
  log "slurm: array ended $(job_state "$array"), assemble $(job_state "$assemble")"
  [ "$(job_state "$assemble")" != "COMPLETED " ] || fail "slurm: the assemble ran after a failed task"
  expect_pending "$cache" 1 slurm
  write_script slurm "$cache" "$tmp/slurm/jobs.sbatch" slurm_jobs
  t0=$(now)
  read -r array assemble < <(bash "$tmp/slurm/jobs.sbatch")
  wait_jobs "$array" "$assemble"
  timing[slurm_resubmit]=$(since "$t0")
  [ "$(job_state "$assemble")" = "COMPLETED " ] || fail "slurm: resubmitted assemble ended $(job_state "$assemble")"
  check_film "slurm resubmission" "$tmp/slurm/logs/assemble-$assemble.err"
}

# ---- GNU parallel --------------------------------------------------------------------------------
parallel_run() {  # LOG: runs the script, its stderr to LOG
  nice -n 19 bash "$tmp/parallel/jobs.sh" 2> "$1"
}

parallel_round() {
  local cache="$tmp/parallel/cache" t0 pid
  mkdir -p "$tmp/parallel"
  write_script parallel "$cache" "$tmp/parallel/jobs.sh" parallel_jobs
  t0=$(now)
  parallel_run "$tmp/parallel/run.log" || fail "parallel: $(cat "$tmp/parallel/run.log")"
  timing[parallel_total]=$(since "$t0")
  check_film parallel "$tmp/parallel/run.log"

  drop_two_segments "$cache"
  write_script parallel "$cache" "$tmp/parallel/jobs.sh"
  parallel_run "$tmp/parallel/killed.log" &
  local script=$!
  pid=$(writer_pid "$cache")
  kill -KILL "$pid"
  log "parallel: killed worker $pid mid-segment"
  if wait "$script"; then fail "parallel: the run succeeded with a killed worker"; fi
  expect_pending "$cache" 1 parallel
  write_script parallel "$cache" "$tmp/parallel/jobs.sh"
  t0=$(now)
  parallel_run "$tmp/parallel/rerun.log" || fail "parallel: $(cat "$tmp/parallel/rerun.log")"
  timing[parallel_rerun]=$(since "$t0")
  check_film "parallel rerun" "$tmp/parallel/rerun.log"
}

# The article pages' films through the same engine: `jobs --page` lists their segments (captioned
# by a track, so other keys than the film's), the script draws them, and each page written after
# the assemble draws no frame of its film.
page_round() {
  local cache="$tmp/parallel/cache" n t0
  n=$(jobs_of "$cache" --page 2>/dev/null | wc -l)
  { [ "$n" -gt 0 ] && [ "$n" -le "$segments" ]; } || fail "page: jobs --page lists $n pending segments"
  log "page: jobs --page lists $n pending (the page's film)"
  jobs_of "$cache" --page --format parallel > "$tmp/parallel/page.sh"
  t0=$(now)
  nice -n 19 bash "$tmp/parallel/page.sh" 2> "$tmp/parallel/page.log" ||
    fail "page: $(cat "$tmp/parallel/page.log")"
  timing[parallel_page]=$(since "$t0")
  grep -q 'film.mp4, 0 frames drawn)' "$tmp/parallel/page.log" ||
    fail "page: the page drew frames of its film: $(grep 'frames drawn' "$tmp/parallel/page.log")"
  expect_pending "$cache" 0 page --page
}

report() {
  local key
  echo "cluster-test: passed ($segments segments of $(basename "$board") at --quality $quality, $(nproc) CPUs)"
  for key in $(printf '%s\n' "${!timing[@]}" | sort); do printf '  %-16s %8s s\n' "$key" "${timing[$key]}"; done
  # What an engine adds per segment over drawing them all in one local render.
  [ -z "${timing[slurm_array]:-}" ] || awk -v a="${timing[slurm_array]}" -v l="${timing[local_draw]}" \
    -v n="$segments" 'BEGIN { printf "  slurm overhead   %8.2f s a segment (array against local draw)\n", (a - l) / n }'
  [ -z "${timing[parallel_total]:-}" ] || awk -v p="${timing[parallel_total]}" \
    -v l="${timing[local_draw]}" -v m="${timing[local_assemble]}" -v n="$segments" \
    'BEGIN { printf "  parallel overhead%8.2f s a segment (run against local draw + assemble)\n", (p - l - m) / n }'
}

local_render
if [ "$engine" != parallel ]; then
  mkdir -p "$tmp/slurm"
  start_slurm
  slurm_round
fi
[ "$engine" = slurm ] || { parallel_round; page_round; }
report
