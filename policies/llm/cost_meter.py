"""The run's cost cap (`--max-cost-usd X`): a call that could take the spend past X is refused
before anything is sent (`CostCapReached`), so the run stops cleanly and resumes later.

Each call reserves its worst case before it is sent: the registry price of its prompt (about
four characters a token) plus its full completion budget, or the dearest call of that model seen
so far when that is more (or when the model has no price). The very first call of a model
without prices, or one billed above its list price, can therefore pass the cap by that one call.

The reservation is settled with the call's real cost once known: the reported or estimated cost
of a reply; the reserved estimate for a call cut off by its deadline or cancelled after it was
sent (the provider may still bill it); nothing for a call that failed before any reply (429,
5xx, connection errors bill nothing). Replies from the
response cache cost nothing. One meter is shared by every policy of a run; it is thread-safe.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from policies.llm.errors import CostCapReached

CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Reservation:
    """A booked worst case, settled once with what the call really cost."""

    model: str
    usd: float


class CostMeter:
    """Spend so far plus calls in flight, against a cap in USD."""

    def __init__(self, cap_usd: float, *, spent_usd: float = 0.0) -> None:
        if not (math.isfinite(cap_usd) and cap_usd >= 0):
            raise ValueError(f"--max-cost-usd must be a finite amount >= 0, got {cap_usd!r}")
        self.cap_usd = cap_usd
        self.spent_usd = spent_usd
        self.in_flight_usd = 0.0
        self.unpriced_calls = 0
        self._dearest: dict[str, float] = {}
        self._lock = threading.Lock()

    def worst_case(
        self,
        model: str,
        prompt_chars: int,
        max_tokens: int | None,
        price_in: float | None,
        price_out: float | None,
    ) -> float:
        """The most a call could cost: the registry price of the prompt and the whole completion
        budget, or the dearest call of this model seen so far if that was dearer (a provider
        may bill more than the list price) or there is no price."""
        with self._lock:
            dearest = self._dearest.get(model, 0.0)
        if price_in is None or price_out is None:
            return dearest
        prompt = math.ceil(prompt_chars / CHARS_PER_TOKEN)
        return max(dearest, (prompt * price_in + (max_tokens or 0) * price_out) / 1_000_000)

    def reserve(self, model: str, worst_case_usd: float) -> Reservation:
        """Book a call; CostCapReached when spent + in flight + this could pass the cap."""
        with self._lock:
            total = self.spent_usd + self.in_flight_usd + worst_case_usd
            if total > self.cap_usd:
                raise CostCapReached(
                    f"cost cap reached: ${self.spent_usd:.4f} spent, "
                    f"${self.in_flight_usd:.4f} in flight, and the next call to {model} could "
                    f"cost up to ${worst_case_usd:.4f}; the cap is ${self.cap_usd:.4f}. "
                    "Resume with a higher --max-cost-usd to go on",
                    spent_usd=self.spent_usd,
                    cap_usd=self.cap_usd,
                )
            self.in_flight_usd += worst_case_usd
            return Reservation(model, worst_case_usd)

    def settle(self, reservation: Reservation, cost_usd: float | None) -> None:
        """Replace a booking by the call's real cost (None: the booked estimate is charged)."""
        charged = reservation.usd if cost_usd is None else cost_usd
        with self._lock:
            self.in_flight_usd = max(0.0, self.in_flight_usd - reservation.usd)
            self.spent_usd += charged
            if cost_usd is None:
                self.unpriced_calls += 1
            else:
                self._dearest[reservation.model] = max(
                    self._dearest.get(reservation.model, 0.0), cost_usd
                )

    def release(self, reservation: Reservation) -> None:
        """Drop a booking that cost nothing (the call failed before any reply)."""
        with self._lock:
            self.in_flight_usd = max(0.0, self.in_flight_usd - reservation.usd)

    def to_dict(self) -> dict[str, float | int]:
        """camelCase, for a run's manifest."""
        with self._lock:
            return {
                "capUsd": self.cap_usd,
                "spentUsd": self.spent_usd,
                "inFlightUsd": self.in_flight_usd,
                "unpricedCalls": self.unpriced_calls,
            }
