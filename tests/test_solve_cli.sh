#!/usr/bin/env bash
# skyline solve (cli/cmd_solve.c): values and value-keeping moves of positions of random
# play against the solver's own answers text and JSON, the accuracy measure (a fixed set
# of positions, the same figures on every run, --out's lines solved again one by one), and
# every refusal with one line and exit 2.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

# A position where player 0 (to move) has three in column 1: a win, column 1 among the
# moves that keep it.
pos="connect4 ......./......./......./0....../01...../011.... 0"
out=$("$skyline" solve --position "$pos" --json) || fail "solve --json: $out"
python3 - "$out" <<'PY' && ok || fail "solve --json: $out"
import json, sys
o = json.loads(sys.argv[1])
assert o["value"] == 1 and "1" in o["moves"] and o["nodes"] >= 1, o
PY
text=$("$skyline" solve --position "$pos") || fail "solve: $text"
grep -q "a win for the player to move (value 1)" <<<"$text" && ok || fail "solve text: $text"

# The accuracy measure: fixed positions, the same counts on every run; --out's lines say
# what solve --position says of each.
a1=$("$skyline" solve --accuracy 30 --bot random --bot mcts:iters=300 --seed 5 --stones 14-30 \
    --out "$tmp/set.jsonl" --json) || fail "accuracy: $a1"
a2=$("$skyline" solve --accuracy 30 --bot random --bot mcts:iters=300 --seed 5 --stones 14-30 \
    --json) || fail "accuracy again: $a2"
python3 - "$a1" "$a2" "$tmp/set.jsonl" "$skyline" <<'PY' && ok || fail "accuracy: $a1"
import json, subprocess, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
drop = lambda o: {k: v for k, v in o.items() if k != "seconds"}
assert drop(a) == drop(b), (a, b)
assert a["positions"] == 30 and 0 < a["nontrivial"] <= 30 and a["stones"] == [14, 30]
rnd, mcts = a["bots"]
assert rnd["spec"] == "random" and mcts["spec"] == "mcts:iters=300"
assert mcts["kept"] >= rnd["kept"], a
assert rnd["ci95"][0] <= rnd["share"] <= rnd["ci95"][1]
lines = open(sys.argv[3]).read().splitlines()
assert len(lines) == 30
for line in lines[:10]:
    rec = json.loads(line)
    stones = sum(c in "01" for c in rec["position"].split()[1])
    assert 14 <= stones <= 30, rec
    got = json.loads(subprocess.run([sys.argv[4], "solve", "--position", rec["position"],
                                     "--json"], capture_output=True, text=True, check=True).stdout)
    assert got["value"] == rec["value"] and got["moves"] == rec["moves"], (rec, got)
PY

# Refusals: one line, exit 2.
expect_error "no position" "solve needs --position TEXT or --accuracy N" "$skyline" solve
expect_error "both" "not both" "$skyline" solve --position "$pos" --accuracy 3 --bot random
expect_error "a game without a solver" "towerup has no solver \\(games with one: connect4\\)" \
    "$skyline" solve --accuracy 2 --bot random --game towerup
expect_error "a finished game" "the game is over" \
    "$skyline" solve --position "connect4 ......./......./0....../0....../01...../011.... 1"
expect_error "bad stones" "--stones: '30-8' needs 0 <= MIN <= MAX" \
    "$skyline" solve --accuracy 2 --bot random --stones 30-8
expect_error "stones not a range" "is not MIN-MAX" "$skyline" solve --accuracy 2 --bot random --stones 8
expect_error "accuracy without a bot" "needs at least one --bot" "$skyline" solve --accuracy 2
expect_error "a bad bot" "--bot: " "$skyline" solve --accuracy 2 --bot mcst
expect_error "bot with --position" "takes no --bot" "$skyline" solve --position "$pos" --bot random
expect_error "unknown option" "unknown option '--depth'" "$skyline" solve --depth 3
expect_error "accuracy out of range" "--accuracy" "$skyline" solve --accuracy 0 --bot random
expect_error "unwritable --out" "cannot write" \
    "$skyline" solve --accuracy 2 --bot random --out "$tmp/no/such/dir/x.jsonl"
expect_error "a bad position" "--position: " "$skyline" solve --position "connect4 nonsense 0"
"$skyline" solve --help | grep -q "Games with a solver: connect4." && ok || fail "solve --help"
finish test_solve_cli
