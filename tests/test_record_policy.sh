#!/usr/bin/env bash
# skyline generate --record-policy: every searched move's visits per action id and root
# value per seat in the record's "policy" list (docs/NETS.md, Training data). The visits
# sum to the search's iterations (tree reuse off), the ids are legal at that ply (checked
# with skyline.from_record), the games are the same as without the flag, and the records
# replay, show, fit and view like records without the field.
set -u
skyline=$1 src=$2
source "$src/tests/cli_lib.sh"
build=$(dirname "$skyline")
export PYTHONPATH="$src/python" SKYLINE_LIB="$build/libskyline.so"
# The Python checks load libskyline.so: not in sanitizer builds (the interpreter would need
# the sanitizer runtime preloaded).
python_checks() {
    if grep -q '^sanitize=.' "$build/skyline-build.txt" 2>/dev/null; then
        cat >/dev/null
        return 0
    fi
    python3 - "$@"
}

c4=(--game connect4 --players 2 --games 3 --seed 5 --quiet)
"$skyline" generate "${c4[@]}" --bot mcts:iters=60,reuse=0 --out "$tmp/c4.jsonl" \
    --record-policy >"$tmp/out" 2>"$tmp/err" && ok || fail "generate c4: $(cat "$tmp/err")"
"$skyline" generate "${c4[@]}" --bot mcts:iters=60,reuse=0 --out "$tmp/c4-plain.jsonl" \
    >"$tmp/out" 2>"$tmp/err" && ok || fail "generate c4 plain: $(cat "$tmp/err")"
tu=(--game towerup --players 3 --games 1 --seed 2 --quiet --record-policy)
"$skyline" generate "${tu[@]}" --bot mcts:iters=40 --out "$tmp/tu.jsonl" >"$tmp/out" \
    2>"$tmp/err" && ok || fail "generate towerup: $(cat "$tmp/err")"
"$skyline" generate "${tu[@]}" --bot pimc:dets=2,iters=20 --out "$tmp/tu-pimc.jsonl" \
    >"$tmp/out" 2>"$tmp/err" && ok || fail "generate pimc: $(cat "$tmp/err")"
"$skyline" generate "${tu[@]}" --bot heuristic --out "$tmp/tu-heur.jsonl" >"$tmp/out" \
    2>"$tmp/err" && ok || fail "generate heuristic: $(cat "$tmp/err")"

# The field, checked against the engine's replay of each ply.
python_checks "$tmp" <<'EOF' && ok || fail "policy field contents"
import json, sys
import skyline

tmp = sys.argv[1]


def recs(name):
    return sorted(skyline.read_records("%s/%s" % (tmp, name)), key=lambda r: r["seed"])


def check(rec, exact, searched=True):
    pol = rec["policy"]
    assert len(pol) == len(rec["moves"]), (len(pol), len(rec["moves"]))
    entries = 0
    for ply, e in enumerate(pol):
        state = skyline.from_record(rec, ply)
        legal = state.legal_actions()
        if e is None:
            assert not searched or len(legal) == 1, (ply, len(legal))
            continue
        entries += 1
        assert sorted(e) == ["ids", "iters", "value_pm", "visits"], sorted(e)
        ids, visits = e["ids"], e["visits"]
        assert ids == sorted(set(ids)) and len(ids) == len(visits) > 0, ids
        assert set(ids) <= set(legal), (ply, set(ids) - set(legal))
        assert all(v > 0 for v in visits), visits
        assert sum(visits) == e["iters"] if exact else sum(visits) >= e["iters"], (ply, e)
        value = e["value_pm"]
        assert len(value) == rec["players"] and all(0 <= v <= 1000 for v in value), value
        # Results per seat sum to players / 2 (RULES.md 1.10); thousandths round.
        assert abs(sum(value) - 500 * rec["players"]) <= rec["players"], value
        # The chosen move was searched.
        assert state.move_to_action(rec["moves"][ply]) in ids, ply
    assert entries > 0 if searched else entries == 0, entries


for r in recs("c4.jsonl"):
    check(r, exact=True)
    assert r["policy"][0]["iters"] == 60
check(recs("tu.jsonl")[0], exact=False)
check(recs("tu-pimc.jsonl")[0], exact=False)
check(recs("tu-heur.jsonl")[0], exact=False, searched=False)
# The flag records; it does not change the games.
plain = recs("c4-plain.jsonl")
for r, p in zip(recs("c4.jsonl"), plain):
    assert "policy" not in p
    del r["policy"]
    assert r == p, (r, p)
EOF

# Records with the field replay, show, fit (Tower Up: Connect Four has no heuristic to fit)
# and view; so do records without it.
for f in c4.jsonl c4-plain.jsonl tu.jsonl tu-pimc.jsonl; do
    "$skyline" replay "$tmp/$f" >"$tmp/out" 2>&1 && ok || fail "replay $f: $(tail -2 "$tmp/out")"
    "$skyline" show "$tmp/$f" --ply 3 >"$tmp/out" 2>&1 && ok || fail "show $f: $(tail -2 "$tmp/out")"
    "$skyline" replay "$tmp/$f" --html "$tmp/$f.html" >"$tmp/out" 2>&1 && [ -s "$tmp/$f.html" ] \
        && ok || fail "viewer $f: $(tail -2 "$tmp/out")"
done
"$skyline" fit --game towerup --players 3 --records "$tmp/tu.jsonl" --bot heuristic \
    --epochs 1 --out "$tmp/tu.params" >"$tmp/out" 2>&1 && ok || fail "fit tu: $(tail -2 "$tmp/out")"

# skyline.from_record refuses what is not a record, with one clear message.
python_checks "$tmp" <<'EOF' && ok || fail "from_record errors"
import sys
import skyline

rec = skyline.read_records(sys.argv[1] + "/c4.jsonl")[0]
for bad, want in (("{", "not a game record"), ("[1]", "not a JSON object"),
                  ({"game": "chess"}, "unknown game"), (dict(rec, moves=["9"]), "move 0"),
                  (dict(rec, players=7), "not 7")):
    try:
        skyline.from_record(bad)
    except ValueError as e:
        assert want in str(e), (want, str(e))
    else:
        raise AssertionError("accepted %r" % (bad,))
for ply in (len(rec["moves"]) + 1, -1):
    try:
        skyline.from_record(rec, ply)
    except ValueError:
        pass
    else:
        raise AssertionError("ply %d accepted" % ply)
end = skyline.from_record(rec)
assert end.is_terminal() and end.move_count == 0
try:
    end.to_record()
except ValueError as e:
    assert "taken from a record" in str(e)
else:
    raise AssertionError("to_record of a state from a record")
EOF

finish test_record_policy.sh
