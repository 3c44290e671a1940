"""A Python function as the C search's evaluator: mcts:net=@evaluator and Bot.set_evaluator
(docs/NETS.md). numpy in, numpy out."""
import pytest

import skyline

np = pytest.importorskip("numpy")


def favour(column, calls=None):
    """An evaluator whose policy puts all its mass on the move to `column`."""
    def fn(obs, actions):
        assert obs.dtype == np.float32 and actions.dtype == np.int32 and obs.ndim == 1
        if calls is not None:
            calls.append(len(actions))
        st = skyline.new_game("connect4")
        target = st.move_to_action(column)
        logits = np.where(actions == target, 30.0, 0.0)
        return logits, np.array([0.5, 0.5])
    return fn


def test_the_search_follows_the_evaluator():
    st = skyline.new_game("connect4", seed=1)
    for column in ("1", "7"):
        calls = []
        bot = skyline.Bot("mcts:net=@evaluator,iters=60", game="connect4", seed=3)
        bot.set_evaluator(favour(column, calls), players=2)
        assert bot.choose(st) == column
        top = max(bot.info["moves"], key=lambda m: m["visits"])
        assert top["move"] == column and top["visits"] > 30
        # One call a new node (and the root's priors): never two an iteration.
        assert 0 < len(calls) <= 61
        # The same seed, the same search.
        again = skyline.Bot("mcts:net=@evaluator,iters=60", game="connect4", seed=3)
        again.set_evaluator(favour(column), players=2)
        assert again.choose(st) == column and again.info["moves"] == bot.info["moves"]


def test_evaluator_failures_raise():
    st = skyline.new_game("connect4", seed=1)

    def broken(obs, actions):
        raise RuntimeError("no model")

    def bad_shape(obs, actions):
        return np.zeros(len(actions) + 1), np.array([0.5, 0.5])

    def bad_value(obs, actions):
        return np.zeros(len(actions)), np.array([float("nan"), 0.5])

    for fn, words in ((broken, "no model"), (bad_shape, "logits"), (bad_value, "values")):
        bot = skyline.Bot("mcts:net=@evaluator,iters=20", game="connect4")
        bot.set_evaluator(fn, players=2)
        with pytest.raises(ValueError, match=words):
            bot.choose(st)
    # No evaluator given, or a bot that takes none.
    with pytest.raises(ValueError, match="no evaluator was given"):
        skyline.Bot("mcts:net=@evaluator,iters=20", game="connect4").choose(st)
    with pytest.raises(ValueError, match="net=@evaluator"):
        skyline.Bot("mcts:iters=20", game="connect4").set_evaluator(favour("1"), players=2)
    with pytest.raises(ValueError, match="function"):
        skyline.Bot("mcts:net=@evaluator", game="connect4").set_evaluator(None, players=2)
    # An evaluator for 3 players cannot play a 2-player game.
    bot = skyline.Bot("mcts:net=@evaluator,iters=20", game="towerup")
    bot.set_evaluator(lambda o, a: (np.zeros(len(a)), np.full(3, 0.3)), players=3)
    with pytest.raises(ValueError, match="for 3 players, not 2"):
        bot.choose(skyline.new_game("towerup", players=2, seed=1))
    assert bot.choose(skyline.new_game("towerup", players=3, seed=1))
