#!/usr/bin/env python3
"""Strength-speedup of a parallel searcher, from 2-player tournament records of two matches.

    scripts/strength_speedup.py SAME.jsonl[,MORE.jsonl...] DOUBLE.jsonl[,MORE.jsonl...]
                                [--resamples N] [--seed S]

SAME holds games of the parallel bot P (say 2 threads, T ms a move) against the same
search with 1 thread and T ms; DOUBLE holds games of P against 1 thread and 2T ms. P is
the bot that plays in both matches. With e1 and e2 the Elo of P in SAME and DOUBLE, doubling
the time of one thread is worth d = e1 - e2 Elo, and P plays like one thread with
2 ** (e1 / d) times the time: the strength-speedup (2 means P is worth doubling the time).

Each side may be several files (runs of the same match with different seeds), joined by
commas. The interval is a bootstrap over deals: the blocks of games on one deal (one game
per seat rotation, as `skyline tournament` plays them; a deal is known by the record's
`seed`, or else by its file and `tournament.index`) are resampled on each side. Resamples
where doubling the time looks worthless (d <= 0) count as an unbounded speedup.
"""
import argparse
import json
import math
import random
import sys


def fail(msg):
    print(f"strength_speedup.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(paths):
    """Per deal block: list of (seats, ranks) of its games; the deals in resampling order;
    and the set of bots."""
    blocks, order, bots = {}, {}, set()
    files = paths.split(",")
    if len(set(files)) != len(files):
        fail(f"{paths}: a file is given twice")
    for number, path in enumerate(files):
        load_file(path, number, blocks, order, bots)
    if not blocks:
        fail(f"{paths}: no games")
    return blocks, sorted(blocks, key=lambda deal: order[deal]), bots


def load_file(path, file_number, blocks, order, bots):
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as err:
        fail(f"{path}: {err.strerror}")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            seats, ranks = rec["seats"], rec["result"]["ranks"]
            index = rec["tournament"]["index"]
            deal = rec["seed"] if "seed" in rec else (file_number, index // 2)
            if not isinstance(index, int) or not isinstance(deal, (int, tuple)):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            fail(f"{path}:{number}: not a tournament game record")
        if len(seats) != 2 or len(ranks) != 2:
            fail(f"{path}:{number}: only 2-player games are supported")
        # A deal's place in the resampling order: where its first game is (for one file, the
        # order of `tournament.index`, so that a seed gives the same interval as before).
        order.setdefault(deal, (file_number, index // 2))
        blocks.setdefault(deal, []).append((seats, ranks))
        bots.update(seats)


def score(blocks, keys, bot):
    """Mean game result of bot (1 win, 0.5 tie, 0 loss) over the given blocks."""
    total = games = 0
    for key in keys:
        for seats, ranks in blocks[key]:
            me = seats.index(bot)
            other = 1 - me
            total += 1.0 if ranks[me] < ranks[other] else 0.5 if ranks[me] == ranks[other] else 0.0
            games += 1
    return total / games


def elo(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # + 0.0: no "-0"


def speedup(s1, s2):
    e1, e2 = elo(s1), elo(s2)
    d = e1 - e2
    if d <= 0:
        return math.inf
    return 2.0 ** (e1 / d)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def main():
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("same")
    ap.add_argument("double")
    ap.add_argument("--resamples", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.resamples < 100:
        fail("--resamples must be at least 100")
    same, k1, bots1 = load(args.same)
    double, k2, bots2 = load(args.double)
    common = bots1 & bots2
    if len(common) != 1 or len(bots1) != 2 or len(bots2) != 2:
        fail("the files must each hold two bots, exactly one of them in both")
    bot = common.pop()
    s1, s2 = score(same, k1, bot), score(double, k2, bot)
    rng = random.Random(args.seed)
    draws = []
    for _ in range(args.resamples):
        r1 = [rng.choice(k1) for _ in k1]
        r2 = [rng.choice(k2) for _ in k2]
        draws.append(speedup(score(same, r1, bot), score(double, r2, bot)))
    draws.sort()
    lo = draws[int(0.025 * len(draws))]
    hi = draws[int(0.975 * len(draws)) - 1]

    def show(x):
        return "unbounded" if math.isinf(x) else f"{x:.2f}"

    n1 = sum(len(v) for v in same.values())
    n2 = sum(len(v) for v in double.values())
    print(f"bot {bot}")
    print(f"against 1 thread, same time:   {s1:.3f} over {n1} games ({elo(s1):+.0f} Elo)")
    print(f"against 1 thread, double time: {s2:.3f} over {n2} games ({elo(s2):+.0f} Elo)")
    print(f"strength-speedup {show(speedup(s1, s2))} "
          f"(95% bootstrap interval {show(lo)} to {show(hi)}, {args.resamples} resamples)")


if __name__ == "__main__":
    main()
