#!/usr/bin/env bash
# Runs `skyline bench --json` RUNS times (default 5) and prints, for each speed figure, the
# median and the spread (min-max) over the runs. Further arguments go to skyline bench
# (e.g. --quick or --game uptown). The binary is $SKYLINE, else build/skyline.
# On a machine shared with other work, BENCH_BOOST=1 runs each bench in its own session
# at the highest priority (root only: the session's autogroup gets nice -19), so that it
# gets the cores it asks for; the "cpu" figure says how many the parallel search had.
#   usage: [BENCH_BOOST=1] scripts/bench.sh [RUNS] [skyline bench options...]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs=5
if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then
    runs="$1"
    shift
fi
if [[ "$runs" -lt 1 ]]; then
    echo "bench.sh: RUNS must be at least 1" >&2
    exit 2
fi
skyline="${SKYLINE:-$here/build/skyline}"
if [[ ! -x "$skyline" ]]; then
    echo "bench.sh: no skyline binary at $skyline (build first or set SKYLINE)" >&2
    exit 2
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
run_bench() {
    if [[ "${BENCH_BOOST:-0}" == 1 ]]; then
        setsid -w bash -c 'echo -19 >/proc/self/autogroup && exec nice -n -19 "$@"' bench \
            "$skyline" bench --json "$@"
    else
        "$skyline" bench --json "$@"
    fi
}
for ((i = 1; i <= runs; i++)); do
    echo "bench.sh: run $i of $runs" >&2
    run_bench "$@" >>"$out"
done
python3 - "$out" "$runs" <<'PY'
import json
import statistics
import sys

# The figures that are measured (everything else is a fixed count), with their units.
FIGURES = {
    "bulk_mnps": "Mleaves/s", "full_mnps": "Mleaves/s", "games_per_second": "games/s",
    "copy_make_ns": "ns/move", "make_undo_ns": "ns/move", "fast_per_second": "positions/s",
    "ref_per_second": "positions/s", "ratio": "x", "one_thread_per_second": "iter/s",
    "one_thread_min_per_second": "iter/s", "one_thread_max_per_second": "iter/s",
    "one_thread_cpu_per_second": "iter/s",
    "threads_per_second": "iter/s", "root_threads_per_second": "iter/s", "speedup": "x",
    "root_speedup": "x", "indep_per_second": "iter/s", "indep_speedup": "x",
    "double_time_per_second": "iter/s", "vs_double_time": "x",
    "cpu": "cores", "value": "",
    "seconds": "s", "load_start": "", "load_end": "",
    "evals_per_s_batch1": "evals/s", "evals_per_s_batch64": "evals/s", "peak_flops": "FLOP/s",
    "peak_share_batch1": "", "peak_share_batch64": "",
}


def flatten(obj, prefix, out):
    """Numeric leaves by path; array items are named by their case or goal."""
    if isinstance(obj, dict):
        for key, val in obj.items():
            flatten(val, f"{prefix}.{key}" if prefix else key, out)
    elif isinstance(obj, list):
        for i, item in enumerate(obj):
            name = item.get("case") or item.get("goal") if isinstance(item, dict) else None
            flatten(item, f"{prefix}[{name or i}]", out)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out[prefix] = obj


path, runs = sys.argv[1], int(sys.argv[2])
reports = [json.loads(line) for line in open(path) if line.strip()]
series = {}
for rep in reports:
    flat = {}
    flatten(rep, "", flat)
    for key, val in flat.items():
        series.setdefault(key, []).append(val)

signatures = sorted(set(series.get("signature", [])))
print(f"{len(reports)} runs of skyline bench --json")
width = max(len(k) for k in series)
print(f"{'figure':<{width}}  {'median':>12}  {'min':>12}  {'max':>12}  {'spread':>7}  unit")
for key, vals in series.items():
    leaf = key.rsplit(".", 1)[-1]
    if leaf not in FIGURES or key.endswith("perft.bulk_seconds") or key.endswith("full_seconds"):
        continue
    if leaf == "seconds" and key != "seconds":
        continue
    med = statistics.median(vals)
    lo, hi = min(vals), max(vals)
    spread = f"{100.0 * (hi - lo) / med:6.1f}%" if med else "      -"
    print(f"{key:<{width}}  {med:12.2f}  {lo:12.2f}  {hi:12.2f}  {spread}  {FIGURES[leaf]}")
if len(signatures) == 1:
    print(f"signature {signatures[0]} (the same in every run)")
else:
    print(f"signature DIFFERS between runs: {signatures}")
    sys.exit(1)
PY
