"""`ppo:` models (`policies/ppo/`): the networks, the one-file format, and the policy that plays a
model file on each game's benchmark questions with legal answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import torch

import arcade_gym  # noqa: F401
from policies.ppo.model_file import (
    FORMAT,
    ModelFileError,
    PPOModel,
    load_model,
    observation_shapes,
    save_model,
)
from policies.ppo.network import (
    MASKED_LOGIT,
    RunningNorm,
    as_tensors,
    build,
    masked_logits,
    sudoku_features,
)
from policies.specs import SpecError, make_policy

SAMPLE_ARCHS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "snake": ("arcade_gym/Snake-v0", {"difficulty": "easy"}, {"kind": "mlp", "hidden": [8]}),
    "tetris": (
        "arcade_gym/Tetris-v3",
        {"placement_features": "extended"},
        {"kind": "afterstate", "hidden": 8, "value_hidden": 8},
    ),
    "tetris-primitive": ("arcade_gym/TetrisPrimitive-v3", {}, {"kind": "mlp", "hidden": [8]}),
    "minesweeper": (
        "arcade_gym/Minesweeper-v0",
        {"difficulty": "easy"},
        {"kind": "grid", "low": -2, "high": 8, "channels": 4, "layers": 1},
    ),
    "tictactoe": ("arcade_gym/TicTacToe-v0", {"size": 3}, {"kind": "mlp", "hidden": [8]}),
    "sudoku": ("arcade_gym/Sudoku-v0", {}, {"kind": "sudoku", "hidden": 4, "value_hidden": 4}),
}
"""Per game: a small untrained network of the kind its preset uses (`examples/ppo_presets.py`)."""


def _model(env_id: str, kwargs: dict[str, Any], arch: dict[str, Any]) -> PPOModel:
    env: Any = gym.make(env_id, **kwargs)
    arch = dict(arch)
    if arch["kind"] in ("mlp", "afterstate", "grid"):
        arch["n_actions"] = int(env.action_space.n)
    if arch["kind"] == "mlp":
        flat: Any = gym.make(env_id, observation="flat", **kwargs)
        arch["size"] = int(flat.observation_space.shape[0])
    if arch["kind"] == "afterstate":
        arch["n_features"] = int(env.observation_space["placements"].shape[1])
    torch.manual_seed(0)
    return PPOModel(env_id, kwargs, arch, build(arch), observation_shapes(env.observation_space))


def _saved(tmp_path: Path, game: str) -> Path:
    path = tmp_path / f"{game}.pt"
    save_model(path, _model(*SAMPLE_ARCHS[game]))
    return path


# --- the masked distribution --------------------------------------------------------------------
def test_masked_logits_put_masked_actions_at_the_masked_logit() -> None:
    logits = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]])
    mask = torch.tensor([[True, False, True], [False, False, False]])
    out = masked_logits(logits, mask)
    assert out[0].tolist() == [1.0, MASKED_LOGIT, 3.0]
    assert out[1].tolist() == [0.5, 0.5, 0.5]  # no legal action: left as it is


def test_masked_softmax_gives_a_masked_action_probability_zero() -> None:
    probs = torch.softmax(
        masked_logits(torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[1, 0, 1]]) > 0), 1
    )
    e = np.exp([1.0, 3.0])
    np.testing.assert_allclose(probs[0].numpy(), [e[0] / e.sum(), 0.0, e[1] / e.sum()], rtol=1e-6)
    assert probs[0, 1].item() == 0.0


# --- networks -----------------------------------------------------------------------------------
def test_running_norm_matches_the_statistics_of_all_batches() -> None:
    rng = np.random.default_rng(0)
    batches = [rng.normal(3.0, 2.0, (n, 4)).astype(np.float32) for n in (5, 17, 64)]
    norm = RunningNorm(4)
    for batch in batches:
        norm.update(torch.from_numpy(batch))
    every = np.concatenate(batches)
    np.testing.assert_allclose(norm.mean.numpy(), every.mean(0), rtol=1e-4)
    np.testing.assert_allclose(norm.var.numpy(), every.var(0), rtol=1e-3)


def test_sudoku_features_count_each_placement_s_places_left() -> None:
    cand = torch.zeros((1, 9, 9, 9))
    cand[0, 0, 0, [0, 4]] = 1  # cell (0, 0): digits 1 and 5
    cand[0, 0, 3, 0] = 1  # digit 1 also at (0, 3): two places in row 0
    features = sudoku_features(cand)[0].reshape(9, 9, 9, -1)
    is_cand, inv_cell, inv_row, inv_col, inv_box = features[0, 0, 0, :5].tolist()
    assert (is_cand, inv_cell, inv_row, inv_col, inv_box) == (1.0, 0.5, 0.5, 1.0, 1.0)
    assert features[0, 0, 0, 5:].tolist() == [0.0, 0.0, 1.0, 1.0]  # singles: column and box
    assert features[1, 1, 1].abs().sum() == 0  # not a candidate: nothing


def test_unknown_network_kind_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown network kind 'lstm'"):
        build({"kind": "lstm"})
    with pytest.raises(ValueError, match="network mlp"):
        build({"kind": "mlp", "size": 3})


# --- the model file -----------------------------------------------------------------------------
def test_a_saved_model_loads_with_the_same_outputs_and_normaliser(tmp_path: Path) -> None:
    model = _model(*SAMPLE_ARCHS["snake"])
    model.arch["norm"] = True
    model.network = build(model.arch)
    obs = torch.rand((6, model.arch["size"]))
    model.network.observe(obs * 3 + 1)
    path = tmp_path / "m.pt"
    save_model(path, model)
    loaded = load_model(path)
    assert loaded.env_id == "arcade_gym/Snake-v0" and loaded.obs_shapes == model.obs_shapes
    with torch.no_grad():
        for a, b in zip(model.network(obs), loaded.network(obs), strict=True):
            torch.testing.assert_close(a, b)
    torch.testing.assert_close(loaded.network.norm.mean, model.network.norm.mean)


def test_a_file_that_is_no_model_is_refused_in_one_line(tmp_path: Path) -> None:
    text = tmp_path / "notes.pt"
    text.write_text("hello")
    with pytest.raises(ModelFileError, match="not a torch model file"):
        load_model(text)
    other = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(3)}, other)
    with pytest.raises(ModelFileError, match=f"not an {FORMAT} model file"):
        load_model(other)
    newer = tmp_path / "newer.pt"
    torch.save({"format": FORMAT, "version": 99, "meta": "{}"}, newer)
    with pytest.raises(ModelFileError, match="version 99"):
        load_model(newer)
    with pytest.raises(ModelFileError, match="no such model file"):
        load_model(tmp_path / "missing.pt")


def test_weights_that_do_not_fit_the_architecture_are_refused(tmp_path: Path) -> None:
    path = _saved(tmp_path, "snake")
    payload = torch.load(path, weights_only=True)
    payload["meta"] = payload["meta"].replace('"hidden": [8]', '"hidden": [9]')
    torch.save(payload, path)
    with pytest.raises(ModelFileError, match="do not fit its architecture"):
        load_model(path)


def test_a_model_file_cannot_run_code_when_loaded(tmp_path: Path) -> None:
    class Boom:
        def __reduce__(self) -> tuple[Any, ...]:
            return (print, ("ran",))

    path = tmp_path / "evil.pt"
    torch.save({"format": FORMAT, "version": 1, "meta": Boom()}, path)
    with pytest.raises(ModelFileError, match="not a torch model file"):
        load_model(path)


# --- the policy on each benchmark's questions ---------------------------------------------------
def _question(game: str) -> Any:
    if game == "tictactoe":
        from arcade_gym.tictactoe.game import TicTacToeGame

        return TicTacToeGame(3).question()
    if game == "sudoku":
        from arcade_gym.sudoku.contract import SudokuQuestion
        from arcade_gym.sudoku.sets import set_grids

        grid = set_grids("v1", 1)[0]
        return SudokuQuestion.from_puzzle(grid["puzzle"], grid["id"])
    if game == "tetris":
        from arcade_gym.tetris.game import TetrisGame

        return TetrisGame("seed-01").question()
    env_id, kwargs, _ = SAMPLE_ARCHS[game]
    env: Any = gym.make(env_id, **kwargs)
    env.reset(seed=3)
    return env.unwrapped.as_game().question()


def _usable(game: str, answer: Any, question: Any) -> bool:
    if game == "tictactoe":
        from arcade_gym.tictactoe.contract import check_answer

        return bool(check_answer(question, answer).legal)
    if game == "sudoku":
        from arcade_gym.sudoku.contract import validate

        verdict = validate(answer)
        filled = verdict.grid or ""
        givens = question.puzzle
        return verdict.usable and all(g in ("0", f) for g, f in zip(givens, filled, strict=True))
    module = {
        "snake": "arcade_gym.snake.contract",
        "minesweeper": "arcade_gym.minesweeper.contract",
        "tetris": "arcade_gym.tetris.contract",
        "tetris-primitive": "arcade_gym.tetris.primitive_contract",
    }[game]
    import importlib

    return bool(importlib.import_module(module).validate(answer, question).usable)


@pytest.mark.parametrize("game", list(SAMPLE_ARCHS))
def test_ppo_spec_plays_a_legal_answer_on_the_game_s_benchmark(game: str, tmp_path: Path) -> None:
    path = _saved(tmp_path, game)
    policy = make_policy(f"ppo:{path}", game)
    question = _question(game)
    answer = policy.act(question)
    assert _usable(game, answer, question)
    assert policy.act(question) == answer  # greedy: the same file and question, the same answer
    identity = policy.identity()
    assert identity["kind"] == "rl" and identity["slug"].startswith(f"ppo-{game}-")


def test_sudoku_model_fills_the_grid_from_the_question_without_the_solution(
    tmp_path: Path,
) -> None:
    path = _saved(tmp_path, "sudoku")
    question = _question("sudoku")
    answer = make_policy(f"ppo:{path}", "sudoku").act(question)
    blanks = question.puzzle.count("0")
    filled = sum(ch != "0" for ch in "".join(answer.grid)) - (81 - blanks)
    assert filled > 0 and answer.confidence == pytest.approx(round(100 * filled / blanks, 1))


def test_sudoku_adapter_observation_equals_the_env_s(tmp_path: Path) -> None:
    from policies.sudoku.sb3 import ADAPTER

    question = _question("sudoku")
    env = gym.make("arcade_gym/Sudoku-v0")
    obs, info = env.reset(options={"puzzle": question.puzzle})
    rebuilt, mask = ADAPTER.observe(question)
    for key in obs:
        np.testing.assert_array_equal(rebuilt[key], obs[key])
    np.testing.assert_array_equal(mask, info["action_mask"])


def test_ppo_spec_errors_name_the_fix(tmp_path: Path) -> None:
    snake = _saved(tmp_path, "snake")
    with pytest.raises(SpecError, match="trained on arcade_gym/Snake-v0; tetris is played on"):
        make_policy(f"ppo:{snake}", "tetris")
    with pytest.raises(SpecError, match="no such model file"):
        make_policy(f"ppo:{tmp_path / 'none.pt'}", "snake")
    with pytest.raises(SpecError, match="ppo: models do not play go"):
        make_policy(f"ppo:{snake}", "go")


def test_a_model_for_another_board_size_says_so(tmp_path: Path) -> None:
    from arcade_gym.tictactoe.game import TicTacToeGame

    path = _saved(tmp_path, "tictactoe")
    policy = make_policy(f"ppo:{path}", "tictactoe")
    with pytest.raises(ValueError, match="another board size"):
        policy.act(TicTacToeGame(5).question())


def test_network_batches_agree_with_single_observations() -> None:
    model = _model(*SAMPLE_ARCHS["minesweeper"])
    boards = np.random.default_rng(1).integers(-2, 9, (5, 9, 9)).astype(np.int8)
    with torch.no_grad():
        batch, _ = model.network(as_tensors(boards))
        single = [model.network(as_tensors(boards[i : i + 1]))[0][0] for i in range(5)]
    torch.testing.assert_close(batch, torch.stack(single))
    assert (batch[:, 81:] == MASKED_LOGIT).all()  # planes=1: flags are never chosen


def test_one_model_per_board_size_plays_every_size(tmp_path: Path) -> None:
    from arcade_gym.tictactoe.contract import check_answer
    from arcade_gym.tictactoe.game import TicTacToeGame

    three = _saved(tmp_path, "tictactoe")
    five = tmp_path / "ttt5.pt"
    save_model(five, _model("arcade_gym/TicTacToe-v0", {"size": 5}, {"kind": "mlp", "hidden": [8]}))
    policy = make_policy(f"ppo:{three}+{five}", "tictactoe")
    for size in (3, 5):
        question = TicTacToeGame(size).question()
        assert check_answer(question, policy.act(question)).legal
    with pytest.raises(ValueError, match="Name one model per size"):
        policy.act(TicTacToeGame(10).question())
    assert policy.identity()["slug"].startswith("ppo-tictactoe-ttt5-")


BOARD_ARCH = {"kind": "board", "channels": 4, "layers": 1}


def test_board_network_gives_the_same_numbers_on_the_canvas_as_on_each_board() -> None:
    net = build(BOARD_ARCH)
    rng = np.random.default_rng(2)
    canvas = np.zeros((6, 10, 10, 2), np.int8)
    sizes = np.array([3, 5, 10, 3, 10, 5])
    own: dict[int, list[np.ndarray]] = {3: [], 5: [], 10: []}
    for i, n in enumerate(sizes):
        stones = rng.integers(0, 3, (n, n))
        board = np.stack([stones == 1, stones == 2], axis=-1).astype(np.int8)
        canvas[i, :n, :n] = board
        own[int(n)].append(board)
    with torch.no_grad():
        logits, values = net({"board": torch.as_tensor(canvas), "size": torch.as_tensor(sizes)})
        for n in (3, 5, 10):
            alone, value = net(torch.as_tensor(np.stack(own[n])))
            rows = np.flatnonzero(sizes == n)
            cells = (np.arange(n)[:, None] * 10 + np.arange(n)[None, :]).reshape(-1)
            torch.testing.assert_close(logits[rows][:, cells], alone)
            torch.testing.assert_close(values[rows], value)
            off = np.setdiff1d(np.arange(100), cells)
            assert (logits[rows][:, off] == MASKED_LOGIT).all()


def test_board_network_refuses_a_board_of_no_arena_size() -> None:
    with pytest.raises(ValueError, match="a 4x4 board is none of the sizes"):
        build(BOARD_ARCH)(torch.zeros((1, 4, 4, 2), dtype=torch.int8))


def test_one_board_model_plays_every_arena_size(tmp_path: Path) -> None:
    from arcade_gym.tictactoe.contract import check_answer
    from arcade_gym.tictactoe.game import TicTacToeGame

    path = tmp_path / "board.pt"
    save_model(path, _model("arcade_gym/TicTacToe-v0", {"size": 3}, BOARD_ARCH))
    policy = make_policy(f"ppo:{path}", "tictactoe")
    for size in (3, 5, 10):
        game = TicTacToeGame(size)
        for _ in range(size * size // 2):  # answers are legal as the board fills
            question = game.question()
            answer = policy.act(question)
            assert check_answer(question, answer).legal
            game.play(answer.row * size + answer.col)
            if game.over:
                break
