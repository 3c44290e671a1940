#!/usr/bin/env bash
# Files that skyline appends to are never damaged: play --record and quality --out drop a
# cut-off last line (no newline) instead of writing after it, a file that is not theirs is
# refused unchanged, and a file another process holds locked is refused before anything is
# read or cut; lines of any length are read whole.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

# hold_lock FILE COMMAND...: runs COMMAND while another process holds FILE's write lock
# (an fcntl lock, as a running tournament or play --record holds it).
hold_lock() {
    python3 -c 'import fcntl, subprocess, sys
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
sys.exit(subprocess.call(sys.argv[2:]))' "$@"
}

# 1. play --record onto a record cut short: the cut-off line is dropped with a note, the
#    new records replay ok, none is glued onto it.
play=(play --game uptown --players 3 --seed 4 --quiet)
"$skyline" "${play[@]}" --games 2 --record "$tmp/p.jsonl" >/dev/null
head -c 150 "$tmp/p.jsonl" >>"$tmp/p.jsonl"
"$skyline" "${play[@]}" --games 2 --record "$tmp/p.jsonl" >/dev/null 2>"$tmp/err" && ok ||
    fail "play after a cut-off record: $(cat "$tmp/err")"
grep -q "dropping a cut-off last record (150 bytes)" "$tmp/err" && ok || fail "no note: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/p.jsonl")" -eq 4 ] && ok || fail "$(wc -l <"$tmp/p.jsonl") records, not 4"
"$skyline" replay "$tmp/p.jsonl" >"$tmp/out" 2>&1 && [ "$(grep -c '^ok$' "$tmp/out")" -eq 4 ] && ok ||
    fail "records after a cut-off one do not replay: $(cat "$tmp/out")"
# Someone's text without final newline is refused and left as it was.
printf 'notes\nlast line' >"$tmp/notes.txt"
cp "$tmp/notes.txt" "$tmp/notes.orig"
expect_error "foreign cut line" "refusing to append" "$skyline" "${play[@]}" --record "$tmp/notes.txt"
cmp -s "$tmp/notes.txt" "$tmp/notes.orig" && ok || fail "play changed a foreign file"
# Someone's text with whole lines is not a record file either: refused, left as it was.
printf 'notes\nmore notes\n' >"$tmp/notes2.txt"
cp "$tmp/notes2.txt" "$tmp/notes2.orig"
expect_error "foreign text file" "notes2.txt:1: not a JSON record; refusing to append" "$skyline" "${play[@]}" --record "$tmp/notes2.txt"
cmp -s "$tmp/notes2.txt" "$tmp/notes2.orig" && ok || fail "play appended to a foreign text file"
# A last record whole but for its newline is a finished game: kept, with its newline.
"$skyline" "${play[@]}" --games 2 --record "$tmp/nl.jsonl" >/dev/null
head -c -1 "$tmp/nl.jsonl" >"$tmp/nl-cut.jsonl"
"$skyline" "${play[@]}" --games 1 --record "$tmp/nl-cut.jsonl" >/dev/null 2>"$tmp/err" && ok ||
    fail "play after a record without newline: $(cat "$tmp/err")"
grep -q "adding the missing newline after the last record" "$tmp/err" && ok || fail "no note: $(cat "$tmp/err")"
[ "$(head -2 "$tmp/nl-cut.jsonl")" = "$(cat "$tmp/nl.jsonl")" ] && ok || fail "the last whole record was not kept"
"$skyline" replay "$tmp/nl-cut.jsonl" >"$tmp/out" 2>&1 && [ "$(grep -c '^ok$' "$tmp/out")" -eq 3 ] && ok ||
    fail "3 records do not replay: $(cat "$tmp/out")"
# A record file in use is refused before it is read or cut.
cp "$tmp/p.jsonl" "$tmp/busy.jsonl"
printf '{"cut' >>"$tmp/busy.jsonl"
cp "$tmp/busy.jsonl" "$tmp/busy.orig"
expect_error "busy record file" "in use by another running skyline" hold_lock "$tmp/busy.jsonl" "$skyline" "${play[@]}" --record "$tmp/busy.jsonl"
cmp -s "$tmp/busy.jsonl" "$tmp/busy.orig" && ok || fail "play changed a file in use"
expect_error "directory as record file" "cannot open '.*' for appending" "$skyline" "${play[@]}" --record "$tmp"

# 2. tournament takes the lock before reading: a file in use that holds a bad record and a
#    cut-off line is refused as in use (not for its records) and left as it was.
tour=(tournament --game towerup --players 2 --bot random --bot greedy --seed 2 --games 4 --quiet)
printf 'garbage\n{"cut' >"$tmp/t.jsonl"
cp "$tmp/t.jsonl" "$tmp/t.orig"
expect_error "tournament on a busy file" "in use by another running skyline" hold_lock "$tmp/t.jsonl" "$skyline" "${tour[@]}" --out "$tmp/t.jsonl"
cmp -s "$tmp/t.jsonl" "$tmp/t.orig" && ok || fail "tournament changed a file in use"

# 3. quality --out: a last line whole but for its newline is redone, not appended to.
quality=(quality --game towerup --players 2 --ref mcts:iters=2000,prior=heuristic,cutoff=8,fpu=0.3
         --bot mcts:iters=100 --bot random --games 1 --every 8 --repeats 1 --seed 3 --quiet)
"$skyline" "${quality[@]}" --out "$tmp/q.jsonl" >/dev/null 2>&1
head -4 "$tmp/q.jsonl" | head -c -1 >"$tmp/qcut.jsonl"
"$skyline" "${quality[@]}" --out "$tmp/qcut.jsonl" >"$tmp/out" 2>&1 && ok || fail "quality resume: $(cat "$tmp/out")"
grep -q "2 positions resumed" "$tmp/out" && ok || fail "quality resume message: $(cat "$tmp/out")"
untimed() { sed 's/,"seconds":.*}$/}/' "$1"; }
[ "$(untimed "$tmp/q.jsonl")" = "$(untimed "$tmp/qcut.jsonl")" ] && ok ||
    fail "quality resumed after a line without newline differs from a straight run"

# 4. Lines longer than any fixed buffer: a tuning spec, a parameter file, a board, records.
c="# $(head -c 3000 /dev/zero | tr '\0' x)"
printf 'join 1 0 5 0.5 %s\n' "$c" >"$tmp/spec.txt"
printf '%s\nmarker 0.5 %s\n' "$c" "$c" >"$tmp/tu.params"
"$skyline" tune --game uptown --players 2 --bot heuristic --params "$tmp/spec.txt" --iterations 1 \
    --seed 1 --out "$tmp/ut.params" >/dev/null 2>"$tmp/err" && ok || fail "long spec line: $(cat "$tmp/err")"
"$skyline" play --game towerup --players 2 --bot heuristic:params="$tmp/tu.params" --quiet >/dev/null 2>"$tmp/err" &&
    ok || fail "long parameter file lines: $(cat "$tmp/err")"
{ head -1 "$2/core/towerup/boards/duo.board"; echo "$c"; tail -n +2 "$2/core/towerup/boards/duo.board"; echo "$c"; } >"$tmp/long.board"
"$skyline" play --game towerup --players 2 --board "$tmp/long.board" --quiet >/dev/null 2>"$tmp/err" &&
    ok || fail "long board lines: $(cat "$tmp/err")"

finish test_record_files
