#!/usr/bin/env bash
# Side-by-side speed of Skyline and OpenSpiel on Connect Four, one thread, on this machine.
# Builds OpenSpiel's C++ core with scripts/anchor/openspiel_anchor.cc (g++ -O3, Release)
# from source trees it is given, then runs both engines interleaved on the same work for
# several rounds and prints each engine's median rate and the ratio's median and spread.
# Work: random full games from the empty board; plain UCT (one random rollout an
# iteration, c = 2) at 10,000 and 100,000 iterations from the empty board. Skyline runs
# `skyline anchor` (docs/RESULTS.md); OpenSpiel runs MCTSBot (solver on, as it ships).
#
#   usage: scripts/anchor_openspiel.sh [--open-spiel DIR --abseil DIR --json DIR]
#            [--work DIR] [--rounds N] [--jobs N] [--quick] [--build-only]
#            [--results FILE] [--machine TEXT]
# The trees can also come from OPEN_SPIEL, ABSEIL and JSON. With none of them the script
# prints why it skips and exits 0 (CI has no OpenSpiel). Sources: google-deepmind/open_spiel
# (2.0.1), abseil/abseil-cpp (tag 20250814.1), nlohmann/json; exported git archives do.
# The build (about 15 minutes on one core) runs under nice with JOBS=1 unless --jobs says
# otherwise; it is kept in the work folder (default build-anchor/) and reused.
# --results FILE appends a dated section with the table to FILE (e.g. docs/RESULTS.md).
# The skyline binary is $SKYLINE, else build/skyline.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
die() {
    echo "anchor_openspiel.sh: $*" >&2
    exit 2
}
os_src="${OPEN_SPIEL:-}" absl_src="${ABSEIL:-}" json_src="${JSON:-}"
work="${ANCHOR_WORK:-$root/build-anchor}" rounds=5 jobs="${JOBS:-1}" quick=0 build_only=0
results="" machine=""
need() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"; }
count() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive whole number, not '$2'"; }
while [[ $# -gt 0 ]]; do
    case "$1" in
    --open-spiel) need "$@"; os_src="$2"; shift 2 ;;
    --abseil) need "$@"; absl_src="$2"; shift 2 ;;
    --json) need "$@"; json_src="$2"; shift 2 ;;
    --work) need "$@"; work="$2"; shift 2 ;;
    --rounds) need "$@"; count "$1" "$2"; rounds="$2"; shift 2 ;;
    --jobs) need "$@"; count "$1" "$2"; jobs="$2"; shift 2 ;;
    --results) need "$@"; results="$2"; shift 2 ;;
    --machine) need "$@"; machine="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --build-only) build_only=1; shift ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
    esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "JOBS must be a positive whole number, not '$jobs'"
if [[ -z "$os_src$absl_src$json_src" ]]; then
    echo "anchor_openspiel.sh: skipped: no OpenSpiel source tree given (--open-spiel," \
        "--abseil, --json or OPEN_SPIEL, ABSEIL, JSON)"
    exit 0
fi
[[ -n "$os_src" && -n "$absl_src" && -n "$json_src" ]] ||
    die "needs all three trees: OpenSpiel, abseil-cpp and json"
[[ -f "$os_src/open_spiel/spiel.cc" ]] || die "no open_spiel/spiel.cc under '$os_src'"
[[ -f "$absl_src/absl/base/config.h" ]] || die "no absl/base/config.h under '$absl_src'"
[[ -f "$json_src/include/nlohmann/json.hpp" ]] ||
    die "no include/nlohmann/json.hpp under '$json_src'"
[[ -z "$results" || -f "$results" ]] || die "no results file '$results'"
skyline="${SKYLINE:-$root/build/skyline}"
[[ "$build_only" == 1 || -x "$skyline" ]] ||
    die "no skyline binary at $skyline (build first or set SKYLINE)"
for tool in g++ cmake ninja; do
    command -v "$tool" >/dev/null || die "needs $tool"
done

# Lay the trees out as OpenSpiel's includes expect (open_spiel/abseil-cpp, open_spiel/json).
anchor="$work/openspiel_anchor"
if [[ ! -x "$anchor" ]]; then
    mkdir -p "$work/src"
    if [[ ! -f "$work/src/open_spiel/spiel.cc" ]]; then
        rm -rf "$work/src/open_spiel"
        cp -r "$os_src/open_spiel" "$work/src/open_spiel"
        rm -rf "$work/src/open_spiel/abseil-cpp" "$work/src/open_spiel/json"
        cp -r "$absl_src" "$work/src/open_spiel/abseil-cpp"
        mkdir -p "$work/src/open_spiel/json"
        cp -r "$json_src/include" "$work/src/open_spiel/json/"
    fi
    echo "anchor_openspiel.sh: building OpenSpiel in $work (log: $work/build.log)" >&2
    {
        cmake -S "$root/scripts/anchor" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS_RELEASE="-O3 -DNDEBUG" -DSRC="$work/src" &&
            nice ninja -C "$work/build" -j"$jobs" openspiel_anchor
    } >"$work/build.log" 2>&1 || die "build failed; see $work/build.log"
    cp "$work/build/openspiel_anchor" "$anchor"
fi
echo "anchor_openspiel.sh: anchor ready: $anchor" >&2
[[ "$build_only" == 1 ]] && exit 0

# The work: random games, and searches at 10,000 and 100,000 iterations (fewer with --quick).
games=200000 small=10000 small_n=10 large=100000 large_n=2
[[ "$quick" == 1 ]] && games=20000 small_n=2 large_n=1
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Each round runs every figure of both engines once, alternating which goes first.
for ((r = 1; r <= rounds; r++)); do
    echo "anchor_openspiel.sh: round $r of $rounds" >&2
    # Each prints "KEY RATE": KEY names the figure, then the engine's own arguments.
    sky() { "$skyline" bench --game connect4 --seed "$r" --anchor "$2" | awk -v k="$1" '{print k, $3}'; }
    osp() { "$anchor" "${@:2}" "$r" | awk -v k="$1" '{print k, $2}'; }
    for step in 1 2; do
        if (((r + step) % 2)); then
            sky sky_random "random:$games"
            sky sky_small "search:$small:$small_n"
            sky sky_large "search:$large:$large_n"
        else
            osp os_random random "$games"
            osp os_small mcts "$small" "$small_n"
            osp os_large mcts "$large" "$large_n"
        fi
    done >>"$log"
done
# Medians and spreads: each engine's rate per figure, and the ratio of each round's pair.
table="$(python3 - "$log" "$games" "$small" "$large" <<'PY'
import statistics
import sys

rates = {}
for line in open(sys.argv[1]):
    key, value = line.split()
    rates.setdefault(key, []).append(float(value))
games, small, large = (int(x) for x in sys.argv[2:5])
rows = [("random", f"random full games/s ({games:,} games)"),
        ("small", f"plain UCT iterations/s, {small:,}-iteration searches"),
        ("large", f"plain UCT iterations/s, {large:,}-iteration searches")]
def spread(v):
    return f"{min(v):,.0f}-{max(v):,.0f}"
print("| figure (empty board, one thread) | Skyline median (min-max) "
      "| OpenSpiel median (min-max) | ratio median (min-max) |")
print("|---|---:|---:|---:|")
for key, label in rows:
    s, o = rates[f"sky_{key}"], rates[f"os_{key}"]
    ratio = [a / b for a, b in zip(s, o)]
    print(f"| {label} | {statistics.median(s):,.0f} ({spread(s)}) "
          f"| {statistics.median(o):,.0f} ({spread(o)}) "
          f"| {statistics.median(ratio):.1f} ({min(ratio):.1f}-{max(ratio):.1f}) |")
PY
)"
echo "$table"
if [[ -n "$results" ]]; then
    {
        echo
        echo "### Side by side with OpenSpiel ($(date -u +%Y-%m-%d))"
        echo
        echo "\`scripts/anchor_openspiel.sh --rounds $rounds$([[ $quick == 1 ]] && echo ' --quick')\`:"
        echo "Skyline $("$skyline" version | cut -d' ' -f2) against OpenSpiel's Connect Four and"
        echo "MCTSBot (g++ -O3, UCT c = 2, one random rollout, solver on), interleaved, $rounds"
        echo "rounds, rates in each process's processor time${machine:+, on $machine}."
        echo
        echo "$table"
    } >>"$results"
    echo "anchor_openspiel.sh: section appended to $results" >&2
fi
