# Start positions for tournaments (arena/TOURNAMENT.md, "Openings"): tournament --openings
# FILE plays block b from opening b mod N (its deal and moves) in every seat rotation,
# records say which opening each game used and replay from the start; resume and rate
# work; the hash covers the suite; bad suites are refused with one line. skyline openings
# makes a suite: deterministic from its seed, every line read back by --openings, and
# --band filters by the search's value.
# Usage: bash test_openings.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

# A hand-made suite for Connect Four (no chance: the seed fixes only the first seat).
printf '# two openings\nseed=5 4 4 3\n\n  seed=7 1 2\n' >"$tmp/c4.txt"
t="$tmp/c4.jsonl"
"$skyline" tournament --game connect4 --bot random --bot mcts:iters=50 --games 8 --out "$t" \
    --openings "$tmp/c4.txt" --quiet >"$tmp/out" 2>"$tmp/err" || fail "c4: $(cat "$tmp/err")"
[ "$(wc -l <"$t")" -eq 8 ] && ok || fail "c4: $(wc -l <"$t") records"
# Block b (games 2b, 2b+1) plays opening b mod 2: its seed and first moves, both seatings.
bad=0
for i in 0 1 2 3 4 5 6 7; do
    line=$(grep "\"index\":$i," "$t")
    o=$(((i / 2) % 2))
    if [ $o -eq 0 ]; then want='"seed":5,.*"moves":\["4","4","3"'; else want='"seed":7,.*"moves":\["1","2"'; fi
    echo "$line" | grep -q "$want" && echo "$line" | grep -q "\"opening\":$o}" || bad=$((bad + 1))
done
[ $bad -eq 0 ] && ok || fail "c4: $bad games without their opening: $(head -3 "$t")"
# Both seatings of a block: the same opening, the bots swapped.
a=$(grep '"index":0,' "$t" | grep -o '"seats":\[[^]]*\]')
b=$(grep '"index":1,' "$t" | grep -o '"seats":\[[^]]*\]')
{ [ "$a" = '"seats":["mcts:iters=50","random"]' ] && [ "$b" = '"seats":["random","mcts:iters=50"]' ]; } ||
    { [ "$b" = '"seats":["mcts:iters=50","random"]' ] && [ "$a" = '"seats":["random","mcts:iters=50"]' ]; } &&
    ok || fail "c4: seats of block 0: $a / $b"
grep -q '"opening_plies":3' "$t" && grep -q '"opening_plies":2' "$t" && ok ||
    fail "c4: no opening_plies"
grep -q '^openings: 2, block b plays opening b mod 2' "$tmp/out" && ok ||
    fail "c4: summary: $(cat "$tmp/out")"
"$skyline" replay "$t" >"$tmp/out" 2>&1 && ok || fail "c4: replay: $(tail -3 "$tmp/out")"
"$skyline" rate "$t" >/dev/null 2>"$tmp/err" && ok || fail "c4: rate: $(cat "$tmp/err")"
"$skyline" show "$t" --ply 3 >/dev/null 2>"$tmp/err" && ok || fail "c4: show: $(cat "$tmp/err")"
# Resume: the same suite plays only the new games; another suite, or none, is refused.
"$skyline" tournament --game connect4 --bot random --bot mcts:iters=50 --games 12 --out "$t" \
    --openings "$tmp/c4.txt" --quiet >"$tmp/out" 2>"$tmp/err" &&
    grep -q '(8 resumed, 4 played' "$tmp/out" && ok || fail "c4 resume: $(cat "$tmp/out" "$tmp/err")"
printf 'seed=5 4 4 3\nseed=7 1 3\n' >"$tmp/c4b.txt"
expect_error "other suite" "another tournament configuration" \
    "$skyline" tournament --game connect4 --bot random --bot mcts:iters=50 --games 12 \
    --out "$t" --openings "$tmp/c4b.txt" --quiet
expect_error "no suite" "another tournament configuration" \
    "$skyline" tournament --game connect4 --bot random --bot mcts:iters=50 --games 12 \
    --out "$t" --quiet

# Bad suites: one line naming the file and line, nothing written.
bad_suite() { # bad_suite WHAT CONTENT PATTERN
    printf "$2" >"$tmp/bad.txt"
    expect_error "$1" "$3" "$skyline" tournament --game connect4 --bot random --bot mcts:iters=10 \
        --games 2 --out "$tmp/never.jsonl" --openings "$tmp/bad.txt"
    [ ! -e "$tmp/never.jsonl" ] && ok || fail "$1: a file was written"
}
bad_suite "no seed" '4 4\n' 'bad.txt:1: expected seed=S'
bad_suite "bad seed" 'seed=-1 4\n' 'bad.txt:1: expected seed=S'
bad_suite "bad move" '# c\nseed=1 4 9\n' "bad.txt:2: move 2 '9'"
bad_suite "full column" 'seed=1 4 4 4 4 4 4 4\n' "bad.txt:1: move 7 '4'"
bad_suite "over" 'seed=1 1 2 1 2 1 2 1\n' 'bad.txt:1: the game is over after its moves'
bad_suite "empty" '# nothing\n\n' 'holds no opening'
expect_error "missing suite" "cannot open openings file" \
    "$skyline" tournament --game connect4 --bot random --bot mcts:iters=10 --games 2 \
    --out "$tmp/never.jsonl" --openings "$tmp/none.txt"

# skyline openings: deterministic, read back by --openings, filtered by --band.
"$skyline" openings --game connect4 --out "$tmp/o1.txt" --count 4 --plies 3 \
    --eval mcts:iters=300 --seed 3 >/dev/null 2>"$tmp/err" || fail "openings: $(cat "$tmp/err")"
"$skyline" openings --game connect4 --out "$tmp/o2.txt" --count 4 --plies 3 \
    --eval mcts:iters=300 --seed 3 >/dev/null 2>&1
cmp -s "$tmp/o1.txt" "$tmp/o2.txt" && ok || fail "openings: not deterministic"
[ "$(grep -c '^seed=[0-9]* [1-7] [1-7] [1-7]$' "$tmp/o1.txt")" -eq 4 ] && ok ||
    fail "openings: $(cat "$tmp/o1.txt")"
"$skyline" tournament --game connect4 --bot random --bot mcts:iters=50 --games 8 \
    --out "$tmp/o.jsonl" --openings "$tmp/o1.txt" --quiet >/dev/null 2>"$tmp/err" && ok ||
    fail "openings read back: $(cat "$tmp/err")"
# Tower Up, 3 players: set-up and hidden cards come from each opening's deal.
"$skyline" openings --game towerup --players 3 --out "$tmp/tu.txt" --count 2 --plies 5 \
    --eval mcts:iters=100 --band 0.5 >/dev/null 2>"$tmp/err" || fail "tu openings: $(cat "$tmp/err")"
"$skyline" tournament --game towerup --players 3 --bot random --bot mcts:iters=10 --bot heuristic \
    --games 6 --out "$tmp/tu.jsonl" --openings "$tmp/tu.txt" --quiet >/dev/null 2>"$tmp/err" &&
    "$skyline" replay "$tmp/tu.jsonl" >/dev/null 2>&1 && ok || fail "tu: $(cat "$tmp/err")"
# --band 0 keeps nothing in a few tries: refused, no file left.
expect_error "band 0" "only 0 of 3 openings within 0.5 \+- 0 after 2 deals" \
    "$skyline" openings --game connect4 --out "$tmp/o3.txt" --count 3 --band 0 --tries 2 \
    --eval mcts:iters=100
[ ! -e "$tmp/o3.txt" ] && ok || fail "band 0 left a file"
expect_error "existing out" "the file exists" "$skyline" openings --game connect4 --out "$tmp/o1.txt"
expect_error "no out" "needs --out" "$skyline" openings --game connect4
expect_error "bad band" "--band needs a number" "$skyline" openings --game connect4 --out "$tmp/o4.txt" --band 2
expect_error "eval not a search" "not a search that reports its values" \
    "$skyline" openings --game connect4 --out "$tmp/o5.txt" --eval random --count 1
"$skyline" openings --help | grep -q -- '--plies K' && ok || fail "openings --help"

finish test_openings
