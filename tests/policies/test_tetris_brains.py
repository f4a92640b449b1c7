"""The Tetris brains: valid, deterministic answers; the heuristic's hole and hold discipline; short
games that do not top out."""

from __future__ import annotations

from pathlib import Path

import pytest

from arcade_gym.tetris.contract import AgentInput, validate
from arcade_gym.tetris.game import TetrisGame
from evaluation.benchmarks.tetris_bench.episode import play_tetris
from policies.base import DecisionContext, Policy
from policies.tetris import HeuristicBrain, RandomBrain, SearchBrain, make_brain, warmup

SEEDS = ("seed-01", "seed-07", "brains-a", "brains-b")
CTX = DecisionContext.with_budget(20_000)


def _reversed(question: AgentInput) -> AgentInput:
    """The same question with the candidate list (and `legal`) in the opposite order."""
    return question.model_copy(
        update={"candidates": question.candidates[::-1], "legal": question.legal[::-1]}
    )


def _questions(seed: str, moves: int, every: int) -> list[AgentInput]:
    """Questions from a real game (played by the heuristic) at every `every`-th tick."""
    game = TetrisGame(seed)
    brain = HeuristicBrain()
    out = []
    for tick in range(moves):
        question = game.question()
        if tick % every == 0:
            out.append(question)
        verdict = validate(brain.act(question, CTX), question)
        assert verdict.usable and verdict.placement is not None
        if verdict.hold:
            game.hold()
        else:
            game.play(verdict.placement.x, verdict.placement.rotation)
    return out


@pytest.fixture(scope="module")
def questions() -> list[AgentInput]:
    return [q for seed in SEEDS for q in _questions(seed, 60, 6)]


@pytest.fixture(scope="module")
def messy_questions() -> list[AgentInput]:
    """Every question of random play up to its top-out: holes, tall stacks, few candidates."""
    out = []
    for seed in ("messy-a", "messy-b"):
        game = TetrisGame(seed)
        brain = RandomBrain(1)
        while not game.over:
            question = game.question()
            out.append(question)
            verdict = validate(brain.act(question, CTX), question)
            assert verdict.placement is not None
            game.play(verdict.placement.x, verdict.placement.rotation)
    return out


@pytest.fixture(scope="module")
def brains() -> list[Policy]:
    return [RandomBrain(3), HeuristicBrain(), SearchBrain(beam_width=40, depth=4)]


def test_every_brain_answers_validly_on_real_questions(
    brains: list[Policy], questions: list[AgentInput]
) -> None:
    for brain in brains:
        for question in questions:
            verdict = validate(brain.act(question, CTX), question)
            assert verdict.status == "valid", (brain.slug, verdict.reason)
            assert verdict.risk is not None and 0.0 <= verdict.risk <= 1.0


def test_every_brain_answers_validly_on_messy_boards_up_to_the_top_out(
    brains: list[Policy], messy_questions: list[AgentInput]
) -> None:
    for brain in brains:
        for question in messy_questions:
            verdict = validate(brain.act(question, CTX), question)
            assert verdict.status == "valid", (brain.slug, verdict.reason)


def test_heuristic_and_search_play_the_same_move_whatever_the_candidate_order(
    questions: list[AgentInput], messy_questions: list[AgentInput]
) -> None:
    for brain in (HeuristicBrain(), SearchBrain(beam_width=40, depth=4)):
        for question in questions[::3] + messy_questions[::3]:
            a = validate(brain.act(question, CTX), question)
            b = validate(brain.act(_reversed(question), CTX), question)
            assert (a.placement, a.hold) == (b.placement, b.hold), brain.slug


def test_every_brain_answers_validly_for_a_piece_gravity_has_moved() -> None:
    game = TetrisGame("blitz-a")
    for brain in (RandomBrain(), HeuristicBrain(), SearchBrain(beam_width=40, depth=4)):
        for _ in range(8):
            rows, locked = game.fall(2_500.0)
            if locked:
                continue
            question = game.question("Blitz")
            assert question.active.y > -1 or rows == 0
            verdict = validate(brain.act(question, DecisionContext()), question)
            assert verdict.usable and verdict.placement is not None, brain.slug
            if verdict.hold:
                game.hold()
            else:
                game.play(verdict.placement.x, verdict.placement.rotation)


def test_every_brain_gives_the_same_answer_to_the_same_question(
    brains: list[Policy], questions: list[AgentInput]
) -> None:
    for brain in brains:
        for question in questions[::4]:
            assert brain.act(question, CTX) == brain.act(question, CTX), brain.slug


def test_heuristic_and_search_give_a_distribution_over_every_listed_placement(
    questions: list[AgentInput],
) -> None:
    for brain in (HeuristicBrain(), SearchBrain(beam_width=40, depth=4)):
        for question in questions[::5]:
            answer = brain.act(question, CTX)
            listed = {(p.x, p.rotation) for p in question.legal}
            assert {(c.x, c.rotation) for c in answer.choice} == listed
            assert abs(sum(c.p for c in answer.choice) - 1.0) <= 1e-9


def test_brain_identities_and_factory() -> None:
    for slug, kind in (("random", "baseline"), ("heuristic", "heuristic"), ("search", "search")):
        brain = make_brain(slug)
        assert isinstance(brain, Policy)
        assert (brain.slug, brain.kind) == (slug, kind)
        assert brain.identity()["adapterVersion"] == brain.adapter_version
    with pytest.raises(ValueError, match="unknown Tetris brain"):
        make_brain("oracle")
    assert warmup() >= 0.0


# --- random -----------------------------------------------------------------------------------


def test_random_is_deterministic_per_seed_and_state_hash(questions: list[AgentInput]) -> None:
    for question in questions:
        assert RandomBrain(5).act(question, CTX) == RandomBrain(5).act(question, CTX)


def test_random_covers_different_candidates() -> None:
    question = TetrisGame("seed-01").question()
    picks = {
        (a.choice[0].x, a.choice[0].rotation)
        for a in (RandomBrain(seed).act(question, CTX) for seed in range(60))
    }
    assert len(picks) >= len(question.legal) // 2
    assert len(picks) > 3


def test_random_pick_depends_on_the_state_hash(questions: list[AgentInput]) -> None:
    brain = RandomBrain(0)
    indices = set()
    for question in questions:
        choice = brain.act(question, CTX).choice[0]
        placements = [(p.x, p.rotation) for p in question.legal]
        indices.add(placements.index((choice.x, choice.rotation)))
    assert len(indices) > 3


# --- heuristic --------------------------------------------------------------------------------

HOLE_POSITIONS = [
    (["..........", "#.........", "##...#..##", "###.####.#"], "S", "ZOTLJ"),
    (["..........", "......#...", "##..####..", "##.#####.#"], "Z", "SOTLJ"),
    (["....#.....", "#...##...#", "##.#####.#", "#########."], "O", "TSZLJ"),
    (["#.........", "##.....#..", "###.#..###", "####.#####"], "T", "LOSZJ"),
    ([".........#", ".##.....##", "####.#.###", "####.#####"], "L", "JOSZT"),
    (["..#.......", "..##...#..", "#.###.####", "#########."], "J", "LOSZT"),
]


@pytest.mark.parametrize(("rows", "active", "preview"), HOLE_POSITIONS)
@pytest.mark.parametrize("reverse", [False, True])
def test_heuristic_never_adds_a_hole_when_a_clean_placement_exists(
    rows: list[str], active: str, preview: str, reverse: bool
) -> None:
    question = TetrisGame.from_position(rows, active, preview, can_hold=False).question()
    if reverse:
        question = _reversed(question)
    holes_now = question.features.holes
    clean = [c for c in question.candidates if c.features.holes <= holes_now]
    assert clean, "the position must offer a hole-free placement"
    assert len(clean) < len(question.candidates), "and placements that add holes"
    verdict = validate(HeuristicBrain().act(question, CTX), question)
    assert verdict.placement is not None
    played = next(c for c in question.candidates if c.placement == verdict.placement)
    assert played.features.holes <= holes_now


@pytest.mark.parametrize("reverse", [False, True])
def test_heuristic_holds_for_the_i_when_the_active_piece_only_makes_holes(reverse: bool) -> None:
    rows = ["#########."] * 4
    question = TetrisGame.from_position(rows, "S", "TOLJZ", hold="I").question()
    if reverse:
        question = _reversed(question)
    assert all(c.features.holes > 0 or c.lines_cleared for c in question.candidates)
    verdict = validate(HeuristicBrain().act(question, CTX), question)
    assert verdict.usable and verdict.hold


def test_heuristic_does_not_hold_when_the_active_piece_fits() -> None:
    rows = ["#########."] * 4
    question = TetrisGame.from_position(rows, "I", "TOLJZ", hold="S").question()
    verdict = validate(HeuristicBrain().act(question, CTX), question)
    assert verdict.usable and not verdict.hold
    played = next(c for c in question.candidates if c.placement == verdict.placement)
    assert played.lines_cleared == 4


def test_heuristic_plays_100_pieces_without_topping_out(tmp_path: Path) -> None:
    game = play_tetris(HeuristicBrain(), "seed-05", "IQ", tmp_path / "g.jsonl", piece_cap=100)
    assert (game.pieces, game.end_reason) == (100, "piece cap")
    assert game.lines >= 30 and game.score > 0


# --- search -----------------------------------------------------------------------------------


def test_search_takes_the_tetris_with_the_i_in_play() -> None:
    rows = ["#########."] * 4
    question = TetrisGame.from_position(rows, "I", "TOLJZ").question()
    verdict = validate(SearchBrain(beam_width=40, depth=3).act(question, CTX), question)
    assert verdict.usable and not verdict.hold
    played = next(c for c in question.candidates if c.placement == verdict.placement)
    assert played.lines_cleared == 4


def test_search_saves_a_held_i_for_the_tetris() -> None:
    rows = ["#########."] * 4
    question = TetrisGame.from_position(rows, "S", "TOLJZ", hold="I").question()
    verdict = validate(SearchBrain(beam_width=40, depth=3).act(question, CTX), question)
    assert verdict.usable and verdict.hold


def _play(question: AgentInput, brain: Policy) -> TetrisGame:
    """The position after the brain's answer to `question` is played."""
    game = TetrisGame.from_question(question)
    verdict = validate(brain.act(question, CTX), question)
    assert verdict.usable and verdict.placement is not None
    if verdict.hold:
        game.hold()
    else:
        game.play(verdict.placement.x, verdict.placement.rotation)
    return game


def test_search_takes_a_perfect_clear_in_reach() -> None:
    question = TetrisGame.from_position(["########..", "########.."], "O", "TIJLS").question()
    game = _play(question, SearchBrain(beam_width=40))
    assert game.lines == 2 and not game.board.any()


def test_search_plans_a_perfect_clear_over_several_pieces() -> None:
    game = TetrisGame.from_position([], "O", "OOOOO", can_hold=False)
    brain = SearchBrain(beam_width=40)
    for _ in range(5):
        game = _play(game.question(), brain)
    assert game.lines == 2 and not game.board.any()


def test_search_answers_from_the_first_ply_when_out_of_time(questions: list[AgentInput]) -> None:
    late = DecisionContext.with_budget(0.0)
    for question in questions[:5]:
        verdict = validate(SearchBrain().act(question, late), question)
        assert verdict.usable


def test_search_plays_100_pieces_with_tetrises_and_without_topping_out(tmp_path: Path) -> None:
    brain = SearchBrain(beam_width=60, depth=4)
    game = play_tetris(brain, "brains-c", "IQ", tmp_path / "g.jsonl", piece_cap=100)
    assert (game.pieces, game.end_reason) == (100, "piece cap")
    lines, score = game.lines, game.score
    assert lines >= 28
    assert score > 800 * 4  # more than the same lines as singles could give
