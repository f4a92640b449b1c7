"""The weak rungs' move rules and their policies."""

from __future__ import annotations

import chess
import pytest

from arcade_gym.chess.contract import make_question
from arcade_gym.chess.opponents import (
    GreedyRule,
    Material2PlyRule,
    RandomRule,
    captured_value,
    make_rule,
    material,
)
from policies.base import DecisionContext, Policy
from policies.chess import BUILTINS


def test_greedy_takes_the_most_valuable_piece() -> None:
    board = chess.Board("4k3/8/3q1p2/8/4N3/8/8/4K3 w - - 0 1")
    assert GreedyRule(0).choose(board).uci() == "e4d6"


def test_greedy_moves_at_random_without_captures() -> None:
    board = chess.Board()
    choices = {GreedyRule(seed).choose(board) for seed in range(30)}
    assert len(choices) > 5


def test_en_passant_counts_as_a_pawn() -> None:
    board = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert captured_value(board, chess.Move.from_uci("e5d6")) == 1


def test_material_2ply_mates_in_one_and_keeps_its_queen() -> None:
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert Material2PlyRule(0).choose(mate).uci() == "a1a8"
    hanging = chess.Board("4k3/8/8/8/3q4/8/3Q4/4K3 b - - 0 1")  # Qxd2+ wins the queen
    assert Material2PlyRule(0).choose(hanging).uci() == "d4d2"


def test_material_counts_from_the_given_side() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    assert material(board, chess.WHITE) == 9 and material(board, chess.BLACK) == -9


@pytest.mark.parametrize("rule", [RandomRule, GreedyRule, Material2PlyRule])
def test_rules_refuse_a_finished_game(rule: type) -> None:
    with pytest.raises(ValueError, match="game is over"):
        rule(0).choose(chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"))


def test_make_rule_names_the_rungs() -> None:
    with pytest.raises(ValueError, match="material-2ply"):
        make_rule("stockfish")


def test_builtins_are_policies_whose_answers_depend_only_on_seed_and_question() -> None:
    board = chess.Board()
    board.push_san("e4")
    question = make_question(board, "standard")
    for name, factory in BUILTINS.items():
        policy = factory("s")
        assert isinstance(policy, Policy) and policy.slug == name
        first = policy.act(question, DecisionContext())
        assert factory("s").act(question, DecisionContext()) == first
        assert chess.Move.from_uci(first.move) in question.board_now().legal_moves
