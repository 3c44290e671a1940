#!/usr/bin/env bash
# skyline tune: an interrupted run resumed from its checkpoint ends with exactly the
# parameters of an uninterrupted run; the result loads as heuristic:params=FILE; workers do
# not change results; bad input is refused with one line naming it.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

common=(--game towerup --players 3 --bot heuristic --against greedy --iterations 6 --seed 5)
"$skyline" tune "${common[@]}" --out "$tmp/straight.params" --workers 1 >/dev/null 2>"$tmp/err" \
    && ok || fail "straight run: $(cat "$tmp/err")"
"$skyline" tune "${common[@]}" --out "$tmp/parts.params" --workers 2 --stop-after 2 >"$tmp/out" 2>&1
grep -q "stopped after 2" "$tmp/out" && ok || fail "stop-after: $(cat "$tmp/out")"
[ -f "$tmp/parts.params.ckpt" ] && ok || fail "no checkpoint"
"$skyline" tune "${common[@]}" --out "$tmp/parts.params" --workers 2 --stop-after 3 >/dev/null 2>&1
"$skyline" tune "${common[@]}" --out "$tmp/parts.params" --workers 2 >"$tmp/out" 2>"$tmp/err"
grep -q "resuming from .* at iteration 5 of 6" "$tmp/err" && ok || fail "resume message: $(cat "$tmp/err")"
[ "$(grep -c '^iter ' "$tmp/out")" -eq 1 ] && ok || fail "resumed run replayed iterations"
cmp -s "$tmp/straight.params" "$tmp/parts.params" && ok || fail "resumed parameters differ from a straight run"
# The iteration log: one JSON line per iteration, the same for a run stopped and resumed
# twice as for a straight one (a resume appends without doubling lines).
[ "$(wc -l <"$tmp/straight.params.log.jsonl")" -eq 6 ] && ok || fail "log lines: $(wc -l <"$tmp/straight.params.log.jsonl")"
head -1 "$tmp/straight.params.log.jsonl" | grep -q '^{"iteration":1,"theta":{"marker":.*"diff":.*"games":6}$' \
    && ok || fail "log line: $(head -1 "$tmp/straight.params.log.jsonl")"
cmp -s "$tmp/straight.params.log.jsonl" "$tmp/parts.params.log.jsonl" && ok || fail "resumed log differs"
# No progress line when stderr is not a terminal.
grep -q "ETA" "$tmp/err" "$tmp/out" && fail "progress line written to a file" || ok
"$skyline" play --players 3 --bot "heuristic:params=$tmp/parts.params" --bot greedy --bot random \
    --games 2 --quiet >/dev/null 2>&1 && ok || fail "tuned file does not load"

# Uptown, 2 players, with a spec file.
printf '# tuned subset\njoin 1.0 0 5 0.5\n' >"$tmp/spec.txt"
"$skyline" tune --game uptown --players 2 --bot heuristic --params "$tmp/spec.txt" --iterations 3 \
    --seed 1 --out "$tmp/ut.params" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^iter ' "$tmp/out")" -eq 3 ] && ok || fail "uptown tune: $(cat "$tmp/err")"
# An iteration line is short; --verbose adds every weight.
grep -q "theta" "$tmp/out" && fail "weights on a default iteration line: $(head -1 "$tmp/out")" || ok
grep -qE '^iter 1/3 diff [-+][0-9.]+ mean diff [-+][0-9.]+$' "$tmp/out" && ok \
    || fail "iteration line: $(head -1 "$tmp/out")"
"$skyline" tune --game uptown --players 2 --bot heuristic --params "$tmp/spec.txt" --iterations 1 \
    --seed 1 --verbose --out "$tmp/utv.params" >"$tmp/out" 2>"$tmp/err"
grep -qE '^iter 1/1 diff [-+][0-9.]+ mean diff [-+][0-9.]+ theta join=[0-9.]+$' "$tmp/out" && ok \
    || fail "--verbose iteration line: $(cat "$tmp/out" "$tmp/err")"

printf 'w 1 0 2 0.1\nbad line\n' >"$tmp/bad.txt"
expect_error "bad spec line" "bad.txt:2:" "$skyline" tune --players 2 --bot heuristic --params "$tmp/bad.txt" --iterations 1 --seed 1 --out "$tmp/x"
printf 'no_such_weight 1 0 2 0.1\n' >"$tmp/unknown.txt"
expect_error "unknown weight" "unknown parameter 'no_such_weight'" "$skyline" tune --players 2 --bot heuristic --params "$tmp/unknown.txt" --iterations 1 --seed 1 --out "$tmp/x"
expect_error "random has no weights" "no heuristic weights" "$skyline" tune --players 2 --bot random --iterations 1 --seed 1 --out "$tmp/x"
expect_error "3 players need opponents" "against" "$skyline" tune --players 3 --bot heuristic --iterations 1 --seed 1 --out "$tmp/x"
expect_error "missing out" "--out" "$skyline" tune --players 2 --bot heuristic --iterations 1
expect_error "bad against" "unknown bot" "$skyline" tune --players 3 --bot heuristic --against frob --iterations 1 --seed 1 --out "$tmp/x"
expect_error "changed config" "different configuration" "$skyline" tune --game towerup --players 3 --bot heuristic --against random --iterations 6 --seed 5 --out "$tmp/parts.params"

# Extending a finished run: 10 iterations, then the same command with --iterations 20, ends
# exactly as 20 at once (the gains go on from k), log included. A log line past the
# checkpoint (written just before an interruption) and a cut-off last line are dropped.
ext=(--game uptown --players 2 --bot greedy --seed 3 --deals 1)
"$skyline" tune "${ext[@]}" --iterations 20 --out "$tmp/s20.params" >/dev/null 2>"$tmp/err" \
    || fail "20 at once: $(cat "$tmp/err")"
"$skyline" tune "${ext[@]}" --iterations 10 --out "$tmp/e20.params" >/dev/null 2>"$tmp/err" \
    || fail "first 10: $(cat "$tmp/err")"
sed -n 11p "$tmp/s20.params.log.jsonl" >>"$tmp/e20.params.log.jsonl"
printf '{"iteration":12,"the' >>"$tmp/e20.params.log.jsonl"
"$skyline" tune "${ext[@]}" --iterations 20 --out "$tmp/e20.params" >"$tmp/out" 2>"$tmp/err"
grep -q "extending .*e20.params.ckpt from 10 to 20 iterations" "$tmp/err" && ok \
    || fail "extend message: $(cat "$tmp/err")"
[ "$(grep -c '^iter ' "$tmp/out")" -eq 10 ] && ok || fail "extension ran $(grep -c '^iter ' "$tmp/out") iterations"
cmp -s "$tmp/s20.params" "$tmp/e20.params" && ok || fail "extended run differs from 20 at once"
cmp -s "$tmp/s20.params.log.jsonl" "$tmp/e20.params.log.jsonl" && ok || fail "extended log differs"
expect_error "shrinking a run" "at iteration 20, past --iterations 15" \
    "$skyline" tune "${ext[@]}" --iterations 15 --out "$tmp/e20.params"
echo "my notes" >"$tmp/n.params.log.jsonl"
expect_error "foreign log" "n.params.log.jsonl:1: not an iteration of skyline tune" \
    "$skyline" tune "${ext[@]}" --iterations 1 --out "$tmp/n.params"
[ "$(cat "$tmp/n.params.log.jsonl")" = "my notes" ] && ok || fail "foreign log changed"
rm "$tmp/n.params.log.jsonl"
# On a terminal (script(1) gives one, where installed) stderr shows progress with an ETA.
if command -v script >/dev/null 2>&1; then
    script -qec "'$skyline' tune ${ext[*]} --iterations 2 --out '$tmp/tty.params' >/dev/null" \
        /dev/null >"$tmp/tty.txt" 2>&1
    grep -q "tune: 2/2 iterations, .* elapsed, ETA" "$tmp/tty.txt" && ok \
        || fail "no progress on a terminal: $(head -c 300 "$tmp/tty.txt")"
fi

# --out onto a file tune did not write (a tournament's records) is refused and left as it was;
# its own parameter file from an earlier run is overwritten.
printf '{"game":"towerup","format":1,"tournament":{"config":"x","index":0}}\n' >"$tmp/records.jsonl"
cp "$tmp/records.jsonl" "$tmp/records.orig"
expect_error "out not a parameter file" "records.jsonl exists and is not a parameter file" \
    "$skyline" tune --players 2 --bot heuristic --iterations 1 --seed 1 --out "$tmp/records.jsonl"
cmp -s "$tmp/records.jsonl" "$tmp/records.orig" && ok || fail "refused --out file was changed"
[ ! -e "$tmp/records.jsonl.plus" ] && [ ! -e "$tmp/records.jsonl.ckpt" ] && ok \
    || fail "refused --out left theta files or a checkpoint"
echo "notes" >"$tmp/own.params.minus"
expect_error "out.minus not a parameter file" "own.params.minus exists" \
    "$skyline" tune --players 2 --bot heuristic --iterations 1 --seed 1 --out "$tmp/own.params"
cp "$tmp/straight.params" "$tmp/again.params"
"$skyline" tune --players 2 --bot heuristic --iterations 1 --seed 1 --out "$tmp/again.params" \
    >/dev/null 2>"$tmp/err" && ok || fail "own parameter file refused: $(cat "$tmp/err")"

# One run per --out: a second tune or a fit on the same FILE while one runs is refused with
# one line (hold_lock holds FILE.lock as a running tune does), and leaves nothing.
hold_lock() {
    python3 -c 'import fcntl, subprocess, sys
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
sys.exit(subprocess.call(sys.argv[2:]))' "$@"
}
quick=(--players 2 --bot heuristic --iterations 1 --seed 1)
expect_error "tune on a busy --out" "busy.params.lock' is in use by another running skyline" \
    hold_lock "$tmp/busy.params.lock" "$skyline" tune "${quick[@]}" --out "$tmp/busy.params"
[ "$(ls "$tmp" | grep -c '^busy.params')" -eq 1 ] && ok || fail "a refused tune left files: $(ls "$tmp" | grep busy)"
"$skyline" play --players 2 --bot greedy --games 2 --record "$tmp/fit.jsonl" >/dev/null 2>&1
expect_error "fit on a busy --out" "busyfit.params.lock' is in use by another running skyline" \
    hold_lock "$tmp/busyfit.params.lock" "$skyline" fit --players 2 --records "$tmp/fit.jsonl" --epochs 1 --out "$tmp/busyfit.params"
[ "$(ls "$tmp" | grep -c '^busyfit.params')" -eq 1 ] && ok || fail "a refused fit left files: $(ls "$tmp" | grep busyfit)"
# Two real runs: the second is refused while the first runs (checked when it still runs).
"$skyline" tune "${ext[@]}" --iterations 100000 --out "$tmp/two.params" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 3000); do
    [ -s "$tmp/two.params.log.jsonl" ] && break
    sleep 0.01
done
"$skyline" tune "${ext[@]}" --iterations 100000 --stop-after 1 --out "$tmp/two.params" >/dev/null 2>"$tmp/two.err"
second=$?
if kill -0 $pid 2>/dev/null; then
    [ $second -eq 2 ] && grep -q "in use by another running skyline" "$tmp/two.err" && ok ||
        fail "a second tune on a running one's --out: $second $(cat "$tmp/two.err")"
fi
kill $pid 2>/dev/null
wait $pid 2>/dev/null

# Everything is checked before the first game, and a refused run leaves no file it made:
# --out a folder, a foreign log, someone's FILE.html (left as it was); a later fit on the
# same --out finds nothing in its way.
mkdir "$tmp/dir.params"
expect_error "--out a folder" "dir.params exists and is not a regular file" \
    "$skyline" tune "${quick[@]}" --out "$tmp/dir.params"
[ -z "$(ls "$tmp" | grep '^dir.params.')" ] && ok || fail "a refused tune left: $(ls "$tmp" | grep '^dir.params.')"
[ -z "$(ls "$tmp" | grep '^n.params')" ] && ok || fail "a tune refused for a foreign log left: $(ls "$tmp" | grep '^n.params')"
echo "<p>my page</p>" >"$tmp/page.params.html"
expect_error "foreign page" "page.params.html exists and is not a page written by skyline" \
    "$skyline" tune "${quick[@]}" --out "$tmp/page.params"
[ "$(cat "$tmp/page.params.html")" = "<p>my page</p>" ] && ok || fail "foreign page changed"
[ "$(ls "$tmp" | grep -c '^page.params')" -eq 1 ] && ok || fail "a refused tune left: $(ls "$tmp" | grep '^page.params')"
"$skyline" fit --players 2 --records "$tmp/fit.jsonl" --epochs 1 --out "$tmp/n.params" >/dev/null 2>"$tmp/err" &&
    ok || fail "fit after a refused tune: $(cat "$tmp/err")"
# Our own page is rewritten; a finished run leaves no lock file.
"$skyline" tune "${quick[@]}" --out "$tmp/again.params" >/dev/null 2>"$tmp/err" && ok || fail "rerun: $(cat "$tmp/err")"
[ ! -e "$tmp/again.params.lock" ] && [ ! -e "$tmp/again.params.plus" ] && ok || fail "a finished tune left its lock or theta files"

finish test_tune
