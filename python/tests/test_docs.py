"""The README's Python example runs; the documented sizes are the engine's."""
import os
import re
import subprocess
import sys

import skyline
from conftest import REPO


def test_readme_example_runs():
    text = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    section = text[text.index("## From Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) == 5
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.startswith("[")


def test_documented_sizes():
    assert [skyline.num_actions("towerup", p) for p in (2, 3, 4)] == [21475] * 3
    assert [skyline.num_actions("uptown", p) for p in (2, 3, 4, 5)] == [9184, 6888, 9184,
                                                                         11480]
    assert skyline.num_actions("connect4", 2) == 7
    assert skyline.observation_size("towerup", 3) == 1114
    assert skyline.observation_size("uptown", 4) == 2973
    assert skyline.observation_size("connect4", 2) == 85
    doc = open(os.path.join(REPO, "docs", "PYTHON.md"), encoding="utf-8").read()
    for figure in ("21475", "9184", "6888", "11480", "| 85 |", "| 2973 |", "| 1114 |"):
        assert figure in doc
