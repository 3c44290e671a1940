#!/usr/bin/env bash
# The version is set once, in CMakeLists.txt's project(): `skyline --version` and `skyline
# version` print it, and every file the engine writes carries "skyline VERSION" (game
# records, tournament files, parameter files, quality files); files without it (written by
# an older engine) are still read.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

version=$(sed -n 's/^project(skyline VERSION \([0-9][0-9.]*\) .*/\1/p' "$2/CMakeLists.txt")
[ -n "$version" ] && ok || fail "no version in CMakeLists.txt's project()"
engine="skyline $version"
[ "$("$skyline" --version)" = "$engine" ] && ok || fail "--version: $("$skyline" --version 2>&1)"
[ "$("$skyline" version)" = "$engine" ] && ok || fail "version: $("$skyline" version 2>&1)"
"$skyline" version --help >"$tmp/out" 2>&1 && grep -q "^usage: skyline version" "$tmp/out" && ok \
    || fail "version --help: $(cat "$tmp/out")"
"$skyline" --version --help >"$tmp/out" 2>&1 && grep -q "^usage: skyline version" "$tmp/out" && ok \
    || fail "--version --help: $(cat "$tmp/out")"
expect_error "version with an option" "version takes no options" "$skyline" version --json

# Game records of every game (players: 3, or the nearest count the game allows).
for game in towerup uptown connect4; do
    "$skyline" play --game $game --bot random --seed 4 --games 2 --quiet \
        --record "$tmp/$game.jsonl" >/dev/null 2>"$tmp/err" || fail "play $game: $(cat "$tmp/err")"
    [ "$(grep -c "\"engine\":\"$engine\"" "$tmp/$game.jsonl")" -eq 2 ] && ok \
        || fail "$game record without the engine: $(head -c 200 "$tmp/$game.jsonl")"
    sed "s/,\"engine\":\"[^\"]*\"//" "$tmp/$game.jsonl" >"$tmp/old-$game.jsonl"
    grep -q engine "$tmp/old-$game.jsonl" && fail "engine not stripped" || ok
    "$skyline" replay "$tmp/old-$game.jsonl" >/dev/null 2>&1 && ok \
        || fail "$game record without the engine does not replay"
done

# A tournament file: every record; a file of records without it resumes and rates.
tour=(--game towerup --players 2 --bot random --bot greedy --seed 9 --quiet)
"$skyline" tournament "${tour[@]}" --games 4 --out "$tmp/t.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "tournament: $(cat "$tmp/err")"
[ "$(grep -c "\"engine\":\"$engine\"" "$tmp/t.jsonl")" -eq 4 ] && ok \
    || fail "tournament records without the engine"
sed "s/,\"engine\":\"[^\"]*\"//" "$tmp/t.jsonl" >"$tmp/t-old.jsonl"
"$skyline" tournament "${tour[@]}" --games 6 --out "$tmp/t-old.jsonl" >/dev/null 2>"$tmp/err" \
    && [ "$(wc -l <"$tmp/t-old.jsonl")" -eq 6 ] && ok \
    || fail "tournament resume of records without the engine: $(cat "$tmp/err")"
"$skyline" rate "$tmp/t-old.jsonl" >/dev/null 2>"$tmp/err" && ok || fail "rate: $(cat "$tmp/err")"

# A parameter file written by tune says which engine wrote it, in a comment line.
"$skyline" tune --game uptown --players 2 --bot greedy --iterations 1 --deals 1 --seed 1 \
    --out "$tmp/p.params" >/dev/null 2>"$tmp/err" || fail "tune: $(cat "$tmp/err")"
grep -qx "# written by $engine" "$tmp/p.params" && ok || fail "parameter file: $(head -3 "$tmp/p.params")"
"$skyline" play --game uptown --players 2 --bot "greedy:params=$tmp/p.params" --games 1 --quiet \
    >/dev/null 2>&1 && ok || fail "parameter file with the engine line does not load"

# A quality file's header; a header without it (an older engine's) resumes.
q=(--game towerup --players 2 --ref mcts:iters=200 --bot random --games 2 --every 20 --seed 3 --quiet)
"$skyline" quality "${q[@]}" --out "$tmp/q.jsonl" >/dev/null 2>"$tmp/err" || fail "quality: $(cat "$tmp/err")"
head -1 "$tmp/q.jsonl" | grep -q "\"engine\":\"$engine\"" && ok || fail "quality header: $(head -1 "$tmp/q.jsonl")"
sed "1s/,\"engine\":\"[^\"]*\"//" "$tmp/q.jsonl" >"$tmp/q-old.jsonl"
"$skyline" quality "${q[@]}" --out "$tmp/q-old.jsonl" >/dev/null 2>"$tmp/err" && ok \
    || fail "quality resume of a header without the engine: $(cat "$tmp/err")"
sed "1s/\"engine\":\"[^\"]*\"/\"engine\":\"skyline 0.0.1\"/" "$tmp/q.jsonl" >"$tmp/q-other.jsonl"
grep -q "skyline 0.0.1" "$tmp/q-other.jsonl" && ok || fail "engine not replaced"
"$skyline" quality "${q[@]}" --out "$tmp/q-other.jsonl" >/dev/null 2>"$tmp/err" && ok \
    || fail "quality resume of another version's file: $(cat "$tmp/err")"

finish test_version
