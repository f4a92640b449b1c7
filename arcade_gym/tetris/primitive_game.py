"""NARCADE Tetris with primitive controls: one control per decision, lockstep or realtime.

The game wraps `TetrisGame` (same engine, pieces, SRS and gravity) with classic line-clear scoring
and the difficulty's start level (`docs/rules/tetris.md`, "Primitive controls"):

- lockstep (`step`): the control, then one gravity row (`engine.primitive_step`); a hard drop locks
  at once. Inference latency never moves the piece.
- realtime (`step_realtime`): gravity first acts for the time the policy thought (`fall`); when
  the piece the question was about has locked meanwhile, the answer is discarded. Otherwise the
  control is applied on its own (gravity is the clock's job, not the control's).

Every decision counts one engine tick, so `decisions`, the question's `decision` index and the
decision cap all read the tick counter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame, seed_to_u64
from arcade_gym.tetris.primitive_contract import (
    CONTROLS,
    RULES_VERSION,
    FallingPiece,
    PieceCell,
    TetrisControlQuestion,
    control_order,
    piece_letter,
)
from arcade_gym.tetris.rules import (
    CLASSIC_START_LEVEL,
    DROP_POINTS_PER_ROW,
    END_REASONS,
    END_TICK_CAP,
    SCORING_CLASSIC,
    SHAPES,
)

MAX_DECISIONS = 2000
"""NARCADE's `--max-decisions` default; a capped game is not a win."""

UNCAPPED_PIECES = 100_000
"""Piece cap used when neither pieces nor decisions are capped (the sequence must be finite)."""

UNCAPPED_TICKS = 2**62
"""Tick cap of a game without a decision cap (`max_decisions=0`)."""

NO_CONTROL = -1
"""`engine.primitive_step` control index that does nothing (a bad answer: gravity only)."""


@dataclass(frozen=True)
class RealtimeOutcome:
    """What one realtime decision did: gravity's rows, whether it locked the asked-about piece,
    and whether the answer was applied or discarded (its piece had locked)."""

    rows_fallen: int
    locked_by_gravity: bool
    applied: bool
    discarded: bool
    score_delta: int


def control_index(control: int | str | None) -> int:
    """Engine index of a control name or index; None is "no control" (`NO_CONTROL`)."""
    if control is None:
        return NO_CONTROL
    if isinstance(control, str):
        if control not in CONTROLS:
            raise ValueError(f"control must be one of {CONTROLS}, got {control!r}")
        return CONTROLS.index(control)
    if isinstance(control, bool) or not isinstance(control, int | np.integer):
        raise ValueError(f"control must be a name, an index in [0, 6) or None, got {control!r}")
    if not 0 <= int(control) < len(CONTROLS):
        raise ValueError(f"control index {int(control)} is out of range [0, {len(CONTROLS)})")
    return int(control)


class TetrisControlGame:
    """One NARCADE Tetris game with the six primitive controls.

    `max_pieces` (None: uncapped) and `max_decisions` (0: uncapped) end the game with `piece cap`
    and `decision cap`; `end_time_cap()` lets a runner stop it on `--max-seconds`.
    """

    def __init__(
        self,
        seed: str | int,
        difficulty: str = "easy",
        *,
        max_pieces: int | None = None,
        max_decisions: int = MAX_DECISIONS,
        scoring: str = "classic",
    ) -> None:
        if difficulty not in CLASSIC_START_LEVEL:
            raise ValueError(
                f"difficulty must be one of {list(CLASSIC_START_LEVEL)}, got {difficulty!r}"
            )
        if max_decisions < 0 or (max_pieces is not None and max_pieces < 1):
            raise ValueError("max_decisions must be >= 0 (0: no cap) and max_pieces >= 1 or None")
        if max_pieces is None:
            # At most one piece locks per decision, so the decision cap bounds the sequence.
            max_pieces = 2 * max_decisions + 16 if max_decisions else UNCAPPED_PIECES
        self.seed = seed
        self.seed_u64 = seed_to_u64(seed)
        self.difficulty = difficulty
        self.max_decisions = max_decisions
        self.game = TetrisGame(
            seed,
            scoring=scoring,
            difficulty=difficulty,
            piece_cap=max_pieces,
            tick_cap=max_decisions if max_decisions else UNCAPPED_TICKS,
            candidates=False,
        )
        self._forced_end: str | None = None

    @classmethod
    def wrapping(cls, game: TetrisGame) -> TetrisControlGame:
        """A control game over `game` itself (not a copy): what `TetrisPrimitive-v3`, which keeps a
        `TetrisGame` of classic or guideline scoring, plays (`TetrisPrimitiveEnv.as_game`)."""
        control = object.__new__(cls)
        control.seed = game.seed
        control.seed_u64 = seed_to_u64(game.seed)
        control.difficulty = game.difficulty
        tick_cap = int(game.st[E.S_TICK_CAP])
        control.max_decisions = tick_cap if tick_cap < UNCAPPED_TICKS else 0
        control.game = game
        control._forced_end = None
        return control

    # --- state --------------------------------------------------------------------------------
    @property
    def score(self) -> int:
        return self.game.score

    @property
    def lines(self) -> int:
        return self.game.lines

    @property
    def level(self) -> int:
        return self.game.level

    @property
    def pieces(self) -> int:
        """Pieces locked so far (also the number of the falling piece)."""
        return self.game.pieces

    @property
    def decisions(self) -> int:
        """Decisions made so far (the index of the next one)."""
        return self.game.tick

    @property
    def over(self) -> bool:
        return self._forced_end is not None or self.game.over

    @property
    def end_reason(self) -> str | None:
        """None while playing, else `top-out`, `piece cap`, `decision cap` or `time cap`."""
        if self._forced_end is not None:
            return self._forced_end
        end = int(self.game.st[E.S_END])
        return "decision cap" if end == END_TICK_CAP else END_REASONS[end]

    def gravity_ms(self) -> int:
        """Milliseconds per gravity row at the current level."""
        return self.game.gravity_ms()

    def state_hash(self) -> str:
        """8 lowercase hex digits over the whole state, the decision counter included."""
        return self.game.state_hash()

    def piece_cells(self) -> list[tuple[int, int]]:
        """`(row, col)` of the falling piece's four cells."""
        t, x, y, r = self.game.active
        return [(y + int(dy), x + int(dx)) for dx, dy in SHAPES[t, r]]

    def board_rows(self) -> list[str]:
        """The locked stack as 20 strings of `#` (filled) and `.` (empty), top row first."""
        return ["".join("#" if v else "." for v in row) for row in self.game.board.tolist()]

    def end_time_cap(self) -> None:
        """Stop the game from outside because its time budget ran out (not a win)."""
        if not self.over:
            self._forced_end = "time cap"

    def _require_playing(self) -> None:
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")

    # --- the question -------------------------------------------------------------------------
    def question(self) -> TetrisControlQuestion:
        """The NARCADE question for the next decision."""
        self._require_playing()
        game = self.game
        t, x, y, r = game.active
        return TetrisControlQuestion(
            rules_version=RULES_VERSION,
            difficulty=self.difficulty,
            decision=self.decisions,
            state_hash=self.state_hash(),
            board=self.board_rows(),
            piece=FallingPiece(
                type=piece_letter(t),
                x=x,
                y=y,
                rotation=r,
                cells=[PieceCell(row=row, col=col) for row, col in self.piece_cells()],
            ),
            next=[piece_letter(p) for p in game.next_pieces],
            score=game.score,
            lines=game.lines,
            level=game.level,
            pieces=game.pieces,
            gravity_ms=self.gravity_ms(),
            actions=control_order(self.seed_u64, self.decisions),
        )

    # --- moves --------------------------------------------------------------------------------
    def step(self, control: int | str | None) -> int:
        """Lockstep: apply `control` (None: none, a bad answer) then one gravity row; a hard drop
        locks at once. Returns the score delta."""
        self._require_playing()
        game = self.game
        return int(E.primitive_step(game.board, game.st, game.seq, control_index(control)))

    # --- the `Game` protocol (`arcade_gym/core/game.py`), in `TetrisPrimitive-v3`'s indices ----
    def legal_action_indices(self) -> list[int]:
        """All six controls while the game is on (a blocked move does nothing), as the env's mask
        says; none once it is over."""
        return [] if self.over else list(range(len(CONTROLS)))

    def apply_action(self, action: int) -> int:
        """A lockstep decision on control index `action` (`step`); returns the score delta."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"action must be a control index in [0, {len(CONTROLS)})")
        return self.step(int(action))

    def step_realtime(self, control: int | str | None, elapsed_ms: float) -> RealtimeOutcome:
        """Realtime: gravity acts for the `elapsed_ms` the policy thought, then `control` is
        applied unless the piece it was asked about has locked meanwhile (then it is discarded)."""
        self._require_playing()
        index = control_index(control)
        game = self.game
        score_before = game.score
        rows, locked = game.fall(elapsed_ms)
        applied = False
        if not locked and not game.over and index != NO_CONTROL:
            self._apply_control(index)
            applied = True
        E.end_tick(game.st)
        return RealtimeOutcome(
            rows_fallen=rows,
            locked_by_gravity=locked,
            applied=applied,
            discarded=locked and index != NO_CONTROL,
            score_delta=game.score - score_before,
        )

    def _apply_control(self, control: int) -> None:
        """One control without gravity, with the same kernels and rules as `primitive_step`."""
        game = self.game
        board, st = game.board, game.st
        t, x, y, r = game.active
        if control in (E.LEFT, E.RIGHT):
            nx = x - 1 if control == E.LEFT else x + 1
            if not E.collides(board, t, nx, y, r):
                st[E.S_X] = nx
                st[E.S_LAST_ROT] = 0
        elif control in (E.ROTATE_CW, E.ROTATE_CCW):
            ok, nx, ny, nr, kick = E.try_rotate(
                board, t, x, y, r, 0 if control == E.ROTATE_CW else 1
            )
            if ok:
                st[E.S_X], st[E.S_Y], st[E.S_ROT] = nx, ny, nr
                st[E.S_LAST_ROT] = 1
                st[E.S_LAST_KICK] = kick
        elif control == E.SOFT_DROP:
            if not E.collides(board, t, x, y + 1, r):
                st[E.S_Y] = y + 1
                st[E.S_LAST_ROT] = 0
                if st[E.S_SCORING] != SCORING_CLASSIC:
                    st[E.S_SCORE] += 1
        elif control == E.HARD_DROP:
            rows = int(E.drop_distance(board, t, x, y, r))
            if rows > 0:
                st[E.S_Y] = y + rows
                st[E.S_LAST_ROT] = 0
            drop = 0 if st[E.S_SCORING] == SCORING_CLASSIC else DROP_POINTS_PER_ROW * rows
            E.lock_active(board, st, game.seq, drop)
