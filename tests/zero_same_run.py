"""Two skyline zero folders hold the same run: the same nets, records and decisions, and the
same log lines but times and each run's start line (the loop puts records in seed or index
order, whatever order the workers finished them in).

Usage: zero_same_run.py A B [--ignore KEY ...] [--min-files N]
(tests/test_zero.sh and tests/mpi_zero.sh; KEY: another log field that may differ.)
"""
import argparse
import glob
import json
import os

ap = argparse.ArgumentParser()
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--ignore", nargs="*", default=[])
ap.add_argument("--min-files", type=int, default=0)
args = ap.parse_args()
skip = ["time", "seconds", "games_per_hour", "cpu_seconds"] + args.ignore


def files(d):
    out = {}
    for pat in ("*.safetensors", "gen-*/*.safetensors", "gen-*/selfplay.jsonl",
                "gen-*/gate.jsonl", "gen-*/eval-*.jsonl", "gen-*/done.json", "zero.json"):
        for p in glob.glob(os.path.join(d, pat)):
            out[os.path.relpath(p, d)] = open(p, "rb").read()
    return out


def log(d):
    out = []
    for line in open(os.path.join(d, "log.jsonl")):
        x = json.loads(line)
        if x["step"] != "start":
            for k in skip:
                x.pop(k, None)
            out.append(x)
    return out


fa, fb = files(args.a), files(args.b)
assert sorted(fa) == sorted(fb) and len(fa) >= args.min_files, sorted(set(fa) ^ set(fb))
for k in fa:
    assert fa[k] == fb[k], "%s differs" % k
assert log(args.a) == log(args.b), "the logs differ"
