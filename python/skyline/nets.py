"""Network files (docs/NETS.md) from Python without numpy: the safetensors layout (an
8-byte little-endian header length, a JSON header, raw little-endian float32) with
Skyline's metadata. A PyTorch user passes tensor bytes from
``t.detach().float().contiguous().numpy().astype('<f4').tobytes()``."""
import json
import struct

FORMAT = "skyline-net"
FORMAT_VERSION = "1"


def tensor_names(depth):
    """The tensor names of a "resmlp" net of this depth, in the canonical order."""
    names = ["stem.weight", "stem.bias"]
    for k in range(depth):
        names += ["blocks.%d.fc1.weight" % k, "blocks.%d.fc1.bias" % k,
                  "blocks.%d.fc2.weight" % k, "blocks.%d.fc2.bias" % k]
    return names + ["policy.weight", "policy.bias", "value.weight", "value.bias"]


def tensor_shapes(observation_size, action_count, players, width, depth):
    """{name: shape} of a "resmlp" net (PyTorch nn.Linear layout, [out, in])."""
    shapes = {"stem.weight": [width, observation_size], "stem.bias": [width]}
    for k in range(depth):
        for fc in ("fc1", "fc2"):
            shapes["blocks.%d.%s.weight" % (k, fc)] = [width, width]
            shapes["blocks.%d.%s.bias" % (k, fc)] = [width]
    shapes.update({"policy.weight": [action_count, width], "policy.bias": [action_count],
                   "value.weight": [players, width], "value.bias": [players]})
    return shapes


def metadata(game, players, observation_size, action_count, width, depth,
             training_data="", training_command="", engine="skyline python"):
    """The metadata block, every value a string."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "game": game,
            "players": str(players), "observation_size": str(observation_size),
            "action_count": str(action_count), "arch": "resmlp", "width": str(width),
            "depth": str(depth), "training_data": training_data,
            "training_command": training_command, "engine": engine}


def _as_bytes(data):
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    return struct.pack("<%df" % len(data), *data)


def write_net(path, meta, tensors):
    """Writes a net: meta from metadata(), tensors {name: bytes (little-endian float32) or a
    flat sequence of floats}, in the order of tensor_names(depth)."""
    depth = int(meta["depth"])
    shapes = tensor_shapes(int(meta["observation_size"]), int(meta["action_count"]),
                           int(meta["players"]), int(meta["width"]), depth)
    header = {"__metadata__": dict(meta)}
    blobs, at = [], 0
    for name in tensor_names(depth):
        blob = _as_bytes(tensors[name])
        count = 1
        for n in shapes[name]:
            count *= n
        if len(blob) != 4 * count:
            raise ValueError("%s: %d bytes, shape %s needs %d" % (name, len(blob),
                                                                   shapes[name], 4 * count))
        header[name] = {"dtype": "F32", "shape": shapes[name],
                        "data_offsets": [at, at + len(blob)]}
        blobs.append(blob)
        at += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def read_net(path):
    """(metadata, {name: (shape, bytes)}) of a net file; no checks beyond the layout (the
    engine's reader checks every field)."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    return meta, {name: (t["shape"], data[t["data_offsets"][0]:t["data_offsets"][1]])
                  for name, t in header.items()}
