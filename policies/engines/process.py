"""External engine processes that clean up after themselves.

Every engine process (a per-request `cmd:` or `cli:` command, or a persistent engine such as a UCI
one) is started by `spawn`: in a session of its own (so it and everything it starts share one
process group), with the resource limits of `policies/engines/limits.py`, a tree tag in its
environment (`TREE_TAG`, inherited by everything it starts), and registered so an interpreter exit
kills it. `kill_tree` ends it: SIGKILL to the group, then to every process still in its session
(helpers that moved to another group) or carrying its tag (helpers that started a session of their
own and were re-parented away), then a wait, so nothing is left behind. Only a helper that both
leaves the session and clears or replaces its environment before exec can escape; POSIX offers no
portable way to follow it (a cgroup would). `kill_process_tree(pid, tag)` does the same for an
engine another library started (the UCI engines of `policies/engines/uci.py`).

`exchange` feeds stdin and reads stdout/stderr with non-blocking I/O on the caller's thread (no
reader threads): it returns at the deadline whatever the engine does, and when the engine exits it
kills the group first, so a background helper that keeps the pipes open cannot make a move wait.

`ProcessEngine` runs one process per request: `run(text, deadline_s) -> EngineOutput`.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from policies.engines.limits import ResourceLimits
from policies.engines.output import EngineOutput, Failure

POSIX = os.name == "posix"

DEFAULT_TIMEOUT_S = 5.0
DEFAULT_MAX_OUTPUT = 65_536
STDERR_TAIL = 400
"""Characters of a crashed command's stderr kept in the error (its last lines say why)."""

DRAIN_GRACE_S = 0.25
"""After the engine exits and its group is killed, how long the pipes may take to reach EOF."""

_CHUNK = 65_536

TREE_TAG = "ARCADE_ENGINE_TREE"
"""The environment variable that marks every process of one engine's tree (value: its tag)."""

_live: dict[subprocess.Popen[bytes], str] = {}
_live_lock = threading.Lock()


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as argv (`shlex` rules; a sequence is taken as is); ValueError when empty."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv or not argv[0].strip():
        raise ValueError(
            f"an engine needs a command to run, e.g. 'python my_engine.py'; got {command!r}"
        )
    return argv


def new_tree_tag() -> str:
    """A fresh tag for one engine's process tree."""
    return uuid.uuid4().hex


def tree_env(tag: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment an engine starts with: `env` (default: ours) plus its tree tag."""
    return {**(os.environ if env is None else env), TREE_TAG: tag}


def spawn(
    argv: Sequence[str],
    *,
    limits: ResourceLimits | None = None,
    cwd: str | os.PathLike[str] | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start `argv` with piped stdin/stdout/stderr in a new session under `limits`, tagged.
    OSError when it cannot be started."""
    tag = new_tree_tag()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=tree_env(tag, env),
        close_fds=True,
        start_new_session=POSIX,
        preexec_fn=limits.preexec() if (limits is not None and POSIX) else None,
    )
    with _live_lock:
        _live[proc] = tag
    return proc


def tree_members(sid: int | None, tag: str | None, variable: str = TREE_TAG) -> list[int]:
    """Pids of live processes in session `sid` or carrying tree tag `tag` in their environment
    (as `variable`, by default `TREE_TAG`; Linux /proc; empty elsewhere). This process is never
    one of them."""
    members: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return members
    needle = f"{variable}={tag}".encode() if tag else None
    me = os.getpid()
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # fields after the ")" closing the command name: state ppid pgrp session ...
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) <= 3 or fields[0] == b"Z":
            continue
        in_session = sid is not None and int(fields[3]) == sid
        if in_session or (needle is not None and _carries(entry, needle)):
            members.append(int(entry))
    return members


def _carries(pid: str, needle: bytes) -> bool:
    """Whether process `pid`'s environment holds the entry `needle` (False when unreadable)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return needle in handle.read().split(b"\0")
    except OSError:
        return False


def kill_process_tree(pid: int | None, tag: str | None, variable: str = TREE_TAG) -> None:
    """SIGKILL the process group and session led by `pid` (an engine started in a session of its
    own) and every process carrying tree tag `tag` (as `variable`, by default `TREE_TAG`); looks
    again while members fork. No reaping."""
    if not POSIX:
        return
    if pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
    for _ in range(5):  # a member forking while we kill: look again
        members = tree_members(pid, tag, variable)
        if not members:
            break
        for member in members:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(member, signal.SIGKILL)


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """Kill `proc`, its process group and every process left in its session or carrying its
    tree tag; reap `proc`."""
    with _live_lock:
        tag = _live.get(proc)
    kill_process_tree(proc.pid, tag)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    with _live_lock:
        _live.pop(proc, None)


@atexit.register
def _kill_all() -> None:
    """No engine outlives the interpreter (Ctrl-C, an uncaught error)."""
    with _live_lock:
        procs = list(_live)
    for proc in procs:
        kill_tree(proc)


@dataclass
class Exchange:
    """What one request got back: stdout (capped), the tail of stderr, and why it stopped early
    (None: the engine exited by itself)."""

    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    failure: Failure | None = None
    returncode: int | None = None


def exchange(
    proc: subprocess.Popen[bytes],
    data: bytes,
    *,
    deadline: float,
    max_output: int,
    cancel: threading.Event | None = None,
) -> Exchange:
    """Feed `data`, read until the engine exits, `deadline` (a `time.monotonic()` instant) passes,
    `cancel` is set or stdout passes `max_output` bytes; then kill the engine's whole tree.
    Never blocks past the deadline, whatever the engine's helpers do with the pipes."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    result = Exchange()
    selector = selectors.DefaultSelector()
    pending = memoryview(data)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        os.set_blocking(stream.fileno(), False)
    if pending:
        selector.register(proc.stdin, selectors.EVENT_WRITE)
    else:
        proc.stdin.close()
    selector.register(proc.stdout, selectors.EVENT_READ)
    selector.register(proc.stderr, selectors.EVENT_READ)
    exited_at: float | None = None
    try:
        while selector.get_map():
            now = time.monotonic()
            if exited_at is None and proc.poll() is not None:
                exited_at = now
                kill_tree_group_only(proc)  # helpers die now; what they wrote stays in the pipes
            if exited_at is not None and now - exited_at > DRAIN_GRACE_S:
                break  # a helper outside the group holds the pipes: stop waiting for it
            if now >= deadline:
                result.failure = "timeout"
                break
            if cancel is not None and cancel.is_set():
                result.failure = "cancelled"
                break
            wait = min(0.02, deadline - now)
            for key, _ in selector.select(wait):
                if key.fileobj is proc.stdin:
                    try:
                        written = os.write(proc.stdin.fileno(), pending[:_CHUNK])
                    except (BrokenPipeError, BlockingIOError, OSError) as exc:
                        if isinstance(exc, BlockingIOError):
                            continue
                        written = len(pending)  # the engine stopped reading: not its fault
                    pending = pending[written:]
                    if not pending:
                        selector.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                try:
                    chunk = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                if key.fileobj is proc.stdout:
                    result.stdout += chunk
                    if len(result.stdout) > max_output:
                        result.failure = "output-limit"
                        return result
                else:
                    result.stderr += chunk
                    del result.stderr[: max(0, len(result.stderr) - 4 * STDERR_TAIL)]
    finally:
        selector.close()
        kill_tree(proc)
        result.returncode = proc.returncode
    return result


def kill_tree_group_only(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the engine's process group without reaping (its exit status is read later)."""
    if POSIX:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


def describe_exit(code: int, stderr: bytes) -> str:
    """`crashed: exit code 1: <stderr tail>` or `crashed: killed by signal 9`."""
    how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
    tail = stderr.decode("utf-8", errors="replace").strip()[-STDERR_TAIL:]
    return f"crashed: {how}" + (f": {tail}" if tail else "")


@dataclass
class ProcessEngine:
    """Any external program as a text engine: one process per request, the request on stdin, the
    reply read from stdout.

    `run(text, deadline_s)` starts the command (split with `shlex`, no shell) in its own session
    under `limits`, gives it `min(timeout_s, deadline_s)` seconds, and always kills its whole tree
    before returning. It never raises for the engine's fault: a crash, a timeout, too much output or
    a command that cannot start come back as `EngineOutput.error`. `encoding` decodes the output
    (`latin-1` keeps every byte, for engines speaking a byte protocol; `utf-8` for text tools).
    """

    command: str | Sequence[str]
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_output: int = DEFAULT_MAX_OUTPUT
    limits: ResourceLimits = field(default_factory=ResourceLimits)
    cwd: str | os.PathLike[str] | None = None
    env: dict[str, str] | None = None
    encoding: str = "latin-1"
    argv: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.argv = split_command(self.command)
        if not self.timeout_s > 0:
            raise ValueError(f"timeout_s must be positive, got {self.timeout_s!r}")
        if self.max_output <= 0:
            raise ValueError(f"max_output must be positive, got {self.max_output!r}")

    @property
    def label(self) -> str:
        """A short name for tables: the script's stem, else the program's name."""
        return Path(self.argv[-1]).stem or Path(self.argv[0]).name

    def run(
        self, text: str, deadline_s: float | None = None, *, cancel: threading.Event | None = None
    ) -> EngineOutput:
        """Answer `text` within `deadline_s` seconds from now (None: `timeout_s`)."""
        t0 = time.monotonic()
        budget = self.timeout_s if deadline_s is None else max(0.0, min(self.timeout_s, deadline_s))
        try:
            proc = spawn(self.argv, limits=self.limits, cwd=self.cwd, env=self.env)
        except OSError as exc:
            return EngineOutput(
                error=f"could not start {self.argv[0]!r}: {exc.strerror or exc}",
                failure="start",
                elapsed_ms=_ms(t0),
            )
        got = exchange(
            proc,
            text.encode(self.encoding, errors="replace"),
            deadline=t0 + budget,
            max_output=self.max_output,
            cancel=cancel,
        )
        output = bytes(got.stdout[: self.max_output]).decode(self.encoding, errors="replace")
        error: str | None = None
        if got.failure == "timeout":
            error = f"timeout: no reply within {budget * 1000:g} ms (process killed)"
        elif got.failure == "cancelled":
            error = "cancelled: the reply was no longer wanted (process killed)"
        elif got.failure == "output-limit":
            error = f"output limit exceeded: more than {self.max_output:,} bytes"
        elif got.returncode:
            got.failure = "crash"
            error = describe_exit(got.returncode, bytes(got.stderr))
        return EngineOutput(output=output, error=error, failure=got.failure, elapsed_ms=_ms(t0))


def _ms(t0: float) -> float:
    return (time.monotonic() - t0) * 1000.0


def make_command_engine(command: str, **options: object) -> ProcessEngine:
    """The `cmd:COMMAND` engine: the game's engine text on stdin, one process per request.
    Options are `ProcessEngine`'s fields (timeout_s, max_output, limits, cwd, env, encoding)."""
    return ProcessEngine(command, **options)  # type: ignore[arg-type]
