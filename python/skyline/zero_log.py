"""The self-play loop's files (docs/ZERO.md): its JSON Lines log, written once per
(generation, step), the self-play records put in seed order, the trainer's epoch lines
and the gate's SPRT line read back."""
import datetime
import json
import os
import re


class Log:
    """DIR/log.jsonl: one object a line; a line already there for a (generation, step
    [, against]) is not written again, so a resumed run writes each once."""

    def __init__(self, path, engine):
        self.path, self.engine = path, engine
        self.lines = []

    def repair(self):
        """Reads the log, dropping a torn last line (a kill in the middle of a write)."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return
        keep = data[:data.rfind(b"\n") + 1]
        if keep != data:
            with open(self.path, "r+b") as f:
                f.truncate(len(keep))
        for n, line in enumerate(keep.decode().splitlines(), 1):
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                raise ValueError("%s:%d: not a log line" % (self.path, n)) from None

    def has(self, gen, step, against=None):
        return any(x.get("gen") == gen and x.get("step") == step and
                   (against is None or x.get("against") == against) for x in self.lines)

    def write(self, gen, step, always=False, **fields):
        if not always and self.has(gen, step, fields.get("against")):
            return
        line = {"v": 1, "time": datetime.datetime.now(datetime.timezone.utc)
                .strftime("%Y-%m-%dT%H:%M:%SZ"), "engine": self.engine, "gen": gen,
                "step": step}
        line.update(fields)
        text = json.dumps(line) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, text.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        self.lines.append(line)
        if step != "start":
            print(_summary(line), flush=True)


def _summary(line):
    skip = ("v", "time", "engine", "gen", "step", "config")
    return "gen %d %s: %s" % (line["gen"], line["step"], ", ".join(
        "%s %s" % (k, round(v, 3) if isinstance(v, float) else v)
        for k, v in line.items() if k not in skip))


def count_lines(path):
    try:
        with open(path, "rb") as f:
            return sum(1 for line in f if line.endswith(b"\n"))
    except FileNotFoundError:
        return 0


def sort_records(path, tournament=False):
    """Puts a finished record file in seed order, or a tournament's in index order
    (replaced whole): the games' order then does not depend on which worker finished first,
    nor do the nets trained on them or the ratings' last bits."""
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    records.sort(key=(lambda r: r["tournament"]["index"]) if tournament else
                 (lambda r: r.get("seed", 0)))
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    with open(path) as f:
        same = f.read() == text
    if not same:
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    return records


def read_lines(path):
    """The JSON objects of a file of lines (the trainer's output); others are skipped."""
    out = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if isinstance(obj, dict):
                    out.append(obj)
    except FileNotFoundError:
        pass
    return out


def last_epoch(lines, epochs):
    """The trainer's line of its last epoch, or None."""
    found = [x for x in lines if x.get("epoch") == epochs]
    return found[-1] if found else None


def epochs_seconds(lines, epochs):
    """The seconds of the last training's epochs (the last line of each epoch 1..epochs):
    its CPU time, on one thread."""
    last = {}
    for x in lines:
        if isinstance(x.get("epoch"), int) and 1 <= x["epoch"] <= epochs:
            last[x["epoch"]] = x.get("seconds") or 0.0
    return float(sum(last.values()))


def counts(lines):
    """Positions trained on and held out, from the trainer's first line."""
    for x in lines:
        if "train_positions" in x:
            return x["train_positions"] + x["held_out_positions"]
    return None


_SPRT = re.compile(r"^SPRT A vs B .*: W (\S+) D (\S+) L (\S+)(?:, pairs \[([^\]]*)\])? from "
                   r"(\d+) games, LLR (\S+) \[(\S+), (\S+)\]: (H1 accepted|H0 accepted|continue)",
                   re.M)


def parse_sprt(text):
    """The SPRT of skyline tournament's summary as the log's fields."""
    m = _SPRT.search(text)
    if not m:
        raise ValueError("the gate's tournament printed no SPRT line")
    w, d, l, pairs, games, llr, lo, hi, verdict = m.groups()
    out = {"games": int(games), "wdl": [int(float(w)), int(float(d)), int(float(l))]}
    if pairs is not None:
        out["pairs"] = [int(x) for x in pairs.split(",")]
    out.update({"llr": float(llr), "llr_lower": float(lo), "llr_upper": float(hi),
                "verdict": {"H1 accepted": "H1", "H0 accepted": "H0"}.get(verdict, "none")})
    return out
