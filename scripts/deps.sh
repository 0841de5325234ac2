#!/usr/bin/env bash
# Installs the Debian packages shardreel needs (only those missing), or prints the exact
# apt-get line when not root; `test` also installs the Node test tools of tests/js.
# Usage: scripts/deps.sh build|test|fuzz|bench|cluster
set -euo pipefail

# The narration's voices (the voice module): espeak-ng with its data, Festival with the HTS voice
# cmu_us_slt_arctic_hts (which brings the CMU lexicon), libebur128 for loudness; libswresample and
# libavfilter resample and mix the sound. The studio serves HTTP with cpp-httplib.
# Other languages (issue 18): FriBidi orders right-to-left text before HarfBuzz shapes it, ICU
# breaks lines and formats numbers per locale, libgettextpo reads the message catalogues (.po),
# and Noto fills in the scripts Inter lacks (Arabic, Hebrew, Devanagari; CJK).
build_pkgs=(cmake ninja-build g++ pkg-config
  libcairo2-dev libpng-dev libharfbuzz-dev libfreetype-dev
  libfribidi-dev libicu-dev libgettextpo-dev fonts-noto-core fonts-noto-cjk
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libxxhash-dev libcpp-httplib-dev
  libespeak-ng-dev espeak-ng-data festival festival-dev libestools-dev festvox-us-slt-hts
  libebur128-dev)
# Tests read outputs back with Debian tools: pdfinfo/pdftotext (poppler-utils), xmllint
# (libxml2-utils); the format test runs clang-format over the files git lists; the schema tests
# run python3-jsonschema with python3-yaml, and Ajv under node (nodejs and npm only when no node
# is installed: another Node.js brings its own npm); the page test drives Debian's chromium
# with puppeteer-core, which downloads no browser of its own; the jobs test runs the
# `--format parallel` script under GNU parallel; the catalogue test extracts the messages with
# gettext's xgettext and compares the .po files with msgcmp.
test_pkgs=(catch2 poppler-utils libxml2-utils clang-format git python3-jsonschema python3-yaml
  chromium parallel gettext)
command -v node >/dev/null || test_pkgs+=(nodejs npm)
# scripts/fuzz.sh builds with clang and links libFuzzer from compiler-rt.
fuzz_pkgs=(clang-14 libclang-rt-14-dev)
# bench/run.sh times the ffmpeg CLI (the encoder floor) and reads peak memory from GNU time.
bench_pkgs=(ffmpeg time)
# scripts/cluster-test.sh starts a single-node Slurm (munged, slurmctld, slurmd) and runs GNU
# parallel; python3 finds it free ports.
cluster_pkgs=(slurm-wlm munge parallel python3)

want=("${build_pkgs[@]}")
case "${1:-build}" in
  test) want+=("${test_pkgs[@]}") ;;
  fuzz) want+=("${fuzz_pkgs[@]}") ;;
  bench) want+=("${bench_pkgs[@]}") ;;
  cluster) want+=("${cluster_pkgs[@]}") ;;
esac

# The Debian packages of `want` that are not installed yet.
install_debian() {
  local missing=() p status
  for p in "${want[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local line="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "shardreel: missing Debian packages; as root run:" >&2
    echo "  $line" >&2
    exit 1
  fi
  echo "shardreel: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have empty package lists; refresh them once, then install.
  if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
  fi
}

# The Node test tools exactly as tests/js/package-lock.json pins them (npm ci); skipped while the
# installed copy was made from the same lock file.
install_node_tools() {
  local dir stamp
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tests/js" && pwd)"
  stamp="$dir/node_modules/.shardreel-lock"
  cmp -s "$dir/package-lock.json" "$stamp" && return 0
  echo "shardreel: installing the Node test tools (npm ci in tests/js)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$dir/package-lock.json" "$stamp"
}

install_debian
if [ "${1:-build}" = test ]; then install_node_tools; fi
