"""Misuse of the package raises and never crashes: copies, threads, released objects, integers
out of C's range, bad files (docs/PYTHON.md). tests/test_python_misuse.sh runs this file with
the AddressSanitizer runtime preloaded in the ASan build, so a memory error fails it there."""
import copy
import json
import gc
import os
import pickle
import threading

import pytest

import skyline


def played(game="towerup", players=2, moves=6, seed=3):
    st = skyline.new_game(game, players, seed=seed)
    for _ in range(moves):
        st.apply(st.legal_actions()[0])
    return st


# ---- copies


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_a_state_copy_is_a_clone(how):
    st = played()
    want = (st.hash(), st.to_record(), st.legal_moves())
    other = how(st)
    assert other is not st and (other.hash(), other.to_record(), other.legal_moves()) == want
    other.apply(other.legal_actions()[0])
    assert st.hash() == want[0] and other.move_count == st.move_count + 1
    del st
    gc.collect()
    other.undo()
    assert (other.hash(), other.to_record()) == want[:2]


def test_deepcopy_of_a_structure_holding_states():
    st = played()
    box = {"a": st, "b": [st, 3]}
    dup = copy.deepcopy(box)
    assert dup["a"] is dup["b"][0] and dup["a"] is not st  # the memo keeps sharing
    del box, st
    gc.collect()
    assert dup["a"].move_count == 6


def test_a_state_cannot_be_pickled_or_made_by_hand():
    st = played()
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(st)
    with pytest.raises(TypeError, match="new_game"):
        skyline.State(12345)
    with pytest.raises(TypeError):
        skyline.State()


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy,
                                 lambda b: pickle.loads(pickle.dumps(b))])
def test_a_bot_copy_is_the_bot_as_made(how):
    st = played("connect4", 2, moves=3)
    bot = skyline.Bot("mcts:iters=100", "connect4", seed=5)
    first = bot.choose(st)
    other = how(bot)
    assert other is not bot and (other.spec, other.seed) == (bot.spec, bot.seed)
    del bot
    gc.collect()
    assert other.choose(st) == first  # the copy's first choice is the original's first


# ---- released objects


def test_a_released_state_raises():
    st = played()
    st.__del__()
    st.__del__()  # twice is harmless
    assert "released" in repr(st)
    calls = [lambda: st.to_move, lambda: st.move_count, st.is_terminal, st.hash,
             st.legal_moves, st.legal_actions, st.legal_action_mask, st.undo, st.clone,
             st.result, st.scores, st.observation, lambda: st.observation_tensor(0),
             lambda: st.determinize(0, 1), st.show, st.to_record, st.playout,
             lambda: st.apply(0), lambda: st.apply("x"), lambda: st.move_to_action("x"),
             lambda: st.action_to_move(0), lambda: copy.copy(st), lambda: copy.deepcopy(st),
             lambda: skyline.Bot("random").choose(st)]
    for call in calls:
        with pytest.raises(ValueError, match="released"):
            call()


def test_a_released_bot_is_made_again():
    st = played("connect4", 2, moves=1)
    bot = skyline.Bot("random", "connect4")
    bot.__del__()
    bot.__del__()
    assert bot.choose(st) in st.legal_moves()


# ---- threads (ctypes lets go of the GIL in every C call)


def run_threads(work, n=4):
    errors = []

    def body(i):
        try:
            work(i)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_one_bot_from_four_threads():
    bot = skyline.Bot("mcts:iters=200", seed=1)
    states = [played("connect4", 2, moves=i) for i in range(4)]

    def work(i):
        for _ in range(15):
            assert bot.choose(states[i]) in states[i].legal_moves()
            assert bot.info is None or bot.info["iterations"] >= 200

    run_threads(work)


@pytest.mark.parametrize("game", ["towerup", "uptown"])
def test_one_state_from_four_threads(game):
    """One thread plays whole games (the history grows, moved in memory) and takes moves
    back, while three copy, record and read the same state."""
    bot = skyline.Bot("random", seed=4)
    for seed in range(3):
        st = skyline.new_game(game, 3, seed=seed)
        done = threading.Event()

        def work(i):
            k = 0
            while not done.is_set():
                k += 1
                try:
                    if i == 0:
                        for _ in range(2):
                            while not st.is_terminal():
                                acts = st.legal_actions()
                                st.apply(acts[k % len(acts)] if acts else 0)
                            while st.move_count > 5:
                                st.undo()
                        done.set()
                    elif i == 1:
                        assert st.clone().to_record()["game"] == game
                        st.determinize(0, k)
                    elif i == 2:
                        st.to_record()
                        st.legal_moves()
                    else:
                        st.observation_tensor(1)
                        bot.choose(st)
                        copy.deepcopy(st).show()
                except ValueError:
                    pass  # another thread changed the position between two calls

        run_threads(work)
        # Whatever the order, the state is whole: its record replays to it.
        again = skyline.new_game(game, 3, seed=seed)
        for m in st.to_record()["moves"]:
            again.apply(m)
        assert again.hash() == st.hash()


# ---- integers beyond C's


def test_players_out_of_range():
    for players in (2 ** 32 + 2, 2 ** 31, 0, -1, 1, 99, True, 2.0, "2"):
        for call in (lambda: skyline.new_game("towerup", players),
                     lambda: skyline.num_actions("towerup", players),
                     lambda: skyline.observation_size("towerup", players),
                     lambda: skyline.play("random", game="towerup", players=players),
                     lambda: skyline.env(game="towerup", players=players)):
            with pytest.raises(ValueError, match="players"):
                call()


def test_other_integers_out_of_range():
    st = played("connect4", 2, moves=1)
    big = [2 ** 31, 2 ** 32 + 1, 2 ** 63, 2 ** 64 + 1, -2 ** 31 - 1]
    for x in big:
        for call in (lambda: st.apply(x), lambda: st.action_to_move(x),
                     lambda: st.observation(x), lambda: st.observation_tensor(x),
                     lambda: st.determinize(x, 1), lambda: st.show(x),
                     lambda: st.playout(n=x),
                     lambda: skyline.play("random", game="connect4", players=2, games=x),
                     lambda: skyline.play("random", game="connect4", players=2, threads=x),
                     lambda: skyline.tournament(["random", "random"], game="connect4",
                                                players=2, games=x),
                     lambda: skyline.tournament(["random", "random"], game="connect4",
                                                players=2, workers=x)):
            with pytest.raises(ValueError):
                call()
    for seed in (2 ** 63, 2 ** 64 + 1, -1, True, 1.0):
        for call in (lambda: st.playout(seed=seed), lambda: st.determinize(0, seed),
                     lambda: skyline.new_game("connect4", 2, seed=seed),
                     lambda: skyline.Bot("random", seed=seed),
                     lambda: skyline.play("random", game="connect4", players=2, seed=seed)):
            with pytest.raises(ValueError, match="seed"):
                call()
    for call in (lambda: skyline.play("random", game="connect4", players=2, threads=-1),
                 lambda: skyline.tournament(["random", "random"], game="connect4", players=2,
                                            games=2, workers=-2),
                 lambda: skyline.new_game("connect4", 2, first_player=2 ** 32)):
        with pytest.raises(ValueError):
            call()


# ---- bots and files


def test_a_bad_bot_spec_raises_when_made():
    for spec in ("mcst", "mcts:iterz=5", "mcts:iters=-1", "", "random\nrandom", 3, None):
        with pytest.raises(ValueError):
            skyline.Bot(spec)
    with pytest.raises(ValueError):
        skyline.Bot("mcst", "connect4")
    assert skyline.Bot("heuristic").choose(played("uptown", 3, moves=0))  # towerup/uptown only


def test_read_records_raises_value_error(tmp_path):
    cases = [tmp_path / "missing.jsonl", tmp_path]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # never opened: opening it would wait for a writer
    cases.append(fifo)
    for path in cases:
        with pytest.raises(ValueError, match=str(path.name)):
            skyline.read_records(path)
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(b'{"a": "\xe9"}\n')
    with pytest.raises(ValueError, match="latin1.jsonl"):
        skyline.read_records(bad)


# ---- states read from text, pictures, chance outcomes, information state


def test_released_state_new_calls_raise():
    st = played()
    st.__del__()
    for call in (st.position, st.diagram, st.svg, st._repr_svg_, st.chance_outcomes,
                 lambda: st.chance_outcomes("T1"), lambda: st.information_state_tensor(0)):
        with pytest.raises(ValueError, match="released"):
            call()


def test_reads_of_bad_texts_raise():
    good = played("towerup", 2, moves=8)
    text = good.position()
    line = None
    for bad in (None, 3, b"towerup", text + "\0", "towerup\n" + text, "\x1b" * 5, "",
                " " * 5000, "towerup " + "x" * 100000, text + " extra", text.replace(" ", "  "),
                "connect4 " + "9" * 3000, "uptown " + "é" * 10):
        with pytest.raises(ValueError) as e:
            skyline.State.from_position(bad)
        assert "\n" not in str(e.value)
    for board in (3, "", "/nonexistent/board.txt", "x\0y", "a\nb", "standard"):
        with pytest.raises(ValueError):
            skyline.State.from_position(text, board=board)
    for seed in (-1, 2 ** 63, True, 1.5, "1"):
        with pytest.raises(ValueError, match="seed"):
            skyline.State.from_position(text, seed=seed)
    while not good.is_terminal():
        good.apply(good.legal_actions()[0])
    line = json.dumps(good.to_record())
    rec = json.loads(line)
    for bad in (None, 3, b"{}", line + "\0", "", "{" * 100000, "[" * 100000 + "]" * 100000,
                '"' + "\n" * 10, "{\"game\": \"towerup\", \"moves\": \"P1\"}",
                json.dumps(dict(rec, moves=rec["moves"] + ["P1K"])),
                json.dumps(dict(rec, moves=[None] * 3)), json.dumps(dict(rec, deck=[])),
                json.dumps(dict(rec, players=2 ** 40)), json.dumps(dict(rec, seed="x")),
                json.dumps(dict(rec, game=None)), json.dumps([rec]), "{\"a\":1,\"a\":2}",
                json.dumps(dict(game="connect4", players=2, moves=["1"] * 7)),
                json.dumps(dict(game="connect4", players=2, first_player=5, moves=[])),
                json.dumps(dict(game="connect4", players=-3, moves=[]))):
        with pytest.raises(ValueError) as e:
            skyline.State.from_record(bad)
        assert "\n" not in str(e.value)
    for ply in (-1, 2 ** 31, 2 ** 64, len(rec["moves"]) + 1, True, 1.0, "3"):
        with pytest.raises(ValueError, match="ply"):
            skyline.State.from_record(line, ply)
    with pytest.raises(ValueError):
        skyline.State.from_record({"game": object()})


def test_new_calls_with_bad_arguments():
    st = played("towerup", 2, moves=8)
    for x in (2 ** 31, 2 ** 64, -2 ** 31 - 1, -2, 2, True, "0", None, 1.0):
        for call in (lambda: st.position(x), lambda: st.svg(x),
                     lambda: st.information_state_tensor(x)):
            with pytest.raises(ValueError):
                call()
    for x in (2 ** 31, -2, 2, True, "0", 1.0):
        with pytest.raises(ValueError):
            st.diagram(x)
    for move in (3, b"T1", "", "T1\0", "x" * 100000, "\n", "T9+KK", "P99K"):
        if move == "":
            assert isinstance(st.chance_outcomes(move), list)  # "": no move, as None
            continue
        with pytest.raises(ValueError) as e:
            st.chance_outcomes(move)
        assert "\n" not in str(e.value)


def test_information_state_with_bad_arguments():
    st = played("uptown", 3, moves=5)
    for h in (-1, 1025, 2 ** 31, 2 ** 64, -2 ** 31 - 1, True, 1.5, "3", None, b"1"):
        with pytest.raises(ValueError, match="history"):
            st.information_state_tensor(0, h)
        with pytest.raises(ValueError, match="history"):
            skyline.information_state_size("uptown", 3, history=h)
    for x in (3, -1, 2 ** 40, False, 0.0):
        with pytest.raises(ValueError, match="player"):
            st.information_state_tensor(x)
    for game, players in (("chess", 2), ("uptown", 9), ("connect4", 3), (None, 2),
                          ("uptown", "3"), ("towerup\0", 2)):
        with pytest.raises(ValueError):
            skyline.information_state_size(game, players)
    assert len(st.information_state_tensor(2, 0)) == skyline.information_state_size(
        "uptown", 3, 0)
    # The C call refuses a buffer one float short, and writes nothing past it.
    import ctypes
    from skyline._lib import lib, err_buf
    n = skyline.information_state_size("uptown", 3, 4)
    buf, err = (ctypes.c_float * (n + 1))(*([7.0] * (n + 1))), err_buf()
    assert lib.sky_state_information_state(st._ptr, 0, 4, buf, n - 1, err, len(err)) == -1
    assert b"too small" in err.value and set(buf) == {7.0}
    assert lib.sky_state_information_state(st._ptr, 0, 4, buf, n, None, 0) == n
    assert buf[n] == 7.0
    # The move log through clones, determinizations and undo, to the end of a game, the
    # longest history read.
    end = played("towerup", 2, moves=0)
    while not end.is_terminal():
        end.apply(end.legal_actions()[-1])
        if end.move_count % 7 == 0:
            end = end.clone() if end.move_count % 2 else end.determinize(0, end.move_count)
    full = end.information_state_tensor(1, 1024)
    while end.move_count:
        end.undo()
    assert len(end.information_state_tensor(0, 1024)) == len(full)


def test_reads_and_views_from_four_threads():
    st = played("towerup", 3, moves=30)
    end = played("uptown", 3, moves=0)
    while not end.is_terminal():
        end.apply(end.legal_actions()[0])
    line = json.dumps(end.to_record())
    text = st.position()

    def work(i):
        for k in range(20):
            if i == 0:
                st.apply(st.legal_actions()[0])
                st.undo()
            elif i == 1:
                assert skyline.State.from_position(text, seed=k).position() == text
                st.svg(k % 3)
            elif i == 2:
                skyline.State.from_record(line, k).chance_outcomes()
            else:
                st.chance_outcomes()
                st.information_state_tensor(k % 3)
                st.diagram(-1)

    run_threads(work)
