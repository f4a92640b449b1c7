"""Fast PPO on the native vector envs: one readable file (CleanRL style), torch on the CPU.

    python examples/ppo.py --preset snake --minutes 10 --out models/ppo-snake.pt
    arcade-eval narcade --policy ppo:models/ppo-snake.pt --games snake --difficulty easy
    python examples/ppo.py --preset snake --compare-sb3      # both throughputs, same sitting

The games run in `gym.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point")`: one
numba call steps every game, so a step of 256 games costs about as much Python as a step of one.
Each iteration collects `num_steps` steps of every game (actions sampled from masked logits),
computes advantages with GAE, and optimises the clipped PPO objective for a few epochs of
minibatches. A game that ends is restarted at once (`reset_finished`), so every stored transition
is a real one; a game cut off by a cap gets its last state's value bootstrapped into its reward.

Presets (`--preset`; `examples/ppo_presets.py`): `snake`, `tetris` (Tetris-v3: the network scores
each candidate placement's afterstate features, as `policies/tetris/afterstate.py` does for SB3),
`tetris-primitive`, `minesweeper`, `tictactoe` (3x3 against the greedy partner, both sides;
`--size 5` for 5x5) and `sudoku`. The networks live in `policies/ppo/network.py`, so the saved
model (one file: weights, architecture, env, normaliser statistics; `policies/ppo/model_file.py`)
plays through the policy grammar as `--policy ppo:PATH` without this script.

Progress lines give steps/s end to end, then split into env, inference and learning (each phase's
steps per second of its own time); `--log` writes one CSV row per iteration (also TensorBoard
scalars with `--tensorboard DIR`, when it is installed). Budgets: `--minutes`, `--timesteps`,
`--cpu-minutes` (this process's CPU time; the log's `cpu_seconds` and `load` columns say what a
busy machine left the run).
A self-play tic-tac-toe run can play its evaluation games with the search a model plays at
`ppo:PATH?depth=...` (`--eval-search 'depth=9&nodes=50000'`, `policies/ppo/search.py`), and
`--evaluate MODEL` evaluates a saved model without training.
torch runs on `--threads` threads (default: one per core) that spin only briefly while they wait
(`GOMP_SPINCOUNT=2000`, unless set), so a busy machine slows them down without stalling them.
"""

from __future__ import annotations

import argparse
import copy
import csv
import os
import sys
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

# torch's worker threads spin only briefly before they sleep: a long spin steals the core its
# partner needs on a busy machine (10x slower at a load of 5 on 2 cores), none at all costs a
# third on a quiet one (measured: docs/rl.md).
os.environ.setdefault("GOMP_SPINCOUNT", "2000")

import gymnasium as gym
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the presets file beside this one
from ppo_presets import (
    PRESETS,
    Preset,
    Rewards,
    aux_targets,
    board_games,
    make_env,
    network_for,
)

from policies.ppo.model_file import PPOModel, load_model, observation_shapes, save_model
from policies.ppo.network import ActorCritic, as_tensors, masked_logits
from policies.ppo.search import SearchSettings, best_move


# --- the algorithm's pieces ---------------------------------------------------------------------
def gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    last_value: torch.Tensor,
    gamma: float,
    lam: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimation over (T, N) tensors, where `dones[t]` = the game ended
    with step t (so step t + 1 is a new game's). Returns (advantages, returns)."""
    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(last_value)
    for t in reversed(range(rewards.shape[0])):
        next_value = last_value if t == rewards.shape[0] - 1 else values[t + 1]
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
    return advantages, advantages + values


def sample(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(actions drawn from softmax(logits) with the Gumbel-max trick, their log-probabilities)."""
    noise = torch.rand_like(logits).clamp_(1e-9, 1.0 - 1e-7)
    actions = (logits - torch.log(-torch.log(noise))).argmax(1)
    return actions, torch.log_softmax(logits, 1).gather(1, actions[:, None]).squeeze(1)


def log_prob_entropy(
    logits: torch.Tensor, actions: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """(log pi(actions), entropy) of the categorical over masked logits: a masked action has
    probability 0 and adds nothing to the entropy."""
    logp_all = torch.log_softmax(logits, 1)
    entropy = -(logp_all.exp() * logp_all).sum(1)
    return logp_all.gather(1, actions[:, None]).squeeze(1), entropy


def tmap(fn: Any, obs: Any) -> Any:
    """`fn` on an observation batch: a dict of arrays or tensors, or one."""
    return {k: fn(v) for k, v in obs.items()} if isinstance(obs, dict) else fn(obs)


@dataclass
class Clock:
    """Seconds spent in each phase, for the steps/s split."""

    env: float = 0.0
    inference: float = 0.0
    learning: float = 0.0


class Trainer:
    """One PPO run of a preset on one native vector env."""

    def __init__(self, preset: Preset, seed: int, log: Path | None = None) -> None:
        self.preset, self.seed = preset, seed
        torch.manual_seed(seed)
        self.snapshot: Any = None
        if preset.selfplay is not None:
            from arcade_gym.selfplay import Snapshot

            self.snapshot = Snapshot()
        self.venv = make_env(preset, preset.num_envs, self.snapshot)
        self.net, self.arch = network_for(preset, self.venv)
        self.iterations = 0
        if self.snapshot is not None:
            self.snapshot.update(frozen_player(self.net, preset.snapshot_epsilon))
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=preset.lr, eps=1e-5)
        self.rewards = Rewards(preset, preset.num_envs)
        obs, infos = self.venv.reset(seed=seed)
        self.obs = tmap(lambda v: torch.as_tensor(np.array(v)), obs)
        self.mask = torch.as_tensor(infos["action_mask"] > 0)
        self.net.observe(self.obs)
        n = preset.num_envs
        self.ep_return, self.ep_length = np.zeros(n), np.zeros(n, np.int64)
        self.finished: deque[tuple[float, int, float]] = deque(maxlen=200)
        self.steps, self.games, self.clock = 0, 0, Clock()
        self.start = time.perf_counter()
        self.cpu_start = time.process_time()
        self.log = log.open("w", newline="") if log is not None else None
        self.csv = csv.writer(self.log) if self.log is not None else None
        self.tensorboard: Any = None

    def _step_env(self, actions: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, Any]:
        """Step every game and restart the finished ones: (rewards, dones, the cut-off games'
        (rows, last observations) or None)."""
        venv = self.venv.unwrapped
        obs, reward, term, trunc, infos = venv.step(actions)
        done = term | trunc
        shaped = self.rewards(reward, obs, term, done, infos)
        self.ep_return += reward
        self.ep_length += 1
        cut = None
        if done.any():
            ended = np.flatnonzero(done)
            metric = self.rewards.metric(reward, term, infos)
            for i in ended:
                self.finished.append((self.ep_return[i], int(self.ep_length[i]), metric[i]))
            self.games += len(ended)
            self.ep_return[ended], self.ep_length[ended] = 0.0, 0
            rows = trunc & ~term
            if rows.any():
                cut = (torch.as_tensor(rows), tmap(lambda v: torch.as_tensor(v[rows]), obs))
            obs, mask = venv.reset_finished(), venv.action_masks()
        else:
            mask = infos["action_mask"] > 0
        self.obs = tmap(lambda v: torch.as_tensor(np.array(v)), obs)  # copied: buffers are reused
        self.mask = torch.as_tensor(np.array(mask, dtype=bool))
        return torch.as_tensor(shaped), torch.as_tensor(done, dtype=torch.float32), cut

    def collect(self) -> dict[str, Any]:
        """One rollout: `num_steps` steps of every game, as (T, N, ...) tensors."""
        p, net = self.preset, self.net
        T, N = p.num_steps, p.num_envs
        buf: dict[str, Any] = {
            "obs": tmap(lambda v: torch.zeros((T, *v.shape), dtype=v.dtype), self.obs),
            "mask": torch.zeros((T, *self.mask.shape), dtype=torch.bool),
            "actions": torch.zeros((T, N), dtype=torch.long),
        }
        for key in ("logp", "values", "rewards", "dones"):
            buf[key] = torch.zeros((T, N))
        for t in range(T):
            tick = time.perf_counter()
            if isinstance(self.obs, dict):
                for key, value in self.obs.items():
                    buf["obs"][key][t] = value
            else:
                buf["obs"][t] = self.obs
            buf["mask"][t] = self.mask
            with torch.no_grad():
                logits, value = net(self.obs)
                actions, logp = sample(masked_logits(logits, self.mask))
            buf["actions"][t], buf["logp"][t], buf["values"][t] = actions, logp, value
            tock = time.perf_counter()
            self.clock.inference += tock - tick
            rewards, dones, cut = self._step_env(actions.numpy())
            tick = time.perf_counter()
            self.clock.env += tick - tock
            if cut is not None:  # a game stopped by a cap: its future is worth its value
                with torch.no_grad():
                    rewards[cut[0]] += p.gamma * net(cut[1])[1]
                self.clock.inference += time.perf_counter() - tick
            buf["rewards"][t], buf["dones"][t] = rewards, dones
        self.steps += T * N
        return buf

    def iterate(self) -> dict[str, float]:
        """Collect a rollout, optimise on it; the losses and statistics of the update."""
        p, net = self.preset, self.net
        buf = self.collect()
        tick = time.perf_counter()
        with torch.no_grad():
            last_value = net(self.obs)[1]
        advantages, returns = gae(
            buf["rewards"], buf["values"], buf["dones"], last_value, p.gamma, p.gae_lambda
        )
        T, N = p.num_steps, p.num_envs
        obs = tmap(lambda v: v.reshape(T * N, *v.shape[2:]), buf["obs"])
        facts = torch.as_tensor(aux_targets(tmap(np.asarray, obs))) if p.aux_coef else None
        stats = self.update(
            obs,
            buf["mask"].reshape(T * N, -1),
            buf["actions"].reshape(-1),
            buf["logp"].reshape(-1),
            buf["values"].reshape(-1),
            advantages.reshape(-1),
            returns.reshape(-1),
            facts,
        )
        net.observe(obs)  # after the update: the stats stay fixed within an iteration
        self.iterations += 1
        if self.snapshot is not None and self.iterations % p.snapshot_every == 0:
            self.snapshot.update(frozen_player(net, p.snapshot_epsilon))  # it catches up
        self.clock.learning += time.perf_counter() - tick
        return stats

    def update(
        self,
        obs: Any,
        masks: torch.Tensor,
        actions: torch.Tensor,
        old_logp: torch.Tensor,
        old_values: torch.Tensor,
        advantages: torch.Tensor,
        returns: torch.Tensor,
        facts: torch.Tensor | None = None,
    ) -> dict[str, float]:
        """`epochs` passes of minibatch steps on the clipped objective (plus, given `facts`,
        the auxiliary loss: the network's per-square predictions against them, on the legal
        squares)."""
        p, net = self.preset, self.net
        batch = actions.shape[0]
        size = batch // p.minibatches
        kls: list[float] = []
        clipped: list[float] = []
        last: dict[str, torch.Tensor] = {}
        for _ in range(p.epochs):
            if kls and kls[-1] > p.target_kl:
                break
            order = torch.randperm(batch)
            for start in range(0, batch - size + 1, size):
                idx = order[start : start + size]
                batch_obs = tmap(lambda v, idx=idx: v[idx], obs)
                if facts is None:
                    logits, value = net(batch_obs)
                else:
                    logits, value, predicted = net.forward_aux(batch_obs)  # type: ignore[operator]
                    legal = masks[idx]
                    aux_loss = torch.nn.functional.binary_cross_entropy_with_logits(
                        predicted[legal], facts[idx][legal]
                    )
                logp, entropy = log_prob_entropy(masked_logits(logits, masks[idx]), actions[idx])
                log_ratio = logp - old_logp[idx]
                ratio = log_ratio.exp()
                adv = advantages[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - p.clip, 1 + p.clip))
                v_loss = (value - returns[idx]) ** 2
                if p.clip_value:
                    near = old_values[idx] + (value - old_values[idx]).clamp(-p.clip, p.clip)
                    v_loss = torch.max(v_loss, (near - returns[idx]) ** 2)
                loss = (
                    pg_loss.mean() - p.ent_coef * entropy.mean() + p.vf_coef * 0.5 * v_loss.mean()
                )
                if facts is not None:
                    loss = loss + p.aux_coef * aux_loss
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), p.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    kls.append(float(((ratio - 1) - log_ratio).mean()))
                    clipped.append(float(((ratio - 1).abs() > p.clip).float().mean()))
                    last = {
                        "pg_loss": pg_loss.mean(),
                        "v_loss": v_loss.mean(),
                        "entropy": entropy.mean(),
                    }
                    if facts is not None:
                        last["aux_loss"] = aux_loss.detach()
        out = {key: float(value) for key, value in last.items()}
        return {**out, "approx_kl": float(np.mean(kls)), "clipfrac": float(np.mean(clipped))}

    def figures(self, stats: dict[str, float]) -> dict[str, float]:
        """The row the CSV log and the progress line show."""
        elapsed = time.perf_counter() - self.start
        recent = np.array(self.finished) if self.finished else np.full((1, 3), np.nan)
        return {
            "steps": self.steps,
            "seconds": round(elapsed, 2),
            "sps": self.steps / elapsed,
            "env_sps": self.steps / max(self.clock.env, 1e-9),
            "inference_sps": self.steps / max(self.clock.inference, 1e-9),
            "learning_sps": self.steps / max(self.clock.learning, 1e-9),
            "games": self.games,
            "return": float(recent[:, 0].mean()),
            "length": float(recent[:, 1].mean()),
            self.preset.metric: float(recent[:, 2].mean()),
            "lr": float(self.optimizer.param_groups[0]["lr"]),
            **stats,
            "cpu_seconds": round(time.process_time() - self.cpu_start, 2),
            "load": os.getloadavg()[0],
        }

    def record(self, row: dict[str, float]) -> None:
        if self.csv is not None and self.log is not None:
            if self.log.tell() == 0:
                self.csv.writerow(list(row))
            self.csv.writerow([f"{v:.6g}" if isinstance(v, float) else v for v in row.values()])
            self.log.flush()
        if self.tensorboard is not None:
            for key, value in row.items():
                self.tensorboard.add_scalar(key, value, int(row["steps"]))

    def train(
        self, minutes: float, timesteps: int = 0, every: float = 10.0, cpu_minutes: float = 0.0
    ) -> dict[str, float]:
        """Iterate until a budget is spent (wall minutes, steps, or minutes of this process's
        CPU time: on a machine shared with other jobs, what a quiet one would do in that much
        wall time with as many threads), the learning rate annealed linearly to 5% over it."""
        row: dict[str, float] = {}
        next_print = self.start
        while True:
            spent = (time.perf_counter() - self.start) / (60.0 * minutes) if minutes else 0.0
            spent = max(spent, self.steps / timesteps if timesteps else 0.0)
            cpu = time.process_time() - self.cpu_start
            spent = max(spent, cpu / (60.0 * cpu_minutes) if cpu_minutes else 0.0)
            if spent >= 1.0 or not (minutes or timesteps or cpu_minutes):
                break
            self.optimizer.param_groups[0]["lr"] = self.preset.lr * max(0.05, 1.0 - spent)
            row = self.figures(self.iterate())
            self.record(row)
            if time.perf_counter() >= next_print:
                next_print = time.perf_counter() + every
                print(progress_line(self.preset, row), flush=True)
        return row

    def model(self, preset_name: str, row: dict[str, float]) -> PPOModel:
        """The trained network with what the model file records about it."""
        single = gym.make(self.preset.env_id, **self.preset.env_kwargs)
        settings = {k: v for k, v in vars(self.preset).items() if k != "arch"}
        return PPOModel(
            env_id=self.preset.env_id,
            env_kwargs=dict(self.preset.env_kwargs),
            arch=self.arch,
            network=self.net,
            obs_shapes=observation_shapes(single.observation_space),
            preset=preset_name,
            trained={
                "seed": self.seed,
                "steps": self.steps,
                "seconds": round(time.perf_counter() - self.start, 1),
                "settings": settings,
                "final": {k: v for k, v in row.items() if np.isfinite(v)},
            },
        )


def frozen_player(net: ActorCritic, epsilon: float = 0.0) -> Any:
    """A frozen copy of `net` as a batched self-play opponent `(obs, mask) -> actions`, sampling
    its moves from its masked policy, a uniform legal move with probability `epsilon`."""
    frozen = copy.deepcopy(net).eval()

    def play(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        x = torch.as_tensor(np.asarray(obs))
        if frozen.input_form == "flat":
            x = x.reshape(len(x), -1).float()
        with torch.no_grad():
            logits, _ = frozen(x)
        legal = torch.as_tensor(np.asarray(mask) > 0)
        if epsilon:
            uniform = torch.rand(len(logits)) < epsilon
            logits = torch.where(uniform[:, None], torch.zeros_like(logits), logits)
        actions, _ = sample(masked_logits(logits, legal))
        return actions.numpy()

    return play


def progress_line(preset: Preset, row: dict[str, float]) -> str:
    return (
        f"steps {int(row['steps']):>11,} {row['seconds']:6.0f} s (cpu {row['cpu_seconds']:.0f} s, "
        f"load {row['load']:.1f}) {row['sps']:8,.0f} steps/s "
        f"(env {row['env_sps']:,.0f}, inference {row['inference_sps']:,.0f}, learning "
        f"{row['learning_sps']:,.0f})  games {int(row['games']):,}  {preset.metric} "
        f"{row[preset.metric]:.3f}  entropy {row['entropy']:.3f}  kl {row['approx_kl']:.4f}"
    )


def evaluate(
    preset: Preset,
    net: ActorCritic,
    games: int,
    seed: int,
    opponent: str | None = None,
    search: SearchSettings | None = None,
) -> tuple[float, dict[str, int]]:
    """(the mean figure, the count of won, drawn and lost games) of `games` greedy games on fresh
    seeds (the vector env, 64 at a time); a self-play preset plays `opponent` alone. With a
    `search` of depth > 0 (a tic-tac-toe `board` network), each move is the search's, as
    `ppo:PATH?depth=...` plays it (`policies/ppo/search.py`), one game at a time."""
    venv = make_env(preset, min(games, 64), opponent=opponent).unwrapped
    rewards = Rewards(preset, venv.num_envs)
    obs, infos = venv.reset(seed=seed)
    mask = infos["action_mask"] > 0
    results: list[float] = []
    outcomes = {"won": 0, "drawn": 0, "lost": 0}
    while len(results) < games:
        if search is not None and search.depth:
            legal = np.asarray(mask, dtype=bool)
            actions = torch.as_tensor(
                [
                    best_move(net, np.asarray(o), m, search)[0] if m.any() else 0
                    for o, m in zip(obs, legal, strict=True)
                ]
            )
        else:
            with torch.no_grad():
                logits, _ = net(as_tensors(tmap(np.array, obs)))
            legal_t = torch.as_tensor(np.array(mask, dtype=bool))
            actions = masked_logits(logits, legal_t).argmax(1)
        obs, reward, term, trunc, infos = venv.step(actions.numpy())
        done = term | trunc
        if done.any():
            results.extend(rewards.metric(reward, term, infos)[done].tolist())
            for r in reward[done][: games - sum(outcomes.values())]:
                outcomes["won" if r > 0 else "lost" if r < 0 else "drawn"] += 1
            obs, mask = venv.reset_finished(), venv.action_masks()
        else:
            mask = infos["action_mask"] > 0
    return float(np.mean(results[:games])), outcomes


SB3_DEFAULTS = {"batch_size": 64, "n_epochs": 10, "learning_rate": 3e-4, "ent_coef": 0.0}
"""SB3 PPO's own defaults for the minibatch, epochs, learning rate and entropy bonus."""


def sb3_throughput(preset: Preset, seconds: float, seed: int, settings: dict[str, Any]) -> float:
    """Steps/s of SB3's PPO (or MaskablePPO) with the preset's network (`net_arch`: the same
    hidden layers, actor and critic apart, tanh) on the same native vector env, counted over
    the whole iterations (rollout and update) done in `seconds`."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback

    from arcade_gym.sb3 import NativeVecEnv

    class Iterations(BaseCallback):
        """Notes (time, steps) as each rollout starts (the last update is then done); stops
        at the deadline."""

        def __init__(self, end: float) -> None:
            super().__init__()
            self.end, self.marks = end, [(time.perf_counter(), 0)]

        def _on_rollout_start(self) -> None:
            self.marks.append((time.perf_counter(), self.num_timesteps))

        def _on_step(self) -> bool:
            return time.perf_counter() < self.end

    algorithm: Any = MaskablePPO if preset.sb3 == "MaskablePPO" else PPO
    model = algorithm(
        "MlpPolicy",
        NativeVecEnv(make_env(preset, preset.num_envs), seed=seed),
        n_steps=preset.num_steps,
        gamma=preset.gamma,
        gae_lambda=preset.gae_lambda,
        policy_kwargs={"net_arch": list(preset.arch["hidden"])},
        seed=seed,
        device="cpu",
        **settings,
    )
    start = time.perf_counter()
    callback = Iterations(start + seconds)
    model.learn(total_timesteps=10**12, callback=callback)
    (t0, _), (t1, steps) = callback.marks[0], callback.marks[-1]
    return steps / (t1 - t0) if steps else float("nan")


def compare_sb3(preset: Preset, seconds: float, seed: int, ours: float) -> dict[str, float]:
    """Train SB3 for `seconds` twice on the same env with the same network, with SB3's own
    defaults for minibatch and epochs, then with this run's; print the three throughputs."""
    ours_settings = {
        "batch_size": preset.num_envs * preset.num_steps // preset.minibatches,
        "n_epochs": preset.epochs,
        "learning_rate": preset.lr,
        "ent_coef": preset.ent_coef,
    }
    defaults = sb3_throughput(preset, seconds, seed, SB3_DEFAULTS)
    same = sb3_throughput(preset, seconds, seed, ours_settings)
    print(
        f"same sitting, {preset.env_id}, {preset.num_envs} games x {preset.num_steps} steps, MLP "
        f"{preset.arch['hidden']} (actor and critic apart), load average "
        f"{os.getloadavg()[0]:.1f}:\n"
        f"  examples/ppo.py ({preset.minibatches} minibatches x {preset.epochs} epochs): "
        f"{ours:,.0f} steps/s\n"
        f"  SB3 {preset.sb3}, its defaults (minibatch 64, 10 epochs): {defaults:,.0f} steps/s: "
        f"examples/ppo.py is {ours / defaults:.1f}x\n"
        f"  SB3 {preset.sb3}, this run's minibatch and epochs: {same:,.0f} steps/s: "
        f"examples/ppo.py is {ours / same:.1f}x",
        flush=True,
    )
    return {"sb3_defaults_sps": defaults, "sb3_same_sps": same}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    add = parser.add_argument
    add("--preset", choices=sorted(PRESETS), default="snake")
    add("--minutes", type=float, default=10.0, help="wall-time budget (default 10; 0: none)")
    add(
        "--cpu-minutes",
        type=float,
        default=0.0,
        help="budget in minutes of this process's CPU time (a busy machine: what a quiet one "
        "does in that wall time with as many threads); with --minutes 0, the only budget",
    )
    add("--timesteps", type=int, default=0, help="step budget (0: the minutes only)")
    add("--out", type=Path, help="model file (default models/ppo-PRESET.pt)")
    add("--log", type=Path, help="CSV log, a row an iteration (default: the model's path, .csv)")
    add("--tensorboard", metavar="DIR", help="also write TensorBoard scalars (if installed)")
    add("--seed", type=int, default=0)
    add("--envs", type=int, help="games stepped together (default: the preset's)")
    add("--steps", type=int, help="steps of every game an iteration (default: the preset's)")
    add("--lr", type=float, help="learning rate (default: the preset's; annealed to 5%%)")
    add("--ent-coef", type=float, help="entropy bonus (default: the preset's)")
    add("--vf-coef", type=float, help="weight of the value loss (default: the preset's)")
    add("--size", type=int, choices=(3, 5, 10), help="tic-tac-toe board (default 3)")
    add(
        "--threads",
        type=int,
        default=0,
        help="torch threads (default 0: one per core)",
    )
    add("--eval-games", type=int, default=100, help="greedy games played after training")
    add(
        "--eval-opponent",
        help="self-play: whom they are played against (default: perfect on "
        "3x3, greedy on larger boards)",
    )
    add(
        "--eval-search",
        metavar="OPTIONS",
        help="self-play tic-tac-toe: play the evaluation games with the search `ppo:PATH?OPTIONS` "
        "plays, e.g. 'depth=4&nodes=20000' (policies/ppo/search.py)",
    )
    add(
        "--evaluate",
        type=Path,
        metavar="MODEL",
        help="train nothing: evaluate this saved model of the preset",
    )
    add(
        "--compare-sb3",
        action="store_true",
        help="then SB3 PPO as long, with its defaults and "
        "with this run's settings: print the three speeds",
    )
    add("--compare-seconds", type=float, default=60.0, help="seconds of each run to compare")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = parse_args(argv)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    threads = args.threads or cores or 1
    torch.set_num_threads(threads)
    preset = PRESETS[args.preset]
    changes: dict[str, Any] = {"num_envs": args.envs, "num_steps": args.steps, "lr": args.lr}
    changes["ent_coef"] = args.ent_coef
    changes["vf_coef"] = args.vf_coef
    if args.size:
        if preset.boards is not None:
            raise SystemExit(f"--size: {args.preset} trains on every size {sorted(preset.boards)}")
        changes["env_kwargs"] = {**preset.env_kwargs, "size": args.size}
    preset = replace(preset, **{k: v for k, v in changes.items() if v})
    if preset.boards is not None:  # the sizes' shares of the games, num_envs in all
        preset = replace(preset, boards=board_games(preset.boards, preset.num_envs))
    if args.compare_sb3 and preset.arch["kind"] != "mlp":
        raise SystemExit("--compare-sb3 needs an MLP preset (SB3's MlpPolicy): snake, tictactoe")
    search = None
    if args.eval_search:
        from policies.ppo.policy import PPOModelError, parse_search

        try:
            search = parse_search("--eval-search", args.eval_search)
        except PPOModelError as exc:
            raise SystemExit(str(exc)) from None
        if search.depth and preset.arch["kind"] != "board":
            raise SystemExit("--eval-search: a search needs a tic-tac-toe board preset")
    if args.evaluate:
        return evaluate_all(args, preset, load_model(args.evaluate).network, {}, search)
    out = args.out or Path(f"models/ppo-{args.preset}.pt")
    log = args.log or out.with_suffix(".csv")
    log.parent.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(preset, args.seed, log)
    if args.tensorboard:
        try:
            from torch.utils.tensorboard import SummaryWriter

            trainer.tensorboard = SummaryWriter(args.tensorboard)
        except ImportError:
            print("tensorboard is not installed: the CSV log only")
    print(
        f"{args.preset}: {preset.env_id} {preset.env_kwargs}, {preset.num_envs} games x "
        f"{preset.num_steps} steps an iteration, {threads} torch thread(s), load average "
        f"{os.getloadavg()[0]:.1f}, log {log}",
        flush=True,
    )
    minutes = args.compare_seconds / 60.0 if args.compare_sb3 else args.minutes
    try:
        row = trainer.train(minutes, args.timesteps, cpu_minutes=args.cpu_minutes)
    except KeyboardInterrupt:
        print("interrupted: saving the model as it is")
        row = {}
    if row:
        print(progress_line(preset, row), flush=True)
    save_model(out, trainer.model(args.preset, row))
    print(f"saved {out} ({trainer.steps:,} steps)")
    if args.compare_sb3:
        row.update(compare_sb3(preset, args.compare_seconds, args.seed, row["sps"]))
    return evaluate_all(args, preset, trainer.net, row, search)


def evaluate_all(
    args: argparse.Namespace,
    preset: Preset,
    net: ActorCritic,
    row: dict[str, float],
    search: SearchSettings | None,
) -> dict[str, float]:
    """The run's own evaluation (`--eval-games` on each board size), added to `row`."""
    if args.eval_games:
        sizes = sorted(preset.boards) if preset.boards is not None else [None]
        for size in sizes:
            played = preset
            if size is not None:  # one size at a time, on its own board
                kwargs = {**preset.env_kwargs, "size": size}
                played = replace(preset, boards=None, env_kwargs=kwargs, opening={})
            opponent = None
            if preset.selfplay is not None:
                board = played.env_kwargs["size"]
                opponent = args.eval_opponent or ("perfect" if board == 3 else "greedy")
                if opponent == "perfect" and board != 3:
                    opponent = "tactician"
            key = "eval" if size is None else f"eval{size}"
            row[key], outcomes = evaluate(
                played,
                net,
                args.eval_games,
                seed=10**6 + args.seed,
                opponent=opponent,
                search=search,
            )
            won = ", ".join(f"{v} {k}" for k, v in outcomes.items())
            board_name = "" if size is None else f" {size}x{size}"
            against = f" against {opponent} ({won})" if opponent else ""
            how = (
                f"search {search.query()[1:]}" if search is not None and search.depth else "greedy"
            )
            print(
                f"{how}, {args.eval_games} fresh{board_name} games{against}: mean "
                f"{preset.metric} {row[key]:.3f}",
                flush=True,
            )
    return row


if __name__ == "__main__":
    main()
