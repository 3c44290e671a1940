#!/usr/bin/env bash
# Makes the README's pictures with the project's own commands: one recorded game of each
# game between bots, its position at a fixed ply as SVG (skyline show --svg), then a PNG
# (rsvg-convert). Usage: scripts/pictures.sh [BUILD_DIR] (default build) -> docs/pictures/.
set -euo pipefail
cd "$(dirname "$0")/.."
S=${1:-build}/skyline
out=docs/pictures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
picture() { # picture NAME PLY PLAY-ARGS...
    local name=$1 ply=$2
    shift 2
    "$S" play "$@" --record "$tmp/$name.jsonl" --quiet >/dev/null
    "$S" show "$tmp/$name.jsonl" --ply "$ply" --no-list --svg "$tmp/$name.svg" >/dev/null
    rsvg-convert -o "$out/$name.png" "$tmp/$name.svg"
    echo "$out/$name.png"
}
picture towerup 60 --game towerup --players 3 --bot heuristic --bot greedy --bot random --seed 1
picture uptown 40 --game uptown --players 3 --bot heuristic --bot greedy --bot random --seed 1
picture connect4 17 --game connect4 --bot mcts:iters=2000 --seed 1
