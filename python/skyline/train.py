"""Trains a "resmlp" network (docs/NETS.md) from game records in PyTorch (python3-torch):

    python3 -m skyline.train RECORDS... --out NET [options]

Every position of every game is replayed by the engine (skyline.from_record) for the
mover's observation tensor and legal action ids. The policy learns the visit distribution
of the record's "policy" entry (generate --record-policy) by cross-entropy over the legal
moves' logits only; positions without an entry (no search there, or a record without the
field) train the value alone. The value learns the game's final result per seat (RULES.md
1.10), the mover's first, by binary cross-entropy on the sigmoid outputs (with
--value-target search or mix: the search's root value at the move, or its mean with the
result). Each epoch prints one JSON line of train and held-out losses; with the same
records, options and --seed the net is the same, byte for byte, also when stopped
(--stop-after, or killed) and resumed.
--init NET starts from NET's weights (a net of the same game, player count, width and
depth) instead of random ones, as the self-play loop (skyline.zero) trains its candidates."""
import argparse
import hashlib
import json
import os
import random
import sys
import time

from . import records as _records
from . import state as _state

CHECKPOINT = "checkpoint.pt"


class TrainError(Exception):
    """A one-line reason to stop (bad input, a checkpoint that does not fit)."""


class _Parser(argparse.ArgumentParser):
    """argparse with its errors on one line."""

    def error(self, message):
        self.exit(2, "skyline.train: %s (see --help)\n" % message)


def parse_args(argv):
    p = _Parser(
        prog="python3 -m skyline.train",
        description="Trains a resmlp network from game records (docs/NETS.md, Training).")
    p.add_argument("records", nargs="+", metavar="RECORDS",
                   help="record files (JSON Lines; generate --record-policy for the policy)")
    p.add_argument("--out", required=True, metavar="NET", help="the network file to write")
    p.add_argument("--width", type=int, default=128, help="hidden width (default 128)")
    p.add_argument("--depth", type=int, default=2, help="residual blocks (default 2)")
    p.add_argument("--epochs", type=int, default=10, help="passes over the data (default 10)")
    p.add_argument("--batch", type=int, default=256, help="positions per step (default 256)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's step (default 1e-3)")
    p.add_argument("--seed", type=int, default=1,
                   help="fixes the initial weights, the held-out split and the order")
    p.add_argument("--holdout", type=float, default=0.1, metavar="FRACTION",
                   help="share of the games held out, 0 to 0.9 (default 0.1)")
    p.add_argument("--value-target", choices=("result", "search", "mix"), default="result",
                   help="the value's target: the game's result (default), the search's root "
                        "value (value_pm of the policy entry), or their mean")
    p.add_argument("--threads", type=int, default=1,
                   help="PyTorch's threads (default 1; the net's bytes may depend on it)")
    p.add_argument("--init", metavar="NET",
                   help="start from this net's weights (same game, players, width, depth)")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="checkpoint folder, written after every epoch (default NET.ckpt); "
                        "its checkpoint is removed when training ends")
    p.add_argument("--resume", action="store_true",
                   help="go on from the checkpoint (the same records and options)")
    p.add_argument("--stop-after", type=int, metavar="N",
                   help="stop after N epochs of this run (resume later)")
    a = p.parse_args(argv)
    checks = [(1 <= a.width <= 4096, "--width must be 1 to 4096"),
              (0 <= a.depth <= 64, "--depth must be 0 to 64"),
              (1 <= a.epochs <= 100000, "--epochs must be 1 to 100000"),
              (1 <= a.batch <= 1 << 20, "--batch must be 1 to 1048576"),
              (0 < a.lr <= 10, "--lr must be above 0, at most 10"),
              (0 <= a.seed < 2 ** 63, "--seed must be 0 to 2^63-1"),
              (0 <= a.holdout <= 0.9, "--holdout must be 0 to 0.9"),
              (1 <= a.threads <= 1024, "--threads must be 1 to 1024"),
              (a.stop_after is None or a.stop_after >= 1, "--stop-after must be 1 or more")]
    for good, why in checks:
        if not good:
            p.error(why)
    if a.checkpoint is None:
        a.checkpoint = a.out + ".ckpt"
    return a


def _game_positions(path, index, rec, players, value_target="result"):
    """The positions of one record: (observation, legal ids, policy target or None, value
    target relative to the mover) per move. The value target is the game's result, or
    with value_target "search" or "mix" the search's root value of a move with a policy
    entry (value_pm, per seat), or the mean of the two."""
    where = "%s: record %d (seed %s)" % (path, index + 1, rec.get("seed"))
    moves, policy = rec.get("moves"), rec.get("policy")
    if not isinstance(moves, list):
        raise TrainError("%s: no \"moves\" list" % where)
    if policy is not None and (not isinstance(policy, list) or len(policy) != len(moves)):
        raise TrainError("%s: \"policy\" is not a list as long as its moves" % where)
    # The engine needs only the game's own keys: the policy and the like need no parsing.
    core = json.dumps({k: v for k, v in rec.items()
                       if k not in ("policy", "search", "movers", "clock")})
    try:
        end = _state.from_record(core)
        if not end.is_terminal():
            raise TrainError("%s: the game is not over after its moves" % where)
        result = end.result()
        out = []
        for ply in range(len(moves)):
            st = _state.from_record(core, ply)
            mover = st.to_move
            legal = list(st.legal_actions())
            value = [result[(mover + j) % players] for j in range(players)]
            entry = policy[ply] if policy is not None else None
            target = None if entry is None else _policy_target(entry, legal, where, ply)
            if entry is not None and value_target != "result":
                searched = _search_value(entry, players, where, ply)
                searched = [searched[(mover + j) % players] for j in range(players)]
                value = searched if value_target == "search" else \
                    [(z + q) / 2 for z, q in zip(value, searched)]
            out.append((st.observation_tensor(mover), legal, target, value))
        return out
    except ValueError as e:
        raise TrainError("%s: %s" % (where, e)) from None


def _policy_target(entry, legal, where, ply):
    """The visit distribution of a "policy" entry over the legal ids, in their order."""
    ids, visits = (entry.get("ids"), entry.get("visits")) if isinstance(entry, dict) \
        else (None, None)
    if not isinstance(ids, list) or not isinstance(visits, list) or len(ids) != len(visits) \
            or not ids:
        raise TrainError("%s: move %d: a policy entry needs \"ids\" and \"visits\" lists of "
                         "one length" % (where, ply))
    at = {a: i for i, a in enumerate(legal)}
    target = [0.0] * len(legal)
    total = 0
    for a, v in zip(ids, visits):
        if not isinstance(a, int) or isinstance(a, bool) or a not in at:
            raise TrainError("%s: move %d: policy id %r is not a legal action id there"
                             % (where, ply, a))
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise TrainError("%s: move %d: visits %r is not a count" % (where, ply, v))
        target[at[a]] += v
        total += v
    if total == 0:
        raise TrainError("%s: move %d: the policy entry has no visits" % (where, ply))
    return [t / total for t in target]


def _search_value(entry, players, where, ply):
    """The root value per absolute seat (0 to 1) of a "policy" entry's value_pm."""
    pm = entry.get("value_pm")
    if not isinstance(pm, list) or len(pm) != players or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1000
            for v in pm):
        raise TrainError("%s: move %d: the policy entry needs \"value_pm\", %d numbers from "
                         "0 to 1000 (--value-target)" % (where, ply, players))
    return [v / 1000 for v in pm]


def load_games(paths, value_target="result"):
    """(game, players, games, info): games is a list of position lists, one per record;
    forfeited games are left out. Every record must be of one game and player count."""
    game = players = None
    games, forfeits, files = [], 0, []
    for path in paths:
        try:
            recs = _records.read_records(path)
        except ValueError as e:
            raise TrainError(str(e)) from None
        files.append((path, len(recs)))
        for i, rec in enumerate(recs):
            if not isinstance(rec, dict):
                raise TrainError("%s: record %d is not a JSON object" % (path, i + 1))
            g, p = rec.get("game"), rec.get("players")
            if game is None:
                game, players = g, p
                try:
                    _state.num_actions(g, p)
                    _state.observation_size(g, p)
                except (ValueError, TypeError) as e:
                    raise TrainError("%s: record %d: %s" % (path, i + 1, e)) from None
            elif (g, p) != (game, players):
                raise TrainError("%s: record %d is %s with %s players, the first was %s with "
                                 "%d: train one game and count at a time"
                                 % (path, i + 1, g, p, game, players))
            if "forfeit" in rec:
                forfeits += 1
                continue
            games.append(_game_positions(path, i, rec, players, value_target))
    if not games:
        raise TrainError("no game to train on in %s" % " ".join(paths))
    return game, players, games, {"files": files, "forfeits": forfeits}


def file_digest(paths):
    h = hashlib.sha256()
    for path in paths:
        h.update(path.encode() + b"\0")
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        h.update(b"\0")
    return h.hexdigest()


def canonical_command(a):
    """The command that makes the net: every option that decides its bytes, none of the
    ones that only say where to keep the checkpoint or when to stop."""
    parts = ["python3", "-m", "skyline.train"] + a.records + [
        "--out", a.out, "--width", str(a.width), "--depth", str(a.depth),
        "--epochs", str(a.epochs), "--batch", str(a.batch), "--lr", repr(a.lr),
        "--seed", str(a.seed), "--holdout", repr(a.holdout), "--threads", str(a.threads)]
    if a.value_target != "result":  # the default is left out: older commands stay the same
        parts += ["--value-target", a.value_target]
    if a.init is not None:
        parts += ["--init", a.init]
    return " ".join(parts)


class Data:
    """Positions as tensors; the policy targets ragged (flat ids with offsets)."""

    def __init__(self, torch, positions):
        self.n = len(positions)
        import numpy as np
        obs = [np.asarray(p[0], dtype=np.float32) for p in positions]
        self.obs = torch.from_numpy(np.stack(obs)) if obs else torch.zeros((0, 0))
        self.value = torch.tensor([p[3] for p in positions], dtype=torch.float32)
        self.legal = [p[1] for p in positions]
        self.target = [p[2] for p in positions]
        self.has_policy = torch.tensor([p[2] is not None for p in positions])

    def batch(self, torch, idx):
        """Tensors of the positions idx: obs, value, ids [B, L], mask, target, has_policy."""
        longest = max(len(self.legal[i]) for i in idx)
        ids = torch.zeros((len(idx), longest), dtype=torch.long)
        mask = torch.zeros((len(idx), longest), dtype=torch.bool)
        target = torch.zeros((len(idx), longest), dtype=torch.float32)
        for row, i in enumerate(idx):
            k = len(self.legal[i])
            ids[row, :k] = torch.tensor(self.legal[i], dtype=torch.long)
            mask[row, :k] = True
            if self.target[i] is not None:
                target[row, :k] = torch.tensor(self.target[i], dtype=torch.float32)
        t = torch.tensor(idx, dtype=torch.long)
        return self.obs[t], self.value[t], ids, mask, target, self.has_policy[t]


def losses(torch, model, batch):
    """(policy loss summed over the positions with a policy, their count, value loss summed
    over positions, the count of positions) of one batch."""
    obs, value, ids, mask, target, has_policy = batch
    h = model.trunk(obs)
    # The legal moves' rows of the policy head only, as the engine gathers them.
    logits = torch.einsum("blh,bh->bl", model.policy.weight[ids], h) + model.policy.bias[ids]
    logp = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=1)
    ce = -(target * logp.masked_fill(~mask, 0.0)).sum(dim=1)
    policy_sum = (ce * has_policy.float()).sum()
    bce = torch.nn.functional.binary_cross_entropy_with_logits(
        model.value(h), value, reduction="none").mean(dim=1)
    return policy_sum, int(has_policy.sum()), bce.sum(), len(obs)


def evaluate(torch, model, data, batch):
    if data.n == 0:
        return None, None
    ps = pn = vs = vn = 0
    with torch.no_grad():
        for start in range(0, data.n, batch):
            p, k, v, n = losses(torch, model, data.batch(torch, list(range(start, min(
                data.n, start + batch)))))
            ps, pn, vs, vn = ps + float(p), pn + k, vs + float(v), vn + n
    return (ps / pn if pn else None), vs / vn


_OTHER = "%s was made from other records or options: give the same ones, or another " \
    "--checkpoint"


def _check_fingerprint(ckpt, fingerprint):
    """Refuses a checkpoint of other records or options by its note (no PyTorch needed)."""
    try:
        with open(ckpt + ".json") as f:
            note = json.load(f)
    except (OSError, ValueError):
        return  # no note: the checkpoint's own fingerprint is checked when it is loaded
    if not isinstance(note, dict) or note.get("fingerprint") != fingerprint:
        raise TrainError(_OTHER % ckpt)


def _save_checkpoint(torch, path, state):
    """The checkpoint, then a note of its fingerprint and epoch beside it (each replaced
    whole, so a run killed at any point leaves a checkpoint to resume from)."""
    for name, write in ((path, lambda f: torch.save(state, f)),
                        (path + ".json", lambda f: f.write(json.dumps(
                            {"fingerprint": state["fingerprint"], "epoch": state["epoch"]})
                            .encode()))):
        with open(name + ".tmp", "wb") as f:
            write(f)
        os.replace(name + ".tmp", name)


def _write_net(torch, torchnet, model, a, game, data_text):
    """The net file, replaced whole."""
    tmp = a.out + ".tmp"
    torchnet.save(model, tmp, game, data_text, canonical_command(a),
                  "skyline %s python, torch %s" % (_version(), torch.__version__))
    os.replace(tmp, a.out)


def _version():
    from ._lib import lib
    return lib.sky_version().decode()


def _load_init(torch, torchnet, model, a, game, players):
    """model's weights from the net --init names, which must fit it."""
    try:
        init, meta = torchnet.load(a.init)
    except Exception as e:  # a damaged file fails in many ways: one line for each
        raise TrainError("--init %s: not a network file (%s)" % (
            a.init, str(e).splitlines()[0] if str(e) else type(e).__name__)) from None
    want = {"game": game, "players": str(players), "width": str(a.width),
            "depth": str(a.depth)}
    for key, value in want.items():
        if meta.get(key) != value:
            raise TrainError("--init %s: the net's %s is %s, not %s (the records and options)"
                             % (a.init, key, meta.get(key), value))
    model.load_state_dict(init.state_dict())


def _split(games, a):
    order = list(range(len(games)))
    random.Random(a.seed).shuffle(order)
    held = int(round(a.holdout * len(games)))
    if held >= len(games):
        held = len(games) - 1
    train = [p for g in sorted(order[held:]) for p in games[g]]
    test = [p for g in sorted(order[:held]) for p in games[g]]
    return train, test, held


def train(a):
    """Trains as a says (parse_args); TrainError for bad input. The records are read and
    checked before PyTorch is loaded."""
    game, players, games, info = load_games(a.records, a.value_target)
    ckpt = os.path.join(a.checkpoint, CHECKPOINT)
    if a.resume and not os.path.isfile(ckpt):
        raise TrainError("--resume: no checkpoint %s" % ckpt)
    if not a.resume and os.path.exists(ckpt):
        raise TrainError("%s exists: --resume to go on from it, or remove it" % ckpt)
    digest = file_digest(a.records + ([a.init] if a.init is not None else []))
    fingerprint = hashlib.sha256((canonical_command(a) + digest).encode()).hexdigest()
    if a.resume:
        _check_fingerprint(ckpt, fingerprint)
    try:
        import torch
    except ImportError:
        raise TrainError("needs PyTorch (apt-get install python3-torch)") from None

    from . import torchnet

    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    train_pos, test_pos, held = _split(games, a)
    if not train_pos:
        raise TrainError("no position to train on in %s" % " ".join(a.records))
    with_policy = sum(p[2] is not None for p in train_pos + test_pos)
    data_text = "%s: %d games (%d held out), %d positions, %d with a policy%s" % (
        " ".join(a.records), len(games), held, len(train_pos) + len(test_pos), with_policy,
        ", %d forfeited games left out" % info["forfeits"] if info["forfeits"] else "")
    tr, te = Data(torch, train_pos), Data(torch, test_pos)

    torch.manual_seed(a.seed)
    model = torchnet.ResMLP(_state.observation_size(game, players),
                            _state.num_actions(game, players), players, a.width, a.depth)
    if a.init is not None:
        _load_init(torch, torchnet, model, a, game, players)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    first = 0
    if a.resume:
        try:
            saved = torch.load(ckpt)
        except Exception as e:  # torch raises many kinds for a damaged file
            raise TrainError("%s: not a checkpoint (%s)" % (ckpt, str(e).splitlines()[0]))
        if not isinstance(saved, dict) or saved.get("fingerprint") != fingerprint:
            raise TrainError(_OTHER % ckpt)
        model.load_state_dict(saved["model"])
        opt.load_state_dict(saved["optimizer"])
        first = saved["epoch"]
    made = not os.path.isdir(a.checkpoint)
    os.makedirs(a.checkpoint, exist_ok=True)

    print(json.dumps({"game": game, "players": players, "games": len(games), "held_out": held,
                      "train_positions": tr.n, "held_out_positions": te.n,
                      "with_policy": with_policy, "resumed_at": first}), flush=True)
    last = first + a.stop_after if a.stop_after else a.epochs
    for epoch in range(first, min(a.epochs, last)):
        t0 = time.monotonic()
        g = torch.Generator()
        g.manual_seed(a.seed * 1000003 + epoch)
        order = torch.randperm(tr.n, generator=g).tolist()
        ps = pn = vs = vn = 0
        model.train()
        for start in range(0, tr.n, a.batch):
            p, k, v, n = losses(torch, model, tr.batch(torch, order[start:start + a.batch]))
            loss = (p / k if k else 0.0) + v / n
            opt.zero_grad()
            loss.backward()
            opt.step()
            ps, pn, vs, vn = ps + float(p), pn + k, vs + float(v), vn + n
        model.eval()
        hp, hv = evaluate(torch, model, te, a.batch)
        print(json.dumps({"epoch": epoch + 1, "train_policy": ps / pn if pn else None,
                          "train_value": vs / vn, "held_out_policy": hp,
                          "held_out_value": hv, "seconds": round(time.monotonic() - t0, 3)}),
              flush=True)
        _save_checkpoint(torch, ckpt, {"fingerprint": fingerprint, "epoch": epoch + 1,
                                       "model": model.state_dict(),
                                       "optimizer": opt.state_dict()})
        _write_net(torch, torchnet, model, a, game, data_text)
        first = epoch + 1
    if first >= a.epochs:
        os.remove(ckpt)
        if os.path.exists(ckpt + ".json"):
            os.remove(ckpt + ".json")
        if made or a.checkpoint == a.out + ".ckpt":
            try:
                os.rmdir(a.checkpoint)
            except OSError:
                pass  # the folder holds other files: left as it is
        print(json.dumps({"done": a.out, "epochs": a.epochs}), flush=True)
    else:
        print(json.dumps({"stopped": first, "epochs": a.epochs, "checkpoint": ckpt}),
              flush=True)
    return 0


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return train(a)
    except TrainError as e:
        print("skyline.train: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("skyline.train: %s: %s" % (e.filename or "", e.strerror or e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
