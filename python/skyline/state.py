"""Games in progress: State, games(), new_game(), num_actions(), observation_size(),
information_state_size()."""
import ctypes
import functools
import json
import threading

from ._lib import lib, err_buf, fail, take_string, enc, options_text, check_int

try:  # numpy is optional: arrays when present, lists otherwise
    import numpy as _np
except ImportError:  # pragma: no cover - depends on the machine
    _np = None

_MAX_MOVES = lib.sky_max_moves()
_TEXT_MAX = lib.sky_move_text_max()
_MOVES_BUF = _MAX_MOVES * _TEXT_MAX
# Plies of move history in an information-state tensor by default, and the most
# (api/skyline_api.h: SKY_HISTORY_DEFAULT, SKY_HISTORY_MAX).
HISTORY_DEFAULT = 16
HISTORY_MAX = 1024


def games():
    """Names of the games, in registry order (the first is the command line's default)."""
    return [lib.sky_game_name(i).decode() for i in range(lib.sky_game_count())]


def _players(game, players):
    """The player count for game: None gives the default; any other count must be one the
    game allows (0 would mean the default to C, a count beyond C's int another count)."""
    lo, hi = ctypes.c_int(), ctypes.c_int()
    err = err_buf()
    if lib.sky_game_players(enc(game), ctypes.byref(lo), ctypes.byref(hi), err, len(err)):
        raise fail(err)
    if players is None:
        return min(max(3, lo.value), hi.value)
    if isinstance(players, bool) or not isinstance(players, int) and \
            not hasattr(players, "__index__"):
        raise ValueError("players must be an int, not %r" % (players,))
    if not lo.value <= players <= hi.value:
        raise ValueError("%s is played by %d to %d players, not %d" % (game, lo.value, hi.value,
                                                                      players))
    return int(players)


def num_actions(game, players=None):
    """Size of the game's action space for a player count (docs/PYTHON.md)."""
    err = err_buf()
    n = lib.sky_num_actions(enc(game), _players(game, players), err, len(err))
    if n < 0:
        raise fail(err)
    return n


def observation_size(game, players=None):
    """Length of the game's observation tensor for a player count (docs/PYTHON.md)."""
    err = err_buf()
    n = lib.sky_observation_size(enc(game), _players(game, players), err, len(err))
    if n < 0:
        raise fail(err)
    return n


def _history(history):
    return check_int(history, "history", 0, HISTORY_MAX)


def information_state_size(game, players=None, history=HISTORY_DEFAULT):
    """Length of the game's information-state tensor for a player count and `history`
    plies of move history (docs/PYTHON.md, Information state)."""
    err = err_buf()
    n = lib.sky_information_state_size(enc(game), _players(game, players), _history(history),
                                       err, len(err))
    if n < 0:
        raise fail(err)
    return n


def _floats(n):
    """n zero floats for C to fill, and the pointer C writes through (numpy if present)."""
    if _np is not None:
        arr = _np.zeros(n, dtype=_np.float32)
        return arr, arr.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
    arr = (ctypes.c_float * n)()
    return arr, arr


def _seed(seed):
    return check_int(seed, "seed", 0, 2 ** 63 - 1)


def new_game(game, players=None, seed=1, **options):
    """A new game. players None: 3, or the nearest count the game allows. options as on the
    command line: first_player=, board=, start_floors=, setup='placed'|'random',
    objectives=."""
    err = err_buf()
    ptr = lib.sky_state_new(enc(game), _players(game, players), _seed(seed),
                            options_text(options), err, len(err))
    if not ptr:
        raise fail(err)
    return State._own(ptr)


def _locked(method):
    """method run with the state's lock held, on a state not released (docs/PYTHON.md,
    Copies and threads): ctypes lets go of the GIL in C, so two threads could else be in
    C on one state at once."""
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        with self._lock:
            if not self._ptr:
                raise ValueError("this State was released (its __del__ ran)")
            return method(self, *args, **kwargs)
    return call


class State:
    """A game in progress with its history of moves (for undo and to_record). Made by
    new_game, clone, determinize or copy.copy/deepcopy (a clone each); every call holds the
    state's lock, so threads may share it."""

    def __init__(self, *args, **kwargs):
        raise TypeError("a State is made by skyline.new_game(), clone() or determinize()")

    @classmethod
    def _own(cls, ptr):
        """The State owning the C state ptr (released with it)."""
        self = cls.__new__(cls)
        self._lock = threading.RLock()
        self._ptr = ptr
        self.game = lib.sky_state_game(ptr).decode()
        self.players = lib.sky_state_players(ptr)
        n = lib.sky_num_actions(self.game.encode(), self.players, None, 0)
        self.num_actions = n if n >= 0 else None
        self._actions = (ctypes.c_int32 * _MAX_MOVES)()
        self._err = err_buf()
        self.view = None
        return self

    def __del__(self, _free=lib.sky_state_free):
        # _free is bound at definition: module globals may be gone at interpreter exit.
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._ptr:
                _free(self._ptr)
                self._ptr = None

    def __repr__(self):
        with self._lock:
            if not self._ptr:
                return "<skyline.State %s, released>" % self.game
            return "<skyline.State %s, %d players, %d moves%s>" % (
                self.game, self.players, lib.sky_state_move_count(self._ptr),
                ", over" if self.is_terminal() else "")

    @classmethod
    def from_position(cls, text, board=None, seed=1):
        """The State of a position text (docs/NOTATION.md), of the game its first word
        names; what the text does not say (the hidden parts for its view) drawn from seed.
        board: the board file of a Tower Up text that names a board not built in. Its
        history starts there (no undo past it, no to_record); .view is the text's view."""
        options = options_text({} if board is None else {"board": board})
        err = err_buf()
        view = ctypes.c_int(-1)
        ptr = lib.sky_state_from_position(enc(text), options, _seed(seed), ctypes.byref(view),
                                          err, len(err))
        if not ptr:
            raise fail(err)
        state = cls._own(ptr)
        state.view = view.value
        return state

    @classmethod
    def from_record(cls, record, ply=None):
        """skyline.from_record: the State of a game record (one JSON line, or its dict)
        after its first ply moves (None: all)."""
        return from_record(record, ply)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce_ex__(self, protocol):
        raise TypeError("a skyline.State cannot be pickled: keep to_record() and replay it")

    # ---- the position
    @property
    @_locked
    def to_move(self):
        """The player to move, or -1 once the game is over."""
        return lib.sky_state_to_move(self._ptr)

    @_locked
    def is_terminal(self):
        return bool(lib.sky_state_is_terminal(self._ptr))

    @property
    @_locked
    def move_count(self):
        """Moves played (since the start, or since the determinization)."""
        return lib.sky_state_move_count(self._ptr)

    @_locked
    def hash(self):
        """The engine's 64-bit Zobrist key of the position."""
        return lib.sky_state_hash(self._ptr)

    @_locked
    def legal_moves(self):
        """The legal moves as texts (FORMATS.md §3), in the engine's order."""
        buf = ctypes.create_string_buffer(_MOVES_BUF)
        n = lib.sky_state_legal_moves(self._ptr, buf, _MOVES_BUF)
        return buf.value.decode().split("\n") if n > 0 else []

    @_locked
    def legal_actions(self):
        """The legal moves as integer action ids, in the engine's order."""
        n = lib.sky_state_legal_actions(self._ptr, self._actions, _MAX_MOVES)
        if n < 0:
            raise ValueError("%s has no action space" % self.game)
        return self._actions[:n]

    @_locked
    def legal_action_mask(self):
        """num_actions values, 1 for the legal action ids (a numpy array if present)."""
        acts = self.legal_actions()
        if _np is not None:
            mask = _np.zeros(self.num_actions, dtype=_np.int8)
            mask[acts] = 1
            return mask
        mask = [0] * self.num_actions
        for a in acts:
            mask[a] = 1
        return mask

    @_locked
    def move_to_action(self, move):
        """The action id of a legal move text."""
        n = lib.sky_state_move_action(self._ptr, enc(move), self._err, len(self._err))
        if n < 0:
            raise fail(self._err)
        return n

    @_locked
    def action_to_move(self, action):
        """The move text of a legal action id."""
        buf = ctypes.create_string_buffer(_TEXT_MAX)
        if lib.sky_state_action_move(self._ptr, _action(action), buf, _TEXT_MAX, self._err,
                                     len(self._err)):
            raise fail(self._err)
        return buf.value.decode()

    @_locked
    def apply(self, move):
        """Plays a move: its text, or its integer action id. ValueError if illegal."""
        if isinstance(move, str):
            rc = lib.sky_state_apply(self._ptr, enc(move), self._err, len(self._err))
        else:
            rc = lib.sky_state_apply_action(self._ptr, _action(move), self._err,
                                            len(self._err))
        if rc:
            raise fail(self._err)

    @_locked
    def undo(self):
        """Takes back the last move (the exact position before it)."""
        if lib.sky_state_undo(self._ptr, self._err, len(self._err)):
            raise fail(self._err)

    @_locked
    def clone(self):
        """An independent copy, history included."""
        ptr = lib.sky_state_clone(self._ptr)
        if not ptr:
            raise MemoryError("cannot copy the state")
        return State._own(ptr)

    @_locked
    def result(self):
        """The game result per player (RULES.md 1.10); ValueError before the end."""
        out = (ctypes.c_double * 8)()
        n = lib.sky_state_result(self._ptr, out)
        if n < 0:
            raise ValueError("the game is not over")
        return list(out[:n])

    @_locked
    def scores(self):
        """The game's own scores per player at the end, or None if it has none."""
        out = (ctypes.c_double * 8)()
        n = lib.sky_state_scores(self._ptr, out)
        return list(out[:n]) if n >= 0 else None

    @_locked
    def observation(self, player=-1):
        """The position notation (docs/NOTATION.md) as player sees it (-1: public)."""
        buf = ctypes.create_string_buffer(8192)
        if lib.sky_state_observation(self._ptr, _int(player, "player"), buf, len(buf),
                                     self._err, len(self._err)):
            raise fail(self._err)
        return buf.value.decode()

    @_locked
    def observation_tensor(self, player):
        """The flat observation vector of player (docs/PYTHON.md), float32 array or list."""
        n = observation_size(self.game, self.players)
        arr, ptr = _floats(n)
        if lib.sky_state_observation_tensor(self._ptr, _int(player, "player"), ptr, n,
                                            self._err, len(self._err)) < 0:
            raise fail(self._err)
        return arr if _np is not None else list(arr)

    @_locked
    def determinize(self, player, seed):
        """A copy with what player cannot see redrawn from seed (its history starts here)."""
        ptr = lib.sky_state_determinize(self._ptr, _int(player, "player"), _seed(seed),
                                        self._err, len(self._err))
        if not ptr:
            raise fail(self._err)
        return State._own(ptr)

    @_locked
    def show(self, player=None, ascii=False):
        """The text diagram (as player sees it; None: everything)."""
        p = -1 if player is None else _int(player, "player")
        text = take_string(lib.sky_state_show(self._ptr, p, 1 if ascii else 0, self._err,
                                              len(self._err)))
        if text is None:
            raise fail(self._err)
        return text

    def position(self, view=-1):
        """The position text (docs/NOTATION.md) as player view sees it (-1: public); the
        same as observation(view). State.from_position reads it back."""
        return self.observation(view)

    def diagram(self, view=-1):
        """The text diagram of `skyline show` as player view sees it (-1: everything)."""
        return self.show(None if view == -1 else view)

    @_locked
    def svg(self, view=-1):
        """The position as a standalone SVG picture (text) as player view sees it (-1:
        everything); ValueError for a game without pictures."""
        text = take_string(lib.sky_state_svg(self._ptr, _int(view, "view"), self._err,
                                             len(self._err)))
        if text is None:
            raise fail(self._err)
        return text

    def _repr_svg_(self):
        """Jupyter shows a State as its picture (everything, as svg())."""
        return self.svg()

    @_locked
    def chance_outcomes(self, move=None):
        """The chance event that legal move `move` brings about (None: the next one as the
        position stands), as the player to move sees it: [(outcome, probability), ...],
        probabilities summing to 1; [] for a move, position or game without one. Tower Up:
        the card (its code) that refills the market after a take; Uptown: the tile the
        move's colour draws. ValueError for an illegal move, or for None where the outcomes
        depend on the move (a Tower Up draw pile that is empty, a 2-player Uptown turn)."""
        text = take_string(lib.sky_state_chance_outcomes(
            self._ptr, None if move is None else enc(move), self._err, len(self._err)))
        if text is None:
            raise fail(self._err)
        return [(o, p) for o, p in json.loads(text)]

    @_locked
    def information_state_tensor(self, player, history=HISTORY_DEFAULT):
        """The information state of player as a flat float32 vector (array or list): its
        observation tensor, then the public moves of the last `history` plies, newest first,
        and the ply count (docs/PYTHON.md, Information state, has the layout)."""
        p, h = _int(player, "player"), _history(history)
        n = information_state_size(self.game, self.players, h)
        arr, ptr = _floats(n)
        if lib.sky_state_information_state(self._ptr, p, h, ptr, n, self._err,
                                           len(self._err)) < 0:
            raise fail(self._err)
        return arr if _np is not None else list(arr)

    @_locked
    def to_record(self):
        """The game record (FORMATS.md §4) of the moves so far, as a dict."""
        text = take_string(lib.sky_state_record(self._ptr, self._err, len(self._err)))
        if text is None:
            raise fail(self._err)
        return json.loads(text)

    @_locked
    def playout(self, seed=1, n=1):
        """Mean result per player of n random playouts from here, in one call into C; the
        state is unchanged."""
        out = (ctypes.c_double * 8)()
        k = lib.sky_state_playouts(self._ptr, _seed(seed), _int(n, "n"), out, self._err,
                                   len(self._err))
        if k < 0:
            raise fail(self._err)
        return list(out[:k])


def from_record(record, ply=None):
    """The position of a game record (a dict, or its JSON text; FORMATS.md §4) after its
    first ply moves (None: all), replayed by the engine (Tower Up's and Uptown's draws as
    the record holds them). Its history starts there, so it has no to_record()."""
    try:
        text = record if isinstance(record, str) else json.dumps(record)
    except (TypeError, ValueError) as e:
        raise ValueError("not a game record: %s" % e) from None
    p = -1 if ply is None else check_int(ply, "ply", 0, 2 ** 31 - 1)
    err = err_buf()
    ptr = lib.sky_state_from_record(enc(text), p, err, len(err))
    if not ptr:
        raise fail(err)
    return State._own(ptr)


def zero_mask(n):
    """n zeros of the kind legal_action_mask returns (numpy int8 array or list)."""
    return _np.zeros(n, dtype=_np.int8) if _np is not None else [0] * n


def _int(x, what="an int argument"):
    return check_int(x, what)


def _action(a):
    return check_int(a, "a move (a text or an int action id)")
