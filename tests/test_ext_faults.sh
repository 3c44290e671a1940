# A fault of an ext: bot asked for choices out of games is seen (docs/PROTOCOL.md):
# quality counts it as a move unlike the reference's, says so on stderr and starts a fresh
# program for the next choice; analyse exits non-zero with the reason; an engine whose bot
# faults says why and exits 2; a human seat's hint says there is none, and why. (Python's
# Bot.choose: python/tests/test_harness.py.)
# Usage: bash test_ext_faults.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

# garbage1 answers garbage to every go; garbage2 to every second go of one process.
for k in 1 2; do
    printf '#!/bin/sh\nexec python3 "%s/tests/sbp_fake.py" garbage %s "%s"\n' "$src" "$k" "$tmp" \
        >"$tmp/garbage$k"
    chmod +x "$tmp/garbage$k"
done
empty="connect4 ......./......./......./......./......./....... 1"

# analyse: exit 2, the reason on stderr, no choice printed.
expect_error "analyse with a faulting bot" "^skyline: --bot: bot 'ext:cmd=$tmp/garbage1' forfeits: garbage \(answered 'hello there' to go\)$" \
    "$skyline" analyse --position "$empty" --bot "ext:cmd=$tmp/garbage1"
grep -q "choice" "$tmp/out" && fail "analyse printed a choice: $(cat "$tmp/out")" || ok

# quality: every choice of garbage1 is a forfeit (agreement 0, a line each); garbage2
# forfeits every second choice, so its program is replaced after each forfeit.
quality() { # quality SPEC: runs quality with random and SPEC; $tmp/q stdout, $tmp/qe stderr
    "$skyline" quality --game connect4 --players 2 --from random --ref mcts:iters=50 \
        --bot random --bot "$1" --games 2 --every 4 --repeats 2 --quiet >"$tmp/q" 2>"$tmp/qe"
}
quality "ext:cmd=$tmp/garbage1" && ok || fail "quality garbage1: $(cat "$tmp/qe")"
positions=$(sed -n 's/^quality: connect4, 2 players, \([0-9]*\) positions.*/\1/p' "$tmp/q")
[ -n "$positions" ] && [ "$positions" -gt 2 ] && ok || fail "quality: no positions: $(cat "$tmp/q")"
choices=$((positions * 2))
n=$(grep -c "^quality: bot 'ext:cmd=$tmp/garbage1' forfeits: garbage (answered 'hello there' to go) at position [0-9]*; counted as a move unlike the reference's$" "$tmp/qe")
[ "$n" -eq "$choices" ] && ok || fail "quality garbage1: $n forfeits reported of $choices choices: $(head -3 "$tmp/qe")"
grep -qE "^  2  0\.000 .*ext:cmd=$tmp/garbage1$" "$tmp/q" && ok ||
    fail "quality garbage1: agreement not 0: $(cat "$tmp/q")"
quality "ext:cmd=$tmp/garbage2" && ok || fail "quality garbage2: $(cat "$tmp/qe")"
n=$(grep -c "forfeits: garbage" "$tmp/qe")
[ "$n" -eq $((choices / 2)) ] && ok || fail "quality garbage2: $n forfeits of $choices choices (not restarted?)"

# quality: a --from bot that faults stops the run (its games give no positions).
expect_error "quality --from faulting" "^skyline: --from: bot 'ext:cmd=$tmp/garbage1' forfeits: garbage .* in game 0$" \
    "$skyline" quality --game connect4 --players 2 --from "ext:cmd=$tmp/garbage1" \
    --ref mcts:iters=50 --bot random --games 1 --quiet

# engine: its bot's forfeit is its own.
printf 'sbp 1\nnewgame connect4 2 1\nposition %s\ngo 0 1 2 3 4 5 6 7\n' "$empty" |
    "$skyline" engine --bot "ext:cmd=$tmp/garbage1" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && ok || fail "engine with a faulting bot: exit $rc: $(cat "$tmp/err")"
grep -q "^info error: bot 'ext:cmd=$tmp/garbage1' forfeits: garbage" "$tmp/out" && ok ||
    fail "engine: no info error: $(cat "$tmp/out")"
grep -q "^move" "$tmp/out" && fail "engine answered a move: $(cat "$tmp/out")" || ok

# A human seat's hint from a faulting bot: no hint, and the reason.
printf 'hint\nquit\n' | "$skyline" play --game connect4 --players 2 --first-player 0 --bot human \
    --bot random --hint "ext:cmd=$tmp/garbage1" >"$tmp/out" 2>"$tmp/err"
grep -q "no hint: bot 'ext:cmd=$tmp/garbage1' forfeits: garbage" "$tmp/out" && ok ||
    fail "hint from a faulting bot: $(grep hint "$tmp/out")"

finish test_ext_faults
