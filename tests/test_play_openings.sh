# skyline play --openings FILE (arena/TOURNAMENT.md, "Openings"; README): game i plays
# opening i mod N of FILE (its deal and moves), the bots seeded from the game's own seed;
# records replay from the deal's start with opening_plies; bad suites are refused with one
# line before any file is touched; without --openings nothing changes.
# Usage: bash test_play_openings.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

printf '# two openings\nseed=5 4 4 3\n\nseed=7 1 2\n' >"$tmp/c4.txt"
r="$tmp/c4.jsonl"
"$skyline" play --game connect4 --bot random --games 5 --seed 10 --openings "$tmp/c4.txt" \
    --record "$r" >"$tmp/out" 2>"$tmp/err" || fail "play: $(cat "$tmp/err")"
[ "$(wc -l <"$r")" -eq 5 ] && ok || fail "$(wc -l <"$r") records"
# Game i: opening i mod 2 (its seed and first moves), named on its line.
bad=0
for i in 0 1 2 3 4; do
    line=$(sed -n "$((i + 1))p" "$r")
    if [ $((i % 2)) -eq 0 ]; then want='"seed":5,.*"moves":\["4","4","3"'; p=3; s=5
    else want='"seed":7,.*"moves":\["1","2"'; p=2; s=7; fi
    echo "$line" | grep -q "$want" && echo "$line" | grep -q "\"opening_plies\":$p" &&
        grep -q "^game $i seed $s opening $((i % 2)): " "$tmp/out" || bad=$((bad + 1))
done
[ $bad -eq 0 ] && ok || fail "$bad games without their opening: $(cat "$tmp/out")"
grep -q '^openings: 2, game i plays opening i mod 2$' "$tmp/out" && ok ||
    fail "summary: $(cat "$tmp/out")"
# One opening, other games: the bots are seeded by the game (10+i), not by the deal.
[ "$(sed -n 1p "$r" | grep -o '"moves":[^]]*')" != "$(sed -n 3p "$r" | grep -o '"moves":[^]]*')" ] &&
    ok || fail "games 0 and 2 are the same game"
"$skyline" replay "$r" >"$tmp/rep" 2>&1 && ok || fail "replay: $(tail -3 "$tmp/rep")"
# The same command writes the same records.
"$skyline" play --game connect4 --bot random --games 5 --seed 10 --openings "$tmp/c4.txt" \
    --record "$tmp/again.jsonl" --quiet >/dev/null 2>&1
cmp -s "$r" "$tmp/again.jsonl" && ok || fail "not deterministic"
# Without --openings: the games of before, lines without an opening.
"$skyline" play --game connect4 --bot random --games 2 --seed 10 >"$tmp/plain" 2>&1
grep -q '^game 1 seed 11: ' "$tmp/plain" && ! grep -q opening "$tmp/plain" && ok ||
    fail "plain play: $(cat "$tmp/plain")"

# A suite made by skyline openings, for Tower Up (hidden deal, set-up moves included).
"$skyline" openings --game towerup --players 2 --out "$tmp/tu.txt" --count 2 --plies 6 \
    --eval mcts:iters=50 --band 0.5 --seed 2 >/dev/null 2>"$tmp/err" ||
    fail "openings: $(cat "$tmp/err")"
"$skyline" play --game towerup --players 2 --bot random --games 2 --openings "$tmp/tu.txt" \
    --record "$tmp/tu.jsonl" --quiet >/dev/null 2>"$tmp/err" && ok ||
    fail "towerup play: $(cat "$tmp/err")"
first=$(grep -v '^#' "$tmp/tu.txt" | sed -n 1p)
seed=${first%% *}
moves=$(echo "$first" | cut -d' ' -f2- | sed 's/ /","/g')
sed -n 1p "$tmp/tu.jsonl" | grep -q "\"${seed%%=*}\":${seed#seed=},.*\"moves\":\[\"$moves\"" && ok ||
    fail "towerup opening 0 not played: $first / $(head -c 300 "$tmp/tu.jsonl")"
"$skyline" replay "$tmp/tu.jsonl" >/dev/null 2>&1 && ok || fail "towerup replay"

# Bad suites: one line naming the file and line; no record file made.
bad_suite() { # bad_suite WHAT CONTENT PATTERN
    printf "$2" >"$tmp/bad.txt"
    expect_error "$1" "$3" "$skyline" play --game connect4 --bot random --games 2 \
        --record "$tmp/never.jsonl" --openings "$tmp/bad.txt"
    [ ! -e "$tmp/never.jsonl" ] && ok || fail "$1: a file was written"
}
bad_suite "no seed" '4 4\n' 'bad.txt:1: expected seed=S'
bad_suite "bad move" '# c\nseed=1 4 9\n' "bad.txt:2: move 2 '9'"
bad_suite "over" 'seed=1 1 2 1 2 1 2 1\n' 'bad.txt:1: the game is over after its moves'
bad_suite "empty" '# nothing\n\n' 'holds no opening'
expect_error "missing suite" "cannot open openings file" \
    "$skyline" play --game connect4 --bot random --openings "$tmp/none.txt"
expect_error "no value" "--openings" "$skyline" play --game connect4 --openings

finish test_play_openings
