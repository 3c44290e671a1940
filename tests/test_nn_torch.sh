#!/usr/bin/env bash
# C against PyTorch on 1,000 positions of each game (tests/nn_torch_check.py, docs/NETS.md).
# Skipped (exit 77) without python3-torch, or in sanitizer builds (the interpreter would
# need the sanitizer runtime preloaded).
set -uo pipefail
bin=$1 src=$2
build=$(dirname "$bin")
source "$src/tests/lib_nn.sh"
nn_torch_python test_nn_torch || exit 77
cd "$src" || exit 1
"$py" tests/nn_torch_check.py "$build"
