#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh" test
"$root/scripts/build.sh"
cd "${SHARDREEL_BUILD:-$root/build}"
ctest --output-on-failure -j "$(nproc)" "$@"
