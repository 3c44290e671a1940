#!/usr/bin/env bash
# scripts/ladder.sh in its tiny mode: the Markdown tables' shape, a re-run resumes without
# playing, a spec the build refuses is skipped with a note, @N names the shipped net,
# another bot list in the same folder and bad settings are refused with one line; the scaling mode and its table
# (scripts/ladder_tables.py) on tiny runs and on hand-made records of known scores.
# usage: test_ladder.sh SKYLINE SOURCE_DIR
src=$2
. "$src/tests/cli_lib.sh"
S=$1
case $S in /*) ;; *) S=$PWD/$S ;; esac
ladder="$src/scripts/ladder.sh"
export SKYLINE=$S LADDER_TINY=1 LADDER_GAMES=towerup LADDER_DIR=$tmp/l
bots2='random greedy mcts:@B mcts:nosuchkey=1,@B mcts:clock=@C'

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
    local what=$1
    shift
    if "$@"; then ok; else fail "$what"; fi
}

# 1. The tiny ladder: towerup, 2 and 3 players, iters and time.
LADDER_BOTS_2P=$bots2 bash "$ladder" >"$tmp/out1" 2>"$tmp/err1" && ok ||
    fail "tiny ladder: $(tail -3 "$tmp/err1")"
md=$tmp/l/LADDER.md
check "LADDER.md written" [ -s "$md" ]
check "four tournaments" [ "$(grep -c '^### ' "$md")" -eq 4 ]
check "version named" grep -q '^- `skyline --version`: skyline ' "$md"
check "commit named" grep -q '^- source commit of scripts/ladder.sh: ' "$md"
check "seed named" grep -q 'LADDER_SEED=1' "$md"
check "mean anchor named" grep -q 'anchor: the mean of the bots = 0' "$md"
head='| # | bot | Elo | +- 95% | games | mean result (95% CI) | mean rank |'
check "four table headers" [ "$(grep -cxF "$head" "$md")" -eq 4 ]
row='^\| [0-9]+ \| `[^`]+` \| [+-][0-9]+ \| ([0-9]+|\(anchor\)|-) \| [0-9]+ \| [01]\.[0-9]{3}( \+- [0-9.]+)? \| [0-9]+\.[0-9]{2} \|$'
# Rows: 3 bots at 2 players in iters mode, 4 in time mode (the clock bot), 3 and 3.
check "table rows" [ "$(grep -cE "$row" "$md")" -eq 13 ]
check "every table line a header, rule or row" \
    [ "$(grep -c '^|' "$md")" -eq $((13 + 4 * 2)) ]
check "equal iterations section" grep -q '^### towerup, 2 players, equal iterations (20 a move)' "$md"
check "equal time section" grep -q '^### towerup, 3 players, equal time (2 ms a move)' "$md"
check "exact command" grep -qF -- '--bot random --bot greedy --bot mcts:iters=20 --games 6 --seed 1 --out towerup-2p-iters.jsonl --workers 1' "$md"
check "time mode: one worker, the clock bot" \
    grep -qF -- '--bot mcts:time=2 --bot mcts:clock=40 --games 12 --seed 1 --out towerup-2p-time.jsonl --workers 1' "$md"
check "clock bot not in iters mode" [ "$(grep -c 'mcts:clock' "$tmp/l/towerup-2p-iters.bots")" -eq 0 ]
check "6 games" [ "$(wc -l <"$tmp/l/towerup-2p-iters.jsonl")" -eq 6 ]
check "3 games at 3 players" [ "$(wc -l <"$tmp/l/towerup-3p-iters.jsonl")" -eq 3 ]
# The refused spec: a note on stderr and in the tables, not in any tournament.
check "refused spec noted on stderr" \
    grep -q "skipped 'mcts:nosuchkey=1,iters=20': unknown key 'nosuchkey'" "$tmp/err1"
check "refused spec noted in the tables" \
    grep -qF -- '- skipped, refused by this build: `mcts:nosuchkey=1,time=2`' "$md"
check "refused spec not played" [ "$(cat "$tmp"/l/*.bots | grep -c nosuchkey)" -eq 0 ]
check "records replay" "$S" replay "$tmp/l/towerup-2p-time.jsonl" >/dev/null 2>&1

# 2. The same command again resumes: no game played, the records unchanged.
cat "$tmp"/l/*.jsonl >"$tmp/before"
LADDER_BOTS_2P=$bots2 bash "$ladder" >/dev/null 2>"$tmp/err2" && ok || fail "re-run: $(tail -3 "$tmp/err2")"
cat "$tmp"/l/*.jsonl >"$tmp/after"
check "re-run: records unchanged" cmp -s "$tmp/before" "$tmp/after"
check "re-run: nothing played" grep -q '^6 of 6 games done (6 resumed, 0 played' "$tmp/l/towerup-2p-iters.txt"
check "re-run: tables again" [ "$(grep -cE "$row" "$md")" -eq 13 ]

# 3. A named anchor.
LADDER_DIR=$tmp/a LADDER_PLAYERS=2 LADDER_MODES=iters LADDER_ANCHOR=greedy bash "$ladder" \
    >/dev/null 2>&1 && ok || fail "anchored ladder"
check "anchor named" grep -qF 'anchor: `greedy` = 0' "$tmp/a/LADDER.md"
check "anchor row" grep -qE '^\| [0-9] \| `greedy` \| [+-]0 \| \(anchor\) \|' "$tmp/a/LADDER.md"

# 4. Refusals: another bot list in the same folder, bad numbers, an unknown mode.
expect_error "another bot list" 'another bot list' env LADDER_BOTS_2P='random mcts:@B' bash "$ladder"
expect_error "bad iterations" 'LADDER_ITERS must be a positive integer' env LADDER_ITERS=x bash "$ladder"
expect_error "bad mode" "unknown mode 'fast'" env LADDER_MODES=fast bash "$ladder"
expect_error "bad command" "unknown mode 'ladders'" bash "$ladder" ladders
expect_error "no binary" 'no skyline binary' env SKYLINE=$tmp/none bash "$ladder"

# 4b. @N names the game's shipped net: here a tiny random one found first in $SKYLINE_NETS.
mkdir -p "$tmp/nets"
"$S" bench --nets --quick --game towerup --save-nets "$tmp/nets" >/dev/null 2>&1 &&
    cp "$tmp/nets/towerup-2p.net" "$tmp/nets/towerup-2p.safetensors" && ok || fail "a tiny net"
SKYLINE_NETS=$tmp/nets LADDER_DIR=$tmp/n LADDER_PLAYERS=2 LADDER_MODES=iters \
    LADDER_BOTS_2P='random policy:net=@N' bash "$ladder" >/dev/null 2>"$tmp/errn" && ok ||
    fail "ladder with @N: $(tail -3 "$tmp/errn")"
check "@N: the net's name in the command" \
    grep -qF -- '--bot random --bot policy:net=towerup-2p --games 2 ' "$tmp/n/LADDER.md"

# 5. The scaling mode, tiny: 20 against 10 iterations; resumes; another binary refused.
export SCALING_DIR=$tmp/s SCALING_NS=10 SCALING_GAMES_TOWERUP=4 SCALING_GAMES_UPTOWN=4
bash "$ladder" scaling >/dev/null 2>"$tmp/err5" && ok || fail "scaling: $(tail -3 "$tmp/err5")"
check "scaling records" [ "$(wc -l <"$tmp/s/towerup-10.jsonl")" -eq 4 ]
check "scaling exact command" grep -q '^tournament [0-9a-f]*: towerup, 2 players, 2 bots, roundrobin, seed 1 -> towerup-10.jsonl' "$tmp/s/towerup-10.txt"
srow='^\| 20 vs 10 \| [0-9]+ \| [01]\.[0-9]{3} \+- [0-9.]+ \| .* \| .* \|$'
check "scaling table rows" [ "$(grep -cE "$srow" "$tmp/s/SCALING.md")" -eq 2 ]
bash "$ladder" scaling >/dev/null 2>&1 && ok || fail "scaling re-run"
check "scaling resumed" grep -q '^4 of 4 games done (4 resumed, 0 played' "$tmp/s/towerup-10.txt"
echo 0000 >"$tmp/s/uptown-10.engine"
expect_error "scaling: another binary" 'played by another binary' bash "$ladder" scaling

# 6. The scaling table on hand-made records: 2N scores 1, 1 in block 0 and 1, 0 in block 1
# (0.75: +191 Elo, se 0.25 over the two blocks), then 0.5 (+0) in the next doubling.
rec() { # rec INDEX STRONG_SEAT WINNER_SEAT N
    local seats ranks
    if [ "$2" = 0 ]; then seats="\"mcts:iters=$(($4 * 2))\",\"mcts:iters=$4\""; else seats="\"mcts:iters=$4\",\"mcts:iters=$(($4 * 2))\""; fi
    if [ "$3" = 0 ]; then ranks='1,2'; else ranks='2,1'; fi
    printf '{"seats":[%s],"result":{"ranks":[%s]},"tournament":{"index":%d,"config":"x"}}\n' \
        "$seats" "$ranks" "$1"
}
mkdir -p "$tmp/h"
{ rec 0 0 0 250; rec 1 1 1 250; rec 2 0 0 250; rec 3 1 0 250; } >"$tmp/h/towerup-250.jsonl"
{ rec 0 0 0 500; rec 1 1 0 500; rec 2 0 1 500; rec 3 1 1 500; } >"$tmp/h/towerup-500.jsonl"
out=$(python3 "$src/scripts/ladder_tables.py" scaling "$tmp/h" towerup)
echo "$out" | grep -qxF '| 500 vs 250 | 4 | 0.750 +- 0.490 | +191 [-182, +inf] | +191 +- 454 |' && ok ||
    fail "scaling step 1: $out"
echo "$out" | grep -qxF '| 1000 vs 500 | 4 | 0.500 +- 0.000 | +0 [+0, +0] | +191 +- 454 |' && ok ||
    fail "scaling step 2: $out"
echo "$out" | grep -q 'independent matches' && ok || fail "scaling: independence stated"
{ rec 0 0 0 250; rec 1 1 1 250; } >"$tmp/h/uptown-250.jsonl"
out=$(python3 "$src/scripts/ladder_tables.py" scaling "$tmp/h" uptown)
echo "$out" | grep -qxF '| 500 vs 250 | 2 | 1.000 (one deal: no interval) | - | - |' && ok ||
    fail "scaling: one deal: $out"
echo nonsense >"$tmp/h/uptown-250.jsonl"
expect_error "scaling table: not a record" 'uptown-250.jsonl:1: not a tournament record' \
    python3 "$src/scripts/ladder_tables.py" scaling "$tmp/h" uptown
finish test_ladder
