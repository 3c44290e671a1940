#!/usr/bin/env bash
# C against PyTorch on 1,000 positions of each game (tests/nn_torch_check.py, docs/NETS.md).
# Skipped (exit 77) without python3-torch, or in sanitizer builds (the interpreter would
# need the sanitizer runtime preloaded).
set -uo pipefail
bin=$1 src=$2
build=$(dirname "$bin")
if grep -q '^sanitize=.' "$build/skyline-build.txt" 2>/dev/null; then
    echo "test_nn_torch: skipped in a sanitizer build"
    exit 77
fi
py=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import torch' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    echo "test_nn_torch: skipped: no python3 with PyTorch (apt-get install python3-torch)"
    exit 77
fi
cd "$src" || exit 1
PYTHONPATH="$src/python" SKYLINE_LIB="$build/libskyline.so" \
    "$py" tests/nn_torch_check.py "$build"
