#!/usr/bin/env python3
"""Plays the bot-strength table of docs/RESULTS.md and prints it as Markdown.

Each cell: bot A in seat 0, bot B in every other seat, `skyline play --games K --seed S`
(game i uses seed S+i, so the first player moves round the seats); the cell is seat 0's
mean game result (RULES.md 1.10) with a 95% normal interval, and its first places. Where
every game was won or lost the interval is empty and the rule-of-three bound is given.
Search budgets are iterations, not time, so the table does not depend on the machine's load.

Usage: scripts/strength_table.py [SKYLINE] [--quick]
"""
import json
import math
import os
import subprocess
import sys
import tempfile

PAIRINGS = [  # (bot A, bot B, games, first seed)
    ("heuristic", "random", 200, 1),
    ("greedy", "random", 200, 1),
    ("heuristic", "greedy", 200, 1),
    ("mcts:iters=1000", "heuristic", 30, 1001),
    ("mcts:iters=1000,prior=heuristic,cutoff=8,fpu=0.3", "heuristic", 30, 1001),
]


def game_results(path):
    """Seat 0's game result (RULES.md 1.10) and first place, per record."""
    out = []
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            ranks = rec["result"]["ranks"]
            mine = ranks[0]
            others = ranks[1:]
            beaten = sum(1 for r in others if r > mine)
            tied = sum(1 for r in others if r == mine)
            out.append(((beaten + 0.5 * tied) / len(others), mine == min(ranks) and tied == 0))
    return out


def cell(results):
    n = len(results)
    mean = sum(r for r, _ in results) / n
    firsts = sum(1 for _, f in results if f)
    var = sum((r - mean) ** 2 for r, _ in results) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    if var == 0.0 and mean in (0.0, 1.0):
        bound = 3.0 / n
        side = f"95% ≥ {1 - bound:.3f}" if mean == 1.0 else f"95% ≤ {bound:.3f}"
        return f"{mean:.3f} ({firsts}/{n}, {side})"
    return f"{mean:.3f} ± {half:.3f} ({firsts}/{n})"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    skyline = args[0] if args else "build/skyline"
    with tempfile.TemporaryDirectory() as tmp:
        for game in ("towerup", "uptown"):
            print(f"\n**{game}**\n")
            print("| seat 0 vs every other seat | 2 players | 3 players | 4 players |")
            print("|---|---|---|---|")
            for a, b, games, seed in PAIRINGS:
                if quick:
                    games = min(games, 4)
                row = [f"`{a}` vs {b}"]
                for players in (2, 3, 4):
                    rec = os.path.join(tmp, f"{game}{players}.jsonl")
                    if os.path.exists(rec):
                        os.remove(rec)
                    cmd = [skyline, "play", "--game", game, "--players", str(players),
                           "--bot", a] + ["--bot", b] * (players - 1) + [
                           "--games", str(games), "--seed", str(seed), "--quiet",
                           "--record", rec]
                    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                    row.append(cell(game_results(rec)))
                print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
