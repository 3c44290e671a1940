"""Every State call on every game: moves, actions, undo, clone, observations, errors."""
import random

import pytest

import skyline

GAMES = skyline.games()


def counts(game):
    lo = {"towerup": 2, "uptown": 2, "connect4": 2}.get(game, 2)
    hi = {"towerup": 4, "uptown": 5, "connect4": 2}.get(game, 2)
    return range(lo, hi + 1)


def random_game(game, players, seed, visit=None):
    st = skyline.new_game(game, players, seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal():
        if visit:
            visit(st)
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_games_listed():
    assert GAMES[:3] == ["towerup", "uptown", "connect4"]


@pytest.mark.parametrize("game", GAMES)
def test_every_call(game):
    st = skyline.new_game(game, seed=4)
    assert st.to_move in range(st.players) and not st.is_terminal()
    assert isinstance(st.hash(), int) and repr(st).startswith("<skyline.State")
    moves, acts = st.legal_moves(), st.legal_actions()
    assert len(moves) == len(acts) > 0
    assert sum(st.legal_action_mask()) == len(acts)
    assert st.observation(-1).split()[0] == game
    assert st.observation(st.to_move).split()[0] == game
    assert len(st.observation_tensor(0)) == skyline.observation_size(game, st.players)
    assert st.show() and st.show(0, ascii=True)
    other = st.determinize(st.to_move, 7)
    assert other.legal_moves() == moves
    st.apply(moves[0])
    st.apply(st.legal_actions()[-1])
    assert st.move_count == 2
    st.undo()
    assert st.move_count == 1
    assert st.to_record()["moves"] == [moves[0]]
    res = st.playout(seed=3, n=20)
    assert len(res) == st.players and all(0 <= r <= 1 for r in res)
    with pytest.raises(ValueError):
        st.result()
    end = random_game(game, st.players, 5)
    assert end.is_terminal() and end.to_move == -1 and end.legal_moves() == []
    assert len(end.result()) == end.players
    scores = end.scores()
    assert scores is None or len(scores) == end.players
    assert end.to_record()["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_actions_round_trip_and_mask(game):
    n_positions = 0
    for players in counts(game):
        size = skyline.num_actions(game, players)

        def visit(st):
            nonlocal n_positions
            n_positions += 1
            moves, acts = st.legal_moves(), st.legal_actions()
            assert len(set(acts)) == len(acts)
            assert all(0 <= a < size for a in acts)
            mask = st.legal_action_mask()
            assert len(mask) == size and sum(mask) == len(acts)
            assert all(mask[a] == 1 for a in acts)
            for m, a in zip(moves, acts):
                assert st.move_to_action(m) == a
                assert st.action_to_move(a) == m
        for seed in range(1, 4):
            random_game(game, players, seed, visit)
    assert n_positions > 50


@pytest.mark.parametrize("game", GAMES)
def test_actions_never_depend_on_hidden(game):
    def visit(st):
        p = st.to_move
        other = st.determinize(p, 99)
        assert other.legal_moves() == st.legal_moves()
        assert other.legal_actions() == st.legal_actions()
    random_game(game, 2, 11, visit)


@pytest.mark.parametrize("game", GAMES)
def test_undo_and_clone_restore_exactly(game):
    st = skyline.new_game(game, seed=8)
    rng = random.Random(8)
    hashes = []
    while not st.is_terminal():
        hashes.append((st.hash(), st.legal_moves(), st.observation(-1)))
        copy = st.clone()
        st.apply(rng.choice(st.legal_moves()))
        assert copy.hash() == hashes[-1][0] and copy.move_count == len(hashes) - 1
    final = st.clone()
    for h, moves, obs in reversed(hashes):
        st.undo()
        assert (st.hash(), st.legal_moves(), st.observation(-1)) == (h, moves, obs)
    with pytest.raises(ValueError, match="no move to undo"):
        st.undo()
    assert final.is_terminal() and final.move_count == len(hashes)


@pytest.mark.parametrize("game", GAMES)
def test_observation_tensor_sees_nothing_hidden(game):
    for players in counts(game):
        size = skyline.observation_size(game, players)

        def visit(st):
            for p in range(st.players):
                t = list(st.observation_tensor(p))
                assert len(t) == size
                for seed in (1, 2):
                    assert list(st.determinize(p, seed).observation_tensor(p)) == t
        random_game(game, players, 21, visit)


@pytest.mark.parametrize("game", GAMES)
def test_bad_arguments_raise_value_error(game):
    st = skyline.new_game(game, seed=2)
    cases = [
        lambda: st.apply("no such move"),
        lambda: st.apply(10 ** 6),
        lambda: st.apply(-1),
        lambda: st.apply(1.5),
        lambda: st.apply("a\0b"),
        lambda: st.observation(17),
        lambda: st.observation_tensor(-1),
        lambda: st.determinize(9, 1),
        lambda: st.show(9),
        lambda: st.move_to_action("zz"),
        lambda: st.action_to_move(-3),
        lambda: st.playout(n=0),
        lambda: skyline.new_game(game, players=9),
        lambda: skyline.new_game(game, seed=-1),
        lambda: skyline.new_game(game, colour="red"),
        lambda: skyline.new_game(game, first_player=7),
        lambda: skyline.num_actions(game, 1),
        lambda: skyline.Bot("nosuchbot").choose(st),
        lambda: skyline.Bot("mcts:iters=-5").choose(st),
    ]
    for call in cases:
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value)
    assert st.move_count == 0


def test_engine_messages():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        skyline.new_game("chess")
    with pytest.raises(ValueError, match="connect4 is played by 2 to 2 players, not 3"):
        skyline.new_game("connect4", players=3)
    with pytest.raises(ValueError, match=r"uptown has no options \(given: board=duo\)"):
        skyline.new_game("uptown", board="duo")
    with pytest.raises(ValueError, match="towerup has no option 'frob' .its options: board, "):
        skyline.new_game("towerup", frob=1)
    st = skyline.new_game("towerup", players=2, board="duo", start_floors=4, setup="random")
    assert st.to_record()["board"] == "duo"


def test_numpy_or_lists():
    st = skyline.new_game("connect4")
    mask = st.legal_action_mask()
    assert list(mask) == [1] * 7
    st.apply(int(st.legal_actions()[3]))
    assert st.legal_moves()[3] == "4"
