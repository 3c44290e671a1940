#!/usr/bin/env bash
# Position notation on the command line: show --notation writes a record's position as a
# player sees it, show --position draws it back the same, analyse prints a bot's choice
# (and mcts candidates) from it, and bad input gives one-line errors.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"
data="$2/tests/data/show"

# same_diagram ARGS...: show ARGS --no-list and show --position (its --notation text) agree.
same_diagram() {
    local text
    if ! text=$("$skyline" show "$@" --notation 2>"$tmp/err"); then
        fail "show $* --notation: $(cat "$tmp/err")"
        return
    fi
    "$skyline" show "$@" --no-list >"$tmp/a" 2>&1
    if "$skyline" show --position "$text" --no-list >"$tmp/b" 2>"$tmp/err" &&
        diff -u "$tmp/a" "$tmp/b" >"$tmp/diff"; then
        ok
    else
        fail "show $* and show --position '$text' differ: $(cat "$tmp/err")"
        head -10 "$tmp/diff" >&2
    fi
}
same_diagram "$data/towerup-3p.jsonl" --ply 40 --as 1
same_diagram "$data/uptown-3p.jsonl" --ply 20 --as 0
same_diagram "$data/uptown-2p.jsonl" --ply 30 --as 0
same_diagram "$data/connect4.jsonl" --ply 9

# A view that does not see the mover's rack gives no legal move count (it would be a guess).
hid=$("$skyline" show "$data/uptown-2p.jsonl" --ply 30 --as 1 --notation)
[ "$("$skyline" show --position "$hid" | tail -1)" = "P1 to move" ] && ok ||
    fail "show --position of a view without the mover's rack counts moves"

# analyse: the choice is a legal move; mcts lists candidates whose visits add up to its
# iterations; the same seed gives the same output.
up=$("$skyline" show "$data/uptown-3p.jsonl" --ply 20 --as 0 --notation)
if "$skyline" analyse --position "$up" --bot mcts:iters=300 --top 0 >"$tmp/out" 2>"$tmp/err"; then
    ok
    grep -q '^choice: ' "$tmp/out" && ok || fail "analyse: no choice line"
    sum=$(awk '/^candidates/ {on=1; next} on && $2 ~ /^[0-9]+$/ {s += $2} END {print s}' "$tmp/out")
    [ "$sum" = 300 ] && ok || fail "analyse: candidate visits add up to '$sum', not 300"
    "$skyline" analyse --position "$up" --bot mcts:iters=300 --top 0 >"$tmp/again"
    cmp -s "$tmp/out" "$tmp/again" && ok || fail "analyse: not deterministic"
else
    fail "analyse mcts: $(cat "$tmp/err")"
fi
c4="connect4 ......./......./......./......./......./...1... 0"
"$skyline" analyse --position "$c4" --bot heuristic >"$tmp/out" 2>"$tmp/err" ||
    "$skyline" analyse --position "$c4" --bot random >"$tmp/out" 2>"$tmp/err"
grep -qE '^choice: [1-7]' "$tmp/out" && ok || fail "analyse connect4: $(cat "$tmp/out" "$tmp/err")"
tu=$("$skyline" show "$data/towerup-3p.jsonl" --ply 40 --notation)
"$skyline" analyse --position "$tu" --bot greedy --as 2 >"$tmp/out" 2>"$tmp/err" &&
    grep -q '^choice: ' "$tmp/out" && ok || fail "analyse towerup: $(cat "$tmp/err")"

# A board file is given alongside the text, which names the board's own name.
sed 's/^board duo/board mine/' "$2/core/towerup/boards/duo.board" >"$tmp/mine.board"
mine=$("$skyline" show --game towerup --players 2 --board "$tmp/mine.board" --notation)
case "$mine" in "towerup mine 2 "*) ok ;; *) fail "show --notation on a board file: $mine" ;; esac
"$skyline" analyse --position "$mine" --bot greedy --board "$tmp/mine.board" >"$tmp/out" 2>"$tmp/err" &&
    grep -q '^choice: P' "$tmp/out" && ok || fail "analyse on a board file: $(cat "$tmp/err")"
expect_error "board file not given" "board 'mine': not a built-in board" \
    "$skyline" analyse --position "$mine" --bot greedy
expect_error "another board file" "board 'mine': not the board given" \
    "$skyline" analyse --position "$mine" --bot greedy --board duo

# Bad input: one line each.
expect_error "analyse without position" "needs --position" "$skyline" analyse --bot random
expect_error "analyse without bot" "needs --bot" "$skyline" analyse --position "$c4"
expect_error "analyse bad position" "^skyline: --position: grid" \
    "$skyline" analyse --position "connect4 ......./......./......./......./......./..1.1.. 0" --bot random
expect_error "analyse bad game word" "not a game" "$skyline" analyse --position "go 19x19" --bot random
expect_error "analyse bad bot" "^skyline: --bot" "$skyline" analyse --position "$c4" --bot nosuchbot
expect_error "analyse --as not to move" "seat 0 \\(P1\\) is to move" \
    "$skyline" analyse --position "$c4" --bot random --as 1
expect_error "analyse wrong --game" "is a connect4 position" \
    "$skyline" analyse --position "$c4" --bot random --game uptown
expect_error "analyse hidden mover" "leaves what seat 0 \\(P1\\), to move, sees to chance" \
    "$skyline" analyse --bot random --position "$("$skyline" show "$data/uptown-2p.jsonl" --ply 30 --as 1 --notation)"
expect_error "analyse finished game" "game is over" \
    "$skyline" analyse --bot random --position "connect4 ......./......./1....../1....../1....../1000... 0"
expect_error "analyse unknown option" "unknown option" "$skyline" analyse --position "$c4" --bot random --fast
expect_error "show bad position" "^skyline: --position: position" "$skyline" show --position "connect4"
expect_error "show --as not the view" "seen by seat 0 \\(P1\\)" \
    "$skyline" show --position "$up" --as 1
expect_error "show --position with a file" "alone" \
    "$skyline" show "$data/connect4.jsonl" --position "$c4"
expect_error "show towerup unknown board" "board 'mars': " \
    "$skyline" show --position "${tu/standard/mars}"

finish test_position_cli.sh
