"""`arcade-eval bench --peers` (issue 23, item 5): the pairs are read off the games, the core and
CI never need the `peers` extra, and, where the extra is installed, a pair reports ours, the
peer and their ratio from one interleaved sitting (speed itself is never asserted)."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable

import pytest

from arcade_gym.core.peers import PeerPair, any_aec, best_games, installed, our_vector
from arcade_gym.tictactoe import aec
from arcade_gym.tictactoe.bench import STEP_UNITS
from evaluation.cli import main
from evaluation.throughput.peers import format_peers, measure_pair, peer_pairs

PEER_MODULES = ("jax", "jaxlib", "jumanji", "pgx", "tetris_gymnasium", "pygame")


def _child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_core_imports_no_peer_library() -> None:
    done = _child(
        f"""
        import sys
        import arcade_gym, evaluation.cli
        from evaluation.throughput.peers import peer_pairs
        pairs = peer_pairs()
        assert pairs and all(p.available() in (True, False) for p in pairs)
        loaded = [m for m in {PEER_MODULES!r} if m in sys.modules]
        assert not loaded, loaded
        """
    )
    assert done.returncode == 0, done.stderr


def test_the_core_works_without_the_peers_extra() -> None:
    done = _child(
        f"""
        import sys
        for name in {PEER_MODULES!r}:
            sys.modules[name] = None  # as if not installed: importing it fails
        import gymnasium as gym
        import numpy as np
        import arcade_gym
        for env_id in arcade_gym.ENVS:
            env = gym.make(env_id)
            _, info = env.reset(seed=0)
            env.step(int(np.flatnonzero(info["action_mask"])[0]))
        from evaluation.cli import main
        sys.exit(main(["bench", "--peers"]))
        """
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        'arcade-eval bench: bench --peers: no peer library is installed; pip install -e ".[peers]"'
    )


def test_every_game_names_its_pairs_and_what_one_step_is() -> None:
    pairs = peer_pairs()
    assert {p.kind for p in pairs} == {"single", "batched"}
    for pair in pairs:
        assert pair.unit and pair.requires
        if pair.kind == "batched":
            assert pair.games > 1 and pair.sweep
    assert len({p.name for p in pairs}) == len(pairs)


def test_an_unknown_pair_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--peers", "--only", "no such pair"]) == 2
    assert capsys.readouterr().err.strip() == (
        "arcade-eval bench: bench --peers: no pair's name contains 'no such pair'"
    )


def _finite(run: dict[str, object]) -> None:
    for side in ("ours", "peer"):
        rates = run[side]
        assert isinstance(rates, dict)
        assert rates["steps"] > 0 and math.isfinite(rates["stepsPerSecond"])
    ours, peer = run["ours"], run["peer"]
    assert isinstance(ours, dict) and isinstance(peer, dict)
    assert run["ratio"] == pytest.approx(ours["stepsPerSecond"] / peer["stepsPerSecond"])


def test_a_pettingzoo_pair_reports_ours_the_peer_and_the_ratio() -> None:
    pytest.importorskip("pygame")
    pair = next(p for p in peer_pairs() if p.name.endswith("tictactoe_v3, no wrappers"))
    entry = measure_pair(pair, 0.2)
    assert entry["kind"] == "single" and "best" not in entry
    _finite(entry["same"])
    report = {
        "packageVersion": "x",
        "python": "3",
        "machine": "m",
        "cpuCount": 2,
        "secondsPerFigure": 0.2,
        "pairs": [entry],
        "skipped": [],
    }
    assert pair.name in format_peers(report)


def test_a_batched_pair_measures_the_same_n_and_each_side_at_its_best_n() -> None:
    pytest.importorskip("pgx")
    from arcade_gym.tictactoe.peers import _pgx

    pair = PeerPair(
        "tiny",
        "batched",
        "a ply",
        our_vector("arcade_gym/TicTacToe-v0", STEP_UNITS["TicTacToe-v0"], plies=True),
        _pgx,
        ("jax", "pgx"),
        games=8,
        sweep=(8, 16),
    )
    entry = measure_pair(pair, 0.2)
    assert entry["same"]["oursGames"] == entry["same"]["peerGames"] == 8
    assert {entry["best"]["oursGames"], entry["best"]["peerGames"]} <= {8, 16}
    _finite(entry["same"])
    _finite(entry["best"])
    assert entry["same"]["compileSeconds"]["peer"] > 0


def test_a_jax_single_pair_plays_one_call_a_ply() -> None:
    pytest.importorskip("pgx")
    from arcade_gym.tictactoe.peers import _pgx

    pair = PeerPair("single", "single", "a ply", any_aec(aec.env), _pgx, ("jax", "pgx"))
    _finite(measure_pair(pair, 0.2)["same"])


def test_installed_is_false_for_a_blocked_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)
    assert not installed("jax") and installed("numpy")


def test_the_best_n_survives_a_load_spike_during_one_probe() -> None:
    """N=2 is the faster side, but its first probe meets a spike: its best probe still wins."""
    probes: dict[int, int] = {1: 0, 2: 0}

    def build(n: int) -> tuple[Callable[[float], int], float]:
        def run(deadline: float) -> int:
            while time.perf_counter() < deadline:
                pass
            probes[n] += 1
            return 10 if (n == 2 and probes[n] == 1) else 100 * n

        return run, 0.0

    assert best_games(build, (1, 2), 0.03) == 2
    assert probes == {1: 3, 2: 3}
