#!/usr/bin/env bash
# skyline quality: iteration budgets give the same figures on every run; a search chooses
# better than random moves by the measure; an interrupted run resumed from its file gives
# the figures of a straight run; --speedup; bad input is refused with one line naming it.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

# The figures without the time column (ms), which varies from run to run.
figures() { grep -E '^ +[0-9]+  ' "$1" | awk '{print $1, $2, $3, $4, $6, $7, $9}'; }

common=(--game towerup --players 2 --ref mcts:iters=2000,prior=heuristic,cutoff=8,fpu=0.3
        --bot mcts:iters=100 --bot mcts:iters=400 --bot random --games 3 --every 8 --repeats 2
        --seed 3 --quiet)
"$skyline" quality "${common[@]}" >"$tmp/a" 2>"$tmp/err" && ok || fail "run: $(cat "$tmp/err")"
"$skyline" quality "${common[@]}" >"$tmp/b" 2>&1
[ -n "$(figures "$tmp/a")" ] && ok || fail "no figures: $(cat "$tmp/a")"
[ "$(figures "$tmp/a")" = "$(figures "$tmp/b")" ] && ok || fail "two runs differ"
# Bot 3 (random) has a larger regret than bot 2 (400 iterations) and agrees less often.
awk '$1 == 2 {r2 = $3; a2 = $2} $1 == 3 {r3 = $3; a3 = $2} END {exit !(r3 > r2 && a3 < a2)}' \
    "$tmp/a" && ok || fail "random not worse than a search: $(cat "$tmp/a")"
grep -q "positions from 3 games of heuristic" "$tmp/a" && ok || fail "header: $(head -1 "$tmp/a")"

# Resume: a straight run with --out, then the same from a file cut after two positions and
# in the middle of the third line.
"$skyline" quality "${common[@]}" --out "$tmp/q.jsonl" >"$tmp/c" 2>&1 && ok || fail "run with --out"
[ "$(figures "$tmp/a")" = "$(figures "$tmp/c")" ] && ok || fail "--out changes the figures"
head -3 "$tmp/q.jsonl" >"$tmp/cut.jsonl"
sed -n 4p "$tmp/q.jsonl" | head -c 20 >>"$tmp/cut.jsonl"
"$skyline" quality "${common[@]}" --out "$tmp/cut.jsonl" >"$tmp/d" 2>&1 && ok || fail "resume: $(cat "$tmp/d")"
grep -q "2 positions resumed" "$tmp/d" && ok || fail "resume message: $(cat "$tmp/d")"
[ "$(figures "$tmp/a")" = "$(figures "$tmp/d")" ] && ok || fail "resumed figures differ"
# The same file but for the times.
untimed() { sed 's/,"seconds":.*}$/}/' "$1"; }
[ "$(untimed "$tmp/q.jsonl")" = "$(untimed "$tmp/cut.jsonl")" ] && ok || fail "resumed file differs from a straight run's"

# Every line has one shape, a JSON object with a "type": the header first, then positions,
# each named by game index and ply (a position every 8 plies: plies 4, 12, ...) and hash.
[ "$(sed -n '1s/^{"type":"header",.*/ok/p' "$tmp/q.jsonl")" = ok ] && ok || fail "header line: $(head -1 "$tmp/q.jsonl")"
n=$(wc -l <"$tmp/q.jsonl")
[ "$(grep -cE '^\{"type":"position","position":[0-9]+,"game":[0-2],"ply":[0-9]+,"key":"[0-9a-f]{16}",' "$tmp/q.jsonl")" = $((n - 1)) ] &&
    ok || fail "position lines: $(sed -n 2p "$tmp/q.jsonl")"
sed -n 's/.*"game":\([0-9]*\),"ply":\([0-9]*\),.*/\1 \2/p' "$tmp/q.jsonl" >"$tmp/origins"
awk 'BEGIN { g = -1 } $2 % 8 != 4 || $1 < g || ($1 == g && $2 <= p) { bad = 1 } { g = $1; p = $2 }
     END { exit bad }' "$tmp/origins" && ok || fail "origins: $(tr '\n' ' ' <"$tmp/origins")"
[ "$(cut -d' ' -f1 "$tmp/origins" | sort -u | tr -d '\n')" = 012 ] && ok || fail "games: $(tr '\n' ' ' <"$tmp/origins")"
# Resuming checks the origin as well as the hash; a file of the former shape is refused.
head -2 "$tmp/q.jsonl" | sed 's/"ply":\([0-9]*\)/"ply":9\1/' >"$tmp/ply.jsonl"
expect_error "other ply" "ply.jsonl:2: position 0 is not the one this run takes \(game 0, ply 4" "$skyline" quality "${common[@]}" --out "$tmp/ply.jsonl"
printf '{"quality":{"game":"towerup"}}\n' >"$tmp/old.jsonl"
expect_error "former shape" "older skyline quality" "$skyline" quality "${common[@]}" --out "$tmp/old.jsonl"

# More games extend a finished run: its positions are the first ones of the longer run.
"$skyline" quality "${common[@]}" --games 2 --out "$tmp/ext.jsonl" >/dev/null 2>&1
"$skyline" quality "${common[@]}" --out "$tmp/ext.jsonl" >"$tmp/e" 2>&1 && ok || fail "extend: $(cat "$tmp/e")"
grep -qE "^\([0-9]+ positions resumed" "$tmp/e" && ok || fail "extend message: $(cat "$tmp/e")"
[ "$(figures "$tmp/a")" = "$(figures "$tmp/e")" ] && ok || fail "extended figures differ from a straight run's"
[ "$(untimed "$tmp/q.jsonl")" = "$(untimed "$tmp/ext.jsonl")" ] && ok || fail "extended file differs from a straight run's"
expect_error "fewer games than the file" "holds positions of 3 games: give --games 3 or more" "$skyline" quality "${common[@]}" --games 2 --out "$tmp/ext.jsonl"

"$skyline" quality --game uptown --players 2 --ref mcts:iters=600 --bot mcts:iters=200,threads=2 \
    --bot mcts:iters=200 --bot mcts:iters=400 --speedup --games 1 --every 6 --repeats 1 --quiet \
    >"$tmp/s" 2>"$tmp/err" && ok || fail "speedup run: $(cat "$tmp/err")"
grep -qE "^quality speedup of #1: " "$tmp/s" && ok || fail "no speedup line: $(cat "$tmp/s")"

expect_error "reference not mcts" "reference must be an mcts bot" "$skyline" quality --ref heuristic --bot random
expect_error "no reference" "needs --ref" "$skyline" quality --bot random
expect_error "no bot" "at least one --bot" "$skyline" quality --ref mcts:iters=10
expect_error "speedup needs 3" "exactly three" "$skyline" quality --ref mcts:iters=10 --bot random --speedup
expect_error "bad bot spec" "frob" "$skyline" quality --ref mcts:iters=10 --bot frob
expect_error "bad from spec" "frob" "$skyline" quality --ref mcts:iters=10 --bot random --from frob
expect_error "unknown option" "unknown option '--fast'" "$skyline" quality --fast
expect_error "bad repeats" "repeats" "$skyline" quality --ref mcts:iters=10 --bot random --repeats 0
expect_error "other measurement in file" "another measurement" "$skyline" quality --game towerup --players 2 --ref mcts:iters=2000,prior=heuristic,cutoff=8,fpu=0.3 --bot mcts:iters=100 --games 3 --every 8 --repeats 2 --seed 3 --out "$tmp/q.jsonl"
head -2 "$tmp/q.jsonl" | sed 's/"key":"[0-9a-f]*"/"key":"0000000000000001"/' >"$tmp/moved.jsonl"
expect_error "other position" "moved.jsonl:2: position 0 is not the one" "$skyline" quality "${common[@]}" --out "$tmp/moved.jsonl"
printf '%s\n{"position": 5}\n' "$(head -1 "$tmp/q.jsonl")" >"$tmp/bad.jsonl"
expect_error "wrong position line" "bad.jsonl:2: not the result of position 0" "$skyline" quality "${common[@]}" --out "$tmp/bad.jsonl"

finish test_quality
