"""Resource limits applied inside an engine's child process before it runs the engine.

`resource.setrlimit` runs in the child between fork and exec (POSIX only; elsewhere the limits are
not applied and the engine runs unbounded). What each limit does on Linux:

- `memory_mb` -> `RLIMIT_AS`: the address space; an allocation past it fails (Python raises
  MemoryError, C's malloc returns NULL) so a runaway engine crashes instead of swapping the machine.
  Runtimes that reserve large virtual ranges up front (the JVM, V8/node, Go) need far more address
  space than they use, which is why agent CLIs run without this cap by default.
- `cpu_seconds` -> `RLIMIT_CPU`: CPU time per process; past it the kernel sends SIGXCPU/SIGKILL.
- `file_mb` -> `RLIMIT_FSIZE`: the largest file the engine may write.
- `core dumps` are always switched off (`RLIMIT_CORE` 0): a crashing engine must not fill the disk.

The limits are inherited by everything the engine starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

_MB = 1024 * 1024


@dataclass(frozen=True)
class ResourceLimits:
    """Per-process caps for an engine (None: not capped)."""

    memory_mb: int | None = 2048
    cpu_seconds: int | None = None
    file_mb: int | None = 64

    def __post_init__(self) -> None:
        for name in ("memory_mb", "cpu_seconds", "file_mb"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name} must be an int or None, got {value!r}")
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive, got {value}")

    def to_dict(self) -> dict[str, int | None]:
        """camelCase, for an engine's description in logs."""
        return {"memoryMb": self.memory_mb, "cpuSeconds": self.cpu_seconds, "fileMb": self.file_mb}

    def preexec(self) -> Callable[[], None] | None:
        """The function the child runs before exec (None where `resource` is missing)."""
        if resource is None:
            return None
        caps: list[tuple[int, int]] = [(resource.RLIMIT_CORE, 0)]
        if self.memory_mb is not None:
            caps.append((resource.RLIMIT_AS, self.memory_mb * _MB))
        if self.cpu_seconds is not None:
            caps.append((resource.RLIMIT_CPU, self.cpu_seconds))
        if self.file_mb is not None:
            caps.append((resource.RLIMIT_FSIZE, self.file_mb * _MB))

        def apply() -> None:
            for which, value in caps:
                _soft, hard = resource.getrlimit(which)
                if hard != resource.RLIM_INFINITY:
                    value = min(value, hard)
                resource.setrlimit(which, (value, value))  # hard too: the engine cannot lift it

        return apply


NO_LIMITS = ResourceLimits(memory_mb=None, cpu_seconds=None, file_mb=None)
"""Nothing capped but core dumps."""
