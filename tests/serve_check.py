#!/usr/bin/env python3
"""skyline serve over HTTP (tests/test_serve.sh): the page, strict validation with one-line
errors, request limits, the bound on games (503), no file outside --data, full games
against bots with their records saved and replaying, a human's view never holding another
seat's hidden tiles, undo, hints, bots that crash or hang forfeiting, watching a file grow,
analyses, and a clean stop.

usage: serve_check.py SKYLINE SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_lib import Server, Events, wait_view  # noqa: E402

skyline, src, work = [os.path.abspath(a) for a in sys.argv[1:4]]
data = os.path.join(work, "data")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def error_of(status, reply, want_status, want_text):
    ok = status == want_status and isinstance(reply, dict) and want_text in reply.get("error", "")
    check(ok, "expected %d '%s', got %d %r" % (want_status, want_text, status, reply))
    if isinstance(reply, dict) and "error" in reply:
        check("\n" not in reply["error"], "error on one line: %r" % reply["error"])


def new_game(s, **params):
    status, j = s.post("/api/new", **params)
    check(status == 200, "new game %r: %s %r" % (params, status, j))
    return j


def me(j, seat=0):
    return {"game": j["game"], "seat": seat, "token": j["seats"][seat]["token"]}


def play_out(s, j, choose=lambda v: v["legal"][0]["t"]):
    """Plays the human seat 0 of game j until the end: the final view."""
    q = me(j)
    ev = Events(s, game=j["game"])
    while True:
        v = wait_view(s, ev, q, lambda v: v["over"] or v.get("legal"))
        if v["over"]:
            ev.close()
            return v
        status, r = s.post("/api/move", move=choose(v), **q)
        check(status == 200, "move: %s %r" % (status, r))


def check_page_and_limits(s):
    status, page = s.get("/")
    check(status == 200 and '<meta name="generator" content="skyline">' in page, "the page")
    check("src=\"http" not in page and "href=\"http" not in page, "nothing fetched from elsewhere")
    error_of(*s.post("/api/new", game="chess"), 400, "unknown game")
    error_of(*s.post("/api/new", game="connect4", players="3"), 400, "players")
    error_of(*s.post("/api/new", game="connect4", seat2="random"), 400, "2 players")
    error_of(*s.post("/api/new", seat1="ext:cmd=/bin/true"), 400, "--allow-ext")
    error_of(*s.post("/api/new", seat1="heuristic:params=../x"), 400, "no '/'")
    error_of(*s.post("/api/new", game="towerup", options="board=/etc/passwd"), 400, "no '/'")
    error_of(*s.post("/api/new", seat1="mcts:threads=999"), 400, "threads")
    error_of(*s.post("/api/new", colour="red"), 400, "unknown parameter colour")
    error_of(*s.post("/api/new", seed="12x"), 400, "seed")
    error_of(*s.request("POST", "/api/new", body="a=" + "x" * 20000,
                        headers={"Content-Type": "application/x-www-form-urlencoded"}),
             413, "over")
    error_of(*s.request("POST", "/api/new", body="game=connect4",
                        headers={"Content-Type": "text/plain"}), 415, "urlencoded")
    error_of(*s.request("POST", "/api/new", body="game=%zz",
                        headers={"Content-Type": "application/x-www-form-urlencoded"}),
             400, "escape")
    error_of(*s.request("PUT", "/api/new"), 405, "GET and POST")
    error_of(*s.get("/api/move"), 405, "POST")
    error_of(*s.get("/nothing"), 404, "no such page")
    error_of(*s.get("/api/view", game="999"), 404, "no such game")
    for name in ["../etc/passwd", "/etc/passwd", "..%2f..%2fetc%2fpasswd", "a/../../x.jsonl",
                 ".hidden.jsonl", "x.txt"]:
        error_of(*s.get("/view", file=name), 400, "file name")
        error_of(*s.get("/api/watch", file=name), 400, "file name")
        error_of(*s.get("/api/events", watch=name), 400, "file name")
    error_of(*s.request("GET", "/view?file=../../etc/passwd"), 400, "file name")
    os.symlink("/etc/hostname", os.path.join(data, "link.jsonl"))
    error_of(*s.get("/view", file="link.jsonl"), 400, "outside")
    error_of(*s.get("/view", file="missing.jsonl"), 404, "no record file")
    # /view and /api/watch read the file a request names alike (serve_files_request).
    for page in ["/view", "/api/watch"]:
        error_of(*s.get(page, file="missing.jsonl"), 404, "no record file")
        error_of(*s.get(page), 400, "missing parameter file")
        error_of(*s.get(page, file="x.jsonl", index="1"), 400, "unknown parameter index")
    open(os.path.join(data, "empty.jsonl"), "w").close()
    error_of(*s.get("/view", file="empty.jsonl"), 404, "no game record yet")
    status, w = s.get("/api/watch", file="empty.jsonl")
    check(status == 200 and w["records"] == 0 and w["standings"] == [], "empty watch: %r" % w)


def check_connect4(s):
    j = new_game(s, game="connect4", seat0="human", seat1="mcts:iters=50", seed="5")
    error_of(*s.get("/api/view", game=j["game"]), 400, "seat")
    error_of(*s.get("/api/view", game=j["game"], seat="0", token="x"), 403, "token")
    error_of(*s.get("/api/view", game=j["game"], seat="1"), 400, "bot")
    q = me(j)
    ev = Events(s, game=j["game"])
    v = wait_view(s, ev, q, lambda v: v.get("legal"))
    error_of(*s.post("/api/move", move="9", **q), 400, "column")
    error_of(*s.post("/api/undo", **q), 403, "undo is off")
    error_of(*s.post("/api/hint", **q), 409, "hints are off")
    ev.close()
    v = play_out(s, j)
    check(v["record"].endswith(".jsonl"), "a record is saved: %r" % v)
    path = os.path.join(data, v["record"])
    check(subprocess.run([skyline, "replay", path], capture_output=True).returncode == 0,
          "the saved record replays")
    status, page = s.get("/view", file=v["record"])
    check(status == 200 and "data-ply=" in page, "the record opens in the viewer")
    return v["record"]


def private_lines(game, players, seed, moves, seat):
    """SVG lines that some other seat sees and seat does not (their hidden tiles)."""
    def svg(as_seat):
        out = os.path.join(work, "as%d.svg" % as_seat)
        subprocess.run([skyline, "show", "--game", game, "--players", str(players), "--seed",
                        str(seed), "--moves", " ".join(moves), "--as", str(as_seat), "--svg",
                        out, "--no-list"], check=True, capture_output=True)
        with open(out) as f:
            return set(f.read().splitlines())
    mine = svg(seat)
    hidden = set()
    for other in range(players):
        if other != seat:
            hidden |= svg(other) - mine
    return hidden


def check_hidden(s):
    j = new_game(s, game="uptown", players="3", seat0="human", seat1="random", seat2="random",
                 seed="7")
    q = me(j)
    ev = Events(s, game=j["game"])
    for turn in range(4):
        v = wait_view(s, ev, q, lambda v: v.get("legal"))
        status, raw = s.request("GET", "/api/view?game=%d&seat=0&token=%s" % (j["game"],
                                                                               q["token"]))
        text = json.dumps(raw)
        hidden = private_lines("uptown", 3, 7, [m["t"] for m in v["moves"]], 0)
        check(len(hidden) > 0, "other seats have hidden tiles to look for")
        leaked = [h for h in hidden if h in raw["svg"] or h in text]
        check(not leaked, "the view holds another seat's hidden tiles: %r" % leaked[:2])
        status, r = s.post("/api/move", move=v["legal"][0]["t"], **q)
        check(status == 200, "uptown move: %r" % r)
    s.post("/api/quit", **q)
    v = wait_view(s, ev, q, lambda v: v["over"])
    check("forfeits (quit)" in v["outcome"], "leaving is a forfeit: %r" % v["outcome"])
    ev.close()


def check_undo_hint(s):
    j = new_game(s, game="connect4", seat1="random", seed="11", undo="1",
                 hint="mcts:iters=100")
    q = me(j)
    ev = Events(s, game=j["game"])
    # Undo is answered once the game waits for this seat (the view then lists moves).
    wait_view(s, ev, q, lambda v: v.get("legal") and not v["moves"])
    error_of(*s.post("/api/undo", **q), 409, "nothing to undo")
    for k in range(2):
        v = wait_view(s, ev, q, lambda v: v.get("legal") and len(v["moves"]) == 2 * k)
        status, h = s.post("/api/hint", **q)
        check(status == 200 and h["move"] in [m["t"] for m in v["legal"]], "hint %r" % h)
        check(len(h["candidates"]) > 0, "a hint lists candidates")
        s.post("/api/move", move=v["legal"][k]["t"], **q)
    v = wait_view(s, ev, q, lambda v: v.get("legal") and len(v["moves"]) == 4)
    status, r = s.post("/api/undo", **q)
    check(status == 200 and r["to"] == 2, "undo goes back to before my last move: %r" % r)
    v = wait_view(s, ev, q, lambda v: v.get("legal") and len(v["moves"]) == 2)
    s.post("/api/quit", **q)
    ev.close()


def check_busy(s):
    """--max-games 3: a fourth game under way is refused with 503 until one ends."""
    held = [new_game(s, seat1="random") for _ in range(3)]
    error_of(*s.post("/api/new", seat1="random"), 503, "too many games")
    q = me(held[0])
    ev = Events(s, game=held[0]["game"])
    s.post("/api/quit", **q)
    wait_view(s, ev, q, lambda v: v["over"])
    ev.close()
    held.append(new_game(s, seat1="random"))
    for j in held[1:]:
        s.post("/api/quit", **me(j))


def check_ext(skyline_args):
    """Bots whose program crashes or hangs forfeit, and the server goes on serving."""
    s2 = Server(skyline, data, "--allow-ext", "--move-time", "3000")
    try:
        for mode, reason in [("crash", "exit"), ("timeout", "timeout")]:
            prog = os.path.join(work, "fake-%s.sh" % mode)
            with open(prog, "w") as f:
                f.write('#!/bin/sh\nexec %s "%s/tests/sbp_fake.py" %s 2\n'
                        % (sys.executable, src, mode))
            os.chmod(prog, 0o755)
            j = new_game(s2, game="connect4", seat0="ext:cmd=" + prog, seat1="random",
                         seed="3")
            ev = Events(s2, game=j["game"])
            v = wait_view(s2, ev, {"game": j["game"]}, lambda v: v["over"])
            ev.close()
            check("P1 forfeits (%s)" % reason in v["outcome"],
                  "%s bot forfeits: %r" % (mode, v["outcome"]))
        check(s2.get("/api/games")[0] == 200, "the server serves on after faulty bots")
    finally:
        check(s2.stop() == 0, "the server stops cleanly")


def check_watch(s, record):
    """A tournament file another process writes: the standings follow it."""
    lines = []
    t = os.path.join(work, "t.jsonl")
    subprocess.run([skyline, "tournament", "--game", "connect4", "--bot", "random", "--bot",
                    "mcts:iters=20", "--games", "8", "--out", t], check=True, capture_output=True)
    with open(t) as f:
        lines = f.readlines()
    watched = os.path.join(data, "live.jsonl")
    with open(watched, "w") as f:
        f.writelines(lines[:3])
    ev = Events(s, watch="live.jsonl")
    ev.next()
    status, w = s.get("/api/watch", file="live.jsonl")
    first = w["records"]
    check(status == 200 and first >= 1 and len(w["standings"]) == 2, "watch: %r" % w)
    with open(watched, "a") as f:
        f.writelines(lines[3:])
    ev.next()
    status, w = s.get("/api/watch", file="live.jsonl")
    check(w["records"] > first, "the standings follow the file: %r" % w["records"])
    check(all("elo_ci95" in row and "result_ci95" in row for row in w["standings"]),
          "ratings come with their intervals")
    ev.close()


def wait_analysis(s, a):
    """Follows analysis a to its end (its search slot free again)."""
    ev = Events(s, analysis=a["analysis"])
    while not s.get("/api/analysis", id=a["analysis"])[1]["done"]:
        ev.next()
    ev.close()


def check_analyse(s, record):
    POS = subprocess.run([skyline, "show", "--game", "connect4", "--moves", "4 4 3",
                          "--notation"], check=True, capture_output=True,
                         text=True).stdout.strip()
    status, a = s.post("/api/analyse", position=POS, bot="mcts:iters=800")
    check(status == 200, "analyse: %r" % a)
    ev = Events(s, analysis=a["analysis"])
    while True:
        ev.next()
        status, v = s.get("/api/analysis", id=a["analysis"])
        # Every view, running or done, holds the candidates so far, most visited first.
        visits = [c["visits"] for c in v["candidates"]]
        check(visits == sorted(visits, reverse=True), "most visited first: %r" % visits)
        check(sum(visits) == v["iterations"], "the candidates' visits: %r" % v)
        if v["done"]:
            break
    ev.close()
    check(v["iterations"] == 800 and not v["error"] and v["choice"], "analysis: %r" % v)
    # One search, watched while it runs: an update every 800/16 of its iterations.
    check(v["progress"] == list(range(50, 801, 50)) and v["updates"] == 16,
          "the running search's candidates are published as it grows: %r" % v["progress"])
    check(v["net_value"] is None and all("prior" not in c for c in v["candidates"]),
          "no net, no prior: %r" % v)
    # With net=, the net's prior of each candidate and its value of the position, as
    # skyline analyse prints them.
    bot = "mcts:net=connect4-w128,iters=160"
    status, a = s.post("/api/analyse", position=POS, bot=bot, seed="1")
    check(status == 200, "analyse with a net: %r" % a)
    wait_analysis(s, a)
    v = s.get("/api/analysis", id=a["analysis"])[1]
    cli = subprocess.run([skyline, "analyse", "--position", POS, "--bot", bot, "--seed", "1"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    value_line = [line for line in cli if line.startswith("net value:")]
    want_value = [float(x) for x in value_line[0].split()[3::2]] if value_line else []
    head = [i for i, line in enumerate(cli) if line.split()[:1] == ["move"]]
    want = {w[0]: (int(w[1]), float(w[3]))
            for w in (line.split() for line in cli[head[0] + 1:] if head)}
    check(v["net_value"] is not None and len(v["net_value"]) == 2 and
          all(abs(x - y) < 1e-4 for x, y in zip(v["net_value"], want_value)),
          "the net's value: %r, skyline analyse: %r" % (v["net_value"], want_value))
    got = {c["move"]: (c["visits"], c.get("prior", -1.0)) for c in v["candidates"]}
    check(len(got) == len(want) and all(
        got[m][0] == want[m][0] and abs(got[m][1] - want[m][1]) < 1e-4 for m in want),
        "the net's priors: %r, skyline analyse: %r" % (got, want))
    status, a = s.post("/api/analyse", file=record, index="1", ply="2", bot="mcts:iters=100")
    check(status == 200, "analyse a record's ply: %r" % a)
    wait_analysis(s, a)
    error_of(*s.post("/api/analyse", position="connect4 nonsense", bot="mcts"), 400,
             "position")
    # --max-searches 2: two long searches under way, a third is refused with 503.
    long = [s.post("/api/analyse", position=POS, bot="mcts:time=5000,mem=16") for _ in range(2)]
    check(all(st == 200 for st, _ in long), "two searches start: %r" % long)
    error_of(*s.post("/api/analyse", position=POS, bot="mcts:iters=100"), 503,
             "too many searches")
    for _, a in long:
        wait_analysis(s, a)
    error_of(*s.post("/api/analyse", file="../x.jsonl", bot="mcts"), 400, "file name")
    # A search of 600 s is watched while it runs: its candidates grow from update to
    # update; main's stop then ends it at once (else the server would wait for it).
    status, a = s.post("/api/analyse", position=POS, bot="mcts:time=600000")
    check(status == 200, "a long analysis: %r" % a)
    ev = Events(s, analysis=a["analysis"])
    grown = [0]
    while len(grown) < 3:
        ev.next()
        v = s.get("/api/analysis", id=a["analysis"])[1]
        check(not v["done"], "the long search runs: %r" % v)
        if v["done"]:
            break
        if v["iterations"] > grown[-1]:
            check(sum(c["visits"] for c in v["candidates"]) == v["iterations"],
                  "a running search's candidates: %r" % v)
            grown.append(v["iterations"])
    ev.close()


def main():
    os.makedirs(data, exist_ok=True)
    s = Server(skyline, data, "--max-games", "3", "--max-searches", "2")
    try:
        check(s.first_line.startswith("skyline serve: open http://127.0.0.1:"),
              "127.0.0.1 by default: %r" % s.first_line)
        check_page_and_limits(s)
        record = check_connect4(s)
        check_hidden(s)
        check_undo_hint(s)
        check_busy(s)
        check_watch(s, record)
        check_analyse(s, record)
    finally:
        check(s.stop() == 0, "SIGTERM stops the server (and its searches) with status 0")
    check_ext(skyline)
    if failures:
        print("serve_check: %d failures" % len(failures), file=sys.stderr)
        return 1
    print("serve_check: all passed")
    return 0


sys.exit(main())
