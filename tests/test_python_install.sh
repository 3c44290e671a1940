#!/usr/bin/env bash
# docs/PYTHON.md's install commands, run as the page shows them: each block marked
# `<!-- install: NAME -->` (venv, folder), with Debian's python3 first on PATH, in an empty
# folder holding a copy of python/ and this build's library as build/libskyline.so. The
# block's last line imports the package after python/ and build/ are gone, so it can only
# find the installed copy; it must print the game names.
set -uo pipefail
bin=$1 src=$2
lib="$(cd "$(dirname "$bin")" && pwd)/libskyline.so"
doc="$src/docs/PYTHON.md"
if grep -q '^sanitize=.' "$(dirname "$bin")/skyline-build.txt" 2>/dev/null; then
    echo "test_python_install: skipped in a sanitizer build"
    exit 77
fi
for need in "import venv" "import ensurepip"; do
    if ! /usr/bin/python3 -c "$need" 2>/dev/null; then
        echo "test_python_install: Debian's python3 lacks '$need' (scripts/bootstrap.sh installs python3-venv)" >&2
        exit 1
    fi
done
export PATH="/usr/bin:/bin:$PATH"
unset PYTHONPATH SKYLINE_LIB VIRTUAL_ENV PIP_INDEX_URL PIP_FIND_LINKS
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for name in venv folder; do
    block=$(awk -v m="<!-- install: $name -->" '
        $0 == m { on = 1; next }
        on && /^    / { sub(/^    /, ""); print; next }
        on { exit }' "$doc")
    if [ "$(printf '%s\n' "$block" | grep -c .)" -lt 2 ]; then
        echo "test_python_install: no '<!-- install: $name -->' block of commands in docs/PYTHON.md" >&2
        exit 1
    fi
    dir="$tmp/$name"
    mkdir -p "$dir/build"
    cp -r "$src/python" "$dir/python"
    rm -rf "$dir/python/build" "$dir/python"/*.egg-info
    cp "$lib" "$dir/build/libskyline.so"
    install=$(printf '%s\n' "$block" | sed '$d')
    check=$(printf '%s\n' "$block" | tail -n 1)
    if ! (cd "$dir" && bash -euo pipefail -c "$install") >"$tmp/$name.log" 2>&1; then
        echo "test_python_install: the '$name' install commands failed:" >&2
        cat "$tmp/$name.log" >&2
        fail=1
        continue
    fi
    rm -rf "$dir/python" "$dir/build"
    out=$(cd "$dir" && bash -c "$check" 2>&1)
    if [ "$out" != "['towerup', 'uptown', 'connect4']" ]; then
        echo "test_python_install: '$check' printed: $out" >&2
        fail=1
    else
        echo "test_python_install: $name: ok"
    fi
done
exit $fail
