"""What can go wrong with a model call, sorted by who pays for it.

- A *model failure* has a reply (unreadable, a refusal, empty, cut off by its token limit): it is
  the model's answer and the benchmark scores it. No exception: the prompt module reads it.
- A *service failure* has no reply: connection errors, 429, 5xx, HTTP timeouts before any byte,
  a provider error inside a 200, a request the server rejected. `ServiceFailure` is raised only
  after retrying (with backoff, honouring `Retry-After`) for as long as the caller's deadline
  allows; a benchmark aborts the game on it (set aside, never scored, replayed on resume).
- A *fatal* fault cannot be fixed by retrying (missing or refused key, no credit, unknown model,
  an agent CLI that cannot start): `FatalModelError`, the batch stops with one message.

`ServiceFailure` is a `policies.base.ServiceFailureError` (the loop aborts the game);
`FatalModelError` and `CostCapReached` are `policies.base.RunStopError`s (the run stops, resumable).
- `CostCapReached`: the run's `--max-cost-usd` would be passed by the next call; the run stops
  cleanly and can resume with a higher cap.
- `CallCancelledError`: the caller's cancel signal fired (not a failure of anyone).
"""

from __future__ import annotations

from typing import Literal

from policies.base import RunStopError, ServiceFailureError


class LLMError(Exception):
    """Base of the errors this package raises about model calls."""


class ModelCallError(LLMError):
    """A call ended without a usable reply (base of `ServiceFailure` and `CallCancelledError`)."""

    def __init__(self, message: str, *, status: int | None = None, retries: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.retries = retries


ServiceReason = Literal[
    "rate-limit", "server", "connection", "timeout", "provider", "rejected", "local-limit", "cli"
]


class ServiceFailure(ModelCallError, ServiceFailureError):  # noqa: N818  (the loops' name)
    """No reply because of the service, not the model; the game is aborted, not scored.

    `reason` sorts it (429 `rate-limit`, 5xx `server`, `connection`, HTTP `timeout`, an error
    inside a 200 or a body that is not a completion `provider`, a 4xx the server refused
    `rejected`, our own requests-per-minute limit `local-limit`, an agent CLI that failed `cli`).
    """

    def __init__(
        self,
        message: str,
        *,
        reason: ServiceReason,
        status: int | None = None,
        retries: int = 0,
    ) -> None:
        super().__init__(message, status=status, retries=retries)
        self.reason: ServiceReason = reason


class CallCancelledError(ModelCallError):
    """The caller's cancel signal fired; the request was aborted."""


FatalReason = Literal["api-key", "auth", "payment", "model", "command", "seed"]


class FatalModelError(LLMError, RunStopError):
    """Retrying cannot help (bad or missing key, no credit, unknown model, a server that refuses
    the request `seed` repeats send): stop the batch."""

    def __init__(self, message: str, *, reason: FatalReason, status: int | None = None) -> None:
        super().__init__(message)
        self.reason: FatalReason = reason
        self.status = status


class CostCapReached(LLMError, RunStopError):  # noqa: N818  (a stop signal, not a fault)
    """The next call could pass the run's cost cap; nothing was sent. Stop cleanly, resumable."""

    def __init__(self, message: str, *, spent_usd: float, cap_usd: float) -> None:
        super().__init__(message)
        self.spent_usd = spent_usd
        self.cap_usd = cap_usd


def is_fatal(error: BaseException | str | None) -> bool:
    """Whether an exception, or the error text a harness logged for it, is fatal to a batch."""
    if isinstance(error, BaseException):
        return isinstance(error, FatalModelError)
    return isinstance(error, str) and error.startswith(FatalModelError.__name__)


def is_service_failure(error: BaseException | str | None) -> bool:
    """Whether an exception, or its logged text, is a service failure (abort the game)."""
    if isinstance(error, BaseException):
        return isinstance(error, ServiceFailure)
    return isinstance(error, str) and error.startswith(ServiceFailure.__name__)
