#!/usr/bin/env bash
# Fails (and lists the files) when any C++ file of the repository differs from .clang-format.
# Usage: scripts/format-check.sh [--fix]   (ctest runs it as "format: clang-format")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find engine story render tests fuzz bench -name '*.[ch]pp')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
clang-format --dry-run --Werror "${files[@]}"
