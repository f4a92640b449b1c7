"""The run-level errors of every benchmark, each defined once.

- `RunError`: a bad run request (a flag, a seed list, an output directory, a policy that cannot be
  used): the command prints its one line and exits 2. Every benchmark's CLI catches it.
- `PolicyUnusableError`: a policy can no longer answer at all (a refused key, an unknown model),
  found while playing. `evaluation/core/grid.py:play_grid` stops the run (its manifest says
  `stopped`, the game is set aside); it is a `RunError`, so the command says so in one line and
  exits 2: the same command cannot succeed until the key or model is fixed.
- `PolicyStoppedError`: one policy's remaining games are not played, the run goes on with the
  others (NARCADE: a policy that cannot be built, or changed since the games kept on resume).
  Raised by a benchmark's `play`; `play_grid` sets the game aside and lists the policy in
  `GridRun.stopped`.
"""

from __future__ import annotations


class RunError(Exception):
    """A bad run request: one line naming the fix, exit 2, nothing played."""


class PolicyUnusableError(RunError):
    """A policy can no longer answer at all (a refused key, an unknown model): the run stops."""


class PolicyStoppedError(Exception):
    """This policy's remaining games are not played (`reason` says why); the others go on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
