#!/usr/bin/env bash
# A fresh Debian machine, proven the way a user meets the project: a minimal root of RELEASE
# (`debootstrap --variant=minbase`: no compiler, no library of ours), a clone of the repository
# alone in it (nothing beside it), then, inside the root, `./shardreel render` (installs the
# packages, builds, renders the default film) and `scripts/test.sh` (the whole suite). Each
# step's exit code and wall time are printed at the end (docs/debian.md records them); the logs
# stay in WORKDIR/logs. Needs root (debootstrap, chroot, mounts); installs debootstrap when
# missing. Unmounts what it mounted on exit; the root stays in WORKDIR for a look inside.
# Usage: scripts/debian-test.sh RELEASE [WORKDIR]
#   RELEASE: trixie, bookworm, ...; WORKDIR: default /var/tmp/shardreel-debian-RELEASE.
#   SHARDREEL_REPO: the repository to clone (default: the checkout this script is in);
#   SHARDREEL_BRANCH: its branch (default: that checkout's current branch).
#   WORKDIR/RELEASE-base.tar (the bootstrapped root, written by the first run) is unpacked instead
#   of bootstrapping again when present; WORKDIR/debs caches downloaded packages between runs
#   (the same files apt would fetch). Remove both for a run from nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 RELEASE [WORKDIR]" >&2; exit 2; }
release="$1"
work="$(mkdir -p "${2:-/var/tmp/shardreel-debian-$release}" && cd "${2:-/var/tmp/shardreel-debian-$release}" && pwd)"
repo="${SHARDREEL_REPO:-$here}"
branch="${SHARDREEL_BRANCH:-$(git -C "$repo" rev-parse --abbrev-ref HEAD)}"
[ "$(id -u)" -eq 0 ] || { echo "debian-test: run as root (debootstrap, chroot)" >&2; exit 2; }
root="$work/root"
src=/srv/shardreel  # inside the root: the clone, alone in /srv
declare -A code=() took=()
steps=()

log() { echo "debian-test: $*" >&2; }
mounted_under() { findmnt -rn -o TARGET | awk -v r="$root" '$0 == r || index($0, r "/") == 1'; }
unmount_all() {
  local m
  # Deepest first; lazily, so a process still holding a file cannot keep a mount behind.
  for m in $(mounted_under | sort -r); do umount -l "$m" 2>/dev/null || true; done
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

# step NAME COMMAND...: runs it with its output in logs/NAME.log, keeps its exit code and time.
step() {
  local name="$1" t0 rc=0
  shift
  steps+=("$name")
  log "$name: $*"
  t0=$EPOCHREALTIME
  "$@" >"$work/logs/$name.log" 2>&1 || rc=$?
  code[$name]=$rc
  took[$name]=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
  log "$name: exit $rc in ${took[$name]} s (logs/$name.log)"
}

# The root: bootstrapped once into a tar, then unpacked fresh for each run.
bootstrap() {
  command -v debootstrap >/dev/null || apt-get install -y -q --no-install-recommends debootstrap
  local mirror
  mirror=$("$here/scripts/deps.sh" mirror)
  rm -rf "$work/boot"
  debootstrap --variant=minbase "$release" "$work/boot" "$mirror"
  tar -C "$work/boot" -cf "$work/$release-base.tar" .
  rm -rf "$work/boot"
}
fresh_root() {
  [ -z "$(mounted_under)" ] || { log "still mounted under $root"; exit 1; }
  rm -rf --one-file-system "$root"
  mkdir -p "$root"
  tar -C "$root" -xf "$work/$release-base.tar"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  # A network that inspects TLS (a company's or a sandbox's egress proxy) signs with its own CA:
  # the host's bundle goes in beside Debian's, for node (npm ci) as extra CAs. On a machine with
  # a plain network it adds nothing Debian's own bundle lacks.
  [ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$root/host-ca.crt"
  mkdir -p "$work/debs" "$root/var/cache/apt/archives"
}
mount_all() {
  # The root bound onto itself, so it is a mount point as / is on a machine: `unshare --mount`
  # (the fault tests' private tmpfs) cannot change the propagation of a chroot's plain directory.
  mount --bind "$root" "$root"
  mount -t proc proc "$root/proc"
  mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
  mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm"  # chromium's shared memory
  mount --bind "$work/debs" "$root/var/cache/apt/archives"
}
clone() {
  git clone --no-local --quiet --branch "$branch" "$repo" "$root$src"
  git -C "$root$src" log -1 --format='%H %s'
}
# in_root COMMAND: as root in the root's fresh login environment, in the clone.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb NODE_EXTRA_CA_CERTS=/host-ca.crt /bin/bash -c "cd $src && $1"
}

mkdir -p "$work/logs"
if [ ! -f "$work/$release-base.tar" ]; then
  step debootstrap bootstrap
  [ "${code[debootstrap]}" = 0 ] || exit 1
fi
fresh_root
mount_all
step clone clone
step render in_root "nice -n 10 ./shardreel render"
step test in_root "nice -n 10 scripts/test.sh"
in_root "ls -l out; cat /etc/debian_version; g++ --version | head -n1; dpkg-query -W catch2 \
  libavcodec-dev chromium nodejs 2>/dev/null" >"$work/logs/versions.log" 2>&1 || true

echo "debian-test: $release, $branch at $(git -C "$root$src" rev-parse --short HEAD)"
for s in "${steps[@]}"; do printf '  %-12s exit %-3s %6s s\n' "$s" "${code[$s]}" "${took[$s]}"; done
grep -h "tests passed" "$work/logs/test.log" || true
cat "$work/logs/versions.log"
for s in "${steps[@]}"; do [ "${code[$s]}" = 0 ] || exit 1; done
