#!/usr/bin/env python3
"""The cost of a Python evaluator in the C search (mcts:net=@evaluator, docs/NETS.md).

Usage: scripts/evaluator_cost.py [--game G] [--iters N] [--skyline BIN]

Searches the game's start (2 players) three ways with the same random net (width 128,
depth 2, made by `skyline bench --save-nets`): the C evaluation (mcts:net=FILE), a Python
evaluator that does the same forward pass in numpy, and one that returns zeros (the hook's
own cost). Prints each one's time per search iteration and, for the Python ones, per call.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import numpy as np  # noqa: E402

import skyline  # noqa: E402
from skyline import nets  # noqa: E402


def numpy_forward(path):
    """The resmlp forward pass of docs/NETS.md in numpy (float32), as an evaluator."""
    meta, tensors = nets.read_net(path)
    w = {k: np.frombuffer(b, dtype="<f4").reshape(s) for k, (s, b) in tensors.items()}
    depth = int(meta["depth"])

    def fn(obs, actions):
        h = np.maximum(w["stem.weight"] @ obs + w["stem.bias"], 0)
        for k in range(depth):
            r = np.maximum(w["blocks.%d.fc1.weight" % k] @ h + w["blocks.%d.fc1.bias" % k], 0)
            h = np.maximum(h + w["blocks.%d.fc2.weight" % k] @ r + w["blocks.%d.fc2.bias" % k],
                           0)
        logits = w["policy.weight"][actions] @ h + w["policy.bias"][actions]
        values = 1 / (1 + np.exp(-(w["value.weight"] @ h + w["value.bias"])))
        return logits, values
    return fn


def timed(spec, game, fn=None):
    """(seconds per iteration, calls) of one search from the start."""
    st = skyline.new_game(game, players=2, seed=1)
    bot = skyline.Bot(spec, game=game, seed=1)
    calls = [0]
    if fn is not None:
        def counted(obs, actions):
            calls[0] += 1
            return fn(obs, actions)
        bot.set_evaluator(counted, players=2)
    t0 = time.perf_counter()
    bot.choose(st)
    seconds = time.perf_counter() - t0
    return seconds / bot.info["iterations"], calls[0], seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="connect4")
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--skyline", default=os.path.join(os.path.dirname(HERE), "build", "skyline"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([a.skyline, "bench", "--nets", "--quick", "--game", a.game,
                        "--save-nets", tmp], check=True, stdout=subprocess.DEVNULL)
        path = os.path.join(tmp, "%s-2p.net" % a.game)
        zeros = lambda obs, actions: (np.zeros(len(actions)), np.full(2, 0.5))  # noqa: E731
        rows = [("C net", timed("mcts:net=%s,iters=%d" % (path, a.iters), a.game)),
                ("numpy forward pass", timed("mcts:net=@evaluator,iters=%d" % a.iters, a.game,
                                             numpy_forward(path))),
                ("zeros (the hook alone)", timed("mcts:net=@evaluator,iters=%d" % a.iters,
                                                 a.game, zeros))]
    print("%s, 2 players, %d iterations from the start, one thread" % (a.game, a.iters))
    for name, (per_iter, calls, seconds) in rows:
        per_call = " %8.1f us a call (%d calls)" % (1e6 * seconds / calls, calls) if calls else ""
        print("%-24s %8.1f us an iteration%s" % (name, 1e6 * per_iter, per_call))


if __name__ == "__main__":
    main()
