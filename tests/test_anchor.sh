#!/usr/bin/env bash
# skyline bench --anchor (fixed work, one line a case), the bench's one-thread MCTS rounds,
# and scripts/anchor_openspiel.sh: the skip without source trees, its argument errors, and
# a full run against a stand-in for the OpenSpiel program (CI builds no OpenSpiel): the
# rounds, the table and the results section.
# usage: test_anchor.sh SKYLINE SOURCE_DIR
src=$2
. "$src/tests/cli_lib.sh"
S=$1
case $S in /*) ;; *) S=$PWD/$S ;; esac
script="$src/scripts/anchor_openspiel.sh"

# 1. skyline bench --anchor.
if "$S" bench --game connect4 --anchor random:2000 >"$tmp/r" 2>"$tmp/e" &&
    grep -qE '^connect4 random [0-9.]+ games/s \(2000 games, [0-9.]+ s\)$' "$tmp/r"; then ok; else
    fail "anchor random: $(cat "$tmp/r" "$tmp/e")"
fi
if "$S" bench --game connect4 --anchor search:300:2 --seed 3 >"$tmp/s" 2>"$tmp/e" &&
    grep -qE '^connect4 search [0-9.]+ iterations/s \(600 iterations, [0-9]+ nodes, [0-9.]+ s\)$' \
        "$tmp/s"; then ok; else
    fail "anchor search: $(cat "$tmp/s" "$tmp/e")"
fi
# The same seed and work give the same nodes (only the rate varies).
"$S" bench --game connect4 --anchor search:300:2 --seed 3 >"$tmp/s2" 2>/dev/null
if [ "$(cut -d'(' -f2 "$tmp/s" | cut -d, -f1-2)" = "$(cut -d'(' -f2 "$tmp/s2" | cut -d, -f1-2)" ]
then ok; else fail "anchor search repeats: $(cat "$tmp/s" "$tmp/s2")"; fi
"$S" bench --game towerup --anchor search:50:1 --bot mcts >"$tmp/t" 2>"$tmp/e"
if [ "$(grep -c ' search ' "$tmp/t")" -eq 3 ]; then ok; else fail "towerup cases: $(cat "$tmp/t")"; fi
for bad in random random: random:0 random:5:5 random:x search:10 search:10:0 search:10:2: \
    search:-1:2 play:10:2 'random:1 '; do
    expect_error "anchor '$bad'" '^skyline: bench: --anchor wants random:GAMES' \
        "$S" bench --game connect4 --anchor "$bad"
done
expect_error "anchor with --json" 'takes only --game, --bot and --seed' \
    "$S" bench --anchor random:10 --json
expect_error "--bot alone" '--bot and --seed go with --anchor' "$S" bench --bot mcts --count
expect_error "anchor bad bot" 'mcts' "$S" bench --game connect4 --anchor search:10:1 \
    --bot mcts:nosuchkey=1
expect_error "anchor bot without search" "random.*unknown key 'iters'" \
    "$S" bench --game connect4 --anchor search:10:1 --bot random

# The bench's one-thread MCTS figure: the median of 3 runs with --quick, between the fastest
# and the slowest, and the median in processor time beside it.
"$S" bench --game connect4 --quick --json >"$tmp/j" 2>"$tmp/e"
if python3 - "$tmp/j" <<'PY'; then ok; else fail "bench one-thread rounds: $(head -c 300 "$tmp/j")"; fi
import json, sys
m = json.load(open(sys.argv[1]))["cases"][0]["mcts"]
lo, med, hi = (m[k] for k in ("one_thread_min_per_second", "one_thread_per_second",
                              "one_thread_max_per_second"))
sys.exit(not (m["one_thread_rounds"] == 3 and 0 < lo <= med <= hi
              and m["one_thread_cpu_per_second"] > 0))
PY

# 2. The script: skipped without trees (exit 0), refused with one line on bad arguments.
if env -u OPEN_SPIEL -u ABSEIL -u JSON bash "$script" >"$tmp/o" 2>"$tmp/e" &&
    grep -q '^anchor_openspiel.sh: skipped: no OpenSpiel source tree given' "$tmp/o"; then ok; else
    fail "skip: $(cat "$tmp/o" "$tmp/e")"
fi
mkdir -p "$tmp/os/open_spiel" "$tmp/absl/absl/base" "$tmp/json/include/nlohmann"
touch "$tmp/os/open_spiel/spiel.cc" "$tmp/absl/absl/base/config.h" \
    "$tmp/json/include/nlohmann/json.hpp"
trees=(--open-spiel "$tmp/os" --abseil "$tmp/absl" --json "$tmp/json")
expect_error "unknown option" "unknown option '--nope'" bash "$script" --nope
expect_error "rounds 0" '--rounds needs a positive whole number' bash "$script" --rounds 0
expect_error "rounds missing" '--rounds needs a value' bash "$script" --rounds
expect_error "jobs x" '--jobs needs a positive whole number' bash "$script" --jobs x
expect_error "one tree only" 'needs all three trees' bash "$script" --open-spiel "$tmp/os"
expect_error "not OpenSpiel" "no open_spiel/spiel.cc under" \
    bash "$script" --open-spiel "$tmp" --abseil "$tmp/absl" --json "$tmp/json"
expect_error "no results file" "no results file" \
    bash "$script" "${trees[@]}" --results "$tmp/none.md"
expect_error "no skyline" "no skyline binary" env SKYLINE="$tmp/none" \
    bash "$script" "${trees[@]}" --work "$tmp/w0"

# 3. A full run against a stand-in that answers as openspiel_anchor does (no build then).
mkdir -p "$tmp/w"
cat >"$tmp/w/openspiel_anchor" <<'SH'
#!/bin/sh
echo "$*" >>"$(dirname "$0")/calls"
case $1 in random) echo "random 100000.0 plies_per_game 21.000" ;; *) echo "mcts 50000.0 sims 1" ;; esac
SH
chmod +x "$tmp/w/openspiel_anchor"
printf '# Results\n' >"$tmp/results.md"
if SKYLINE=$S bash "$script" "${trees[@]}" --work "$tmp/w" --rounds 2 --quick \
    --results "$tmp/results.md" --machine 'a test machine' >"$tmp/o" 2>"$tmp/e"; then ok; else
    fail "stand-in run: $(cat "$tmp/e")"
fi
check_line() { if grep -qE -- "$2" "$3"; then ok; else fail "$1: $(cat "$3")"; fi; }
check_line "random row" '^\| random full games/s \(20,000 games\) \| [0-9,]+ \([0-9,]+-[0-9,]+\) \| 100,000 \(100,000-100,000\) \| [0-9.]+ \([0-9.]+-[0-9.]+\) \|$' "$tmp/o"
check_line "10k row" '^\| plain UCT iterations/s, 10,000-iteration searches \| .* \| 50,000 \(50,000-50,000\) \|' "$tmp/o"
check_line "100k row" '^\| plain UCT iterations/s, 100,000-iteration searches \|' "$tmp/o"
check_line "section" '^### Side by side with OpenSpiel \([0-9]{4}-[0-9]{2}-[0-9]{2}\)$' "$tmp/results.md"
check_line "machine named" 'on a test machine' "$tmp/results.md"
check_line "table in results" '^\| random full games/s' "$tmp/results.md"
# Both rounds called the stand-in for each figure, with the round as seed.
if [ "$(grep -c . "$tmp/w/calls")" -eq 6 ] && grep -qx 'mcts 100000 1 2' "$tmp/w/calls"
then ok; else fail "stand-in calls: $(cat "$tmp/w/calls")"; fi

finish test_anchor.sh
