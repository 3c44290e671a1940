#!/usr/bin/env bash
# python3 -m skyline.train end to end in seconds (docs/NETS.md, Training): Connect Four
# games from generate --record-policy, a tiny net trained on them; the same bytes on a
# second run, after --stop-after and --resume, and after kill -9 and --resume; the net
# read by the engine (its outputs agree with PyTorch's); bad input refused with one line.
# Skipped (exit 77) without python3-torch or in sanitizer builds (the interpreter would
# need the sanitizer runtime preloaded).
set -u
skyline=$1 src=$2
build=$(dirname "$skyline")
source "$src/tests/lib_nn.sh"
nn_torch_python test_train || exit 77
source "$src/tests/cli_lib.sh"
cd "$tmp" || exit 1

"$skyline" generate --game connect4 --players 2 --bot mcts:iters=40 --games 16 --seed 3 \
    --out c4.jsonl --record-policy --quiet >out 2>err && ok || fail "generate: $(cat err)"
"$skyline" generate --game connect4 --players 2 --bot mcts:iters=40 --games 4 --seed 50 \
    --out plain.jsonl --quiet >out 2>err && ok || fail "generate plain: $(cat err)"
opts=(--width 16 --depth 1 --epochs 6 --batch 32 --seed 7 --holdout 0.25)

# In one interpreter (PyTorch loads once): straight runs, stopped and resumed runs, a run
# killed by a second process once its first checkpoint is there and resumed, the epoch
# lines, and the engine's outputs on the trained net against PyTorch's.
"$py" - "$build/nn_eval_tool" "${opts[@]}" <<'EOF' && ok || fail "trainings"
import contextlib, io, json, os, shutil, struct, subprocess, sys, time
import torch
import skyline
from skyline import train, torchnet

tool, opts = sys.argv[1], sys.argv[2:]


def run(*extra, out="c4.net", files=("c4.jsonl", "plain.jsonl")):
    rc = train.main(list(files) + ["--out", out] + opts + list(extra))
    assert rc == 0, (extra, rc)
    return open(out, "rb").read()


first = run()
shutil.copy("c4.net", "first.net")
assert run() == first, "a second run made other bytes"
assert not os.path.exists("c4.net.ckpt"), "the checkpoint is left after the end"
os.remove("c4.net")
run("--stop-after", "2")
assert os.path.exists("c4.net.ckpt/checkpoint.pt")
run("--resume", "--stop-after", "3")
assert run("--resume") == first, "stopped and resumed: other bytes"
os.remove("c4.net")
# kill -9 once a checkpoint is there (it may also come after the end: then nothing to go on).
p = subprocess.Popen([sys.executable, "-m", "skyline.train", "c4.jsonl", "plain.jsonl",
                      "--out", "c4.net"] + opts, stdout=subprocess.DEVNULL)
t0 = time.monotonic()
while not os.path.exists("c4.net.ckpt/checkpoint.pt") and p.poll() is None:
    assert time.monotonic() - t0 < 120, "no checkpoint in 120 s"
    time.sleep(0.01)
p.kill()
p.wait()
if os.path.exists("c4.net.ckpt/checkpoint.pt"):
    assert run("--resume") == first, "killed and resumed: other bytes"
else:
    assert open("c4.net", "rb").read() == first
model, meta = torchnet.load("first.net")
assert meta["game"] == "connect4" and meta["players"] == "2", meta
assert meta["width"] == "16" and meta["depth"] == "1", meta
assert meta["training_data"].startswith("c4.jsonl plain.jsonl: 20 games (5 held out)"), meta
assert meta["training_command"].startswith("python3 -m skyline.train c4.jsonl plain.jsonl "
                                           "--out c4.net --width 16"), meta

# --init: the training starts from the given net's weights (a tiny step keeps them close),
# the same bytes twice; without it, from random ones.
def weights(path):
    return torch.cat([p.flatten() for p in torchnet.load(path)[0].parameters()])


with contextlib.redirect_stdout(io.StringIO()):
    near = run("--init", "first.net", "--lr", "1e-7", "--epochs", "1", out="init.net")
    assert run("--init", "first.net", "--lr", "1e-7", "--epochs", "1", out="init.net") == near
    run("--lr", "1e-7", "--epochs", "1", "--seed", "8", out="noinit.net")
assert (weights("init.net") - weights("first.net")).abs().max() < 1e-4, "--init not used"
assert (weights("noinit.net") - weights("first.net")).abs().max() > 1e-2
assert "--init first.net" in torchnet.load("init.net")[1]["training_command"]

# The losses: one JSON line per epoch, with held-out figures.
log = io.StringIO()
with contextlib.redirect_stdout(log):
    run("--epochs", "2", out="log.net", files=("c4.jsonl",))
lines = [json.loads(l) for l in log.getvalue().splitlines()]
assert lines[0]["with_policy"] > 0 and lines[0]["held_out"] == 4, lines[0]
epochs = [l for l in lines if "epoch" in l]
assert [l["epoch"] for l in epochs] == [1, 2], epochs
for l in epochs:
    for k in ("train_policy", "train_value", "held_out_policy", "held_out_value"):
        assert isinstance(l[k], float) and l[k] > 0, (k, l)
assert lines[-1] == {"done": "log.net", "epochs": 2}, lines[-1]
# --value-target: the search's root value (value_pm, absolute seats, turned to the
# mover's first) or its mean with the result; the default (the result) stays out of the
# command, so older commands and nets stay the same.
zs, qs, ms = (train.load_games(["c4.jsonl"], t)[2][0] for t in ("result", "search", "mix"))
rec = skyline.read_records("c4.jsonl")[0]
searched = 0
for ply, (z, q, m) in enumerate(zip(zs, qs, ms)):
    entry, mover = rec["policy"][ply], skyline.from_record(rec, ply).to_move
    if entry is None:
        assert z[3] == q[3] == m[3], ply
        continue
    want = [entry["value_pm"][(mover + j) % 2] / 1000 for j in range(2)]
    assert q[3] == want and m[3] == [(a + b) / 2 for a, b in zip(z[3], want)], ply
    searched += 1
assert searched > 0
with contextlib.redirect_stdout(io.StringIO()):
    run("--epochs", "1", "--value-target", "mix", out="mix.net", files=("c4.jsonl",))
mix_meta = torchnet.load("mix.net")[1]
assert mix_meta["training_command"].endswith("--value-target mix"), mix_meta
assert "--value-target" not in meta["training_command"], meta
# A checkpoint for the refusals below.
with contextlib.redirect_stdout(io.StringIO()):
    run("--stop-after", "1", out="y.net", files=("c4.jsonl",))

# The engine reads the trained net; its outputs are PyTorch's within 1e-5.
rec = skyline.read_records("c4.jsonl")[0]
with open("pos", "wb") as f:
    pos = []
    for ply in range(len(rec["moves"])):
        st = skyline.from_record(rec, ply)
        obs, ids = list(st.observation_tensor(st.to_move)), st.legal_actions()
        pos.append((obs, ids))
        f.write(struct.pack("<i%di%df" % (len(ids), len(obs)), len(ids), *ids, *obs))
subprocess.run([tool, "first.net", "pos", "res"], check=True, stdout=subprocess.DEVNULL)
raw, at = open("res", "rb").read(), 0
with torch.no_grad():
    for obs, ids in pos:
        c = struct.unpack_from("<%df" % (len(ids) + 2), raw, at)
        at += 4 * (len(ids) + 2)
        h = model.trunk(torch.tensor(obs))
        want = model.legal_logits(h, torch.tensor(ids)).tolist() + \
            torch.sigmoid(model.value(h)).tolist()
        assert max(abs(x - y) for x, y in zip(c, want)) < 1e-5, (c, want)
assert at == len(raw)
EOF

# The engine's bench times the trained net.
"$skyline" bench --nets --quick --net first.net >out 2>err \
    && grep -q '^network: resmlp width 16 depth 1, first.net' out && grep -q '^connect4 ' out \
    && ok || fail "bench --net: $(cat out err)"

# Bad input: one line on stderr, exit status 2, nothing written.
train() { "$py" -m skyline.train "$@"; }
expect_error "missing file" "no-such.jsonl" train no-such.jsonl --out x.net
echo '{"game":"connect4"' >bad.jsonl
expect_error "not JSON" "bad.jsonl:1: not a JSON record" train bad.jsonl --out x.net
echo '[1, 2]' >list.jsonl
expect_error "not an object" "list.jsonl: record 1 is not a JSON object" train list.jsonl --out x.net
"$skyline" generate --game towerup --players 2 --bot heuristic --games 1 --out tu.jsonl \
    --quiet >out 2>&1
expect_error "two games" "train one game and count at a time" train c4.jsonl tu.jsonl --out x.net
python3 -c '
import json
r = json.loads(open("c4.jsonl").readline())
r["policy"][0]["ids"][0] = 99
print(json.dumps(r))' >tampered.jsonl
expect_error "an id not legal" "move 0: policy id 99 is not a legal action id" \
    train tampered.jsonl --out x.net
python3 -c '
import json
r = json.loads(open("c4.jsonl").readline())
r["moves"], r["policy"] = r["moves"][:-1], r["policy"][:-1]
print(json.dumps(r))
r["policy"] = r["policy"][:-1]
print(json.dumps(r))' >cut.jsonl
expect_error "a game not over" "record 1 .*: the game is not over" train cut.jsonl --out x.net
tail -1 cut.jsonl >short.jsonl
expect_error "a short policy" "not a list as long as its moves" train short.jsonl --out x.net
python3 -c '
import json
r = json.loads(open("c4.jsonl").readline())
del r["policy"][0]["value_pm"]
print(json.dumps(r))' >novalue.jsonl
expect_error "no value_pm" 'move 0: the policy entry needs "value_pm"' \
    train novalue.jsonl --out x.net --value-target search
expect_error "bad value target" "invalid choice" train c4.jsonl --out x.net --value-target z
expect_error "resume without a checkpoint" "no checkpoint" train c4.jsonl --out x.net --resume
expect_error "resume, other options" "other records or options" \
    train c4.jsonl --out y.net "${opts[@]}" --lr 0.5 --resume
expect_error "a checkpoint there, no --resume" "exists: --resume" \
    train c4.jsonl --out y.net "${opts[@]}"
expect_error "bad width" "--width must be" train c4.jsonl --out x.net --width 0
expect_error "--init of another width" "--init first.net: the net's width is 16, not 32" \
    train c4.jsonl --out x.net --width 32 --init first.net
expect_error "--init not a net" "--init c4.jsonl: not a network file" \
    train c4.jsonl --out x.net --init c4.jsonl
[ ! -e x.net ] && ok || fail "a refused run wrote x.net"
finish test_train.sh
