"""An ext: bot (docs/PROTOCOL.md) outlives the Python thread that first used it: its
process is the harness's, not that thread's."""
import sys
import threading

import skyline

BOT = r'''
import os, sys
for line in sys.stdin:
    w = line.split()
    if w and w[0] == "sbp":
        print("sbpok", flush=True)
    elif w and w[0] == "go":
        with open(sys.argv[1], "a") as log:
            log.write("%d\n" % os.getpid())
        print("move " + w[-1], flush=True)  # the last listed move, never the first
    elif w and w[0] == "quit":
        break
'''


def test_ext_bot_outlives_the_thread_that_started_it(tmp_path):
    (tmp_path / "bot.py").write_text(BOT)
    log = tmp_path / "pids"
    cmd = tmp_path / "bot"
    cmd.write_text('#!/bin/sh\nexec "%s" "%s" "%s"\n' % (sys.executable, tmp_path / "bot.py", log))
    cmd.chmod(0o755)
    bot = skyline.Bot("ext:cmd=%s" % cmd, game="connect4")
    state = skyline.new_game("connect4")
    first = []
    worker = threading.Thread(target=lambda: first.append(bot.choose(state)))
    worker.start()
    worker.join()
    # The thread is gone; the same process answers every later go.
    later = [bot.choose(state) for _ in range(10)]
    assert first == ["7"] and later == ["7"] * 10
    pids = log.read_text().split()
    assert len(pids) == 11 and len(set(pids)) == 1, pids
    del bot
