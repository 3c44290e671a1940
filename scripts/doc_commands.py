#!/usr/bin/env python3
"""Runs the command lines that README.md and the other documentation pages show.

Usage: scripts/doc_commands.py [--list] [--only mpi|fuzz] [--file PAGE] BUILD_DIR [REPO]

A command is a line of a code block (indented by four spaces, or fenced with ``` and no
language, sh, bash, console or shell) that starts with a program of this project or one it
names: build/skyline, skyline, scripts/..., python3, PYTHONPATH=..., .venv/bin/..., cmake,
ctest, mpirun, printf, for. A line ending in a backslash goes on in the next; a loop (for, while)
goes on to its line `done`. In a block of
`$ COMMAND` lines (a transcript), the lines after a command are what it prints, and the
first of them must match its first line of output ("..." matches anything). A ```python
block that imports skyline is run as a program.

Every page's commands run in order, in a scratch folder of their own (for --only: in the
repository, whose new top-level files and folders, but builds, are removed after) that holds links to
the repository's files and BUILD_DIR as build/, with BUILD_DIR first on PATH as `skyline`;
a line that only sets variables (NAME=VALUE) is run before each later command of its page.
A command passes when it exits 0 (run by bash -e -o pipefail) (a transcript: exits as its output says). Before a block,
an HTML comment says how its commands are run:
  <!-- doc-test: scaled -->    a long run, run to its end at a small scale: --games 6,
      --iterations 2, --deals 2, --repeats 1, --rounds 1, --check-games 6, --epochs 1, and
      in bot specs iters=N becomes N/50 (at least 10), time=N and clock=N (ms) N/20 (at
      least 1), so that budgets keep their order; the comment may
      add replacements of its own: `<!-- doc-test: scaled: OLD => NEW; ... -->`.
  <!-- doc-test: ci -->        run by .ci/run: the command must stand there, letter for letter.
  <!-- doc-test: mpi -->       needs the MPI build: run (scaled) only with --only mpi, whose
                                BUILD_DIR is that build (linked as its own name too).
  <!-- doc-test: fuzz -->      likewise for the fuzzing build (--only fuzz).
  <!-- doc-test: synopsis -->  a usage line with placeholders, not a command: not run.
Exit status: 0 when every command passed, 1 otherwise; --list prints the commands found.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PROGRAMS = re.compile(r"^(build[-\w]*/(skyline|fuzz_\w+)|skyline|scripts/\S+|python3|"
                      r"\.venv/bin/\S+|cmake|ctest|mpirun|printf|for)( |$)")
ASSIGN = re.compile(r'^([A-Z_][A-Z0-9_]*=("[^"]*"|\S+)( +|$))+')
SHELL_FENCES = ("", "sh", "bash", "console", "shell")
MARK = re.compile(r"^<!-- doc-test: (scaled|ci|mpi|fuzz|synopsis)(?:: (.*?))? -->$")
SPECIAL = ("mpi", "fuzz")  # blocks for another build, run only with --only
SCALE = [(r"--games \d+", "--games 6"), (r"--iterations \d+", "--iterations 2"),
         (r"--deals \d+", "--deals 2"), (r"--repeats \d+", "--repeats 1"),
         (r"--rounds \d+", "--rounds 1"), (r"--check-games \d+", "--check-games 6"),
         (r"--epochs \w+", "--epochs 1")]
DIVIDE = [("iters", 50, 10), ("time", 20, 1), ("clock", 20, 1)]  # key, divisor, least
BOUND_SECONDS = 900


def scaled(cmd, extra):
    """The command at the small scale of a `scaled` block."""
    for pair in filter(None, (extra or "").split(";")):
        old, new = (s.strip() for s in pair.split("=>"))
        cmd = cmd.replace(old, new)
    for pattern, small in SCALE:
        cmd = re.sub(pattern, small, cmd)
    for key, div, least in DIVIDE:
        cmd = re.sub(r"([:,]%s=)(\d+)" % key, lambda m: m.group(1) + str(
            min(int(m.group(2)), max(least, int(m.group(2)) // div))), cmd)
    return cmd


def pages(repo):
    out = subprocess.run(["git", "-C", repo, "ls-files", "*.md"], capture_output=True,
                         text=True, check=True).stdout.split()
    skip = ("CHANGELOG.md",)
    return [p for p in out if p not in skip and not p.startswith(("tests/", "fuzz/"))]


def blocks(text):
    """(first line number, kind, mode, lines) for each code block of a page."""
    lines = text.split("\n")
    i, mode, out = 0, None, []
    while i < len(lines):
        line = lines[i]
        m = MARK.match(line.strip())
        if m:
            mode = m.groups()
            i += 1
            continue
        if line.startswith("```"):
            info = line[3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            kind = "python" if info == "python" else ("shell" if info in SHELL_FENCES else None)
            if kind:
                out.append((i + 2, kind, mode, lines[i + 1:j]))
            mode, i = None, j + 1
            continue
        after = i == 0 or not lines[i - 1].strip() or MARK.match(lines[i - 1].strip())
        if line.startswith("    ") and line.strip() and after:
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            out.append((i + 1, "shell", mode, [l[4:] for l in lines[i:j]]))
            mode, i = None, j
            continue
        if line.strip():
            mode = None
        i += 1
    return out


def commands(text):
    """(line number, mode, command, expected first output line or None) of a page."""
    found = []
    for first, kind, mode, lines in blocks(text):
        if kind == "python":
            code = "\n".join(lines)
            if re.search(r"^import skyline|^from skyline", code, re.M):
                found.append((first, "python", code, None))
            continue
        k = 0
        while k < len(lines):
            line, start = lines[k], k
            transcript = line.startswith("$ ")
            if transcript:
                line = line[2:]
            j = k
            while line.endswith("\\") and j + 1 < len(lines):
                j += 1
                line = line[:-1].rstrip() + " " + lines[j].strip()
            rest = ASSIGN.sub("", line)
            if not line.strip() or (rest and not PROGRAMS.match(rest)):
                k += 1
                continue
            k = j
            if re.match(r"(for|while) ", rest) and not re.search(r"\bdone\b", line):
                while k + 1 < len(lines) and lines[k].strip() != "done":
                    k += 1
                    line += "\n" + lines[k]
            expect = None
            if transcript and k + 1 < len(lines) and lines[k + 1].strip() \
                    and not lines[k + 1].startswith("$ "):
                expect = lines[k + 1]
            if mode and mode[0] in ("scaled",) + SPECIAL:
                line = scaled(line, mode[1])
            found.append((first + start, mode[0] if mode else "run", line, expect))
            k += 1
    return found


def scratch(repo, build):
    d = tempfile.mkdtemp(prefix="doc-commands-")
    for entry in os.listdir(repo):
        if entry.startswith(".") and entry not in (".ci",):
            continue
        if entry.startswith("build"):
            continue
        os.symlink(os.path.join(repo, entry), os.path.join(d, entry))
    for name in {"build", os.path.basename(build)}:
        os.symlink(build, os.path.join(d, name))
    return d


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def run(cmd, mode, cwd, env, log):
    """Runs one command; returns None when it passed, else the reason."""
    argv = [sys.executable, "-c", cmd] if mode == "python" else ["bash", "-e", "-o",
                                                                  "pipefail", "-c", cmd]
    with open(log, "w") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        end = time.monotonic() + BOUND_SECONDS
        while proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        if proc.poll() is None:
            kill_group(proc)
            return "still running after %d s" % BOUND_SECONDS
    return None if proc.returncode == 0 else "exit status %d" % proc.returncode


def matches(expect, got):
    pattern = ".*".join(re.escape(part) for part in expect.strip().split("..."))
    return re.fullmatch(pattern, got.strip()) is not None


def check_page(repo, build, page, only, ci_text, report):
    with open(os.path.join(repo, page), encoding="utf-8") as f:
        found = commands(f.read())
    found = [c for c in found if c[1] != "synopsis" and (c[1] == only if only else
                                                          c[1] not in SPECIAL)]
    if not found:
        return 0
    # A special build's commands configure that build (cmake -B build-mpi), whose cache
    # names the repository as its source: they run in the repository itself, and the files
    # they leave at its top are removed after.
    d = repo if only else scratch(repo, build)
    before = set(os.listdir(repo))
    env = dict(os.environ, PATH=build + os.pathsep + os.environ.get("PATH", ""),
               PYTHONPATH=os.path.join(repo, "python"), SKYLINE_LIB=os.path.join(
                   build, "libskyline.so"), SKYLINE_BIN=os.path.join(build, "skyline"))
    failed, prelude = 0, ""
    try:
        for line, mode, cmd, expect in found:
            where = "%s:%d" % (page, line)
            if mode != "python" and not ASSIGN.sub("", cmd):
                prelude += cmd + "\n"  # a variable the page's later commands use
                continue
            if mode == "ci":
                if " ".join(cmd.split()) not in ci_text:
                    report("FAIL %s: not in .ci/run as written: %s" % (where, cmd))
                    failed += 1
                else:
                    report("ok   %s (ci) %s" % (where, cmd[:90]))
                continue
            log = os.path.join(d, ".doc-command.log")
            why = run(cmd if mode == "python" else prelude + cmd, mode, d, env, log)
            with open(log, errors="replace") as f:
                output = f.read()
            if expect is not None:
                first = output.split("\n", 1)[0]
                why = None if matches(expect, first) else "printed %r, the page shows %r" % (
                    first, expect.strip())
            if why:
                report("FAIL %s: %s\n  $ %s\n%s" % (where, why, cmd, "\n".join(
                    "  | " + l for l in output.rstrip().split("\n")[-15:])))
                failed += 1
            else:
                report("ok   %s (%s) %s" % (where, mode, cmd.split("\n")[0][:90]))
    finally:
        if d != repo:
            shutil.rmtree(d, ignore_errors=True)
        for entry in set(os.listdir(repo)) - before:
            path = os.path.join(repo, entry)
            if os.path.isdir(path) and not entry.startswith("build"):
                shutil.rmtree(path, ignore_errors=True)
            elif os.path.isfile(path):
                os.remove(path)
    return failed


def main(argv):
    args, only, listing, page_filter = [], None, False, None
    it = iter(argv)
    for a in it:
        if a == "--only":
            only = next(it, None)
        elif a == "--file":
            page_filter = next(it, None)
        elif a == "--list":
            listing = True
        else:
            args.append(a)
    if only not in (None,) + SPECIAL or not 1 <= len(args) <= 2:
        sys.exit("usage: scripts/doc_commands.py [--list] [--only mpi|fuzz] [--file PAGE] "
                 "BUILD_DIR [REPO]")
    build = os.path.abspath(args[0])
    repo = os.path.abspath(args[1] if len(args) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."))
    todo = [p for p in pages(repo) if page_filter in (None, p)]
    if listing:
        for page in todo:
            with open(os.path.join(repo, page), encoding="utf-8") as f:
                for line, mode, cmd, _ in commands(f.read()):
                    print("%s:%d [%s] %s" % (page, line, mode, cmd.split("\n")[0]))
        return 0
    need = "fuzz_record" if only == "fuzz" else "skyline"  # the fuzzing build has no skyline
    if not os.path.isfile(os.path.join(build, need)):
        sys.exit("doc_commands: no %s/%s: build first" % (build, need))
    with open(os.path.join(repo, ".ci", "run"), encoding="utf-8") as f:
        ci_text = " ".join(f.read().split())
    failed = sum(check_page(repo, build, p, only, ci_text, lambda s: print(s, flush=True))
                 for p in todo)
    print("doc commands: %d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
