#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (AddressSanitizer + UBSan) and runs each
# for SECONDS (default 20) from its committed corpus, with a fixed seed, a memory limit, a
# hang timeout and leak detection. Fails on any crash, leak, hang or out-of-memory; the
# input that caused it is left in build-fuzz/crashes/ (docs/FUZZING.md).
# usage: scripts/fuzz.sh [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(board record botspec params tunespec move position engine net request)

# Debian's clang with its fuzzer, sanitizer and OpenMP runtimes.
scripts/bootstrap.sh --clang

build=build-fuzz
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DSKYLINE_FUZZ=ON >/dev/null
cmake --build "$build" -j2 --target fuzz_all >/dev/null
mkdir -p "$build/crashes"

failed=()
for t in "${targets[@]}"; do
    # New inputs go to a scratch corpus in the build; the committed corpus is only read.
    work="$build/corpus/$t"
    mkdir -p "$work"
    log="$build/fuzz_$t.log"
    dict=()
    [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
    if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/fuzz_$t" -seed=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -max_len=8192 -print_final_stats=1 -artifact_prefix="$build/crashes/$t-" \
            "${dict[@]}" "$work" "fuzz/corpus/$t" >"$log" 2>&1; then
        echo "fuzz $t: ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" |
            grep -o '[0-9]*$' || echo '?') runs in ${seconds} s)"
    else
        echo "fuzz $t: FAILED (log $log, input in $build/crashes/)" >&2
        grep -E 'ERROR|SUMMARY|fuzz:|runtime error|Test unit written' "$log" | head -20 >&2 || true
        failed+=("$t")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
    exit 1
fi
