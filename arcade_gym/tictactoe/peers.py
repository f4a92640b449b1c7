"""Tic-tac-toe beside its peers (`arcade-eval bench --peers`), 3x3, in plies: the AEC env
against PettingZoo's tictactoe_v3 with no wrappers on either side and with each side's default
wrappers, and against pgx's tic_tac_toe (one jitted ply a call); the vector env `TicTacToe-v0`
(the agent's move and the partner's reply, both counted) against pgx batched."""

from __future__ import annotations

from typing import Any

from arcade_gym.core.peers import Built, PeerPair, any_aec, our_vector, timed
from arcade_gym.tictactoe import aec
from arcade_gym.tictactoe.bench import STEP_UNITS

PLY = "one ply of either player, random legal, 3x3; a finished agent's dead step not counted"


def _pettingzoo(wrapped: bool) -> Any:
    from pettingzoo.classic import tictactoe_v3

    return tictactoe_v3.env() if wrapped else tictactoe_v3.raw_env()


def _pgx(games: int) -> Built:
    import pgx

    from arcade_gym.core import jax_peers

    init, step = jax_peers.pgx_env(pgx.make("tic_tac_toe"))
    if games == 1:
        return timed(lambda: jax_peers.single(init, step))
    return timed(lambda: jax_peers.batched(init, step, games))


def peer_pairs() -> list[PeerPair]:
    """Tic-tac-toe's pairs."""
    pettingzoo = ("pettingzoo", "pygame")
    return [
        PeerPair(
            "tictactoe_v0 vs PettingZoo tictactoe_v3, no wrappers",
            "single",
            f"{PLY}; no wrappers on either side",
            any_aec(aec.env),
            any_aec(lambda: _pettingzoo(wrapped=False)),
            pettingzoo,
        ),
        PeerPair(
            "tictactoe_v0 vs PettingZoo tictactoe_v3, default wrappers",
            "single",
            f"{PLY}; each side in PettingZoo's default wrappers (illegal-move, bounds, order)",
            any_aec(aec.wrapped_env),
            any_aec(lambda: _pettingzoo(wrapped=True)),
            pettingzoo,
        ),
        PeerPair(
            "tictactoe_v0 vs pgx tic_tac_toe",
            "single",
            f"{PLY}; pgx: one jitted call a ply",
            any_aec(aec.env),
            _pgx,
            ("jax", "pgx"),
        ),
        PeerPair(
            "TicTacToe-v0 vector vs pgx tic_tac_toe vmap+scan",
            "batched",
            "one ply of either player, random legal, 3x3; ours: the agent's move and the random "
            "partner's reply inside one step, both counted",
            our_vector("arcade_gym/TicTacToe-v0", STEP_UNITS["TicTacToe-v0"], plies=True),
            _pgx,
            ("jax", "pgx"),
            games=1024,
            sweep=(1024, 4096),
        ),
    ]
