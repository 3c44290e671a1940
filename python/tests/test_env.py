"""The AEC environment against a PettingZoo-style API test written here."""
import random

import pytest

import skyline


def api_test(env, episodes=3, seed=0):
    rng = random.Random(seed)
    for ep in range(episodes):
        env.reset(seed=100 + ep)
        assert env.agents == env.possible_agents
        n = env.action_space(env.agents[0]).n
        size = env.observation_space(env.agents[0]).shape[0]
        steps = 0
        for agent in env.agent_iter(max_iter=100000):
            obs, reward, term, trunc, info = env.last()
            assert len(obs["observation"]) == size and len(obs["action_mask"]) == n
            if term or trunc:
                action = None
            else:
                mask = info["action_mask"]
                assert list(mask) == list(obs["action_mask"]) and sum(mask) > 0
                legal = [a for a in range(n) if mask[a]]
                action = rng.choice(legal)
                assert env.state.to_move == env.possible_agents.index(agent)
            env.step(action)
            steps += 1
        assert not env.agents, "episode did not end"
        assert env.state.is_terminal() and steps > 1


@pytest.mark.parametrize("game", skyline.games())
def test_env_api(game):
    env = skyline.env(game=game, players=2)
    api_test(env)
    assert env.action_space("player_0").n == skyline.num_actions(game, 2)


def test_env_rewards_are_results():
    env = skyline.SkylineEnv("connect4")
    env.reset(seed=5)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        env.step(None if term else env.action_space(agent).sample(info["action_mask"]))
    assert sorted(total.values()) in ([0.0, 1.0], [0.5, 0.5])


def test_env_refuses_illegal_action():
    env = skyline.env(game="connect4")
    env.reset()
    with pytest.raises(ValueError):
        env.step(99)
