"""`TicTacToe-v0` as a native vector env: N games against a sparring partner in one numba call.

`gym.make_vec("arcade_gym/TicTacToe-v0", num_envs=N, vectorization_mode="vector_entry_point")`.
The partner's move is computed inside the kernel, so the random and greedy partners are
available here (tactician and perfect run Python search; use the single env for them). Given
the same seeds, game i plays exactly what `TicTacToeEnv` plays after `reset(seed=seed + i)`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import int64, njit

from arcade_gym.core.args import check_choice, check_int
from arcade_gym.core.batch_threads import check_threads, run_sliced
from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs
from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.env import AGENT_MARKS, TicTacToeEnv
from arcade_gym.tictactoe.rules import DRAW, ONGOING, SIZES, WIN, O, X, geometry, line_length

VECTOR_OPPONENTS = ("random", "greedy")
"""The sparring partners whose move rule is a numba kernel."""

# the per-game state vector; S_BITS, S_BITS + 1: the cells of X and of O as bits (boards of at
# most MAX_BIT_CELLS cells), so a win is a few mask tests instead of walking four lines
S_PLACED, S_SIDE, S_EPISODES, S_SEED, S_BITS = range(5)
STATE_LEN = 7
MAX_BIT_CELLS = 62
SEED_BLOCK = 256
"""Partner seeds pre-drawn per game: a game lasts a few steps, and a step that finds a game's
block used up draws the next one in Python."""
SLICE_GAMES = 256
"""The smallest slice of games one thread steps (a game's step is a few hundred nanoseconds, a
call into the kernel a few microseconds)."""
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_BIT = np.zeros(64, np.int64)
for _bit in range(64):
    _DEBRUIJN_BIT[((int(_DEBRUIJN) << _bit) % 2**64) >> 58] = _bit


def window_masks(size: int) -> np.ndarray:
    """(cells, D) int64: for each cell the bit masks of the windows through it (`rules.geometry`),
    padded with -1, a mask no board's bits can cover; (cells, 0) for a board too large for bits
    (the kernels then walk the lines, `engine.line_through`)."""
    geo = geometry(size)
    cells = size * size
    if cells > MAX_BIT_CELLS:
        return np.zeros((cells, 0), np.int64)
    masks = np.full(geo.cell_windows.shape, -1, np.int64)
    for cell in range(cells):
        for j in range(int(geo.cell_degree[cell])):
            masks[cell, j] = sum(1 << int(c) for c in geo.windows[geo.cell_windows[cell, j]])
    return masks


@njit(cache=True)
def threats(flat: np.ndarray, n: int, k: int, side: int, out: np.ndarray) -> int:
    """Empty squares (ascending) that would complete a line for `side`; returns how many."""
    m = 0
    for c in range(n * n):
        if flat[c] == 0:
            flat[c] = side
            if E.line_through(flat, n, k, c):
                out[m] = c
                m += 1
            flat[c] = 0
    return m


@njit(cache=True)
def partner_move(
    flat: np.ndarray, n: int, k: int, side: int, seed: np.uint64, greedy: bool, out: np.ndarray
) -> int:
    """`sparring.random_move` / `greedy_move` as one kernel (the same seeded tie-breaks)."""
    if greedy:
        m = threats(flat, n, k, side, out)
        if m == 0:
            m = threats(flat, n, k, 3 - side, out)
        if m > 0:
            return E.seeded_pick(out, m, E.board_hash(flat, seed))
    return E.seeded_empty(flat, seed)


@njit(cache=True, nogil=True, inline="always")
def _observe(flat: np.ndarray, side: int, obs: np.ndarray) -> None:
    """One game's planes into its row of the (N, size * size * 2) view of the observations."""
    other = 3 - side
    for c in range(flat.shape[0]):
        v = flat[c]
        obs[2 * c] = v == side
        obs[2 * c + 1] = v == other


@njit(cache=True, nogil=True, inline="always")
def _play(
    flat: np.ndarray,
    st: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    i: int,
    cell: int,
    side: int,
    plane: int,
    n: int,
    k: int,
    win_masks: np.ndarray,
) -> int:
    """`side` on the empty `cell` of game i (board, bits, count, its plane entry and mask
    entry); returns WIN, DRAW or ONGOING (`engine.apply_move`'s outcomes for a legal move).
    Indexes the batch arrays directly: a row view would cost reference counting per game."""
    flat[i, cell] = side
    bits = st[i, S_BITS + side - 1] | (np.int64(1) << cell)
    st[i, S_BITS + side - 1] = bits
    placed = st[i, S_PLACED] + 1
    st[i, S_PLACED] = placed
    obs[i, 2 * cell + plane] = 1
    mask[i, cell] = 0
    if win_masks.shape[1] == 0:
        won = E.line_through(flat[i], n, k, cell)
    else:  # branch-free: every window through the cell, padded to the same count
        won = False
        for j in range(win_masks.shape[1]):
            w = win_masks[cell, j]
            won |= (bits & w) == w
    full = placed >= flat.shape[1]
    return WIN if won else (DRAW if full else ONGOING)


@njit(cache=True, nogil=True, inline="always")
def _reset_one(
    flat: np.ndarray,
    st: np.ndarray,
    i: int,
    seed: np.uint64,
    n: int,
    k: int,
    mark: int,
    greedy: bool,
    obs: np.ndarray,
    mask: np.ndarray,
    out: np.ndarray,
    win_masks: np.ndarray,
) -> None:
    for c in range(flat.shape[1]):
        flat[i, c] = 0
        mask[i, c] = 1
        obs[i, 2 * c] = 0
        obs[i, 2 * c + 1] = 0
    episodes = st[i, S_EPISODES]
    plays_x = episodes % 2 == 0 if mark == 2 else mark == 0  # mark 2: alternate, X first
    side = X if plays_x else O
    st[i, S_SIDE] = side
    st[i, S_EPISODES] = episodes + 1
    st[i, S_PLACED] = 0
    st[i, S_BITS] = 0
    st[i, S_BITS + 1] = 0
    if side == O:
        partner = 3 - side  # X, computed: a literal would compile another signature
        cell = partner_move(flat[i], n, k, partner, seed, greedy, out)
        _play(flat, st, obs, mask, i, cell, partner, 1, n, k, win_masks)


@njit(cache=True, nogil=True, inline="always")
def _next_seed(seeds: np.ndarray, seed_pos: np.ndarray, st: np.ndarray, i: int) -> np.uint64:
    seed = np.uint64(seeds[i, seed_pos[i]])
    seed_pos[i] += 1
    st[i, S_SEED] = np.int64(seed)
    return seed


@njit(cache=True, nogil=True)
def reset_games(
    flat: np.ndarray,
    st: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
    k: int,
    mark: int,
    greedy: bool,
    obs: np.ndarray,
    mask: np.ndarray,
    win_masks: np.ndarray,
) -> None:
    """New games in the listed slots (each takes its next pre-drawn partner seed); `obs` is the
    (N, size * size * 2) view of the observation planes."""
    n2 = flat.shape[1]
    n = int(np.sqrt(n2))
    out = np.empty(n2, np.int64)
    for j in range(games.shape[0]):
        i = games[j]
        seed = _next_seed(seeds, seed_pos, st, i)
        _reset_one(flat, st, i, seed, n, k, mark, greedy, obs, mask, out, win_masks)


@njit(cache=True, nogil=True, inline="always")
def _lowest_bit(bits: np.int64) -> int:
    """The index of the lowest set bit of `bits` (not 0): a de Bruijn multiply and a lookup."""
    low = np.uint64(bits & -bits)
    return _DEBRUIJN_BIT[(low * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, nogil=True)
def _random_cells(
    flat: np.ndarray,
    st: np.ndarray,
    pending: np.ndarray,
    count: int,
    cells: np.ndarray,
    bits: bool,
) -> None:
    """`engine.seeded_empty` for `count` games at once. The board hash is a chain of dependent
    mixes, so it runs cell by cell across the games (independent chains side by side) instead of
    game by game; then each game's chosen empty cell: with `bits`, the target-th set bit of the
    empty cells' bits, else a branch-free count along the board."""
    n2 = flat.shape[1]
    h = np.empty(count, np.uint64)
    for j in range(count):
        h[j] = E.hash_start(np.uint64(st[pending[j], S_SEED]))
    for c in range(n2):
        for j in range(count):
            h[j] = E.hash_cell(h[j], c, flat[pending[j], c])
    board = (np.int64(1) << n2) - 1 if bits else np.int64(0)
    for j in range(count):
        i = pending[j]
        target = E.hash_index(h[j], n2 - st[i, S_PLACED])
        if bits:
            empty = ~(st[i, S_BITS] | st[i, S_BITS + 1]) & board
            for _ in range(target):
                empty &= empty - 1
            cells[j] = _lowest_bit(empty)
        else:
            cell = np.int64(0)
            seen = np.int64(0)
            for c in range(n2):
                free = np.int64(flat[i, c] == 0)
                cell += free * np.int64(seen == target) * c
                seen += free
            cells[j] = cell


_COUNTS = {"n_reset": int64, "n_move": int64, "n_end": int64, "count": int64}
"""step_games' list lengths are int64 locals: a literal 0 passed on compiles another signature."""


@njit(cache=True, nogil=True, locals=_COUNTS)
def step_games(
    lo: int,
    hi: int,
    flat: np.ndarray,
    st: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    k: int,
    mark: int,
    greedy: bool,
    obs: np.ndarray,
    mask: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
    win_masks: np.ndarray,
) -> None:
    """Games lo..hi-1: reset those that ended on the last step; otherwise the agent's move, then
    the partner's. Releases the GIL: disjoint slices may run on several threads at once
    (`arcade_gym/core/batch_threads.py`); each game touches only its own rows.

    Passes over lists of games (resetting, moving; then still playing, ended), each list built
    by branch-free appends, so the partners of the games still playing choose together
    (`_random_cells`); the other lists cost about what a branch per game cost. A move changes
    one cell, so a step writes only that cell's plane entry and mask entry (`obs` is the
    (N, size * size * 2) view of the planes; the buffers always hold the current boards)."""
    n2 = flat.shape[1]
    n = int(np.sqrt(n2))
    out = np.empty(n2, np.int64)
    games = hi - lo
    resetting = np.empty(games, np.int64)
    moving = np.empty(games, np.int64)
    ended = np.empty(games, np.int64)
    n_reset = n_move = n_end = 0
    for i in range(lo, hi):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        r = needs_reset[i]
        resetting[n_reset] = i
        n_reset += r
        moving[n_move] = i
        n_move += (not r) & (actions[i] >= 0)
    for j in range(n_reset):
        i = resetting[j]
        seed = _next_seed(seeds, seed_pos, st, i)
        _reset_one(flat, st, i, seed, n, k, mark, greedy, obs, mask, out, win_masks)
        needs_reset[i] = False
    count = 0  # the moving games still playing after the agent's move: `moving[:count]`
    for j in range(n_move):
        i = moving[j]
        outcome = _play(flat, st, obs, mask, i, actions[i], st[i, S_SIDE], 0, n, k, win_masks)
        rew[i] = outcome == WIN
        moving[count] = i
        count += outcome == ONGOING
        ended[n_end] = i
        n_end += outcome != ONGOING
    cells = np.empty(count, np.int64)
    if greedy:
        for j in range(count):
            i = moving[j]
            side = 3 - st[i, S_SIDE]
            cells[j] = partner_move(flat[i], n, k, side, np.uint64(st[i, S_SEED]), greedy, out)
    else:
        _random_cells(flat, st, moving, count, cells, win_masks.shape[1] > 0)
    for j in range(count):
        i = moving[j]
        side = 3 - st[i, S_SIDE]
        outcome = _play(flat, st, obs, mask, i, cells[j], side, 1, n, k, win_masks)
        rew[i] = -np.float64(outcome == WIN)
        ended[n_end] = i
        n_end += outcome != ONGOING
    for j in range(n_end):
        i = ended[j]
        for c in range(n2):
            mask[i, c] = 0
        term[i] = True
        needs_reset[i] = True


class TicTacToeVectorEnv(ArcadeVectorEnv):
    """N games of `TicTacToeEnv` (spaces, rewards, ends, seeds) in one kernel call.

    Observation: (N, size, size, 2) int8 planes (own stones, the partner's), or (N, D) float32
    with `observation="flat"`. Actions: (N,) ints `row * size + col`. Info: `action_mask`.
    Options as the single env's: `size`, `opponent` (`random` or `greedy`), `agent_mark`,
    `opponent_seed`, `illegal_action`, `illegal_reward`.
    Threads: with `threads` > 1 (None: one per available core) a step plays slices of at least
    256 games on that many threads; the results do not depend on it. The default is 1, the
    calling thread: a game's step is too short for the hand-off to pay on the 2-core machine the
    figures come from (README "Speed").
    """

    slice_games = SLICE_GAMES
    """The smallest slice of games a thread steps (`threads`)."""

    def __init__(
        self,
        num_envs: int = 1,
        *,
        size: int = 3,
        opponent: str = "random",
        agent_mark: str = "X",
        opponent_seed: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        threads: int | None = 1,
    ) -> None:
        n = check_num_envs(num_envs)
        check_choice("size", size, SIZES)
        self.threads = check_threads(threads)
        if not any(opponent is o or opponent == o for o in VECTOR_OPPONENTS):
            raise ValueError(
                f"the native vector env plays only the {list(VECTOR_OPPONENTS)} partners (kernel "
                f"rules), not {opponent!r:.60}: TicTacToeSelfPlayVectorEnv "
                "(arcade_gym.selfplay) batches the others and callables"
            )
        check_choice("agent_mark", agent_mark, AGENT_MARKS)
        if opponent_seed is not None:
            check_int("opponent_seed", opponent_seed)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single TicTacToeEnv")
        template = TicTacToeEnv(size=size, opponent=opponent, agent_mark=agent_mark)
        self.size, self.k = size, line_length(size)
        self.opponent, self.agent_mark, self.opponent_seed = opponent, agent_mark, opponent_seed
        self._mark = AGENT_MARKS.index(agent_mark)
        self._greedy = opponent == "greedy"
        self._flat = np.zeros((n, size * size), np.int8)
        self._st = np.zeros((n, STATE_LEN), np.int64)
        self._obs = np.zeros((n, size, size, 2), np.int8)
        self._obs_rows = self._obs.reshape(n, -1)  # the kernels' view: one row a game
        self._win_masks = window_masks(size)
        self._setup(
            n,
            size * size,
            np.ones((n, size * size), np.int8),
            template.observation_space,
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.int64,
            seed_block=SEED_BLOCK,
        )

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> Any:
        if seed is not None:  # a seeded reset restarts the X/O alternation, as in the single env
            self._st[:, S_EPISODES] = 0
        return super().reset(seed=seed, options=options)

    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        if self.opponent_seed is not None:
            return np.full(k, self.opponent_seed, np.int64)
        draws: np.ndarray = rng.integers(0, 2**63 - 1, size=k)
        return draws

    def _kernel_reset(self, games: np.ndarray) -> None:
        reset_games(
            self._flat, self._st, self._seeds, self._seed_pos, games, self.k, self._mark,
            self._greedy, self._obs_rows, self._masks, self._win_masks,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        flat, st, seeds, seed_pos, needs_reset = (
            self._flat, self._st, self._seeds, self._seed_pos, self._needs_reset,
        )  # fmt: skip
        k, mark, greedy, obs, masks = self.k, self._mark, self._greedy, self._obs_rows, self._masks
        rew, term, trunc = self.rewards, self.terminations, self.truncations
        win_masks = self._win_masks

        def kernel(lo: int, hi: int) -> None:
            step_games(
                lo, hi, flat, st, seeds, seed_pos, actions, needs_reset, k, mark, greedy, obs,
                masks, rew, term, trunc, win_masks,
            )  # fmt: skip

        run_sliced(kernel, self.num_envs, self.threads, min_games=self.slice_games, per_thread=4)

    def _observations(self) -> np.ndarray:
        return self._out(self._obs)

    def _decisions_left(self) -> np.ndarray:
        left: np.ndarray = self.size * self.size - self._st[:, S_PLACED]
        return left
