"""Bots and the C harness: Bot, play(), tournament()."""
import ctypes
import json
import os
import tempfile
import threading

from ._lib import (lib, err_buf, fail, take_string, enc, options_text, check_int, INT_MAX,
                   EVALUATOR)
from .state import State, _players, _seed, games as _games


class Bot:
    """A bot made from a spec (FORMATS.md §6), e.g. "random", "mcts:iterations=2000". A bad
    spec raises here: without a game, the spec must make a bot for some game. A copy (and a
    pickle) is the bot as made: same spec, game and seed. choose holds the bot's lock, so
    threads may share it (docs/PYTHON.md, Copies and threads)."""

    def __init__(self, spec, game=None, seed=1):
        self._lock = threading.RLock()
        self._ptr = None
        self.spec = spec
        self.seed = _seed(seed)
        self._game = None
        self._evaluator = None  # the C callback of set_evaluator, kept alive with the bot
        self._eval_error = None
        self.info = None
        if game is not None:
            self._make(game)
            return
        first = None
        for g in _games():
            try:
                self._make(g)
                return
            except ValueError as e:
                first = first or e
        raise first

    def _make(self, game):
        err = err_buf()
        ptr = lib.sky_bot_new(enc(game), enc(self.spec), self.seed, err, len(err))
        if not ptr:
            raise fail(err)
        with self._lock:
            if self._ptr:
                lib.sky_bot_free(self._ptr)
            self._ptr, self._game = ptr, game

    def __del__(self, _free=lib.sky_bot_free):
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._ptr:
                _free(self._ptr)
                self._ptr = None

    def __repr__(self):
        return "<skyline.Bot %s>" % self.spec

    def __reduce__(self):
        return (Bot, (self.spec, self._game, self.seed))

    def __copy__(self):
        return Bot(self.spec, self._game, self.seed)

    def __deepcopy__(self, memo):
        return Bot(self.spec, self._game, self.seed)

    def choose(self, state):
        """The bot's move (text) for the player to move in state; .info then holds the
        search statistics of an mcts bot (iterations, value, candidate moves with visits),
        None for other bots. ValueError if the bot faults (an ext: bot's program exits or
        answers garbage: docs/PROTOCOL.md); the next choice starts a fresh program."""
        if not isinstance(state, State):
            raise ValueError("choose needs a skyline.State, not %r" % (state,))
        with self._lock, state._lock:
            if not state._ptr:
                raise ValueError("this State was released (its __del__ ran)")
            if self._ptr is None or self._game != state.game:
                self._make(state.game)
            err = err_buf()
            buf = ctypes.create_string_buffer(64)
            self._eval_error = None
            failed = lib.sky_bot_choose(self._ptr, state._ptr, buf, len(buf), err, len(err))
            if self._eval_error is not None:
                error, self._eval_error = self._eval_error, None
                raise ValueError("the evaluator failed: %r" % (error,)) from error
            if failed:
                raise fail(err)
            self.info = json.loads(take_string(lib.sky_bot_info(self._ptr)))
            return buf.value.decode()


    def set_evaluator(self, fn, players):
        """Makes fn the search's evaluator of an mcts bot whose spec has net=@evaluator
        (docs/NETS.md), for games of `players` players: fn(obs, actions) gets the mover's
        observation (numpy float32, observation_size values) and the action ids of its legal
        moves (numpy int32) and returns (logits, values): one logit per id and `players`
        values, value j the expected result (0 to 1) of seat (mover + j) mod players. It is
        called once for each new node of the tree. An exception or a wrong shape stops
        nothing at once: choose then raises ValueError. Needs numpy."""
        import numpy as np
        if not callable(fn):
            raise ValueError("set_evaluator needs a function, not %r" % (fn,))
        if self._game is None:
            raise ValueError("set_evaluator needs a bot made for a game (Bot(spec, game))")
        players = check_int(players, "players", 2, 5)

        def view(ptr, ctype, n, dtype):
            """n values at a C pointer as a numpy array (no copy)."""
            if n <= 0:
                return np.zeros(0, dtype=dtype)
            return np.frombuffer((ctype * n).from_address(ctypes.addressof(ptr.contents)),
                                 dtype=dtype)

        def call(ctx, obs, obs_size, actions, n, logits, values, count):
            try:
                o = view(obs, ctypes.c_float, obs_size, np.float32)
                a = view(actions, ctypes.c_int, n, np.intc)
                lg, v = fn(o, a)
                lg = np.asarray(lg, dtype=np.float32).reshape(-1)
                v = np.asarray(v, dtype=np.float32).reshape(-1)
                if lg.shape != (n,) or v.shape != (count,):
                    raise ValueError("the evaluator returned %d logits and %d values, not %d "
                                     "and %d" % (lg.size, v.size, n, count))
                if not (np.isfinite(lg).all() and ((v >= 0) & (v <= 1)).all()):
                    raise ValueError("the evaluator returned logits that are not finite or "
                                     "values outside [0, 1]")
                view(logits, ctypes.c_float, n, np.float32)[:] = lg
                view(values, ctypes.c_float, count, np.float32)[:] = v
                return 0
            except BaseException as e:  # reported by choose: a C caller cannot take it
                if self._eval_error is None:
                    self._eval_error = e
                return -1

        callback = EVALUATOR(call)
        with self._lock:
            err = err_buf()
            if lib.sky_bot_set_evaluator(self._ptr, players, callback, None, err, len(err)):
                raise fail(err)
            self._evaluator = callback


def _specs(specs):
    if isinstance(specs, str):
        specs = [specs]
    specs = list(specs)
    for s in specs:
        if not isinstance(s, str) or "\n" in s or not s:
            raise ValueError("a bot spec is a non-empty one-line text, not %r" % (s,))
    return enc("\n".join(specs))


def play(specs, game="towerup", players=None, games=1, seed=1, record=None, threads=0,
         **options):
    """Games between bots by the C harness, in parallel on threads (0: every core); game i
    uses seed seed+i, as `skyline play`. specs: one per seat, or one for all. record: a
    file the game records are appended to, in game order. Returns a list of dicts (seed,
    result, ranks, scores, moves), one per game."""
    err = err_buf()
    path = enc(os.fspath(record)) if record is not None else None
    text = take_string(lib.sky_play(enc(game), _players(game, players), _seed(seed),
                                    options_text(options), _specs(specs),
                                    check_int(games, "games", 1, INT_MAX), path,
                                    check_int(threads, "threads", 0, INT_MAX), err, len(err)))
    if text is None:
        raise fail(err)
    return json.loads(text)["games"]


def tournament(specs, game="towerup", players=None, games=60, seed=1, record=None,
               format="roundrobin", workers=0, **options):
    """A tournament (arena/TOURNAMENT.md) by the C harness, games in parallel. record: its
    record file, resumed if present (None: a temporary file). Returns a dict: games,
    played, resumed, workers, seconds, and bots (spec, id, games, result, result_ci95,
    mean_rank, elo, elo_ci95), best first."""
    err = err_buf()
    games = check_int(games, "games", 1, INT_MAX)
    workers = check_int(workers, "workers", 0, INT_MAX)
    tmp = None
    if record is None:
        fd, tmp = tempfile.mkstemp(suffix=".jsonl", prefix="skyline-tournament-")
        os.close(fd)
        record = tmp
    try:
        text = take_string(lib.sky_tournament(
            enc(game), _players(game, players), _seed(seed), options_text(options),
            _specs(specs), games, enc(format), enc(os.fspath(record)), workers,
            err, len(err)))
    finally:
        if tmp:
            os.unlink(tmp)
    if text is None:
        raise fail(err)
    return json.loads(text)
