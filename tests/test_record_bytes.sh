#!/usr/bin/env bash
# The records skyline writes, byte for byte: fixed seeds of every game (options, legal
# counts, search figures, random set-ups, reshuffles) against tests/data/records/, written
# before the record code moved to core/record.c. Also the position at chosen plies of
# each record (`skyline show --notation`), and that every record replays.
# Regenerate (only for an intended format change): tests/test_record_bytes.sh SKYLINE ROOT --write
set -u
skyline=$1
source "$2/tests/cli_lib.sh"
data=$2/tests/data/records

# One configuration a line: a name, then the arguments of `skyline play`.
configs() {
    cat <<'END'
tu3 --game towerup --players 3 --seed 7 --games 2 --bot greedy --bot random --bot heuristic --record-legal
tu2 --game towerup --players 2 --seed 3 --games 2 --setup random --start-floors 5 --bot random
tur --game towerup --players 2 --seed 3 --bot random --record-legal
tu4 --game towerup --players 4 --seed 11 --objectives random --board standard --bot greedy
tus --game towerup --players 2 --seed 5 --bot mcts:iters=30 --bot random --record-search --record-legal
ut2 --game uptown --players 2 --seed 4 --games 2 --bot greedy --bot random --record-legal
ut5 --game uptown --players 5 --seed 9 --bot random
uts --game uptown --players 3 --seed 2 --bot mcts:iters=30 --record-search
c4 --game connect4 --seed 1 --games 3 --bot random --bot mcts:iters=10 --record-legal
c4s --game connect4 --seed 8 --first-player 1 --bot mcts:iters=40 --bot random --record-search
END
}

# The engine key names the version and search figures hold times: left out of the comparison.
plain() { sed 's/,"engine":"skyline [^"]*"/,"engine":"skyline"/; s/"ms":[0-9]*/"ms":0/g' "$1"; }

# The positions of a record file at plies 0, 1, 7 and the end, one line each.
positions() {
    local file=$1 games i ply
    games=$(wc -l <"$file")
    for ((i = 0; i < games; i++)); do
        for ply in 0 1 7 -1; do
            if [ "$ply" -lt 0 ]; then
                "$skyline" show "$file" --index "$i" --notation 2>&1
            else
                "$skyline" show "$file" --index "$i" --ply "$ply" --notation 2>&1
            fi
        done
    done
}

while read -r name args; do
    # shellcheck disable=SC2086
    "$skyline" play $args --quiet --record "$tmp/$name.jsonl" >/dev/null 2>"$tmp/err" ||
        { fail "$name: play failed: $(cat "$tmp/err")"; continue; }
    plain "$tmp/$name.jsonl" >"$tmp/$name.plain"
    positions "$tmp/$name.jsonl" >"$tmp/$name.pos"
    if [ "${3:-}" = --write ]; then
        cp "$tmp/$name.plain" "$data/$name.jsonl"
        cp "$tmp/$name.pos" "$data/$name.pos"
        continue
    fi
    cmp -s "$tmp/$name.plain" "$data/$name.jsonl" && ok ||
        fail "$name: the records differ from $data/$name.jsonl"
    cmp -s "$tmp/$name.pos" "$data/$name.pos" && ok ||
        fail "$name: the positions differ from $data/$name.pos: $(diff "$tmp/$name.pos" "$data/$name.pos" | head -3)"
    "$skyline" replay "$tmp/$name.jsonl" >"$tmp/out" 2>&1 && ok ||
        fail "$name: the records do not replay: $(cat "$tmp/out")"
done < <(configs)

finish test_record_bytes
