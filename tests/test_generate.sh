#!/usr/bin/env bash
# skyline generate: self-play records of one spec in every seat, seed S+i per game, that
# replay; the same games whatever the worker count and however the run is split, cut or
# resumed (nothing played twice); bad input refused with one line, the file untouched.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

spec="heuristic:temp=0.3,eps=0.1"
common=(--game towerup --players 3 --bot "$spec" --seed 10 --quiet)
# The records of a file sorted by seed (completion order depends on the workers).
by_seed() { python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
for r in sorted(recs, key=lambda r: r["seed"]):
    print(json.dumps(r, sort_keys=True))' <"$1"; }

"$skyline" generate "${common[@]}" --games 6 --out "$tmp/straight.jsonl" --workers 1 >"$tmp/out" 2>"$tmp/err" \
    && ok || fail "straight run: $(cat "$tmp/err")"
grep -q "^6 of 6 games done (0 resumed, 6 played by 1 worker" "$tmp/out" && ok || fail "summary: $(cat "$tmp/out")"
[ "$(wc -l <"$tmp/straight.jsonl")" -eq 6 ] && ok || fail "lines: $(wc -l <"$tmp/straight.jsonl")"
"$skyline" replay "$tmp/straight.jsonl" >"$tmp/out" 2>&1 && ok || fail "replay: $(tail -2 "$tmp/out")"
python3 - "$tmp/straight.jsonl" "$spec" <<'EOF' && ok || fail "record contents"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["seed"] for r in recs) == list(range(10, 16)), [r["seed"] for r in recs]
for r in recs:
    assert r["seats"] == [sys.argv[2]] * 3, r["seats"]
    assert len(r["generate"]["config"]) == 16
    assert r["game"] == "towerup" and r["players"] == 3
# Exploration: the games differ.
assert len({tuple(r["moves"]) for r in recs}) == 6
EOF

# Two workers, split in two runs (3 games, then extended to 6): the same games.
"$skyline" generate "${common[@]}" --games 3 --out "$tmp/parts.jsonl" --workers 2 >/dev/null 2>&1
"$skyline" generate "${common[@]}" --games 6 --out "$tmp/parts.jsonl" --workers 2 >"$tmp/out" 2>&1
grep -q "^6 of 6 games done (3 resumed, 3 played" "$tmp/out" && ok || fail "extend: $(cat "$tmp/out")"
cmp -s <(by_seed "$tmp/straight.jsonl") <(by_seed "$tmp/parts.jsonl") && ok || fail "workers or resume changed the games"
# Run again: nothing played, nothing written.
cp "$tmp/parts.jsonl" "$tmp/before.jsonl"
"$skyline" generate "${common[@]}" --games 6 --out "$tmp/parts.jsonl" >"$tmp/out" 2>&1
grep -q "(6 resumed, 0 played" "$tmp/out" && ok || fail "rerun: $(cat "$tmp/out")"
cmp -s "$tmp/before.jsonl" "$tmp/parts.jsonl" && ok || fail "rerun changed the file"
# A last line cut short (a killed run): cut off, that game played again.
head -c -40 "$tmp/before.jsonl" >"$tmp/cut.jsonl"
"$skyline" generate "${common[@]}" --games 6 --out "$tmp/cut.jsonl" >"$tmp/out" 2>"$tmp/err"
grep -q "(5 resumed, 1 played" "$tmp/out" && ok || fail "cut line: $(cat "$tmp/out" "$tmp/err")"
cmp -s <(by_seed "$tmp/straight.jsonl") <(by_seed "$tmp/cut.jsonl") && ok || fail "cut file not repaired"
# Another seed range adds games to the same file.
"$skyline" generate --game towerup --players 3 --bot "$spec" --seed 100 --games 2 --quiet \
    --out "$tmp/parts.jsonl" >/dev/null 2>&1 && ok || fail "another seed range"
[ "$(wc -l <"$tmp/parts.jsonl")" -eq 8 ] && ok || fail "another seed range: $(wc -l <"$tmp/parts.jsonl") lines"

# Uptown, 2 players, greedy with exploration; the records replay.
"$skyline" generate --game uptown --players 2 --bot greedy:temp=0.05,eps=0.05 --games 2 --seed 1 \
    --quiet --out "$tmp/up.jsonl" >/dev/null 2>"$tmp/err" && ok || fail "uptown: $(cat "$tmp/err")"
"$skyline" replay "$tmp/up.jsonl" >/dev/null 2>&1 && ok || fail "uptown records do not replay"

# Bad input: one line, nothing written.
cp "$tmp/straight.jsonl" "$tmp/keep.jsonl"
expect_error "another spec" "another game, option or bot" "$skyline" generate --game towerup \
    --players 3 --bot heuristic --seed 10 --games 6 --out "$tmp/straight.jsonl"
expect_error "another player count" "another game, option or bot" "$skyline" generate \
    --game towerup --players 2 --bot "$spec" --seed 10 --games 6 --out "$tmp/straight.jsonl"
cmp -s "$tmp/keep.jsonl" "$tmp/straight.jsonl" && ok || fail "a refused run changed the file"
"$skyline" play --players 2 --games 1 --record "$tmp/play.jsonl" >/dev/null 2>&1
expect_error "not a generate file" "without a generate key" "$skyline" generate --players 2 \
    --bot random --games 1 --out "$tmp/play.jsonl"
expect_error "no bot" "needs --bot" "$skyline" generate --games 2 --out "$tmp/x.jsonl"
expect_error "two bots" "one --bot" "$skyline" generate --bot random --bot greedy --games 2 --out "$tmp/x.jsonl"
expect_error "no games" "needs --games" "$skyline" generate --bot random --out "$tmp/x.jsonl"
expect_error "no out" "needs --out" "$skyline" generate --bot random --games 2
expect_error "bad spec" "eps" "$skyline" generate --bot heuristic:eps=2 --games 2 --out "$tmp/x.jsonl"
expect_error "human" "human" "$skyline" generate --bot human --games 2 --out "$tmp/x.jsonl"
expect_error "bad option" "unknown option '--record'" "$skyline" generate --bot random --games 2 --record x
[ -e "$tmp/x.jsonl" ] && fail "a refused run created its file" || ok

# Resume is as strict as rate: a seed given twice, a record of another bot under this
# configuration, or a record rate refuses is refused with one line, the file left as it was.
"$skyline" generate --players 2 --bot random --games 4 --seed 1 --workers 1 --quiet --out "$tmp/g.jsonl" >/dev/null 2>&1
{ cat "$tmp/g.jsonl"; head -1 "$tmp/g.jsonl"; } >"$tmp/g2.jsonl"
cp "$tmp/g2.jsonl" "$tmp/g2.orig"
expect_error "a seed twice" "the game of seed 1 is there twice \(.*g2.jsonl:1 and .*g2.jsonl:5\)" \
    "$skyline" generate --players 2 --bot random --games 4 --seed 1 --quiet --out "$tmp/g2.jsonl"
cmp -s "$tmp/g2.jsonl" "$tmp/g2.orig" && ok || fail "a refused resume changed the file"
sed '2s/"seats":\["random","random"\]/"seats":["greedy","random"]/' "$tmp/g.jsonl" >"$tmp/gs.jsonl"
expect_error "another bot's seats" "gs.jsonl:2: the game, players or seats do not match" \
    "$skyline" generate --players 2 --bot random --games 4 --seed 1 --quiet --out "$tmp/gs.jsonl"
sed '3s/"ranks":\[[0-9,]*\]/"ranks":[1,7]/' "$tmp/g.jsonl" >"$tmp/gr.jsonl"
expect_error "bad ranks" "gr.jsonl:3: record has no .result. with 2 .ranks." \
    "$skyline" generate --players 2 --bot random --games 4 --seed 1 --quiet --out "$tmp/gr.jsonl"

finish test_generate
