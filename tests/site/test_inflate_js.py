"""The site's DEFLATE decoder (`evaluation/site/assets/inflate.js`, run in node) unpacks what
Python's zlib packs, at every level and block kind (stored, fixed, dynamic), byte for byte, and
refuses damaged data and data that unpacks past its limit with an error, never a wrong answer."""

from __future__ import annotations

import base64
import json
import random
import shutil
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

NODE = shutil.which("node")
RUNNER = Path(__file__).resolve().parent / "inflate_runner.js"

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (Debian `nodejs`): the JS decoder cannot run"
)


class Node:
    """One node process answering one JSON line per request."""

    def __init__(self) -> None:
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(RUNNER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, packed: bytes, limit: int | None = None) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        request: dict[str, Any] = {"data": base64.b64encode(packed).decode()}
        if limit is not None:
            request["limit"] = limit
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return dict(json.loads(self.process.stdout.readline()))

    def inflate(self, packed: bytes, limit: int | None = None) -> bytes:
        answer = self.ask(packed, limit)
        assert "error" not in answer, answer
        return base64.b64decode(answer["data"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    runner = Node()
    yield runner
    runner.close()


def deflate(data: bytes, level: int = 9, strategy: int = zlib.Z_DEFAULT_STRATEGY) -> bytes:
    packer = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    return packer.compress(data) + packer.flush()


SAMPLES = {
    "empty": b"",
    "one byte": b"a",
    "repeats": b"hello hello hello hello " * 50,
    "random": random.Random(1).randbytes(70_000),
    "two letters": bytes(random.Random(2).choice(b"ab") for _ in range(100_000)),
    "json": json.dumps([{"board": [[0] * 10] * 20, "score": k} for k in range(300)]).encode(),
    "utf-8": ("naïve — ♞ " * 500).encode(),
}


@pytest.mark.parametrize("name", list(SAMPLES))
@pytest.mark.parametrize("level", [0, 1, 6, 9])
def test_it_unpacks_what_zlib_packs(node: Node, name: str, level: int) -> None:
    data = SAMPLES[name]
    assert node.inflate(deflate(data, level)) == data


@pytest.mark.parametrize("strategy", [zlib.Z_FIXED, zlib.Z_HUFFMAN_ONLY, zlib.Z_RLE])
def test_every_block_kind(node: Node, strategy: int) -> None:
    data = SAMPLES["json"] + SAMPLES["random"][:5000]
    assert node.inflate(deflate(data, 6, strategy)) == data


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=3000), st.integers(0, 9))
def test_any_bytes(node: Node, data: bytes, level: int) -> None:
    assert node.inflate(deflate(data, level)) == data


@pytest.mark.parametrize(
    "packed",
    [
        b"",  # nothing at all
        deflate(SAMPLES["repeats"])[:-3],  # cut short
        b"\x07",  # a reserved block type
        b"\x00\x05\x00\x00\x00hello",  # a stored block whose length check is wrong
        b"\xff" * 40,  # a code longer than 15 bits
    ],
)
def test_damaged_data_is_an_error(node: Node, packed: bytes) -> None:
    assert "not valid DEFLATE" in node.ask(packed)["error"]


def test_a_limit_stops_a_bomb(node: Node) -> None:
    bomb = deflate(b"\0" * 2_000_000)
    assert len(bomb) < 3000
    assert "more than 100000 bytes" in node.ask(bomb, 100_000)["error"]
    assert len(node.inflate(bomb, 2_000_000)) == 2_000_000
