"""What a State shows beyond its notation: svg() and diagram() (and Jupyter's _repr_svg_),
and chance_outcomes() with their probabilities (docs/PYTHON.md); information_state_tensor()
is test_info_state.py's."""
import collections
import random
import xml.dom.minidom

import pytest

import skyline

GAMES = skyline.games()


def played(game, players, seed, moves):
    st = skyline.new_game(game, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


# ---- pictures


@pytest.mark.parametrize("game", GAMES)
def test_svg_and_diagram(game):
    st = played(game, 2, seed=3, moves=9)
    pic = st.svg()
    assert pic.startswith("<svg") and pic.rstrip().endswith("</svg>")
    xml.dom.minidom.parseString(pic)  # well-formed
    assert st._repr_svg_() == pic
    assert st.svg(0).startswith("<svg") and st.svg(-1) == pic
    assert st.diagram() == st.show() and st.diagram(1) == st.show(1)
    with pytest.raises(ValueError, match="out of range"):
        st.svg(2)
    with pytest.raises(ValueError, match="out of range"):
        st.diagram(-2)


def test_svg_matches_the_command_line(tmp_path):
    import subprocess
    from conftest import SKYLINE_BIN
    st = skyline.new_game("connect4", seed=1)
    for m in ("4", "4", "3"):
        st.apply(m)
    out = tmp_path / "c4.svg"
    subprocess.run([SKYLINE_BIN, "show", "--position", st.position(), "--svg", str(out)],
                   check=True, capture_output=True)
    assert out.read_text() == st.svg()


def test_svg_hides_what_the_view_cannot_see():
    st = played("uptown", 3, seed=2, moves=4)
    assert st.svg(0) != st.svg(1)
    a, b = st.determinize(0, 1), st.determinize(0, 2)
    assert a.svg(0) == b.svg(0) == st.svg(0)


# ---- chance outcomes


def draw_pile(st):
    """The Tower Up draw pile's card codes, from the diagram of everything."""
    text = st.show(ascii=True)
    if "Draw pile, top first" not in text:
        return []
    block = text.split("Draw pile, top first")[1].split("\n", 1)[1]
    codes = []
    for line in block.splitlines():
        if not line.startswith("    "):
            break
        codes += line.split()
    return codes


def test_towerup_draw_is_the_unseen_cards():
    st = played("towerup", 3, seed=5, moves=30)
    pile = draw_pile(st)
    out = st.chance_outcomes()
    assert pile and len(out) == len(set(pile))
    assert abs(sum(p for _, p in out) - 1) < 1e-12
    counts = collections.Counter(pile)
    for code, p in out:
        assert p == pytest.approx(counts[code] / len(pile))
    # Every player sees the same: the order is hidden from all, and redrawn by determinize.
    assert st.determinize(0, 9).chance_outcomes() == out
    takes = [m for m in st.legal_moves() if m.startswith("T")]
    builds = [m for m in st.legal_moves() if not m.startswith("T")]
    for m in takes[:3]:
        assert st.chance_outcomes(m) == out
    for m in builds[:3]:
        assert st.chance_outcomes(m) == []


def test_towerup_draw_after_the_pile_runs_out():
    """Once the draw pile is empty the discard pile, with the card taken, is reshuffled:
    the outcomes depend on the take, and without one they are refused."""
    for seed in range(1, 60):
        st = skyline.new_game("towerup", 2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and draw_pile(st):
            st.apply(rng.choice(st.legal_actions()))
        takes = [m for m in st.legal_moves() if m.startswith("T")]
        if not st.is_terminal() and takes:
            break
    else:
        pytest.skip("no game emptied its draw pile")
    with pytest.raises(ValueError, match="draw pile is empty"):
        st.chance_outcomes()
    for m in takes:
        out = st.chance_outcomes(m)
        assert out and abs(sum(p for _, p in out) - 1) < 1e-12
        # The card taken is among them, with the discard pile's cards.
        slot = int(m[1]) - 1
        market = st.show(ascii=True).split("Market:")[1].split()[1 + 2 * slot]
        assert market in dict(out)


def test_uptown_draw_is_the_movers_pile():
    st = played("uptown", 3, seed=4, moves=6)
    out = st.chance_outcomes()
    assert out and abs(sum(p for _, p in out) - 1) < 1e-12
    assert len({p for _, p in out}) == 1  # distinct tiles, one each
    # The tiles the mover has not seen: its colour's tiles left, less its rack.
    assert st.chance_outcomes(st.legal_moves()[0]) == out
    assert st.determinize(st.to_move, 3).chance_outcomes() == out
    two = played("uptown", 2, seed=4, moves=6)
    with pytest.raises(ValueError, match="depends on the move"):
        two.chance_outcomes()
    for m in two.legal_moves()[:5]:
        assert abs(sum(p for _, p in two.chance_outcomes(m)) - 1) < 1e-12


def test_no_chance_no_outcomes():
    st = played("connect4", 2, seed=1, moves=5)
    assert st.chance_outcomes() == [] and st.chance_outcomes(st.legal_moves()[0]) == []
    end = played("towerup", 2, seed=1, moves=100000)
    assert end.is_terminal() and end.chance_outcomes() == []


def test_chance_outcomes_of_an_illegal_move():
    st = played("towerup", 2, seed=1, moves=10)
    with pytest.raises(ValueError) as e:
        st.chance_outcomes("Z9")
    assert "\n" not in str(e.value)
    end = played("connect4", 2, seed=1, moves=100)
    with pytest.raises(ValueError, match="game is over"):
        end.chance_outcomes("1")
