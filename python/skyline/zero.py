"""The self-play loop (docs/ZERO.md): `skyline zero` runs it, or

    python3 -m skyline.zero --game G --players N --out DIR [options] [--KEY=VALUE ...]

Each generation g >= 1: self-play of the best net (skyline generate --record-policy),
training of a candidate from the best net's weights on a window of generations
(skyline.train --init), a gate of the candidate against the best net (skyline tournament
--sprt), the decision (promoted on H1 only, the reason logged), then evaluations of the
best net against generation 0 and against plain mcts (skyline rate). Every step resumes or
writes its result by rename, and where the loop stands is read from DIR's files, so the
same command after a kill (-9 included) goes on and ends with the same nets, records,
decisions and log lines (but their times) as a run never killed. With --mpi or --launcher
the self-play and match steps run as MPI jobs; run directly (not by `skyline zero`), set
SKYLINE_BIN_MPI=1 when SKYLINE_BIN is an MPI build."""
import argparse
import fcntl
import hashlib
import json
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import zero_log

KEYS = ("iters", "noise", "noise_alpha", "temp_moves", "games", "window", "width", "depth",
        "epochs", "batch", "lr", "gate", "eval_games", "openings", "search", "train_from",
        "value_target")
# noise_alpha "auto": the bot's own, 10 / the legal moves at the root; temp_moves "auto":
# 8 in Connect Four, 12 in the longer games (written into zero.json as the number).
DEFAULTS = {"iters": 400, "noise": 0.25, "noise_alpha": "auto", "temp_moves": "auto",
            "games": 400, "window": 4, "width": 128, "depth": 2, "epochs": 4, "batch": 256,
            "lr": 1e-3, "gate": "0,35,0.05,0.05,800", "eval_games": 200, "openings": 100,
            "search": "", "train_from": "best", "value_target": "result"}
# Keys added after runs were made: an older zero.json without one had its value here.
ADDED = {"search": "", "train_from": "best", "value_target": "result"}
# The keys of the nets' bots that the loop sets itself (search may not).
OWN_KEYS = ("net", "iters", "time", "noise", "noise_alpha", "temp_moves")
TINY = dict(DEFAULTS, iters=16, games=4, window=2, width=16, depth=1, epochs=1, batch=64,
            gate="0,35,0.05,0.05,8", eval_games=4, openings=8)
OPENINGS = os.path.join("gen-0000", "openings.txt")
TEMP_MOVES = {"connect4": 8}
NET = "net.safetensors"
CANDIDATE = "candidate.safetensors"


class ZeroError(Exception):
    """A one-line reason to stop."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "skyline zero: %s (see --help)\n" % message)


def _positive_int(text, what, low=1, high=1 << 30):
    try:
        v = int(text)
    except ValueError:
        raise ZeroError("%s must be an integer, not '%s'" % (what, text)) from None
    if not low <= v <= high:
        raise ZeroError("%s must be %d to %d, not %d" % (what, low, high, v))
    return v


def _key_value(key, text):
    """A key's value from its text, checked."""
    if key == "lr":
        try:
            v = float(text)
        except ValueError:
            raise ZeroError("--lr must be a number, not '%s'" % text) from None
        if not 0 < v <= 10:
            raise ZeroError("--lr must be above 0, at most 10")
        return v
    if key == "gate":
        parse_gate(text)
        return text
    if key == "search":
        return _search_keys(text)
    choices = {"train_from": ("best", "last"), "value_target": ("result", "search", "mix")}
    if key in choices:
        if text not in choices[key]:
            raise ZeroError("--%s must be %s, not '%s'" % (key, " or ".join(choices[key]), text))
        return text
    if key in ("noise", "noise_alpha"):
        low, high = (0.0, 1.0) if key == "noise" else (0.001, 1000.0)
        if key == "noise_alpha" and text == "auto":
            return text
        try:
            v = float(text)
        except ValueError:
            v = float("nan")
        if not low <= v <= high:
            raise ZeroError("--%s must be %g to %g%s, not '%s'" % (
                key, low, high, " or auto" if key == "noise_alpha" else "", text))
        return v
    if key == "temp_moves" and text == "auto":
        return text
    limits = {"iters": (1, 1 << 24), "games": (1, 1 << 24), "window": (1, 1000),
              "width": (1, 4096), "depth": (0, 64), "epochs": (1, 100000),
              "batch": (1, 1 << 20), "eval_games": (0, 1 << 24), "temp_moves": (0, 1000000),
              "openings": (0, 100000)}
    return _positive_int(text, "--" + key, *limits[key])


def _search_keys(text):
    """The search key: more keys of every net's mcts bot, KEY=VALUE,..., none of the
    loop's own; the engine checks them at the start (check_search)."""
    if text == "":
        return text
    for part in text.split(","):
        key, eq, value = part.partition("=")
        if not eq or not re.fullmatch(r"[a-z_0-9]+", key) or not value:
            raise ZeroError("--search needs KEY=VALUE,... (mcts keys), not '%s'" % text)
        if key in OWN_KEYS:
            raise ZeroError("--search '%s': %s is the loop's own key" % (text, key))
    return text


def check_search(config):
    """Refuses, with the engine's one line, search keys that make no mcts bot with a net of
    the run's game (a net of random weights, width 1, stands in for the run's)."""
    if not config["keys"]["search"]:
        return
    import torch
    from . import bots, state, torchnet
    g, p = config["game"], config["players"]
    model = torchnet.ResMLP(state.observation_size(g, p), state.num_actions(g, p), p, 1, 0)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "net.safetensors")
        torchnet.save(model, path, g, "check", "skyline zero --search", "torch "
                      + torch.__version__)
        try:
            bots.Bot("mcts:net=%s,iters=1,%s" % (path, config["keys"]["search"]), g)
        except ValueError as e:
            raise ZeroError("--search '%s': %s" % (config["keys"]["search"], e)) from None


def parse_gate(text):
    """(elo0, elo1, alpha, beta, most games) of a gate key."""
    parts = text.split(",")
    try:
        e0, e1, al, be = (float(x) for x in parts[:4])
        most = int(parts[4])
    except (ValueError, IndexError):
        raise ZeroError("--gate needs elo0,elo1,alpha,beta,games, not '%s'" % text) from None
    if len(parts) != 5 or not e0 < e1 or not 0 < al < 0.5 or not 0 < be < 0.5 or most < 2:
        raise ZeroError("--gate '%s': needs elo0 < elo1, alpha and beta in (0, 0.5) and at "
                        "least 2 games" % text)
    return e0, e1, al, be, most


def parse_args(argv):
    p = _Parser(prog="skyline zero", description="The self-play loop (docs/ZERO.md). Keys, "
                "as --KEY=VALUE or --KEY VALUE: " + ", ".join(
                    "%s (default %s, --tiny %s)" % (k, DEFAULTS[k], TINY[k]) for k in KEYS))
    p.add_argument("--game", required=True, help="towerup, uptown or connect4")
    p.add_argument("--players", required=True, type=int, help="the player count")
    p.add_argument("--out", required=True, metavar="DIR", help="the loop's folder")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (skyline generate's --option)")
    p.add_argument("--generations", type=int, metavar="K",
                   help="stop when K generations are done (default: run until killed)")
    p.add_argument("--init", metavar="NET", help="generation 0 (default: random weights)")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    p.add_argument("--workers", type=int, help="games played at once (default: the cores)")
    p.add_argument("--tiny", action="store_true", help="tiny defaults, for tests")
    p.add_argument("--mpi", type=int, metavar="R",
                   help="self-play and the matches as MPI jobs of R ranks (mpirun -np R; "
                   "the MPI build)")
    p.add_argument("--launcher", metavar="CMD",
                   help="the command that starts those MPI jobs instead, e.g. 'srun' or "
                   "'mpirun --hostfile hosts -np 16'")
    for k in KEYS:
        p.add_argument("--" + k, dest="key_" + k, metavar="VALUE", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.generations is not None and not 0 <= a.generations <= 100000:
        p.error("--generations must be 0 to 100000")
    if a.workers is not None and not 1 <= a.workers <= 1024:
        p.error("--workers must be 1 to 1024")
    if not 0 <= a.seed < 2 ** 31:
        p.error("--seed must be 0 to 2^31-1")
    if not 2 <= a.players <= 5:
        p.error("--players must be 2 to 5")
    if a.mpi is not None and not 1 <= a.mpi <= 100000:
        p.error("--mpi must be 1 to 100000 (ranks)")
    if a.mpi is not None and a.launcher is not None:
        p.error("--mpi and --launcher: give one (--mpi R is --launcher 'mpirun -np R')")
    if a.launcher is not None:
        try:
            words = shlex.split(a.launcher)
        except ValueError as e:
            p.error("--launcher '%s': %s" % (a.launcher, e))
        if not words:
            p.error("--launcher needs a command, e.g. 'mpirun -np 4'")
    return a


def launcher(a):
    """The words that start an MPI job before the program ([] without --mpi or
    --launcher); refused when the program is no MPI build or the launcher is missing."""
    if a.mpi is None and a.launcher is None:
        return []
    words = ["mpirun", "-np", str(a.mpi)] if a.mpi is not None else shlex.split(a.launcher)
    what = "--mpi" if a.mpi is not None else "--launcher"
    if os.environ.get("SKYLINE_BIN_MPI") != "1":
        raise ZeroError("%s: this skyline is built without MPI (cmake -DSKYLINE_MPI=ON, "
                        "docs/MPI.md)" % what)
    if shutil.which(words[0]) is None:
        raise ZeroError("%s: cannot find '%s' (apt-get install openmpi-bin)" % (what, words[0]))
    return words


def config_of(a, skyline):
    """zero.json's object: everything that decides the loop's files."""
    keys = dict(TINY if a.tiny else DEFAULTS)
    for k in KEYS:
        text = getattr(a, "key_" + k)
        if text is not None:
            keys[k] = _key_value(k, text)
    if keys["temp_moves"] == "auto":
        keys["temp_moves"] = TEMP_MOVES.get(a.game, 12)
    if keys["noise"] == 0 and keys["noise_alpha"] != "auto":
        raise ZeroError("--noise_alpha needs --noise above 0")
    if a.init is not None:
        meta = _net_meta(a.init)
        if (meta.get("game"), meta.get("players")) != (a.game, str(a.players)):
            raise ZeroError("--init %s: the net is for %s with %s players, not %s with %d"
                            % (a.init, meta.get("game"), meta.get("players"), a.game,
                               a.players))
        for k in ("width", "depth"):
            given = getattr(a, "key_" + k)
            if given is not None and int(given) != int(meta[k]):
                raise ZeroError("--init %s: its %s is %s, not %s" % (a.init, k, meta[k], given))
            keys[k] = int(meta[k])
    return {"v": 1, "game": a.game, "players": a.players, "options": list(a.option),
            "seed": a.seed, "tiny": a.tiny, "keys": keys,
            "init": None if a.init is None else {"file": a.init, "sha256": _sha256(a.init)},
            "engine": _run([skyline, "version"]).strip()}


def _net_meta(path):
    from . import nets
    try:
        return nets.read_net(path)[0]
    except OSError as e:
        raise ZeroError("--init %s: %s" % (path, e.strerror)) from None
    except Exception as e:  # a damaged file fails in many ways
        raise ZeroError("--init %s: not a network file (%s)" % (path, e)) from None


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def step_seed(config, gen, step):
    """The seed of one step of one generation: the same whatever was killed or resumed."""
    text = "%d/%d/%s" % (config["seed"], gen, step)
    return int(hashlib.sha256(text.encode()).hexdigest()[:7], 16)


def _die_point(gen, name):
    """Tests stop the loop at a point: SKYLINE_ZERO_DIE_AFTER=G:NAME kills it there (-9)."""
    if os.environ.get("SKYLINE_ZERO_DIE_AFTER") == "%d:%s" % (gen, name):
        os.kill(os.getpid(), signal.SIGKILL)


def _child_dies_with_us():
    """The children get SIGKILL when the loop dies (Linux), so a killed loop leaves none
    writing into DIR."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _run(cmd, cwd=None, watch=None, lines=None):
    """Runs cmd; its stdout. Its last stderr line, on failure, is the ZeroError. With watch
    (gen, name, path): when SKYLINE_ZERO_DIE_AFTER names gen:name-part, the loop and cmd are
    killed once path exists and is not empty (a kill inside a step, for tests). lines: a
    function called with each stdout line as it comes."""
    errf = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=errf, preexec_fn=_child_dies_with_us, text=True)
    if watch is not None and os.environ.get("SKYLINE_ZERO_DIE_AFTER") == "%d:%s-part" % watch[:2]:
        path = watch[2]
        t0 = time.monotonic()
        while proc.poll() is None and time.monotonic() - t0 < 120:
            if os.path.exists(path) and os.path.getsize(path) > 0:
                break
            time.sleep(0.002)
        # Killed there, or after the child's end if it ended first (a fast step).
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)
    out = []
    for line in proc.stdout:
        out.append(line)
        if lines is not None:
            lines(line)
    rc = proc.wait()
    errf.seek(0)
    err = errf.read()
    errf.close()
    if rc != 0:
        raise ZeroError("%s: %s" % (os.path.basename(cmd[0]) if cmd[0] != sys.executable
                                    else " ".join(cmd[1:3]),
                                    _error_line(err) or "exit status %d" % proc.returncode))
    return "".join(out)


def _error_line(err):
    """The line that says why a child failed: the program's own (under a launcher, not the
    launcher's notes after it), else its last; a launcher's boxed message (mpirun's, between
    lines of dashes) as its first paragraph on one line."""
    lines = [x for x in err.splitlines() if x.strip()]
    ours = [x for x in lines if x.startswith("skyline: ")]
    if ours:
        return ours[-1]
    if lines and not any(c.isalpha() for c in lines[-1]):
        para = []
        for x in err.splitlines():
            if any(c.isalpha() for c in x):
                para.append(x.strip())
            elif para:
                break
        return " ".join(para)
    return lines[-1] if lines else None


def _write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(obj, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except ValueError:
        raise ZeroError("%s: not JSON (a damaged file: remove it to redo its step)" % path) \
            from None


def _copy(src, dst):
    """dst replaced whole by a copy of src (idempotent)."""
    shutil.copyfile(src, dst + ".tmp")
    os.replace(dst + ".tmp", dst)


class _Keep:
    """A stdout that keeps the trainer's lines in a file, flushed line by line."""

    def __init__(self, f):
        self.f = f

    def write(self, text):
        self.f.write(text)
        self.f.flush()
        return len(text)

    def flush(self):
        self.f.flush()


class Loop:
    """One run of the loop on DIR (the working folder of every child process)."""

    def __init__(self, a, config, skyline):
        self.a, self.config, self.skyline = a, config, skyline
        self.keys = config["keys"]
        self.log = zero_log.Log("log.jsonl", config["engine"])
        self.gate = parse_gate(self.keys["gate"])
        self.launch = launcher(a)

    def game_args(self, workers=True):
        out = ["--game", self.config["game"], "--players", str(self.config["players"])]
        for o in self.config["options"]:
            out += ["--option", o]
        return out + (["--workers", str(self.a.workers)] if self.a.workers and workers else [])

    def match_args(self):
        """A match's options: the game's, and its start positions when there are some
        (the nets search without chance: from one start, every game of a seat order would
        be the same game)."""
        return self.game_args() + (["--openings", OPENINGS] if self.keys["openings"] else [])

    def spec(self, net, selfplay=False):
        """The mcts bot of a net: self-play adds its exploration keys (root noise and the
        move temperature), the matches play without them."""
        k = self.keys
        text = "mcts:net=%s,iters=%d" % (net, k["iters"])
        if selfplay and k["noise"] > 0:
            text += ",noise=%g" % k["noise"]
            if k["noise_alpha"] != "auto":
                text += ",noise_alpha=%g" % k["noise_alpha"]
        if selfplay and k["temp_moves"] > 0:
            text += ",temp_moves=%d" % k["temp_moves"]
        if k["search"]:
            text += "," + k["search"]
        return text

    def best(self, gen):
        """(generation, file) of the best net when generation gen starts."""
        if gen <= 1:
            return 0, os.path.join("gen-0000", NET)
        done = _read_json(os.path.join(gen_dir(gen - 1), "done.json"))
        return done["best"], done["best_file"]

    # ---- generation 0 ----
    def generation0(self):
        path = os.path.join("gen-0000", NET)
        os.makedirs("gen-0000", exist_ok=True)
        if not os.path.exists(path):
            if self.config["init"] is not None:
                init = self.config["init"]["file"]
                if _sha256(init) != self.config["init"]["sha256"]:
                    raise ZeroError("--init %s: the file changed since the run began" % init)
                _copy(init, path)
            else:
                self._random_net(path)
        if not os.path.exists("best.safetensors"):
            _copy(path, "best.safetensors")
        if self.keys["openings"] and not os.path.exists(OPENINGS):
            # skyline openings refuses an existing file: a killed run's is made again.
            tmp = OPENINGS + ".tmp"
            if os.path.exists(tmp):
                os.remove(tmp)
            _run([self.skyline, "openings"] + self.game_args(workers=False) + [
                "--out", tmp, "--count", str(self.keys["openings"]),
                "--seed", str(step_seed(self.config, 0, "openings")),
                "--eval", "mcts:iters=%d" % (100 if self.config["tiny"] else 2000)])
            os.replace(tmp, OPENINGS)

    def _random_net(self, path):
        import torch
        from . import state, torchnet
        g, p = self.config["game"], self.config["players"]
        torch.manual_seed(step_seed(self.config, 0, "init"))
        model = torchnet.ResMLP(state.observation_size(g, p), state.num_actions(g, p), p,
                                self.keys["width"], self.keys["depth"])
        torchnet.save(model, path + ".tmp", g, "random weights",
                      "skyline zero (generation 0, seed %d)" % self.config["seed"],
                      self.config["engine"] + " python, torch " + torch.__version__)
        os.replace(path + ".tmp", path)

    # ---- the steps of generation g ----
    def selfplay(self, g, best_file):
        d = gen_dir(g)
        out = os.path.join(d, "selfplay.jsonl")
        if self.log.has(g, "selfplay"):
            return
        before = zero_log.count_lines(out)
        t0, c0 = time.monotonic(), _children_cpu()
        text = _run(self.launch + [self.skyline, "generate"] + self.game_args() + [
            "--bot", self.spec(best_file, selfplay=True), "--games", str(self.keys["games"]),
            "--seed", str(step_seed(self.config, g, "selfplay")), "--out", out,
            "--record-policy", "--quiet"], watch=(g, "selfplay", out))
        seconds, cpu = time.monotonic() - t0, _children_cpu() - c0
        _die_point(g, "selfplay")
        records = zero_log.sort_records(out)
        played = max(len(records) - before, 0)
        self.log.write(g, "selfplay", games=len(records),
                       positions=sum(len(r.get("moves", [])) for r in records),
                       seconds=round(seconds, 3),
                       games_per_hour=round(3600 * played / seconds, 1) if seconds > 0 else None,
                       cpu_seconds=round(cpu, 3),
                       workers=self.a.workers, ranks=ranks_of(text))
        _die_point(g, "selfplay-log")

    def train(self, g, best_file):
        d = gen_dir(g)
        cand, out, ckpt = (os.path.join(d, x) for x in (CANDIDATE, "train.safetensors",
                                                         "train.ckpt"))
        epochs_log = os.path.join(d, "train-epochs.jsonl")
        first = max(1, g - self.keys["window"] + 1)
        files = [os.path.join(gen_dir(k), "selfplay.jsonl") for k in range(first, g + 1)]
        cpu = None
        if not os.path.exists(cand):
            c0 = time.process_time()
            lines = self._train_run(g, files, best_file, out, ckpt, epochs_log)
            if zero_log.last_epoch(lines, self.keys["epochs"]) is None:
                # Killed between an epoch's line and our copy of it: train again (the same
                # bytes), so that the log has the last epoch's losses.
                shutil.rmtree(ckpt, ignore_errors=True)
                lines = self._train_run(g, files, best_file, out, ckpt, epochs_log)
            cpu = time.process_time() - c0
            _die_point(g, "train")
            os.replace(out, cand)
        _die_point(g, "candidate")
        if self.log.has(g, "train"):
            return
        lines = zero_log.read_lines(epochs_log)
        last, counts = zero_log.last_epoch(lines, self.keys["epochs"]), zero_log.counts(lines)
        if last is None:
            raise ZeroError("%s: no line of the last epoch (remove %s to train again)"
                            % (epochs_log, cand))
        if cpu is None:  # trained by a run killed before this line: its epochs' times
            cpu = zero_log.epochs_seconds(lines, self.keys["epochs"])
        self.log.write(g, "train", window=[first, g], samples=counts,
                       epochs=self.keys["epochs"], loss_policy=last["train_policy"],
                       loss_value=last["train_value"], heldout_policy=last["held_out_policy"],
                       heldout_value=last["held_out_value"], seconds=last.get("seconds"),
                       cpu_seconds=round(cpu, 3))

    def _train_run(self, g, files, best_file, out, ckpt, epochs_log):
        """The trainer, in this process (PyTorch loads once a run), its lines kept in
        epochs_log as they come. It starts from the best net, or with train_from=last from
        the generation before's candidate, promoted or not (training goes on as in
        AlphaGo Zero; the gate still decides which net plays)."""
        from . import train
        resume = os.path.exists(os.path.join(ckpt, "checkpoint.pt"))
        start = best_file
        if self.keys["train_from"] == "last" and g > 1:
            start = os.path.join(gen_dir(g - 1), CANDIDATE)
        argv = files + [
            "--out", out, "--init", start, "--width", str(self.keys["width"]),
            "--depth", str(self.keys["depth"]), "--epochs", str(self.keys["epochs"]),
            "--batch", str(self.keys["batch"]), "--lr", repr(self.keys["lr"]),
            "--value-target", self.keys["value_target"],
            "--seed", str(step_seed(self.config, g, "train")), "--threads", "1",
            "--checkpoint", ckpt] + (["--resume"] if resume else [])
        part = os.environ.get("SKYLINE_ZERO_DIE_AFTER") == "%d:train-part" % g
        if part:
            argv += ["--stop-after", "1"]  # a kill once the first checkpoint is written
        with open(epochs_log, "a") as f:
            keep = _Keep(f)
            saved, sys.stdout = sys.stdout, keep
            try:
                train.train(train.parse_args(argv))
            except train.TrainError as e:
                raise ZeroError("gen %d train: %s" % (g, e)) from None
            finally:
                sys.stdout = saved
        if part:
            os.kill(os.getpid(), signal.SIGKILL)
        return zero_log.read_lines(epochs_log)

    def gate_run(self, g, best_file):
        """The gate's tournament (resumed, or only read when finished): its SPRT."""
        e0, e1, al, be, most = self.gate
        out = os.path.join(gen_dir(g), "gate.jsonl")
        text = _run(self.launch + [self.skyline, "tournament"] + self.match_args() + [
            "--bot", self.spec(os.path.join(gen_dir(g), CANDIDATE)), "--bot",
            self.spec(best_file), "--games", str(most), "--sprt",
            "%g,%g,%g,%g" % (e0, e1, al, be), "--seed", str(step_seed(self.config, g, "gate")),
            "--out", out, "--quiet"], watch=(g, "gate", out))
        _die_point(g, "gate")
        zero_log.sort_records(out, tournament=True)
        sprt = zero_log.parse_sprt(text)
        rating = self.rate(out, self.spec(best_file), self.spec(os.path.join(gen_dir(g),
                                                                             CANDIDATE)))
        return sprt, rating

    def rate(self, path, anchor, spec):
        """(games, elo, elo_lo, elo_hi) of spec against anchor in a record file."""
        data = json.loads(_run([self.skyline, "rate", path, "--json", "--anchor", anchor]))
        for b in data["bots"]:
            if b["spec"] == spec:
                ci = b["elo_ci95"] or 0.0
                return data["games"], b["elo"], b["elo"] - ci, b["elo"] + ci
        raise ZeroError("%s: no games of %s" % (path, spec))

    def gate_and_decide(self, g, best_gen, best_file):
        sprt, (games, elo, lo, hi) = self.gate_run(g, best_file)
        if not self.log.has(g, "gate"):
            fields = {"games": games, "elo": elo, "elo_lo": lo, "elo_hi": hi}
            fields.update(sprt)
            self.log.write(g, "gate", **fields)
        same = _sha256(os.path.join(gen_dir(g), CANDIDATE)) == _sha256(best_file)
        promoted, reason = decide(sprt, self.gate[4], same)
        if promoted:
            _copy(os.path.join(gen_dir(g), CANDIDATE), "best.safetensors")
        _die_point(g, "best")
        now = (g, os.path.join(gen_dir(g), CANDIDATE)) if promoted else (best_gen, best_file)
        _write_json(os.path.join(gen_dir(g), "done.json"),
                    {"gen": g, "promoted": promoted, "reason": reason, "best": now[0],
                     "best_file": now[1]})
        _die_point(g, "done")

    def evaluate(self, g):
        best_gen, best_file = self.best(g + 1)
        gen0 = os.path.join("gen-0000", NET)
        mcts = "mcts:iters=%d" % self.keys["iters"]
        for name, against, opp in (("gen0", "gen0", self.spec(gen0)), ("mcts", mcts, mcts)):
            if self.log.has(g, "eval", against) or self.keys["eval_games"] == 0:
                continue
            if best_gen == 0 and name == "gen0":
                games, elo, lo, hi = 0, 0.0, 0.0, 0.0  # the same net: no match to play
            else:
                out = os.path.join(gen_dir(g), "eval-%s.jsonl" % name)
                _run(self.launch + [self.skyline, "tournament"] + self.match_args() + [
                    "--bot", self.spec(best_file), "--bot", opp, "--games",
                    str(self.keys["eval_games"]), "--seed",
                    str(step_seed(self.config, g, "eval-" + name)), "--out", out, "--quiet"],
                    watch=(g, "eval-" + name, out))
                _die_point(g, "eval-" + name)
                zero_log.sort_records(out, tournament=True)
                games, elo, lo, hi = self.rate(out, opp, self.spec(best_file))
            self.log.write(g, "eval", against=against, best=best_gen, games=games, elo=elo,
                           elo_lo=lo, elo_hi=hi)

    def generation(self, g):
        os.makedirs(gen_dir(g), exist_ok=True)
        done_path = os.path.join(gen_dir(g), "done.json")
        if not os.path.exists(done_path):
            best_gen, best_file = self.best(g)
            self.selfplay(g, best_file)
            self.train(g, best_file)
            self.gate_and_decide(g, best_gen, best_file)
        done = _read_json(done_path)
        if done["promoted"] and _sha256(done["best_file"]) != _sha256("best.safetensors"):
            _copy(done["best_file"], "best.safetensors")  # a later run found it half done
        if not self.log.has(g, "decision"):
            self.log.write(g, "decision", promoted=done["promoted"], reason=done["reason"],
                           best=done["best"])
        self.evaluate(g)
        _die_point(g, "eval")
        self.report()

    def report(self):
        _run([self.skyline, "zero", "--report", "."])


def decide(sprt, most, same):
    """(promoted, reason) of a gate: promoted on H1 alone, never a copy of the best net."""
    games = sprt["games"]
    if same:
        return False, "the candidate equals the best net"
    if sprt["verdict"] == "H1":
        return True, "sprt H1: llr %.3f >= %.3f after %d games" % (sprt["llr"],
                                                                     sprt["llr_upper"], games)
    if sprt["verdict"] == "H0":
        return False, "sprt H0: llr %.3f <= %.3f after %d games" % (sprt["llr"],
                                                                      sprt["llr_lower"], games)
    return False, "no verdict in %d games (llr %.3f)" % (most, sprt["llr"])


def _children_cpu():
    """CPU seconds of the finished children (and the processes they waited for: mpirun's
    ranks on this machine)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ranks_of(text):
    """The ranks of the MPI job that ran generate, from its summary (1: one process)."""
    m = re.search(r" on (\d+) ranks in ", text)
    return int(m.group(1)) if m else 1


def gen_dir(g):
    return "gen-%04d" % g


def _lock(path):
    f = open(path, "a")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise ZeroError("%s is held by another run on this folder" % path) from None
    return f


def _check_config(config, old):
    if old is None:
        return
    for k in ("game", "players", "options", "seed", "tiny", "init"):
        if old.get(k) != config.get(k):
            raise ZeroError("the folder's zero.json has %s %s, not %s: run the same command, "
                            "or another --out" % (k, json.dumps(old.get(k)),
                                                  json.dumps(config.get(k))))
    for k, v in config["keys"].items():
        was = old.get("keys", {}).get(k, ADDED.get(k))
        if was != v:
            raise ZeroError("the folder's zero.json has %s=%s, not %s: run the same command, "
                            "or another --out" % (k, was, v))


def run(a):
    skyline = os.environ.get("SKYLINE_BIN", "skyline")
    import importlib.util
    if importlib.util.find_spec("torch") is None:  # checked first: every generation trains
        raise ZeroError("needs PyTorch for %s (apt-get install python3-torch)"
                        % sys.executable) from None
    launcher(a)  # refused before DIR is made
    config = config_of(a, skyline)
    from . import state
    try:
        state.observation_size(a.game, a.players)
    except (ValueError, TypeError) as e:
        raise ZeroError(str(e)) from None
    check_search(config)
    os.makedirs(a.out, exist_ok=True)
    if a.init is not None:
        config["init"]["file"] = os.path.abspath(a.init)
    os.chdir(a.out)
    lock = _lock("zero.lock")
    old = _read_json("zero.json")
    _check_config(config, old)
    if old is None:
        _write_json("zero.json", config)
    loop = Loop(a, config, skyline)
    loop.log.repair()
    loop.log.write(0, "start", always=True, config=config, resumed=old is not None,
                   launcher=loop.launch or None)
    loop.generation0()
    g = 1
    while a.generations is None or g <= a.generations:
        loop.generation(g)
        print("skyline zero: generation %d done (%s)" % (
            g, _read_json(os.path.join(gen_dir(g), "done.json"))["reason"]), flush=True)
        g += 1
    if a.generations is not None:
        loop.log.write(a.generations, "stop", reason="generations done")
    lock.close()
    return 0


def main(argv=None):
    try:
        a = parse_args(sys.argv[1:] if argv is None else argv)
        return run(a)
    except ZeroError as e:
        print("skyline zero: %s" % e, file=sys.stderr)
        return 2
    except ValueError as e:
        print("skyline zero: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("skyline zero: %s%s" % (e.filename + ": " if e.filename else "", e.strerror or e),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("skyline zero: interrupted (the same command resumes)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
