#!/usr/bin/env bash
# The cost of the Skyline Bot Protocol: games/s of the built-in random bot against the
# same bot as ext: bots over the protocol (skyline engine --bot random, and the Python
# example examples/random_bot.py), every seat played that way, and the cost per round
# trip (position + go + move): the extra time over the built-in games divided by the
# moves played.
# Usage: scripts/protocol_overhead.sh [build/skyline] [GAME] [GAMES]
set -euo pipefail
skyline=$(realpath "${1:-build/skyline}")
game=${2:-towerup}
games=${3:-200}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nexec "%s" engine --bot random\n' "$skyline" >"$tmp/engine-random"
chmod +x "$tmp/engine-random"

run() { # run LABEL SPEC: seconds and moves of GAMES games with SPEC in both seats
    local label=$1 spec=$2 start end
    rm -f "$tmp/r.jsonl"
    start=$(date +%s.%N)
    "$skyline" play --game "$game" --players 2 --bot "$spec" --games "$games" --seed 1 \
        --record "$tmp/r.jsonl" --quiet >/dev/null
    end=$(date +%s.%N)
    python3 - "$label" "$start" "$end" "$tmp/r.jsonl" "$games" <<'PY'
import json, sys
label, start, end, path, games = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
moves = sum(len(json.loads(l)["moves"]) for l in open(path))
forfeits = sum("forfeit" in l for l in open(path))
print("%s %.6f %d %d" % (label, end - start, moves, forfeits))
PY
}
{
    run builtin random
    run engine "ext:cmd=$tmp/engine-random"
    run python "ext:cmd=$src/examples/random_bot.py"
} >"$tmp/times"
python3 - "$tmp/times" "$game" "$games" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
base = float(rows[0][1])
print("%s, 2 players, %s games a row, both seats the same bot (%s)" % (sys.argv[2], sys.argv[3],
      "; ".join("%s: %s forfeits" % (r[0], r[3]) for r in rows)))
print("%-36s %10s %9s %14s" % ("bot", "games/s", "ratio", "per round trip"))
for label, secs, moves, _ in rows:
    secs, moves = float(secs), int(moves)
    rate = int(sys.argv[3]) / secs
    trip = "-" if label == "builtin" else "%.1f us" % ((secs - base) / moves * 1e6)
    name = {"builtin": "random (built in)", "engine": "ext: skyline engine --bot random",
            "python": "ext: examples/random_bot.py"}[label]
    print("%-36s %10.1f %8.4f %14s" % (name, rate, base / secs, trip))
PY
