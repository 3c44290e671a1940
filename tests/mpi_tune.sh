# skyline tune over MPI ranks (MPI build only, docs/MPI.md): 3 ranks give the parameter
# file, checkpoint and log of a one-process run with the same seed, also when stopped and
# resumed; a worker rank killed mid-run, then the same command, gives the same files.
# Usage: bash mpi_tune.sh <skyline-binary> <source-dir>
set -u
S=$1
. "$(dirname "$0")/lib_mpi.sh"
same() { # same REF NAME: NAME, NAME.ckpt and NAME.log.jsonl equal REF's
    for ext in "" .ckpt .log.jsonl; do
        check "$2$ext equals $1$ext" cmp "$T/$1$ext" "$T/$2$ext"
    done
}

TU="--game towerup --players 3 --bot heuristic --against greedy --iterations 6 --deals 3 --seed 7"
check "one process" "$S" tune $TU --out "$T/one.params" --workers 1 >/dev/null 2>&1
check "3 ranks" $MPIRUN "$S" tune $TU --out "$T/mpi.params" --workers 2 >"$T/mpi.out" 2>&1
same one.params mpi.params
check "one iteration line a run" test "$(grep -c '^iter ' "$T/mpi.out")" -eq 6
check "no rank files left" test -z "$(ls "$T" | grep rank)"
# Stopped after 2 iterations, then resumed: the same files.
check "3 ranks, part 1" $MPIRUN "$S" tune $TU --out "$T/part.params" --stop-after 2 >/dev/null 2>&1
check "3 ranks, resumed" $MPIRUN "$S" tune $TU --out "$T/part.params" >"$T/part.out" 2>&1
check "resumed at 2" grep -q "resuming from .* at iteration 2" "$T/part.out"
same one.params part.params

# A worker rank killed mid-run: the run ends, the same command completes it.
TK="--game towerup --players 3 --bot mcts:iters=100,prior=heuristic --against greedy --iterations 8 --deals 2 --seed 9"
check "one process (kill)" "$S" tune $TK --out "$T/onek.params" --workers 2 >/dev/null 2>&1
$MPIRUN "$S" tune $TK --out "$T/kill.params" --workers 1 >/dev/null 2>&1 &
mp=$!
victim=""
for _ in $(seq 1 400); do # wait for the first checkpoint, then kill the rank 2 process
    if [ -s "$T/kill.params.ckpt" ]; then
        for p in $(pgrep -P $mp); do
            if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=2"; then
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
check "rerun" $MPIRUN "$S" tune $TK --out "$T/kill.params" >/dev/null 2>&1
same onek.params kill.params

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed" >&2
    exit 1
fi
echo "mpi tune: all checks passed"
