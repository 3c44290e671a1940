#!/usr/bin/env bash
# scripts/fit_loop.sh in a tiny mode: every command echoed, round 2 generating and fitting
# from round 1's weights, the check a tournament of the fitted bot on other deals, every
# file kept; run again it resumes without playing or fitting anything again. Without a
# fit command in the build it makes round 1's records and says so. The parameter files
# kept in docs/params/ load.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"
loop="$2/scripts/fit_loop.sh"

args=(--game towerup --players 2 --dir "$tmp/loop" --rounds 2 --games 8 --check-games 4
    --gen "heuristic:temp=0.3,eps=0.05" --seed 7 --fit-args "--epochs 2 --holdout 0.2")
SKYLINE=$skyline bash "$loop" "${args[@]}" >"$tmp/out" 2>"$tmp/err" && ok || fail "loop: $(tail -3 "$tmp/err")"
"$skyline" replay "$tmp/loop/r1.jsonl" >/dev/null 2>&1 && ok || fail "round 1 records do not replay"
grep -q "^+ [^ ]* generate --game towerup --players 2 --bot heuristic:temp=0.3,eps=0.05 --games 8 --seed 7 --out $tmp/loop/r1.jsonl" "$tmp/err" \
    && ok || fail "generate not echoed: $(cat "$tmp/err")"
if "$skyline" fit --help >/dev/null 2>&1; then
    for f in r1.params r2.params r2.jsonl r1.check.jsonl r2.check.txt; do
        [ -s "$tmp/loop/$f" ] && ok || fail "no $f"
    done
    grep -q "^+ [^ ]* generate .*--bot heuristic:temp=0.3,eps=0.05,params=$tmp/loop/r1.params --games 8 --seed 15 " "$tmp/err" \
        && ok || fail "round 2 does not generate from round 1's weights"
    grep -q "^+ [^ ]* fit .*--records $tmp/loop/r2.jsonl --start $tmp/loop/r1.params --out $tmp/loop/r2.params" "$tmp/err" \
        && ok || fail "round 2 does not fit from round 1's weights"
    grep -q "^+ [^ ]* tournament .*--bot heuristic:params=$tmp/loop/r2.params --bot heuristic --games 4 --seed 9 " "$tmp/err" \
        && ok || fail "check not echoed"
    grep -q "heuristic:params=$tmp/loop/r2.params" "$tmp/loop/r2.check.txt" && ok || fail "check summary"
    # The fitted file loads.
    "$skyline" play --players 2 --bot "heuristic:params=$tmp/loop/r2.params" --quiet >/dev/null 2>&1 \
        && ok || fail "fitted weights do not load"
    # Again: nothing played or fitted, the same weights.
    cp "$tmp/loop/r2.params" "$tmp/r2.before"
    SKYLINE=$skyline bash "$loop" "${args[@]}" >"$tmp/out" 2>"$tmp/err" && ok || fail "rerun: $(tail -3 "$tmp/err")"
    [ "$(grep -c "(8 resumed, 0 played" "$tmp/out")" -eq 2 ] && ok || fail "rerun generated games: $(cat "$tmp/out")"
    [ "$(grep -c "(4 resumed, 0 played" "$tmp/out")" -eq 2 ] && ok || fail "rerun played check games"
    grep -q "^+ [^ ]* fit " "$tmp/err" && fail "rerun fitted again" || ok
    cmp -s "$tmp/r2.before" "$tmp/loop/r2.params" && ok || fail "rerun changed the weights"
else
    grep -q "no fit command" "$tmp/err" && ok || fail "no note about the missing fit"
fi

# The parameter files kept as data (docs/params/GAME-Pp-HOW.params) load for their game.
for f in "$2"/docs/params/*.params; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    "$skyline" play --game "${name%%-*}" --players "$(echo "$name" | sed -E 's/^[a-z0-9]+-([0-9])p-.*/\1/')" \
        --bot "heuristic:params=$f" --quiet >/dev/null 2>"$tmp/err" && ok || fail "$name: $(cat "$tmp/err")"
done

expect_error "no dir" "required" env SKYLINE="$skyline" bash "$loop" --game towerup --players 2
expect_error "bad number" "--games needs a whole number" env SKYLINE="$skyline" bash "$loop" \
    --game towerup --players 2 --dir "$tmp/x" --games many
expect_error "unknown option" "unknown option '--bogus'" env SKYLINE="$skyline" bash "$loop" --bogus 1
expect_error "missing start" "no file" env SKYLINE="$skyline" bash "$loop" --game towerup \
    --players 2 --dir "$tmp/x" --start "$tmp/none.params"
finish test_fit_loop
