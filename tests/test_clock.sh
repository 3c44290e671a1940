# Time controls (arena/TOURNAMENT.md): play and tournament's --tc BASE+INC and --move-time
# MS, enforced by the match driver on every bot kind; a loss on time is a forfeit with
# reason timeout; records hold "clock" with each seat's time used; summaries show time used
# and losses on time; ext bots get their allowance in go; mcts budgets from the clock it is
# told; mcts:clock=BASE+INC. No check depends on timing: slow bots sleep seconds past
# limits of a tenth of a second, and clock figures are checked with generous bounds.
# Usage: bash test_clock.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

for mode in timeout good; do
    printf '#!/bin/sh\nexec python3 "%s/tests/sbp_fake.py" %s 3 "%s"\n' "$src" "$mode" "$tmp" \
        >"$tmp/$mode"
    chmod +x "$tmp/$mode"
done
# golog: every line it reads goes to $tmp/in.log; go.log gets each go's allowance.
printf '#!/bin/sh\nexec python3 "%s/tests/sbp_fake.py" log 3 "%s/in.log"\n' "$src" "$tmp" >"$tmp/golog"
chmod +x "$tmp/golog"
gos() { grep '^go ' "$tmp/in.log" | awk '{print $2}' >"$tmp/go.log"; rm -f "$tmp/in.log"; }

# A human seat that answers after 2 s under a 100 ms move limit: a bot kind without a
# clock hook loses on time, judged by the driver; the record replays.
(sleep 2; echo 1) | timeout 60 "$skyline" play --game connect4 --bot human --bot random \
    --first-player 0 --move-time 100 --record "$tmp/human.jsonl" >"$tmp/out" 2>"$tmp/err"
grep -q '"forfeit":{"seat":0,"move":0,"reason":"timeout","detail":"move took [0-9]* ms, over the limit of 100 ms"' \
    "$tmp/human.jsonl" && ok || fail "human: no loss on time: $(cat "$tmp/human.jsonl" "$tmp/err")"
grep -q '"clock":{"base_ms":0,"inc_ms":0,"move_ms":100,"used_ms":\[[0-9]*,0\]}' \
    "$tmp/human.jsonl" && ok || fail "human: no clock in the record: $(cat "$tmp/human.jsonl")"
grep -qE '^P1 +[0-9.]+ +1$' "$tmp/out" && ok || fail "human: summary: $(cat "$tmp/out")"
"$skyline" replay "$tmp/human.jsonl" >/dev/null 2>&1 && ok || fail "human: replay refuses"

# An ext bot that never answers, with time=0 (no allowance of its own): the game clock
# bounds its go, and it loses on time instead of hanging.
timeout 60 "$skyline" play --game connect4 --bot "ext:cmd=$tmp/timeout,time=0" --bot random \
    --first-player 0 --tc 200 --games 2 --record "$tmp/ext.jsonl" >"$tmp/out" 2>"$tmp/err" ||
    fail "ext: play failed: $(cat "$tmp/err")"
n=$(grep -c '"forfeit":{"seat":0,"move":[0-9]*,"reason":"timeout"' "$tmp/ext.jsonl")
[ "$n" -eq 2 ] && ok || fail "ext: $n of 2 games lost on time: $(cat "$tmp/ext.jsonl")"
grep -qE '^P1 +[0-9.]+ +2$' "$tmp/out" && ok || fail "ext: summary: $(cat "$tmp/out")"

# go carries the allowance: the clock's time left at the first move, the move limit when
# it is less; the bot's own time= (if given) when that is less still; without a clock,
# time= or its default.
rm -f "$tmp/in.log"
"$skyline" play --game connect4 --bot "ext:cmd=$tmp/golog" --bot random --first-player 0 \
    --tc 60000+100 --games 1 --quiet >/dev/null 2>"$tmp/err" || fail "golog: $(cat "$tmp/err")"
gos
[ "$(head -1 "$tmp/go.log")" = 60000 ] && ok || fail "go with --tc: $(head -3 "$tmp/go.log")"
rm -f "$tmp/in.log"
"$skyline" play --game connect4 --bot "ext:cmd=$tmp/golog" --bot random --first-player 0 \
    --tc 60000 --move-time 5000 --games 1 --quiet >/dev/null 2>"$tmp/err" || fail "golog 2"
gos
[ "$(sort -u "$tmp/go.log")" = 5000 ] && ok || fail "go with --move-time: $(sort -u "$tmp/go.log")"
rm -f "$tmp/in.log"
"$skyline" play --game connect4 --bot "ext:cmd=$tmp/golog,time=700" --bot random \
    --first-player 0 --move-time 5000 --games 1 --quiet >/dev/null 2>"$tmp/err" || fail "golog 3"
gos
[ "$(sort -u "$tmp/go.log")" = 700 ] && ok || fail "go with time=: $(sort -u "$tmp/go.log")"
rm -f "$tmp/in.log"
"$skyline" play --game connect4 --bot "ext:cmd=$tmp/golog" --bot random --first-player 0 \
    --games 1 --quiet >/dev/null 2>"$tmp/err" || fail "golog 4"
gos
[ "$(sort -u "$tmp/go.log")" = 10000 ] && ok || fail "go without a clock: $(sort -u "$tmp/go.log")"

# mcts budgets its search from the clock it is told: with a billion iterations a move it
# would never finish; under a 4 s game clock it finishes in time.
timeout 120 "$skyline" play --game connect4 --bot mcts:iters=1000000000 --bot random \
    --tc 4000 --games 1 --record "$tmp/mcts.jsonl" >"$tmp/out" 2>"$tmp/err" ||
    fail "mcts under a clock: $(cat "$tmp/err")"
grep -q '"forfeit"' "$tmp/mcts.jsonl" && fail "mcts lost on time: $(cat "$tmp/mcts.jsonl")" || ok
used=$(grep -o '"used_ms":\[[0-9]*' "$tmp/mcts.jsonl" | grep -o '[0-9]*$')
[ -n "$used" ] && [ "$used" -gt 0 ] && [ "$used" -le 4000 ] && ok ||
    fail "mcts used ${used:-?} ms of 4000"

# skyline engine keeps a move within go's allowance: a billion iterations would take
# half an hour; go 300 bounds the search.
pos=$("$skyline" show --game connect4 --first-player 0 --notation)
printf 'sbp 1\nnewgame connect4 2 0 first_player=0\nposition %s\ngo 300 1 2 3 4 5 6 7\nquit\n' \
    "$pos" | timeout 60 "$skyline" engine --bot mcts:iters=1000000000 >"$tmp/out" 2>"$tmp/err"
grep -q '^move [1-7]$' "$tmp/out" && ok || fail "engine under go 300: $(cat "$tmp/out" "$tmp/err")"

# mcts:clock=BASE+INC (its own clock, no harness): plays; bad values are refused.
"$skyline" play --game connect4 --bot mcts:clock=2000+20 --bot random --games 1 --quiet \
    >/dev/null 2>"$tmp/err" && ok || fail "mcts:clock=BASE+INC: $(cat "$tmp/err")"
"$skyline" play --game connect4 --bot mcts:clock=500 --bot random --games 1 --quiet \
    >/dev/null 2>"$tmp/err" && ok || fail "mcts:clock=MS: $(cat "$tmp/err")"
expect_error "clock bad inc" "bad value '500\+x' for key 'clock'" \
    "$skyline" play --game connect4 --bot mcts:clock=500+x
expect_error "clock and time" "keys 'clock' and 'time' exclude each other" \
    "$skyline" play --game connect4 --bot mcts:clock=500+5,time=10
expect_error "bad --tc" "bad value '10s' for --tc" "$skyline" play --game connect4 --tc 10s
expect_error "bad --tc inc" "bad value '10\+' for --tc" "$skyline" play --game connect4 --tc 10+
expect_error "bad --move-time" "--move-time needs an integer" \
    "$skyline" tournament --game connect4 --bot random --bot greedy --games 2 \
    --out "$tmp/x.jsonl" --move-time 0

# A tournament under a generous clock: records hold the clock, the summary the time used
# and no loss on time; resuming needs the same time control; rate reads the file.
t="$tmp/t.jsonl"
"$skyline" tournament --game connect4 --bot mcts:iters=3000 --bot random --games 4 --out "$t" \
    --tc 600000+10 --quiet >"$tmp/out" 2>"$tmp/err" || fail "tournament: $(cat "$tmp/err")"
[ "$(grep -c '"clock":{"base_ms":600000,"inc_ms":10,"move_ms":0,"used_ms":\[' "$t")" -eq 4 ] &&
    ok || fail "tournament records: $(head -2 "$t")"
grep -q '^time control: clock 600000+10 ms, move limit 0 ms' "$tmp/out" && ok ||
    fail "tournament summary: $(cat "$tmp/out")"
tl() { grep '^Time control (seats under one): ' "$1"; }
tl "$tmp/out" | grep -qE 'A [0-9.]+ s used, 0 lost on time; B [0-9.]+ s used, 0 lost on time$' &&
    ok || fail "tournament clock line: $(cat "$tmp/out")"
a=$(tl "$tmp/out" | grep -oE 'A [0-9.]+ s used' | awk '{print $2}')
awk -v a="$a" 'BEGIN { exit !(a > 0 && a < 600) }' && ok || fail "time used by A: $a s"
expect_error "other time control" "another tournament configuration" \
    "$skyline" tournament --game connect4 --bot mcts:iters=3000 --bot random --games 4 \
    --out "$t" --tc 600000+20 --quiet
"$skyline" tournament --game connect4 --bot mcts:iters=3000 --bot random --games 6 --out "$t" \
    --tc 600000+10 --quiet >"$tmp/out" 2>"$tmp/err" && grep -q '(4 resumed, 2 played' "$tmp/out" &&
    ok || fail "resume under a clock: $(cat "$tmp/out" "$tmp/err")"
tl "$tmp/out" >"$tmp/line1"
grep -q 'A [0-9.]* s used, 0 lost' "$tmp/line1" && ok || fail "resumed clock line: $(cat "$tmp/out")"
# rate on the file prints the tournament's line.
"$skyline" rate "$t" >"$tmp/out" 2>"$tmp/err" && ok || fail "rate: $(cat "$tmp/err")"
tl "$tmp/out" | cmp -s - "$tmp/line1" && ok || fail "rate's clock line: $(tl "$tmp/out") / $(cat "$tmp/line1")"

# A tournament loss on time counts in the summary and as a forfeit.
t2="$tmp/t2.jsonl"
timeout 120 "$skyline" tournament --game connect4 --bot "ext:cmd=$tmp/timeout" --bot random \
    --games 2 --out "$t2" --move-time 100 --quiet --workers 1 >"$tmp/out" 2>"$tmp/err" ||
    fail "tournament with a slow bot: $(cat "$tmp/err")"
tl "$tmp/out" | grep -qE 'A [0-9.]+ s used, 2 lost on time' && ok ||
    fail "tournament losses on time: $(cat "$tmp/out")"
grep -q '^Forfeits (each ranked last in its game): A 2' "$tmp/out" && ok ||
    fail "losses on time are forfeits: $(cat "$tmp/out")"

finish test_clock
