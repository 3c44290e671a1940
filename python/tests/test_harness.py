"""Bots, the C harness (play, tournament) and record files, against the command line."""
import json
import subprocess

import pytest

import skyline
from conftest import SKYLINE_BIN

GAMES = skyline.games()


@pytest.mark.parametrize("game", GAMES)
def test_play_agrees_with_the_command_line(game, tmp_path):
    ours, cli = tmp_path / "py.jsonl", tmp_path / "cli.jsonl"
    games = skyline.play("random", game=game, players=2, games=4, seed=30, record=ours,
                         threads=2)
    subprocess.run([SKYLINE_BIN, "play", "--game", game, "--players", "2", "--bot", "random",
                    "--games", "4", "--seed", "30", "--record", str(cli), "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    recs, want = skyline.read_records(ours), skyline.read_records(cli)
    assert recs == want and len(recs) == 4
    assert [g["seed"] for g in games] == [30, 31, 32, 33]
    for g, rec in zip(games, recs):
        assert g["ranks"] == rec["result"]["ranks"]
        assert g["result"] == skyline.game_result(rec["result"]["ranks"])
        # Move for move from Python, seed by seed: every move legal, same end.
        st = skyline.new_game(game, 2, seed=rec["seed"], first_player=rec["first_player"])
        for m in rec["moves"]:
            assert m in st.legal_moves()
            st.apply(m)
        assert st.is_terminal() and st.result() == g["result"]
        assert st.to_record()["moves"] == rec["moves"]


def test_play_defaults_and_parallel_determinism():
    a = skyline.play(["random", "mcts:iters=50"], game="connect4", games=6, seed=3, threads=1)
    b = skyline.play(["random", "mcts:iters=50"], game="connect4", games=6, seed=3, threads=3)
    assert a == b and len(a) == 6


def test_bot_choose_and_info():
    st = skyline.new_game("connect4", seed=1)
    bot = skyline.Bot("mcts:iters=300", seed=2)
    move = bot.choose(st)
    assert move in st.legal_moves()
    info = bot.info
    assert info["iterations"] >= 300 and 0 <= info["value"] <= 1
    assert sum(m["visits"] for m in info["moves"]) > 0
    assert {m["move"] for m in info["moves"]} == set(st.legal_moves())
    assert skyline.Bot("mcts:iters=300", seed=2).choose(st) == move
    rnd = skyline.Bot("random")
    assert rnd.choose(st) in st.legal_moves() and rnd.info is None
    st2 = skyline.new_game("uptown", seed=1)
    assert rnd.choose(st2) in st2.legal_moves()


def test_tournament(tmp_path):
    out = tmp_path / "t.jsonl"
    rep = skyline.tournament(["random", "mcts:iters=50"], game="connect4", games=8, seed=2,
                             record=out, workers=2)
    assert rep["games"] == 8 and rep["played"] == 8
    assert sorted(b["spec"] for b in rep["bots"]) == ["mcts:iters=50", "random"]
    assert len(skyline.read_records(out)) == 8
    again = skyline.tournament(["random", "mcts:iters=50"], game="connect4", games=8, seed=2,
                               record=out)
    assert again["played"] == 0 and again["resumed"] == 8
    with pytest.raises(ValueError):
        skyline.tournament(["random"], game="connect4", games=2)


def test_bad_harness_arguments(tmp_path):
    with pytest.raises(ValueError, match="unknown"):
        skyline.play("nosuch", game="connect4")
    with pytest.raises(ValueError):
        skyline.play(["random"] * 3, game="connect4")
    with pytest.raises(ValueError):
        skyline.play("random", game="connect4", games=0)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        skyline.read_records(bad)


def test_dataframe_when_pandas():
    pd = pytest.importorskip("pandas")
    recs = [json.loads(json.dumps({"seed": 1, "seats": ["a", "b"],
                                   "result": {"ranks": [2, 1], "groups": [1, 3]}}))]
    df = skyline.to_dataframe(recs)
    assert isinstance(df, pd.DataFrame) and list(df["result"]) == [0.0, 1.0]


def test_pip_install_offline(tmp_path):
    """`pip install ./python` with no network puts the library beside the package."""
    import os
    import sys
    for mod in ("pip", "setuptools"):
        if subprocess.run([sys.executable, "-c", "import " + mod]).returncode:
            pytest.skip("no %s for %s" % (mod, sys.executable))
    from conftest import REPO
    lib = os.environ.get("SKYLINE_LIB", os.path.join(REPO, "build", "libskyline.so"))
    env = dict(os.environ, SKYLINE_LIB=lib)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                    "--no-index", "--target", str(tmp_path / "site"),
                    os.path.join(REPO, "python")], check=True, env=env)
    env.pop("SKYLINE_LIB")
    env["PYTHONPATH"] = str(tmp_path / "site")
    out = subprocess.run([sys.executable, "-c", "import skyline, skyline._lib as l; "
                          "print(l.lib._name, skyline.games()[0])"], check=True, env=env,
                         cwd=str(tmp_path), capture_output=True, text=True).stdout
    assert out.startswith(str(tmp_path / "site" / "skyline" / "libskyline.so"))


def test_an_ext_bot_fault_raises_and_the_next_choice_restarts(tmp_path):
    """A program answering garbage to every second go of its life: choices alternate a move
    and ValueError, since each fault replaces the program (docs/PROTOCOL.md)."""
    import sys
    from conftest import REPO
    wrapper = tmp_path / "garbage2"
    wrapper.write_text('#!/bin/sh\nexec "%s" "%s/tests/sbp_fake.py" garbage 2\n'
                       % (sys.executable, REPO))
    wrapper.chmod(0o755)
    st = skyline.new_game("connect4", 2, seed=1)
    bot = skyline.Bot("ext:cmd=%s" % wrapper)
    for k in range(4):
        if k % 2:
            with pytest.raises(ValueError, match="forfeits: garbage .answered 'hello there'"):
                bot.choose(st)
        else:
            assert bot.choose(st) in st.legal_moves()
