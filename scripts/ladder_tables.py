#!/usr/bin/env python3
"""Markdown tables of scripts/ladder.sh (docs/LADDER.md).

  ladder_tables.py ratings TITLE < RATE_JSON
      one ladder tournament's ratings: the output of `skyline rate --json [--anchor SPEC]`
      as a Markdown table (Elo with its 95% interval, the anchor named).
  ladder_tables.py scaling DIR [GAME...]
      the scaling curve from DIR/GAME-N.jsonl (N = 250, 500, ...: `mcts:iters=2N` against
      `mcts:iters=N`, 2 players; default games towerup and uptown): per doubling the score of
      2N and its Elo difference with a 95% interval, and each budget's Elo relative to the
      smallest one, the steps' intervals added in quadrature (the matches are independent).

Scaling statistics: a game's result for 2N is 1 (ranked first alone), 1/2 (tied) or 0. The
tournament plays each deal twice, seats exchanged (a block); the score's standard error is
taken over the blocks' means, so the deal's luck, shared by both games, is not counted
twice. Elo = 400 log10(s / (1 - s)); its interval is the score's (s +- 1.96 se) mapped
through that function; the Elo standard error used for the sums is the delta method's,
400 / ln(10) * se / (s (1 - s)). A score of exactly 0 or 1 has no finite Elo ("-").
"""
import json
import math
import os
import re
import sys

Z = 1.959964


def die(msg):
    print("ladder_tables.py: " + msg, file=sys.stderr)
    sys.exit(2)


def fmt_elo(x):
    return "-" if x is None else "%+.0f" % x


def ratings(title):
    try:
        rate = json.load(sys.stdin)
    except ValueError as e:
        die("ratings: not the JSON of skyline rate --json (%s)" % e)
    anchor = rate.get("anchor")
    print("**%s**: %d games; Elo: %s; anchor: %s; +- is a 95%% interval (%d bootstrap "
          "resamples of the games)." % (title, rate["games"], rate["model"],
                                        "`%s` = 0" % anchor if anchor else
                                        "the mean of the bots = 0", rate["bootstrap"]))
    print()
    print("| # | bot | Elo | +- 95% | games | mean result (95% CI) | mean rank |")
    print("|---:|---|---:|---:|---:|---|---:|")
    for b in rate["bots"]:
        ci = b["elo_ci95"]
        res = "%.3f" % b["result"]
        if b["result_ci95"] is not None:
            res += " +- %.3f" % b["result_ci95"]
        print("| %d | `%s` | %s | %s | %d | %s | %.2f |" % (
            b["rank"], b["spec"], fmt_elo(b["elo"]),
            "(anchor)" if ci is None and anchor == b["spec"] else
            "-" if ci is None else "%.0f" % ci, b["games"], res, b["mean_rank"]))


def elo_of(s):
    if s <= 0 or s >= 1:
        return None
    return 400 * math.log10(s / (1 - s))


def step(path, strong):
    """(games, score, se, elo, lo, hi, elo_se) of the bot `strong` in one record file."""
    blocks = {}
    games = 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.endswith("\n"):
                break  # a last line cut short by a kill: the tournament drops it on resume
            try:
                rec = json.loads(line)
                seats = rec["seats"]
                ranks = rec["result"]["ranks"]
                index = rec["tournament"]["index"]
            except (ValueError, KeyError, TypeError):
                die("%s:%d: not a tournament record" % (path, n))
            if len(seats) != 2 or strong not in seats or seats[0] == seats[1]:
                die("%s:%d: not a 2-player game of %s against another bot" % (path, n, strong))
            me = seats.index(strong)
            r = 1.0 if ranks[me] < ranks[1 - me] else 0.5 if ranks[me] == ranks[1 - me] else 0.0
            blocks.setdefault(index // 2, []).append(r)
            games += 1
    if not games:
        return None
    means = [sum(v) / len(v) for v in blocks.values()]
    s = sum(sum(v) for v in blocks.values()) / games
    k = len(means)
    se = None
    if k > 1:
        m = sum(means) / k
        se = math.sqrt(sum((x - m) ** 2 for x in means) / (k - 1) / k)
    elo = elo_of(s)
    if se is None:
        return games, s, None, elo, None, None, None
    lo = elo_of(max(s - Z * se, 0.0))
    hi = elo_of(min(s + Z * se, 1.0))
    elo_se = None if elo is None else 400 / math.log(10) * se / (s * (1 - s))
    return games, s, se, elo, lo, hi, elo_se


def scaling(folder, games):
    print("Elo of `mcts` (default keys) at 2N iterations against N, 2 players, one match per "
          "doubling (independent matches: each its own record file and deals). Score: the "
          "2N bot's mean game result, +- 1.96 standard errors over the deals (each deal played "
          "twice, seats exchanged). Cumulative: each budget's Elo relative to the first, the "
          "steps' 95% intervals added in quadrature.")
    for game in games:
        rx = re.compile(r"^%s-(\d+)\.jsonl$" % re.escape(game))
        ns = sorted(int(m.group(1)) for m in map(rx.match, os.listdir(folder)) if m)
        print()
        print("**%s**" % game)
        print()
        if not ns:
            print("(no record files %s-N.jsonl in %s)" % (game, folder))
            continue
        print("| 2N vs N iterations | games | score of 2N (95%% CI) | Elo 2N - N (95%% CI) | "
              "Elo of 2N vs %d (95%% CI) |" % ns[0])
        print("|---|---:|---|---|---|")
        cum, var, broken = 0.0, 0.0, False
        prev = ns[0]
        for n in ns:
            if n != prev:  # a missing step breaks the chain of differences
                broken = True
            st = step(os.path.join(folder, "%s-%d.jsonl" % (game, n)), "mcts:iters=%d" % (2 * n))
            prev = 2 * n
            if st is None:
                print("| %d vs %d | 0 | - | - | - |" % (2 * n, n))
                broken = True
                continue
            g, s, se, elo, lo, hi, elo_se = st
            if se is None:  # one deal: no spread to measure
                print("| %d vs %d | %d | %.3f (one deal: no interval) | %s | - |" % (
                    2 * n, n, g, s, fmt_elo(elo)))
                broken = True
                continue
            if elo is None:
                broken = True
            else:
                cum += elo
                var += elo_se ** 2
            cum_txt = "-" if broken else "%+.0f +- %.0f" % (cum, Z * math.sqrt(var))
            print("| %d vs %d | %d | %.3f +- %.3f | %s [%s, %s] | %s |" % (
                2 * n, n, g, s, Z * se, fmt_elo(elo),
                "-inf" if lo is None else "%+.0f" % lo, "+inf" if hi is None else "%+.0f" % hi,
                cum_txt))


def main(argv):
    if len(argv) >= 2 and argv[1] == "ratings" and len(argv) == 3:
        ratings(argv[2])
    elif len(argv) >= 3 and argv[1] == "scaling":
        if not os.path.isdir(argv[2]):
            die("scaling: no folder %s" % argv[2])
        scaling(argv[2], argv[3:] or ["towerup", "uptown"])
    else:
        die("usage: ladder_tables.py ratings TITLE < RATE_JSON | scaling DIR [GAME...]")


if __name__ == "__main__":
    main(sys.argv)
