#!/usr/bin/env bash
# mcts:net=FILE from the command line (docs/NETS.md, "Search with a network"): a Connect
# Four net made by bench plays in play and tournament, analyse shows its priors and value,
# and a net for another game or player count is refused with one line before any game.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" bench --nets --quick --game connect4 --save-nets "$tmp" >/dev/null
"$bin" bench --nets --quick --game towerup --save-nets "$tmp" >/dev/null
net=$tmp/connect4-2p.net
[ -s "$net" ] && [ -s "$tmp/towerup-2p.net" ]

# The same seed plays the same game (the records hold the moves and the searches' figures).
for r in a b; do
    "$bin" play --game connect4 --bot "mcts:net=$net,iters=200" --bot mcts:iters=200 --seed 3 \
        --record "$tmp/$r.jsonl" --record-search >"$tmp/$r.out"
done
grep -q "mcts:net=$net,iters=200" "$tmp/a.out"
cmp <(sed 's/"ms":[0-9]*//g; s/"seconds":[0-9.e-]*//g' "$tmp/a.jsonl") \
    <(sed 's/"ms":[0-9]*//g; s/"seconds":[0-9.e-]*//g' "$tmp/b.jsonl")
"$bin" tournament --game connect4 --bot "mcts:net=$net,iters=100,threads=2" --bot random \
    --games 4 --out "$tmp/t.jsonl" --quiet >"$tmp/summary"
[ "$(wc -l <"$tmp/t.jsonl")" -eq 4 ]
! grep -q forfeit "$tmp/t.jsonl"

an=$("$bin" analyse --position 'connect4 ......./......./......./......./...1.../...00.. 1' \
    --bot "mcts:net=$net,iters=300")
grep -q '^net value: P1 0\.[0-9]* P2 0\.[0-9]*$' <<<"$an"
grep -q '^  move  *visits  *mean  *prior$' <<<"$an"
[ "$(grep -c '^  [1-7]  *[0-9]*  *[01]\.[0-9]*  *0\.[0-9]*$' <<<"$an")" -eq 7 ]

# Refused, one line each, before any game or file.
fails() {
    if "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "accepted: $*" >&2
        exit 1
    fi
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; exit 1; }
}
fails "$bin" play --game towerup --players 3 --bot "mcts:net=$tmp/towerup-2p.net" --bot random \
    --bot random
grep -q "the net is for 2 players, not 3" "$tmp/err"
fails "$bin" tournament --game towerup --players 3 --bot "mcts:net=$tmp/towerup-2p.net" \
    --bot random --games 3 --out "$tmp/t3.jsonl"
grep -q "the net is for 2 players, not 3" "$tmp/err"
[ ! -e "$tmp/t3.jsonl" ]
fails "$bin" play --game towerup --players 2 --bot "mcts:net=$net" --bot random
grep -q "__metadata__.game: the net is for connect4, not towerup" "$tmp/err"
fails "$bin" play --game connect4 --bot "mcts:net=$tmp/missing.net" --bot random
grep -q "missing.net: cannot open" "$tmp/err"
head -c 100 "$net" >"$tmp/short.net"
fails "$bin" play --game connect4 --bot "mcts:net=$tmp/short.net" --bot random
grep -q "short.net: " "$tmp/err"
fails "$bin" play --game connect4 --bot "mcts:net=$net,cpuct=-1" --bot random
grep -q "cpuct" "$tmp/err"
echo "test_mcts_net_cli: ok"
