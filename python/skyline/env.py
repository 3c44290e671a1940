"""A multi-agent environment with PettingZoo's AEC method names, without pettingzoo."""
from .state import new_game, num_actions, observation_size, zero_mask


class Discrete:
    """A finite space of n integer values (like gymnasium.spaces.Discrete)."""

    def __init__(self, n, seed=None):
        import random
        self.n = n
        self._rng = random.Random(seed)

    def sample(self, mask=None):
        if mask is None:
            return self._rng.randrange(self.n)
        legal = [i for i in range(self.n) if mask[i]]
        return self._rng.choice(legal)

    def contains(self, x):
        return isinstance(x, int) and 0 <= x < self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Box:
    """A flat float vector of a fixed length (like gymnasium.spaces.Box)."""

    def __init__(self, size):
        self.shape = (size,)

    def __repr__(self):
        return "Box(shape=%r)" % (self.shape,)


class SkylineEnv:
    """One game as an AEC environment: agents "player_0".."player_{n-1}" act in turn with
    integer actions; observe(agent) is {"observation": tensor, "action_mask": mask};
    rewards are the game results (RULES.md 1.10), given when the game ends; infos hold
    the action mask of the agent to move. options: as skyline.new_game."""

    metadata = {"name": "skyline_v0", "is_parallelizable": False}

    def __init__(self, game="towerup", players=None, seed=1, **options):
        self.game = game
        self._options = options
        self._seed = seed
        probe = new_game(game, players, seed, **options)
        self.players = probe.players
        self.possible_agents = ["player_%d" % i for i in range(self.players)]
        self._n_actions = num_actions(game, self.players)
        self._n_obs = observation_size(game, self.players)
        self.state = None
        self.agents = []

    def action_space(self, agent):
        return Discrete(self._n_actions)

    def observation_space(self, agent):
        return Box(self._n_obs)

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        self.state = new_game(self.game, self.players, self._seed, **self._options)
        self._seed += 1  # the next reset without a seed deals another game
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        p = self.state.to_move
        if p >= 0:
            self.agent_selection = self.possible_agents[p]
            self.infos[self.agent_selection] = {"action_mask": self.state.legal_action_mask()}
        # else agent_selection stays: the finished agents are stepped out with None

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        mask = (self.state.legal_action_mask() if self.state.to_move == p
                else zero_mask(self._n_actions))
        return {"observation": self.state.observation_tensor(p), "action_mask": mask}

    def last(self, observe=True):
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return (obs, self._cumulative_rewards[a], self.terminations[a], self.truncations[a],
                self.infos[a])

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise ValueError("agent %s is done: step(None) only" % a)
            self.agents.remove(a)
            self._cumulative_rewards.pop(a, None)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[a] = 0.0
        self.state.apply(int(action))
        for x in self.agents:
            self.rewards[x] = 0.0
        if self.state.is_terminal():
            res = self.state.result()
            for i, x in enumerate(self.possible_agents):
                self.rewards[x] = res[i]
                self._cumulative_rewards[x] += res[i]
                self.terminations[x] = True
                self.infos[x] = {"action_mask": zero_mask(self._n_actions)}
            self.agent_selection = self.agents[0]
        else:
            self._select()

    def render(self):
        return self.state.show(ascii=True)

    def close(self):
        self.state = None


def env(**kwargs):
    """An AEC environment (PettingZoo's `env()` convention)."""
    return SkylineEnv(**kwargs)
