"""A tournament by the C harness, its record file read back into a table: per bot and
seat with pandas when present, else from the plain records.

    PYTHONPATH=python python3 examples/python/tournament_table.py [--quick]
"""
import os
import sys
import tempfile

import skyline

quick = "--quick" in sys.argv
bots = ["random", "greedy", "heuristic", "mcts:iters=%d" % (100 if quick else 1000)]
path = os.path.join(tempfile.mkdtemp(), "tournament.jsonl")
report = skyline.tournament(bots, game="uptown", players=3, games=12 if quick else 120,
                            seed=1, record=path)
print("%d games (%d played now)" % (report["games"], report["played"]))
print("%-28s %6s %8s %8s" % ("bot", "games", "result", "elo"))
for b in report["bots"]:
    print("%-28s %6d %8.3f %8.0f" % (b["spec"], b["games"], b["result"], b["elo"] or 0))

records = skyline.read_records(path)
try:
    import pandas  # noqa: F401
except ImportError:
    by_bot = {}
    for rec in records:
        for seat, result in enumerate(skyline.game_result(rec["result"]["ranks"])):
            by_bot.setdefault(rec["seats"][seat], []).append(result)
    print("\nmean result per bot from the records (pandas not installed):")
    for bot, results in sorted(by_bot.items()):
        print("  %-28s %.3f over %d seats" % (bot, sum(results) / len(results), len(results)))
else:
    df = skyline.to_dataframe(records)
    print("\nmean result per bot and seat (pandas):")
    print(df.pivot_table(index="bot", columns="seat", values="result", aggfunc="mean"))
