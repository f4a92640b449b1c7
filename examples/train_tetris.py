"""Teach Tetris from the afterstate features of `Tetris-v3`: noisy cross-entropy and MaskablePPO.

Both learners rank the candidate placements by a function of the board each one leads to (the
`placements` observation, `arcade_gym/tetris/env.py`), the way El-Tetris does:

- `--method cem`: the classic baseline. A noisy cross-entropy method (Szita & Lorincz) over linear
  weights of the placement features (`--features extended`, its default: the ten basic columns
  plus El-Tetris's landing height and eroded cells) and a hold margin: the controller holds when
  the other piece's best placement scores more than the margin above the active piece's
  (`--no-hold`: never). Every candidate plays whole games inside one numba kernel on the engine
  (`policies/tetris/linear_kernels.py`: no env, no Python per piece). The best is saved as a
  weights file that `linear:PATH.json` plays on the official benchmark, move for move as in
  training (`policies/tetris/linear.py`).
- `--method ppo`: MaskablePPO (sb3-contrib) with `AfterstatePolicy`: one small network scores
  every row with shared weights; the reward is the score delta / 100 minus a top-out penalty;
  64 games step together in the native vector env (`policies/sb3/vecenv.py`); `--features basic`
  by default. Saved as an SB3 zip that `sb3:PATH.zip` plays.

Each prints progress and saves a model, then plays it for a few seeds. Score it on the 30 public
seeds through the official harness:

    arcade-eval tetris-bench --policy linear:models/tetris-cem.json --official --output-dir runs/cem
    arcade-eval tetris-bench --policy sb3:models/tetris-ppo.zip --official --output-dir runs/ppo

Budgets: `--minutes` (wall time) and/or `--timesteps` (PPO env steps; CEM games = timesteps /
500). Needs the `rl` extra.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper

import arcade_gym  # noqa: F401  (registers the arcade_gym/ envs)
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PLACEMENT_FEATURE_SETS
from policies.sb3.vecenv import NativeVecEnv
from policies.tetris.afterstate import AfterstatePolicy
from policies.tetris.linear import load_linear_weights, save_linear_weights
from policies.tetris.linear_kernels import play_linear

ENV_ID = "arcade_gym/Tetris-v3"


# --- the cross-entropy baseline ----------------------------------------------------------------
def play_game(weights: np.ndarray, hold_margin: float, seed: str | int) -> tuple[int, int, int]:
    """(score, lines, holds) of one 500-piece game played by the linear controller."""
    game = TetrisGame(seed)
    holds = play_linear(game.board, game.st, game.seq, game.cinfo, game.cfeat, weights, hold_margin)
    return game.score, game.lines, holds


def mean_score(vector: np.ndarray, seeds: list[Any], hold: bool) -> float:
    """Mean score of a parameter vector (the weights, then the hold margin when holding)."""
    weights, margin = (vector[:-1], float(vector[-1])) if hold else (vector, math.inf)
    return float(np.mean([play_game(weights, margin, s)[0] for s in seeds]))


def cem_chain(args: argparse.Namespace, chain: int) -> dict[str, Any]:
    """One noisy CEM chain (seeded `--seed + chain`): sample parameter vectors from
    N(mean, std^2 + noise), keep the elite fraction by mean score over a few training seeds (fresh
    each generation), refit, decay the noise (to `--noise-floor`). Its last generations' means
    are then compared on the validation seeds and the best is returned with its validation mean
    (one generation's elite is a noisy judge)."""
    rng = np.random.default_rng(args.seed + chain)
    size = len(PLACEMENT_FEATURE_SETS[args.features]) + (1 if args.hold else 0)
    mean = np.zeros(size)
    std = np.full(size, 1.0)
    population, elite, games = args.population, max(2, args.population // 5), args.games
    budget_games = args.timesteps // 500 if args.timesteps else None
    deadline = time.monotonic() + 60 * args.minutes * 0.85  # the rest for the validation
    played, generation, means = 0, 0, [mean]
    tag = f"cem chain {chain} " if args.chains > 1 else "cem "
    start = time.monotonic()
    while time.monotonic() < deadline and (budget_games is None or played < budget_games):
        noise = max(args.noise_floor, args.noise * (1 - generation / 30))
        samples = mean + rng.standard_normal((population, size)) * np.sqrt(std**2 + noise)
        seeds = [int(s) for s in rng.integers(0, 2**62, games)]
        scores = np.array([mean_score(v, seeds, args.hold) for v in samples])
        played += population * games
        order = np.argsort(scores)[::-1][:elite]
        mean, std = samples[order].mean(0), samples[order].std(0)
        means.append(mean)
        generation += 1
        print(
            f"{tag}generation {generation}: games {played} "
            f"({played / (time.monotonic() - start):.0f}/s), elite mean score "
            f"{scores[order].mean():.0f}, best {scores[order[0]]:.0f}",
            flush=True,
        )
    candidates = means[-args.validate :]
    validation = [f"validation-{k}" for k in range(args.validation_games)]
    validated = [mean_score(v, validation, args.hold) for v in candidates]
    pick = int(np.argmax(validated))
    print(
        f"{tag}validation: {len(candidates)} generation means on {len(validation)} seeds, best "
        f"{validated[pick]:.0f}",
        flush=True,
    )
    return {
        "chain": chain,
        "vector": candidates[pick],
        "validationMean": round(validated[pick], 1),
        "generations": generation,
        "games": played,
    }


def train_cem(args: argparse.Namespace) -> Path:
    """`--chains` independent CEM chains side by side, one process each (a chain is
    single-threaded: one per core); the chain whose pick scores best on the same validation
    seeds is saved. Chains differ only in their random seed, and which one converges best varies
    with it (`docs/rl.md`, runs 9 and 10)."""
    if args.chains == 1:
        results = [cem_chain(args, 0)]
    else:
        context = multiprocessing.get_context("fork")  # the kernels stay compiled in each chain
        with ProcessPoolExecutor(args.chains, mp_context=context) as pool:
            results = list(pool.map(cem_chain, [args] * args.chains, range(args.chains)))
    best = max(results, key=lambda r: float(r["validationMean"]))
    vector = best["vector"]
    weights, margin = (vector[:-1], float(vector[-1])) if args.hold else (vector, None)
    out = Path(args.out or "models/tetris-cem.json")
    save_linear_weights(
        out,
        weights,
        features=args.features,
        hold_margin=margin,
        training={
            "method": "noisy cross-entropy (examples/train_tetris.py)",
            "seed": args.seed,
            "chains": [{k: v for k, v in r.items() if k != "vector"} for r in results],
            "picked": best["chain"],
            "validationSeeds": args.validation_games,
        },
    )
    names = PLACEMENT_FEATURE_SETS[args.features]
    print(
        f"cem picked chain {best['chain']} (validation mean {best['validationMean']:.0f}); weights "
        + " ".join(f"{n}={w:.3g}" for n, w in zip(names, weights, strict=True))
        + ("" if margin is None else f" holdMargin={margin:.3g}")
    )
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
    """Play the saved model greedily on `seeds` training-style seeds: the weights file through
    the training kernel (as `linear:` plays it), the SB3 model through the env (masked argmax)."""
    if path.suffix == ".json":
        record = load_linear_weights(path)
        weights = np.array(record.weights)
        margin = math.inf if record.hold_margin is None else record.hold_margin
        for seed in range(seeds):
            score, lines, holds = play_game(weights, margin, 10_000 + seed)
            print(f"{path.name} game {seed}: score {score}, lines {lines}, holds {holds}")
        return
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
    parser.add_argument(
        "--out",
        default="",
        help="model path (default models/tetris-cem.json, models/tetris-ppo.zip)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--population", type=int, default=40, help="CEM samples a generation")
    parser.add_argument("--games", type=int, default=30, help="CEM games per sample")
    parser.add_argument(
        "--chains",
        type=int,
        default=2,
        help="CEM chains run side by side, one process each; the best on validation is kept",
    )
    parser.add_argument("--noise", type=float, default=4.0, help="CEM added variance, decays")
    parser.add_argument(
        "--noise-floor", type=float, default=0.0, help="CEM added variance never below this"
    )
    parser.add_argument("--validate", type=int, default=30, help="CEM last means compared")
    parser.add_argument("--validation-games", type=int, default=200, help="CEM seeds for that")
    parser.add_argument(
        "--no-hold",
        dest="hold",
        action="store_false",
        help="CEM: never hold (no hold margin is learnt)",
    )
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
    if args.chains < 1:
        parser.error("--chains must be at least 1")
    suffix = ".json" if args.method == "cem" else ".zip"
    if args.out and Path(args.out).suffix != suffix:
        parser.error(f"--method {args.method} saves a {suffix} file: give --out a {suffix} path")
    torch.set_num_threads(1)
    if args.features is None:
        args.features = "extended" if args.method == "cem" else "basic"
    path = train_cem(args) if args.method == "cem" else train_ppo(args)
    print(f"saved {path}")
    evaluate(path, args.eval_games)


if __name__ == "__main__":
    main()
