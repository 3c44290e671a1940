#!/usr/bin/env python3
"""A bot for Skyline in plain Python: the Skyline Bot Protocol (docs/PROTOCOL.md).

Plays a random legal move from the list that `go` gives, preferring a move that the
previous `position` line does not rule out (it keeps no game state of its own).
Run it in any Skyline harness:

    skyline play --game towerup --players 2 --bot ext:cmd=examples/random_bot.py --bot greedy

Standard library only. Arguments: --seed N fixes its random choices.
"""
import random
import sys
from urllib.parse import unquote


def main():
    seed = None
    if len(sys.argv) == 3 and sys.argv[1] == "--seed":
        seed = int(sys.argv[2])
    rng = random.Random(seed)
    game, seat, options, position = None, None, {}, ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "sbp":
            print("id name python-random")
            print("id author Skyline examples")
            print("sbpok", flush=True)
        elif cmd == "newgame":
            game, seat = words[1], int(words[3])
            # KEY=VALUE options, each value %-escaped (a board path may hold spaces)
            options = {k: unquote(v) for k, _, v in (w.partition("=") for w in words[4:])}
        elif cmd == "position":
            position = line[len("position "):].strip()
        elif cmd == "go":
            moves = words[2:]
            # A real bot would parse `position` here and search; this one picks at random.
            move = rng.choice(moves)
            print("info picked 1 of %d moves in %s as seat %s" % (len(moves), game, seat))
            print("move " + move, flush=True)
        elif cmd == "quit":
            break
        # played, gameover and anything unknown: nothing to do
    del options, position


if __name__ == "__main__":
    main()
