#!/usr/bin/env python3
"""A misbehaving Skyline Bot Protocol bot for tests/test_protocol.sh.

Usage: sbp_fake.py MODE [K [MARK]] (MARK: an unused argument that tests find it by). Plays the first listed move until its K-th go (default 3),
then, by MODE: crash (exits 3), illegal (answers a move not listed), garbage (answers
nonsense), timeout (never answers), closed (closes its output, stays alive), nosbpok
(never answers sbp 1), slowquit (plays well, ignores quit), spawner (plays well, leaves a
sleeping child in its process group), oneshot (plays well, exits after gameover), log
(plays well, appends every line it reads to the file MARK), good (plays well).
"""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
k = int(sys.argv[2]) if len(sys.argv) > 2 else 3
gos = 0
out = sys.stdout
for line in sys.stdin:
    if mode == "log":
        with open(sys.argv[3], "a") as log:
            log.write(line)
    words = line.split()
    if not words:
        continue
    if words[0] == "sbp":
        if mode == "nosbpok":
            time.sleep(3600)
        out.write("id name fake-%s\nsbpok\n" % mode)
        out.flush()
        if mode == "spawner":
            # a child of its own, marked with the caller's argument (for pgrep -f)
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"]
                             + sys.argv[3:], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL)
    elif words[0] == "go":
        gos += 1
        if gos >= k:
            if mode == "crash":
                sys.exit(3)
            if mode == "illegal":
                out.write("move Z99\n")
                out.flush()
                continue
            if mode == "garbage":
                out.write("hello there\n")
                out.flush()
                continue
            if mode == "timeout":
                time.sleep(3600)
            if mode == "closed":
                os.close(1)
                time.sleep(3600)
        out.write("info depth 0\nmove %s\n" % words[2])
        out.flush()
    elif words[0] == "gameover" and mode == "oneshot":
        sys.exit(0)
    elif words[0] == "quit":
        if mode == "slowquit":
            time.sleep(3600)
        break
