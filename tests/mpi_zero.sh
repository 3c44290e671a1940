# skyline zero over MPI ranks (MPI build only, docs/ZERO.md#mpi-ranks): a tiny Connect Four
# loop whose self-play and matches run as MPI jobs (--mpi 2, --launcher "mpirun -np 3"),
# killed (-9) inside self-play, the gate and an evaluation and resumed, ends with the nets,
# records, decisions and log lines of a one-process run never killed; the log's ranks are
# the jobs' real sizes; bad --mpi and --launcher values are refused with one line. Skipped
# (77) without python3-torch or in a sanitizer build, as test_zero.sh is.
# Usage: bash mpi_zero.sh <skyline-binary> <source-dir>
set -u
skyline=$1 src=$2
build=$(dirname "$skyline")
source "$src/tests/cli_lib.sh"
cd "$tmp" || exit 1
source "$src/tests/lib_nn.sh"
nn_torch_python mpi_zero || exit 77
export SKYLINE_PYTHON=$py OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_rmaps_base_oversubscribe=1
unset SKYLINE_ZERO_DIE_AFTER
zero() { "$skyline" zero "$@"; }
c4=(--game connect4 --players 2 --tiny --workers 1 --generations 2)

zero "${c4[@]}" --out one >out 2>err && ok || fail "one process: $(cat err)"
# Each run killed at a point, the next one resumes (with another launcher: the files do not
# depend on it); the last one finishes.
for run in "1:selfplay-part --mpi 2" "1:gate-part --launcher mpirun_-np_3" \
    "2:eval-mcts-part --mpi 2"; do
    read -r at opt value <<<"$run"
    SKYLINE_ZERO_DIE_AFTER=$at zero "${c4[@]}" --out ranks "$opt" "${value//_/ }" >out 2>err
    rc=$?
    [ $rc = 137 ] && ok || fail "not killed at $at: exit status $rc: $(cat err)"
done
zero "${c4[@]}" --out ranks --mpi 2 >out 2>err && ok || fail "the last resume: $(cat err)"
"$py" "$src/tests/zero_same_run.py" one ranks --ignore ranks --min-files 11 && ok ||
    fail "ranks and one process: not the same run"
"$py" - one ranks <<'EOF' && ok || fail "ranks and one process: ranks and launchers"
import json, os, sys
a, b = sys.argv[1:]
lines = [json.loads(x) for x in open(os.path.join(b, "log.jsonl"))]
# Gen 1's self-play was finished by the run with 3 ranks, gen 2's by one with 2.
assert [x["ranks"] for x in lines if x["step"] == "selfplay"] == [3, 2], lines
assert [x["launcher"] for x in lines if x["step"] == "start"] == [
    ["mpirun", "-np", "2"], ["mpirun", "-np", "3"], ["mpirun", "-np", "2"],
    ["mpirun", "-np", "2"]], lines
lines = [json.loads(x) for x in open(os.path.join(a, "log.jsonl"))]
assert [x["ranks"] for x in lines if x["step"] == "selfplay"] == [1, 1], lines
EOF

# Refused with one line, before the folder is made.
expect_error "--mpi 0" "--mpi must be 1 to 100000" zero "${c4[@]}" --out x --mpi 0
expect_error "--mpi x" "--mpi: invalid int value: 'x'" zero "${c4[@]}" --out x --mpi x
expect_error "both" "--mpi and --launcher: give one" \
    zero "${c4[@]}" --out x --mpi 2 --launcher mpirun
expect_error "empty launcher" "--launcher needs a command" zero "${c4[@]}" --out x --launcher " "
expect_error "unbalanced quote" "--launcher 'mpirun \"': No closing quotation" \
    zero "${c4[@]}" --out x --launcher 'mpirun "'
expect_error "no launcher" "--launcher: cannot find 'no-such-mpirun'" \
    zero "${c4[@]}" --out x --launcher "no-such-mpirun -np 2"
[ ! -e x ] && ok || fail "a refused run made its folder"
# A launcher that refuses its arguments: its message's first sentence, on one line.
expect_error "bad launcher arguments" "skyline zero: mpirun: Open MPI has detected that a parameter" \
    zero "${c4[@]}" --out y --launcher "mpirun -np x"
finish mpi_zero.sh || exit 1
