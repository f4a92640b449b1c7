"""The actor-critic networks a `ppo:` model file names, one small torch module per input shape.

A model file (`policies/ppo/model_file.py`) stores an architecture as a JSON-able dict,
`{"kind": NAME, **kwargs}`; `build(arch)` makes the module again, so the trainer
(`examples/ppo.py`) and the policy that plays the file (`policies/ppo/policy.py`) share one
definition. Every network maps a batched observation (a tensor, or a dict of tensors, in the form
the native vector env gives it) to `(logits (B, A), value (B,))`. Masks are applied outside
(`masked_logits`), so the same logits serve sampling in training and the greedy legal move in
play.

Kinds, each with the inductive bias its game asks for:

- `mlp`: flat observation (`observation="flat"`) -> MLP -> logits and value; an optional running
  normaliser (`RunningNorm`) whose statistics are buffers, saved with the weights.
- `afterstate`: `Tetris-v3`'s `placements` rows scored by one shared MLP (as
  `policies/tetris/afterstate.py` does for SB3): the logit of each placement is the same function
  of the board it leads to; hold has its own logit; the value pools the row embeddings.
- `grid`: a fully convolutional net over a one-hot board (Minesweeper): one logit per cell and
  action plane, so what is learnt about a 3x3 neighbourhood holds everywhere.
- `sudoku`: every (cell, digit) placement scored from how constrained it is (the cell's candidate
  count, the digit's places left in its row, column and box), one shared MLP: singles score high.
- `board`: a fully convolutional net over a k-in-a-row board of any size (tic-tac-toe 3x3, 5x5,
  10x10): the same weights on every size, k given as input planes, one logit per square, so one
  model file plays every board of the arena.
"""

from __future__ import annotations

import itertools
from typing import Any

import torch
from torch import nn

from arcade_gym.tictactoe.rules import K_FOR_SIZE

MASKED_LOGIT = -1.0e9
"""The logit of a masked action: exp() of it is exactly 0 in float32, with no inf or NaN."""

Observation = torch.Tensor | dict[str, torch.Tensor]


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`logits` with masked actions (mask False) at `MASKED_LOGIT`; a row with no legal action
    is left as it is (the game is over; nothing it picks is played)."""
    legal = mask | ~mask.any(dim=-1, keepdim=True)
    return logits.masked_fill(~legal, MASKED_LOGIT)


def _mlp(sizes: list[int], activation: type[nn.Module] = nn.Tanh) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), activation()]
    return nn.Sequential(*layers)


def _init(layer: nn.Linear, gain: float) -> nn.Linear:
    """Orthogonal weights, zero bias (CleanRL's `layer_init`): small output gains keep the first
    policy close to uniform and the first values close to 0."""
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class RunningNorm(nn.Module):
    """Running mean and variance of the inputs, merged batch by batch (Chan et al.); `forward`
    standardises and clips to [-clip, clip]. The statistics are buffers: they are saved in the
    state dict with the weights, so the saved model sees what the trained one saw."""

    def __init__(self, size: int, clip: float = 5.0) -> None:
        super().__init__()
        self.clip = clip
        self.mean: torch.Tensor
        self.var: torch.Tensor
        self.count: torch.Tensor
        self.register_buffer("mean", torch.zeros(size))
        self.register_buffer("var", torch.ones(size))
        self.register_buffer("count", torch.tensor(1e-4, dtype=torch.float64))

    @torch.no_grad()
    def update(self, x: torch.Tensor) -> None:
        """Fold a batch (B, size) into the statistics."""
        batch_mean, batch_var, n = x.mean(0), x.var(0, unbiased=False), x.shape[0]
        total = self.count + n
        delta = batch_mean - self.mean
        self.mean += delta * float(n / total)
        m2 = self.var * float(self.count) + batch_var * n + delta**2 * float(self.count * n / total)
        self.var.copy_(m2 / float(total))
        self.count.fill_(float(total))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ((x - self.mean) / torch.sqrt(self.var + 1e-8)).clamp(-self.clip, self.clip)


class ActorCritic(nn.Module):
    """The interface of every kind: `forward(obs) -> (logits, value)`; `observe(obs)` updates
    whatever running statistics the network keeps (a no-op unless it normalises)."""

    input_form = "flat"
    """How the vector env must hand it observations: `flat` (one float32 vector) or `structured`
    (the env's own observation: a dict of arrays, or its one array)."""

    def forward(self, obs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError

    def observe(self, obs: Any) -> None:
        """Fold a batch of observations into the running statistics (training only)."""


class MlpActorCritic(ActorCritic):
    """Flat input -> `hidden` tanh layers -> logits and value. `shared=False` gives the actor and
    the critic their own layers (as SB3's `MlpPolicy` does), `True` one trunk with two heads."""

    def __init__(
        self, size: int, n_actions: int, hidden: list[int], shared: bool = False, norm: bool = True
    ) -> None:
        super().__init__()
        self.norm = RunningNorm(size) if norm else None
        width = hidden[-1] if hidden else size
        self.actor = _mlp([size, *hidden])
        self.critic = None if shared else _mlp([size, *hidden])
        self.pi = _init(nn.Linear(width, n_actions), 0.01)
        self.v = _init(nn.Linear(width, 1), 1.0)

    def _input(self, obs: torch.Tensor) -> torch.Tensor:
        x = obs.float()
        return self.norm(x) if self.norm is not None else x

    def observe(self, obs: torch.Tensor) -> None:
        if self.norm is not None:
            self.norm.update(obs.float())

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self._input(obs)
        actor = self.actor(x)
        critic = actor if self.critic is None else self.critic(x)
        return self.pi(actor), self.v(critic).squeeze(-1)


TETRIS_FEATURE_SCALE = (4.0, 1000.0, 1.0, 20.0, 200.0, 20.0, 50.0, 30.0, 100.0, 100.0, 20.0, 4.0)
"""Divisors of `Tetris-v3`'s placement features (lines, score delta, top-out, max height,
aggregate height, holes, bumpiness, wells, row and column transitions; extended: landing height,
eroded cells): their typical sizes, so every input is O(1) (`policies/tetris/afterstate.py`)."""


class AfterstateActorCritic(ActorCritic):
    """`Tetris-v3` dict observation -> one logit per placement from its afterstate features.

    Logit of placement a = `score(embed(placements[a] / scale))`, the same weights for every row;
    action `hold` (the last) has its own learnt logit. Value = MLP(mean embedding of the listed
    placements, game state)."""

    input_form = "structured"

    def __init__(
        self, n_features: int, n_actions: int, hidden: int = 32, value_hidden: int = 64
    ) -> None:
        super().__init__()
        if not 1 <= n_features <= len(TETRIS_FEATURE_SCALE):
            raise ValueError(f"afterstate: {n_features} features per placement is not Tetris-v3's")
        self.scale: torch.Tensor
        self.register_buffer("scale", torch.tensor(TETRIS_FEATURE_SCALE[:n_features]))
        self.n_actions = n_actions
        self.embed = _mlp([n_features, hidden])
        self.score = _init(nn.Linear(hidden, 1), 0.01)
        self.hold_logit = nn.Parameter(torch.zeros(1))
        self.value = nn.Sequential(
            _mlp([hidden + 4, value_hidden, value_hidden]), _init(nn.Linear(value_hidden, 1), 1.0)
        )
        self.state_scale: torch.Tensor
        self.register_buffer("state_scale", torch.tensor([10.0, 10.0, 1.0, 1.0]))

    def forward(self, obs: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        rows = obs["placements"].float() / self.scale  # (B, 45, F)
        listed = (rows.abs().sum(-1, keepdim=True) > 0).float()
        embedded = self.embed(rows)
        logits = self.score(embedded).squeeze(-1)[:, : self.n_actions - 1]
        logits = torch.cat([logits, self.hold_logit.expand(len(rows), 1)], dim=1)
        pooled = (embedded * listed).sum(1) / listed.sum(1).clamp(min=1.0)
        state = obs["state"].float() / self.state_scale
        return logits, self.value(torch.cat([pooled, state], dim=1)).squeeze(-1)


class GridActorCritic(ActorCritic):
    """A board of small integers (B, rows, cols) -> one-hot planes -> `layers` 3x3 convolutions
    (zero padding, plus a plane marking the board so the edge is visible) -> `planes` logits per
    cell (action `p * rows * cols + cell`); actions of planes beyond `planes` (Minesweeper's
    flags, with `planes=1`) get `MASKED_LOGIT`, so the policy never takes them. Value: a linear
    map of the mean and max of the last features."""

    input_form = "structured"

    def __init__(
        self,
        low: int,
        high: int,
        n_actions: int,
        channels: int = 32,
        layers: int = 4,
        planes: int = 1,
    ) -> None:
        super().__init__()
        self.low, self.n_values, self.planes, self.n_actions = (
            low,
            high - low + 1,
            planes,
            n_actions,
        )
        convs: list[nn.Module] = []
        width = self.n_values + 1
        for _ in range(layers):
            convs += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        self.body = nn.Sequential(*convs)
        self.head = nn.Conv2d(channels, planes, 1)
        nn.init.orthogonal_(self.head.weight, 0.01)
        nn.init.zeros_(self.head.bias)  # type: ignore[arg-type]
        self.v = _init(nn.Linear(2 * channels, 1), 1.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        codes = obs.long() - self.low  # (B, rows, cols)
        onehot = nn.functional.one_hot(codes, self.n_values).permute(0, 3, 1, 2).float()
        board = torch.ones_like(onehot[:, :1])
        planes = torch.cat([onehot, board], dim=1).contiguous(memory_format=torch.channels_last)
        features = self.body(planes)  # channels-last: faster CPU convolutions on small boards
        logits = self.head(features).flatten(1)  # (B, planes * cells)
        missing = self.n_actions - logits.shape[1]
        if missing > 0:
            logits = torch.cat([logits, logits.new_full((len(logits), missing), MASKED_LOGIT)], 1)
        pooled = torch.cat([features.mean((2, 3)), features.amax((2, 3))], dim=1)
        return logits, self.v(pooled).squeeze(-1)


BOARD_LINES: dict[int, int] = dict(K_FOR_SIZE)
"""Board size -> stones in a row that win (the arena's boards)."""


class BoardActorCritic(ActorCritic):
    """`board`: tic-tac-toe planes of any board size -> one logit per square, and a value.

    Input: `TicTacToe-v0`'s observation (B, n, n, 2) (plane 0 the mover's stones, plane 1 the
    opponent's), or the mixed-size training form `{"board": (B, S, S, 2), "size": (B,)}` (each
    board in the top-left corner of an S x S canvas; `arcade_gym/tictactoe/selfplay_mixed.py`),
    which is cropped to each board's own size, so both forms give the same numbers; canvas
    squares off the board get `MASKED_LOGIT`.

    Planes: own, opponent, empty, on-board (ones: the convolutions' zero padding is the edge)
    and the line length k one-hot (`BOARD_LINES`) -> a `first` x `first` convolution, `layers`
    3x3 residual convolutions (ReLU) -> a 1x1 convolution, one logit per square. Value: an MLP
    of the features' mean and max. With `aux` > 0, a second 1x1 convolution predicts `aux`
    facts per square for an auxiliary loss in training (`forward_aux`); play never reads it."""

    input_form = "structured"
    any_board = True
    """The policy plays it on every size in `BOARD_LINES` (`policies/ppo/policy.py`)."""

    def __init__(self, channels: int = 32, layers: int = 3, first: int = 5, aux: int = 0) -> None:
        super().__init__()
        self.ks = sorted(set(BOARD_LINES.values()))
        self.stem = nn.Conv2d(4 + len(self.ks), channels, first, padding=first // 2)
        self.blocks = nn.ModuleList(
            nn.Conv2d(channels, channels, 3, padding=1) for _ in range(layers)
        )
        self.head = nn.Conv2d(channels, 1, 1)
        nn.init.orthogonal_(self.head.weight, 0.01)
        nn.init.zeros_(self.head.bias)  # type: ignore[arg-type]
        self.value = nn.Sequential(_mlp([2 * channels, 64], nn.ReLU), _init(nn.Linear(64, 1), 1.0))
        self.aux = aux
        self.aux_head = nn.Conv2d(channels, aux, 1) if aux else None

    def _trunk(self, stones: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(B, n, n, 2) stones of one size -> ((B, n*n) logits, (B,) values, (B, n*n, aux))."""
        n = stones.shape[1]
        own, opp = stones[..., 0].float(), stones[..., 1].float()
        ones = torch.ones_like(own)
        lines = [ones * float(BOARD_LINES[n] == k) for k in self.ks]
        x = torch.stack([own, opp, ones - own - opp, ones, *lines], dim=1)
        x = torch.relu(self.stem(x.contiguous(memory_format=torch.channels_last)))
        for block in self.blocks:
            x = torch.relu(x + block(x))
        logits = self.head(x).flatten(1)
        pooled = torch.cat([x.mean((2, 3)), x.amax((2, 3))], dim=1)
        facts = (
            self.aux_head(x).flatten(2).transpose(1, 2)
            if self.aux_head is not None
            else logits.new_zeros(len(x), n * n, 0)
        )
        return logits, self.value(pooled).squeeze(-1), facts

    def forward_aux(self, obs: Observation) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(logits, values, the auxiliary predictions (B, squares, aux)) in the input's form."""
        if not isinstance(obs, dict):
            _check_board(obs.shape[1])
            return self._trunk(obs)
        board, sizes = obs["board"], obs["size"].long().reshape(-1)
        canvas = board.shape[1]
        logits = board.new_full((len(board), canvas * canvas), MASKED_LOGIT, dtype=torch.float32)
        values = board.new_zeros(len(board), dtype=torch.float32)
        facts = board.new_zeros((len(board), canvas * canvas, self.aux), dtype=torch.float32)
        for n in sorted({int(v) for v in sizes.tolist()}):
            _check_board(n)
            rows = (sizes == n).nonzero().squeeze(1)
            part, value, fact = self._trunk(board[rows, :n, :n])
            cells = (torch.arange(n)[:, None] * canvas + torch.arange(n)[None, :]).reshape(-1)
            logits[rows[:, None], cells[None, :]] = part
            values[rows] = value
            facts[rows[:, None], cells[None, :]] = fact
        return logits, values, facts

    def forward(self, obs: Observation) -> tuple[torch.Tensor, torch.Tensor]:
        logits, values, _ = self.forward_aux(obs)
        return logits, values


def _check_board(n: int) -> None:
    if n not in BOARD_LINES:
        raise ValueError(f"a {n}x{n} board is none of the sizes {sorted(BOARD_LINES)}")


SUDOKU_FEATURES = 9


def sudoku_features(candidates: torch.Tensor) -> torch.Tensor:
    """(B, 9, 9, 9) candidate flags -> (B, 729, SUDOKU_FEATURES): for each placement (cell, digit)
    whether it is a candidate, 1 / (the cell's candidates), 1 / (the digit's places in the row,
    column, box), and whether each of those counts is 1 (a naked or hidden single)."""
    cand = candidates.float()
    batch = cand.shape[0]
    cell = cand.sum(3, keepdim=True).expand_as(cand)
    row = cand.sum(2, keepdim=True).expand_as(cand)
    col = cand.sum(1, keepdim=True).expand_as(cand)
    boxes = cand.reshape(batch, 3, 3, 3, 3, 9).sum((2, 4), keepdim=True)
    box = boxes.expand(batch, 3, 3, 3, 3, 9).reshape(batch, 9, 9, 9)
    counts = torch.stack([cell, row, col, box], dim=-1)
    inverse = cand.unsqueeze(-1) / counts.clamp(min=1.0)
    single = (counts == 1).float() * cand.unsqueeze(-1)
    return torch.cat([cand.unsqueeze(-1), inverse, single], dim=-1).reshape(batch, 729, -1)


class SudokuActorCritic(ActorCritic):
    """`Sudoku-v0` dict observation -> one logit per placement `(row * 9 + col) * 9 + digit - 1`
    from `sudoku_features` through one shared MLP; value from the mean embedding of the candidate
    placements and the share of filled cells."""

    input_form = "structured"

    def __init__(self, hidden: int = 32, value_hidden: int = 64) -> None:
        super().__init__()
        self.embed = _mlp([SUDOKU_FEATURES, hidden, hidden])
        self.score = _init(nn.Linear(hidden, 1), 0.01)
        self.value = nn.Sequential(
            _mlp([hidden + 1, value_hidden]), _init(nn.Linear(value_hidden, 1), 1.0)
        )

    def forward(self, obs: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        features = sudoku_features(obs["candidates"])
        embedded = self.embed(features)
        logits = self.score(embedded).squeeze(-1)
        listed = features[..., :1]
        pooled = (embedded * listed).sum(1) / listed.sum(1).clamp(min=1.0)
        filled = (obs["board"] > 0).float().flatten(1).mean(1, keepdim=True)
        return logits, self.value(torch.cat([pooled, filled], dim=1)).squeeze(-1)


KINDS: dict[str, type[ActorCritic]] = {
    "mlp": MlpActorCritic,
    "afterstate": AfterstateActorCritic,
    "grid": GridActorCritic,
    "sudoku": SudokuActorCritic,
    "board": BoardActorCritic,
}
"""Architecture name (`arch["kind"]`) -> class; the rest of `arch` are its keyword arguments."""


def build(arch: dict[str, Any]) -> ActorCritic:
    """The network `arch` describes (`{"kind": "mlp", "size": 321, ...}`); ValueError names what
    is wrong with a description that builds none."""
    kwargs = dict(arch)
    kind = kwargs.pop("kind", None)
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown network kind {kind!r}; kinds: {', '.join(KINDS)}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"network {kind}: {exc}") from None


def as_tensors(observation: Any) -> Observation:
    """A batched numpy observation (an array, or a dict of arrays) as tensors (no copy when the
    dtype allows)."""
    if isinstance(observation, dict):
        return {key: torch.as_tensor(value) for key, value in observation.items()}
    return torch.as_tensor(observation)
