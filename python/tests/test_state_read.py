"""States read back from text: State.from_position (position notation, docs/NOTATION.md) and
State.from_record (skyline.from_record: a game record line at a ply, FORMATS.md §4), for
every game."""
import json
import random

import pytest

import skyline

GAMES = skyline.games()


def walk(game, players, seed):
    """A random game to its end: the states met (clones) and the finished state."""
    st = skyline.new_game(game, players, seed=seed)
    rng = random.Random(seed)
    seen = []
    while not st.is_terminal():
        seen.append(st.clone())
        st.apply(rng.choice(st.legal_actions()))
    seen.append(st.clone())
    return seen, st


@pytest.mark.parametrize("game", GAMES)
def test_position_round_trip_every_view(game):
    for players in (2, 3) if game != "connect4" else (2,):
        seen, _ = walk(game, players, seed=11)
        for st in seen[:: max(1, len(seen) // 12)] + [seen[-1]]:
            for view in [-1] + list(range(players)):
                text = st.position(view)
                assert text == st.observation(view) and text.split()[0] == game
                back = skyline.State.from_position(text, seed=5)
                assert back.game == game and back.players == players
                # Connect Four hides nothing: its texts have no view.
                assert back.view == (-1 if game == "connect4" else view)
                assert back.position(view) == text
                assert back.to_move == st.to_move and back.is_terminal() == st.is_terminal()
                if view == st.to_move or game != "uptown":  # Uptown's racks are hidden
                    assert back.legal_moves() == st.legal_moves()
                assert back.move_count == 0


def test_position_hidden_parts_come_from_the_seed():
    st = walk("towerup", 2, seed=3)[0][20]
    text = st.position(-1)
    a, b = (skyline.State.from_position(text, seed=s) for s in (1, 2))
    assert a.position(-1) == b.position(-1) == text
    assert a.show() != b.show()  # the draw pile's order, which no player sees
    assert skyline.State.from_position(text, seed=1).show() == a.show()


def test_position_of_a_board_file(tmp_path):
    st = skyline.new_game("towerup", 2, seed=2, board="duo")
    text = st.position()
    assert skyline.State.from_position(text).position() == text


def test_position_errors_are_the_engines_line():
    for text, what in [("chess 1", "'chess' is not a game"), ("", "position"),
                       ("connect4 x", "connect4"), ("towerup", "players")]:
        with pytest.raises(ValueError) as e:
            skyline.State.from_position(text)
        assert what in str(e.value) and "\n" not in str(e.value)
    st = skyline.State.from_position(skyline.new_game("connect4").position())
    with pytest.raises(ValueError, match="position text"):
        st.to_record()


@pytest.mark.parametrize("game", GAMES)
def test_record_at_every_ply(game):
    seen, end = walk(game, 2 if game == "connect4" else 3, seed=7)
    rec = end.to_record()
    line = json.dumps(rec)
    for ply in list(range(0, len(seen), max(1, len(seen) // 15))) + [len(seen) - 1]:
        st = skyline.State.from_record(line, ply)
        assert st.move_count == 0 and st.show() == seen[ply].show()
        assert st.position(-1) == seen[ply].position(-1)
        assert st.legal_moves() == seen[ply].legal_moves()
    last = skyline.State.from_record(rec)  # a dict too; None: the end
    assert last.is_terminal() and last.result() == end.result()
    assert last.move_count == 0  # its history starts there
    assert skyline.from_record(line, 3).show() == seen[3].show()


def test_record_lines_of_the_command_line(tmp_path):
    path = tmp_path / "g.jsonl"
    skyline.play(["random"], game="towerup", players=2, games=2, seed=4, record=str(path))
    lines = path.read_text().splitlines()
    for line in lines:
        st = skyline.State.from_record(line)
        assert st.is_terminal()
        assert json.loads(line)["result"]["ranks"] == [
            1 + sum(r > x for r in st.result()) for x in st.result()]


def test_record_reshuffle_is_the_records():
    """A record's listed reshuffle is what happened: the state holds its order."""
    for seed in range(1, 40):
        _, end = walk("towerup", 2, seed)
        rec = end.to_record()
        if rec["reshuffles"] and len(set(rec["reshuffles"][0])) > 2:
            break
    else:
        pytest.skip("no game with a reshuffle")
    line = json.dumps(rec)
    pile = rec["reshuffles"][0]
    pile[1:] = pile[:0:-1]  # the same cards after the first draw, in another order
    changed = json.dumps(rec)
    for ply in range(len(rec["moves"])):
        st = skyline.State.from_record(changed, ply)
        engine = skyline.State.from_record(line, ply)
        if st.show() != engine.show():  # the reshuffle
            break
    else:
        pytest.fail("no ply with the reshuffle")
    assert st.position(-1) == engine.position(-1)  # only the hidden order differs
    assert " ".join(pile[1:4]) in st.show().replace("\n    ", " ")


def test_record_errors_are_one_line():
    _, end = walk("connect4", 2, seed=3)
    rec = end.to_record()
    line = json.dumps(rec)
    n = len(rec["moves"])
    cases = [
        ((line, n + 1), "ply %d is beyond the game's %d moves" % (n + 1, n)),
        ((line, -1), "ply must be an int"),
        ((line, 1.5), "ply must be an int"),
        (("{", None), "not a game record: "),
        (("[1]", None), "not a game record: not a JSON object"),
        (('{"game": "chess", "moves": []}', None), "unknown game 'chess'"),
        (('{"game": "connect4"}', None), "record: format must be 1"),
        ((json.dumps(dict(rec, players=7)), None), "not 7"),
        ((json.dumps(dict(rec, moves=["4", "9"])), None), "move 1: move '9'"),
        ((3, None), "not a game record"),
        (("{\"game\": \"towerup\", \"moves\": []}", 0), "record"),
    ]
    for args, what in cases:
        with pytest.raises(ValueError) as e:
            skyline.State.from_record(*args)
        assert what in str(e.value) and "\n" not in str(e.value), (args, str(e.value))
    st = skyline.State.from_record(line, 2)
    with pytest.raises(ValueError, match="record"):
        st.to_record()
