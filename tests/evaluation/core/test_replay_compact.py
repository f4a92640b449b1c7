"""The compact replay of a site page (`evaluation/core/replay_compact.py`): frames as changes
against the frame before, deflated, base64. Every sequence of JSON frames comes back exactly (a
boolean stays a boolean, a removed key stays removed, lists grow and shrink), the recorded
`answer` is left out, a real replay shrinks, and anything not a compact replay is refused."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaluation.benchmarks  # noqa: F401  (registers every benchmark: replays)
from evaluation.core.replay_compact import (
    ENCODING,
    LEFT_OUT,
    CompactReplayError,
    apply,
    change,
    compact_replay,
    delta_frames,
    expand_frames,
    expand_replay,
)
from evaluation.core.replay_export import export_replay

REPO = Path(__file__).resolve().parents[3]
SEARCH_LOG = REPO / "docs/results/tetris-bench/logs/search/IQ/seed-08.jsonl.xz"

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=30,
)
frames_strategy = st.lists(
    st.dictionaries(st.text(max_size=4), json_values, max_size=6), max_size=8
)


def _as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@settings(max_examples=100, deadline=None)
@given(frames_strategy)
def test_any_frames_come_back_exactly(frames: list[dict[str, Any]]) -> None:
    encoded = delta_frames(frames)
    assert _as_json(expand_frames(json.loads(json.dumps(encoded)))) == _as_json(frames)
    page = json.loads(json.dumps(compact_replay({"benchmark": "b", "frames": frames})))
    assert page["frameEncoding"] == ENCODING and isinstance(page["frames"], str)
    assert _as_json(expand_replay(page)["frames"]) == _as_json(frames)


@settings(max_examples=100, deadline=None)
@given(json_values, json_values)
def test_a_change_turns_one_value_into_the_other(old: Any, new: Any) -> None:
    if _as_json(old) == _as_json(new):
        return
    assert _as_json(apply(old, json.loads(json.dumps(change(old, new))))) == _as_json(new)


def test_the_forms_of_a_change() -> None:
    board = [[0] * 10 for _ in range(20)]
    landed = [row[:] for row in board]
    landed[19][4] = 3
    assert change(board, landed) == {"i": {"19": {"i": {"4": 3}}}}  # one cell, not the board
    assert change([1, 2, 3], [1, 2]) == [[1, 2]]  # shorter whole than patched
    assert change([0] * 30, [0] * 29) == {"n": 29, "i": {}}
    assert change(1, True) is True and change(True, 1) == 1  # equal in Python, not in JSON
    assert change({"a": 1}, [1]) == [[1]]
    assert delta_frames([{"a": 1, "b": 2}, {"a": 1}, {"a": 1}]) == [
        {"a": 1, "b": 2},
        {"r": ["b"]},
        {},
    ]
    assert expand_frames([]) == [] and delta_frames([]) == []


def test_a_page_leaves_out_the_answer_and_keeps_the_rest() -> None:
    replay = {
        "benchmark": "b",
        "header": {"seed": 1},
        "result": {"score": 2},
        "frames": [{"x": 0}, {"x": 1, "answer": {"choice": [0.5] * 40}, "decision": 0}],
    }
    page = compact_replay(replay)
    assert page["header"] == {"seed": 1} and page["result"] == {"score": 2}
    assert expand_replay(page)["frames"] == [{"x": 0}, {"x": 1, "decision": 0}]
    assert LEFT_OUT == ("answer",)
    assert expand_replay({"frames": [{"x": 0}]}) == {"frames": [{"x": 0}]}  # not compact


def test_a_long_game_shrinks_to_a_few_percent() -> None:
    replay = export_replay(SEARCH_LOG).to_json()
    whole = len(json.dumps(replay["frames"], separators=(",", ":")))
    page = compact_replay(replay)
    assert len(page["frames"]) < whole / 20
    left = [{k: v for k, v in f.items() if k not in LEFT_OUT} for f in replay["frames"]]
    assert expand_replay(json.loads(json.dumps(page)))["frames"] == left


def _packed(data: bytes) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(packer.compress(data) + packer.flush()).decode()


@pytest.mark.parametrize(
    "page",
    [
        {"frameEncoding": "gzip@9", "frames": ""},
        {"frameEncoding": ENCODING, "frames": [{"x": 0}]},
        {"frameEncoding": ENCODING, "frames": "not base64!"},
        {"frameEncoding": ENCODING, "frames": base64.b64encode(b"not deflate").decode()},
        {"frameEncoding": ENCODING, "frames": _packed(b"[not json")},
        {"frameEncoding": ENCODING, "frames": _packed(b'[{"a": 1}, {"k": {"a": [1, 2]}}]')},
        {
            "frameEncoding": ENCODING,
            "frames": _packed(b'[{"a": [1]}, {"k": {"a": {"i": {"x": 1}}}}]'),
        },
    ],
)
def test_anything_else_is_refused(page: dict[str, Any]) -> None:
    with pytest.raises(CompactReplayError):
        expand_replay(page)


def test_a_page_that_unpacks_too_far_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import evaluation.core.replay_compact as compact

    page = compact_replay({"frames": [{"text": "x" * 5000}]})
    monkeypatch.setattr(compact, "MAX_FRAMES_BYTES", 1000)
    with pytest.raises(CompactReplayError, match="more than 1000 bytes"):
        expand_replay(page)


def _same_by_text(a: Any, b: Any) -> bool:
    """What `_same` means: equal, and equal as JSON text (the way it was first written)."""
    text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    return bool(a == b) and text(a) == text(b)


@settings(max_examples=200, deadline=None)
@given(json_values, json_values)
def test_same_is_equality_as_json_text(a: Any, b: Any) -> None:
    from evaluation.core.replay_compact import _same

    assert _same(a, b) == _same_by_text(a, b)
    assert _same(a, a) and _same(b, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (True, 1),
        (1, 1.0),
        (0.0, -0.0),
        ([0.0], [-0.0]),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({1: "x"}, {True: "x"}),
        ([1, {"k": [True]}], [1, {"k": [1]}]),
        (float("inf"), float("inf")),
        ([None, "é"], [None, "é"]),
    ],
)
def test_same_tells_apart_what_python_calls_equal(a: Any, b: Any) -> None:
    from evaluation.core.replay_compact import _same

    assert _same(a, b) == _same_by_text(a, b)
