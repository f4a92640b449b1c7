"""The pieces of `examples/ppo.py` against hand-computed values: GAE, the masked categorical
(sampling, log-probabilities, entropy) and the presets' reward shapings."""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import torch

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


ppo = _example("ppo")
presets = sys.modules["ppo_presets"]


def test_gae_matches_the_hand_computed_advantages() -> None:
    # T = 3 steps of one game that ends with step 1; gamma 0.9, lambda 0.8.
    rewards = torch.tensor([[1.0], [0.0], [2.0]])
    values = torch.tensor([[0.5], [0.2], [0.1]])
    dones = torch.tensor([[0.0], [1.0], [0.0]])
    advantages, returns = ppo.gae(rewards, values, dones, torch.tensor([0.3]), 0.9, 0.8)
    # t=2: 2 + 0.9*0.3 - 0.1 = 2.17; t=1 (ends): 0 - 0.2 = -0.2;
    # t=0: delta 1 + 0.9*0.2 - 0.5 = 0.68, plus 0.9*0.8*(-0.2) = 0.536.
    torch.testing.assert_close(advantages[:, 0], torch.tensor([0.536, -0.2, 2.17]))
    torch.testing.assert_close(returns[:, 0], torch.tensor([1.036, 0.0, 2.27]))


def test_gae_keeps_games_apart_across_the_batch() -> None:
    rewards = torch.ones((4, 2))
    values = torch.zeros((4, 2))
    dones = torch.zeros((4, 2))
    dones[1, 0] = 1.0
    advantages, _ = ppo.gae(rewards, values, dones, torch.zeros(2), 1.0, 1.0)
    assert advantages[:, 0].tolist() == [2.0, 1.0, 2.0, 1.0]  # two games of two steps
    assert advantages[:, 1].tolist() == [4.0, 3.0, 2.0, 1.0]  # one game still running


def test_masked_distribution_log_prob_and_entropy_by_hand() -> None:
    logits = ppo.masked_logits(torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[1, 0, 1]]) > 0)
    p1, p3 = math.exp(1) / (math.exp(1) + math.exp(3)), math.exp(3) / (math.exp(1) + math.exp(3))
    logp, entropy = ppo.log_prob_entropy(logits, torch.tensor([2]))
    assert logp.item() == pytest.approx(math.log(p3), rel=1e-6)
    assert entropy.item() == pytest.approx(-(p1 * math.log(p1) + p3 * math.log(p3)), rel=1e-6)
    masked_logp, _ = ppo.log_prob_entropy(logits, torch.tensor([1]))
    assert masked_logp.item() < -1e8  # a masked action is (numerically) impossible


def test_sampling_follows_the_masked_softmax_and_never_a_masked_action() -> None:
    torch.manual_seed(0)
    logits = ppo.masked_logits(
        torch.tensor([[0.0, math.log(3.0), 5.0]]).repeat(20_000, 1),
        torch.tensor([[True, True, False]]).repeat(20_000, 1),
    )
    actions, logp = ppo.sample(logits)
    assert not (actions == 2).any()
    assert (actions == 1).float().mean().item() == pytest.approx(0.75, abs=0.015)
    np.testing.assert_allclose(logp[actions == 1].numpy(), math.log(0.75), rtol=1e-5)


def test_stack_potential_counts_holes_bumpiness_and_height() -> None:
    board = np.zeros((1, 20, 10), np.uint8)
    board[0, 19, :9] = 1  # a bottom row with column 9 empty
    board[0, 18, 0] = 1  # column 0 two high
    board[0, 17, 5] = 2  # the falling piece: not part of the stack
    board[0, 17, 3] = 1
    board[0, 19, 3] = 0  # a hole under (17, 3)... and (18, 3)
    heights = [2, 1, 1, 3, 1, 1, 1, 1, 1, 0]
    bumpiness = sum(abs(a - b) for a, b in itertools.pairwise(heights))
    expected = -(0.5 * 2 + 0.1 * bumpiness + 0.1 * 3)
    assert presets.stack_potential(board)[0] == pytest.approx(expected)


def test_lines_reward_pays_new_lines_and_the_top_out() -> None:
    preset = presets.PRESETS["tetris"]
    rewards = presets.Rewards(preset, 2)
    zero = np.zeros(2)
    empty = {"board": np.zeros((2, 20, 10), np.uint8)}  # no stack: the shaping pays 0
    term, done = np.array([False, False]), np.array([False, False])
    first = rewards(zero, empty, term, done, {"lines": np.array([0, 2])})
    assert first.tolist() == [0.0, 2.0]
    term = done = np.array([True, False])
    second = rewards(zero, empty, term, done, {"lines": np.array([1, 2])})
    assert second.tolist() == [1.0 + preset.top_out, 0.0]
    still = np.array([False, False])
    third = rewards(zero, empty, still, still, {"lines": np.array([0, 3])})
    assert third.tolist() == [0.0, 1.0]  # game 0 restarted from 0 lines


def test_minesweeper_reward_and_win_metric() -> None:
    preset = presets.PRESETS["minesweeper"]
    rewards = presets.Rewards(preset, 3)
    term = np.array([False, True, True])
    infos = {"score": np.array([5, 71, 30])}  # easy: 81 - 10 = 71 safe cells
    r = rewards(np.zeros(3), None, term, term, infos)
    assert r.tolist() == pytest.approx([0.1, 1.0, -1.0])
    assert rewards.metric(np.zeros(3), term, infos).tolist() == [0.0, 1.0, 0.0]


def test_potential_shaping_pays_a_better_stack_and_nothing_for_a_top_out() -> None:
    preset = presets.PRESETS["tetris"]
    rewards = presets.Rewards(preset, 1)
    holed = np.zeros((1, 20, 10), np.uint8)
    holed[0, 18, 0] = 1  # one cell with a hole under it
    still, lines = np.array([False]), {"lines": np.array([0])}
    first = rewards(np.zeros(1), {"board": holed}, still, still, lines)
    phi = presets.stack_potential(holed)[0]
    assert first[0] == pytest.approx(preset.gamma * phi)
    ended = np.array([True])
    last = rewards(np.zeros(1), {"board": holed}, ended, ended, lines)
    assert last[0] == pytest.approx(preset.top_out + (preset.gamma - 1.0) * phi)


def test_board_games_share_the_games_in_proportion_and_in_full() -> None:
    assert presets.board_games({3: 64, 5: 128, 10: 192}, 384) == {3: 64, 5: 128, 10: 192}
    games = presets.board_games({3: 1, 5: 2, 10: 3}, 10)
    assert sum(games.values()) == 10 and games[3] >= 1 and games[10] >= games[5]
    with pytest.raises(ValueError, match="cannot cover 3 board sizes"):
        presets.board_games({3: 1, 5: 1, 10: 1}, 2)


def _tiny_all_sizes() -> Any:
    from dataclasses import replace

    base = presets.PRESETS["tictactoe-selfplay-all"]
    return replace(
        base,
        arch={**base.arch, "channels": 4, "layers": 1},
        num_envs=6,
        num_steps=4,
        boards=presets.board_games(base.boards, 6),
    )


def test_a_short_run_of_the_all_sizes_preset_plays_every_arena_size(tmp_path: Path) -> None:
    from arcade_gym.tictactoe.contract import check_answer
    from arcade_gym.tictactoe.game import TicTacToeGame
    from policies.ppo.model_file import save_model
    from policies.specs import make_policy

    trainer = ppo.Trainer(_tiny_all_sizes(), seed=0)
    row = trainer.train(minutes=0, timesteps=48)
    assert trainer.steps == 48 and np.isfinite(row["aux_loss"])
    path = tmp_path / "all.pt"
    save_model(path, trainer.model("tictactoe-selfplay-all", row))
    policy = make_policy(f"ppo:{path}", "tictactoe")
    for size in (3, 5, 10):
        game = TicTacToeGame(size)
        while not game.over:  # a whole game, the model playing both sides
            question = game.question()
            answer = policy.act(question)
            assert check_answer(question, answer).legal
            game.play(answer.row * size + answer.col)


def test_a_cpu_time_budget_stops_the_run_and_is_logged() -> None:
    trainer = ppo.Trainer(_tiny_all_sizes(), seed=1)
    row = trainer.train(minutes=0, cpu_minutes=1e-4)  # 6 ms of CPU: one iteration
    assert trainer.steps == 24 and row["cpu_seconds"] > 0 and row["load"] >= 0


@pytest.mark.slow
def test_the_all_sizes_preset_beats_random_on_every_size_after_ten_cpu_minutes(
    tmp_path: Path,
) -> None:
    from policies.ppo.model_file import load_model

    out = tmp_path / "all.pt"
    args = ["--preset", "tictactoe-selfplay-all", "--minutes", "0", "--cpu-minutes", "10"]
    row = ppo.main([*args, "--threads", "1", "--out", str(out), "--eval-games", "0"])
    assert row["steps"] > 0
    preset = presets.PRESETS["tictactoe-selfplay-all"]
    network = load_model(out).network
    for size in (3, 5, 10):
        played = replace_preset(preset, size)
        wins, outcomes = ppo.evaluate(played, network, 100, seed=7, opponent="random")
        assert wins >= 0.8, (size, outcomes)


def replace_preset(preset: Any, size: int) -> Any:
    """The all-sizes preset narrowed to one board, from the empty board (as `main` evaluates)."""
    from dataclasses import replace

    kwargs = {**preset.env_kwargs, "size": size}
    return replace(preset, boards=None, env_kwargs=kwargs, opening={})


def test_evaluation_games_can_be_played_by_the_search() -> None:
    from policies.ppo.network import build
    from policies.ppo.search import SearchSettings

    torch.manual_seed(0)
    net = build({"kind": "board", "channels": 4, "layers": 1})
    played = replace_preset(presets.PRESETS["tictactoe-selfplay-all"], 3)
    search = SearchSettings(depth=2)
    wins, outcomes = ppo.evaluate(played, net, 6, seed=3, opponent="greedy", search=search)
    assert sum(outcomes.values()) == 6 and 0.0 <= wins <= 1.0
    # X and O alternate; against random, a search that sees every win and block wins some
    _, outcomes = ppo.evaluate(played, net, 8, seed=4, opponent="random", search=search)
    assert outcomes["won"] >= 4, outcomes


@pytest.mark.slow
def test_a_saved_model_is_evaluated_with_a_search_and_nothing_trained(tmp_path: Path) -> None:
    from policies.ppo.model_file import save_model

    trainer = ppo.Trainer(_tiny_all_sizes(), seed=2)
    row = trainer.train(minutes=0, timesteps=24)
    path = tmp_path / "tiny.pt"
    save_model(path, trainer.model("tictactoe-selfplay-all", row))
    args = ["--preset", "tictactoe-selfplay-all", "--evaluate", str(path), "--eval-games", "2"]
    result = ppo.main([*args, "--eval-search", "depth=1"])
    assert set(result) == {"eval3", "eval5", "eval10"}
    with pytest.raises(SystemExit, match="unknown option"):
        ppo.main([*args, "--eval-search", "deep=1"])
