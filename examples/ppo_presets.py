"""The games of `examples/ppo.py`: one preset each (env, network, PPO settings, reward, metric).

Everything here works on all games of a vector env at once (numpy over the batch), so the
trainer never loops over games in Python. A preset's reward may reshape the env's: each shaping
is written next to the preset that uses it, with why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

import arcade_gym  # noqa: F401  (registers the arcade_gym/ envs)
from policies.ppo.network import ActorCritic, build


@dataclass(frozen=True)
class Preset:
    """A run's env, network, PPO settings, reward and reported figure (its budget aside)."""

    env_id: str
    env_kwargs: dict[str, Any]
    """Options of the env (saved in the model file: the single env that plays it takes them)."""
    arch: dict[str, Any]
    """`policies/ppo/network.py`'s description, without the sizes read from the env."""
    num_envs: int = 256
    num_steps: int = 32
    minibatches: int = 4
    epochs: int = 4
    lr: float = 5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    clip_value: bool = False
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.03
    """An update stops its epochs early once the policy moved this far (approximate KL): one
    bad minibatch then cannot throw a good policy away."""
    reward: str = "env"
    """`env` (the env's own reward) or a shaping of `Rewards`."""
    metric: str = "return"
    """What is reported for a finished game (`metric_of`): length, lines, win, solved, return."""
    vector_kwargs: dict[str, Any] = field(default_factory=dict)
    """Options only the vector env takes (not saved with the model)."""
    top_out: float = 0.0
    """Reward of a game lost by topping out (the Tetris shapings)."""
    potential: float = 0.0
    """Weight of the potential-based shaping over the stack (`stack_potential`, Tetris)."""
    fill: float = 0.0
    """`stack_potential`'s weight of nearly full rows."""
    line_scale: float = 1.0
    """Divisor of the env's score reward (TetrisPrimitive-v3's classic points)."""
    selfplay: dict[str, float] | None = None
    """Self-play (tic-tac-toe): the opponent pool, built-in names and `snapshot` (a frozen copy
    of the learner, refreshed every `snapshot_every` iterations) with their weights."""
    snapshot_every: int = 10
    snapshot_epsilon: float = 0.0
    boards: dict[int, int] | None = None
    """Self-play on several board sizes at once (`TicTacToeMixedSelfPlayVectorEnv`): {size:
    games}, each size against the same pool; `num_envs` is then their sum."""
    opening: dict[int, int] = field(default_factory=dict)
    """Self-play: {size: most random opening plies} a game starts from (none by default)."""
    aux_coef: float = 0.0
    """Weight of the auxiliary loss (a network with `aux` outputs, `aux_targets`): the
    network also predicts what each empty square would do if played, read off the rules; it
    shapes the features the policy reads, never the policy's choice (play ignores it)."""
    """Share of the snapshot's moves played at random (it meets the learner in more positions)."""
    sb3: str = "PPO"
    """What `--compare-sb3` trains: SB3's PPO, or sb3-contrib's MaskablePPO for a game whose
    masked actions are refused (plain PPO would play them)."""


PRESETS: dict[str, Preset] = {
    # Length = 3 + food eaten; -1 for a crash makes staying alive worth something from the start.
    "snake": Preset(
        "arcade_gym/Snake-v0",
        {"difficulty": "easy"},
        {"kind": "mlp", "hidden": [128, 128], "norm": False},
        minibatches=8,
        reward="snake",
        metric="length",
    ),
    # Lines, not score, are what the Tetris target counts; a top-out costs five lines, and the
    # stack's potential (holes, bumpiness, height) pays a good placement at once.
    "tetris": Preset(
        "arcade_gym/Tetris-v3",
        {"placement_features": "extended"},
        {"kind": "afterstate", "hidden": 32, "value_hidden": 64},
        num_envs=128,
        num_steps=32,
        lr=3e-3,
        gamma=0.995,
        ent_coef=0.003,
        reward="lines",
        metric="lines",
        top_out=-5.0,
        potential=1.0,
    ),
    # Classic score / 4 (a single at level 0 = 10), plus potential-based shaping over the stack's
    # holes, bumpiness and height and how full its rows are, so placing a piece well (towards a
    # full row, with no hole) pays before any line is cleared.
    "tetris-primitive": Preset(
        "arcade_gym/TetrisPrimitive-v3",
        {"scoring": "classic", "difficulty": "easy"},
        {"kind": "mlp", "hidden": [256, 256], "shared": True, "norm": True},
        num_steps=64,
        lr=3e-4,
        gamma=0.995,
        reward="tetris-primitive",
        metric="lines",
        top_out=-1.0,
        potential=1.0,
        fill=2.0,
        line_scale=4.0,
    ),
    # Win +1, mine -1, every safe reveal +0.1; a short horizon: each move is mostly about itself.
    "minesweeper": Preset(
        "arcade_gym/Minesweeper-v0",
        {"difficulty": "easy"},
        {"kind": "grid", "low": -2, "high": 8, "channels": 16, "layers": 3, "planes": 1},
        num_steps=16,
        epochs=3,
        lr=1e-3,
        gamma=0.5,
        ent_coef=0.003,
        reward="minesweeper",
        metric="win",
    ),
    # +1 / -1 / 0 against the greedy partner, X and O alternating game by game.
    "tictactoe": Preset(
        "arcade_gym/TicTacToe-v0",
        {"size": 3, "opponent": "greedy", "agent_mark": "alternate"},
        {"kind": "mlp", "hidden": [128, 128], "norm": False},
        num_steps=16,
        metric="win",
        sb3="MaskablePPO",
    ),
    # Self-play: half the games against the learner's own frozen copy (which plays a random move
    # one time in five), a third against a tactician with a random first move (so a strong player
    # punishes mistakes after every opening), some random and greedy games; sides alternate.
    "tictactoe-selfplay": Preset(
        "arcade_gym/TicTacToe-v0",
        {"size": 3},
        {"kind": "mlp", "hidden": [128, 128], "norm": False},
        num_steps=16,
        ent_coef=0.08,
        metric="win",
        selfplay={"snapshot": 0.5, "varied-tactician": 0.3, "random": 0.1, "greedy": 0.1},
        snapshot_epsilon=0.2,
        sb3="MaskablePPO",
    ),
    # One network for 3x3, 5x5 and 10x10 (`board`: fully convolutional, the same weights on every
    # size, k-in-a-row as input planes), trained on the three sizes in the same rollouts, as
    # many games of each. Games start from random openings (up to 6, 14 and 50 plies: scattered
    # stones, the way the arena's positions arise), so the learner meets threats, forks and
    # blocks all over the board, not only after its own openings. The pool: its own frozen copy
    # (a random move one time in five), the tactician with a random first move, perfect (the
    # tactician on the larger boards), greedy (it wins at once when a threat is left open) and
    # random. gamma 0.9: a win now is clearly worth more than one later. The auxiliary loss
    # (`aux_targets`, weight 3: at 1 the model lost 29 of 100 against perfect, at 3 lost 8, the
    # arena grade the same) makes the features say what each square would do.
    "tictactoe-selfplay-all": Preset(
        "arcade_gym/TicTacToe-v0",
        {"size": 3},
        {"kind": "board", "channels": 16, "layers": 4, "aux": 4},
        num_envs=384,
        num_steps=16,
        epochs=3,
        lr=2e-3,
        gamma=0.9,
        ent_coef=0.02,
        metric="win",
        selfplay={
            "snapshot": 0.3,
            "varied-tactician": 0.2,
            "perfect": 0.2,
            "greedy": 0.2,
            "random": 0.1,
        },
        snapshot_epsilon=0.2,
        boards={3: 128, 5: 128, 10: 128},
        opening={3: 6, 5: 14, 10: 50},
        aux_coef=3.0,
    ),
    # +1 per right digit, -1 per wrong one (the env's reward); generated grids of every tier.
    "sudoku": Preset(
        "arcade_gym/Sudoku-v0",
        {},
        {"kind": "sudoku", "hidden": 16, "value_hidden": 32},
        num_envs=128,
        num_steps=16,
        gamma=0.9,
        metric="solved",
    ),
}


def varied_tactician(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A batched self-play opponent: a random first move, then the tactician's rules (win,
    block, fork, block forks, position; `arcade_gym/tictactoe/sparring.py`). Its varied openings
    make the learner meet a strong player after every opening, which it would not meet against
    the plain tactician (always the same first move) or its own copy (rarely another)."""
    from arcade_gym.tictactoe.sparring import tactician_move

    own, other = obs[..., 0].astype(np.int8), obs[..., 1].astype(np.int8)
    moves = np.zeros(len(obs), np.int64)
    for i in range(len(obs)):  # the tactician's rules are Python, as the built-in's are
        legal = np.flatnonzero(mask[i])
        if not own[i].any():
            moves[i] = legal[np.random.randint(len(legal))]
            continue
        side = 1 if own[i].sum() == other[i].sum() else 2  # X moves when the counts are equal
        moves[i] = tactician_move(own[i] * side + other[i] * (3 - side), side, 0)
    return moves


def aux_targets(obs: dict[str, Any]) -> np.ndarray:
    """The auxiliary targets of a batch of canvas observations (`TicTacToeMixedSelfPlayVectorEnv`):
    per square, whether a stone there completes a line for the mover, for the opponent, or
    leaves two squares that would (`arcade_gym/tictactoe/square_facts.py`)."""
    from arcade_gym.tictactoe.square_facts import facts_of

    return facts_of(np.asarray(obs["board"]), np.asarray(obs["size"]))


def board_games(boards: dict[int, int], num_envs: int) -> dict[int, int]:
    """{size: games} in the proportions of `boards`, `num_envs` games in all (at least one a
    size; the largest size takes what rounding leaves)."""
    if num_envs < len(boards):
        raise ValueError(f"{num_envs} games cannot cover {len(boards)} board sizes")
    total = sum(boards.values())
    games = {n: max(1, g * num_envs // total) for n, g in sorted(boards.items())}
    games[max(games)] += num_envs - sum(games.values())
    return games


def _sized(pool: dict[Any, float], size: int) -> dict[Any, float]:
    """A pool for one board size: `perfect` (exact on 3x3 only) is the tactician elsewhere."""
    if size == 3:
        return pool
    sized: dict[Any, float] = {}
    for member, weight in pool.items():
        name = "tactician" if member == "perfect" else member
        sized[name] = sized.get(name, 0.0) + weight
    return sized


def make_env(
    preset: Preset, num_envs: int, snapshot: Any = None, opponent: str | None = None
) -> Any:
    """The preset's native vector env: flat observations for an MLP, the env's own otherwise.
    A self-play preset plays its pool (`snapshot`: the learner's copy), or only `opponent`."""
    observation = "flat" if preset.arch["kind"] == "mlp" else "dict"
    if preset.selfplay is not None:
        from arcade_gym.selfplay import TicTacToeSelfPlayVectorEnv

        members = {"snapshot": snapshot, "varied-tactician": varied_tactician}
        pool = {members.get(name, name): w for name, w in preset.selfplay.items()}
        if preset.boards is not None:
            from arcade_gym.selfplay import TicTacToeMixedSelfPlayVectorEnv

            games = board_games(preset.boards, num_envs)
            pools = {n: opponent or _sized(pool, n) for n in games}
            return TicTacToeMixedSelfPlayVectorEnv(games, pools, opening=preset.opening)
        size = preset.env_kwargs.get("size", 3)
        return TicTacToeSelfPlayVectorEnv(
            num_envs,
            size=size,
            opponent=opponent or pool,
            opening=preset.opening.get(size, 0),
            observation=observation,
        )
    return gym.make_vec(
        preset.env_id,
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        observation=observation,
        **preset.env_kwargs,
        **preset.vector_kwargs,
    )


def network_for(preset: Preset, venv: Any) -> tuple[ActorCritic, dict[str, Any]]:
    """(the preset's network, its full description) with the sizes read from the env."""
    arch = dict(preset.arch)
    kind = arch["kind"]
    if kind in ("mlp", "afterstate", "grid"):
        arch["n_actions"] = int(venv.single_action_space.n)
    if kind == "mlp":
        arch["size"] = int(venv.single_observation_space.shape[0])
    if kind == "afterstate":
        arch["n_features"] = int(venv.single_observation_space["placements"].shape[1])
    return build(arch), arch


PRIMITIVE_BOARD = 200
"""TetrisPrimitive-v3's flat observation starts with the (20, 10) board (its Dict's first key)."""


def stack_potential(board: np.ndarray, fill: float = 0.0) -> np.ndarray:
    """Minus a weighted count of holes, bumpiness and height of the settled stack (cells == 1;
    2 is the falling piece) of (N, 20, 10) boards, plus `fill` times the sum over rows of
    (filled share)^2: a cell added to a nearly full row is worth more than one on an empty row."""
    stack = board == 1
    holes = (np.maximum.accumulate(stack, axis=1) & ~stack).sum((1, 2))
    heights = np.where(stack.any(1), 20 - stack.argmax(1), 0)
    bumpiness = np.abs(np.diff(heights, axis=1)).sum(1)
    rows = (stack.mean(2) ** 2).sum(1)
    return (fill * rows - 0.5 * holes - 0.1 * bumpiness - 0.1 * heights.max(1)).astype(np.float32)


class Rewards:
    """The preset's reward from the env's reward, the infos and the observations, for every
    game at once; it keeps what a shaping needs between steps (lines so far, the potential)."""

    def __init__(self, preset: Preset, num_envs: int) -> None:
        self.preset = preset
        self.lines = np.zeros(num_envs, np.int64)
        self.potential = np.zeros(num_envs, np.float32)
        self.safe = 0
        if preset.reward == "minesweeper":
            from arcade_gym.minesweeper.rules import DIFFICULTIES

            board = DIFFICULTIES[preset.env_kwargs.get("difficulty", "easy")]
            self.safe = board.rows * board.cols - board.mines

    def __call__(
        self,
        reward: np.ndarray,
        obs: Any,
        term: np.ndarray,
        done: np.ndarray,
        infos: dict[str, Any],
    ) -> np.ndarray:
        kind, lost = self.preset.reward, term.astype(np.float32)
        r = reward.astype(np.float32)
        if kind == "snake":
            r = r - lost
        elif kind == "lines":
            r = (infos["lines"] - self.lines).astype(np.float32) + self.preset.top_out * lost
            r = r + self._shaping(obs["board"], done)
            self.lines = np.where(done, 0, infos["lines"])
        elif kind == "tetris-primitive":
            board = np.asarray(obs)[:, :PRIMITIVE_BOARD].reshape(-1, 20, 10)
            r = r / self.preset.line_scale + self._shaping(board, done) + self.preset.top_out * lost
        elif kind == "minesweeper":
            won = term & (infos["score"] >= self.safe)
            r = np.where(term, np.where(won, 1.0, -1.0), 0.1).astype(np.float32)
        return r

    def _shaping(self, board: np.ndarray, done: np.ndarray) -> np.ndarray:
        """gamma * potential(after) - potential(before), weighted; a new game starts at 0 (its
        board is empty). The ended game's last board counts, so topping out pays no bonus."""
        if not self.preset.potential:
            return np.zeros(len(board), np.float32)
        potential = stack_potential(board, self.preset.fill)
        shaping = self.preset.gamma * potential - self.potential
        self.potential = np.where(done, 0.0, potential).astype(np.float32)
        return (self.preset.potential * shaping).astype(np.float32)

    def metric(self, reward: np.ndarray, term: np.ndarray, infos: dict[str, Any]) -> np.ndarray:
        """Per game, the preset's figure for a game that ended on this step."""
        metric = self.preset.metric
        if metric == "length":
            return infos["score"] + 3.0  # Snake starts 3 long and grows one a food
        if metric == "lines":
            return infos["lines"].astype(np.float64)
        if metric == "win" and self.safe:
            return (term & (infos["score"] >= self.safe)).astype(np.float64)
        if metric == "win":
            return (reward > 0).astype(np.float64)
        if metric == "solved":
            return (term & (infos["wrong"] == 0)).astype(np.float64)
        return reward.astype(np.float64)
