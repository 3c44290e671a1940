"""Python-side speed (docs/PYTHON.md, docs/RESULTS.md): random full games per second
driven from Python (legal_actions + one apply per move) against the C playout
(State.playout, one call), and the cost per move of the Python loop.

    PYTHONPATH=python python3 python/bench.py [--quick]
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skyline  # noqa: E402

CASES = [("towerup", 2), ("towerup", 4), ("uptown", 3), ("connect4", 2)]


def python_games(game, players, seconds):
    rng = random.Random(1)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = skyline.new_game(game, players, seed=games + 1)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - start


def call_cost(game, players, calls=20000):
    """Seconds per legal_actions call and per apply + undo pair, at the start."""
    st = skyline.new_game(game, players, seed=1)
    a = st.legal_actions()[0]
    t0 = time.perf_counter()
    for _ in range(calls):
        st.legal_actions()
    t1 = time.perf_counter()
    for _ in range(calls):
        st.apply(a)
        st.undo()
    t2 = time.perf_counter()
    return (t1 - t0) / calls, (t2 - t1) / calls


def c_games(game, players, n):
    st = skyline.new_game(game, players, seed=1)
    t0 = time.perf_counter()
    st.playout(seed=1, n=n)
    return n / (time.perf_counter() - t0)


def main():
    quick = "--quick" in sys.argv
    secs = 0.5 if quick else 2.0
    print("python %s, skyline %s" % (sys.version.split()[0], skyline.__version__))
    print("%-12s %12s %12s %10s %14s %14s %8s" % (
        "case", "py games/s", "C games/s", "C/py", "us/move (py)", "us legal/apply", "moves"))
    for game, players in CASES:
        g, m, t = python_games(game, players, secs)
        c = c_games(game, players, 2000 if quick else 20000)
        legal, apply_undo = call_cost(game, players, 5000 if quick else 20000)
        print("%-12s %12.0f %12.0f %10.0f %14.2f %7.2f/%-6.2f %8.1f" % (
            "%s-%dp" % (game, players), g / t, c, c / (g / t), 1e6 * t / m, 1e6 * legal,
            1e6 * apply_undo, m / g))


if __name__ == "__main__":
    main()
