"""The Tetris Bench question (`AgentInput`) of a game: its state, features and shuffled candidates.

Kept apart from `game.py` (the state and its moves) because building the question is the one
place that renders grids, shuffles and names candidates: the hot part of every benchmark turn.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import (
    ActivePiece,
    AgentInput,
    BoardFeatures,
    Candidate,
    Placement,
)
from arcade_gym.tetris.render import grid_to_cells, grids_to_cells
from arcade_gym.tetris.rules import PIECE_LETTERS, RULESET_ID
from arcade_gym.tetris.state import TetrisState

_ID_SALT = np.uint64(0xA24BAED4963EE407)


def build_question(game: TetrisState, mode: str = "IQ") -> AgentInput:
    """The benchmark's `AgentInput` for `game` (still playing): state, features, and the
    candidates in the order and with the ids the state hash shuffles them into."""
    state_hash = game.state_hash()
    h = np.uint64(int(state_hash, 16))
    n = game.n_candidates
    order = E.shuffled_order(h, n)
    ids = E.shuffled_order(h ^ _ID_SALT, n)
    t, x, y, r = game.active
    boards = np.empty((n, E.H, E.W), np.uint8)
    E.afterstates(game.board, game.st, game.cinfo, boards)
    grids = grids_to_cells(boards)
    # The candidates are the engine's own output, already of the contract's types (Python
    # ints in bulk from `tolist`, letters from the piece table): built without re-validating
    # every candidate's grid, the slow part. The question itself is still validated.
    rows = game.cinfo[:n].tolist()
    feats = game.cfeat[:n].tolist()
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
                features=board_features(feats[index], trusted=True),
                grid=grids[index],
            )
        )
    hold = game.hold_piece
    return AgentInput(
        ruleset=RULESET_ID,
        mode="Blitz" if mode.lower() == "blitz" else "IQ",
        tick=game.tick,
        state_hash=state_hash,
        active=ActivePiece(type=PIECE_LETTERS[t], x=x, y=y, rotation=r),
        hold=None if hold is None else PIECE_LETTERS[hold],
        can_hold=game.can_hold,
        next=[PIECE_LETTERS[p] for p in game.next_pieces],
        level=game.level,
        score=game.score,
        lines=game.lines,
        pieces=game.pieces,
        combo=game.combo,
        back_to_back=game.back_to_back,
        grid=grid_to_cells(game.board),
        features=board_features(game.features()),
        legal=[c.placement for c in candidates],
        candidates=candidates,
    )


def board_features(values: np.ndarray | list[int], *, trusted: bool = False) -> BoardFeatures:
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
