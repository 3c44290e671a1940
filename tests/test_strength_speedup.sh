#!/usr/bin/env bash
# scripts/strength_speedup.py on hand-made records: the speedup and its one-line errors.
# usage: test_strength_speedup.sh SKYLINE SOURCE_DIR
src=$2
. "$src/tests/cli_lib.sh"
script="$src/scripts/strength_speedup.py"
P='mcts:time=20,threads=2'

# game I WINNER: a record of game I between P and bot OTHER, P seated first on even I.
game() {
    local i=$1 other=$2 p_wins=$3 seats ranks
    if [ $((i % 2)) -eq 0 ]; then seats="\"$P\",\"$other\""; else seats="\"$other\",\"$P\""; fi
    if [ "$p_wins" = tie ]; then ranks='1,1'
    elif { [ "$p_wins" = 1 ] && [ $((i % 2)) -eq 0 ]; } || { [ "$p_wins" = 0 ] && [ $((i % 2)) -eq 1 ]; }; then ranks='1,2'
    else ranks='2,1'; fi
    printf '{"seats":[%s],"result":{"ranks":[%s]},"tournament":{"index":%d,"config":"x"}}\n' \
        "$seats" "$ranks" "$i"
}

# Same time: P scores 0.75 (+191 Elo); double time: 0.5. Doubling is worth 191 Elo, so P
# plays like one thread with 2 ** (191 / 191) = 2 times the time.
{ for i in 0 1 2 4 5 6; do game $i 'mcts:time=20' 1; done
  for i in 3 7; do game $i 'mcts:time=20' 0; done; } >"$tmp/same.jsonl"
{ for i in 0 1 2 3; do game $i 'mcts:time=40' 1; done
  for i in 4 5 6 7; do game $i 'mcts:time=40' 0; done; } >"$tmp/double.jsonl"
out=$(python3 "$script" "$tmp/same.jsonl" "$tmp/double.jsonl" --resamples 200)
echo "$out" | grep -q "same time:   0.750 over 8 games (+191 Elo)" && ok || fail "same: $out"
echo "$out" | grep -q "double time: 0.500 over 8 games (+0 Elo)" && ok || fail "double: $out"
echo "$out" | grep -q "^strength-speedup 2.00 (95% bootstrap interval" && ok || fail "speedup: $out"

# Ties count a half: 0.5 against the same time means no speedup at all (2 ** 0 = 1).
{ for i in 0 1 2 3; do game $i 'mcts:time=20' tie; done; } >"$tmp/tied.jsonl"
{ for i in 0 1; do game $i 'mcts:time=40' 1; done
  for i in 2 3 4 5 6 7; do game $i 'mcts:time=40' 0; done; } >"$tmp/lost.jsonl"
out=$(python3 "$script" "$tmp/tied.jsonl" "$tmp/lost.jsonl" --resamples 200)
echo "$out" | grep -q "same time:   0.500 over 4 games (+0 Elo)" && ok || fail "tied: $out"
echo "$out" | grep -q "^strength-speedup 1.00 " && ok || fail "tied speedup: $out"

# Several runs of a match, joined by commas: the same games in two files (each file's
# indexes from 0, as separate runs write them) give the same output as one file, interval
# included: deals are known by file and index, and resampled in the same order.
grep '"index":[0-3],' "$tmp/same.jsonl" >"$tmp/same_a.jsonl"
grep '"index":[4-7],' "$tmp/same.jsonl" | sed 's/"index":4/"index":0/; s/"index":5/"index":1/;
    s/"index":6/"index":2/; s/"index":7/"index":3/' >"$tmp/same_b.jsonl"
one=$(python3 "$script" "$tmp/same.jsonl" "$tmp/double.jsonl" --resamples 200)
two=$(python3 "$script" "$tmp/same_a.jsonl,$tmp/same_b.jsonl" "$tmp/double.jsonl" --resamples 200)
[ "$one" = "$two" ] && ok || fail "two files: $two, one file: $one"

# A record's seed names its deal: games with one seed are one block wherever they are, so
# with every game on one deal each resample is the whole file and the interval is a point.
sed 's/^{/{"seed":7,/' "$tmp/same.jsonl" >"$tmp/same_seeded.jsonl"
sed 's/^{/{"seed":8,/' "$tmp/double.jsonl" >"$tmp/double_seeded.jsonl"
out=$(python3 "$script" "$tmp/same_seeded.jsonl" "$tmp/double_seeded.jsonl" --resamples 200)
echo "$out" | grep -q "^strength-speedup 2.00 (95% bootstrap interval 2.00 to 2.00" && ok ||
    fail "seeded: $out"
out=$(python3 "$script" "$tmp/same.jsonl" "$tmp/double.jsonl" --resamples 200)
echo "$out" | grep -q "interval 2.00 to 2.00" && fail "unseeded point interval: $out" || ok

expect_error "missing file" "nope.jsonl" python3 "$script" "$tmp/nope.jsonl" "$tmp/double.jsonl"
echo 'not json' >"$tmp/bad.jsonl"
expect_error "not a record" "bad.jsonl:1: not a tournament game record" \
    python3 "$script" "$tmp/bad.jsonl" "$tmp/double.jsonl"
expect_error "file twice" "a file is given twice" \
    python3 "$script" "$tmp/same.jsonl,$tmp/same.jsonl" "$tmp/double.jsonl"
sed 's/^{/{"seed":[1],/' "$tmp/same.jsonl" >"$tmp/badseed.jsonl"
expect_error "bad seed" "badseed.jsonl:1: not a tournament game record" \
    python3 "$script" "$tmp/badseed.jsonl" "$tmp/double.jsonl"
expect_error "no common bot" "exactly one of them in both" \
    python3 "$script" "$tmp/same.jsonl" "$tmp/same.jsonl"
expect_error "unknown option" "unrecognized arguments" \
    python3 "$script" "$tmp/same.jsonl" "$tmp/double.jsonl" --fast
finish test_strength_speedup.sh
