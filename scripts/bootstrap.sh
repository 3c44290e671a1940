#!/usr/bin/env bash
# Installs what the build and the tests need from Debian's packages, if it is missing
# (python3 runs scripts/strength_speedup.py in its test, scripts/bench.sh and the fake
# protocol bots of tests/; python3-pytest the Python package's suite, tests/test_python.sh;
# python3-numpy its arrays; python3-venv and python3-pip docs/PYTHON.md's installs, which
# tests/test_python_install.sh runs; python3-torch the network model that
# tests/test_nn_torch.sh checks the C forward pass against and tests/test_train.sh trains;
# pgrep finds bot processes left behind; tmux runs the human seat in a real terminal).
# rsvg-convert (librsvg2-bin) renders the SVG pictures in test_svg.
# --clang adds clang with its OpenMP and sanitizer runtimes and clang-format (CI's clang
# build and format check).
# --mpi adds Open MPI (mpirun and its headers) for the -DSKYLINE_MPI=ON build (docs/MPI.md).
# libmicrohttpd-dev is the HTTP library of skyline serve (docs/SERVE.md; the build leaves
# serve out without it, CI builds and tests it).
# --browser adds chromium, which the HTML viewer's test drives headless, and chromium-driver
# with python3-selenium, which drive serve's page in tests/serve_browser.py (CI passes it).
set -euo pipefail
need=()
clang=0 browser=0 mpi=0
for arg in "$@"; do
  case "$arg" in
    --clang) clang=1 ;;
    --browser) browser=1 ;;
    --mpi) mpi=1 ;;
    *) echo "bootstrap: unknown option $arg" >&2; exit 2 ;;
  esac
done
if [ "$browser" = 1 ]; then
  command -v chromium >/dev/null || need+=(chromium)
  command -v chromedriver >/dev/null || need+=(chromium-driver)
  /usr/bin/python3 -c "import selenium" 2>/dev/null || need+=(python3-selenium)
fi
if [ "$clang" = 1 ]; then
  command -v clang >/dev/null || need+=(clang)
  command -v clang-format >/dev/null || need+=(clang-format)
  dpkg -s libomp-dev >/dev/null 2>&1 || need+=(libomp-dev)
  dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
fi
if [ "$mpi" = 1 ]; then
  command -v mpirun >/dev/null || need+=(openmpi-bin)
  dpkg -s libopenmpi-dev >/dev/null 2>&1 || need+=(libopenmpi-dev)
fi
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(gcc)
command -v make >/dev/null || need+=(make)
command -v pkg-config >/dev/null || need+=(pkg-config)
pkg-config --exists jansson 2>/dev/null || need+=(libjansson-dev)
pkg-config --exists libmicrohttpd 2>/dev/null || need+=(libmicrohttpd-dev)
command -v python3 >/dev/null || need+=(python3)
/usr/bin/python3 -c "import pytest" 2>/dev/null || need+=(python3-pytest)
/usr/bin/python3 -c "import numpy" 2>/dev/null || need+=(python3-numpy)
/usr/bin/python3 -c "import venv, ensurepip" 2>/dev/null || need+=(python3-venv)
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
/usr/bin/python3 -c "import torch" 2>/dev/null || need+=(python3-torch)
command -v pgrep >/dev/null || need+=(procps)
command -v tmux >/dev/null || need+=(tmux)
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
echo "bootstrap: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${need[@]}" >/dev/null
