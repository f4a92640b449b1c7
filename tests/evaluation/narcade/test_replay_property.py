"""Property: whatever a policy answers (offered actions, garbage, errors), the episode's log
replays through `verify` to the very same game, in every game and mode."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.core.clock import SimulatedClock
from evaluation.benchmarks.narcade.episode import EpisodeConfig, play_narcade
from evaluation.benchmarks.narcade.results import EpisodeRecord
from evaluation.core.verify import verify_log
from policies.base import DecisionContext, PolicyIdentity

Move = int | str | None
"""An index into the offered actions, a raw answer, or None for a crash."""


class Scripted(PolicyIdentity):
    """Plays a scripted list of moves, then the first offered action."""

    def __init__(self, moves: list[Move]) -> None:
        super().__init__(slug="scripted", name="scripted", description="test", kind="baseline")
        self.moves = list(moves)

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        move = self.moves.pop(0) if self.moves else 0
        if move is None:
            raise RuntimeError("crash")
        if isinstance(move, str):
            return move
        return {"action": question.actions[move % len(question.actions)]}


moves = st.lists(
    st.one_of(
        st.integers(0, 40),
        st.sampled_from(["", "{}", "up", "reveal 0 0", "left", "nonsense"]),
        st.none(),
    ),
    max_size=30,
)


@settings(max_examples=20, deadline=None)
@given(
    game=st.sampled_from(["minesweeper", "snake", "tetris"]),
    mode=st.sampled_from(["lockstep", "realtime"]),
    script=moves,
    seed=st.integers(0, 10_000),
    latency=st.integers(0, 2_000),
)
def test_any_answers_replay_to_the_same_game(
    game: str, mode: str, script: list[Move], seed: int, latency: int
) -> None:
    mode = "turn-based" if game == "minesweeper" else mode
    config = EpisodeConfig(
        game=game, mode=mode, difficulty="easy", max_decisions=25, failure_streak=3
    )
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "episode.jsonl"
        record: EpisodeRecord = play_narcade(
            Scripted(script), "py:scripted", config, seed, log, clock=SimulatedClock(latency)
        )
        report = verify_log(log)
        assert report.ok, report.message
        assert report.result is not None and report.result["score"] == record.score
        assert record.decisions <= 25
