"""A Tetris game as a small object over the engine's arrays: seed, play, hold, Blitz, questions.

What the game shows (readouts, candidates, gravity) is its base `state.TetrisState`; the Blitz
rule is `blitz.py` and the question builder `question.py`, which the moves here call
(`BlitzOutcome` and `BlitzResult` are still importable from here).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.blitz import BlitzOutcome as BlitzOutcome  # re-exported for callers
from arcade_gym.tetris.blitz import BlitzResult, resolve_blitz
from arcade_gym.tetris.contract import AgentInput
from arcade_gym.tetris.question import build_question
from arcade_gym.tetris.rules import (
    CLASSIC_START_LEVEL,
    EMPTY_HOLD,
    END_ADAPTER_FAILURE,
    END_NONE,
    HOLD_ACTION,
    PIECE_CAP,
    PIECE_LETTERS,
    PREVIEW,
    SCORING_MODES,
    TICK_CAP,
)
from arcade_gym.tetris.state import TetrisState


class TetrisGame(TetrisState):
    """One game: the board, the piece sequence, hold, score; the candidates of the active piece.

    `scoring` is `"guideline"` (tetris-bench@3) or `"classic"` (NARCADE, level from
    `difficulty`). The candidates are refreshed after every change, in canonical (rotation, x)
    order; questions shuffle them. `candidates=False` leaves them unlisted until a `refresh()`:
    the primitive-control games never read them, so they never compile the candidate search.
    """

    def __init__(
        self,
        seed: str | int,
        *,
        scoring: str = "guideline",
        difficulty: str = "easy",
        piece_cap: int = PIECE_CAP,
        tick_cap: int = TICK_CAP,
        candidates: bool = True,
    ) -> None:
        if scoring not in SCORING_MODES:
            raise ValueError(f"scoring must be one of {sorted(SCORING_MODES)}, got {scoring!r}")
        if difficulty not in CLASSIC_START_LEVEL:
            raise ValueError(
                f"difficulty must be one of {list(CLASSIC_START_LEVEL)}, got {difficulty!r}"
            )
        if piece_cap < 1 or tick_cap < 1:
            raise ValueError("piece_cap and tick_cap must be >= 1")
        self.seed = seed
        self.scoring = scoring
        self.difficulty = difficulty
        self.board = np.zeros((E.H, E.W), np.uint8)
        self.st = np.zeros(E.STATE_LEN, np.int64)
        self.seq = np.zeros(piece_cap + 2 * PREVIEW + 16, np.int8)
        self.cinfo = np.zeros((E.MAX_CANDIDATES, E.CINFO_LEN), np.int64)
        self.cfeat = np.zeros((E.MAX_CANDIDATES, E.FEATURES_LEN), np.int64)
        E.new_game(
            np.uint64(seed_to_u64(seed)),
            self.board,
            self.st,
            self.seq,
            SCORING_MODES[scoring],
            CLASSIC_START_LEVEL[difficulty],
            piece_cap,
            tick_cap,
        )
        if candidates:
            self.refresh()

    # --- construction for fixtures and search ---------------------------------------------------
    @classmethod
    def from_position(
        cls,
        rows: Sequence[str],
        active: str,
        next_pieces: str,
        *,
        hold: str | None = None,
        can_hold: bool = True,
        score: int = 0,
        lines: int = 0,
        pieces: int = 0,
        tick: int = 0,
        combo: int = -1,
        back_to_back: bool = False,
        seed: str = "position",
    ) -> TetrisGame:
        """A game set to a given position: `rows` are the bottom rows as `#`/`.` (or letters)."""
        game = cls(seed)
        game.board[:] = 0
        for i, row in enumerate(rows):
            r = E.H - len(rows) + i
            for c, ch in enumerate(row):
                if ch != ".":
                    game.board[r, c] = PIECE_LETTERS.index(ch) + 1 if ch in PIECE_LETTERS else 8
        game.board[game.board == 8] = PIECE_LETTERS.index("I") + 1
        queue = [PIECE_LETTERS.index(p) for p in next_pieces]
        game.seq[: len(queue)] = queue
        st = game.st
        st[E.S_QPOS] = 0
        st[E.S_HOLD] = EMPTY_HOLD if hold is None else PIECE_LETTERS.index(hold)
        st[E.S_SCORE] = score
        st[E.S_LINES] = lines
        st[E.S_LEVEL] = E.level_for(st[E.S_SCORING], st[E.S_START_LEVEL], lines)
        st[E.S_PIECES] = pieces
        st[E.S_TICK] = tick
        st[E.S_COMBO] = combo
        st[E.S_B2B] = int(back_to_back)
        st[E.S_END] = END_NONE
        E.spawn(game.board, st, PIECE_LETTERS.index(active))
        st[E.S_CAN_HOLD] = int(can_hold)
        game.refresh()
        return game

    @classmethod
    def from_question(cls, question: AgentInput) -> TetrisGame:
        """The position a question describes, as a game to search from.

        Pieces beyond the five-piece preview are unknown to a brain; they come from a seven-bag of
        a fixed seed, so a search should not look further than the preview.
        """
        game = cls("from-question")
        game.board[:] = [
            [0 if c is None else PIECE_LETTERS.index(c) + 1 for c in row] for row in question.grid
        ]
        queue = [PIECE_LETTERS.index(p) for p in question.next]
        game.seq[: len(queue)] = queue
        st = game.st
        st[E.S_QPOS] = 0
        st[E.S_HOLD] = EMPTY_HOLD if question.hold is None else PIECE_LETTERS.index(question.hold)
        st[E.S_SCORE] = question.score
        st[E.S_LINES] = question.lines
        st[E.S_LEVEL] = question.level
        st[E.S_PIECES] = question.pieces
        st[E.S_TICK] = question.tick
        st[E.S_COMBO] = question.combo
        st[E.S_B2B] = int(question.back_to_back)
        st[E.S_END] = END_NONE
        active = question.active
        E.spawn(game.board, st, PIECE_LETTERS.index(active.type))
        st[E.S_X], st[E.S_Y], st[E.S_ROT] = active.x, active.y, active.rotation
        st[E.S_CAN_HOLD] = int(question.can_hold)
        game.refresh()
        return game

    def copy(self) -> TetrisGame:
        """An independent copy (for lookahead search)."""
        other = object.__new__(TetrisGame)
        other.seed = self.seed
        other.scoring = self.scoring
        other.difficulty = self.difficulty
        for name in ("board", "st", "seq", "cinfo", "cfeat"):
            setattr(other, name, getattr(self, name).copy())
        return other

    # --- moves --------------------------------------------------------------------------------
    def play(self, x: int, rotation: int) -> int:
        """Hard-drop the active piece to a listed placement; one tick. Returns the score delta."""
        self._require_playing()
        index = self.candidate_index(x, rotation)
        if index is None:
            raise ValueError(f"placement (x={x}, rotation={rotation}) is not a listed candidate")
        delta = int(E.play_placement(self.board, self.st, self.seq, self.cinfo[index]))
        E.end_tick(self.st)
        self.refresh()
        return delta

    def hold(self) -> None:
        """Swap the active piece with the hold slot; one tick."""
        self._require_playing()
        if not self.can_hold:
            raise ValueError("hold is not available: the held piece has not locked yet")
        E.hold_piece(self.board, self.st, self.seq)
        E.end_tick(self.st)
        self.refresh()

    # --- the `Game` protocol (`arcade_gym/core/game.py`), in `Tetris-v3`'s action indices ------
    def legal_action_indices(self) -> list[int]:
        """The `Tetris-v3` indices legal now, ascending: each listed candidate's `C_ACTION` (the
        index the candidate search writes), and `HOLD_ACTION` while a hold is allowed."""
        if self.over:
            return []
        actions = set(self.candidate_rows()[:, E.C_ACTION].tolist())
        if self.can_hold:
            actions.add(HOLD_ACTION)
        return sorted(actions)

    def apply_action(self, action: int) -> int:
        """Play a `Tetris-v3` index as `Tetris-v3`'s IQ step does (the first listed candidate
        with that index, or hold); returns the score delta (0 for a hold)."""
        self._require_playing()
        if action == HOLD_ACTION:
            self.hold()
            return 0
        hits = np.flatnonzero(self.candidate_rows()[:, E.C_ACTION] == action)
        if not hits.size:
            raise ValueError(f"action {action} is not a listed candidate placement")
        row = self.cinfo[int(hits[0])]
        return self.play(int(row[E.C_X]), int(row[E.C_ROT]))

    def skip(self) -> None:
        """An unusable answer: the question is spent, nothing is played."""
        self._require_playing()
        E.end_tick(self.st)
        self.refresh()

    def end(self, reason: int = END_ADAPTER_FAILURE) -> None:
        """End the game from outside (the harness's adapter failure)."""
        self.st[E.S_END] = reason
        self.st[E.S_NCAND] = 0

    # --- Blitz --------------------------------------------------------------------------------
    def blitz_answer(
        self, placement: tuple[int, int] | None, hold: bool, elapsed_ms: float
    ) -> BlitzResult:
        """Resolve one Blitz question answered `elapsed_ms` after it was asked (one tick).

        Gravity acts first. A piece that locks meanwhile answered for itself. Otherwise a hold is
        done, or the chosen placement is played when it is still reachable from the new height and
        lands where the question disclosed; else it is unreachable and the next tick asks again.
        `placement=None` without a hold is an unusable answer (the piece just keeps falling).
        """
        self._require_playing()
        return resolve_blitz(self, placement, hold, elapsed_ms)

    # --- the question -------------------------------------------------------------------------
    def question(self, mode: str = "IQ") -> AgentInput:
        """The benchmark's `AgentInput`: state, features, and the shuffled candidates
        (`arcade_gym/tetris/question.py`)."""
        self._require_playing()
        return build_question(self, mode)
