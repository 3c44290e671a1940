# skyline generate over MPI ranks (MPI build only, docs/MPI.md): with 3 ranks the record
# file is byte for byte the file of a one-process, one-worker run (seed order); a second
# run resumes everything; mpirun killed with SIGKILL takes its ranks with it, and the same
# command completes the file.
# Usage: bash mpi_generate.sh <skyline-binary> <source-dir>
set -u
S=$1
. "$(dirname "$0")/lib_mpi.sh"

# 1. Three ranks write the file of one process with one worker, in the same order.
G="--game towerup --players 3 --bot mcts:iters=40,temp_moves=6 --seed 7 --games 16 --record-policy"
check "one process" "$S" generate $G --out "$T/one.jsonl" --workers 1 --quiet >"$T/one.out"
check "3 ranks" $MPIRUN "$S" generate $G --out "$T/mpi.jsonl" --workers 2 >"$T/mpi.out" \
    2>"$T/mpi.err"
check "same file" cmp "$T/one.jsonl" "$T/mpi.jsonl"
check "ranks in the summary" grep -q "16 played by 4 game slots on 3 ranks" "$T/mpi.out"
check "traffic on rank 0" grep -q "^mpi: 3 ranks, 4 game slots" "$T/mpi.err"
check "resume" $MPIRUN "$S" generate $G --out "$T/mpi.jsonl" --workers 2 --quiet >"$T/mpi2.out"
check "resume plays nothing" grep -q "(16 resumed, 0 played" "$T/mpi2.out"
check "resume appends nothing" cmp "$T/one.jsonl" "$T/mpi.jsonl"
# More games: only the new seeds are played, after the others.
G2=${G/--games 16/--games 20}
check "one process, 20" "$S" generate $G2 --out "$T/one.jsonl" --workers 1 --quiet >/dev/null
check "3 ranks, 20" $MPIRUN "$S" generate $G2 --out "$T/mpi.jsonl" --quiet >/dev/null
check "same file, 20" cmp "$T/one.jsonl" "$T/mpi.jsonl"

# 2. mpirun killed with SIGKILL (as skyline zero's children die with it): no rank goes on
# writing, and the same command completes the file with the records of one process.
K="--game towerup --players 3 --bot mcts:iters=300 --seed 3 --games 30"
check "kill reference" "$S" generate $K --out "$T/k1.jsonl" --workers 1 --quiet >/dev/null
$MPIRUN "$S" generate $K --out "$T/k3.jsonl" --workers 1 --quiet >/dev/null 2>&1 &
mp=$!
end=$((SECONDS + 120))
while [ "$SECONDS" -lt "$end" ]; do # wait (up to 120 s: CI may be loaded) for a record
    [ -s "$T/k3.jsonl" ] && break
    sleep 0.05
done
kill -9 $mp
wait $mp 2>/dev/null
alive() { # a process of the killed run is still there
    for p in /proc/[0-9]*; do
        tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$T/k3.jsonl" && return 0
    done
    return 1
}
gone=no
end=$((SECONDS + 120))
while [ "$SECONDS" -lt "$end" ]; do # its ranks die with it (waited for up to 120 s)
    if ! alive; then
        gone=yes
        break
    fi
    sleep 0.05
done
check "the ranks died with mpirun" test $gone = yes
partial=$(wc -l <"$T/k3.jsonl")
check "the killed run was cut short" test "$partial" -lt 30
check "rerun" $MPIRUN "$S" generate $K --out "$T/k3.jsonl" --workers 1 --quiet >"$T/k3.out"
check "rerun resumed" grep -q "($partial resumed" "$T/k3.out"
check "complete file, in seed order" cmp "$T/k1.jsonl" "$T/k3.jsonl"

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed" >&2
    exit 1
fi
echo "mpi generate: all checks passed"
