"""The batched chess env's kernels: reset and step N games of `Chess-v0` in one call each.

A game is what `ChessEnv` + `ChessGame` hold, as arrays (row i of each is game i):
`pos` (N, 12) the position words of `arcade_gym/chess/movegen.py`; `st` (N, ST) the counters
below; `hist` (N, 8, 10) the observation's ring of boards (`arcade_gym/chess/engine.py`);
`keys` (N, KEYS, 9) the positions since the last capture or pawn move (the repetition count);
`moves` / `acts` (N, 256) the agent's legal moves (python-chess's order) and their action
indices; `rng` (N, 6) the opponent's PCG64 stream (`arcade_gym/chess/rule_rng.py`); and the
outputs `masks` (N, 4672) int8 and `obs` (N, 8, 8, 111) bool. `cfg` holds the opponent rung,
the agent's colour rule, the ply cap (0: none) and whether each episode draws its Chess960 start.
Kernels take a slice [lo, hi) of the games and release the GIL, so slices may run on threads.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from arcade_gym.chess.board_kernels import action_of, ordered_moves, push
from arcade_gym.chess.engine import fill_observation
from arcade_gym.chess.movegen import POS_CASTLING, POS_EP, POS_TURN
from arcade_gym.chess.position_kernels import insufficient_material, observation_castling
from arcade_gym.chess.rule_kernels import choose, new_scratch
from arcade_gym.chess.rule_rng import RNG_WORDS
from arcade_gym.chess.rules import FIFTY_MOVE_HALFMOVES, HISTORY, REPETITIONS

# the counters of a game (columns of `st`)
S_PLY, S_HALF, S_FULL, S_AGENT_WHITE, S_EPISODES, S_END, S_WINNER = range(7)
S_OPPONENT, S_N, S_NEWEST, S_FILLED, S_KEYS, S_REPS, S_LEGAL_EP = range(7, 14)
ST = 14
# how a game ended (S_END); S_WINNER is 1 white, 0 black, -1 none
END_NONE, END_CHECKMATE, END_STALEMATE, END_MATERIAL, END_REPETITION, END_FIFTY = range(6)
TERMINATIONS = (
    None,
    "checkmate",
    "stalemate",
    "insufficient_material",
    "threefold_repetition",
    "fifty_moves",
)
"""`info["termination"]` by end code, as `ChessGame.termination` names them."""
# cfg
C_RULE, C_COLOUR, C_MAX_PLIES, C_DRAW_START = range(4)
COLOUR_WHITE, COLOUR_BLACK, COLOUR_ALTERNATE = range(3)
KEY_WORDS = 9
KEYS = 104
"""Positions kept per game: at most 101 stand between two captures or pawn moves (the fifty-move
rule ends the game at 100 halfmoves), one more for the start."""
DRAW_WORDS = 1 + RNG_WORDS - 2
"""A pre-drawn episode: its 64-bit seed, then the opponent stream's four LCG words."""


@njit(cache=True)
def _record(keys: np.ndarray, st: np.ndarray, p: np.ndarray, legal_ep: bool) -> int:
    """Add the position to the game's keys (python-chess's transposition key); how many times
    it has now occurred."""
    ep = p[POS_EP] if legal_ep else np.uint64(64)
    castling = p[POS_CASTLING]
    packed = (
        p[POS_TURN]
        | (ep << np.uint64(1))
        | ((castling & np.uint64(0xFF)) << np.uint64(8))
        | ((castling >> np.uint64(56)) << np.uint64(16))
    )
    m = st[S_KEYS]
    count = 1
    for j in range(m):
        k = keys[j]
        if (
            k[6] == p[6]
            and k[7] == p[7]
            and k[8] == packed
            and k[1] == p[1]
            and k[2] == p[2]
            and k[3] == p[3]
            and k[4] == p[4]
            and k[5] == p[5]
            and k[0] == p[0]
        ):
            count += 1
    for w in range(8):
        keys[m, w] = p[w]
    keys[m, 8] = packed
    st[S_KEYS] = m + 1
    return count


@njit(cache=True)
def _judge(p: np.ndarray, st: np.ndarray, n: int, check: bool) -> None:
    """`ChessGame._refresh`'s end rules for the position just reached."""
    if n == 0:
        if check:
            st[S_END] = END_CHECKMATE
            st[S_WINNER] = 0 if p[POS_TURN] else 1  # the side that just moved
        else:
            st[S_END] = END_STALEMATE
    elif insufficient_material(p):
        st[S_END] = END_MATERIAL
    elif st[S_REPS] >= REPETITIONS:
        st[S_END] = END_REPETITION
    elif st[S_HALF] >= FIFTY_MOVE_HALFMOVES:
        st[S_END] = END_FIFTY


@njit(cache=True)
def _play(
    p: np.ndarray, st: np.ndarray, hist: np.ndarray, keys: np.ndarray, move: int, out: np.ndarray
) -> int:
    """`ChessGame.play`: push, clocks, repetitions, the history row, the end rules; the legal
    moves of the new position go to `out` (how many is returned)."""
    black_moved = p[POS_TURN] == np.uint64(0)
    zeroing = push(p, move)
    st[S_PLY] += 1
    st[S_HALF] = 0 if zeroing else st[S_HALF] + 1
    if black_moved:
        st[S_FULL] += 1
    n, check, legal_ep = ordered_moves(p, out)
    st[S_LEGAL_EP] = legal_ep
    if st[S_HALF] == 0:
        st[S_KEYS] = 0  # no earlier position can recur after a capture or pawn move
    count = _record(keys, st, p, legal_ep)
    st[S_REPS] = count
    slot = (st[S_NEWEST] + 1) % HISTORY
    st[S_NEWEST] = slot
    st[S_FILLED] += 1
    for w in range(9):
        hist[slot, w] = p[w]
    hist[slot, 9] = np.uint64(1) if count >= 2 else np.uint64(0)
    _judge(p, st, n, check)
    return n


@njit(cache=True)
def _agent_turn(
    p: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    moves: np.ndarray,
    acts: np.ndarray,
    mask: np.ndarray,
    obs: np.ndarray,
    listed: np.ndarray,
    n: int,
) -> None:
    """Keep the agent's legal moves (none once the game is over), its mask and observation."""
    if st[S_END] != END_NONE:
        n = 0
    white = p[POS_TURN] != np.uint64(0)
    for k in range(n):
        moves[k] = listed[k]
        a = action_of(listed[k], white)
        acts[k] = a
        mask[a] = 1
    st[S_N] = n
    player = 0 if st[S_AGENT_WHITE] else 1
    fill_observation(
        hist,
        st[S_NEWEST],
        st[S_FILLED],
        observation_castling(p, player),
        player,
        st[S_HALF],
        obs,
    )


@njit(cache=True, locals={"move": int64})
def _opponent(
    p: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    rng: np.ndarray,
    rule: int,
    n: int,
    boards: np.ndarray,
    lists: np.ndarray,
    chosen: np.ndarray,
) -> int:
    """The opponent's reply from the `n` moves in `lists[2]`; the agent's moves after it."""
    move = choose(rule, p, lists[2], n, rng, boards, lists, chosen)  # int64 (a local)
    st[S_OPPONENT] = move
    return _play(p, st, hist, keys, move, lists[2])


@njit(cache=True)
def _new_game(
    i: int,
    pos: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    moves: np.ndarray,
    acts: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    starts: np.ndarray,
    clocks: np.ndarray,
    cfg: np.ndarray,
    masks: np.ndarray,
    obs: np.ndarray,
    boards: np.ndarray,
    lists: np.ndarray,
    chosen: np.ndarray,
) -> None:
    """`ChessEnv._begin` for game i from its next pre-drawn episode."""
    draw = seeds[i, seed_pos[i]]
    seed_pos[i] += 1
    for w in range(4):
        rng[i, w] = draw[1 + w]
    rng[i, 4] = 0
    rng[i, 5] = 0
    g = st[i]
    colour = cfg[C_COLOUR]
    if colour == COLOUR_ALTERNATE:
        g[S_AGENT_WHITE] = g[S_EPISODES] % 2 == 0
    else:
        g[S_AGENT_WHITE] = colour == COLOUR_WHITE
    g[S_EPISODES] += 1
    s = 0
    if cfg[C_DRAW_START]:
        s = np.int64(draw[0] % np.uint64(starts.shape[0]))  # type: ignore[assignment]
    p = pos[i]
    p[:] = starts[s]
    g[S_HALF] = clocks[s, 0]
    g[S_FULL] = clocks[s, 1]
    g[S_PLY] = 0
    g[S_NEWEST] = -1
    g[S_FILLED] = 0
    g[S_KEYS] = 0
    g[S_END] = END_NONE
    g[S_WINNER] = -1
    g[S_OPPONENT] = -1
    for k in range(g[S_N]):
        masks[i, acts[i, k]] = 0
    n, check, legal_ep = ordered_moves(p, lists[2])
    g[S_LEGAL_EP] = legal_ep
    g[S_REPS] = _record(keys[i], g, p, legal_ep)
    _judge(p, g, n, check)
    if g[S_END] == END_NONE and (p[POS_TURN] != np.uint64(0)) != (g[S_AGENT_WHITE] != 0):
        n = _opponent(p, g, hist[i], keys[i], rng[i], cfg[C_RULE], n, boards, lists, chosen)
    _agent_turn(p, g, hist[i], moves[i], acts[i], masks[i], obs[i], lists[2], n)


@njit(cache=True, nogil=True)
def reset_games(
    games: np.ndarray,
    pos: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    moves: np.ndarray,
    acts: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    starts: np.ndarray,
    clocks: np.ndarray,
    cfg: np.ndarray,
    masks: np.ndarray,
    obs: np.ndarray,
) -> None:
    """New games in the listed slots, each from its next pre-drawn episode."""
    boards, lists, chosen = new_scratch()
    for j in range(games.shape[0]):
        _new_game(
            games[j], pos, st, hist, keys, moves, acts, rng, seeds, seed_pos, starts, clocks,
            cfg, masks, obs, boards, lists, chosen,
        )  # fmt: skip


@njit(cache=True, nogil=True, locals={"move": int64})
def step_games(
    lo: int,
    hi: int,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    pos: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    moves: np.ndarray,
    acts: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    starts: np.ndarray,
    clocks: np.ndarray,
    cfg: np.ndarray,
    masks: np.ndarray,
    obs: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Games lo..hi-1: reset those that ended on the last step, play the others' actions (an
    action -1 leaves its game as it is) and the opponent's replies (`ChessEnv._advance`)."""
    boards, lists, chosen = new_scratch()
    for i in range(lo, hi):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            _new_game(
                i, pos, st, hist, keys, moves, acts, rng, seeds, seed_pos, starts, clocks, cfg,
                masks, obs, boards, lists, chosen,
            )  # fmt: skip
            needs_reset[i] = False
            continue
        a = actions[i]
        if a < 0:
            continue
        g = st[i]
        p = pos[i]
        move = -1  # an int64 local: `_play` and `push` compile once, not for -1 and int32 too
        for k in range(g[S_N]):
            masks[i, acts[i, k]] = 0
            if acts[i, k] == a:
                move = moves[i, k]
        n = _play(p, g, hist[i], keys[i], move, lists[2])
        if g[S_END] == END_NONE:
            n = _opponent(p, g, hist[i], keys[i], rng[i], cfg[C_RULE], n, boards, lists, chosen)
        _agent_turn(p, g, hist[i], moves[i], acts[i], masks[i], obs[i], lists[2], n)
        if g[S_WINNER] >= 0:
            rew[i] = 1.0 if g[S_WINNER] == g[S_AGENT_WHITE] else -1.0
        over = g[S_END] != END_NONE
        term[i] = over
        trunc[i] = not over and cfg[C_MAX_PLIES] > 0 and g[S_PLY] >= cfg[C_MAX_PLIES]
        needs_reset[i] = over or trunc[i]
