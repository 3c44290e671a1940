"""examples/python run (quick budgets); the package works with and without numpy."""
import os
import subprocess
import sys

import pytest

import skyline
import skyline.state as state_mod
from conftest import REPO

EXAMPLES = os.path.join(REPO, "examples", "python")


def run(name, tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, name), "--quick"] +
                          list(args), env=env, cwd=str(tmp_path), check=True,
                          capture_output=True, text=True).stdout


def test_random_vs_mcts(tmp_path):
    out = run("random_vs_mcts.py", tmp_path)
    assert "from Python" in out and "by the C harness" in out


def test_tournament_table(tmp_path):
    out = run("tournament_table.py", tmp_path)
    assert "12 games" in out and "heuristic" in out


def test_plot_ratings(tmp_path):
    out = run("plot_ratings.py", tmp_path, "r.png")
    has_mpl = subprocess.run([sys.executable, "-c", "import matplotlib"]).returncode == 0
    if has_mpl:
        assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
    else:
        assert "skipped" in out and not (tmp_path / "r.png").exists()


def test_without_numpy(monkeypatch):
    monkeypatch.setattr(state_mod, "_np", None)
    st = skyline.new_game("connect4")
    assert st.legal_action_mask() == [1] * 7
    t = st.observation_tensor(0)
    assert isinstance(t, list) and len(t) == 85 and t[-1] == float(st.to_move == 0)


def test_with_numpy():
    np = pytest.importorskip("numpy")
    st = skyline.new_game("uptown", seed=3)
    mask = st.legal_action_mask()
    assert isinstance(mask, np.ndarray) and int(mask.sum()) == len(st.legal_actions())
    st.apply(np.int64(st.legal_actions()[0]))
    t = st.observation_tensor(1)
    assert t.dtype == np.float32 and t.shape == (skyline.observation_size("uptown", 3),)
