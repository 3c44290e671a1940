# skyline engine, the bot side of the Skyline Bot Protocol (docs/PROTOCOL.md): a scripted
# session, a move list that does not match the position, both halves of the pipe in one
# tournament (ext: around skyline engine --bot heuristic against the built-in heuristic is
# level), and the Python example bot against skyline engine and built-in bots, and doing
# what its docstring says.
# Usage: bash test_engine.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

# A session by hand: the handshake, a move from go's list, unknown messages ignored.
printf 'sbp 1\nnewgame connect4 2 1\nposition connect4 ......./......./......./......./...1.../...00.. 1\ngo 0 1 2 3 4 5 6 7\nfoo bar\nplayed 1 4\ngameover 1 0\nquit\n' |
    "$skyline" engine --bot random --seed 3 >"$tmp/s" 2>"$tmp/err" && ok || fail "session"
sed -n 3p "$tmp/s" | grep -qx sbpok && ok || fail "no sbpok: $(cat "$tmp/s")"
sed -n 4p "$tmp/s" | grep -qxE 'move [1-7]' && ok || fail "no move: $(cat "$tmp/s")"
[ "$(wc -l <"$tmp/s")" -eq 4 ] && ok || fail "answers to messages that need none"
[ ! -s "$tmp/err" ] && ok || fail "stderr: $(cat "$tmp/err")"

# go's list is not the position's legal moves: a warning, an info line, go's first move.
printf 'sbp 1\nnewgame connect4 2 1\nposition connect4 ......./......./......./......./...1.../...00.. 1\ngo 0 2 3\n' |
    "$skyline" engine --bot random >"$tmp/s" 2>"$tmp/err"
grep -qx "info error: go's moves are not the position's legal moves" "$tmp/s" && ok ||
    fail "mismatch info: $(cat "$tmp/s")"
tail -1 "$tmp/s" | grep -qx 'move 2' && ok || fail "mismatch move: $(cat "$tmp/s")"
grep -q "not the position's legal moves" "$tmp/err" && ok || fail "mismatch warning"
# A list of the right length with one move twice and another missing is no match either
# (the bot could pick the missing one, which go does not allow).
printf 'sbp 1\nnewgame connect4 2 1\nposition connect4 ......./......./......./......./...1.../...00.. 1\ngo 0 1 1 2 3 4 5 6\n' |
    "$skyline" engine --bot random >"$tmp/s" 2>/dev/null
grep -qx "info error: go's moves are not the position's legal moves" "$tmp/s" && ok ||
    fail "a move listed twice: $(cat "$tmp/s")"
tail -1 "$tmp/s" | grep -qx 'move 1' && ok || fail "a move listed twice: $(cat "$tmp/s")"
# A position another seat sees: refused the same way.
printf 'sbp 1\nnewgame connect4 2 0\nposition connect4 ......./......./......./......./...1.../...00.. 1\ngo 0 1 2 3 4 5 6 7\n' |
    "$skyline" engine --bot random >"$tmp/s" 2>/dev/null
grep -qx "info error: the position is not this seat's turn" "$tmp/s" && ok ||
    fail "other seat's turn: $(cat "$tmp/s")"
# End of input ends the session cleanly.
printf 'sbp 1\n' | "$skyline" engine >/dev/null 2>&1 && ok || fail "end of input"

expect_error "bad option" "engine: unknown option '--fast'" "$skyline" engine --fast
expect_error "bad bot" "unknown bot 'nobot'" "$skyline" engine --bot nobot

# Both halves of the pipe: ext: around skyline engine --bot heuristic against the
# built-in heuristic, 400 games of Tower Up, one worker (the same games every run): level
# within twice the 95% half-width that rate gives (that interval treats the seats as
# independent; over engine seeds the mean result varies about twice as much).
printf '#!/bin/sh\nexec "%s" engine --bot heuristic\n' "$skyline" >"$tmp/engine-heuristic"
printf '#!/bin/sh\nexec "%s" engine --bot random\n' "$skyline" >"$tmp/engine-random"
chmod +x "$tmp/engine-heuristic" "$tmp/engine-random"
"$skyline" tournament --game towerup --players 2 --bot "ext:cmd=$tmp/engine-heuristic" \
    --bot heuristic --games 400 --workers 1 --out "$tmp/level.jsonl" --quiet >"$tmp/out" 2>&1 &&
    ok || fail "level tournament: $(cat "$tmp/out")"
grep -q forfeit "$tmp/level.jsonl" && fail "level tournament: a forfeit" || ok
"$skyline" rate --json "$tmp/level.jsonl" >"$tmp/rate.json" && ok || fail "rate"
python3 - "$tmp/rate.json" <<'PY' && ok || fail "ext heuristic is not level with heuristic: $(cat "$tmp/out")"
import json, sys
bots = {b["spec"]: b for b in json.load(open(sys.argv[1]))["bots"]}
ext = [b for s, b in bots.items() if s.startswith("ext:")][0]
assert abs(ext["result"] - 0.5) <= 2 * ext["result_ci95"], ext
PY

# The Python example bot against skyline engine and built-in bots, in every game.
for game in "towerup 3" "uptown 3" "connect4 2"; do
    set -- $game
    "$skyline" tournament --game "$1" --players "$2" --bot "ext:cmd=$src/examples/random_bot.py" \
        --bot "ext:cmd=$tmp/engine-random" --bot random --bot mcts:iters=50 --games 12 --workers 2 \
        --out "$tmp/ex-$1.jsonl" --quiet >"$tmp/out" 2>&1 && ok || fail "example $1: $(cat "$tmp/out")"
    grep -q forfeit "$tmp/ex-$1.jsonl" && fail "example $1: a forfeit" || ok
    "$skyline" replay "$tmp/ex-$1.jsonl" >/dev/null 2>&1 && ok || fail "example $1: replay"
done
[ "$(wc -l <"$src/examples/random_bot.py")" -lt 100 ] && ok || fail "example over 100 lines"

# What the example's docstring says: every go answered with one of its moves, drawn
# uniformly (each of three moves over 300 go lines, whatever position says), an info line
# naming game and seat; --seed N gives the same choices each run; other arguments refused.
bot=$src/examples/random_bot.py
{
    echo sbp; echo "newgame connect4 2 1"
    for i in $(seq 300); do echo "position c4 nonsense that rules out 1"; echo "go 0 1 2 3"; done
    echo quit
} >"$tmp/ex.in"
python3 "$bot" --seed 7 <"$tmp/ex.in" >"$tmp/ex1.out" 2>&1
python3 "$bot" --seed 7 <"$tmp/ex.in" >"$tmp/ex2.out" 2>&1
cmp -s "$tmp/ex1.out" "$tmp/ex2.out" && ok || fail "example: --seed 7 twice differs"
for m in 1 2 3; do
    [ "$(grep -c "^move $m$" "$tmp/ex1.out")" -ge 60 ] && ok || fail "example: move $m seldom chosen"
done
[ "$(grep -c '^move [123]$' "$tmp/ex1.out")" -eq 300 ] && ok || fail "example: not 300 moves"
grep -q "^info picked 1 of 3 moves in connect4 as seat 1$" "$tmp/ex1.out" && ok \
    || fail "example: info line: $(head -5 "$tmp/ex1.out")"
example_args() { python3 "$bot" "$@" </dev/null; }
expect_error "example with a bad argument" "arguments are none or --seed N" example_args --sed 7
expect_error "example with a bad seed" "arguments are none or --seed N" example_args --seed x

finish test_engine
