#!/usr/bin/env python3
"""Iterations per second of processor time of a bot's searches, for builds side by side.

Usage: scripts/search_speed.py [--rounds R] [--iters N] [--positions P] [--spec SPEC]
                               [--cases CASE,...] LIB [LIB ...]

Each LIB is a build's libskyline.so (say build/libskyline.so and the one of a build of
main). For every round and case (towerup-2p on the duo board, towerup-3p and -4p,
uptown-2p to -5p, connect4: its best preset is plain UCT), each LIB in turn (the order reversed every other round) runs, in a
process of its own, the bot `mcts:iters=N` (the best preset) plus SPEC, reset before each
search, on P positions: the start of a seeded game and every 6th ply of a seeded random
game after it; the figure is the iterations over the processor time of the searches.
Prints each figure as it comes, then per case the median and min-max of every LIB and of
each LIB's ratio to the first, round by round. The chosen moves are printed as a key per
LIB: equal keys mean the builds searched alike.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
import zlib

CASES = {
    "towerup-2p": ("towerup", 2, {"board": "duo"}),
    "towerup-3p": ("towerup", 3, {"board": "standard"}),
    "towerup-4p": ("towerup", 4, {"board": "standard"}),
    "uptown-2p": ("uptown", 2, {}),
    "uptown-3p": ("uptown", 3, {}),
    "uptown-4p": ("uptown", 4, {}),
    "uptown-5p": ("uptown", 5, {}),
    "connect4": ("connect4", 2, {}),
}


def worker(case, iters, positions, spec):
    """Runs in the LIB's process: prints 'iterations seconds key'."""
    import random

    import skyline

    game, players, options = CASES[case]
    state = skyline.new_game(game, players=players, seed=777 + players, **options)
    full = "mcts:iters=%d" % iters + ("," + spec if spec else "")
    rng = random.Random(99)
    seconds, key = 0.0, 0
    for p in range(positions):
        bot = skyline.Bot(full, game=game, seed=1234 + p)
        start = time.process_time()
        move = bot.choose(state)
        seconds += time.process_time() - start
        key = zlib.crc32(str(move).encode(), key)
        for _ in range(6):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal():
            positions = p + 1
            break
    print(iters * positions, seconds, key)


def run(lib, case, args):
    env = dict(os.environ, SKYLINE_LIB=os.path.abspath(lib))
    here = os.path.dirname(os.path.abspath(__file__))
    env["PYTHONPATH"] = os.path.join(os.path.dirname(here), "python")
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", case,
                          "--iters", str(args.iters), "--positions", str(args.positions),
                          "--spec", args.spec], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("search_speed: %s on %s failed: %s" % (lib, case, out.stderr.strip()[-300:]))
    iterations, seconds, key = out.stdout.split()
    return float(iterations) / float(seconds), key


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("libs", nargs="*")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=3000)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--spec", default="")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.iters, args.positions, args.spec)
        return
    cases = args.cases.split(",")
    for c in cases:
        if c not in CASES:
            sys.exit("search_speed: unknown case '%s' (cases: %s)" % (c, ", ".join(CASES)))
    if not args.libs:
        sys.exit("search_speed: no library given (a build's libskyline.so)")
    if args.rounds < 1 or args.iters < 1 or args.positions < 1:
        sys.exit("search_speed: --rounds, --iters and --positions must be at least 1")
    rate = {}
    keys = {}
    for r in range(args.rounds):
        for c in cases:
            order = list(range(len(args.libs)))
            for k in order if r % 2 == 0 else order[::-1]:
                rate[r, c, k], keys[c, k] = run(args.libs[k], c, args)
                print("round %d %s %s %.0f it/s" % (r + 1, c, args.libs[k], rate[r, c, k]),
                      flush=True)
    print("case, then per library: median it/s (min-max), ratio to the first (min-max), key")
    for c in cases:
        parts = []
        for k in range(len(args.libs)):
            v = [rate[r, c, k] for r in range(args.rounds)]
            q = [rate[r, c, k] / rate[r, c, 0] for r in range(args.rounds)]
            parts.append("%.0f (%.0f-%.0f) x%.2f (%.2f-%.2f) %08x" % (
                statistics.median(v), min(v), max(v), statistics.median(q), min(q), max(q),
                int(keys[c, k])))
        print(c, " | ".join(parts))


if __name__ == "__main__":
    main()
