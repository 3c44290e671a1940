#!/usr/bin/env bash
# The Python package's pytest suite (python/tests) against this build's libskyline.so and
# skyline binary. Skipped (exit 77) in sanitizer builds: the interpreter would need the
# sanitizer runtime preloaded. No pytest, or no test collected (pytest's exit 5), fails.
set -uo pipefail
bin=$1 src=$2
build=$(dirname "$bin")
if grep -q '^sanitize=.' "$build/skyline-build.txt" 2>/dev/null; then
    echo "test_python: skipped in a sanitizer build ($(grep '^sanitize=' "$build/skyline-build.txt"))"
    exit 77
fi
py=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import pytest' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    echo "test_python: no python3 with pytest (scripts/bootstrap.sh installs python3-pytest)" >&2
    exit 1
fi
cd "$src" || exit 1
SKYLINE_LIB="$build/libskyline.so" SKYLINE_BIN="$bin" "$py" -m pytest python/tests -q -p no:cacheprovider
rc=$?
[ $rc -eq 5 ] && echo "test_python: no test collected" >&2 && exit 1
exit $rc
