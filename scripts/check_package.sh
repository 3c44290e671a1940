#!/usr/bin/env bash
# Installs a built tree into a scratch prefix and builds and runs examples/cmake_package
# against it with find_package(skyline): the package others build on really works.
# Usage: scripts/check_package.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S examples/cmake_package -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer"
echo "check_package: find_package(skyline) works from $tmp/prefix"
