#!/usr/bin/env bash
# Boards whose set-up could run out of sites are refused with one line, never played
# into a position without moves (the random bot used to die of SIGFPE on this one);
# small boards that pass the check play to the end with every bot.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

board_head() {
    printf 'board %s\narea 0 a grey\narea 1 b grey\narea 2 c\narea 3 d\narea 4 e\n' "$1"
}
# Three sites in a line, five areas: K on both ends leaves no site for a third K.
{ board_head tiny; printf 'site 0 0 0 0\nsite 1 1 0 1\nsite 2 2 0 2\n'
  printf 'street 0 1\nstreet 1 2\n'; } >"$tmp/tiny.board"
# Seven sites in a line: takes 3 starting floors whatever happens, not 4.
{ board_head path7
  for i in 0 1 2 3 4 5 6; do echo "site $i $i 0 $((i % 5))"; done
  for i in 0 1 2 3 4 5; do echo "street $i $((i + 1))"; done; } >"$tmp/path7.board"

for bot in random heuristic greedy mcts:iters=20; do
    expect_error "tiny board, $bot" "board 'tiny': cannot take 3 starting floors.*sites 0 and 2" \
        "$skyline" play --game towerup --players 2 --board "$tmp/tiny.board" --bot "$bot" \
        --seed 2
done
expect_error "tiny board, random set-up" "cannot take 3 starting floors" \
    "$skyline" play --game towerup --players 3 --board "$tmp/tiny.board" --setup random
expect_error "tiny board, perft" "cannot take 3 starting floors" \
    "$skyline" perft --game towerup --players 2 --board "$tmp/tiny.board" --divide
expect_error "tiny board, 4 floors" "has 3 sites, fewer than the 4 starting floors" \
    "$skyline" perft --game towerup --players 2 --board "$tmp/tiny.board" --start-floors 4
expect_error "path, 4 floors" "board 'path7': cannot take 4 starting floors" \
    "$skyline" play --game towerup --players 2 --board "$tmp/path7.board" --start-floors 4

seats=(--bot random --bot heuristic --bot greedy --bot mcts:iters=20)
for players in 2 3 4; do
    rec="$tmp/path7-$players.jsonl"
    if "$skyline" play --game towerup --players "$players" --board "$tmp/path7.board" \
        --games 3 --seed 2 --record "$rec" "${seats[@]:0:$((2 * players))}" --quiet \
        >/dev/null 2>"$tmp/err"; then ok
    else fail "path7, $players players: $(cat "$tmp/err")"; fi
    if "$skyline" replay "$rec" >/dev/null 2>"$tmp/err"; then ok
    else fail "path7 replay, $players players: $(cat "$tmp/err")"; fi
done
# A record moved onto the tiny board is refused too (replay builds the game the same way).
sed "s#$tmp/path7.board#$tmp/tiny.board#" "$tmp/path7-2.jsonl" >"$tmp/tiny.jsonl"
"$skyline" replay "$tmp/tiny.jsonl" >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "cannot take 3 starting floors" "$tmp/out"; then ok
else fail "replay on the tiny board: exit $rc: $(head -2 "$tmp/out")"; fi
if "$skyline" perft --game towerup --players 2 --board "$tmp/path7.board" --depth 4 \
    --divide >"$tmp/out" 2>"$tmp/err"; then ok
else fail "path7 perft: $(cat "$tmp/err")"; fi

finish test_dead_end_cli
