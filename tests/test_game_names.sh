#!/usr/bin/env bash
# The "one folder" check (scripts/check_game_names.py): the tree passes it, and a game name
# put outside its folder is caught, for a test-only game anywhere (even a comment) and for a
# built-in game in a module's code (not in its comments).
# Usage: tests/test_game_names.sh SKYLINE SOURCE_DIR
src=$2
. "$src/tests/cli_lib.sh"
check="$src/scripts/check_game_names.py"
python3 "$check" "$src" 2>"$tmp/err" && ok || fail "the tree: $(head -3 "$tmp/err")"
# A scratch tree (no repository: every file is looked at) with one mention at a time.
scratch() {
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/core/dice" "$tmp/t/tests/games/coin" "$tmp/t/bots"
    echo 'int dice_x;' >"$tmp/t/core/dice/dice.c"
    echo 'int coin_y;' >"$tmp/t/tests/games/coin/coin.c"
    echo '#define TEST_GAME_LIST(X) X(coin_api)' >"$tmp/t/tests/games/registry.c"
    echo 'X(heuristic_dice)' >"$tmp/t/bots/heuristic.c"
}
scratch
python3 "$check" "$tmp/t" 2>"$tmp/err" && ok || fail "clean scratch tree: $(cat "$tmp/err")"
caught() { # DESCRIPTION FILE TEXT PATTERN
    scratch
    mkdir -p "$tmp/t/$(dirname "$2")" && printf '%s\n' "$3" >>"$tmp/t/$2"
    if python3 "$check" "$tmp/t" 2>"$tmp/err"; then
        fail "$1: not caught"
    else
        grep -q -- "$4" "$tmp/err" && ok || fail "$1: $(cat "$tmp/err")"
    fi
}
caught "a test-only game in a test" tests/test_x.c 'run("coin");' "test_x.c:1: names the game 'coin'"
caught "a test-only game in a doc" docs/X.md 'Coin is a game.' "X.md:1: names the game 'coin'"
caught "a built-in game's name deciding" bots/x.c 'if (!strcmp(name, "dice")) {}' "bots/x.c:1: names the game 'dice'"
caught "a built-in game's symbol" search/x.c 'extern int dice_x;' "names the game 'dice'"
# A built-in game in a comment of the code, or in tests, is allowed.
scratch
printf '/* e.g. dice */\n#include "core/dice/dice.h"\n' >"$tmp/t/bots/y.c"
printf 'run dice\n' >"$tmp/t/tests/test_dice.sh"
python3 "$check" "$tmp/t" 2>"$tmp/err" && ok || fail "comment and test refused: $(cat "$tmp/err")"
finish test_game_names
