# skyline tournament over MPI ranks (MPI build only, docs/MPI.md): with 3 ranks the record
# file holds exactly the records of a one-process run, in the same order; the SPRT stops at
# the same game; a worker rank killed with SIGKILL ends the run, and the same command
# resumes to the complete file with no game lost or doubled.
# Usage: bash mpi_tournament.sh <skyline-binary> <source-dir>
set -u
S=$1
. "$(dirname "$0")/lib_mpi.sh"
indices() { sed -n 's/.*"tournament":{"index":\([0-9]*\),.*/\1/p' "$1" | sort -n; }

# 1. Three ranks write the same file as one process: the same records in the same order.
TU="--game towerup --players 3 --bot random --bot greedy --bot heuristic --seed 5 --games 90"
check "one process" "$S" tournament $TU --out "$T/one.jsonl" --workers 1 --quiet >"$T/one.out"
check "3 ranks" $MPIRUN "$S" tournament $TU --out "$T/mpi.jsonl" --workers 2 >"$T/mpi.out" \
    2>"$T/mpi.err"
check "same records" cmp <(sort "$T/one.jsonl") <(sort "$T/mpi.jsonl")
check "same order" cmp "$T/one.jsonl" "$T/mpi.jsonl"
check "same table" cmp <(sed "1,2d; s/one.html/X.html/" "$T/one.out") <(sed "1,2d; s/mpi.html/X.html/" "$T/mpi.out")
check "the report page, as one process writes it" test -s "$T/mpi.html"
check "progress and traffic on rank 0" grep -q "^mpi: 3 ranks" "$T/mpi.err"
# Run again: everything resumed, nothing played or appended.
check "resume" $MPIRUN "$S" tournament $TU --out "$T/mpi.jsonl" --workers 2 --quiet \
    >"$T/mpi2.out"
check "resume plays nothing" grep -q "90 resumed, 0 played" "$T/mpi2.out"
check "resume appends nothing" cmp "$T/one.jsonl" "$T/mpi.jsonl"

# 2. The SPRT stops at the same game, with the same verdict, on every rank.
SP="--game towerup --players 2 --bot random --bot random --seed 8 --games 4000 --sprt 0,100,0.05,0.05"
check "sprt one process" "$S" tournament $SP --out "$T/p1.jsonl" --workers 1 --quiet >"$T/p1.out"
check "sprt 3 ranks" $MPIRUN "$S" tournament $SP --out "$T/p3.jsonl" --workers 2 --quiet \
    >"$T/p3.out"
check "sprt stopped" grep -q " at game " "$T/p1.out"
check "sprt same stop" cmp <(grep "^SPRT" "$T/p1.out") <(grep "^SPRT" "$T/p3.out")

# 3. SIGKILL to a worker rank mid-run ends the run; the same command completes the file.
KT="--game towerup --players 3 --bot mcts:iters=300 --bot heuristic --bot greedy --seed 3 --games 60"
check "kill reference" "$S" tournament $KT --out "$T/k1.jsonl" --workers 2 --quiet >/dev/null
$MPIRUN "$S" tournament $KT --out "$T/k3.jsonl" --workers 1 --quiet >/dev/null 2>"$T/k.err" &
mp=$!
victim=""
for _ in $(seq 1 400); do # wait for a few records, then kill the rank 1 process
    if [ -s "$T/k3.jsonl" ] && [ "$(wc -l <"$T/k3.jsonl")" -ge 3 ]; then
        for p in $(pgrep -P $mp); do
            if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then
                victim=$p
            fi
        done
        break
    fi
    sleep 0.05
done
[ -n "$victim" ] && kill -9 "$victim"
wait $mp
rc=$?
check "a rank was killed" test -n "$victim"
check "the killed run failed" test "$rc" -ne 0
partial=$(wc -l <"$T/k3.jsonl")
check "the killed run was cut short" test "$partial" -lt 60
check "rerun" $MPIRUN "$S" tournament $KT --out "$T/k3.jsonl" --workers 1 --quiet >"$T/k3.out"
check "rerun resumed" grep -q "($partial resumed" "$T/k3.out"
check "each game once" cmp <(indices "$T/k3.jsonl") <(seq 0 59)
check "complete file" cmp <(sort "$T/k1.jsonl") <(sort "$T/k3.jsonl")

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed" >&2
    exit 1
fi
echo "mpi tournament: all checks passed"
