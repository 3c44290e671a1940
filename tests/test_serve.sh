#!/usr/bin/env bash
# skyline serve (docs/SERVE.md) over HTTP: tests/serve_check.py. Skipped (77) in a build
# without libmicrohttpd, except in CI (CI=true), which installs it.
set -euo pipefail
bin=$1 src=$2
if "$bin" serve --port 0 --data /nonexistent/x 2>&1 | grep -q "no web server"; then
    [ "${CI:-}" = true ] && { echo "test_serve.sh: serve is not built" >&2; exit 1; }
    echo "test_serve.sh: built without libmicrohttpd: skipped"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$src/tests/serve_check.py" "$bin" "$src" "$tmp"
