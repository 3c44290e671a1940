"""Bots and the C harness: Bot, play(), tournament()."""
import ctypes
import json
import os
import tempfile
import threading

from ._lib import lib, err_buf, fail, take_string, enc, options_text, check_int, INT_MAX
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
            if lib.sky_bot_choose(self._ptr, state._ptr, buf, len(buf), err, len(err)):
                raise fail(err)
            self.info = json.loads(take_string(lib.sky_bot_info(self._ptr)))
            return buf.value.decode()


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
