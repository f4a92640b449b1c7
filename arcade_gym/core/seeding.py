"""Named seeds, the one small PRNG every game draws from (splitmix64), and FNV-1a state hashing.

A benchmark seed is a string (`"seed-01"`) or an int; strings are hashed to 64 bits so every
game, in any language, can derive the same stream. splitmix64 is tiny, fast inside numba kernels
and has a bit-exact pure-Python twin for code outside them.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def seed_to_u64(seed: str | int) -> int:
    """A named seed (`"seed-01"`) hashed to 64 bits; an int is taken as it is (mod 2**64)."""
    if isinstance(seed, bool) or not isinstance(seed, str | int | np.integer):
        raise TypeError(
            f"a seed must be a string such as 'seed-01' or an int, got {type(seed).__name__}"
        )
    if isinstance(seed, str):
        return int.from_bytes(hashlib.blake2b(seed.encode(), digest_size=8).digest(), "big")
    return int(seed) % 2**64


@njit(cache=True)
def splitmix64(state: np.ndarray) -> np.uint64:
    """Advance the one-word PRNG in `state[0]` (uint64) and return the next 64-bit output."""
    state[0] += np.uint64(_GOLDEN)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


def splitmix64_py(state: int) -> tuple[int, int]:
    """`splitmix64` on a Python int: `(new state, output)`, bit-exact with the kernel."""
    state = (state + _GOLDEN) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return state, z ^ (z >> 31)


FNV32_OFFSET = 2166136261
"""FNV-1a 32-bit offset basis: the state hash of an empty serialisation."""
_FNV32_PRIME = 16777619


@njit(cache=True)
def fnv1a32_byte(h: np.uint32, byte: int) -> np.uint32:
    """Fold one byte into a 32-bit FNV-1a hash."""
    return np.uint32((h ^ np.uint32(byte & 0xFF)) * np.uint32(_FNV32_PRIME))


@njit(cache=True)
def fnv1a32_word(h: np.uint32, value: int) -> np.uint32:
    """Fold a 64-bit integer (8 bytes, little-endian) into a 32-bit FNV-1a hash."""
    v = np.uint64(value)
    for _ in range(8):
        h = np.uint32((h ^ np.uint32(v & np.uint64(0xFF))) * np.uint32(_FNV32_PRIME))
        v >>= np.uint64(8)
    return h
