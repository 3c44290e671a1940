#!/usr/bin/env bash
# Checks that two graphs have no cycle, with tsort:
# - the #include "..." graph of every module's sources (a header never includes, through
#   others, a header that includes it);
# - for each folder of the object files given, the graph of its files: file A uses file B
#   when A's object refers to a symbol that B's object defines (nm). A cycle there means no
#   file of it can be read, tested or replaced without the others (core/towerup/ had five
#   such files while state.c held the error helper everyone called).
# One line per cycle on stderr, naming its files; exit 1 if there is any.
# Usage: scripts/check_cycles.sh [-C ROOT] [OBJECT...]   (objects named FOLDER/FILE.c.o)
set -u
root=$(dirname "$0")/..
if [ "${1:-}" = -C ]; then
    root=$2
    shift 2
fi
bad=0
# Prints the nodes of a cycle of the edges on stdin ("A B" lines), or nothing.
cycle_of() {
    tsort 2>&1 >/dev/null | sed -n 's/^tsort: \([^-].*\)$/\1/p' | grep -v 'input contains a loop' | awk '!seen[$0]++' |
        tr '\n' ' '
}
# 1. Includes, from the repository's own modules.
edges=$(
    cd "$root" || exit 2
    for module in core ref nn search bots arena bench api mpi viewer serve cli fuzz; do
        [ -d "$module" ] && grep -rHo --include='*.c' --include='*.h' \
            '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$module"
    done | sed 's/:.*"\([^"]*\)"$/ \1/' | while read -r file inc; do
        # A path relative to the including file's folder, else one from the root.
        dir=${file%/*}
        if [ -e "$dir/$inc" ]; then
            inc=$dir/$inc
        fi
        echo "$file $inc"
    done
)
loop=$(cycle_of <<<"$edges")
if [ -n "$loop" ]; then
    echo "include cycle: $loop" >&2
    bad=1
fi
# 2. Files of a folder, from the objects given.
declare -A folder_objects=()
for obj in "$@"; do
    folder=$(dirname "$obj")
    folder_objects[$folder]+="$obj "
done
for folder in "${!folder_objects[@]}"; do
    declare -A owner=()
    read -ra objs <<<"${folder_objects[$folder]}"
    for obj in "${objs[@]}"; do
        name=$(basename "$obj" .o)
        while read -r sym; do
            owner[$sym]=$name
        done < <(nm -g --defined-only "$obj" | awk 'NF == 3 { print $3 }')
    done
    edges=""
    for obj in "${objs[@]}"; do
        name=$(basename "$obj" .o)
        edges+="$name $name"$'\n'
        while read -r sym; do
            dep=${owner[$sym]:-}
            if [ -n "$dep" ] && [ "$dep" != "$name" ]; then
                edges+="$name $dep"$'\n'
            fi
        done < <(nm -u "$obj" | awk '{ print $2 }')
    done
    unset owner
    loop=$(cycle_of <<<"$edges")
    if [ -n "$loop" ]; then
        echo "${folder#*CMakeFiles/*.dir/}: files that use each other: $loop" >&2
        bad=1
    fi
done
exit $bad
