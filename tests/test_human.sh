# The human seat of skyline play (bot spec human): scripted input through a pipe (moves by
# number and notation, help, moves, hint, bad input re-asked, undo, quit, end of input,
# the game saved with --record and replayed; Tower Up's two-step choice, card or site
# first, then how, with back), and the same seat in a real terminal under tmux, where each
# turn redraws the screen with the board on top.
# Usage: bash test_human.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

c4=(play --game connect4 --players 2 --seed 2)
# Moves by number and by notation, commands, bad input, then quit: a forfeit, recorded.
printf '1\nhelp\nfoo\n9\nmoves\nhint\n4\nundo\nquit\n' |
    "$skyline" "${c4[@]}" --bot human --bot random --record "$tmp/q.jsonl" >"$tmp/out" 2>"$tmp/err" &&
    ok || fail "quit: $(cat "$tmp/err")"
grep -q '^   1\. 1  *drops a stone in column 1' "$tmp/out" && ok || fail "numbered moves with words"
grep -q '^  | \. \. \. \. \. \. \. |' "$tmp/out" && ok || fail "no diagram"
grep -q '^P1> Type a number from the list' "$tmp/out" && ok || fail "help"
grep -q "'foo' is not a choice (1-7), a move or a command" "$tmp/out" && ok || fail "bad input"
grep -q 'no choice 9: the choices are numbered 1 to 7' "$tmp/out" && ok || fail "bad number"
grep -q '^P1> hint (mcts:iters=2000): [1-7] ' "$tmp/out" && ok || fail "hint"
grep -q 'undo is off: only against bots, and not in recorded games' "$tmp/out" && ok ||
    fail "undo in a recorded game"
grep -q '"moves":\["1","5","4","[1-7]"\],"forfeit":{"seat":0,"move":4,"reason":"quit","detail":"quit"}' \
    "$tmp/q.jsonl" && ok || fail "quit record: $(cat "$tmp/q.jsonl")"
"$skyline" replay "$tmp/q.jsonl" >/dev/null 2>&1 && ok || fail "quit record replays"
[ ! -s "$tmp/err" ] && ok || fail "stderr: $(cat "$tmp/err")"

# Undo without a record: back to the previous turn, the game goes on from there.
printf 'undo\n1\n2\nundo\n3\n' | "$skyline" "${c4[@]}" --bot human --bot random >"$tmp/out" 2>&1
grep -q 'nothing to undo: this is your first turn' "$tmp/out" && ok || fail "first-turn undo"
grep -q 'back to your turn at move 3' "$tmp/out" && ok || fail "undo: $(tail -5 "$tmp/out")"
grep -q '^Connect Four, 2 stones dropped' "$tmp/out" && ok || fail "undo: position shown again"
grep -q '(end of input: the game ends here)' "$tmp/out" && ok || fail "end of input"
# Two human seats: no undo.
printf '1\n1\nundo\n' | "$skyline" "${c4[@]}" --bot human >"$tmp/out" 2>&1
grep -q 'undo is off' "$tmp/out" && ok || fail "undo with two humans"

# A whole game by notation (Tower Up): --hint, a played move echoed, end of input saves it.
printf 'hint\n' | "$skyline" play --game towerup --players 2 --bot human --bot greedy --hint random \
    --record "$tmp/tu.jsonl" >"$tmp/out" 2>&1
grep -q '^P[12]> hint (random): ' "$tmp/out" && ok || fail "--hint: $(tail -3 "$tmp/out")"
grep -q '"reason":"quit","detail":"end of input"' "$tmp/tu.jsonl" && ok || fail "end of input record"
"$skyline" replay "$tmp/tu.jsonl" >/dev/null 2>&1 && ok || fail "end-of-input record replays"
# Tower Up's two-step choice (seed 3: P1 moves first after P2's set-up): a short first list
# of the cards and the sites, a card's ways numbered again, 0 and back return, bad numbers
# re-asked, a move in notation still accepted; no screen escapes in a pipe.
tu2=(play --game towerup --players 2 --seed 3 --bot human --bot greedy)
printf '2\n9\n0\n99\n2\nback\n2\n4\n' |
    "$skyline" "${tu2[@]}" --record "$tmp/tu2.jsonl" >"$tmp/out" 2>&1
grep -q '^  2\. take card 2 (\*:G2) +' "$tmp/out" && ok || fail "two-step: no card in the first list"
grep -qE '^ +[0-9]+\. build on site [0-9]+ \+' "$tmp/out" && ok || fail "two-step: no site in the first list"
first=$(awk '/^Your turn \(P1\)/ {n = 0; on = 1; next} on && /^P1/ {print n; exit} on {n++}' "$tmp/out")
[ -n "$first" ] && [ "$first" -le 12 ] && ok || fail "two-step: the first list has ${first:-no} lines"
grep -q 'take card 2 (\*:G2), P1: choose how (0: back to the first list):$' "$tmp/out" && ok ||
    fail "two-step: no second step"
grep -q ' 4\. T2+K  *+K; G marker +2 to 2$' "$tmp/out" && ok ||
    fail "two-step: the card's ways"
grep -q 'no choice 9: the choices are numbered 1 to 4 (0: back)' "$tmp/out" && ok || fail "two-step: bad way"
grep -q 'no choice 99: the choices are numbered 1 to 12$' "$tmp/out" && ok || fail "two-step: bad choice"
[ "$(grep -c 'Your turn (P1)' "$tmp/out")" -eq 4 ] && ok || fail "two-step: 0 and back return"
grep -q '"moves":\["P[0-9]*[KGWB]","P[0-9]*[KGWB]","P[0-9]*[KGWB]","T2+K",' "$tmp/tu2.jsonl" && ok ||
    fail "two-step: the move chosen: $(cut -c1-200 "$tmp/tu2.jsonl")"
grep -q $'\033' "$tmp/out" && fail "two-step: escapes in a pipe" || ok
printf 'T2+W\n' | "$skyline" "${tu2[@]}" --record "$tmp/tu3.jsonl" >/dev/null 2>&1
grep -q '"T2+W",' "$tmp/tu3.jsonl" && ok || fail "two-step: a move in notation"

expect_error "human in a tournament" "a human seat plays only in skyline play" \
    "$skyline" tournament --bot human --bot random --games 2 --out "$tmp/t.jsonl"
expect_error "bad hint" "--hint: unknown bot 'nobot'" "$skyline" play --bot human --hint nobot

# A real terminal: tmux runs play, keys go in, the screen comes out.
if command -v tmux >/dev/null; then
    sock="$tmp/tmux.sock"
    tmux -S "$sock" new-session -d -x 100 -y 50 \
        "$skyline ${c4[*]} --bot human --bot random --record $tmp/tty.jsonl; echo DONE; sleep 30"
    screen() { tmux -S "$sock" capture-pane -p; }
    wait_for() { # wait_for PATTERN: the screen shows it within 60 s
        for _ in $(seq 600); do screen | grep -q "$1" && return 0; sleep 0.1; done
        return 1
    }
    wait_for 'P1>' && ok || fail "tmux: no prompt: $(screen | tail -5)"
    tmux -S "$sock" send-keys 4 Enter
    wait_for 'P2 plays' && ok || fail "tmux: the bot did not answer: $(screen | tail -5)"
    tmux -S "$sock" send-keys nonsense Enter
    wait_for "'nonsense' is not a choice" && ok || fail "tmux: bad input"
    tmux -S "$sock" send-keys quit Enter
    wait_for DONE && ok || fail "tmux: play did not end: $(screen | tail -5)"
    grep -q '"reason":"quit"' "$tmp/tty.jsonl" && ok || fail "tmux: record"
    tmux -S "$sock" kill-server
    # Tower Up: the board stays on top of the screen at both steps of the choice.
    sock="$tmp/tmux2.sock"
    tmux -S "$sock" new-session -d -x 100 -y 50 \
        "$skyline ${tu2[*]} --record $tmp/tty2.jsonl; echo DONE; sleep 30"
    wait_for 'P1>' && ok || fail "tmux: no Tower Up prompt: $(screen | tail -5)"
    top_is_board() { # top_is_board STEP: the screen starts with the board, its map shown
        screen | head -1 | grep -q '^Tower Up, 2 players' && screen | grep -q 'City (board duo)' &&
            ok || fail "tmux: $1: the board is not on top: $(screen | head -3)"
    }
    top_is_board "first step"
    tmux -S "$sock" send-keys 2 Enter
    wait_for 'choose how' && ok || fail "tmux: no second step: $(screen | tail -5)"
    top_is_board "second step"
    screen | grep -q ' 4\. T2+K  *+K; G marker' && ok || fail "tmux: the card's ways are not on the screen"
    tmux -S "$sock" send-keys 4 Enter
    wait_for 'P2 plays' && ok || fail "tmux: the bot did not answer: $(screen | tail -5)"
    wait_for 'P1>' && top_is_board "next turn"
    tmux -S "$sock" send-keys quit Enter
    wait_for DONE && ok || fail "tmux: Tower Up play did not end: $(screen | tail -5)"
    grep -q '"T2+K",' "$tmp/tty2.jsonl" && ok || fail "tmux: Tower Up record"
    tmux -S "$sock" kill-server
else
    fail "tmux is not installed (scripts/bootstrap.sh installs it)"
fi

finish test_human
