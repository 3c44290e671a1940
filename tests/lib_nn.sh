# Shared by tests/test_train.sh, test_nn_torch.sh, test_nn_cli.sh, test_zero.sh and
# mpi_zero.sh (sourced, not a test itself): finding the python3 that runs their PyTorch part.
#
# nn_torch_python NAME: with $build the build folder and $src the repository, sets $py to
# the path of the first of python3 and /usr/bin/python3 that imports torch and exports
# PYTHONPATH and SKYLINE_LIB for the skyline package of $src over $build's libskyline.so;
# returns 0. Else says on stdout why NAME is skipped and returns 1: a sanitizer build (the
# interpreter would need the sanitizer runtime preloaded), or no python3 with PyTorch. The
# caller decides what a skip means (exit 77, or the rest of the test only).
nn_torch_python() {
    local name=$1 p
    if grep -q '^sanitize=.' "$build/skyline-build.txt" 2>/dev/null; then
        echo "$name: skipped in a sanitizer build"
        return 1
    fi
    py=""
    for p in python3 /usr/bin/python3; do
        if command -v "$p" >/dev/null && "$p" -c 'import torch' 2>/dev/null; then
            py=$(command -v "$p")
            break
        fi
    done
    if [ -z "$py" ]; then
        echo "$name: skipped: no python3 with PyTorch (apt-get install python3-torch)"
        return 1
    fi
    export PYTHONPATH="$src/python" SKYLINE_LIB="$build/libskyline.so"
}
