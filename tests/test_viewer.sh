# Records carry what the pictures need, and replay --html makes a page a user can step
# through: movers and --record-search figures in records (deterministic with iters= but
# for the times), records without them still replay and view, the page is self-contained
# and a real headless browser steps through every game (tests/browser_check.py; skipped
# without chromium outside CI), bad input is one line and leaves no page.
# Usage: bash test_viewer.sh <skyline-binary> <source-dir>
set -u
S=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"

"$S" play --game towerup --players 3 --bot mcts:iters=60 --bot greedy --bot random --seed 11 \
    --record "$tmp/t.jsonl" --record-search >/dev/null && ok || fail "play towerup"
"$S" play --game uptown --players 2 --bot mcts:iters=40 --seed 12 --record "$tmp/u.jsonl" \
    --record-search >/dev/null && ok || fail "play uptown"
"$S" play --game connect4 --players 2 --bot random --seed 13 --record "$tmp/c.jsonl" \
    >/dev/null && ok || fail "play connect4"
cat "$tmp/t.jsonl" "$tmp/u.jsonl" "$tmp/c.jsonl" >"$tmp/all.jsonl"

# movers: one per move, each a seat; search: one per move, figures or null.
python3 - "$tmp/all.jsonl" <<'PY' && ok || fail "movers and search figures in records"
import json, sys
for n, line in enumerate(open(sys.argv[1])):
    r = json.loads(line)
    moves, movers = r["moves"], r["movers"]
    assert len(movers) == len(moves), (n, "movers")
    assert all(0 <= m < r["players"] for m in movers), (n, "mover range")
    assert list(r).index("movers") > list(r).index("engine"), (n, "key order")
    if n < 2:
        s = r["search"]
        assert len(s) == len(moves), (n, "search length")
        figs = [f for f in s if f]
        assert figs, (n, "no search figures")
        for f in figs:
            assert f["iters"] in (40, 60) and f["ms"] >= 0 and 0 <= f["value_pm"] <= 1000, f
            assert 1 <= len(f["top"]) <= 5, f
            assert all(set(c) == {"move", "visits", "mean_pm"} for c in f["top"]), f
            v = [c["visits"] for c in f["top"]]
            assert v == sorted(v, reverse=True), f
    else:
        assert "search" not in r, (n, "search without --record-search")
PY
# The figures are what the search saw: the same with iters= each run, but for the times.
"$S" play --game uptown --players 2 --bot mcts:iters=40 --seed 12 --record "$tmp/u2.jsonl" \
    --record-search >/dev/null
strip_ms() { sed 's/"ms":[0-9]*//g' "$1"; }
[ "$(strip_ms "$tmp/u.jsonl")" = "$(strip_ms "$tmp/u2.jsonl")" ] && ok ||
    fail "search figures differ between two runs"
"$S" replay "$tmp/all.jsonl" >/dev/null 2>&1 && ok || fail "records with the new keys replay"

# Records without the new keys (older engines) still replay and view.
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); r.pop("movers", None); r.pop("search", None); print(json.dumps(r))
' "$tmp/all.jsonl" >"$tmp/old.jsonl"
"$S" replay "$tmp/old.jsonl" --html "$tmp/old.html" >/dev/null 2>&1 && [ -s "$tmp/old.html" ] &&
    ok || fail "records without movers or search view"

"$S" replay "$tmp/all.jsonl" --html "$tmp/all.html" >/dev/null 2>"$tmp/err" && ok ||
    fail "replay --html: $(cat "$tmp/err")"
grep -q "viewer: $tmp/all.html (3 games)" "$tmp/err" && ok || fail "replay --html says where"
# Self-contained: no file or address is fetched.
if grep -Eq '<script[^>]* src=|<link |<img |@import|url\(' "$tmp/all.html"; then
    fail "the page refers to other files"
else ok; fi
[ "$(grep -c '<section class="game"' "$tmp/all.html")" = 3 ] && ok || fail "three games"
grep -q 'class="search" data-for=' "$tmp/all.html" && ok || fail "search figures on the page"
# One numbering: players are P1..PN everywhere on the page (move words included), and
# play's "game i" is the page's "Game i" (and show's or replay's --index i).
grep -qiE 'player [0-9]' "$tmp/all.html" && fail "'player <digit>' on the page" || ok
"$S" play --game connect4 --players 2 --bot random --seed 13 --games 2 --record "$tmp/two.jsonl" \
    >"$tmp/out" 2>&1
grep -q '^game 0 seed 13: ' "$tmp/out" && grep -q '^game 1 seed 14: ' "$tmp/out" && ok ||
    fail "play numbers its games from 0: $(head -2 "$tmp/out")"
"$S" replay "$tmp/two.jsonl" --html "$tmp/two.html" >/dev/null 2>&1 &&
    grep -q '<h2>Game 1: connect4' "$tmp/two.html" && ok || fail "the page's Game 1 is play's game 1"
"$S" replay "$tmp/all.jsonl" --html "$tmp/one.html" --index 1 >/dev/null 2>&1 &&
    [ "$(grep -c '<section class="game"' "$tmp/one.html")" = 1 ] &&
    grep -q '<h2>Game 1: uptown' "$tmp/one.html" && ok || fail "--index 1 picks one game"

expect_error "--index beyond the file" "holds 3 games: there is no game --index 7" \
    "$S" replay "$tmp/all.jsonl" --html "$tmp/none.html" --index 7
[ ! -e "$tmp/none.html" ] && ok || fail "a page was written for a missing game"
sed 's/"moves":\["P/"moves":["Q/' "$tmp/t.jsonl" >"$tmp/bad.jsonl"
"$S" replay "$tmp/bad.jsonl" --html "$tmp/bad.html" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/bad.html" ] && [ ! -e "$tmp/bad.html.tmp" ] && ok ||
    fail "a record that does not replay left a page"
expect_error "--html without a value" "needs a value|missing" "$S" replay "$tmp/all.jsonl" --html

python3 "$SRC/tests/browser_check.py" "$tmp/all.html" "$tmp/all.jsonl" "$tmp/shot.png"
case $? in
0) ok ;;
77) echo "test_viewer.sh: chromium missing: browser steps skipped" ;;
*) fail "browser_check.py" ;;
esac
finish test_viewer.sh
