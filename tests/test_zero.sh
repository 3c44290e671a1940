#!/usr/bin/env bash
# skyline zero (docs/ZERO.md) in tiny mode, in seconds: two generations of Connect Four and
# of Tower Up with 3 players; a run killed (-9) at many points, each resumed by the same
# command, ends with the files and log lines of a run never killed; the gate's decisions on
# crafted candidates (H1 promotes, H0 and no verdict reject, a copy of the best net is not
# promoted); every net of DIR loads with skyline nets; the lock, a rerun with other keys
# and bad input refused with one line. The page of a crafted log (C alone) in every build;
# the loop is skipped without python3-torch or in sanitizer builds (the interpreter would
# need the sanitizer runtime preloaded).
set -u
skyline=$1 src=$2
build=$(dirname "$skyline")
source "$src/tests/cli_lib.sh"
cd "$tmp" || exit 1

# The page of a crafted log: its curves and each generation's decision.
mkdir page other
cat >page/log.jsonl <<'EOF'
{"v": 1, "time": "2026-11-27T21:00:00Z", "engine": "skyline 0.9.0", "gen": 0, "step": "start", "config": {"game": "towerup", "players": 3}, "resumed": false}
{"v": 1, "time": "2026-11-27T21:00:01Z", "engine": "skyline 0.9.0", "gen": 1, "step": "selfplay", "games": 4, "positions": 300, "seconds": 2.0, "games_per_hour": 7200.0, "cpu_seconds": 3.5, "workers": 2, "ranks": 1}
{"v": 1, "time": "2026-11-27T21:00:02Z", "engine": "skyline 0.9.0", "gen": 1, "step": "train", "window": [1, 1], "samples": 300, "epochs": 1, "loss_policy": 2.5, "loss_value": 0.7, "heldout_policy": null, "heldout_value": null, "seconds": 0.5, "cpu_seconds": 0.1}
{"v": 1, "time": "2026-11-27T21:00:03Z", "engine": "skyline 0.9.0", "gen": 1, "step": "gate", "games": 60, "wdl": [40, 0, 20], "elo": 120.5, "elo_lo": 40.2, "elo_hi": 200.9, "llr": 2.95, "llr_lower": -2.944, "llr_upper": 2.944, "verdict": "H1"}
{"v": 1, "time": "2026-11-27T21:00:03Z", "engine": "skyline 0.9.0", "gen": 1, "step": "decision", "promoted": true, "reason": "sprt H1: llr 2.950 >= 2.944 after 60 games", "best": 1}
{"v": 1, "time": "2026-11-27T21:00:04Z", "engine": "skyline 0.9.0", "gen": 1, "step": "eval", "against": "gen0", "best": 1, "games": 4, "elo": 150.0, "elo_lo": 20.0, "elo_hi": 280.0}
{"v": 1, "time": "2026-11-27T21:00:05Z", "engine": "skyline 0.9.0", "gen": 2, "step": "gate", "games": 8, "wdl": [3, 0, 5], "elo": -30.0, "elo_lo": -200.0, "elo_hi": 140.0, "llr": 0.383, "llr_lower": -2.944, "llr_upper": 2.944, "verdict": "none"}
{"v": 1, "time": "2026-11-27T21:00:05Z", "engine": "skyline 0.9.0", "gen": 2, "step": "decision", "promoted": false, "reason": "no verdict in 8 games (llr 0.383) <&>", "best": 1}
EOF
"$skyline" zero --report page >out 2>err && ok || fail "zero --report: $(cat err)"
grep -q 'Skyline self-play: towerup, 3 players' page/report.html \
    && grep -q '<td>1</td><td class="l"><b>promoted</b></td><td class="l">sprt H1: llr 2.950' \
        page/report.html \
    && grep -q 'rejected</td><td class="l">no verdict in 8 games (llr 0.383) &lt;&amp;&gt;' \
        page/report.html \
    && grep -qF '<td>+150 [+20, +280]</td>' page/report.html \
    && [ "$(grep -c '<svg' page/report.html)" = 5 ] && ok || fail "the page's content"
# Each gate with its interval (promoted filled, rejected hollow), and Elo against the CPU
# hours of self-play and training (3.5 + 0.1 s).
grep -qF '<h2>Gate decisions</h2>' page/report.html \
    && grep -qF '<title>gen 1: +120 [+40, +201] promoted: sprt H1: llr 2.950 &gt;= 2.944 after 60 games</title>' page/report.html \
    && grep -qF 'fill="#ffffff" stroke="' page/report.html \
    && grep -qF '<title>gen 2: -30 [-200, +140] rejected: no verdict in 8 games (llr 0.383) &lt;&amp;&gt;</title>' page/report.html \
    && grep -qF '<h2>Elo against training time</h2>' page/report.html \
    && grep -qF '<title>gen 1, 0.001 CPU h: +150 [+20, +280]</title>' page/report.html \
    && grep -qF 'CPU hours (self-play and training)' page/report.html \
    && grep -qF '<td>0.001</td></tr>' page/report.html && ok || fail "the gates and Elo by CPU time"
echo '{"gen": "x"}' >>page/log.jsonl
expect_error "a bad log line" "page/log.jsonl:9: not a zero log line" "$skyline" zero --report page
expect_error "no log" "zero --report: .*nowhere/log.jsonl" "$skyline" zero --report nowhere
echo '{"gen": 1, "step": "x"}' >other/log.jsonl
echo "not a page of the viewer" >other/report.html
expect_error "someone else's page" "zero --report: " "$skyline" zero --report other
grep -q "not a page of the viewer" other/report.html && ok || fail "someone else's page changed"

source "$src/tests/lib_nn.sh"
if ! nn_torch_python test_zero; then # the page's checks above ran
    finish test_zero.sh
    exit
fi
export SKYLINE_PYTHON=$py
unset SKYLINE_ZERO_DIE_AFTER
zero() { "$skyline" zero "$@"; }
c4=(--game connect4 --players 2 --tiny --workers 1 --generations 2)

# The same files and log lines (but times and each run's start line) in two folders.
same_run() { "$py" "$src/tests/zero_same_run.py" "$1" "$2"; }

# Connect Four: two generations, every step logged, the nets load, the page written.
zero "${c4[@]}" --out c4 >out 2>err && ok || fail "connect4: $(cat err)"
"$py" - c4 <<'EOF' && ok || fail "connect4 log"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1] + "/log.jsonl")]
steps = [(x["gen"], x["step"], x.get("against")) for x in lines]
want = [(0, "start", None)]
for g in (1, 2):
    want += [(g, "selfplay", None), (g, "train", None), (g, "gate", None),
             (g, "decision", None), (g, "eval", "gen0"), (g, "eval", "mcts:iters=16")]
assert steps == want + [(2, "stop", None)], steps
for x in lines:
    assert x["v"] == 1 and x["engine"].startswith("skyline ") and x["time"].endswith("Z")
t = [x for x in lines if x["step"] == "train"]
assert t[1]["window"] == [1, 2] and t[1]["samples"] > t[0]["samples"] > 0, t
for k in ("loss_policy", "loss_value", "heldout_policy", "heldout_value"):
    assert isinstance(t[1][k], float), (k, t[1])
g = [x for x in lines if x["step"] == "gate"][0]
assert g["verdict"] in ("H1", "H0", "none") and len(g["pairs"]) == 5, g
d = [x for x in lines if x["step"] == "decision"]
assert all(isinstance(x["promoted"], bool) and x["reason"] for x in d), d
# Self-play explores (root noise, the first moves by visits); the gate does not, but it
# starts from the run's openings.
assert len(open(sys.argv[1] + "/gen-0000/openings.txt").read().split("seed=")) == 9
play = json.loads(open(sys.argv[1] + "/gen-0001/selfplay.jsonl").readline())
assert play["seats"][0] == "mcts:net=gen-0000/net.safetensors,iters=16,noise=0.25," \
    "temp_moves=8", play["seats"]
gate = json.loads(open(sys.argv[1] + "/gen-0001/gate.jsonl").readline())
assert sorted(gate["seats"]) == ["mcts:net=gen-0000/net.safetensors,iters=16",
                                 "mcts:net=gen-0001/candidate.safetensors,iters=16"], gate
EOF
for net in c4/best.safetensors c4/gen-*/*.safetensors; do
    "$skyline" nets "$net" --game connect4 --players 2 >out 2>err || fail "nets $net: $(cat err)"
done
ok
grep -q "Skyline self-play: connect4, 2 players" c4/report.html && grep -q "<svg" c4/report.html \
    && ok || fail "the page"

# Tower Up, 3 players: the same, the value targets per seat; --search's keys go into
# every net's bot (self-play and the gate), not into the mcts of the evaluation.
# With train_from=last, generation 2 trains on from generation 1's candidate, promoted or
# not; by default (Connect Four above) from the best net. value_target goes to the trainer.
zero --game towerup --players 3 --tiny --workers 2 --generations 2 --out tu3 \
    --search value_mix=0.5,cutoff=4 --train_from last --value_target mix >out 2>err \
    && ok || fail "towerup 3p: $(cat err)"
PYTHONPATH="$src/python" SKYLINE_LIB="$build/libskyline.so" "$py" - <<'EOF' \
    && ok || fail "the net each generation trains from"
import json
from skyline import nets
def start(run):
    meta = nets.read_net(run + "/gen-0002/candidate.safetensors")[0]
    return meta["training_command"].split("--init ")[1].split()[0]
assert start("tu3") == "gen-0001/candidate.safetensors", start("tu3")
best = json.load(open("c4/gen-0001/done.json"))["best_file"]
assert start("c4") == best, (start("c4"), best)
# The value's target (the trainer's command names it when it is not the result).
command = nets.read_net("tu3/gen-0002/candidate.safetensors")[0]["training_command"]
assert "--value-target mix" in command, command
command = nets.read_net("c4/gen-0002/candidate.safetensors")[0]["training_command"]
assert "--value-target" not in command, command
print("tu3 gen 1:", json.load(open("tu3/gen-0001/done.json"))["reason"])
print("c4 gen 1:", json.load(open("c4/gen-0001/done.json"))["reason"])
EOF
head -n1 tu3/gen-0001/selfplay.jsonl | grep -qF '"mcts:net=gen-0000/net.safetensors,iters=16,noise=0.25,temp_moves=12,value_mix=0.5,cutoff=4"' \
    && head -n1 tu3/gen-0001/gate.jsonl | grep -qF '"mcts:net=gen-0001/candidate.safetensors,iters=16,value_mix=0.5,cutoff=4"' \
    && head -n1 tu3/gen-0001/eval-mcts.jsonl | grep -qF '"mcts:iters=16"' \
    && ok || fail "towerup 3p: the search keys"
[ "$(grep -c '"step": "decision"' tu3/log.jsonl)" = 2 ] && ok || fail "towerup 3p: decisions"
"$skyline" nets tu3/gen-0002/candidate.safetensors --game towerup --players 3 >out 2>err \
    && ok || fail "towerup 3p net: $(cat err)"

# Killed at many points (each resumed by the same command): the same as never killed.
# A step's -part point kills it in its middle, once its file has something.
ref=(--game connect4 --players 2 --tiny --workers 2 --generations 2 --epochs=2)
zero "${ref[@]}" --out ref >out 2>err || fail "reference run: $(cat err)"
for at in 1:selfplay-part 1:train-part 1:candidate 1:gate-part 1:best 1:eval-mcts-part \
    2:selfplay 2:done; do
    SKYLINE_ZERO_DIE_AFTER=$at zero "${ref[@]}" --out killed >out 2>err
    rc=$?
    [ $rc = 137 ] || fail "not killed at $at: exit status $rc: $(cat err)"
done
zero "${ref[@]}" --out killed >out 2>err && ok || fail "the last resume: $(cat err)"
same_run ref killed && ok || fail "killed and resumed: not the same run"
# Run again when done: nothing new but its start line; more generations go on.
zero "${ref[@]}" --out ref >out 2>err && [ "$(grep -vc '"step": "start"' ref/log.jsonl)" = 13 ] \
    && ok || fail "a rerun when done: $(cat err)"
# A folder of a build before the search key (no "search" in zero.json) resumes.
"$py" -c 'import json, sys; c = json.load(open(sys.argv[1])); del c["keys"]["search"]
json.dump(c, open(sys.argv[1], "w"))' ref/zero.json
zero "${ref[@]}" --out ref >out 2>err && ok || fail "a zero.json without search: $(cat err)"

# The gate on crafted candidates (the strong shipped net against a random one): H1
# promotes, H0 rejects, a copy of the best net is never promoted; the reasons logged.
PYTHONPATH="$src/python" SKYLINE_LIB="$build/libskyline.so" SKYLINE_BIN="$skyline" \
    "$py" - "$src/nets/connect4-w128.safetensors" c4/gen-0000/net.safetensors \
    c4/gen-0000/openings.txt <<'EOF' \
    && ok || fail "the gate's decisions"
import json, os, shutil, sys
from skyline import zero, zero_log

strong, weak, openings = (os.path.abspath(x) for x in sys.argv[1:])


def gate(name, candidate, best):
    os.makedirs(name + "/gen-0001")
    os.makedirs(name + "/gen-0000")
    shutil.copy(best, name + "/gen-0000/net.safetensors")
    shutil.copy(openings, name + "/gen-0000/openings.txt")
    shutil.copy(candidate, name + "/gen-0001/candidate.safetensors")
    a = zero.parse_args(["--game", "connect4", "--players", "2", "--tiny", "--workers", "1",
                         "--out", name, "--gate=0,35,0.05,0.05,200"])
    config = zero.config_of(a, os.environ["SKYLINE_BIN"])
    here = os.getcwd()
    os.chdir(name)
    try:
        loop = zero.Loop(a, config, os.environ["SKYLINE_BIN"])
        loop.gate_and_decide(1, 0, "gen-0000/net.safetensors")
        done = json.load(open("gen-0001/done.json"))
        best = open("best.safetensors", "rb").read() if os.path.exists("best.safetensors") \
            else None
        return done, [x for x in loop.log.lines if x["step"] == "gate"][0], best
    finally:
        os.chdir(here)


done, g, best = gate("h1", strong, weak)
assert done["promoted"] and done["reason"].startswith("sprt H1: llr "), done
assert done["best"] == 1 and best == open(strong, "rb").read(), done
assert g["verdict"] == "H1" and g["llr"] >= g["llr_upper"], g
done, g, best = gate("h0", weak, strong)
assert not done["promoted"] and done["reason"].startswith("sprt H0: llr "), done
assert done["best"] == 0 and best is None, done
done, g, best = gate("same", strong, strong)
assert not done["promoted"] and done["reason"] == "the candidate equals the best net", done
# The decision alone, on crafted SPRT lines of the tournament's summary.
line = ("SPRT A vs B (elo0 0, elo1 35, alpha 0.05, beta 0.05, pentanomial over game pairs): "
        "W 5 D 1 L 2, pairs [0, 1, 2, 1, 0] from 8 games, LLR %s [-2.944, 2.944]: %s\n")
for llr, verdict, promoted, reason in (
        ("3.100", "H1 accepted", True, "sprt H1: llr 3.100 >= 2.944 after 8 games"),
        ("-3.000", "H0 accepted", False, "sprt H0: llr -3.000 <= -2.944 after 8 games"),
        ("0.500", "continue", False, "no verdict in 8 games (llr 0.500)")):
    s = zero_log.parse_sprt("summary\n" + line % (llr, verdict))
    assert s["pairs"] == [0, 1, 2, 1, 0] and s["wdl"] == [5, 1, 2], s
    assert zero.decide(s, 8, False) == (promoted, reason), (s, zero.decide(s, 8, False))
    assert zero.decide(s, 8, True)[0] is False
EOF
grep -q '"promoted": false, "reason": "no verdict in 8 games' c4/log.jsonl \
    && ok || fail "no verdict: not so logged"

# Refused with one line.
expect_error "other keys" "zero.json has iters=16, not 20" zero "${c4[@]}" --out c4 --iters=20
expect_error "another game" "zero.json has game \"connect4\", not \"towerup\"" \
    zero --game towerup --players 2 --tiny --out c4
if command -v flock >/dev/null; then
    expect_error "locked" "zero.lock is held by another run" \
        flock c4/zero.lock "$skyline" zero "${c4[@]}" --out c4
fi
expect_error "bad key" "--width must be 1 to 4096" zero "${c4[@]}" --out x --width=0
expect_error "bad noise" "--noise must be 0 to 1, not '2'" zero "${c4[@]}" --out x --noise=2
expect_error "alpha without noise" "--noise_alpha needs --noise above 0" \
    zero "${c4[@]}" --out x --noise 0 --noise_alpha 0.3
expect_error "bad search" "--search needs KEY=VALUE.*not 'cutoff'" \
    zero "${c4[@]}" --out x --search cutoff
expect_error "the loop's key" "--search 'iters=5': iters is the loop's own key" \
    zero "${c4[@]}" --out x --search iters=5
expect_error "unknown search key" "--search 'bogus=1': bot .*unknown key 'bogus'" \
    zero "${c4[@]}" --out x --search bogus=1
[ ! -e x ] && ok || fail "refused keys made the folder"
expect_error "bad train_from" "--train_from must be best or last, not 'first'" \
    zero "${c4[@]}" --out x --train_from first
expect_error "bad value_target" "--value_target must be result or search or mix, not 'x'" \
    zero "${c4[@]}" --out x --value_target x
expect_error "bad gate" "--gate needs elo0,elo1,alpha,beta,games" zero "${c4[@]}" --out x --gate=1,2
expect_error "unknown option" "unrecognized arguments: --nope" zero "${c4[@]}" --out x --nope=1
expect_error "bad players" "--players must be 2 to 5" zero --game connect4 --players 9 --out x
expect_error "bad game" "skyline zero: .*nogame" zero --game nogame --players 2 --out x
expect_error "missing init" "--init no.net" zero "${c4[@]}" --out x --init no.net
expect_error "init of another game" "--init .*towerup" \
    zero "${c4[@]}" --out x --init tu3/gen-0000/net.safetensors
expect_error "bad --mpi" "--mpi must be 1 to 100000" zero "${c4[@]}" --out x --mpi 0
if ! grep -qs '^SKYLINE_MPI:BOOL=ON' "$build/CMakeCache.txt"; then
    expect_error "--mpi without MPI" "--mpi: this skyline is built without MPI" \
        zero "${c4[@]}" --out x --mpi 2
    expect_error "--launcher without MPI" "--launcher: this skyline is built without MPI" \
        zero "${c4[@]}" --out x --launcher srun
fi
expect_error "no python" "zero needs python3 with PyTorch" \
    env SKYLINE_PYTHON=/no/python3 "$skyline" zero "${c4[@]}" --out x
# A python3 without PyTorch: -S leaves out the site packages where Debian puts it.
printf '#!/bin/sh\nexec %s -S "$@"\n' "$py" >nosite && chmod +x nosite
expect_error "no PyTorch" "needs PyTorch for .*apt-get install python3-torch" \
    env SKYLINE_PYTHON="$tmp/nosite" "$skyline" zero "${c4[@]}" --out x
[ ! -e x ] && ok || fail "a refused run made its folder"
finish test_zero.sh
