"""A random agent written in Python against the engine's mcts bot, game by game, then
the same match by the C harness (skyline.play) for comparison.

    PYTHONPATH=python python3 examples/python/random_vs_mcts.py [--quick]
"""
import random
import sys

import skyline

quick = "--quick" in sys.argv
game, games, iters = "connect4", 4 if quick else 20, 100 if quick else 1000
mcts = skyline.Bot("mcts:iters=%d" % iters, seed=7)
rng = random.Random(1)
wins = 0.0
for g in range(games):
    state = skyline.new_game(game, seed=g + 1)
    mcts_seat = g % 2
    while not state.is_terminal():
        if state.to_move == mcts_seat:
            state.apply(mcts.choose(state))
        else:
            state.apply(rng.choice(state.legal_actions()))
    wins += state.result()[mcts_seat]
print("from Python: mcts:iters=%d scored %.2f in %d games of %s against a random agent"
      % (iters, wins / games, games, game))
print("last search: %d iterations, value %.2f, best move %s (%d visits)" % (
    mcts.info["iterations"], mcts.info["value"], mcts.info["moves"][0]["move"],
    mcts.info["moves"][0]["visits"]) if mcts.info else "last move had no search")

results = skyline.play(["mcts:iters=%d" % iters, "random"], game=game, games=games, seed=1)
mean = sum(r["result"][0] for r in results) / len(results)
print("by the C harness: seat 0 (mcts) scored %.2f in %d games" % (mean, len(results)))
