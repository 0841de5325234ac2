#!/bin/sh
# The direction of the includes (README "Architecture"), checked by ctest: a file under render/
# includes headers of its own folder and of the folders its line below lists, nothing else;
# engine/ and story/ include nothing of render/. The graph is written once, here, and must have
# no cycle. Prints every offending file:line and exits 1. Usage: include-check.sh [ROOT]
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# folder: the folders it may include. `generated`: the digests CMake writes at build time
# (render/*_digest.hpp). A subfolder is a folder of its own (cli/video includes cli by its line).
graph='
sys:
markup:
draw: sys
av: sys
sound/decode: av sys
sound: sound/decode av sys
container: sound av sys
sinks: draw markup sys
sinks/video: sinks sound draw av sys
voice: sound/decode sys generated
voice/module: voice sound/decode markup av sys
film: sinks/video sinks container sound voice draw sys generated
inputs: film sound voice sys
inputs/video: inputs film sound voice
sheet: sinks draw markup sys
page: film inputs sinks draw markup sys generated
studio: page film inputs inputs/video sinks draw sys
cli: inputs sheet film sinks voice draw sys
cli/video: cli studio page film inputs inputs/video sinks voice sys
'

edges=$(printf '%s\n' "$graph" |
    awk -F': *' 'NF { n = split($2, to, " "); for (i = 1; i <= n; ++i) print $1, to[i] }')
if ! printf '%s\n' "$edges" | grep -v ' generated$' | tsort >/dev/null 2>&1; then
    echo "scripts/include-check.sh: the graph has a cycle:" >&2
    printf '%s\n' "$edges" | grep -v ' generated$' | tsort 2>&1 >/dev/null | sed 's/^/  /' >&2
    exit 1
fi

status=0
for folder in $(printf '%s\n' "$graph" | awk -F: 'NF { print $1 }'); do
    if [ ! -d "render/$folder" ]; then
        echo "scripts/include-check.sh: render/$folder is in the graph but not in the tree" >&2
        status=1
    fi
done

# file:line:"render/dir/name.hpp" for every include of render/, then each judged by the graph.
find render engine story -name '*.cpp' -o -name '*.hpp' | sort |
    xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"render/' |
    awk -v graph="$graph" '
    BEGIN {
        n = split(graph, rows, "\n")
        for (r = 1; r <= n; ++r) {
            if (rows[r] == "") continue
            split(rows[r], kv, ": *")
            known[kv[1]] = 1
            m = split(kv[2], targets, " ")
            for (i = 1; i <= m; ++i) allowed[kv[1] SUBSEP targets[i]] = 1
        }
    }
    {
        split($0, parts, ":")
        file = parts[1]; line = parts[2]
        match($0, /"render\/[^"]*"/)
        header = substr($0, RSTART + 1, RLENGTH - 2)
        to = header; sub(/^render\//, "", to)
        if (to ~ /\//) sub(/\/[^\/]*$/, "", to); else to = "generated"
        if (file !~ /^render\//) {
            print file ":" line ": " file " is outside render/ and includes " header
            bad = 1; next
        }
        from = file; sub(/^render\//, "", from); sub(/\/[^\/]*$/, "", from)
        if (!(from in known)) {
            print file ":" line ": render/" from " is not in the graph (scripts/include-check.sh)"
            bad = 1; next
        }
        if (from == to || (from SUBSEP to) in allowed) next
        print file ":" line ": render/" from " may not include " header " (render/" to \
              " is not in its line of the graph, scripts/include-check.sh)"
        bad = 1
    }
    END { exit bad }' || status=1
exit $status
