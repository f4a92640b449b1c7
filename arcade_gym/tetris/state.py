"""What a Tetris game shows: its arrays, their readouts, its candidates, and gravity.

The base of `TetrisGame` (`game.py`, which adds the moves). Kept apart so that the rules built on
a game's state (the Blitz resolution in `blitz.py`, the question in `question.py`) read it without
importing the game class that calls them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arcade_gym.tetris import candidates as C
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.rules import (
    END_NONE,
    END_REASONS,
    PREVIEW,
    SCORING_CLASSIC,
    gravity_interval_ms,
)


class TetrisState:
    """The engine's arrays of one game (`board`, `st`, `seq`, the candidate tables `cinfo` and
    `cfeat`) and what can be read off them; `refresh` recomputes the candidates and `fall` lets
    gravity act, the two changes every rule on top of the state needs."""

    seed: Any
    scoring: str
    difficulty: str
    board: np.ndarray
    st: np.ndarray
    seq: np.ndarray
    cinfo: np.ndarray
    cfeat: np.ndarray

    def refresh(self) -> int:
        """Recompute the candidates of the active piece from where it is now."""
        if self.st[E.S_END] != END_NONE:
            self.st[E.S_NCAND] = 0
            return 0
        work, visited = C.scratch()
        return int(
            C.generate_candidates_into(
                self.board, self.st, self.seq, self.cinfo, self.cfeat, work, visited
            )
        )

    # --- state --------------------------------------------------------------------------------
    @property
    def active(self) -> tuple[int, int, int, int]:
        """`(type, x, y, rotation)` of the piece in play."""
        st = self.st
        return int(st[E.S_ACTIVE]), int(st[E.S_X]), int(st[E.S_Y]), int(st[E.S_ROT])

    @property
    def hold_piece(self) -> int | None:
        h = int(self.st[E.S_HOLD])
        return None if h < 0 else h

    @property
    def can_hold(self) -> bool:
        return bool(self.st[E.S_CAN_HOLD])

    @property
    def next_pieces(self) -> list[int]:
        """The preview (five piece types)."""
        q = int(self.st[E.S_QPOS])
        return [int(p) for p in self.seq[q : q + PREVIEW]]

    @property
    def score(self) -> int:
        return int(self.st[E.S_SCORE])

    @property
    def lines(self) -> int:
        return int(self.st[E.S_LINES])

    @property
    def level(self) -> int:
        return int(self.st[E.S_LEVEL])

    @property
    def pieces(self) -> int:
        return int(self.st[E.S_PIECES])

    @property
    def combo(self) -> int:
        return int(self.st[E.S_COMBO])

    @property
    def back_to_back(self) -> bool:
        return bool(self.st[E.S_B2B])

    @property
    def tick(self) -> int:
        return int(self.st[E.S_TICK])

    @property
    def over(self) -> bool:
        return int(self.st[E.S_END]) != END_NONE

    @property
    def end_reason(self) -> str | None:
        """`None` while playing, else `top-out`, `piece cap`, `tick cap` or `adapter failure`."""
        return END_REASONS[int(self.st[E.S_END])]

    def state_hash(self) -> str:
        """8 lowercase hex digits over the whole state, the tick included."""
        return f"{int(E.state_hash(self.board, self.st, self.seq)):08x}"

    def features(self) -> np.ndarray:
        """Board features now: 10 heights then `rules.FEATURE_NAMES`."""
        out = np.zeros(E.FEATURES_LEN, np.int64)
        E.board_features(self.board, out)
        return out

    def gravity_ms(self) -> int:
        """Milliseconds per gravity row at the current level."""
        level = self.level + 1 if self.st[E.S_SCORING] == SCORING_CLASSIC else self.level
        return gravity_interval_ms(level)

    # --- candidates ---------------------------------------------------------------------------
    @property
    def n_candidates(self) -> int:
        return int(self.st[E.S_NCAND])

    def candidate_rows(self) -> np.ndarray:
        """The candidate table (`engine.C_*` columns), canonical order."""
        return self.cinfo[: self.n_candidates]

    def candidate_features(self) -> np.ndarray:
        """Afterstate features of each candidate (10 heights then `rules.FEATURE_NAMES`)."""
        return self.cfeat[: self.n_candidates]

    def legal_placements(self) -> list[tuple[int, int]]:
        """`(x, rotation)` of every listed candidate, canonical order."""
        rows = self.candidate_rows()
        return [(int(x), int(r)) for x, r in rows[:, [E.C_X, E.C_ROT]]]

    def candidate_index(self, x: int, rotation: int) -> int | None:
        """Row of placement `(x, rotation)` in the candidate table, or None if not listed."""
        rows = self.candidate_rows()
        hits = np.flatnonzero((rows[:, E.C_X] == x) & (rows[:, E.C_ROT] == rotation))
        return int(hits[0]) if hits.size else None

    def afterstate(self, index: int) -> np.ndarray:
        """The board after playing candidate `index` (locked and cleared)."""
        row = self.cinfo[index]
        out = self.board.copy()
        E.lock_cells(out, self.st[E.S_ACTIVE], row[E.C_X], row[E.C_Y_LAND], row[E.C_ROT])
        E.clear_lines(out)
        return out

    def _require_playing(self) -> None:
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")

    # --- gravity ---
    def fall(self, elapsed_ms: float) -> tuple[int, bool]:
        """Let gravity act for `elapsed_ms`. Returns `(rows fallen, locked)`.

        A gravity step that finds the piece resting locks it (no lock delay); the candidates are
        refreshed for whatever piece is in play afterwards.
        """
        self._require_playing()
        if not elapsed_ms >= 0:
            raise ValueError(f"elapsed time must be >= 0 ms, got {elapsed_ms!r}")
        interval = self.gravity_ms()
        total = float(self.st[E.S_GRAVITY_MS]) + float(elapsed_ms)
        steps = int(total // interval)
        t, x, y, r = self.active
        room = int(E.drop_distance(self.board, t, x, y, r))
        locked = bool(E.gravity_rows(self.board, self.st, self.seq, steps))
        if not locked:
            self.st[E.S_GRAVITY_MS] = int(total - steps * interval)
        self.refresh()
        return min(steps, room), locked
