#!/usr/bin/env python3
"""C against PyTorch on one core (docs/NETS.md): runs `skyline bench --nets --json
--save-nets DIR`, loads the same random nets into PyTorch (skyline.torchnet,
torch.set_num_threads(1)), times its forward pass on positions of seeded random games, one
at a time and 64 at a time (the policy logits of the legal moves only, gathered as the
engine does, and the values), and prints evaluations/s of both and their ratio.
usage: scripts/nn_torch_bench.py [--skyline BIN] [--game G] [--quick]
(needs python3-torch, and libskyline.so: set SKYLINE_LIB or build in build/)"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402

import skyline  # noqa: E402
from skyline import torchnet  # noqa: E402

BATCH = 64


def positions(game, players, count, seed):
    rng = random.Random(seed)
    out, g = [], 0
    while len(out) < count:
        state = skyline.new_game(game, players, seed=seed + g)
        g += 1
        while not state.is_terminal() and len(out) < count:
            ids = state.legal_actions()
            if rng.randrange(4) == 0:
                out.append((list(state.observation_tensor(state.to_move)), ids))
            state.apply(ids[rng.randrange(len(ids))])
    return out


def mkldnn_trunk(model):
    """The trunk through oneDNN (torch.utils.mkldnn): Debian's PyTorch has a generic BLAS,
    and oneDNN is its fast path for nn.Linear."""
    from torch.utils import mkldnn

    stem = mkldnn.to_mkldnn(model.stem)
    blocks = [(mkldnn.to_mkldnn(b.fc1), mkldnn.to_mkldnn(b.fc2)) for b in model.blocks]

    def trunk(x):
        h = torch.relu(stem(x.to_mkldnn()))
        for fc1, fc2 in blocks:
            h = torch.relu(h + fc2(torch.relu(fc1(h))))
        return h.to_dense()
    return trunk


def evaluate(trunk, model, x, ids, seg):
    """Logits of the gathered ids (seg: each id's position in the batch) and the values."""
    h = trunk(x)
    w = model.policy.weight[ids]
    logits = (w * h[seg]).sum(1) + model.policy.bias[ids]
    return logits, torch.sigmoid(model.value(h))


def time_it(fn, least):
    n, t0 = 0, time.perf_counter()
    while True:
        n += fn()
        dt = time.perf_counter() - t0
        if dt >= least:
            return n / dt


def torch_rates(trunk, model, pos, least):
    xs = [torch.tensor([o], dtype=torch.float32) for o, _ in pos]
    ids1 = [torch.tensor(i, dtype=torch.long) for _, i in pos]
    seg1 = [torch.zeros(len(i), dtype=torch.long) for _, i in pos]

    def one():
        for x, i, s in zip(xs, ids1, seg1):
            evaluate(trunk, model, x, i, s)
        return len(xs)

    xb = torch.tensor([o for o, _ in pos[:BATCH]], dtype=torch.float32)
    idb = torch.tensor([a for _, i in pos[:BATCH] for a in i], dtype=torch.long)
    segb = torch.tensor([k for k, (_, i) in enumerate(pos[:BATCH]) for _ in i], dtype=torch.long)

    def batch():
        evaluate(trunk, model, xb, idb, segb)
        return BATCH

    with torch.inference_mode():
        return time_it(one, least), time_it(batch, least)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skyline", default=os.path.join(HERE, "..", "build", "skyline"))
    ap.add_argument("--game")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.skyline, "bench", "--nets", "--json", "--save-nets", tmp]
        cmd += ["--game", args.game] if args.game else []
        cmd += ["--quick"] if args.quick else []
        report = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                           text=True).stdout)
        nets = report["nets"]
        print("C (%s kernel, peak %.1f GFLOP/s) against PyTorch %s, one thread each; "
              "resmlp width %d depth %d" % (nets["kernel"], nets["peak_flops"] / 1e9,
                                            torch.__version__, nets["width"], nets["depth"]))
        print("%-12s %11s %11s %7s %6s %11s %11s %7s %6s" % (
            "case", "C b1/s", "torch b1/s", "ratio", "peak", "C b64/s", "torch b64/s", "ratio",
            "peak"))
        for c in nets["cases"]:
            model, _ = torchnet.load(os.path.join(tmp, "%s-%dp.net" % (c["game"], c["players"])))
            model.eval()
            pos = positions(c["game"], c["players"], BATCH, 1)
            least = 0.1 if args.quick else 0.5
            # PyTorch's faster path of the two, for each batch size.
            rates = [torch_rates(model.trunk, model, pos, least)]
            try:
                with torch.inference_mode():
                    trunk = mkldnn_trunk(model)
                    x = torch.tensor([pos[0][0]], dtype=torch.float32)
                    if (trunk(x) - model.trunk(x)).abs().max().item() < 1e-4:
                        rates.append(torch_rates(trunk, model, pos, least))
            except (RuntimeError, AttributeError):
                pass
            t1, tb = max(r[0] for r in rates), max(r[1] for r in rates)
            c1, cb = c["evals_per_s_batch1"], c["evals_per_s_batch64"]
            print("%-12s %11.0f %11.0f %6.1fx %5.1f%% %11.0f %11.0f %6.2fx %5.1f%%" % (
                c["case"], c1, t1, c1 / t1, 100 * c["peak_share_batch1"], cb, tb, cb / tb,
                100 * c["peak_share_batch64"]))


if __name__ == "__main__":
    main()
