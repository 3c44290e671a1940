"""C against PyTorch (docs/NETS.md): for each game, nets built in PyTorch and saved as
network files, evaluated on 1,000 positions from seeded random play by PyTorch and by the
engine (build/nn_eval_tool); every logit and value must agree within 1e-5.
usage: nn_torch_check.py BUILD_DIR"""
import os
import random
import struct
import subprocess
import sys
import tempfile

import torch

import skyline
from skyline import torchnet

POSITIONS = 1000
TOLERANCE = 1e-5


def player_counts(game):
    counts = []
    for p in range(2, 6):
        try:
            skyline.observation_size(game, p)
            counts.append(p)
        except ValueError:
            pass
    return counts


def positions(game, players, count, seed):
    """count (observation, legal action ids) of the movers along seeded random games."""
    rng = random.Random(seed)
    out, g = [], 0
    while len(out) < count:
        state = skyline.new_game(game, players, seed=seed * 1000 + g)
        g += 1
        while not state.is_terminal() and len(out) < count:
            ids = state.legal_actions()
            out.append((list(state.observation_tensor(state.to_move)), ids))
            state.apply(ids[rng.randrange(len(ids))])
    return out


def check(tool, game, players, count, tmp):
    torch.manual_seed(players)
    o, a = skyline.observation_size(game, players), skyline.num_actions(game, players)
    model = torchnet.ResMLP(o, a, players, width=64, depth=2)
    path = os.path.join(tmp, "%s-%d.net" % (game, players))
    torchnet.save(model, path, game, "none", "tests/nn_torch_check.py")
    pos = positions(game, players, count, players)
    with open(os.path.join(tmp, "pos"), "wb") as f:
        for obs, ids in pos:
            f.write(struct.pack("<i%di%df" % (len(ids), o), len(ids), *ids, *obs))
    subprocess.run([tool, path, os.path.join(tmp, "pos"), os.path.join(tmp, "out")], check=True)
    with open(os.path.join(tmp, "out"), "rb") as f:
        raw = f.read()
    worst, at = 0.0, 0
    with torch.no_grad():
        for obs, ids in pos:
            c = struct.unpack_from("<%df" % (len(ids) + players), raw, at)
            at += 4 * (len(ids) + players)
            h = model.trunk(torch.tensor(obs, dtype=torch.float32))
            logits = model.legal_logits(h, torch.tensor(ids, dtype=torch.long))
            value = torch.sigmoid(model.value(h))
            want = logits.tolist() + value.tolist()
            worst = max(worst, max(abs(x - y) for x, y in zip(c, want)))
    if at != len(raw):
        sys.exit("nn_torch_check: %s %dp: the engine wrote %d bytes, not %d" % (
            game, players, len(raw), at))
    print("%s %dp: %d positions, largest difference %.2e" % (game, players, len(pos), worst))
    return worst


def main():
    tool = os.path.join(sys.argv[1], "nn_eval_tool")
    torch.set_num_threads(1)
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in skyline.games():
            counts = player_counts(game)
            for i, p in enumerate(counts):
                share = POSITIONS // len(counts) + (i < POSITIONS % len(counts))
                if check(tool, game, p, share, tmp) > TOLERANCE:
                    bad.append("%s %dp" % (game, p))
    if bad:
        sys.exit("nn_torch_check: C and PyTorch differ by more than %g: %s" % (
            TOLERANCE, ", ".join(bad)))
    print("nn_torch_check: every game agrees within %g" % TOLERANCE)


if __name__ == "__main__":
    main()
