"""Snake baselines: the seeded random mover and the greedy planner (determinism, legality,
and the planner's quality on a few seeds)."""

from __future__ import annotations

import pytest

from arcade_gym.snake.contract import SnakeAnswer, validate
from arcade_gym.snake.game import SnakeGame
from arcade_gym.snake.rules import DIRECTION_NAMES, LEFT, RIGHT, UP, opposite
from policies.base import Policy
from policies.snake import HeuristicSnake, RandomSnake, make_policy
from policies.snake.baselines import plan


def _play(policy: RandomSnake | HeuristicSnake, seed: int, max_decisions: int) -> SnakeGame:
    """The harness loop in miniature: question -> answer -> validate -> step."""
    game = SnakeGame(seed, "easy", max_decisions=max_decisions)
    while not game.over:
        question = game.question()
        verdict = validate(policy.act(question, None), question)
        assert verdict.usable, verdict.reason
        assert verdict.direction is not None
        game.step(verdict.direction)
    return game


def test_both_are_policies_with_an_identity() -> None:
    for policy, kind in ((RandomSnake(3), "baseline"), (HeuristicSnake(), "heuristic")):
        assert isinstance(policy, Policy)
        assert policy.kind == kind and policy.identity()["slug"] == policy.slug
    assert isinstance(make_policy("random", seed=1), RandomSnake)
    with pytest.raises(ValueError, match="heuristic"):
        make_policy("astar")


def test_random_never_picks_the_reversal_and_is_deterministic() -> None:
    game = SnakeGame(0)
    policy = RandomSnake(seed=5)
    picks = []
    for _ in range(30):
        if game.over:
            break
        question = game.question()
        answer = policy.act(question, None)
        assert isinstance(answer, SnakeAnswer)
        assert answer == RandomSnake(seed=5).act(question, None)  # stateless
        assert DIRECTION_NAMES.index(answer.action) != opposite(game.heading)
        picks.append(answer.action)
        game.step(answer.action)
    assert len(set(picks)) > 1


def test_random_depends_on_its_seed_and_the_decision() -> None:
    question = SnakeGame(0).question()
    by_seed = {RandomSnake(seed).act(question, None).action for seed in range(40)}
    assert by_seed == {"up", "right", "down"}  # heading right: left is never drawn
    by_decision = set()
    for decision in range(40):
        q = question.model_copy(update={"decision": decision})
        by_decision.add(RandomSnake(0).act(q, None).action)
    assert len(by_decision) == 3


def test_heuristic_goes_straight_for_safe_food() -> None:
    game = SnakeGame.from_position([(4, 4), (4, 3), (4, 2)], (4, 7), RIGHT)
    assert HeuristicSnake().act(game.question(), None).action == "right"
    game = SnakeGame.from_position([(4, 4), (4, 3), (4, 2)], (1, 4), RIGHT)
    assert HeuristicSnake().act(game.question(), None).action == "up"


def test_heuristic_does_not_walk_into_a_wall_or_itself() -> None:
    # the head in the top-left corner going up: only right is open
    game = SnakeGame.from_position([(0, 0), (1, 0), (2, 0)], (7, 7), UP)
    assert HeuristicSnake().act(game.question(), None).action == "right"


def test_heuristic_refuses_food_that_would_trap_it() -> None:
    # The food sits in the corner pocket (0, 0) walled in by the body: eating it would seal the
    # head in with the tail out of reach, so the planner follows its tail instead.
    snake = [(1, 0), (1, 1), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]
    direction, why = plan(8, 8, [r * 8 + c for r, c in snake], 0, LEFT)
    assert why == "tail" and direction != UP
    game = SnakeGame.from_position(snake, (0, 0), LEFT)
    assert HeuristicSnake().act(game.question(), None).action != "up"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_heuristic_fills_most_of_the_easy_board(seed: int) -> None:
    game = _play(HeuristicSnake(), seed, max_decisions=2000)
    assert game.end_reason in ("won", "decision cap")  # it never crashes
    assert game.length >= 0.8 * 64
