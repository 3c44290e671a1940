#!/usr/bin/env bash
# Modules include only their own headers and the public headers of the layers below
# (scripts/check_includes.sh, cmake/internal_headers.txt): the tree passes; a module that
# includes another's internal header, a layer above, (the harness) a bot kind's header, or
# (the search's iteration) a search idea's header is caught; the install rules install no internal header.
set -u
skyline=$1
src=$2
source "$src/tests/cli_lib.sh"
check="$src/scripts/check_includes.sh"

bash "$check" "$src" 2>"$tmp/err" && ok || fail "the tree: $(cat "$tmp/err")"

# A scratch tree with one violation at a time.
mk() { mkdir -p "$tmp/t/$(dirname "$1")" && printf '#include "%s"\n' "$2" >"$tmp/t/$1"; }
caught() { # DESCRIPTION FILE HEADER PATTERN
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/cmake" && cp "$src/cmake/internal_headers.txt" "$tmp/t/cmake/"
    mk search/internal.h core/game.h
    mk bots/mcts_bot.h bots/bot.h
    mk "$2" "$3"
    if bash "$check" "$tmp/t" 2>"$tmp/err"; then
        fail "$1: not caught"
    else
        grep -q -- "$4" "$tmp/err" && ok || fail "$1: $(cat "$tmp/err")"
    fi
}
caught "search internals from bots" bots/x.c search/internal.h "internal header of search/"
caught "search internals from the cli" cli/x.c search/policy.h "internal header of search/"
caught "tower up internals from the bench" bench/x.c core/towerup/internal.h "internal header of core/"
caught "a layer above" core/x.c bots/bot.h "core/ may not use bots/"
caught "the rules using the reference rules" core/towerup/x.c ref/towerup_ref.h "core/ may not use ref/"
caught "the rules drawing pictures" core/x.c viewer/picture.h "core/ may not use viewer/"
caught "the harness naming a bot kind" arena/x.c bots/mcts_bot.h "bot kind's header"
caught "the iteration naming RAVE" search/worker.c search/amaf.h "search idea's header"
caught "the iteration naming the root noise" search/worker.c search/noise.h "search idea's header"
caught "the multiple trees naming best-reply search" search/multi.c search/brs.h "search idea's header"
# White-box tests may include the internals named for them.
rm -rf "$tmp/t" && mkdir -p "$tmp/t/cmake" && cp "$src/cmake/internal_headers.txt" "$tmp/t/cmake/"
mk tests/x.c search/internal.h
mk bench/x.c search/mcts_bench.h
bash "$check" "$tmp/t" 2>"$tmp/err" && ok || fail "allowed internals refused: $(cat "$tmp/err")"

# The install rules: public headers only.
build=$(dirname "$skyline")
if cmake --install "$build" --prefix "$tmp/prefix" >/dev/null 2>"$tmp/err"; then
    ok
    while read -r header _; do
        case $header in '#'* | '') continue ;; esac
        [ ! -e "$tmp/prefix/include/skyline/$header" ] && ok || fail "installed: $header"
    done <"$src/cmake/internal_headers.txt"
    for h in core/game.h search/mcts.h bots/bot.h arena/tournament.h; do
        [ -e "$tmp/prefix/include/skyline/$h" ] && ok || fail "not installed: $h"
    done
    # Every installed header's includes are installed too (no public header needs an
    # internal one).
    (cd "$tmp/prefix/include/skyline" && find . -name '*.h') | while read -r h; do
        sed -n 's/^#include "\([^"]*\)".*/\1/p' "$tmp/prefix/include/skyline/$h" | while read -r inc; do
            [ -e "$tmp/prefix/include/skyline/$inc" ] || [ -e "$tmp/prefix/include/skyline/$(dirname "$h")/$inc" ] ||
                echo "$h includes $inc, not installed"
        done
    done >"$tmp/missing"
    [ ! -s "$tmp/missing" ] && ok || fail "$(cat "$tmp/missing")"
else
    fail "install: $(cat "$tmp/err")"
fi

finish test_includes
