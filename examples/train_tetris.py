"""Teach Tetris from the afterstate features of `Tetris-v3`: noisy cross-entropy and MaskablePPO.

Both learners rank the candidate placements by a function of the board each one leads to (the
`placements` observation, `arcade_gym/tetris/env.py`), the way El-Tetris does:

- `--method cem`: the classic baseline. A noisy cross-entropy method (Szita & Lorincz) over linear
  weights of the placement features (`--features extended`, its default: the ten basic columns
  plus El-Tetris's landing height and eroded cells); every candidate weight vector plays whole
  games inside one numba kernel on the engine (no env, no Python per piece). The best mean is
  saved as an SB3 model (`policies/sb3/afterstate.py`, linear, on `Tetris-v3` with the same
  `placement_features`) that `sb3:` plays.
- `--method ppo`: MaskablePPO (sb3-contrib) with `AfterstatePolicy`: one small network scores
  every row with shared weights; the reward is the score delta / 100 minus a top-out penalty;
  64 games step together in the native vector env (`policies/sb3/vecenv.py`); `--features basic`
  by default.

Each prints progress and saves a model, then plays it for a few seeds. Score it on the 30 public
seeds through the official harness:

    arcade-eval tetris --policy sb3:models/tetris-cem.zip --official --output-dir runs/cem

Budgets: `--minutes` (wall time) and/or `--timesteps` (PPO env steps; CEM games = timesteps /
500). Needs the `rl` extra.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from numba import njit
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper

import arcade_gym  # noqa: F401  (registers the arcade_gym/ envs)
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import END_NONE, PLACEMENT_FEATURE_SETS
from policies.sb3.afterstate import AfterstatePolicy
from policies.sb3.vecenv import NativeVecEnv

ENV_ID = "arcade_gym/Tetris-v3"


# --- the cross-entropy baseline ----------------------------------------------------------------
@njit(cache=True)
def play_linear(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    weights: np.ndarray,
) -> None:
    """Play a game to its end, each piece at the listed placement whose features score highest
    under `weights` (the first on a tie: the lowest action index, as `argmax` picks). Ten weights
    score the basic columns; twelve add landing height and eroded cells (`placement_features=
    "extended"`, computed by the engine's `landing_features` as the env does)."""
    extended = weights.shape[0] > E.EXTENDED_FROM
    rows = np.empty(E.H, np.int64)
    while st[E.S_END] == END_NONE:
        best = -np.inf
        pick = 0
        if extended:
            E.row_masks(board, rows)
        for k in range(st[E.S_NCAND]):
            s = (
                weights[0] * cinfo[k, E.C_LINES]
                + weights[1] * cinfo[k, E.C_SCORE_DELTA]
                + weights[2] * cinfo[k, E.C_TOP_OUT]
            )
            for f in range(7):
                s += weights[3 + f] * cfeat[k, E.F_MAX_HEIGHT + f]
            if extended:
                landing, _, eroded = E.landing_features(
                    rows, st[E.S_ACTIVE], cinfo[k, E.C_X], cinfo[k, E.C_ROT], cinfo[k, E.C_Y_LAND]
                )
                s += weights[E.EXTENDED_FROM] * landing + weights[E.EXTENDED_FROM + 1] * eroded
            if s > best:
                best = s
                pick = k
        E.play_placement(board, st, seq, cinfo[pick])
        E.end_tick(st)
        if st[E.S_END] == END_NONE:
            E.generate_candidates(board, st, seq, cinfo, cfeat)


def play_game(weights: np.ndarray, seed: str | int) -> tuple[int, int]:
    """(score, lines) of one 500-piece game played greedily by `weights`."""
    game = TetrisGame(seed)
    play_linear(game.board, game.st, game.seq, game.cinfo, game.cfeat, weights)
    return game.score, game.lines


def train_cem(args: argparse.Namespace) -> Path:
    """Noisy CEM: sample weights from N(mean, std^2 + noise), keep the elite fraction by mean
    score over a few training seeds (fresh each generation), refit, decay the noise (to
    `--noise-floor`: 0 by default, which measured best on the public seeds, `docs/rl.md`). The last
    generations' means are then compared on the same validation seeds and the best is kept (one
    generation's elite is a noisy judge: a few games each)."""
    rng = np.random.default_rng(args.seed)
    names = PLACEMENT_FEATURE_SETS[args.features]
    n_features = len(names)
    mean = np.zeros(n_features)
    std = np.full(n_features, 1.0)
    population, elite, games = args.population, max(2, args.population // 5), args.games
    budget_games = args.timesteps // 500 if args.timesteps else None
    deadline = time.monotonic() + 60 * args.minutes * 0.9  # the rest for the validation
    played, generation, means = 0, 0, [mean]
    while time.monotonic() < deadline and (budget_games is None or played < budget_games):
        noise = max(args.noise_floor, args.noise * (1 - generation / 30))
        samples = mean + rng.standard_normal((population, n_features)) * np.sqrt(std**2 + noise)
        seeds = [int(s) for s in rng.integers(0, 2**62, games)]
        scores = np.array([np.mean([play_game(w, s)[0] for s in seeds]) for w in samples])
        played += population * games
        order = np.argsort(scores)[::-1][:elite]
        mean, std = samples[order].mean(0), samples[order].std(0)
        means.append(mean)
        generation += 1
        print(
            f"cem generation {generation}: games {played}, elite mean score "
            f"{scores[order].mean():.0f}, best {scores[order[0]]:.0f}",
            flush=True,
        )
    candidates = means[-args.validate :]
    validation = [f"validation-{k}" for k in range(args.validation_games)]
    means_scores = [np.mean([play_game(w, s)[0] for s in validation]) for w in candidates]
    weights = candidates[int(np.argmax(means_scores))]
    print(
        f"cem validation: {len(candidates)} generation means on {len(validation)} seeds, best "
        f"{max(means_scores):.0f}",
        flush=True,
    )
    env = gym.make(ENV_ID, placement_features=args.features)
    model = MaskablePPO(AfterstatePolicy, env, policy_kwargs={"hidden": 0}, seed=args.seed)
    model.policy.set_linear_weights(weights)
    out = Path(args.out or "models/tetris-cem.zip")
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print("cem weights " + " ".join(f"{n}={w:.3g}" for n, w in zip(names, weights, strict=True)))
    return out


# --- MaskablePPO with afterstate scoring ---------------------------------------------------------
class ShapedReward(VecEnvWrapper):
    """Score delta / 100 (drops reward low placements, clears reward lines), -10 on a top-out."""

    def reset(self) -> Any:
        return self.venv.reset()

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        topped = [
            d and not i.get("TimeLimit.truncated", False) for d, i in zip(dones, infos, strict=True)
        ]
        return observations, rewards / 100.0 - 10.0 * np.array(topped), dones, infos


def tetris_envs(n: int, seed: int, features: str = "basic") -> VecEnv:
    """`n` Tetris-v3 games: the native vector env (one numba call a step) when the installed
    arcade-gym has one, else `n` single envs."""
    try:
        vector = gym.make_vec(
            ENV_ID,
            num_envs=n,
            vectorization_mode="vector_entry_point",
            placement_features=features,
        )
    except (gym.error.Error, ValueError, TypeError):
        env = DummyVecEnv([lambda: gym.make(ENV_ID, placement_features=features)] * n)
        env.seed(seed)
        return ShapedReward(env)
    return ShapedReward(NativeVecEnv(vector, seed=seed))


class Progress(BaseCallback):
    """Prints the mean lines and score of finished games now and then; stops at the deadline."""

    def __init__(self, deadline: float, every: int = 20_000) -> None:
        super().__init__()
        self.deadline, self.every, self.next_print = deadline, every, every
        self.lines: list[int] = []
        self.scores: list[int] = []

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done:
                self.lines.append(info["lines"])
                self.scores.append(info["score"])
        if self.num_timesteps >= self.next_print:
            self.next_print += self.every
            recent = slice(-50, None)
            print(
                f"ppo steps {self.num_timesteps}: games {len(self.lines)}, last 50 mean lines "
                f"{np.mean(self.lines[recent] or [0]):.1f}, score "
                f"{np.mean(self.scores[recent] or [0]):.0f}",
                flush=True,
            )
        return time.monotonic() < self.deadline


def train_ppo(args: argparse.Namespace) -> Path:
    model = MaskablePPO(
        AfterstatePolicy,
        tetris_envs(args.envs, args.seed, args.features or "basic"),
        n_steps=max(8, 4096 // args.envs),
        batch_size=1024,
        n_epochs=4,
        gamma=0.995,
        learning_rate=1e-3,
        ent_coef=0.003,
        policy_kwargs={"hidden": args.hidden},
        seed=args.seed,
        verbose=0,
    )
    deadline = time.monotonic() + 60 * args.minutes
    steps = args.timesteps or 10**9
    model.learn(
        total_timesteps=steps, callback=Progress(deadline, every=max(256, min(steps // 20, 20_000)))
    )
    out = Path(args.out or "models/tetris-ppo.zip")
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return out


def evaluate(path: Path, seeds: int) -> None:
    """Play the saved model greedily (masked argmax) on `seeds` training-style seeds."""
    model = MaskablePPO.load(path, device="cpu")
    placements = model.observation_space["placements"].shape[-1]
    features = next(k for k, v in PLACEMENT_FEATURE_SETS.items() if len(v) == placements)
    env = gym.make(ENV_ID, placement_features=features)
    for seed in range(seeds):
        observation, info = env.reset(seed=10_000 + seed)
        done = False
        while not done:
            action, _ = model.predict(
                observation, deterministic=True, action_masks=info["action_mask"].astype(bool)
            )
            observation, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        print(f"{path.name} game {seed}: score {info['score']}, lines {info['lines']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--method", choices=("cem", "ppo"), default="cem")
    parser.add_argument("--minutes", type=float, default=15.0, help="wall-time budget")
    parser.add_argument("--timesteps", type=int, default=0, help="step budget (0: minutes only)")
    parser.add_argument("--out", default="", help="model path (default models/tetris-<method>.zip)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--population", type=int, default=40, help="CEM samples a generation")
    parser.add_argument("--games", type=int, default=2, help="CEM games per sample")
    parser.add_argument("--noise", type=float, default=4.0, help="CEM added variance, decays")
    parser.add_argument(
        "--noise-floor", type=float, default=0.0, help="CEM added variance never below this"
    )
    parser.add_argument("--validate", type=int, default=10, help="CEM last means compared")
    parser.add_argument("--validation-games", type=int, default=10, help="CEM seeds for that")
    parser.add_argument(
        "--features",
        choices=tuple(PLACEMENT_FEATURE_SETS),
        default=None,
        help="Tetris-v3 placement_features (default: extended for CEM, basic for PPO)",
    )
    parser.add_argument("--envs", type=int, default=64, help="PPO games stepped together")
    parser.add_argument("--hidden", type=int, default=32, help="PPO row network width (0: linear)")
    parser.add_argument("--eval-games", type=int, default=2, help="games played after training")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.features is None:
        args.features = "extended" if args.method == "cem" else "basic"
    path = train_cem(args) if args.method == "cem" else train_ppo(args)
    print(f"saved {path}")
    evaluate(path, args.eval_games)


if __name__ == "__main__":
    main()
