"""numpy's `Generator(PCG64(seed)).integers(n)` inside numba kernels, bit for bit.

The weak rungs (`arcade_gym/chess/opponents.py`) break ties with `rng.integers(len(moves))` on
a PCG64 stream; the batched chess env (`arcade_gym/chess/vector.py`) plays them in a kernel and
must draw the same numbers. A stream is six uint64 words: the 128-bit LCG state (high, low),
its increment (high, low), and numpy's buffered half-word (a flag and the word). numpy's path
for a range below 2**32 is Lemire's multiply-and-reject on 32-bit draws, each 64-bit output
serving two draws (low half first); a range of one draws nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RNG_WORDS = 6
R_STATE_HI, R_STATE_LO, R_INC_HI, R_INC_LO, R_HAS32, R_WORD32 = range(RNG_WORDS)

_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_S58 = np.uint64(58)
_S64 = np.uint64(64)


def stream_words(seed: int) -> np.ndarray:
    """The six words of a fresh `np.random.PCG64(seed)` (as `MoveRule(seed)` seeds it)."""
    state = np.random.PCG64(seed).state["state"]
    s, inc = int(state["state"]), int(state["inc"])
    mask = (1 << 64) - 1
    return np.array([s >> 64, s & mask, inc >> 64, inc & mask, 0, 0], np.uint64)


@njit(cache=True)
def _mul_full(a: np.uint64, b: np.uint64) -> tuple[np.uint64, np.uint64]:
    """(high, low) words of the 128-bit product of two uint64."""
    a_lo, a_hi = a & _M32, a >> _S32
    b_lo, b_hi = b & _M32, b >> _S32
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    mid = (p0 >> _S32) + (p1 & _M32) + (p2 & _M32)
    lo = (p0 & _M32) | (mid << _S32)
    hi = a_hi * b_hi + (p1 >> _S32) + (p2 >> _S32) + (mid >> _S32)
    return hi, lo


@njit(cache=True)
def next64(rng: np.ndarray) -> np.uint64:
    """Advance the LCG and return PCG64's XSL-RR output."""
    hi, lo = _mul_full(rng[R_STATE_LO], _MULT_LO)
    hi += rng[R_STATE_HI] * _MULT_LO + rng[R_STATE_LO] * _MULT_HI
    lo2 = lo + rng[R_INC_LO]
    hi += rng[R_INC_HI] + (np.uint64(1) if lo2 < lo else np.uint64(0))
    rng[R_STATE_HI] = hi
    rng[R_STATE_LO] = lo2
    x = hi ^ lo2
    r = hi >> _S58
    return (x >> r) | (x << ((_S64 - r) & np.uint64(63)))


@njit(cache=True)
def next32(rng: np.ndarray) -> np.uint64:
    """numpy's `next_uint32`: the buffered high half, else the low half of a new output."""
    if rng[R_HAS32]:
        rng[R_HAS32] = 0
        return rng[R_WORD32]
    word = next64(rng)
    rng[R_HAS32] = 1
    rng[R_WORD32] = word >> _S32
    return word & _M32


@njit(cache=True)
def integers(rng: np.ndarray, n: int) -> int:
    """`Generator.integers(n)` for 1 <= n < 2**32."""
    if n <= 1:
        return 0
    excl = np.uint64(n)
    m = next32(rng) * excl
    leftover = m & _M32
    if leftover < excl:
        threshold = (_M32 - (excl - np.uint64(1))) % excl
        while leftover < threshold:
            m = next32(rng) * excl
            leftover = m & _M32
    return np.int64(m >> _S32)  # type: ignore[return-value]  # numba types it int64
