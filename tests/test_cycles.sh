#!/usr/bin/env bash
# No cycles (scripts/check_cycles.sh): the #include graph of the tree, and the files of
# each game folder of core (which file's object uses which one's symbols) are acyclic;
# a scratch include cycle and a scratch pair of objects that call each other are caught.
set -u
skyline=$1
src=$2
source "$src/tests/cli_lib.sh"
check="$src/scripts/check_cycles.sh"

# The game folders, from the objects of this build (the test runs in the build folder).
objs=(CMakeFiles/skyline_core.dir/core/*/*.o)
[ -e "${objs[0]}" ] && ok || fail "no objects of core's game folders under $(pwd)"
bash "$check" -C "$src" "${objs[@]}" 2>"$tmp/err" && ok || fail "the tree: $(cat "$tmp/err")"

# A scratch include cycle.
mkdir -p "$tmp/t/core"
printf '#include "b.h"\n' >"$tmp/t/core/a.h"
printf '#include "core/a.h"\n' >"$tmp/t/core/b.h"
if bash "$check" -C "$tmp/t" 2>"$tmp/err"; then
    fail "an include cycle: not caught"
else
    grep -q "include cycle: .*core/a.h" "$tmp/err" && ok || fail "include cycle: $(cat "$tmp/err")"
fi

# A scratch folder whose two files call each other, and one whose calls go one way.
mkdir -p "$tmp/loop" "$tmp/line" "$tmp/t2"
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$tmp/a.c"
printf 'int a(int);\nint b(int x) { return a(x); }\n' >"$tmp/b.c"
printf 'int b(int x) { return x; }\n' >"$tmp/b2.c"
cc -c -o "$tmp/loop/a.c.o" "$tmp/a.c" && cc -c -o "$tmp/loop/b.c.o" "$tmp/b.c" &&
    cc -c -o "$tmp/line/a.c.o" "$tmp/a.c" && cc -c -o "$tmp/line/b.c.o" "$tmp/b2.c" && ok ||
    fail "cc"
if bash "$check" -C "$tmp/t2" "$tmp"/loop/*.o 2>"$tmp/err"; then
    fail "files that call each other: not caught"
else
    grep -q "loop: files that use each other: .*a.c" "$tmp/err" && ok || fail "$(cat "$tmp/err")"
fi
bash "$check" -C "$tmp/t2" "$tmp"/line/*.o 2>"$tmp/err" && ok || fail "one way: $(cat "$tmp/err")"
finish test_cycles
