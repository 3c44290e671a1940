#!/usr/bin/env bash
# Bad input of every kind (issue 18): records missing a field or ending at the wrong move,
# directories, NUL and control bytes, raw binary, names of valid values. Each gets one
# printable line that names the problem, and a non-zero exit.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

# expect_printable DESCRIPTION: the last stderr and stdout hold no control byte and no
# byte above 0x7f (the tests quote no UTF-8).
expect_printable() {
    if LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f-\xff]' "$tmp/err" "$tmp/out"; then
        fail "$1: a control byte in the message: $(od -c "$tmp/err" | head -3)"
    else
        ok
    fi
}

# expect_replay DESCRIPTION PATTERN FILE: replay exits 1 and says PATTERN on its line.
expect_replay() {
    "$skyline" replay "$3" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -ne 1 ]; then
        fail "$1: replay exit status $rc: $(cat "$tmp/out" "$tmp/err")"
    elif [ "$(wc -l <"$tmp/out")" -ne 1 ] || ! grep -qE -- "$2" "$tmp/out"; then
        fail "$1: replay said '$(cat "$tmp/out")', not '$2'"
    else
        ok
    fi
}

# One finished game of each game, and copies each with one thing changed.
for game in towerup uptown; do
    "$skyline" play --game $game --players 3 --seed 5 --record "$tmp/$game.jsonl" --quiet \
        >/dev/null 2>&1 || fail "play $game"
    "$skyline" replay "$tmp/$game.jsonl" >/dev/null 2>&1 && ok || fail "replay $game"
    rec=$(cat "$tmp/$game.jsonl")
    moves=$(echo "$rec" | grep -o '"moves":\[[^]]*\]')
    count=$(echo "$moves" | grep -o '","' | wc -l)   # the moves minus one: the last index
    last=$(echo "$moves" | grep -o '"[^",]*"\]$' | tr -d '"]')
    last_re=$(printf '%s' "$last" | sed 's/[]^$.*[+\\()]/\\&/g')   # as a regex

    echo "$rec" | sed 's/,"result":{[^}]*}//' >"$tmp/bad.jsonl"
    expect_replay "$game without result" 'result' "$tmp/bad.jsonl"
    echo "$rec" | sed 's/"seats":\["\([^"]*\)",/"seats":[/' >"$tmp/bad.jsonl"
    expect_replay "$game with 2 seats for 3 players" 'seats' "$tmp/bad.jsonl"
    echo "$rec" | sed 's/"seed":[0-9]*/"seed":-1/' >"$tmp/bad.jsonl"
    expect_replay "$game with seed -1" 'seed' "$tmp/bad.jsonl"
    echo "$rec" | sed 's/"format":1/"format":"1"/' >"$tmp/bad.jsonl"
    expect_replay "$game with a text format" 'format' "$tmp/bad.jsonl"
    # One move too few: the record ends before the game; one too many: after it.
    echo "$rec" | sed 's/,"[^",]*"\],"legal_counts"/],"legal_counts"/; s/,"[^",]*"\],"result"/],"result"/' >"$tmp/bad.jsonl"
    expect_replay "$game ending a move early" "end with move $((count - 1)), before the game is over" "$tmp/bad.jsonl"
    echo "$rec" | sed 's/\],"result"/,"'"$last"'"],"result"/' >"$tmp/bad.jsonl"
    expect_replay "$game going on after the end" "move $((count + 1)) \\($last_re\\): the game ended with move $count," "$tmp/bad.jsonl"
    # A move of raw control characters is quoted escaped.
    echo "$rec" | sed 's/"moves":\["[^"]*"/"moves":["\\u0010\\u0001zz"/' >"$tmp/bad.jsonl"
    expect_replay "$game move with control characters" "move 0: move '\\\\x10\\\\x01zz'" "$tmp/bad.jsonl"
    expect_printable "$game move with control characters"
done

# Record files: a directory, a whitespace-only line, a NUL byte, raw binary.
expect_error "replay of a directory" "is a directory, not a record file" "$skyline" replay "$tmp"
{ cat "$tmp/towerup.jsonl"; printf '  \t \n'; } >"$tmp/ws.jsonl"
"$skyline" replay "$tmp/ws.jsonl" >"$tmp/out" 2>/dev/null
[ $? -eq 1 ] && grep -q '^line 2: a line of only whitespace' "$tmp/out" && ok ||
    fail "whitespace line: $(cat "$tmp/out")"
printf '{"game":\0"towerup"}\n' >"$tmp/nul.jsonl"
expect_replay "record with a NUL byte" '^line 1: a NUL byte at column 9' "$tmp/nul.jsonl"
printf '\x80\xff{\x00\x01\x7f\n\xc3\x28\xed\xa0\x80\x10\n\x10\x01\xff\xfe\x1b[31m\n' >"$tmp/raw.bin"
"$skyline" replay "$tmp/raw.bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] && ok || fail "binary record file: exit status $rc"
expect_printable "binary record file"

# Board files: a directory, a control byte, a NUL byte, binary tokens.
expect_error "board is a directory" "is a directory, not a board file" "$skyline" play --board "$tmp"
printf 'board x\narea 0 a\x10b grey\n' >"$tmp/ctl.board"
expect_error "board with 0x10" "ctl.board:2: control byte 0x10 at column 9" "$skyline" play --board "$tmp/ctl.board"
printf 'board x\n\narea\0\n' >"$tmp/nul.board"
expect_error "board with NUL" "nul.board:3: a NUL byte" "$skyline" play --board "$tmp/nul.board"
printf 'board x\nfrob\xff\xfe 1\n' >"$tmp/bin.board"
expect_error "board with binary" "unknown record 'frob.xff.xfe'" "$skyline" play --board "$tmp/bin.board"
expect_printable "board with binary"

# Parameter files: a directory, NUL and 0x10 bytes, binary names.
expect_error "parameter file is a directory" "is a directory, not a parameter file" \
    "$skyline" play --bot "heuristic:params=$tmp"
printf 'marker 1\x10\n' >"$tmp/ctl.params"
expect_error "parameter file with 0x10" "ctl.params:1: control byte 0x10 at column 9" \
    "$skyline" play --bot "heuristic:params=$tmp/ctl.params"
printf 'height 0.2\nmarker\0 1\n' >"$tmp/nul.params"
expect_error "parameter file with NUL" "nul.params:2: control byte 0x00 at column 7" \
    "$skyline" play --bot "heuristic:params=$tmp/nul.params"
printf 'frob\xff\xfe 1\n' >"$tmp/bin.params"
expect_error "parameter file with binary" "unknown parameter 'frob.xff.xfe'" \
    "$skyline" play --bot "heuristic:params=$tmp/bin.params"
expect_printable "parameter file with binary"

# Bot specs and option values: control bytes refused, binary escaped, long text cut.
expect_error "bot spec with 0x10" "bot spec 'rand.x10om' holds a control character" \
    "$skyline" play --bot $'rand\x10om'
expect_error "bot value in binary" "bad value '.xff'" "$skyline" play --bot $'mcts:iters=\xff'
expect_printable "bot value in binary"
long=$(printf 'x%.0s' {1..300})
expect_error "long bot spec" "^skyline: bot spec 'mcts:x{30,60}\.\.\.' is too long" "$skyline" play --bot "mcts:$long"
expect_error "binary game name" "unknown game '.x1b\[31m'" "$skyline" play --game $'\x1b[31m'
expect_printable "binary game name"
expect_error "long option value" "^.{0,200}$" "$skyline" play --players "$long"

# Messages name the valid values.
expect_error "towerup players" "players for towerup needs an integer from 2 to 4, not '9'" \
    "$skyline" play --players 9
expect_error "uptown players" "players for uptown needs an integer from 2 to 5, not '9'" \
    "$skyline" play --game uptown --players 9
expect_error "players before game" "from 2 to 5, not '6'" "$skyline" play --players 6 --game uptown
expect_error "first player" "first-player needs an integer from 0 to 1" \
    "$skyline" play --players 2 --first-player 2
expect_error "unknown objective" \
    "unknown objective 'towers' \(the ids: colors,park,areas,lake,connected,brown,grey,borders,doubles,heights\)" \
    "$skyline" play --objectives colors,towers,park
expect_error "unknown heuristic weight" \
    "unknown key 'w_frob' \(.*weights: marker extra_turn .* place_open\)" \
    "$skyline" play --bot heuristic:w_frob=1
expect_error "unknown uptown weight" "weights: join isolated .* eval_capture\)" \
    "$skyline" play --game uptown --bot heuristic:w_frob=1
expect_error "unknown bot kind" "unknown bot 'frob' \(known: random greedy heuristic mcts[a-z ]*\)" \
    "$skyline" play --bot frob
expect_error "unknown game" "unknown game 'chess' \(towerup, uptown" "$skyline" play --game chess
expect_error "seed beyond a record's range" "seed needs an integer from 0 to 9223372036854775807" \
    "$skyline" play --seed 9223372036854775808

finish test_input.sh
