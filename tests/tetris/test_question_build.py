"""`TetrisGame.question` builds its candidates without pydantic validation (they are the engine's
own output): they must still be exactly what validation gives, types included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris.contract import AgentInput, BoardFeatures, Candidate, Placement
from arcade_gym.tetris.game import TetrisGame


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**62), st.lists(st.integers(0, 10**6), max_size=30), st.booleans())
def test_questions_equal_their_validated_round_trip(seed, picks, blitz) -> None:
    game = TetrisGame(seed)
    for pick in [*picks, 0]:
        if game.over:
            break
        question = game.question("Blitz" if blitz else "IQ")
        wire = question.to_json()
        again = AgentInput.model_validate_json(wire)
        assert again == question
        assert again.to_json() == wire
        for built, validated in zip(question.candidates, again.candidates, strict=True):
            assert type(built) is Candidate and type(built.placement) is Placement
            assert type(built.features) is BoardFeatures
            assert built.model_dump() == validated.model_dump()
            assert all(type(v) is int for v in built.features.heights)
            assert type(built.top_out) is bool and type(built.score_delta) is int
        assert len(set(question.legal)) == len(question.legal)  # placements stay hashable
        x, r = game.legal_placements()[pick % game.n_candidates]
        game.play(x, r)
