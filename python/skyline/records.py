"""Game record files (FORMATS.md §4): read_records(), to_dataframe()."""
import json


def read_records(path):
    """The records of a JSON-lines record file as a list of dicts (blank lines skipped).
    ValueError names the line of a record that is not JSON."""
    out = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError("%s:%d: not a JSON record (%s)" % (path, lineno, e.msg))
    return out


def game_result(ranks):
    """The game result per seat (RULES.md 1.10) from 1-based ranks."""
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    return [(sum(r > mine for r in ranks) + 0.5 * (sum(r == mine for r in ranks) - 1))
            / (n - 1) for mine in ranks]


def to_dataframe(records):
    """A pandas DataFrame with one row per game and seat: game (index in the list), seed,
    seat, bot, rank, result (RULES.md 1.10, from the ranks), score (the game's own: Tower
    Up points, Uptown groups). ImportError if pandas is missing."""
    import pandas as pd
    rows = []
    for i, rec in enumerate(records):
        res = rec.get("result") or {}
        seats = rec.get("seats") or []
        ranks = res.get("ranks") or []
        scores = res.get("scores") or res.get("groups") or []
        results = game_result(ranks)
        for s, rank in enumerate(ranks):
            rows.append({"game": i, "seed": rec.get("seed"), "seat": s,
                         "bot": seats[s] if s < len(seats) else None, "rank": rank,
                         "result": results[s],
                         "score": scores[s] if s < len(scores) else None})
    return pd.DataFrame(rows)
