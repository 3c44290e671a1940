"""Skyline from Python: the engine, the bots and the arena through libskyline.so
(docs/PYTHON.md)."""
from ._lib import lib as _cdll
from .state import State, games, new_game, num_actions, observation_size, from_record
from .state import information_state_size, HISTORY_DEFAULT
from .bots import Bot, play, tournament
from .records import read_records, to_dataframe, game_result
from .env import SkylineEnv, env

__version__ = _cdll.sky_version().decode()
__all__ = ["State", "games", "new_game", "num_actions", "observation_size", "from_record",
           "information_state_size", "HISTORY_DEFAULT",
           "Bot", "play", "tournament", "read_records", "to_dataframe", "game_result", "SkylineEnv", "env"]
