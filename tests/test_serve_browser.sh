#!/usr/bin/env bash
# skyline serve's page in headless chromium (tests/serve_browser.py): skipped (77) without
# the serve build, chromium, chromium-driver or python3-selenium, except in CI (CI=true).
set -euo pipefail
bin=$1 src=$2
if "$bin" serve --port 0 --data /nonexistent/x 2>&1 | grep -q "no web server"; then
    [ "${CI:-}" = true ] && { echo "test_serve_browser.sh: serve is not built" >&2; exit 1; }
    echo "test_serve_browser.sh: built without libmicrohttpd: skipped"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$src/tests/serve_browser.py" "$bin" "$src" "$tmp"
