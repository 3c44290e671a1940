# Shared by the tests/test_*.sh scripts (sourced, not a test itself): counters, a scratch
# folder $tmp removed on exit, and expect_error for the one-line-error contract.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }

# expect_error DESCRIPTION PATTERN COMMAND...: non-zero exit (not a crash), one stderr line
# matching PATTERN.
expect_error() {
    local what=$1 pattern=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ $rc -eq 0 ] || [ $rc -ge 128 ]; then
        fail "$what: exit status $rc"
    elif [ "$lines" -ne 1 ]; then
        fail "$what: $lines lines on stderr: $(head -3 "$tmp/err")"
    elif ! grep -qE -- "$pattern" "$tmp/err"; then
        fail "$what: stderr '$(cat "$tmp/err")' does not match '$pattern'"
    else
        ok
    fi
}

# Prints the summary lines (NAME: N checks, N failed / N passed, N failed) and returns the
# test's status.
finish() {
    echo "$1: $checks checks, $fails failed"
    echo "$((checks - fails)) passed, $fails failed"
    [ $fails -eq 0 ]
}
