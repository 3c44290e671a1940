#!/usr/bin/env bash
# The command-line contract (FORMATS.md §5): records from play --record-legal replay ok;
# every kind of bad input gives one line on stderr and a non-zero exit, never a crash.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"
src=$2



# Records of both games at every player count replay ok.
for spec in "towerup 2" "towerup 3" "towerup 4" "uptown 2" "uptown 3" "uptown 4" "uptown 5"; do
    set -- $spec
    rec="$tmp/$1-$2.jsonl"
    if "$skyline" play --game "$1" --players "$2" --seed 7 --games 5 --record "$rec" \
        --record-legal --quiet >/dev/null 2>"$tmp/err"; then ok; else fail "play $spec: $(cat "$tmp/err")"; fi
    [ "$(wc -l <"$rec")" -eq 5 ] && ok || fail "play $spec: $(wc -l <"$rec") records, not 5"
    grep -q '"legal_counts"' "$rec" && ok || fail "play $spec: no legal_counts"
    if "$skyline" replay "$rec" >"$tmp/out" 2>"$tmp/err" && [ "$(grep -c '^ok$' "$tmp/out")" -eq 5 ]; then
        ok
    else
        fail "replay $spec: $(head -3 "$tmp/out")"
    fi
done
# Tower Up variants replay ok too.
rec="$tmp/variants.jsonl"
"$skyline" play --players 3 --start-floors 7 --setup random --objectives random --games 3 \
    --record "$rec" --record-legal --quiet >/dev/null 2>&1 || fail "play with variants"
"$skyline" replay "$rec" >/dev/null 2>&1 && ok || fail "replay of variant games"

# A game seed gives the same record every time.
"$skyline" play --game uptown --players 3 --seed 11 --record "$tmp/a.jsonl" --quiet >/dev/null
"$skyline" play --game uptown --players 3 --seed 11 --record "$tmp/b.jsonl" --quiet >/dev/null
cmp -s "$tmp/a.jsonl" "$tmp/b.jsonl" && ok || fail "same seed, different records"

# A corrupted record is reported with the move index, and replay exits non-zero.
sed 's/"moves":\["\([^"]*\)"/"moves":["T9"/' "$tmp/towerup-3.jsonl" | head -1 >"$tmp/bad.jsonl"
"$skyline" replay "$tmp/bad.jsonl" >"$tmp/out" 2>/dev/null
[ $? -eq 1 ] && grep -q "move 0" "$tmp/out" && ok || fail "illegal move not reported: $(cat "$tmp/out")"
echo '{"game":"towerup",' >"$tmp/trunc.jsonl"
"$skyline" replay "$tmp/trunc.jsonl" >"$tmp/out" 2>/dev/null
[ $? -eq 1 ] && grep -q "line 1" "$tmp/out" && ok || fail "malformed JSON not reported"

# Bad input: one clear line and a non-zero exit.
expect_error "no command" "no command" "$skyline"
expect_error "unknown command" "unknown command" "$skyline" frobnicate
expect_error "unknown option" "unknown option" "$skyline" play --frob
expect_error "unknown game" "unknown game" "$skyline" play --game chess
expect_error "bad players" "players" "$skyline" play --players 5
expect_error "bad players uptown" "players" "$skyline" play --game uptown --players 1
expect_error "missing value" "needs a value" "$skyline" play --seed
expect_error "bad seed" "seed" "$skyline" play --seed -3
expect_error "unknown bot" "unknown bot" "$skyline" play --bot frob
expect_error "bad bot key" "unknown key" "$skyline" play --bot random:depth=3
expect_error "bad bot syntax" "key=value" "$skyline" play --bot random:depth
expect_error "bot count" "--bot" "$skyline" play --players 3 --bot random --bot random
expect_error "missing board" "board" "$skyline" play --board /nonexistent.board
expect_error "unknown board name" "huge: cannot open board file: .*\\(built-in boards: standard, duo\\)" \
    "$skyline" play --board huge
printf 'board x\narea 0 a grey\n' >"$tmp/short.board"
expect_error "malformed board" "short.board:[0-9]+:" "$skyline" play --board "$tmp/short.board"
printf 'board x\nfrob 1 2\n' >"$tmp/frob.board"
expect_error "unknown board record" "frob.board:2:" "$skyline" play --board "$tmp/frob.board"
expect_error "bad start floors" "start_floors '9': needs an integer from 3 to 7" "$skyline" play --start-floors 9
expect_error "bad objectives" "objective" "$skyline" play --objectives colors,park,frob
expect_error "replay missing file" "cannot open" "$skyline" replay "$tmp/none.jsonl"
expect_error "perft bad depth" "depth" "$skyline" perft --depth 0
expect_error "tower up option on uptown" "uptown has no options \\(given: board=duo\\)" "$skyline" play --game uptown --board duo

# perft prints one count per depth.
"$skyline" perft --game uptown --players 3 --seed 1 --depth 2 >"$tmp/out" 2>&1
[ "$(wc -l <"$tmp/out")" -eq 2 ] && ok || fail "perft output: $(cat "$tmp/out")"
# perft --time: a heading line names the columns, then one row of four per depth.
"$skyline" perft --game uptown --players 3 --seed 1 --depth 2 --time >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -qE '^ *depth +count +seconds +nodes/s$' && ok \
    || fail "perft --time heading: $(cat "$tmp/out")"
[ "$(awk 'NR > 1 && NF == 4' "$tmp/out" | wc -l)" -eq 2 ] && ok \
    || fail "perft --time rows: $(cat "$tmp/out")"

finish test_cli
