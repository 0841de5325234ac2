#!/usr/bin/env bash
# The message catalogue (docs/languages.md): every message chapters draw, extracted from story/
# (and the page's and the calculator's words from render/) with xgettext (the keywords tr and
# N_) into locale/shardreel.pot, and one translation per language in locale/<language>.po.
# English is the msgids themselves and has no .po.
# Usage: scripts/catalogue.sh update   rewrite the template and merge it into every .po
#        scripts/catalogue.sh check    fail when the template is stale, when a .po misses (or has
#                                      only a fuzzy) translation of a message the default film
#                                      draws, has a fuzzy entry, or keeps one the sources no longer
#                                      use (ctest runs it)
#        scripts/catalogue.sh new LANG start locale/LANG.po from the template (msginit)
set -euo pipefail
shopt -s nullglob
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
template=locale/shardreel.pot
film=storyboards/distributed-training.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Sources with their path from the root, sorted: every .cpp under story/ whatever its folder,
# but the kinds in story/chapters/, which count only for the kinds given; the article page's and
# the calculator page's words (its template's, in calc_page.cpp, and its scripts'), and the help of
# the flags the calculator shows (the settings table's is under story/), and the templates of the
# engine's refusals (engine/problem.cpp), which the calculator page translates.
shared_sources() {
    find story -name '*.cpp' ! -path 'story/chapters/*' | LC_ALL=C sort
    ls render/page/*.cpp render/calc_page/*.cpp render/calc_page/*.js
    ls render/inputs/config_values.cpp render/inputs/numbers_json.cpp engine/problem.cpp
}
all_sources() { shared_sources; ls story/chapters/*.cpp; }
film_sources() {
    shared_sources
    sed -n 's/^ *kind: *\([a-z0-9_]*\).*/story\/chapters\/\1.cpp/p' "$film" | sort -u
}

# extract OUT SOURCE...: the messages of the sources, located by file only (line numbers would
# churn every .po at each edit), without the creation date (so a rerun changes nothing).
extract() {
    local out=$1
    shift
    # The language by extension: C++, and JavaScript for the calculator's script.
    xgettext --from-code=UTF-8 --keyword= --keyword=tr --keyword=N_ \
        --add-location=file --sort-by-file --no-wrap --package-name=shardreel -o "$out" "$@"
    sed -i -e '/^"POT-Creation-Date: /d' \
        -e '1s|.*|# The words shardreel draws on screen (scripts/catalogue.sh update writes this file).|' \
        "$out"
}

# The msgids of a catalogue, one escaped line each, sorted: two catalogues hold the same
# messages when these are equal.
msgids() { msgcat --no-wrap --sort-output "$1" | sed -n 's/^msgid //p' | sort; }

check() {
    local status=0 po
    mapfile -t sources < <(all_sources)
    extract "$work/all.pot" "${sources[@]}"
    if ! diff <(msgids "$template") <(msgids "$work/all.pot") >"$work/stale"; then
        echo "$template is stale (< in it, > in the sources); run scripts/catalogue.sh update:" >&2
        cat "$work/stale" >&2
        status=1
    fi
    mapfile -t sources < <(film_sources)
    extract "$work/film.pot" "${sources[@]}"
    for po in locale/*.po; do
        # Every message the default film draws, translated and not fuzzy.
        if ! msgcmp "$po" "$work/film.pot" 2>"$work/missing"; then
            echo "$po lacks translations the default film draws:" >&2
            grep -v 'warning: this message is not used' "$work/missing" >&2
            status=1
        fi
        # No fuzzy entry anywhere: the build leaves it out, so the page and the chapters of the
        # other films show its English (9 messages of beyond-3d's kinds had a near message's
        # text, "PCIe time per step" as "Compute per step", marked fuzzy, in every language).
        if msgattrib --only-fuzzy --no-obsolete --no-wrap "$po" | grep '^msgid "[^"]' >"$work/fuzzy"; then
            echo "$po has fuzzy translations (shown as English until checked and unmarked):" >&2
            cat "$work/fuzzy" >&2
            status=1
        fi
        # Nothing the sources no longer use, obsolete (#~) entries included.
        if ! msgcmp --use-untranslated --use-fuzzy "$work/all.pot" "$po" 2>"$work/unused" ||
            grep -q '^#~' "$po"; then
            echo "$po keeps messages the sources no longer use:" >&2
            grep -v 'warning: this message is not used' "$work/unused" >&2
            grep '^#~ msgid' "$po" >&2 || true
            status=1
        fi
    done
    return $status
}

update() {
    local po
    mapfile -t sources < <(all_sources)
    extract "$template" "${sources[@]}"
    for po in locale/*.po; do
        # No fuzzy matching: a new message arrives untranslated, never with a near one's text.
        msgmerge --quiet --update --backup=none --no-wrap --no-fuzzy-matching --add-location=file \
            "$po" "$template"
        msgattrib --no-wrap --no-obsolete -o "$po" "$po"
    done
}

case "${1:-}" in
    update) update ;;
    check) check ;;
    new)
        [ -n "${2:-}" ] || { echo "usage: scripts/catalogue.sh new LANG" >&2; exit 2; }
        msginit --no-translator --no-wrap --locale="$2" -i "$template" -o "locale/$2.po"
        ;;
    *)
        echo "usage: scripts/catalogue.sh update|check|new LANG" >&2
        exit 2
        ;;
esac
