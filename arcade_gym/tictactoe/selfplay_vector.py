"""Self-play tic-tac-toe as a native vector env: N games, the opponent called once per step on
the batch of games it plays (`arcade_gym/selfplay/__init__.py` shows the use).

Each step is three numba calls around one Python call per pool member: the learner's moves (and
the resets of games that ended), the opponent's answers for the games waiting on it, then those
moves and the observations. Given the same seeds, game i plays exactly what
`SelfPlayEnv(tictactoe_v0.env(size=size), opponent)` plays after `reset(seed=seed + i)`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numba import njit

from arcade_gym.core.args import check_choice
from arcade_gym.core.seeding import splitmix64
from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs
from arcade_gym.selfplay.env import LEARNER_SIDES
from arcade_gym.selfplay.pool import OpponentPool, OpponentSpec
from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.rules import SIZES, WIN, O, X, line_length
from arcade_gym.tictactoe.sparring import SPARRING
from arcade_gym.tictactoe.vector import partner_move

# the per-game state vector
S_PLACED, S_SIDE, S_EPISODES, S_SEED, S_MEMBER, S_PENDING = range(6)
STATE_LEN = 6
KERNEL_BUILTINS = ("random", "greedy")
"""Built-ins whose move rule runs inside a kernel; the others run per game in Python."""


@njit(cache=True)
def _member(seed: np.int64, cumulative: np.ndarray) -> int:
    """`OpponentPool.for_seed`: the pool member a 64-bit episode seed draws."""
    if cumulative.shape[0] == 1:
        return 0
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed)
    u = float(splitmix64(state) >> np.uint64(11)) * 2.0**-53
    return int(np.searchsorted(cumulative, u, side="right"))


@njit(cache=True)
def random_opening(flat: np.ndarray, n: int, k: int, seed: np.int64, most: int, parity: int) -> int:
    """Play a seeded number of plies, at most `most`, of the given parity (0: X is to move
    after them, 1: O), X first, each on an empty square that completes no line for its mover,
    next to a stone 85% of the time when one is (as the arena's suite positions are made,
    `evaluation/benchmarks/ttt_arena/suite.py`); never the last empty square. Returns the plies
    played: when the mover has no such square, the opening stops there, one ply earlier if the
    parity asks (so the game never starts with the other side able to win at once)."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) ^ np.uint64(0x9E3779B97F4A7C15)
    n2 = n * n
    plies = int(splitmix64(state) % np.uint64(most + 1))
    plies = min(plies, n2 - 1)
    if plies % 2 != parity:
        plies = plies + 1 if plies + 1 <= min(most, n2 - 1) else plies - 1
    allowed = np.empty(n2, np.int64)
    near = np.empty(n2, np.int64)
    played = np.empty(n2, np.int64)
    done = 0
    for ply in range(plies):
        side = X if ply % 2 == 0 else O
        m = 0
        m_near = 0
        for c in range(n2):
            if flat[c] != 0:
                continue
            flat[c] = side
            completes = E.line_through(flat, n, k, c)
            flat[c] = 0
            if completes:
                continue
            allowed[m] = c
            m += 1
            r, col = c // n, c % n
            touching = False
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    rr, cc = r + dr, col + dc
                    if 0 <= rr < n and 0 <= cc < n and flat[rr * n + cc] != 0:
                        touching = True
            if touching:
                near[m_near] = c
                m_near += 1
        if m == 0:
            break
        u = float(splitmix64(state) >> np.uint64(11)) * 2.0**-53
        if m_near > 0 and u < 0.85:
            cell = near[int(splitmix64(state) % np.uint64(m_near))]
        else:
            cell = allowed[int(splitmix64(state) % np.uint64(m))]
        flat[cell] = side
        played[done] = cell
        done += 1
    if done % 2 != parity:
        done -= 1
        flat[played[done]] = 0
    return done


@njit(cache=True)
def _start(
    flat: np.ndarray,
    st: np.ndarray,
    seed: np.int64,
    learner: int,
    cumulative: np.ndarray,
    n: int,
    k: int,
    opening: int,
) -> None:
    """A new game in one slot: its seed, the learner's mark, its opponent, the random opening
    (`opening` plies at most, leaving the learner to move); the opponent is waited on when it is
    its move."""
    flat[:] = 0
    if learner == 0:
        st[S_SIDE] = X if st[S_EPISODES] % 2 == 0 else O
    else:
        st[S_SIDE] = X if learner == 1 else O
    st[S_EPISODES] += 1
    parity = 0 if st[S_SIDE] == X else 1  # the learner is to move after the opening
    st[S_PLACED] = random_opening(flat, n, k, seed, opening, parity) if opening > 0 else 0
    st[S_SEED] = seed
    st[S_MEMBER] = _member(seed, cumulative)
    to_move = X if st[S_PLACED] % 2 == 0 else O
    st[S_PENDING] = 1 if st[S_SIDE] != to_move else 0


@njit(cache=True)
def start_games(
    flat: np.ndarray,
    st: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
    learner: int,
    cumulative: np.ndarray,
    n: int,
    k: int,
    opening: int,
) -> None:
    """New games in the listed slots (each takes its next pre-drawn episode seed)."""
    for j in range(games.shape[0]):
        i = games[j]
        seed = seeds[i, seed_pos[i]]
        seed_pos[i] += 1
        _start(flat[i], st[i], seed, learner, cumulative, n, k, opening)


@njit(cache=True)
def learner_moves(
    flat: np.ndarray,
    st: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    n: int,
    k: int,
    learner: int,
    cumulative: np.ndarray,
    opening: int,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Reset the games that ended on the last step; play the learner's move in the others
    (-1: leave the game as it is) and mark the games now waiting on the opponent."""
    for i in range(actions.shape[0]):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        g = st[i]
        g[S_PENDING] = 0
        if needs_reset[i]:
            seed = seeds[i, seed_pos[i]]
            seed_pos[i] += 1
            _start(flat[i], g, seed, learner, cumulative, n, k, opening)
            needs_reset[i] = False
            continue
        if actions[i] < 0:
            continue
        outcome = E.apply_move(flat[i], n, k, actions[i], g[S_SIDE], g[S_PLACED])
        g[S_PLACED] += 1
        if outcome == WIN:
            rew[i] = 1.0
        if outcome != 0:
            term[i] = True
            needs_reset[i] = True
        else:
            g[S_PENDING] = 1


@njit(cache=True)
def kernel_opponent_moves(
    flat: np.ndarray,
    st: np.ndarray,
    games: np.ndarray,
    n: int,
    k: int,
    greedy: bool,
    cells: np.ndarray,
) -> None:
    """The random or greedy partner's move (`tictactoe/vector.py:partner_move`) per game."""
    out = np.empty(n * n, np.int64)
    for j in range(games.shape[0]):
        i = games[j]
        seed = np.uint64(st[i, S_SEED])
        cells[i] = partner_move(flat[i], n, k, 3 - st[i, S_SIDE], seed, greedy, out)


@njit(cache=True)
def opponent_views(
    flat: np.ndarray, st: np.ndarray, games: np.ndarray, obs: np.ndarray, mask: np.ndarray
) -> None:
    """The listed games as the opponent sees them: its stones in plane 0, the empty squares."""
    n = obs.shape[1]
    for j in range(games.shape[0]):
        i = games[j]
        mine = 3 - st[i, S_SIDE]
        for c in range(n * n):
            v = flat[i, c]
            obs[j, c // n, c % n, 0] = 1 if v == mine else 0
            obs[j, c // n, c % n, 1] = 1 if v != 0 and v != mine else 0
            mask[j, c] = 1 if v == 0 else 0


@njit(cache=True)
def opponent_plays(
    flat: np.ndarray,
    st: np.ndarray,
    cells: np.ndarray,
    k: int,
    rew: np.ndarray,
    term: np.ndarray,
    needs_reset: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
) -> None:
    """Play the opponent's answers (`cells[i]` for waiting games), then every game's
    observation and mask (all zeros for a game that ended)."""
    n = obs.shape[1]
    for i in range(flat.shape[0]):
        g = st[i]
        if g[S_PENDING]:
            g[S_PENDING] = 0
            outcome = E.apply_move(flat[i], n, k, cells[i], 3 - g[S_SIDE], g[S_PLACED])
            g[S_PLACED] += 1
            if outcome == WIN:
                rew[i] = -1.0
            if outcome != 0:
                term[i] = True
                needs_reset[i] = True
        side = g[S_SIDE]
        over = needs_reset[i]
        for c in range(n * n):
            v = flat[i, c]
            obs[i, c // n, c % n, 0] = 1 if v == side else 0
            obs[i, c // n, c % n, 1] = 1 if v != 0 and v != side else 0
            mask[i, c] = 1 if v == 0 and not over else 0


class TicTacToeSelfPlayVectorEnv(ArcadeVectorEnv):
    """N self-play games of `SelfPlayEnv` over `tictactoe_v0` (spaces, rewards, seeds) on the
    native vector base (`arcade_gym/core/vector.py`: autoreset, masks, illegal actions).

    Observation: (N, size, size, 2) int8 planes from the learner's side (`TicTacToe-v0`'s), or
    (N, D) float32 with `observation="flat"`. Actions: (N,) ints `row * size + col`.
    Reward: +1 win, -1 loss (on the opponent's reply), 0 draw. Info: `action_mask`, `opponent`
    (N,) the index of the pool member playing each game (`pool.members[j].name`), and
    `learner_mark` (N,) 1 for X, 2 for O.
    Options: `size`; `opponent`: a pool (`arcade_gym/selfplay/pool.py`) of built-ins (random and
    greedy run in a kernel; tactician and perfect per game in Python) and batched callables
    `(obs (m, size, size, 2), mask (m, size * size)) -> (m,)` actions, called once a step with
    the m games waiting on them; `learner="alternate"|"first"|"second"`; `opening`: each game
    starts from a random opening of 0 to `opening` plies (`random_opening`; 0, the default: the
    empty board), the learner keeping its mark and the side to move following the plies;
    `illegal_action`,
    `illegal_reward` as the base's.
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        size: int = 3,
        opponent: OpponentSpec = "random",
        learner: str = "alternate",
        opening: int = 0,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        n = check_num_envs(num_envs)
        check_choice("size", size, SIZES)
        check_choice("learner", learner, LEARNER_SIDES)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single SelfPlayEnv")
        self.pool = OpponentPool(opponent)
        for name in self.pool.builtins:
            check_choice("opponent", name, SPARRING)
            if name == "perfect" and size != 3:
                raise ValueError("the perfect opponent plays 3x3 only; use size=3 or 'tactician'")
        if isinstance(opening, bool) or not isinstance(opening, int | np.integer) or opening < 0:
            raise ValueError(f"opening must be a count of plies >= 0, got {opening!r}")
        self.size, self.k, self.learner = size, line_length(size), learner
        self.opening = int(opening)
        self._learner = LEARNER_SIDES.index(learner)
        self._cumulative = np.ascontiguousarray(self.pool.cumulative, np.float64)
        n2 = size * size
        self._flat = np.zeros((n, n2), np.int8)
        self._st = np.zeros((n, STATE_LEN), np.int64)
        self._obs = np.zeros((n, size, size, 2), np.int8)
        self._cells = np.full(n, -1, np.int64)
        self._setup(
            n,
            n2,
            np.ones((n, n2), np.int8),
            spaces.Box(0, 1, (size, size, 2), np.int8),
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.int64,
        )

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> Any:
        if seed is not None:  # a seeded reset restarts the alternation, as in SelfPlayEnv
            self._st[:, S_EPISODES] = 0
        return super().reset(seed=seed, options=options)

    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        draws: np.ndarray = rng.integers(0, 2**63 - 1, size=k)
        return draws

    def _kernel_reset(self, games: np.ndarray) -> None:
        start_games(
            self._flat, self._st, self._seeds, self._seed_pos, games.astype(np.int64),
            self._learner, self._cumulative, self.size, self.k, self.opening,
        )  # fmt: skip
        self.rewards[games] = 0.0
        self._needs_reset[games] = False
        self._opponents_answer()

    def _kernel_step(self, actions: np.ndarray) -> None:
        learner_moves(
            self._flat, self._st, self._seeds, self._seed_pos, actions, self._needs_reset,
            self.size, self.k, self._learner, self._cumulative, self.opening, self.rewards,
            self.terminations,
            self.truncations,
        )  # fmt: skip
        self._opponents_answer()

    def _opponents_answer(self) -> None:
        """Every waiting game's opponent move (one call per pool member), then play them."""
        st = self._st
        waiting = np.flatnonzero(st[:, S_PENDING])
        cells = self._cells
        if waiting.size:
            members = st[waiting, S_MEMBER]
            for j, member in enumerate(self.pool.members):
                games = waiting[members == j] if len(self.pool.members) > 1 else waiting
                if games.size:
                    self._answers(member.opponent, games, cells)
        opponent_plays(
            self._flat, st, cells, self.k, self.rewards, self.terminations, self._needs_reset,
            self._obs, self._masks,
        )  # fmt: skip

    def _answers(self, opponent: Any, games: np.ndarray, cells: np.ndarray) -> None:
        if isinstance(opponent, str) and opponent in KERNEL_BUILTINS:
            greedy = opponent == "greedy"
            kernel_opponent_moves(self._flat, self._st, games, self.size, self.k, greedy, cells)
            return
        if isinstance(opponent, str):
            rule = SPARRING[opponent]
            for i in games:
                seed = int(self._st[i, S_SEED])
                cells[i] = rule(self._flat[i], 3 - int(self._st[i, S_SIDE]), seed)
            return
        m, n = games.size, self.size
        obs = np.empty((m, n, n, 2), np.int8)
        mask = np.empty((m, n * n), np.int8)
        opponent_views(self._flat, self._st, games, obs, mask)
        answer = np.asarray(opponent(obs, mask))
        if answer.shape != (m,) or answer.dtype.kind not in "iu":
            raise RuntimeError(
                f"the opponent {_label(opponent)} must answer ({m},) integer actions for the "
                f"{m} games it plays, got {answer.dtype} {answer.shape}"
            )
        bad = (answer < 0) | (answer >= n * n)
        bad[~bad] = mask[np.flatnonzero(~bad), answer[~bad]] == 0
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            raise RuntimeError(
                f"the opponent {_label(opponent)} chose action {int(answer[j])} in game "
                f"{int(games[j])}, which its mask forbids"
            )
        cells[games] = answer

    def _observations(self) -> np.ndarray:
        return self._obs.copy()

    def _decisions_left(self) -> np.ndarray:
        left: np.ndarray = self.size * self.size - self._st[:, S_PLACED]
        return left

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        infos["opponent"] = self._st[:, S_MEMBER].copy()
        infos["_opponent"] = self._ones.copy()
        infos["learner_mark"] = self._st[:, S_SIDE].copy()
        infos["_learner_mark"] = self._ones.copy()
        return infos


def _label(fn: Any) -> str:
    return str(getattr(fn, "name", None) or getattr(fn, "__name__", type(fn).__name__))
