# The tournament report and show --svg as a user meets them: tournament ends naming its
# page, which holds every section and links each game to a viewer file that exists; rate
# --html makes the same kind of page; every chart is well-formed SVG; show --svg writes a
# picture (with --as, the other racks hidden); bad paths are one line and leave nothing.
# Usage: bash test_report.sh <skyline-binary> <source-dir>
set -u
S=$1
case $S in /*) ;; *) S=$PWD/$S ;; esac # some steps run in another folder
SRC=$2
. "$SRC/tests/cli_lib.sh"

"$S" tournament --game towerup --players 3 --bot greedy --bot random --bot mcts:iters=30 \
    --games 6 --seed 4 --out "$tmp/t.jsonl" --quiet --sprt 0,50,0.05,0.05 --workers 1 \
    --record-search >"$tmp/out" 2>"$tmp/err" && ok || fail "tournament: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/out")" = "Report: $tmp/t.html (open it in a browser)" ] && ok ||
    fail "the tournament's last line: $(tail -1 "$tmp/out")"
for section in Ratings "Pairwise results" "Results by seat" "Game lengths" Scores SPRT Games; do
    grep -q "<h2>$section</h2>" "$tmp/t.html" && ok || fail "no $section section"
done
# Players are P1..PN on the page as in every picture (seat 0 is P1), never "seat 1".
grep -q '<th>P1</th><th>P2</th><th>P3</th>' "$tmp/t.html" && ok || fail "seat columns are not P1..P3"
grep -qiE '(seat|player) [0-9]' "$tmp/t.html" && fail "a seat or player number on the page" || ok
[ "$(grep -o 'href="t-games/game-[0-9]*.html"' "$tmp/t.html" | sort -u | wc -l)" = 6 ] && ok ||
    fail "the games list does not link six viewers"
for k in 0 1 2 3 4 5; do
    [ -s "$tmp/t-games/game-$k.html" ] && ok || fail "no viewer for game $k"
done
# Every chart of the page is well-formed SVG; the page fetches nothing.
python3 - "$tmp/t.html" <<'PY' && ok || fail "a chart of the report is not well-formed SVG"
import re, sys, xml.etree.ElementTree as ET
page = open(sys.argv[1]).read()
charts = re.findall(r"<svg .*?</svg>", page, re.S)
assert len(charts) >= 4, len(charts)
for c in charts:
    ET.fromstring(c)
assert not re.search(r"<script[^>]* src=|<link |<img ", page)
PY
# One labelling rule: the page labels the bots in --bot order, as the terminal does, and
# its SPRT is A against B; the chart counts the games that fed the SPRT.
python3 - "$tmp/t.html" "$tmp/out" <<'PY' && ok || fail "the page's labels or SPRT count"
import re, sys
page, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
rows = dict(re.findall(r'<td class="l"><b>([A-Z]+)</b></td>.*?<code>([^<]*)</code>', page))
assert rows == {"A": "greedy", "B": "random", "C": "mcts:iters=30"}, rows
term = dict(re.findall(r'^ +\d+  ([A-Z]+) .* (\S+)$', out, re.M))
assert term == rows, (term, rows)
assert re.search(r'<p>A \(<code>greedy</code>\) against B \(<code>random</code>\)', page)
fed = re.search(r'(\d+) games fed it', page).group(1)
assert re.search(r'games that fed it \(%s\)' % fed, page), fed
assert "SPRT A vs B" in out
PY
# 2 players: the page's SPRT runs on the same game pairs as the tournament's and stops at
# the same game, in the same words; the page has the game-pair table.
"$S" tournament --game towerup --players 2 --bot greedy --bot random --games 400 --seed 4 \
    --sprt 0,50,0.05,0.05 --out "$tmp/p.jsonl" --quiet --workers 2 >"$tmp/p.out" 2>&1 &&
    at=$(grep -o 'H1 accepted at game [0-9]*' "$tmp/p.out") && [ -n "$at" ] &&
    grep -q "pentanomial over game pairs" "$tmp/p.out" &&
    grep -q "<b>H1 accepted</b> ${at#H1 accepted } *\." "$tmp/p.html" &&
    grep -q "Model: pentanomial" "$tmp/p.html" && grep -q "<h2>Game pairs</h2>" "$tmp/p.html" &&
    ok || fail "2-player SPRT: terminal '$at', page '$(grep -o 'H1 accepted</b>[^.]*' "$tmp/p.html")'"
grep -q 'class="game" id="game-0"' "$tmp/t-games/game-3.html" &&
    grep -q '<h2>Game 3: towerup' "$tmp/t-games/game-3.html" && ok || fail "game-3.html is not game 3"

"$S" rate "$tmp/t.jsonl" --html "$tmp/r.html" >"$tmp/out" 2>&1 && ok || fail "rate --html"
[ "$(tail -1 "$tmp/out")" = "Report: $tmp/r.html" ] && ok || fail "rate --html names its page"
grep -q "<h2>Ratings</h2>" "$tmp/r.html" && ! grep -q "<h2>SPRT</h2>" "$tmp/r.html" && ok ||
    fail "rate --html without --sprt draws no SPRT"
"$S" rate "$tmp/t.jsonl" --html "$tmp/r2.html" --sprt 0,50,0.05,0.05 >/dev/null &&
    grep -q "<h2>SPRT</h2>" "$tmp/r2.html" && ok || fail "rate --html --sprt draws the SPRT"
# Beyond --viewers N games, the list shows the command that makes a game's viewer.
"$S" rate "$tmp/t.jsonl" --html "$tmp/v.html" --viewers 2 >/dev/null 2>&1 &&
    [ "$(grep -o 'href="v-games/game-[0-9]*.html"' "$tmp/v.html" | wc -l)" = 2 ] &&
    [ ! -e "$tmp/v-games/game-2.html" ] && ok || fail "--viewers 2 makes two viewers"
cmd=$(grep -o "<code>skyline replay [^<]* --index [0-9]* --html game-5.html</code>" "$tmp/v.html" |
    sed 's/<[^>]*>//g; s/^skyline //')
# (one worker: the file holds the games in index order, so record 5 is game 5)
[ -n "$cmd" ] && (cd "$tmp" && "$S" $cmd >/dev/null 2>&1) &&
    grep -q '<h2>Game 5: towerup' "$tmp/game-5.html" && ok ||
    fail "the listed replay command makes game 5's viewer: $cmd"
expect_error "rate --html into a missing folder" "rate --html: cannot" \
    "$S" rate "$tmp/t.jsonl" --html "$tmp/no/such/r.html"
expect_error "rate --sprt with bad bounds" "--sprt" \
    "$S" rate "$tmp/t.jsonl" --html "$tmp/r3.html" --sprt 1,2

# Connect Four: a game without scores still reports, with viewers.
"$S" tournament --game connect4 --bot random --bot mcts:iters=20 --games 2 --seed 1 \
    --out "$tmp/c.jsonl" --quiet --workers 1 >/dev/null 2>&1 && [ -s "$tmp/c-games/game-1.html" ] &&
    ! grep -q "<h2>Scores</h2>" "$tmp/c.html" && ok || fail "connect4 report"

# show --svg: the picture of the shown position; --as hides the other players' racks.
"$S" show --game uptown --players 3 --seed 3 --moves "" --svg "$tmp/all.svg" >/dev/null &&
    "$S" show --game uptown --players 3 --seed 3 --moves "" --as 0 --svg "$tmp/p0.svg" >/dev/null &&
    ok || fail "show --svg"
tiles() { grep -c 'rx="2.4"' "$1"; } # the rack tiles (19 px, rounded by 19/8)
[ "$(tiles "$tmp/all.svg")" = 15 ] && [ "$(tiles "$tmp/p0.svg")" = 5 ] && ok ||
    fail "--as 0 shows $(tiles "$tmp/p0.svg") rack tiles, everything $(tiles "$tmp/all.svg")"
"$S" show "$tmp/t.jsonl" --index 1 --ply 20 --no-list --svg "$tmp/t20.svg" >/dev/null &&
    grep -q 'turn' "$tmp/t20.svg" && ok || fail "show RECORDS --ply --svg"
python3 "$SRC/tests/svg_check.py" "$tmp/all.svg" "$tmp/p0.svg" "$tmp/t20.svg" >/dev/null
case $? in 0 | 77) ok ;; *) fail "show --svg pictures do not render" ;; esac
expect_error "show --svg into a missing folder" "--svg: cannot write" \
    "$S" show --game connect4 --moves "4 4" --svg "$tmp/no/such.svg"
[ ! -e "$tmp/no" ] && ok || fail "a failed --svg left a file"

# tune: the page of its log, a path per weight and the results per iteration.
"$S" tune --game towerup --players 3 --bot heuristic --against greedy --iterations 3 --seed 5 \
    --out "$tmp/tu.params" --workers 1 >"$tmp/out" 2>"$tmp/err" && ok || fail "tune: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/out")" = "Report: $tmp/tu.params.html (open it in a browser)" ] && ok ||
    fail "tune's last line: $(tail -1 "$tmp/out")"
weights=$(head -1 "$tmp/tu.params.log.jsonl" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["theta"]))')
[ "$(grep -c '<h2 id="w' "$tmp/tu.params.html")" = "$weights" ] &&
    grep -q '<h2>Results per iteration</h2>' "$tmp/tu.params.html" && ok ||
    fail "the tuning page does not draw each of the $weights weights"
python3 -c '
import re, sys, xml.etree.ElementTree as ET
charts = re.findall(r"<svg .*?</svg>", open(sys.argv[1]).read(), re.S)
assert len(charts) == int(sys.argv[2]) + 2
for c in charts: ET.fromstring(c)
' "$tmp/tu.params.html" "$weights" && ok || fail "the tuning page's charts are not well-formed"

# The viewers the report links are ones a browser steps through.
grep '"index":2,' "$tmp/t.jsonl" >"$tmp/g2.jsonl"
python3 "$SRC/tests/browser_check.py" "$tmp/t-games/game-2.html" "$tmp/g2.jsonl" "$tmp/g2.png"
case $? in
0) ok ;;
77) echo "test_report.sh: chromium missing: browser steps skipped" ;;
*) fail "browser_check.py on a report's viewer" ;;
esac
finish test_report.sh
