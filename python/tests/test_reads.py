"""Files the package reads are bounded as skyline's own readers bound them: a regular file,
lines of at most 1 MiB, no NUL byte, no byte-order mark; a parameter file or board read
by the C library gets the C readers' checks. Each is a ValueError, never a read until
memory runs out or a wait on a FIFO."""
import os
import signal

import pytest

import skyline


def _hung(signum, frame):
    raise TimeoutError("blocked opening a FIFO")


def test_read_records_refuses_special_files(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    old = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(60)
    try:
        for path in (fifo, "/dev/zero", tmp_path):
            with pytest.raises(ValueError, match="not a regular file"):
                skyline.read_records(path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_read_records_bounds_lines(tmp_path):
    ok = tmp_path / "ok.jsonl"
    ok.write_bytes(b'"' + b"x" * (skyline.records.LINE_MAX - 2) + b'"\n{"a":1}')
    assert len(skyline.read_records(ok)) == 2
    long = tmp_path / "long.jsonl"
    long.write_bytes(b'{"a":1}\n"' + b"x" * skyline.records.LINE_MAX + b'"\n')
    with pytest.raises(ValueError, match=r"long.jsonl:2: a line over 1048576 bytes"):
        skyline.read_records(long)
    nul = tmp_path / "nul.jsonl"
    nul.write_bytes(b'{"a":\x001}\n')
    with pytest.raises(ValueError, match="nul.jsonl:1: a NUL byte"):
        skyline.read_records(nul)
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b'\xef\xbb\xbf{"a":1}\n')
    with pytest.raises(ValueError, match="bom.jsonl:1: starts with a UTF-8 byte-order mark"):
        skyline.read_records(bom)


def test_bot_parameter_file_from_a_device():
    with pytest.raises(ValueError, match="/dev/zero is a character device, not a parameter file"):
        skyline.Bot("heuristic:params=/dev/zero", game="towerup")
