#!/usr/bin/env python3
"""A bounded load test of skyline serve (docs/SERVE.md, docs/RESULTS.md) over loopback.

usage: scripts/serve_load.py SKYLINE [--games N] [--seconds S] [--seed K]

Starts `SKYLINE serve` on a free port with a scratch data folder, then N clients (default
50) play games at once for S seconds (default 30): each sets up a game (Connect Four, Tower
Up or Uptown in turn, the client in seat 0 against random bots), follows it on its event
stream and plays a random legal move whenever it is its turn, then starts the next. It
prints the requests served, their latency (median, 99th percentile, worst), the games
finished against the records saved in the data folder (none may be lost), and the
XX
length (growth shows between the two). Fails (exit 1) on any failed request or lost record.
"""
import argparse
import os
import random
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from serve_lib import Server, Events  # noqa: E402

GAMES = [("connect4", 2), ("towerup", 2), ("uptown", 3)]


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Client(threading.Thread):
    def __init__(self, server, k, deadline, seed):
        super().__init__(daemon=True)
        self.s, self.k, self.deadline = server, k, deadline
        self.rng = random.Random(seed * 1000 + k)
        self.latency, self.errors, self.finished, self.records = [], [], 0, set()

    def req(self, method, path, **params):
        t0 = time.monotonic()
        status, reply = self.s.request(method, path, params)
        self.latency.append(time.monotonic() - t0)
        if status != 200:
            self.errors.append("%s %s: %d %r" % (method, path, status, reply))
        return reply if status == 200 else None

    def one_game(self, n):
        game, players = GAMES[(self.k + n) % len(GAMES)]
        seats = {"seat%d" % s: "random" for s in range(1, players)}
        j = self.req("POST", "/api/new", game=game, players=str(players), seat0="human",
                     seed=str(self.rng.randrange(1 << 30)), **seats)
        if not j:
            return False
        q = {"game": j["game"], "seat": 0, "token": j["seats"][0]["token"]}
        ev = Events(self.s, game=j["game"])
        try:
            while True:
                v = self.req("GET", "/api/view", **q)
                if not v:
                    return False
                if v["over"]:
                    if v["record"]:
                        self.records.add(v["record"])
                    self.finished += 1
                    return True
                if v.get("legal"):
                    move = self.rng.choice(v["legal"])["t"]
                    if self.req("POST", "/api/move", move=move, **q) is None:
                        return False
                else:
                    ev.next()
        finally:
            ev.close()

    def run(self):
        n = 0
        try:
            while time.monotonic() < self.deadline and self.one_game(n):
                n += 1
        except Exception as e:  # a timeout, a closed connection: counted, not hidden
            self.errors.append("client %d: %s" % (self.k, e))


def run(server, clients, seconds, seed):
    deadline = time.monotonic() + seconds
    cs = [Client(server, k, deadline, seed) for k in range(clients)]
    for c in cs:
        c.start()
    for c in cs:
        c.join()
    return cs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("skyline")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="skyline-load-")
    data = os.path.join(work, "data")
    os.makedirs(data)
    s = Server(os.path.abspath(a.skyline), data, "--max-games", str(a.games + 8))
    failed = False
    try:
        before = rss_kib(s.proc.pid)
        rows = []
        for rnd in (1, 2, 3):
            t0 = time.monotonic()
            cs = run(s, a.games, a.seconds, a.seed + rnd)
            wall = time.monotonic() - t0
            lat = sorted(x for c in cs for x in c.latency)
            errors = [e for c in cs for e in c.errors]
            finished = sum(c.finished for c in cs)
            records = set().union(*(c.records for c in cs))
            on_disk = {f for f in os.listdir(data) if f.endswith(".jsonl")}
            lost = [r for r in records if r not in on_disk]
            p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else 0
            rows.append((rnd, len(lat), len(lat) / wall, p(0.5), p(0.99), lat[-1] * 1000
                         if lat else 0, finished, len(records), len(lost), rss_kib(s.proc.pid)))
            for e in errors[:5]:
                print("error:", e, file=sys.stderr)
            failed |= bool(errors) or bool(lost) or finished != len(records)
        print("%d clients, %.0f s a run, server RSS before: %d KiB" % (a.games, a.seconds,
                                                                        before))
        print("run  requests  req/s  p50 ms  p99 ms  max ms  games  records  lost  RSS after KiB")
        for r in rows:
            print("%3d  %8d  %5.0f  %6.1f  %6.1f  %6.0f  %5d  %7d  %4d  %13d" % r)
    finally:
        status = s.stop()
        shutil.rmtree(work, ignore_errors=True)
    if status != 0:
        print("the server did not stop cleanly: %r" % status, file=sys.stderr)
        failed = True
    return 1 if failed else 0


sys.exit(main())
