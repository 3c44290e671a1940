#!/usr/bin/env bash
# The Python misuse tests (python/tests/test_misuse.py: copies, threads, released objects,
# integers beyond C's) in the AddressSanitizer build, with the ASan runtime that
# libskyline.so links preloaded into the interpreter: a memory error in the C library under
# Python aborts the run. Skipped (exit 77) where that cannot run: in builds without ASan
# (test_python.sh runs the file there), and where the library does not link the runtime
# dynamically (clang links it into programs only). --capture=sys leaves the reports on stderr.
set -uo pipefail
bin=$1 src=$2
build=$(dirname "$bin")
sanitize=$(sed -n 's/^sanitize=//p' "$build/skyline-build.txt" 2>/dev/null)
case ",$sanitize," in
*,fuzzer,*) echo "test_python_misuse: skipped in the fuzzing build"; exit 77 ;;
*,address,*) ;;
*) echo "test_python_misuse: skipped without ASan (test_python.sh runs the tests here)"; exit 77 ;;
esac
asan=$(ldd "$build/libskyline.so" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
if [ -z "$asan" ] || [ ! -e "$asan" ]; then
    echo "test_python_misuse: skipped: $build/libskyline.so links no shared ASan runtime"
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
    echo "test_python_misuse: no python3 with pytest (scripts/bootstrap.sh installs python3-pytest)" >&2
    exit 1
fi
cd "$src" || exit 1
# The interpreter's own allocations are not ours to judge: no leak report. PYTHONMALLOC lets
# ASan see every allocation; a report aborts the interpreter, which fails the run.
LD_PRELOAD="$asan" ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}" PYTHONMALLOC=malloc \
    SKYLINE_LIB="$build/libskyline.so" SKYLINE_BIN="$bin" \
    "$py" -m pytest python/tests/test_misuse.py -q -p no:cacheprovider --capture=sys
rc=$?
[ $rc -eq 5 ] && echo "test_python_misuse: no test collected" >&2 && exit 1
exit $rc
