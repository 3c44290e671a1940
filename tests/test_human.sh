# The human seat of skyline play (bot spec human): scripted input through a pipe (moves by
# number and notation, help, moves, hint, bad input re-asked, undo, quit, end of input,
# the game saved with --record and replayed), and the same seat in a real terminal under
# tmux.
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
grep -q '^P1> Type a move' "$tmp/out" && ok || fail "help"
grep -q "'foo' is not a move number (1-7), a move or a command" "$tmp/out" && ok || fail "bad input"
grep -q 'no move 9: the moves are numbered 1 to 7' "$tmp/out" && ok || fail "bad number"
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
expect_error "human in a tournament" "a human seat plays only in skyline play" \
    "$skyline" tournament --bot human --bot random --games 2 --out "$tmp/t.jsonl"
expect_error "bad hint" "--hint: unknown bot 'nobot'" "$skyline" play --bot human --hint nobot

# A real terminal: tmux runs play, keys go in, the screen comes out.
if command -v tmux >/dev/null; then
    sock="$tmp/tmux.sock"
    tmux -S "$sock" new-session -d -x 100 -y 50 \
        "$skyline ${c4[*]} --bot human --bot random --record $tmp/tty.jsonl; echo DONE; sleep 30"
    screen() { tmux -S "$sock" capture-pane -p; }
    wait_for() { # wait_for PATTERN: the screen shows it within 10 s
        for _ in $(seq 100); do screen | grep -q "$1" && return 0; sleep 0.1; done
        return 1
    }
    wait_for 'P1>' && ok || fail "tmux: no prompt: $(screen | tail -5)"
    tmux -S "$sock" send-keys 4 Enter
    wait_for 'P2 plays' && ok || fail "tmux: the bot did not answer: $(screen | tail -5)"
    tmux -S "$sock" send-keys nonsense Enter
    wait_for "'nonsense' is not a move number" && ok || fail "tmux: bad input"
    tmux -S "$sock" send-keys quit Enter
    wait_for DONE && ok || fail "tmux: play did not end: $(screen | tail -5)"
    grep -q '"reason":"quit"' "$tmp/tty.jsonl" && ok || fail "tmux: record"
    tmux -S "$sock" kill-server
else
    fail "tmux is not installed (scripts/bootstrap.sh installs it)"
fi

finish test_human
