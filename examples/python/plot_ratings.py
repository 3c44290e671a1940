"""Ratings of a small tournament with their 95% intervals, plotted with matplotlib into
ratings.png (or the path given). Without matplotlib it says so and exits 0.

    PYTHONPATH=python python3 examples/python/plot_ratings.py [--quick] [ratings.png]
"""
import sys

import skyline

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_ratings: matplotlib is not installed (Debian: python3-matplotlib); skipped")
    sys.exit(0)

quick = "--quick" in sys.argv
args = [a for a in sys.argv[1:] if not a.startswith("--")]
out = args[0] if args else "ratings.png"
bots = ["random", "mcts:iters=30", "mcts:iters=100", "mcts:iters=%d" % (300 if quick else 1000)]
report = skyline.tournament(bots, game="connect4", games=16 if quick else 200, seed=1)
rows = [b for b in reversed(report["bots"])]
names = [b["spec"] for b in rows]
elo = [b["elo"] or 0.0 for b in rows]
err = [b["elo_ci95"] or 0.0 for b in rows]
fig, ax = plt.subplots(figsize=(6, 0.6 * len(rows) + 1))
ax.errorbar(elo, range(len(rows)), xerr=err, fmt="o", capsize=4)
ax.set_yticks(range(len(rows)))
ax.set_yticklabels(names)
ax.set_xlabel("Elo (Bradley-Terry, 95% bootstrap interval)")
ax.set_title("Connect Four, %d games" % report["games"])
fig.tight_layout()
fig.savefig(out, dpi=100)
print("plot_ratings: wrote %s" % out)
