"""Loading libskyline.so and declaring its C API (api/skyline_api.h) for ctypes."""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("SKYLINE_LIB")
    if env:
        return [env]
    repo = os.path.dirname(os.path.dirname(_HERE))
    return [os.path.join(_HERE, "libskyline.so"),
            os.path.join(repo, "build", "libskyline.so")]


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            return ctypes.CDLL(path)
        tried.append(path)
    raise ImportError("libskyline.so not found (looked at %s); build it with cmake "
                      "(README) or set SKYLINE_LIB" % ", ".join(tried))


lib = _load()

c_int, c_char_p, c_void_p, c_u64 = ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_uint64
c_long, c_double_p = ctypes.c_long, ctypes.POINTER(ctypes.c_double)
c_float_p, c_i32_p = ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_int32)

# An evaluator for mcts:net=@evaluator (api/skyline_api.h, sky_evaluator_fn).
EVALUATOR = ctypes.CFUNCTYPE(c_int, c_void_p, c_float_p, c_int, ctypes.POINTER(c_int), c_int,
                             c_float_p, c_float_p, c_int)

_SIGS = {
    "sky_version": (c_char_p, []),
    "sky_game_count": (c_int, []),
    "sky_game_name": (c_char_p, [c_int]),
    "sky_game_players": (c_int, [c_char_p, ctypes.POINTER(c_int), ctypes.POINTER(c_int),
                                 c_char_p, c_int]),
    "sky_num_actions": (c_int, [c_char_p, c_int, c_char_p, c_int]),
    "sky_observation_size": (c_int, [c_char_p, c_int, c_char_p, c_int]),
    "sky_max_moves": (c_int, []),
    "sky_move_text_max": (c_int, []),
    "sky_state_new": (c_void_p, [c_char_p, c_int, c_u64, c_char_p, c_char_p, c_int]),
    "sky_state_free": (None, [c_void_p]),
    "sky_state_from_position": (c_void_p, [c_char_p, c_char_p, c_u64, ctypes.POINTER(c_int),
                                           c_char_p, c_int]),
    "sky_state_svg": (c_void_p, [c_void_p, c_int, c_char_p, c_int]),
    "sky_state_chance_outcomes": (c_void_p, [c_void_p, c_char_p, c_char_p, c_int]),
    "sky_state_clone": (c_void_p, [c_void_p]),
    "sky_state_game": (c_char_p, [c_void_p]),
    "sky_state_players": (c_int, [c_void_p]),
    "sky_state_to_move": (c_int, [c_void_p]),
    "sky_state_is_terminal": (c_int, [c_void_p]),
    "sky_state_move_count": (c_int, [c_void_p]),
    "sky_state_hash": (c_u64, [c_void_p]),
    "sky_state_legal_moves": (c_int, [c_void_p, c_char_p, c_int]),
    "sky_state_legal_actions": (c_int, [c_void_p, c_i32_p, c_int]),
    "sky_state_move_action": (c_int, [c_void_p, c_char_p, c_char_p, c_int]),
    "sky_state_action_move": (c_int, [c_void_p, c_int, c_char_p, c_int, c_char_p, c_int]),
    "sky_state_apply": (c_int, [c_void_p, c_char_p, c_char_p, c_int]),
    "sky_state_apply_action": (c_int, [c_void_p, c_int, c_char_p, c_int]),
    "sky_state_undo": (c_int, [c_void_p, c_char_p, c_int]),
    "sky_state_result": (c_int, [c_void_p, c_double_p]),
    "sky_state_scores": (c_int, [c_void_p, c_double_p]),
    "sky_state_observation": (c_int, [c_void_p, c_int, c_char_p, c_int, c_char_p, c_int]),
    "sky_state_observation_tensor": (c_int, [c_void_p, c_int, c_float_p, c_int, c_char_p,
                                             c_int]),
    "sky_information_state_size": (c_int, [c_char_p, c_int, c_int, c_char_p, c_int]),
    "sky_state_information_state": (c_int, [c_void_p, c_int, c_int, c_float_p, c_int,
                                            c_char_p, c_int]),
    "sky_state_determinize": (c_void_p, [c_void_p, c_int, c_u64, c_char_p, c_int]),
    "sky_state_show": (c_void_p, [c_void_p, c_int, c_int, c_char_p, c_int]),
    "sky_state_record": (c_void_p, [c_void_p, c_char_p, c_int]),
    "sky_state_from_record": (c_void_p, [c_char_p, c_int, c_char_p, c_int]),
    "sky_state_playouts": (c_int, [c_void_p, c_u64, c_int, c_double_p, c_char_p, c_int]),
    "sky_bot_new": (c_void_p, [c_char_p, c_char_p, c_u64, c_char_p, c_int]),
    "sky_bot_free": (None, [c_void_p]),
    "sky_bot_choose": (c_int, [c_void_p, c_void_p, c_char_p, c_int, c_char_p, c_int]),
    "sky_bot_info": (c_void_p, [c_void_p]),
    "sky_bot_set_evaluator": (c_int, [c_void_p, c_int, EVALUATOR, c_void_p, c_char_p, c_int]),
    "sky_play": (c_void_p, [c_char_p, c_int, c_u64, c_char_p, c_char_p, c_long, c_char_p,
                            c_int, c_char_p, c_int]),
    "sky_tournament": (c_void_p, [c_char_p, c_int, c_u64, c_char_p, c_char_p, c_long,
                                  c_char_p, c_char_p, c_int, c_char_p, c_int]),
    "sky_free": (None, [c_void_p]),
}
for _name, (_res, _args) in _SIGS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

ERR_MAX = 1024


def err_buf():
    """A buffer for the API's error messages."""
    return ctypes.create_string_buffer(ERR_MAX)


def fail(err):
    """The ValueError of a failed call, with the engine's message."""
    return ValueError(err.value.decode("utf-8", "replace"))


def take_string(ptr):
    """The text of a string the API returned (then released), or None for NULL."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.sky_free(ptr)


INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1


def check_int(x, what, lo=INT_MIN, hi=INT_MAX):
    """x if it is an int (numpy's integers too, not bool) in lo..hi, else ValueError: ctypes
    would cut a larger one to C's width without a word."""
    if not isinstance(x, bool) and not isinstance(x, int) and hasattr(x, "__index__"):
        x = x.__index__()
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError("%s must be an int from %d to %d, not %r" % (what, lo, hi, x))
    return x


def enc(text):
    """Bytes of a str argument (ValueError for a NUL inside, which C would cut)."""
    if not isinstance(text, str):
        raise ValueError("expected a string, not %r" % (text,))
    if "\0" in text:
        raise ValueError("text with a NUL character: %r" % (text,))
    return text.encode("utf-8")


def options_text(options):
    """The options lines of the API from keyword options."""
    lines = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "random" if (key == "setup" and value) else int(value)
        text = str(value)
        if "\n" in text or "=" in key:
            raise ValueError("bad option %s=%r" % (key, value))
        lines.append("%s=%s" % (key, text))
    return enc("\n".join(lines))
