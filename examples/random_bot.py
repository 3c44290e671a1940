#!/usr/bin/env python3
"""A bot for Skyline in plain Python: the Skyline Bot Protocol (docs/PROTOCOL.md).

Answers every `go` with a move drawn uniformly at random from the legal moves that `go`
lists, and says so in an `info` line. It keeps no game state: `newgame` gives the game and
its seat (used only in that `info` line) and the game's options, which it decodes from
their %-escapes (docs/PROTOCOL.md) but does not use; it keeps the last `position` without
parsing it; `played` and `gameover` are ignored. A real bot would parse `position`
(docs/NOTATION.md) and search. Run it in any Skyline harness:

    skyline play --game towerup --players 2 --bot ext:cmd=examples/random_bot.py --bot greedy

Standard library only. Arguments: none, or --seed N to make its choices the same in every
run (without it they differ); anything else is refused with one line on stderr.
"""
import random
import sys
from urllib.parse import unquote


def main():
    seed = None
    if len(sys.argv) == 3 and sys.argv[1] == "--seed" and sys.argv[2].isdigit():
        seed = int(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit("random_bot.py: arguments are none or --seed N (a number)")
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
            move = rng.choice(moves)
            print("info picked 1 of %d moves in %s as seat %s" % (len(moves), game, seat))
            print("move " + move, flush=True)
        elif cmd == "quit":
            break
        # played, gameover and anything unknown: nothing to do
    del options, position


if __name__ == "__main__":
    main()
