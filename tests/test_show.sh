#!/usr/bin/env bash
# skyline show: text diagrams of fixed positions of every game compared with snapshots in
# tests/data/show/ (a change to a diagram is a visible diff there; SKYLINE_UPDATE_SNAPSHOTS=1
# rewrites them), the readable move list, hidden information with --as, colour only on a
# terminal, and one-line errors on bad input.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"
data="$2/tests/data/show"

# snapshot NAME ARGS...: the output of skyline show ARGS equals data/NAME.txt.
snapshot() {
    local name=$1
    shift
    if ! "$skyline" show "$@" >"$tmp/$name.txt" 2>"$tmp/err"; then
        fail "show $*: $(cat "$tmp/err")"
        return
    fi
    if [ -n "${SKYLINE_UPDATE_SNAPSHOTS:-}" ]; then
        cp "$tmp/$name.txt" "$data/$name.txt"
    fi
    if diff -u "$data/$name.txt" "$tmp/$name.txt" >"$tmp/diff"; then
        ok
    else
        fail "show $* differs from $name.txt:"
        head -20 "$tmp/diff" >&2
    fi
}

tu="$data/towerup-3p.jsonl"
up3="$data/uptown-3p.jsonl"
up2="$data/uptown-2p.jsonl"
c4="$data/connect4.jsonl"

# Every game: a UTF-8 and an ASCII snapshot, and one as a player sees it.
snapshot towerup-ply40 "$tu" --ply 40
snapshot towerup-end-ascii "$tu" --ascii --no-list
snapshot towerup-as1-ascii "$tu" --ply 40 --as 1 --ascii --no-list
snapshot uptown3-ply20 "$up3" --ply 20
snapshot uptown3-as0-ascii "$up3" --ply 20 --as 0 --ascii --no-list
snapshot uptown2-ply30-ascii "$up2" --ply 30 --ascii
snapshot uptown2-end "$up2" --no-list
snapshot uptown-moves-ascii --game uptown --players 3 --seed 4 --ascii \
    --moves "A@A9 s7@G3 s9@H9 5@F5 5@I5 8@E8 1@C1 s1@A2 H@H4 6@G6 s2@A6 5@C5 4@D4 8@E8x"
snapshot towerup-moves --game towerup --players 2 --seed 9 --moves "P30K P7K P19K B20B^19 B25B^19 T3+KG T3+KKWW B0W^7 B29G^29"
if [ -f "$c4" ]; then
    snapshot connect4-ply9 "$c4" --ply 9
    snapshot connect4-end-ascii "$c4" --ascii
fi

# What a player does not see is not shown: other racks, pile and draw pile order.
"$skyline" show "$up3" --ply 20 --as 0 --no-list >"$tmp/as" 2>&1
[ "$(grep -c 'rack 5 tiles (hidden)' "$tmp/as")" -eq 2 ] && ok || fail "--as 0: two racks not hidden"
grep -q 'next first' "$tmp/as" && fail "--as 0 shows a pile's order" || ok
grep -qE 'colour 1  rack [^(]' "$tmp/as" && ok || fail "--as 0 hides the player's own rack"
"$skyline" show "$up3" --ply 20 --no-list >"$tmp/all" 2>&1
[ "$(grep -c 'next first' "$tmp/all")" -eq 3 ] && ok || fail "without --as the piles are not all shown"
"$skyline" show "$tu" --ply 40 --as 2 --no-list >"$tmp/as" 2>&1
grep -q 'Draw pile, top first' "$tmp/as" && fail "--as 2 shows the draw pile order" || ok
"$skyline" show "$tu" --ply 40 --no-list | grep -q 'Draw pile, top first' && ok ||
    fail "without --as the draw pile order is not shown"

# The move list: numbered, the mover (an extra turn: the same player moves again), the
# notation and what the move did.
"$skyline" show "$tu" --ply 40 >"$tmp/list" 2>&1
[ "$(grep -cE '^ +[0-9]+  P[1-4]  ' "$tmp/list")" -eq 40 ] && ok || fail "40 moves not listed"
extra=$(grep -n 'earns an extra turn' "$tmp/list" | head -1)
if [ -n "$extra" ]; then
    n=${extra%%:*}
    who=$(sed -n "${n}p" "$tmp/list" | awk '{print $2}')
    next=$(sed -n "$((n + 1))p" "$tmp/list" | awk '{print $2}')
    [ "$who" = "$next" ] && ok || fail "after an extra turn player $next moves, not $who"
else
    fail "no extra turn in the first 40 moves of $tu"
fi
grep -q '  37  P2  T2+KGW-B   takes market card 2 (GWK): +K +G +W, gives back 1 B$' \
    "$tmp/list" && ok || fail "take move 37 not described: $(grep '^  37 ' "$tmp/list")"
grep -qE 'builds a [a-z]+ floor on site [0-9]+, adds a floor to site' "$tmp/list" && ok ||
    fail "no build described"
"$skyline" show "$up3" --ply 14 | grep -q "plays 8 on E8, capturing P1's 8" && ok ||
    fail "Uptown capture not described"
"$skyline" show "$tu" --ply 0 | grep -q '^P2 to move: [0-9]* legal moves$' && ok ||
    fail "whose turn at ply 0"
"$skyline" show "$tu" | grep -q '^Game over. Ranks of P1-P3: 1 2 3; scores: 46 44 38$' && ok ||
    fail "game over line"

# One numbering: text and pictures name the players P1..PN (P1 is seat 0, as --as 0 and
# the records count): the text's "P<n> to move" is the SVG's, and no "player <digit>".
numbering() {
    "$skyline" show "$@" --svg "$tmp/pic.svg" >"$tmp/txt" 2>&1
    local text pic
    text=$(grep -o 'P[0-9] to move' "$tmp/txt" | tail -1)
    pic=$(grep -o 'P[0-9] to move' "$tmp/pic.svg" | head -1)
    [ -n "$text" ] && [ "$text" = "$pic" ] && ok || fail "show $*: text '$text', picture '$pic'"
    grep -qiE 'player [0-9]' "$tmp/txt" && fail "show $*: 'player <digit>' in the text" || ok
}
numbering "$tu" --ply 40 --as 1
numbering "$tu" --ply 3
numbering "$up3" --ply 20 --as 2
numbering "$up2" --ply 30
numbering "$c4" --ply 9
"$skyline" show "$c4" --ply 9 --as 1 | grep -q '^P2 to move: 7 legal moves$' && ok ||
    fail "show --as 1: the mover is not P2"

# Colour: on a terminal (script gives one), never when piped, as --color asks.
"$skyline" show "$up3" --no-list | grep -q $'\033\\[' && fail "colour escapes in a pipe" || ok
"$skyline" show "$up3" --no-list --color=always | grep -q $'\033\\[' && ok ||
    fail "--color=always gives no colour"
"$skyline" show "$up3" --no-list --color never --ascii | LC_ALL=C grep -q '[^ -~]' &&
    fail "--ascii output is not plain ASCII" || ok
if command -v script >/dev/null; then
    script -qec "'$skyline' show '$up3' --no-list" /dev/null </dev/null >"$tmp/tty" 2>&1
    grep -q $'\033\\[' "$tmp/tty" && ok || fail "no colour on a terminal"
    script -qec "NO_COLOR=1 '$skyline' show '$up3' --no-list" /dev/null </dev/null >"$tmp/tty" 2>&1
    grep -q $'\033\\[' "$tmp/tty" && fail "colour on a terminal with NO_COLOR" || ok
    script -qec "'$skyline' show '$up3' --no-list --color never" /dev/null </dev/null >"$tmp/tty" 2>&1
    grep -q $'\033\\[' "$tmp/tty" && fail "colour on a terminal with --color never" || ok
fi

# Bad input: one line on stderr, non-zero exit.
echo 'not json at all' >"$tmp/notjson.jsonl"
expect_error "a line that is not JSON" 'line 1 is not a game record' "$skyline" show "$tmp/notjson.jsonl"
echo '{"game":"towerup","players":3}' >"$tmp/norec.jsonl"
expect_error "JSON that is not a record" 'line 1 is not a game record' "$skyline" show "$tmp/norec.jsonl"
echo '[1,2]' >"$tmp/array.jsonl"
expect_error "a JSON array" 'not a game record' "$skyline" show "$tmp/array.jsonl"
echo '{"game":"chess","moves":[]}' >"$tmp/chess.jsonl"
expect_error "an unknown game" "unknown game 'chess'" "$skyline" show "$tmp/chess.jsonl"
sed 's/"moves":\["\([^"]*\)"/"moves":["T9"/' "$tu" >"$tmp/badmove.jsonl"
expect_error "an illegal move in a record" "move 0: move 'T9'" "$skyline" show "$tmp/badmove.jsonl"
expect_error "a ply beyond the game" '--ply 61 is beyond the game: .* has 60 moves' \
    "$skyline" show "$tu" --ply 61
expect_error "an index beyond the file" 'holds 1 game: there is no game --index 1' \
    "$skyline" show "$tu" --index 1
expect_error "an illegal move in --moves" "move 2 'Q9' is not legal here" \
    "$skyline" show --game uptown --players 3 --seed 4 --moves "A@A9 Q9"
expect_error "a move after the end" "comes after the end of the game" \
    "$skyline" show --game uptown --players 2 --seed 3 --moves \
    "$(sed 's/.*"moves":\[\([^]]*\)\].*/\1/; s/[",]/ /g' "$up2") 0:1@A1"
expect_error "--as beyond the players" '--as 3: the game has 3 players \(0 to 2\)' \
    "$skyline" show "$up3" --as 3
expect_error "--as not a number" '--as needs an integer' "$skyline" show "$up3" --as me
expect_error "--ply without a file" '--index and --ply need a record file' \
    "$skyline" show --game uptown --ply 3
expect_error "a file and --moves" 'not both' "$skyline" show "$up3" --moves "A@A9"
printf 'abc\0def\n' >"$tmp/nul.jsonl"
expect_error "a binary file" 'NUL byte' "$skyline" show "$tmp/nul.jsonl"
expect_error "a missing file" "cannot open record file" "$skyline" show "$tmp/none.jsonl"
expect_error "a bad --color" '--color needs auto, always or never' "$skyline" show "$up3" --color=sometimes
expect_error "an unknown option" "unknown option '--frobnicate'" "$skyline" show --frobnicate

finish test_show.sh
