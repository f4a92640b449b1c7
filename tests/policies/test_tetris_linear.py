"""The linear Tetris controller (`linear:PATH.json`): its weights file, and that the official
harness plays it move for move as the training kernel does."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import validate
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PLACEMENT_FEATURE_SETS
from evaluation.benchmarks.tetris_bench.episode import play_tetris
from policies.specs import SpecError, make_policy
from policies.tetris.linear import FORMAT, LinearBrain, load_linear_weights, save_linear_weights
from policies.tetris.linear_kernels import best_placement, linear_scores, play_linear

# A controller of the kind the cross-entropy example learns: it holds often and clears lines.
TRAINED = [-2.27, 14.2, 0.38, -3.83, -12.1, -0.07, -6.74, 8.96, 0.45, -7.29, -8.6, 3.84]


def weights_file(
    tmp_path: Path, weights: list[float], margin: float | None, name: str = "w"
) -> Path:
    features = "extended" if len(weights) == 12 else "basic"
    return save_linear_weights(
        tmp_path / f"{name}.json", weights, features=features, hold_margin=margin
    )


def kernel_game(path: Path, seed: str, piece_cap: int) -> tuple[int, int, int, int]:
    record = load_linear_weights(path)
    game = TetrisGame(seed, piece_cap=piece_cap)
    margin = math.inf if record.hold_margin is None else record.hold_margin
    holds = play_linear(
        game.board, game.st, game.seq, game.cinfo, game.cfeat, np.array(record.weights), margin
    )
    return game.score, game.lines, game.pieces, holds


def harness_game(path: Path, seed: str, piece_cap: int, log: Path) -> tuple[int, int, int, int]:
    result = play_tetris(
        make_policy(f"linear:{path}", "tetris"), seed, "IQ", log, piece_cap=piece_cap
    )
    events = [json.loads(line) for line in log.read_text().splitlines()]
    holds = sum(1 for e in events if e.get("type") == "decision" and e.get("hold"))
    return result.score, result.lines, result.pieces, holds


def test_the_harness_plays_the_weights_as_the_training_kernel_does(tmp_path: Path) -> None:
    path = weights_file(tmp_path, TRAINED, -3.87)
    kernel = kernel_game(path, "seed-01", 120)
    assert harness_game(path, "seed-01", 120, tmp_path / "g.jsonl") == kernel
    assert kernel[2] == 120 and kernel[3] > 0  # it played to the cap and held on the way


@settings(max_examples=8, deadline=None)
@given(
    weights=st.lists(st.floats(-20, 20), min_size=12, max_size=12),
    margin=st.one_of(st.none(), st.floats(-20, 20)),
    seed=st.integers(0, 10**6),
)
def test_any_weights_play_the_same_in_the_harness_and_the_kernel(
    tmp_path_factory: pytest.TempPathFactory, weights: list[float], margin: float | None, seed: int
) -> None:
    folder = tmp_path_factory.mktemp("linear")
    path = weights_file(folder, weights, margin)
    kernel = kernel_game(path, f"prop-{seed}", 40)
    assert harness_game(path, f"prop-{seed}", 40, folder / "g.jsonl") == kernel
    if margin is None:
        assert kernel[3] == 0


def test_ties_go_to_the_lower_x_then_the_lower_rotation(tmp_path: Path) -> None:
    game = TetrisGame("seed-03")
    scores = np.zeros(E.MAX_CANDIDATES)  # every placement scores the same
    pick = best_placement(game.st, game.cinfo, scores)
    placements = game.legal_placements()
    assert placements[pick] == min(placements)
    question = game.question()
    answer = validate(LinearBrain(weights_file(tmp_path, [0.0] * 10, None)).act(question), question)
    assert (answer.placement.x, answer.placement.rotation) == min(placements)


def test_a_placement_that_tops_out_ranks_below_every_other() -> None:
    game = TetrisGame.from_position(["###......."] * 19, "O", "TOLJZ")
    weights = np.zeros(12)
    weights[2] = 1e6  # even weights that like topping out
    scores = np.empty(E.MAX_CANDIDATES)
    linear_scores(
        game.board, game.st, game.cinfo, game.cfeat, weights, np.empty(E.H, np.int64), scores
    )
    tops = game.candidate_rows()[:, E.C_TOP_OUT] > 0
    assert tops.any() and (~tops).any()
    assert scores[: game.n_candidates][tops].max() < scores[: game.n_candidates][~tops].min()


def test_the_identity_names_the_file_and_its_bytes(tmp_path: Path) -> None:
    path = weights_file(tmp_path, TRAINED, 0.0, name="My CEM")
    first = LinearBrain(path).identity()
    assert (
        first["slug"].startswith("linear-my-cem-")
        and len(first["slug"]) == len("linear-my-cem-") + 8
    )
    assert first["kind"] == "rl" and first["model"].startswith("linear:My CEM.json@")
    weights_file(tmp_path, TRAINED, 1.0, name="My CEM")
    assert LinearBrain(path).identity()["slug"] != first["slug"]


def test_the_file_round_trips(tmp_path: Path) -> None:
    path = save_linear_weights(
        tmp_path / "w.json", TRAINED, hold_margin=None, training={"games": 3}
    )
    record = load_linear_weights(path)
    assert record.weights == tuple(TRAINED) and record.hold_margin is None
    assert record.features == PLACEMENT_FEATURE_SETS["extended"]
    assert json.loads(path.read_text())["holdMargin"] is None


def good_record() -> dict[str, object]:
    return {
        "format": FORMAT,
        "features": list(PLACEMENT_FEATURE_SETS["basic"]),
        "weights": [1.0] * 10,
        "holdMargin": 0.0,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other@1"}, "format is 'other@1'"),
        ({"features": ["holes"]}, "placement feature sets"),
        ({"weights": [1.0] * 9}, "9 weights for 10 features"),
        ({"weights": [1.0] * 9 + ["x"]}, "weights.9"),
        ({"holdMargin": "wide"}, "holdMargin"),
        ({"extra": 1}, "extra"),
    ],
)
def test_a_bad_weights_file_is_one_message_naming_it(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good_record(), **change}))
    with pytest.raises(SpecError) as error:
        make_policy(f"linear:{path}", "tetris")
    assert str(path) in str(error.value) and message in str(error.value)
    assert "\n" not in str(error.value)


def test_non_finite_weights_and_missing_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text(json.dumps({**good_record(), "weights": [1.0] * 9 + [float("nan")]}))
    with pytest.raises(SpecError, match="finite"):
        make_policy(f"linear:{path}", "tetris")
    (tmp_path / "junk.json").write_text("{")
    with pytest.raises(SpecError, match="not JSON"):
        make_policy(f"linear:{tmp_path / 'junk.json'}", "tetris")
    with pytest.raises(SpecError, match=r"no such weights file.*train_tetris\.py"):
        make_policy(f"linear:{tmp_path / 'none.json'}", "tetris")
    with pytest.raises(SpecError, match=r"linear:PATH\.json"):
        make_policy("linear", "tetris")
