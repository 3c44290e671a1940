"""The "resmlp" network of docs/NETS.md in PyTorch (python3-torch): the model, and its
network file written and read through skyline.nets. Importing this module needs torch."""
import torch
from torch import nn

from . import nets


class ResMLP(nn.Module):
    """A residual MLP over the mover's observation with a policy head (one logit per action
    id) and a value head (one expected result per seat, the mover's first)."""

    def __init__(self, observation_size, action_count, players, width=128, depth=2):
        super().__init__()
        self.sizes = (observation_size, action_count, players, width, depth)
        self.stem = nn.Linear(observation_size, width)
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            block = nn.Module()
            block.fc1 = nn.Linear(width, width)
            block.fc2 = nn.Linear(width, width)
            self.blocks.append(block)
        self.policy = nn.Linear(width, action_count)
        self.value = nn.Linear(width, players)

    def trunk(self, x):
        h = torch.relu(self.stem(x))
        for block in self.blocks:
            h = torch.relu(h + block.fc2(torch.relu(block.fc1(h))))
        return h

    def forward(self, x):
        """All action logits and the values (sigmoid) of a batch x [B, observation_size]."""
        h = self.trunk(x)
        return self.policy(h), torch.sigmoid(self.value(h))

    def legal_logits(self, h, ids):
        """The logits of the action ids only (a 1-d LongTensor), from one trunk output h [H]:
        the rows of the policy head gathered, as the engine computes them."""
        return self.policy.weight[ids] @ h + self.policy.bias[ids]


def save(model, path, game, training_data="", training_command="",
         engine="skyline python"):
    """Writes model as a network file for game."""
    o, a, p, w, d = model.sizes
    meta = nets.metadata(game, p, o, a, w, d, training_data, training_command, engine)
    state = model.state_dict()
    tensors = {name: state[name].detach().float().contiguous().cpu().numpy().astype("<f4")
               .tobytes() for name in nets.tensor_names(d)}
    nets.write_net(path, meta, tensors)


def load(path):
    """(model, metadata) from a network file."""
    import numpy as np

    meta, tensors = nets.read_net(path)
    model = ResMLP(int(meta["observation_size"]), int(meta["action_count"]),
                   int(meta["players"]), int(meta["width"]), int(meta["depth"]))
    state = {name: torch.from_numpy(np.frombuffer(blob, dtype="<f4").copy()).reshape(shape)
             for name, (shape, blob) in tensors.items()}
    model.load_state_dict(state)
    return model, meta
