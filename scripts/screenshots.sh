#!/usr/bin/env bash
# The screenshot pass of docs/PICTURES.md: a tournament's HTML report, the replay viewer at
# a fixed ply (Tower Up and Uptown, 3 players) and `show --as 1 --svg`, rendered by headless
# chromium and rsvg-convert into OUT (default docs/pictures), so a person can check that
# every picture numbers the players P1..PN and labels the bots the same way.
# Usage: scripts/screenshots.sh [BUILD_DIR [OUT]] (defaults build, docs/pictures).
set -euo pipefail
cd "$(dirname "$0")/.."
S=${1:-build}/skyline
out=${2:-docs/pictures}
for tool in chromium rsvg-convert; do
    command -v "$tool" >/dev/null ||
        { echo "screenshots: $tool is not installed (scripts/bootstrap.sh --browser)" >&2; exit 2; }
done
[ -x "$S" ] || { echo "screenshots: no program $S (build first)" >&2; exit 2; }
mkdir -p "$out"
S=$(realpath "$S") out=$(realpath "$out")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" # the pages name their records as given: up.jsonl, not a scratch path
shot() { # shot PAGE PNG WIDTH,HEIGHT
    timeout 300 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$tmp/profile" --window-size="$3" --screenshot="$2" "file://$tmp/$1" \
        >/dev/null 2>&1
    [ -s "$2" ] || { echo "screenshots: chromium wrote no $2" >&2; exit 1; }
    echo "$2"
}
"$S" tournament --game uptown --players 3 --bot random --bot greedy --bot heuristic \
    --games 6 --seed 1 --out up.jsonl >/dev/null
"$S" rate up.jsonl --html report.html >/dev/null
shot report.html "$out/screen-report.png" 1200,1000
"$S" replay up.jsonl --html up.html >/dev/null
shot "up.html#game=0&ply=21" "$out/screen-viewer-uptown.png" 1200,760
"$S" tournament --game towerup --players 3 --bot heuristic --bot random --bot greedy \
    --games 3 --seed 1 --out tu.jsonl >/dev/null
"$S" replay tu.jsonl --html tu.html >/dev/null
shot "tu.html#game=0&ply=40" "$out/screen-viewer-towerup.png" 1300,1000
"$S" show up.jsonl --ply 20 --as 1 --no-list --svg show.svg >/dev/null
rsvg-convert -o "$out/screen-show-as1.png" show.svg
echo "$out/screen-show-as1.png"
