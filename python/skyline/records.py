"""Game record files (FORMATS.md §4): read_records(), to_dataframe()."""
import json
import os
import stat

# The longest line read, as the C readers (core/lines.h LINES_LINE_MAX).
LINE_MAX = 1 << 20


def read_records(path):
    """The records of a JSON-lines record file as a list of dicts (blank lines skipped).
    ValueError names the line of a record that is not JSON, or what makes the file no
    record file: missing or unreadable, not a regular file (checked before opening: a FIFO
    would wait for a writer), a line over LINE_MAX bytes, a NUL byte, a UTF-8 byte-order
    mark, not UTF-8 (the checks of skyline's own readers)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ValueError("%s is not a regular file, not a record file" % path)
        out = []
        with open(path, "rb") as f:
            lineno = 0
            while True:
                raw = f.readline(LINE_MAX + 2)
                if not raw:
                    break
                lineno += 1
                if len(raw.rstrip(b"\n")) > LINE_MAX:
                    raise ValueError("%s:%d: a line over %d bytes, the longest skyline reads"
                                     % (path, lineno, LINE_MAX))
                if b"\0" in raw:
                    raise ValueError("%s:%d: a NUL byte: not a text file" % (path, lineno))
                if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raise ValueError("%s:1: starts with a UTF-8 byte-order mark" % path)
                line = raw.decode("utf-8")
                if not line.strip():
                    continue
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise ValueError("%s:%d: not a JSON record (%s)" % (path, lineno, e.msg))
    except OSError as e:
        raise ValueError("%s: cannot read the record file (%s)" % (path, e.strerror or e)) \
            from None
    except UnicodeDecodeError as e:
        raise ValueError("%s: not UTF-8 text (%s)" % (path, e.reason)) from None
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
