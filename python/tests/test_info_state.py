"""information_state_tensor(): the observation tensor, then the public move history and the
ply count (docs/PYTHON.md, Information state); never anything hidden from the player."""
import ctypes
import json
import math
import os
import random

import pytest

import skyline
from skyline._lib import lib
from conftest import REPO
from test_state_views import played  # a game after random moves

np = pytest.importorskip("numpy")
GAMES = skyline.games()
H = skyline.HISTORY_DEFAULT


def player_range(game):
    lo, hi = ctypes.c_int(), ctypes.c_int()
    assert lib.sky_game_players(game.encode(), ctypes.byref(lo), ctypes.byref(hi), None, 0) == 0
    return lo.value, hi.value


def layout(game, players):
    """(observation size, seats in a slot, bits in a slot) as docs/PYTHON.md gives them."""
    seats = player_range(game)[1]
    bits = math.ceil(math.log2(skyline.num_actions(game, players)))
    return skyline.observation_size(game, players), seats, bits


def decode(game, players, tensor, history=H):
    """The slots of a tensor as (mover, action) newest first (None: empty), and its last
    value; checks that every value is where the layout puts it."""
    obs, seats, bits = layout(game, players)
    slot = 1 + seats + bits
    assert len(tensor) == obs + history * slot + 1
    slots = []
    for i in range(history):
        s = [float(x) for x in tensor[obs + i * slot:obs + (i + 1) * slot]]
        assert all(x in (0.0, 1.0) for x in s)
        if not s[0]:
            assert not any(s)  # an empty slot is all zeros
            slots.append(None)
            continue
        assert sum(s[1:1 + seats]) == 1  # one mover
        mover = s[1:1 + seats].index(1.0)
        action = sum(int(b) << k for k, b in enumerate(s[1 + seats:]))
        slots.append((mover, action))
    return slots, float(tensor[-1])


@pytest.mark.parametrize("game", GAMES)
def test_size_formula(game):
    lo, hi = player_range(game)
    for players in range(lo, hi + 1):
        obs, seats, bits = layout(game, players)
        for history in (0, 1, H, 50, 1024):
            want = obs + history * (1 + seats + bits) + 1
            assert skyline.information_state_size(game, players, history) == want
        assert skyline.information_state_size(game, players) == \
            skyline.information_state_size(game, players, 16)
        # The C library's bounds are the package's (api/skyline_api.h, SKY_HISTORY_MAX).
        for history, ok in ((0, True), (1024, True), (1025, False), (-1, False)):
            n = lib.sky_information_state_size(game.encode(), players, history, None, 0)
            assert (n > 0) == ok
        st = skyline.new_game(game, players, seed=2)
        assert len(st.information_state_tensor(0)) == skyline.information_state_size(
            game, players)
        assert len(st.information_state_tensor(0, history=3)) == \
            skyline.information_state_size(game, players, 3)


@pytest.mark.parametrize("game", GAMES)
def test_slots_hold_the_moves_played_newest_first(game):
    players = player_range(game)[0] if game == "connect4" else 3
    st = skyline.new_game(game, players, seed=5)
    rng = random.Random(5)
    plies = []
    for _ in range(25):
        if st.is_terminal():
            break
        a = rng.choice(st.legal_actions())
        plies.append((st.to_move, a))
        st.apply(a)
    for p in range(players):
        t = st.information_state_tensor(p)
        obs = skyline.observation_size(game, players)
        assert (t[:obs] == st.observation_tensor(p)).all()
        slots, count = decode(game, players, t)
        newest = plies[::-1][:H]
        assert slots == newest + [None] * (H - len(newest))
        assert count == len(plies) / 1024
    full, _ = decode(game, players, st.information_state_tensor(0, 40), 40)
    assert full == plies[::-1] + [None] * (40 - len(plies))
    # undo takes the newest ply off; a clone keeps them all.
    copy = st.clone()
    st.undo()
    slots, count = decode(game, players, st.information_state_tensor(0))
    newest = plies[:-1][::-1][:H]
    assert slots == newest + [None] * (H - len(newest)) and count == (len(plies) - 1) / 1024
    assert (copy.information_state_tensor(1) == copy.clone().information_state_tensor(1)).all()


@pytest.mark.parametrize("game", GAMES)
def test_determinizations_of_one_information_set_are_bit_identical(game):
    for moves in (0, 7, 25):
        st = played(game, 2 if game == "connect4" else 3, seed=6, moves=moves)
        for p in range(st.players):
            want = st.information_state_tensor(p, history=30)
            for seed in (1, 2, 3):
                other = st.determinize(p, seed)  # the same information set for p
                got = other.information_state_tensor(p, history=30)
                assert got.tobytes() == want.tobytes()


def test_hidden_items_leave_it_unchanged():
    """Determinizations that change a hidden item (another player's Uptown rack, Tower Up's
    draw order) leave the tensor as it was."""
    up = played("uptown", 3, seed=8, moves=9)
    tu = played("towerup", 3, seed=8, moves=20)
    for st, player in ((up, 0), (tu, 1)):
        want = st.information_state_tensor(player)
        changed = 0
        for seed in range(1, 6):
            other = st.determinize(player, seed)
            changed += other.show() != st.show()  # something hidden is different
            assert other.information_state_tensor(player).tobytes() == want.tobytes()
        assert changed
    # What the player sees does change it: its own next draw.
    before = up.information_state_tensor(up.to_move)
    up.apply(up.legal_moves()[0])
    assert (up.information_state_tensor(0) != before).any()


@pytest.mark.parametrize("game", ["uptown", "towerup"])
def test_a_hidden_draw_never_enters_the_history(game):
    """The same move in determinizations for its mover that draw different tiles or cards
    after it: the history part is the same, only the observation (the draw, seen where the
    rules show it) differs."""
    st = played(game, 3, seed=4, moves=12)
    mover = st.to_move
    # A move that draws: any Uptown move (its pile lasts), a Tower Up take.
    move = [a for a in st.legal_actions() if game == "uptown" or 256 <= a < 19939][0]
    obs = skyline.observation_size(game, 3)
    after = []
    for seed in range(1, 9):
        other = st.determinize(mover, seed)
        other.apply(move)
        after.append([other.information_state_tensor(q) for q in range(3)])
    differ = 0
    for tensors in after[1:]:
        for q in range(3):
            assert tensors[q][obs:].tobytes() == after[0][q][obs:].tobytes()
            differ += bool((tensors[q][:obs] != after[0][q][:obs]).any())
    assert differ  # the draws did differ


def test_different_histories_to_one_observation_differ():
    one = skyline.new_game("connect4", 2, seed=1)
    two = skyline.new_game("connect4", 2, seed=1)
    for m in ("1", "2", "3", "4"):
        one.apply(m)
    for m in ("3", "2", "1", "4"):
        two.apply(m)
    assert one.position() == two.position()
    for p in (0, 1):
        assert (one.observation_tensor(p) == two.observation_tensor(p)).all()
        assert (one.information_state_tensor(p) != two.information_state_tensor(p)).any()
    # Beyond the history window the two are the same again.
    assert (one.information_state_tensor(0, history=1) ==
            two.information_state_tensor(0, history=1)).all()


@pytest.mark.parametrize("game", GAMES)
def test_a_state_read_from_text_has_no_history(game):
    st = played(game, 2 if game == "connect4" else 3, seed=9, moves=5)
    assert not st.is_terminal()
    state = skyline.State.from_position(st.position())
    t = state.information_state_tensor(0)
    obs = skyline.observation_size(game, state.players)
    assert (t[:obs] == state.observation_tensor(0)).all()
    assert not t[obs:].any()  # empty slots, ply count 0
    state.apply(state.legal_actions()[0])  # then it counts from there
    slots, count = decode(game, state.players, state.information_state_tensor(0))
    assert slots[0] is not None and slots[1] is None and count == 1 / 1024


@pytest.mark.parametrize("game,players,options", [
    ("connect4", 2, {}), ("towerup", 2, {"setup": "random"}), ("towerup", 3, {"setup": "random"}),
    ("towerup", 3, {}), ("uptown", 2, {}), ("uptown", 3, {})])
def test_a_record_state_has_the_history_of_the_played_state(game, players, options):
    """from_record(line, ply): the tensors of the state that played the record's first
    moves, bit for bit. A random Tower Up set-up's placements, listed first in the record,
    are the initial position (new_game logs none), so ply counts them and the history not;
    a set-up the players placed is plies in both."""
    st = skyline.new_game(game, players, seed=11, **options)
    rng = random.Random(11)
    tensors, positions = [], []  # tensors[k][p]: after k moves applied
    while True:
        tensors.append([st.information_state_tensor(p, history=20) for p in range(players)])
        positions.append(st.position())
        if st.is_terminal() or len(tensors) > 70:
            break
        st.apply(rng.choice(st.legal_actions()))
    record = st.to_record()
    line = json.dumps(record)
    setup = len(record["moves"]) - st.move_count  # the placements listed first
    assert setup == (3 if options else 0)
    last = len(tensors) - 1
    assert last > 21  # the history window fills
    for k in (0, 1, 2, 5, 17, 21, min(40, last), last):
        for at in [skyline.from_record(line, setup + k)] + [skyline.from_record(record)] * (k == last):
            assert at.move_count == 0  # no moves of its own: the history is the record's
            for p in range(players):
                got = at.information_state_tensor(p, history=20)
                # A record names Tower Up's cards by code, and so does the observation.
                assert got.tobytes() == tensors[k][p].tobytes(), (k, p)
            assert at.position() == positions[k]
    if game == "towerup" and not options:  # the players' placements are plies
        slots, count = decode(game, players, skyline.from_record(line, 2).information_state_tensor(0))
        assert slots[1] is not None and slots[2] is None and count == 2 / 1024
    obs = skyline.observation_size(game, players)
    for k in range(setup):  # in the middle of a random set-up: no plies yet
        at = skyline.from_record(line, k)
        assert not at.information_state_tensor(0)[obs:].any()
    # The history goes on with the moves applied to it, and undo stops at the record's.
    at = skyline.from_record(line, setup + 5)
    want = tensors[5][0]
    at.apply(at.legal_actions()[0])
    slots, count = decode(game, players, at.information_state_tensor(0, history=20), 20)
    assert count == 6 / 1024
    assert slots[1:7] == decode(game, players, want, 20)[0][:6]
    at.undo()
    assert at.information_state_tensor(0, history=20).tobytes() == want.tobytes()


def test_list_without_numpy(monkeypatch):
    import skyline.state as state
    st = played("connect4", 2, seed=1, moves=3)
    want = [float(x) for x in st.information_state_tensor(1)]
    monkeypatch.setattr(state, "_np", None)
    got = st.information_state_tensor(1)
    assert isinstance(got, list) and got == want


def test_documented_sizes():
    assert skyline.information_state_size("connect4", 2) == 182
    assert skyline.information_state_size("towerup", 3) == 1435
    assert skyline.information_state_size("uptown", 4) == 3294
    doc = open(os.path.join(REPO, "docs", "PYTHON.md"), encoding="utf-8").read()
    for row in ("| Connect Four | 2 | 182 |", "| Tower Up | 3 | 1435 |", "| Uptown | 4 | 3294 |"):
        assert row in doc
