#!/usr/bin/env python3
"""Checks the "one folder" claim (docs/ADDING_A_GAME.md): a game's name appears, as a word or
as part of an identifier (towerup_api, heuristic_towerup), only in its own folder and in the
registry lines that attach it to a layer. One line per stray mention on stderr; exit 1 if
there is any.

Games: every folder core/NAME/ (built in) and tests/games/NAME/ (test-only).
Where a name may appear:
  - its folder (core/NAME/ or tests/games/NAME/);
  - the registries, one line per game each (REGISTRIES below);
  - ref/NAME_*: the game's slow reference rules, written apart from its folder on purpose;
  - for a built-in game, everything but the C code of the product modules (MODULES): tests/
    and fuzz/ (a game's own tests, fuzz harnesses and fixtures name it), docs, scripts,
    python/, examples/, the build files; and the comments and #include lines of the modules
    (stripped before looking).
A test-only game is looked for in every tracked file, comments included, in any case: its
name is nowhere but its folder, its registry line and the documents that tell how a game is
added (DOCS).
Usage: scripts/check_game_names.py [ROOT]   (default: the repository)
"""
import os
import re
import subprocess
import sys

REGISTRIES = {"core/games.c", "bots/heuristic.c", "ref/references.c", "bench/bench_games.c",
              "viewer/picture.c", "tests/games/registry.c"}
DOCS = {"docs/ADDING_A_GAME.md", "docs/ARCHITECTURE.md", "README.md"}
MODULES = {"core", "nn", "search", "bots", "arena", "bench", "api", "mpi", "viewer", "cli", "ref"}


def strip_c(text):
    """C text with comments and #include lines blanked, line numbers kept."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r'"(?:\\.|[^"\\\n])*"|/\*.*?\*/|//[^\n]*', lambda m: m.group(0) if
                  m.group(0).startswith('"') else blank(m), text, flags=re.S)
    return re.sub(r"(?m)^[ \t]*#[ \t]*include[^\n]*", "", text)


def tracked(root):
    try:
        out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                             check=True).stdout
        return out.split()
    except (OSError, subprocess.CalledProcessError):  # no repository: every file
        return [os.path.relpath(os.path.join(d, f), root)
                for d, _, fs in os.walk(root) for f in fs]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    games = []
    for parent, test_only in (("core", False), ("tests/games", True)):
        base = os.path.join(root, parent)
        for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            if os.path.isdir(os.path.join(base, name)):
                games.append((name, parent + "/" + name, test_only))
    bad = 0
    for path in tracked(root):
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue
        try:
            with open(full, encoding="utf-8", errors="replace") as f:
                raw = f.read()
        except OSError:
            continue
        if "\0" in raw:  # a binary file (a shipped net's weights): no names to read
            continue
        product_c = path.split("/")[0] in MODULES and path.endswith((".c", ".h"))
        code = strip_c(raw) if product_c else None
        for name, folder, test_only in games:
            if path.startswith(folder + "/") or path in REGISTRIES or \
                    path.startswith("ref/" + name + "_"):
                continue
            if test_only and path in DOCS:
                continue
            text = raw if test_only else code
            if text is None:
                continue
            word = re.compile(r"(?<![A-Za-z0-9])%s(?![A-Za-z0-9])" % re.escape(name),
                              re.I if test_only else 0)
            for number, line in enumerate(text.split("\n"), 1):
                if word.search(line):
                    print("%s:%d: names the game '%s' outside %s/ and the registries"
                          % (path, number, name, folder), file=sys.stderr)
                    bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
