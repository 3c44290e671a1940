#!/usr/bin/env bash
# ThreadSanitizer sees OpenMP's synchronisation (TSan builds only): the race-free pattern of
# fit's and the search's parallel regions gives no report, and a real race inside a
# parallel region is reported. Fails where the OpenMP runtime is not one TSan understands
# (GCC's libgomp: build the TSan tree with clang, whose libomp loads the Archer tool) or
# where TSan would miss races in parallel regions. docs/TESTING.md.
# Usage: bash tsan_openmp.sh <tsan_openmp-binary>
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# The caller's options (CI: ignore_noninstrumented_modules=1), reports to stderr here.
opts="${TSAN_OPTIONS:-} log_path=stderr exitcode=66"
TSAN_OPTIONS="$opts" "$bin" clean >"$tmp/out" 2>"$tmp/err"
rc=$?
# Archer asks for this option, else libomp's own (uninstrumented) memsets are reported and
# its warning is one more stderr line in every command.
if grep -q "ignore_noninstrumented_modules" "$tmp/err"; then
    echo "FAIL: run TSan tests with TSAN_OPTIONS='ignore_noninstrumented_modules=1' (.ci/run)" >&2
    fails=1
fi
if [ $rc -ne 0 ] || grep -q ThreadSanitizer "$tmp/err"; then
    echo "FAIL: a race-free parallel region is reported (exit $rc):" >&2
    head -30 "$tmp/err" >&2
    grep -q libgomp "$tmp/err" && echo "(GCC's libgomp: configure the TSan tree with CC=clang)" >&2
    fails=1
fi
TSAN_OPTIONS="$opts halt_on_error=0" "$bin" race >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 66 ] || ! grep -q "WARNING: ThreadSanitizer: data race" "$tmp/err" ||
    ! grep -q "racy_run" "$tmp/err"; then
    echo "FAIL: a race in a parallel region is not reported (exit $rc):" >&2
    head -30 "$tmp/err" >&2
    fails=1
fi
[ $fails -eq 0 ] && echo "tsan_openmp: both checks passed"
exit $fails
