#!/usr/bin/env bash
# A game's own options (game_options_t.option, core/options.c): --board, --start-floors,
# --setup and --objectives are spellings of Tower Up's keys, like --option KEY=VALUE and -o;
# records, tournament, tune and quality files stay the bytes they were before games had
# option lists (tests/data/options), and those files resume; an unknown key or a bad value
# is one line naming the valid keys or values.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"
data=$2/tests/data/options
# The writer's version is not compared, nor the movers that records gained later (a key
# after FORMATS.md's, docs/PICTURES.md).
# (Keys added since: the engine's version, "movers", and the tournament key's "bots".)
unversioned() { sed 's/"engine":"skyline [^"]*"/"engine":"-"/; s/,"movers":\[[0-9,]*\]//; s/,"bots":\[[0-9,]*\]}/}/' "$1"; }
same() { # DESCRIPTION EXPECTED ACTUAL
    [ "$(unversioned "$2")" = "$(unversioned "$3")" ] && ok || fail "$1: $3 differs from $2"
}

# Records: the same bytes as before, for every spelling of the options.
variants=(--players 2 --games 2 --seed 11 --record-legal --quiet)
"$skyline" play "${variants[@]}" --board duo --start-floors 5 --setup random --objectives random \
    --record "$tmp/flags.jsonl" >/dev/null 2>"$tmp/err" || fail "play with flags: $(cat "$tmp/err")"
same "record with flags" "$data/towerup-variants.jsonl" "$tmp/flags.jsonl"
"$skyline" play "${variants[@]}" -o board=duo --option start_floors=5 -o setup=random \
    --option objectives=random --record "$tmp/keys.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "play with --option: $(cat "$tmp/err")"
same "record with --option" "$data/towerup-variants.jsonl" "$tmp/keys.jsonl"
# '-' for '_' in a key; a later value of a key replaces an earlier one.
"$skyline" play "${variants[@]}" --board standard -o board=duo --option start-floors=5 \
    --setup random --objectives random --record "$tmp/mixed.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "play with mixed spellings: $(cat "$tmp/err")"
same "record with mixed spellings" "$data/towerup-variants.jsonl" "$tmp/mixed.jsonl"

# Tournament files: the same bytes, and a file written before resumes (its configuration
# hash, which covers the options, is unchanged).
tu=(--game towerup --players 2 --bot random --bot greedy --games 4 --seed 7 --workers 1)
tu_opt=(--board standard --start-floors 4 --setup random --objectives lake,park,heights)
"$skyline" tournament "${tu[@]}" "${tu_opt[@]}" --out "$tmp/tu.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "tournament: $(cat "$tmp/err")"
same "tournament file" "$data/tournament-towerup.jsonl" "$tmp/tu.jsonl"
head -2 "$data/tournament-towerup.jsonl" >"$tmp/tu-resumed.jsonl"
"$skyline" tournament "${tu[@]}" -o board=standard -o start_floors=4 -o setup=random \
    -o objectives=lake,park,heights --out "$tmp/tu-resumed.jsonl" >"$tmp/out" 2>"$tmp/err" \
    || fail "tournament resume: $(cat "$tmp/err")"
same "resumed tournament file" "$data/tournament-towerup.jsonl" "$tmp/tu-resumed.jsonl"
# A game without options: its hash holds the same defaults as before.
ut=(--game uptown --players 3 --bot random --bot greedy --games 3 --seed 7 --workers 1)
head -1 "$data/tournament-uptown.jsonl" >"$tmp/ut.jsonl"
"$skyline" tournament "${ut[@]}" --out "$tmp/ut.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "uptown tournament resume: $(cat "$tmp/err")"
same "resumed uptown tournament file" "$data/tournament-uptown.jsonl" "$tmp/ut.jsonl"
# Other options are another configuration: refused, not mixed in.
cp "$data/tournament-towerup.jsonl" "$tmp/tu-other.jsonl"
expect_error "tournament with other options" "configuration" \
    "$skyline" tournament "${tu[@]}" --board standard --out "$tmp/tu-other.jsonl"

# Tune: the same files, and a checkpoint written before extends.
tune=(--game towerup --players 2 --bot heuristic --deals 1 --seed 5 --board duo --start-floors 4
      --setup random --objectives random)
"$skyline" tune "${tune[@]}" --iterations 2 --out "$tmp/t.params" >/dev/null 2>"$tmp/err" \
    || fail "tune: $(cat "$tmp/err")"
for f in t.params t.params.ckpt t.params.log.jsonl; do
    same "tune file $f" "$data/tune${f#t}" "$tmp/$f"
done
cp "$data/tune.params.ckpt" "$tmp/old.params.ckpt"
cp "$data/tune.params.log.jsonl" "$tmp/old.params.log.jsonl"
"$skyline" tune "${tune[@]}" --iterations 3 --out "$tmp/old.params" >/dev/null 2>"$tmp/err" \
    && grep -q "extending" "$tmp/err" && ok || fail "tune checkpoint extend: $(cat "$tmp/err")"

# Quality: the same file, and its header written before resumes.
quality=(--game towerup --players 2 --board duo --ref mcts:iters=50 --bot random --games 1
         --every 20 --repeats 1 --seed 3 --quiet)
untimed() { sed 's/,"seconds":.*}$/}/; s/"engine":"skyline [^"]*"/"engine":"-"/' "$1"; }
"$skyline" quality "${quality[@]}" --out "$tmp/q.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "quality: $(cat "$tmp/err")"
[ "$(untimed "$data/quality.jsonl")" = "$(untimed "$tmp/q.jsonl")" ] && ok || fail "quality file"
head -1 "$data/quality.jsonl" >"$tmp/q-resumed.jsonl"
"$skyline" quality "${quality[@]}" --out "$tmp/q-resumed.jsonl" >/dev/null 2>"$tmp/err" \
    || fail "quality resume: $(cat "$tmp/err")"
[ "$(untimed "$data/quality.jsonl")" = "$(untimed "$tmp/q-resumed.jsonl")" ] && ok \
    || fail "resumed quality file"

# Bad options: one line naming the valid keys or values.
expect_error "unknown key" "towerup has no option 'frob' \(its options: board, start_floors, setup, objectives\)" \
    "$skyline" play -o frob=1
expect_error "bad start_floors" "towerup option start_floors '2': needs an integer from 3 to 7" \
    "$skyline" play --option start_floors=2
expect_error "bad setup" "towerup option setup 'maybe': needs placed or random" \
    "$skyline" play --setup maybe
expect_error "bad objectives" "towerup option objectives 'lake': " "$skyline" play -o objectives=lake
expect_error "empty board" "towerup option board '': needs standard, duo or a board file" \
    "$skyline" play -o board=
expect_error "no key" "-o needs KEY=VALUE, not 'duo'" "$skyline" play -o duo
expect_error "no key before =" "--option needs KEY=VALUE, not '=duo'" "$skyline" play --option =duo
expect_error "connect4 has none" "connect4 has no options \(given: board=duo\)" \
    "$skyline" play --game connect4 -o board=duo
expect_error "connect4, a flag" "connect4 has no options \(given: setup=random\)" \
    "$skyline" play --game connect4 --setup random
expect_error "uptown has none" "uptown has no options \(given: start_floors=4\)" \
    "$skyline" tournament --game uptown --bot random --bot random --start-floors 4 --out "$tmp/x"
expect_error "analyse: connect4 has none" "connect4 has no options" \
    "$skyline" analyse --position "connect4 ......./......./......./......./......./....... 0" \
    --bot random -o board=duo

# Help: the options come from the games' tables.
"$skyline" play --help >"$tmp/help"
grep -q -- "--option KEY=VALUE" "$tmp/help" && ok || fail "help: no --option"
grep -q -- "--start-floors N *towerup starting floors, 3 (rules) to 7 (variant)" "$tmp/help" && ok \
    || fail "help: no start floors line: $(cat "$tmp/help")"
grep -q -- "--board NAME|FILE *towerup board: standard, duo or a board file" "$tmp/help" && ok \
    || fail "help: no board line"

finish test_game_options
