#!/usr/bin/env bash
# The pimc bot through the command line: whole games of Tower Up and Uptown at 2 and 3
# players with two search threads, whose records replay with the engine's rules; a
# tournament plays it without --allow-cheat (it reads hidden parts only through
# determinize); bad keys give one stderr line naming them.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

for game in towerup uptown; do
    for players in 2 3; do
        rec="$tmp/$game$players.jsonl"
        bots=(--bot pimc:dets=3,iters=90,threads=2 --bot heuristic)
        [ "$players" = 3 ] && bots+=(--bot pimc:dets=2,iters=60,threads=2,vote=plurality)
        if "$skyline" play --game "$game" --players "$players" --seed 4 --games 1 \
            --record "$rec" "${bots[@]}" --quiet >"$tmp/out" 2>"$tmp/err"; then ok
        else fail "play $game ${players}p: $(cat "$tmp/err")"; fi
        if "$skyline" replay "$rec" >/dev/null 2>"$tmp/err"; then ok
        else fail "replay $game ${players}p: $(cat "$tmp/err")"; fi
        # The search totals count a search per determinization.
        if grep -qE '^P1 +[0-9]+ +30\.0 ' "$tmp/out"; then ok
        else fail "$game ${players}p search totals: $(cat "$tmp/out")"; fi
    done
done

# A fair player: tournaments take it without --allow-cheat.
if "$skyline" tournament --game uptown --players 2 --bot pimc:dets=2,iters=40,threads=2 \
    --bot random --games 2 --seed 6 --quiet --out "$tmp/t.jsonl" >/dev/null 2>"$tmp/err" &&
    [ "$(wc -l <"$tmp/t.jsonl")" = 2 ]; then ok
else fail "tournament with pimc: $(cat "$tmp/err")"; fi

play() { "$skyline" play --game uptown --players 2 --quiet "$@"; }
expect_error "pimc unknown key" "unknown key 'depth' \(pimc takes" play --bot pimc:depth=2
expect_error "pimc bad dets" "bad value '0' for key 'dets'" play --bot pimc:dets=0
expect_error "pimc bad vote" "bad value 'most' for key 'vote'" play --bot pimc:vote=most
expect_error "pimc cheat" "key 'cheat' is not a pimc key" play --bot pimc:cheat=1
expect_error "pimc budget" "iters=4 is below dets=5" play --bot pimc:dets=5,iters=4
expect_error "pimc mcts key" "bad value '65' for key 'sync'" play --bot pimc:sync=65

finish test_pimc.sh
