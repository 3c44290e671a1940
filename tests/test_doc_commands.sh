#!/usr/bin/env bash
# Every command line that README.md and the other pages show, run as the page shows it
# (long runs at a small scale, as each page's `<!-- doc-test: ... -->` comment says):
# scripts/doc_commands.py. In the Release build only: .ci/run leaves it out of the other
# builds' runs (and runs the MPI and fuzzing pages' blocks in those steps); a sanitizer
# build skips it (the Python examples would need the sanitizer runtime preloaded).
set -uo pipefail
bin=$1 src=$2
build=$(cd "$(dirname "$bin")" && pwd)
if grep -q '^sanitize=.' "$build/skyline-build.txt" 2>/dev/null; then
    echo "test_doc_commands: skipped in a sanitizer build"
    exit 77
fi
# Debian's python3 first, as the pages assume (docs/PYTHON.md).
export PATH="/usr/bin:/bin:$PATH"
exec python3 "$src/scripts/doc_commands.py" "$build" "$src"
