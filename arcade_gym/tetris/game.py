"""A Tetris game as a small object over the engine's arrays: seed, play, hold, Blitz, questions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.tetris import candidates as C
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import (
    ActivePiece,
    AgentInput,
    BoardFeatures,
    Candidate,
    Placement,
)
from arcade_gym.tetris.render import grid_to_cells, grids_to_cells
from arcade_gym.tetris.rules import (
    CLASSIC_START_LEVEL,
    EMPTY_HOLD,
    END_ADAPTER_FAILURE,
    END_NONE,
    END_REASONS,
    HOLD_ACTION,
    PIECE_CAP,
    PIECE_LETTERS,
    PREVIEW,
    RULESET_ID,
    SCORING_CLASSIC,
    SCORING_MODES,
    TICK_CAP,
    gravity_interval_ms,
)

_ID_SALT = np.uint64(0xA24BAED4963EE407)


class BlitzOutcome(StrEnum):
    """How a Blitz question ended (`docs/rules/tetris.md`, "Blitz")."""

    IN_TIME = "in-time"
    LATE = "late"
    UNREACHABLE = "unreachable"
    LOCKED_BY_GRAVITY = "locked-by-gravity"
    HELD = "held"
    UNUSABLE = "unusable"


@dataclass(frozen=True)
class BlitzResult:
    """What gravity and the answer did to one Blitz question."""

    outcome: BlitzOutcome
    rows_fallen: int
    score_delta: int


class TetrisGame:
    """One game: the board, the piece sequence, hold, score; the candidates of the active piece.

    `scoring` is `"guideline"` (tetris-bench@3) or `"classic"` (NARCADE, level from
    `difficulty`). The candidates are refreshed after every change, in canonical (rotation, x)
    order; questions shuffle them.
    """

    def __init__(
        self,
        seed: str | int,
        *,
        scoring: str = "guideline",
        difficulty: str = "easy",
        piece_cap: int = PIECE_CAP,
        tick_cap: int = TICK_CAP,
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

    def refresh(self) -> int:
        """Recompute the candidates of the active piece from where it is now."""
        if self.st[E.S_END] != END_NONE:
            self.st[E.S_NCAND] = 0
            return 0
        return int(C.generate_candidates(self.board, self.st, self.seq, self.cinfo, self.cfeat))

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

    # --- moves --------------------------------------------------------------------------------
    def _require_playing(self) -> None:
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")

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
        disclosed: int | None = None
        if placement is not None:
            index = self.candidate_index(*placement)
            if index is None:
                raise ValueError(f"placement {placement} was not a listed candidate")
            disclosed = int(self.cinfo[index, E.C_Y_LAND])
        score_before = self.score
        rows, locked = self.fall(elapsed_ms)
        outcome: BlitzOutcome
        if locked:
            outcome = BlitzOutcome.LOCKED_BY_GRAVITY
        elif hold and self.can_hold:
            E.hold_piece(self.board, self.st, self.seq)
            outcome = BlitzOutcome.HELD
        elif placement is None:
            outcome = BlitzOutcome.UNUSABLE
        else:
            self.refresh()
            index = self.candidate_index(*placement)
            if index is None or int(self.cinfo[index, E.C_Y_LAND]) != disclosed:
                outcome = BlitzOutcome.UNREACHABLE
            else:
                E.play_placement(self.board, self.st, self.seq, self.cinfo[index])
                outcome = BlitzOutcome.IN_TIME if rows == 0 else BlitzOutcome.LATE
        E.end_tick(self.st)
        self.refresh()
        return BlitzResult(outcome, rows, self.score - score_before)

    # --- the question -------------------------------------------------------------------------
    def question(self, mode: str = "IQ") -> AgentInput:
        """The benchmark's `AgentInput`: state, features, and the shuffled candidates."""
        self._require_playing()
        state_hash = self.state_hash()
        h = np.uint64(int(state_hash, 16))
        n = self.n_candidates
        order = E.shuffled_order(h, n)
        ids = E.shuffled_order(h ^ _ID_SALT, n)
        t, x, y, r = self.active
        boards = np.empty((n, E.H, E.W), np.uint8)
        E.afterstates(self.board, self.st, self.cinfo, boards)
        grids = grids_to_cells(boards)
        # The candidates are the engine's own output, already of the contract's types (Python
        # ints in bulk from `tolist`, letters from the piece table): built without re-validating
        # every candidate's grid, the slow part. The question itself is still validated.
        rows = self.cinfo[:n].tolist()
        feats = self.cfeat[:n].tolist()
        candidates = []
        id_numbers = ids.tolist()
        for position, index in enumerate(order.tolist()):
            row = rows[index]
            placement = Placement.model_construct(x=row[E.C_X], rotation=row[E.C_ROT])
            candidates.append(
                Candidate.model_construct(
                    id=f"p{id_numbers[position]}",
                    placement=placement,
                    lines_cleared=row[E.C_LINES],
                    score_delta=row[E.C_SCORE_DELTA],
                    drop_points=row[E.C_DROP],
                    clear_points=row[E.C_CLEAR],
                    top_out=bool(row[E.C_TOP_OUT]),
                    features=_board_features(feats[index], trusted=True),
                    grid=grids[index],
                )
            )
        hold = self.hold_piece
        return AgentInput(
            ruleset=RULESET_ID,
            mode="Blitz" if mode.lower() == "blitz" else "IQ",
            tick=self.tick,
            state_hash=state_hash,
            active=ActivePiece(type=PIECE_LETTERS[t], x=x, y=y, rotation=r),
            hold=None if hold is None else PIECE_LETTERS[hold],
            can_hold=self.can_hold,
            next=[PIECE_LETTERS[p] for p in self.next_pieces],
            level=self.level,
            score=self.score,
            lines=self.lines,
            pieces=self.pieces,
            combo=self.combo,
            back_to_back=self.back_to_back,
            grid=grid_to_cells(self.board),
            features=_board_features(self.features()),
            legal=[c.placement for c in candidates],
            candidates=candidates,
        )


def _board_features(values: np.ndarray | list[int], *, trusted: bool = False) -> BoardFeatures:
    """The features as the contract model; `trusted` (a list of Python ints from the engine)
    skips pydantic's validation."""
    v = values.tolist() if isinstance(values, np.ndarray) else values
    build = BoardFeatures.model_construct if trusted else BoardFeatures
    return build(
        heights=v[E.F_HEIGHTS : E.F_HEIGHTS + E.W],
        max_height=v[E.F_MAX_HEIGHT],
        aggregate_height=v[E.F_AGGREGATE],
        holes=v[E.F_HOLES],
        bumpiness=v[E.F_BUMPINESS],
        wells=v[E.F_WELLS],
        row_transitions=v[E.F_ROW_TRANSITIONS],
        col_transitions=v[E.F_COL_TRANSITIONS],
    )
