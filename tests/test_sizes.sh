#!/usr/bin/env bash
# The size check (scripts/check_sizes.py): the tree passes it, and a product file over 800
# lines or a C function over 120 lines (signature to closing brace) is caught, unless the
# function is marked as a table or the file is a test.
# Usage: tests/test_sizes.sh SKYLINE SOURCE_DIR
src=$2
. "$src/tests/cli_lib.sh"
check="$src/scripts/check_sizes.py"
python3 "$check" "$src" 2>"$tmp/err" && ok || fail "the tree: $(head -5 "$tmp/err")"
# fn FILE NAME BODY_LINES [MARK]: appends a function whose signature takes two lines and whose
# size is BODY_LINES + 4 lines (signature 2, braces 2), after the line MARK if given.
fn() {
    [ -n "$4" ] && printf '%s\n' "$4" >>"$1"
    printf 'static int %s(int a,\n               int b)\n{\n' "$2" >>"$1"
    for _ in $(seq "$3"); do printf '    a += b;\n' >>"$1"; done
    printf '}\n\n' >>"$1"
}
# A scratch tree (no repository: every file is looked at).
scratch() {
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/core" "$tmp/t/tests" "$tmp/t/fuzz/corpus"
    fn "$tmp/t/core/a.c" fits 116
    fn "$tmp/t/core/a.c" table 200 '/* size: a table */'
    seq 900 >"$tmp/t/tests/long.sh"
    seq 900 >"$tmp/t/fuzz/corpus/long.c"
    seq 800 >"$tmp/t/core/full.py"
}
scratch
python3 "$check" "$tmp/t" 2>"$tmp/err" && ok || fail "clean scratch tree: $(cat "$tmp/err")"
caught() { # DESCRIPTION PATTERN (after changing the scratch tree)
    if python3 "$check" "$tmp/t" 2>"$tmp/err"; then
        fail "$1: not caught"
    else
        grep -q -- "$2" "$tmp/err" && ok || fail "$1: $(cat "$tmp/err")"
    fi
}
scratch && fn "$tmp/t/core/b.c" long 117
caught "a function of 121 lines" "core/b.c:1: function long is 121 lines, over 120"
scratch && fn "$tmp/t/core/b.h" long 117 '/* a table */'
caught "an unmarked table" "core/b.h:2: function long is 121 lines"
scratch && seq 801 >"$tmp/t/viewer.js"
caught "a file of 801 lines" "viewer.js:1: 801 lines, over 800"
scratch && seq 801 >"$tmp/t/fuzz/x.c"
caught "a fuzz target of 801 lines" "fuzz/x.c:1: 801 lines"
finish test_sizes
