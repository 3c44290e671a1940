# Shared by tests/mpi_*.sh (sourced, not a test itself): a scratch folder $T removed at
# exit, Open MPI allowed to run as root and to oversubscribe, $MPIRUN for 3 ranks, and
# check DESCRIPTION COMMAND... that counts failed commands in $fails.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN="mpirun --oversubscribe -np 3"
fails=0
check() { # check DESCRIPTION COMMAND...: the command must succeed
    local what=$1
    shift
    if ! "$@"; then
        echo "FAILED: $what" >&2
        fails=$((fails + 1))
    fi
}
