#!/usr/bin/env bash
# Installs the Debian packages shardreel needs (only those missing), or prints the exact
# apt-get line when not root; `test` also installs the Node test tools of tests/js.
# Usage: scripts/deps.sh build|test|fuzz|bench|cluster|mirror
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
  open-jtalk open-jtalk-mecab-naist-jdic libebur128-dev)
# Open JTalk's voice for Japanese narration, hts-voice-nitech-jp-atr503-m001 (CC-BY data), is in
# Debian's contrib (it was made with HTK, whose licence is not free), which many machines' apt
# sources leave out. install_contrib fetches it alone, without adding contrib to those sources.
contrib_pkgs=(hts-voice-nitech-jp-atr503-m001)
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
# bench/run.sh times the ffmpeg CLI (the encoder floor) and reads peak memory from GNU time.
bench_pkgs=(ffmpeg time)
# scripts/cluster-test.sh starts a single-node Slurm (munged, slurmctld, slurmd) and runs GNU
# parallel; python3 finds it free ports.
cluster_pkgs=(slurm-wlm munge parallel python3)

# The archive the system's apt fetches Debian from: the first URI of its deb822 sources or its
# one-line sources.list that is not the security archive; deb.debian.org when there is none.
debian_mirror() {
  local uri
  uri=$({ sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null
    sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?//p' /etc/apt/sources.list \
      /etc/apt/sources.list.d/*.list 2>/dev/null; } |
    tr ' \t' '\n\n' | grep -E '^[a-z+]+://' | grep -v -- '-security' | head -n1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

# `deps.sh mirror` prints that archive and installs nothing (scripts/debian-test.sh bootstraps
# its roots from it).
if [ "${1:-}" = mirror ]; then debian_mirror; exit 0; fi

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]; }

# The page's calculator is the engine compiled to WebAssembly (calc/): clang and lld with
# Debian's wasm32 C++ library, its ABI library, compiler-rt and wasi-libc, of the newest LLVM the
# archive offers (14 on Debian 12, 19 on Debian 13); empty package lists are refreshed once.
wasm_llvm() {
  local v tries
  for tries in 1 2; do
    for v in 19 18 17 16 15 14; do
      if installed "libc++-$v-dev-wasm32" ||
         [ -n "$(apt-cache show --no-all-versions "libc++-$v-dev-wasm32" 2>/dev/null)" ]; then
        echo "$v"
        return
      fi
    done
    [ "$tries" = 1 ] && [ "$(id -u)" -eq 0 ] && apt-get update -q >&2
  done
  echo 14
}
llvm=$(wasm_llvm)
# `deps.sh llvm` prints that version and installs nothing (scripts/fuzz.sh builds with its clang).
if [ "${1:-}" = llvm ]; then echo "$llvm"; exit 0; fi
# scripts/fuzz.sh builds with that clang and links libFuzzer from its compiler-rt.
fuzz_pkgs=(clang-$llvm libclang-rt-$llvm-dev)
build_pkgs+=(clang-$llvm lld-$llvm wasi-libc libc++-$llvm-dev-wasm32 libc++abi-$llvm-dev-wasm32
  libclang-rt-$llvm-dev-wasm32)

want=("${build_pkgs[@]}")
case "${1:-build}" in
  test) want+=("${test_pkgs[@]}") ;;
  fuzz) want+=("${fuzz_pkgs[@]}") ;;
  bench) want+=("${bench_pkgs[@]}") ;;
  cluster) want+=("${cluster_pkgs[@]}") ;;
esac

# The Debian packages of `want` that are not installed yet.
install_debian() {
  local missing=() p
  for p in "${want[@]}"; do installed "$p" || missing+=("$p"); done
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

# contrib_pkgs, each fetched from the mirror's contrib with an apt configuration of its own (a
# sources list naming only contrib, and its own package lists, in a temporary folder), then
# installed from the .deb. The system's sources and lists stay as they were. apt-get download
# checks the file against the SHA256 of the Packages index, itself checked against the
# InRelease signed with Debian's archive key (a mismatch fails with "Hash Sum mismatch"), so the
# local .deb that apt-get install takes unchecked is the archive's.
install_contrib() {
  local missing=() p
  for p in "${contrib_pkgs[@]}"; do installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "shardreel: missing ${missing[*]} (Debian contrib); as root run scripts/deps.sh" >&2
    exit 1
  fi
  local mirror suite tmp
  mirror=$(debian_mirror)
  suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
  tmp=$(mktemp -d)
  trap "rm -rf -- '$tmp'" EXIT  # expanded now: tmp is local
  echo "shardreel: fetching ${missing[*]} from $mirror $suite contrib (apt's sources unchanged)" >&2
  mkdir -p "$tmp/lists/partial" "$tmp/debs"
  chmod 755 "$tmp"
  chown _apt "$tmp/lists/partial" "$tmp/debs" 2>/dev/null || true  # apt's download sandbox
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite contrib" \
    >"$tmp/sources.list"
  local scoped=(-o "Dir::Etc::sourcelist=$tmp/sources.list" -o Dir::Etc::sourceparts=-
    -o "Dir::State::Lists=$tmp/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
  apt-get "${scoped[@]}" update -q >&2
  (cd "$tmp/debs" && apt-get "${scoped[@]}" download -q "${missing[@]}" >&2)
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends "$tmp"/debs/*.deb >&2
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
install_contrib
if [ "${1:-build}" = test ]; then install_node_tools; fi
