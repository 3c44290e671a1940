#!/usr/bin/env bash
# Installs what the build and the tests need from Debian's packages, if it is missing
# (python3 runs scripts/strength_speedup.py in its test, scripts/bench.sh and the fake
# protocol bots of tests/; python3-pytest the Python package's suite, tests/test_python.sh;
# pgrep finds bot processes left behind; tmux runs the human seat in a real terminal).
# --clang adds clang with its OpenMP and sanitizer runtimes (CI's clang build).
# --mpi adds Open MPI (mpirun and its headers) for the -DSKYLINE_MPI=ON build (docs/MPI.md).
set -euo pipefail
need=()
if [ "${1:-}" = "--clang" ]; then
  command -v clang >/dev/null || need+=(clang)
  dpkg -s libomp-dev >/dev/null 2>&1 || need+=(libomp-dev)
  dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
fi
if [ "${1:-}" = "--mpi" ]; then
  command -v mpirun >/dev/null || need+=(openmpi-bin)
  dpkg -s libopenmpi-dev >/dev/null 2>&1 || need+=(libopenmpi-dev)
fi
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(gcc)
command -v make >/dev/null || need+=(make)
command -v pkg-config >/dev/null || need+=(pkg-config)
pkg-config --exists jansson 2>/dev/null || need+=(libjansson-dev)
command -v python3 >/dev/null || need+=(python3)
/usr/bin/python3 -c "import pytest" 2>/dev/null || need+=(python3-pytest)
command -v pgrep >/dev/null || need+=(procps)
command -v tmux >/dev/null || need+=(tmux)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
echo "bootstrap: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${need[@]}" >/dev/null
