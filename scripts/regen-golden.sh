#!/usr/bin/env bash
# Rebuilds test_render and rewrites tests/golden/*.png from the current painter; review the
# images (git diff shows which changed) before committing them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SHARDREEL_BUILD:-$root/build}"
"$root/scripts/build.sh" test_render
cd "$root"
SHARDREEL_REGEN_GOLDEN=1 "$build/test_render" "[golden]"
