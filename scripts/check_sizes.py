#!/usr/bin/env python3
"""Checks the size limits of the product code (a file or function past them is split by
concern):
  - no product file over 800 lines: the tracked *.c *.h *.py *.js *.css *.sh files, except
    tests/ and the fuzz inputs fuzz/corpus/ and fuzz/regress/;
  - no C function of those files over 120 lines, counted from the first line of its signature
    to its closing brace, except one marked by the comment `/* size: a table */` on the line
    before its signature (a function that is one long table).
A C function is found by its layout (clang-format, BreakBeforeBraces: Linux): a signature
that starts in column 0, its "{" alone in column 0 and its "}" alone in column 0.
One line per breach on stderr (FILE:LINE: ...); exit 1 if there is any.
Usage: scripts/check_sizes.py [ROOT]   (default: the repository)
"""
import os
import subprocess
import sys

FILE_MAX = 800
FUNCTION_MAX = 120
EXTS = (".c", ".h", ".py", ".js", ".css", ".sh")
SKIP = ("tests/", "fuzz/corpus/", "fuzz/regress/")
TABLE_MARK = "/* size: a table */"


def tracked(root):
    try:
        out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                             check=True).stdout
        return out.splitlines()
    except (OSError, subprocess.CalledProcessError):  # no repository: every file
        return [os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                for d, _, fs in os.walk(root) for f in fs]


def functions(lines):
    """(name line, first line, last line) of each C function, 0-based, by the layout."""
    found = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        # The signature: back to the nearest line that starts in column 0.
        start = i - 1
        while start >= 0 and (not lines[start] or lines[start][0] in " \t"):
            start -= 1
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "}":
            end += 1
        if start >= 0 and "(" in "".join(lines[start:i]) and end < len(lines):
            found.append((start, end))
        i = end + 1
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    bad = 0
    for path in sorted(tracked(root)):
        if not path.endswith(EXTS) or path.startswith(SKIP):
            continue
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue
        with open(full, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        if len(lines) > FILE_MAX:
            print(f"{path}:1: {len(lines)} lines, over {FILE_MAX}: split it by concern",
                  file=sys.stderr)
            bad += 1
        if not path.endswith((".c", ".h")):
            continue
        for start, end in functions(lines):
            size = end - start + 1
            if size <= FUNCTION_MAX or (start > 0 and TABLE_MARK in lines[start - 1]):
                continue
            name = lines[start].split("(")[0].split()[-1].lstrip("*") if "(" in lines[start] \
                else lines[start].strip()
            print(f"{path}:{start + 1}: function {name} is {size} lines, over {FUNCTION_MAX}: "
                  f"split it by concern", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
