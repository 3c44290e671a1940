#!/usr/bin/env bash
# skyline fit: fits from records of both games, writes a parameter file that loads as
# heuristic:params= and greedy:params= and plays; a fit stopped and resumed from its
# checkpoint ends with exactly the file of a straight fit, with 1 or 2 threads; records of
# another game or player count, bad spec, parameter and option values are refused with
# one line; a foreign --out file is never overwritten.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

"$skyline" play --game towerup --players 3 --bot greedy --games 6 --seed 1 \
    --record "$tmp/tu3.jsonl" >/dev/null 2>&1 || fail "towerup records"
"$skyline" play --game uptown --players 2 --bot greedy --games 4 --seed 1 \
    --record "$tmp/ut2.jsonl" >/dev/null 2>&1 || fail "uptown records"

common=(--game towerup --players 3 --records "$tmp/tu3.jsonl" --epochs 4 --batch 64 --seed 3)
"$skyline" fit "${common[@]}" --threads 1 --out "$tmp/straight.params" >"$tmp/out" 2>"$tmp/err" \
    && ok || fail "straight fit: $(cat "$tmp/err")"
grep -q "^fit: epoch 4/4: loss train [0-9.]* held-out [0-9.]*" "$tmp/err" && ok \
    || fail "progress lines: $(cat "$tmp/err")"
grep -q "^K [0-9.]*; held-out loss: start [0-9.]*, fitted [0-9.]*" "$tmp/out" && ok \
    || fail "summary: $(cat "$tmp/out")"
head -1 "$tmp/straight.params" | grep -q "skyline parameter file" && ok || fail "not a parameter file"
[ ! -e "$tmp/straight.params.ckpt" ] && ok || fail "checkpoint left after a finished fit"
"$skyline" play --game towerup --players 3 --bot "heuristic:params=$tmp/straight.params" \
    --bot "greedy:params=$tmp/straight.params" --bot random --games 1 >/dev/null 2>"$tmp/err" \
    && ok || fail "fitted file does not play: $(cat "$tmp/err")"

# Stopped twice and resumed, with 2 threads: the same file as the straight fit.
"$skyline" fit "${common[@]}" --threads 2 --out "$tmp/parts.params" --stop-after 1 >"$tmp/out" 2>&1
grep -q "stopped after 1 epochs at 1 of 4" "$tmp/out" && ok || fail "stop-after: $(cat "$tmp/out")"
[ -f "$tmp/parts.params.ckpt" ] && ok || fail "no checkpoint"
expect_error "checkpoint without --resume" "give --resume" \
    "$skyline" fit "${common[@]}" --out "$tmp/parts.params"
"$skyline" fit "${common[@]}" --threads 2 --out "$tmp/parts.params" --resume --stop-after 2 >/dev/null 2>&1
"$skyline" fit "${common[@]}" --threads 2 --out "$tmp/parts.params" --resume >/dev/null 2>"$tmp/err"
grep -q "resuming from .*parts.params.ckpt after epoch 3 of 4" "$tmp/err" && ok \
    || fail "resume message: $(cat "$tmp/err")"
cmp -s "$tmp/straight.params" "$tmp/parts.params" && ok || fail "resumed fit differs from a straight one"
"$skyline" fit "${common[@]}" --out "$tmp/other.params" --stop-after 1 >/dev/null 2>&1
expect_error "changed options" "different records or options" \
    "$skyline" fit "${common[@]}" --l2 0.5 --out "$tmp/other.params" --resume
expect_error "resume without checkpoint" "no checkpoint" \
    "$skyline" fit "${common[@]}" --out "$tmp/none.params" --resume

# Uptown, 2 players, a spec file, the start from a parameter file, cross-entropy, every 2nd.
printf '# a subset\neval_scale 0.3 0.05 3 0.05\neval_pot 0.5 0 1 0.05\n' >"$tmp/spec.txt"
"$skyline" fit --game uptown --players 2 --records "$tmp/ut2.jsonl" --params "$tmp/spec.txt" \
    --every 2 --loss ce --epochs 2 --out "$tmp/ut.params" >"$tmp/out" 2>"$tmp/err" \
    && ok || fail "uptown fit: $(cat "$tmp/err")"
grep -q "2 of [0-9]* weights fitted: eval_scale eval_pot" "$tmp/err" && ok || fail "spec: $(cat "$tmp/err")"
"$skyline" fit --game uptown --players 2 --records "$tmp/ut2.jsonl" --start "$tmp/ut.params" \
    --epochs 1 --k 1 --holdout 0 --out "$tmp/ut2.params" >"$tmp/out" 2>"$tmp/err" \
    && ok || fail "uptown --start: $(cat "$tmp/err")"
grep -q "^K 1; held-out loss: start none, fitted none (0 positions)" "$tmp/out" && ok \
    || fail "no held-out positions: $(cat "$tmp/out")"
"$skyline" play --game uptown --players 2 --bot "greedy:params=$tmp/ut2.params" --bot random \
    --games 1 >/dev/null 2>&1 && ok || fail "uptown fitted file does not play"

# Refusals: one line, non-zero exit.
expect_error "another game" "tu3.jsonl:1: a record of towerup, not of uptown" \
    "$skyline" fit --game uptown --players 3 --records "$tmp/tu3.jsonl" --out "$tmp/x.params"
expect_error "another player count" "ut2.jsonl:1: a record of 2 players, not 3" \
    "$skyline" fit --game uptown --players 3 --records "$tmp/ut2.jsonl" --out "$tmp/x.params"
printf 'not json\n' >"$tmp/bad.jsonl"
expect_error "not a record" "bad.jsonl:1: not a JSON record" \
    "$skyline" fit --game uptown --players 2 --records "$tmp/bad.jsonl" --out "$tmp/x.params"
head -1 "$tmp/ut2.jsonl" | sed 's/"moves":\["[^"]*"/"moves":["zz"/' >"$tmp/illegal.jsonl"
expect_error "illegal move" "illegal.jsonl:1: move 0: move 'zz'" \
    "$skyline" fit --game uptown --players 2 --records "$tmp/illegal.jsonl" --out "$tmp/x.params"
expect_error "missing records" "cannot open" \
    "$skyline" fit --game uptown --players 2 --records "$tmp/nothing.jsonl" --out "$tmp/x.params"
printf 'eval_scale 1 0 2 0.1\nbad line\n' >"$tmp/badspec.txt"
expect_error "bad spec line" "badspec.txt:2:" "$skyline" fit --game uptown --players 2 \
    --records "$tmp/ut2.jsonl" --params "$tmp/badspec.txt" --out "$tmp/x.params"
printf 'no_such 1 0 2 0.1\n' >"$tmp/unknown.txt"
expect_error "unknown weight" "unknown parameter 'no_such'" "$skyline" fit --game uptown \
    --players 2 --records "$tmp/ut2.jsonl" --params "$tmp/unknown.txt" --out "$tmp/x.params"
printf 'eval_scale x\n' >"$tmp/badstart.params"
expect_error "bad start file" "badstart.params:1: bad number" "$skyline" fit --game uptown \
    --players 2 --records "$tmp/ut2.jsonl" --start "$tmp/badstart.params" --out "$tmp/x.params"
expect_error "no weights" "no heuristic weights" "$skyline" fit --game uptown --players 2 \
    --records "$tmp/ut2.jsonl" --bot random --out "$tmp/x.params"
expect_error "bad holdout" "--holdout needs a number" "$skyline" fit --game uptown --players 2 \
    --records "$tmp/ut2.jsonl" --holdout 1.5 --out "$tmp/x.params"
expect_error "bad loss" "--loss is mse or ce" "$skyline" fit --game uptown --players 2 \
    --records "$tmp/ut2.jsonl" --loss abs --out "$tmp/x.params"
expect_error "bad every" "--every needs an integer" "$skyline" fit --game uptown --players 2 \
    --records "$tmp/ut2.jsonl" --every 0 --out "$tmp/x.params"
expect_error "no out" "--out" "$skyline" fit --game uptown --players 2 --records "$tmp/ut2.jsonl"
expect_error "no records" "--records" "$skyline" fit --game uptown --players 2 --out "$tmp/x.params"
expect_error "unknown option" "unknown option '--frob'" "$skyline" fit --frob
expect_error "no heuristic" "connect4 has no heuristic" "$skyline" fit --game connect4 \
    --players 2 --records "$tmp/ut2.jsonl" --out "$tmp/x.params"
expect_error "out in a missing folder" "cannot write parameter file" "$skyline" fit --game uptown \
    --players 2 --records "$tmp/ut2.jsonl" --out "$tmp/no/such/dir/x.params"
expect_error "checkpoint in a missing folder" "cannot write checkpoint" "$skyline" fit --game uptown \
    --players 2 --records "$tmp/ut2.jsonl" --out "$tmp/x.params" --checkpoint "$tmp/no/x.ckpt"
echo "my notes" >"$tmp/notes.txt"
expect_error "foreign out" "refusing to overwrite" "$skyline" fit --game uptown --players 2 \
    --records "$tmp/ut2.jsonl" --out "$tmp/notes.txt"
grep -q "my notes" "$tmp/notes.txt" && ok || fail "foreign file changed"
"$skyline" fit --help | grep -q "usage: skyline fit" && ok || fail "help"
finish test_fit.sh
