#!/usr/bin/env bash
# Bots through the command line: games between every kind of bot replay ok from their
# records; bad specs and bad parameter files give one stderr line naming the culprit
# (the key, the value, FILE:LINE), never a crash.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"



# Every kind of bot at one table, both games; the records replay with the engine's rules.
for game in towerup uptown; do
    rec="$tmp/$game.jsonl"
    if "$skyline" play --game "$game" --players 4 --seed 3 --games 2 --record "$rec" \
        --bot greedy --bot heuristic:temp=0.5 --bot mcts:iters=30,cutoff=2,prior=heuristic \
        --bot mcts:iters=20,rollout=heuristic,eps=0.3,sample=4 --quiet >/dev/null \
        2>"$tmp/err"; then ok; else fail "play $game: $(cat "$tmp/err")"; fi
    if "$skyline" replay "$rec" >/dev/null 2>"$tmp/err"; then ok
    else fail "replay $game: $(cat "$tmp/err")"; fi
    if grep -q 'mcts:iters=30,cutoff=2,prior=heuristic' "$rec"; then ok
    else fail "$game: the record's seats do not hold the specs"; fi
done

play() { "$skyline" play --game uptown --players 2 --quiet "$@"; }
expect_error "unknown bot" "unknown bot 'clever'" play --bot clever
expect_error "unknown key" "unknown key 'depth'" play --bot greedy:depth=2
expect_error "unknown weight" "unknown key 'w_nope'" play --bot heuristic:w_nope=1
expect_error "bad temp" "bad value 'hot' for key 'temp'" play --bot heuristic:temp=hot
expect_error "bad iters" "bad value '0' for key 'iters'" play --bot mcts:iters=0
expect_error "bad choice" "bad value 'both' for key 'parallel'" play --bot mcts:parallel=both
expect_error "bad sync" "bad value '65' for key 'sync'" play --bot mcts:sync=65
expect_error "useless eps" "'eps' needs rollout=heuristic" play --bot mcts:eps=0.5
expect_error "missing params file" "$tmp/none.params" play --bot greedy:params=$tmp/none.params

printf '# weights\n\nno_such_weight 1\n' >"$tmp/bad.params"
expect_error "params unknown name" "$tmp/bad.params:3: unknown parameter 'no_such_weight'" \
    play --bot heuristic:params=$tmp/bad.params
printf 'join 1.0\njoin 2\n' >"$tmp/twice.params"
expect_error "params twice" "$tmp/twice.params:2: .*'join' given twice" \
    play --bot mcts:prior=heuristic,params=$tmp/twice.params

# The mcts seats' search totals: an iteration budget is run exactly at every search with a
# choice, and later searches of a game start from the kept subtree; other bots get no line.
out=$(play --bot mcts:iters=300 --bot random --games 2 --seed 5)
totals=$(echo "$out" | sed -n '/^player searches/,$p')
read -r -a f <<<"$(echo "$totals" | sed -n 2p)"
if [ "$(echo "$totals" | wc -l)" = 2 ] && [ "${f[0]}" = P1 ] && [ "${f[1]}" -gt 10 ] &&
    [ "${f[2]}" = 300.0 ] && [ "${f[5]}" -gt 0 ] && [ "${f[5]}" -le $((f[1] - 2)) ]
then ok; else fail "search totals: $out"; fi
out=$(play --bot mcts:iters=300,reuse=0 --games 1 --seed 5)
totals=$(echo "$out" | sed -n '/^player searches/,$p')
[ "$(echo "$totals" | awk 'NR > 1 { print $6 }' | sort -u)" = 0 ] &&
    [ "$(echo "$totals" | wc -l)" = 3 ] && ok || fail "reuse=0: $out"
out=$(play --bot random --games 1)
echo "$out" | grep -q "searches" && fail "search totals without mcts: $out" || ok

# The summary gives an interval only where there is one: not from one game, not for a seat
# with the same result in every game; the spec comes last, whole.
out=$(play --games 1 --seed 2)
echo "$out" | grep -qE "[0-9] \+- " && fail "an interval from one game: $out" || ok
echo "$out" | grep -q "(a result without +- has no interval: one game)" && ok || fail "one-game note: $out"
out=$("$skyline" play --game towerup --players 2 --bot greedy --bot random --games 4 --seed 1 --quiet)
echo "$out" | grep -qE '^P2 +0\.000 +0  random$' && ok || fail "zero variance: $out"
echo "$out" | grep -q "every game gave that player the same result" && ok || fail "zero-variance note: $out"
out=$(play --bot heuristic --games 6 --seed 1)
[ "$(echo "$out" | grep -cE '^P[12] +0\.[0-9]{3} \+- 0\.[0-9]{3} +[0-9]+  heuristic$')" = 2 ] && ok ||
    fail "intervals: $out"
echo "$out" | grep -q "no interval" && fail "a note without need: $out" || ok
long=mcts:iters=20,prior=heuristic,cutoff=8,fpu=0.3,c=0.45
out=$(play --bot "$long" --bot random --games 1 --seed 2)
echo "$out" | grep -qE "^P1 .*  $long$" && ok || fail "long spec cut: $out"

finish test_bots_cli
