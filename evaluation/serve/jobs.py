"""The live runs of `arcade-eval serve`: one at a time, a few waiting, each a child process.

A run is the `arcade-eval` command its `LiveRun` names (`evaluation/core/live.py`), started as a
child process in a session of its own and tagged through its environment (`RUN_TAG`, inherited by
everything it starts), so it writes exactly what the command writes and nothing it starts can
outlive it. Its output, line by line, becomes events the page reads over server-sent events.

Stopping a run (cancel, or the server stopping) sends SIGINT to its process group, as Ctrl-C
would: the command stops the way it does in a terminal (a run directory stays resumable, a scratch
directory is removed). After `grace_s` seconds whatever is left of its tree is killed
(`policies/engines/process.py:kill_process_tree`).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.core.live import LiveRun
from policies.engines.process import POSIX, kill_process_tree

RUN_TAG = "ARCADE_SERVE_RUN"
"""The environment variable that marks every process of one live run's tree (value: its tag)."""
MAX_LINE = 2000
"""Characters of one output line kept (a longer line is cut, marked with an ellipsis)."""
MAX_EVENTS = 20_000
"""Events kept per run; the oldest lines go first (the page is told how many it missed)."""
KEEP_FINISHED = 20
"""Finished runs listed (and replayable) before the oldest is forgotten."""
STATES = ("queued", "running", "done", "failed", "cancelled")


class QueueFullError(Exception):
    """A run was refused because enough are waiting already."""


@dataclass
class Event:
    """One server-sent event: its id (0, 1, ... per run), its name and its JSON data."""

    id: int
    name: str
    data: dict[str, Any]


@dataclass
class Job:
    """One live run: what was asked, its state and the events it produced so far."""

    id: str
    run: LiveRun
    values: dict[str, Any]
    argv: list[str]
    state: str = "queued"
    exit_code: int | None = None
    lines: int = 0
    events: list[Event] = field(default_factory=list)
    next_id: int = 0
    cancel_at: float | None = None
    pid: int | None = None
    tag: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def finished(self) -> bool:
        """Whether the run has ended (done, failed or cancelled)."""
        return self.state in ("done", "failed", "cancelled")

    def to_dict(self) -> dict[str, Any]:
        """The run as the page lists it."""
        return {
            "id": self.id,
            "run": self.run.key,
            "title": self.run.title,
            "values": self.values,
            "command": ["arcade-eval", *self.argv],
            "state": self.state,
            "exitCode": self.exit_code,
            "lines": self.lines,
            "steps": self.run.steps,
            "events": f"/api/runs/{self.id}/events",
        }


class Runner:
    """Runs jobs one at a time in a worker thread; at most `max_waiting` wait behind it.
    `command` is the argv prefix of the command (default: this Python running `arcade-eval`);
    `say` gets a line when a run starts and when it ends (the server's own log)."""

    def __init__(
        self,
        command: Sequence[str] | None = None,
        *,
        max_waiting: int = 3,
        grace_s: float = 5.0,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        import sys

        self.command = list(command or [sys.executable, "-m", "evaluation.cli"])
        self.max_waiting = max_waiting
        self.grace_s = grace_s
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        self.say = say or (lambda line: None)
        self._jobs: dict[str, Job] = {}
        self._queue: list[Job] = []
        self._lock = threading.Condition()
        self._stopping = False
        self._worker = threading.Thread(target=self._work, name="serve-runner", daemon=False)
        self._worker.start()

    # -- what the server calls -------------------------------------------------------------

    @property
    def stopping(self) -> bool:
        """Whether `stop` was called (event streams end)."""
        return self._stopping

    def submit(self, run: LiveRun, values: dict[str, Any]) -> Job:
        """Queue `run` with checked `values`; `QueueFullError` when `max_waiting` wait already."""
        argv = run.argv(values)
        with self._lock:
            if self._stopping:
                raise QueueFullError("the server is stopping")
            if len(self._queue) >= self.max_waiting:
                raise QueueFullError(
                    f"{len(self._queue)} runs are waiting already; wait for one to finish or "
                    "cancel one"
                )
            job = Job(uuid.uuid4().hex[:12], run, dict(values), argv)
            self._emit(job, "state", {"state": "queued", "position": len(self._queue) + 1})
            self._jobs[job.id] = job
            self._queue.append(job)
            self._forget_old()
            self._lock.notify_all()
            return job

    def get(self, job_id: str) -> Job | None:
        """The job of that id (None: unknown or forgotten)."""
        with self._lock:
            return self._jobs.get(job_id)

    def jobs(self) -> list[Job]:
        """Every job known, oldest first."""
        with self._lock:
            return list(self._jobs.values())

    def cancel(self, job: Job) -> None:
        """Cancel a waiting job, or interrupt a running one (SIGINT, then kill after the grace)."""
        with self._lock:
            if job in self._queue:
                self._queue.remove(job)
                self._finish(job, "cancelled", None)
            elif job.state == "running" and job.cancel_at is None:
                job.cancel_at = time.monotonic()
                self._emit(job, "line", {"text": "(cancel asked: interrupting the run)"})
                self._interrupt(job)
            self._lock.notify_all()

    def events_after(
        self, job: Job, after: int, timeout: float
    ) -> tuple[list[Event], int | None, bool]:
        """Events of `job` with an id above `after` (waiting up to `timeout` for one), the number
        of events dropped in between (None: none), and whether no more will come (the job ended,
        or the server stopped and its worker is gone)."""
        with self._lock:
            self._lock.wait_for(lambda: job.next_id - 1 > after or job.finished, timeout)
            events = [e for e in job.events if e.id > after]
            first = job.events[0].id if job.events else job.next_id
            dropped = first - after - 1 if first > after + 1 else None
            done = job.finished or (self._stopping and not self._worker.is_alive())
            return events, dropped, done

    def stop(self) -> None:
        """Cancel every waiting job, interrupt the running one, wait for the worker to end, and
        kill whatever is left of any run's process tree."""
        with self._lock:
            self._stopping = True
            for job in list(self._queue):
                self._finish(job, "cancelled", None)
            self._queue.clear()
            for job in self._jobs.values():
                if job.state == "running" and job.cancel_at is None:
                    job.cancel_at = time.monotonic()
                    self._interrupt(job)
            self._lock.notify_all()
        self._worker.join(self.grace_s + 10.0)
        for job in self.jobs():
            if job.pid is not None:
                kill_process_tree(job.pid, job.tag, RUN_TAG)

    # -- the worker --------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._stopping or bool(self._queue))
                if self._stopping:
                    return
                job = self._queue.pop(0)
                job.state = "running"
                self._emit(job, "state", {"state": "running"})
                for position, waiting in enumerate(self._queue, 1):
                    self._emit(waiting, "state", {"state": "queued", "position": position})
                self._lock.notify_all()
            self._run(job)

    def _run(self, job: Job) -> None:
        env = {**self.env, RUN_TAG: job.tag, "PYTHONUNBUFFERED": "1"}
        try:
            proc = subprocess.Popen(
                [*self.command, *job.argv],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=self.cwd,
                env=env,
                close_fds=True,
                start_new_session=POSIX,
            )
        except OSError as error:
            with self._lock:
                self._emit(job, "line", {"text": f"cannot start the run: {error}"})
                self._finish(job, "failed", None)
            return
        self.say(f"run {job.id} started: arcade-eval {' '.join(job.argv)}")
        with self._lock:
            job.pid = proc.pid
            if job.cancel_at is not None or self._stopping:
                self._interrupt(job)
        try:
            self._read(job, proc)
        finally:
            kill_process_tree(proc.pid, job.tag, RUN_TAG)
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            code = proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
            with self._lock:
                cancelled = job.cancel_at is not None
                state = "cancelled" if cancelled else ("done" if code == 0 else "failed")
                self._finish(job, state, code)
            self.say(f"run {job.id} {state} (exit {code})")

    def _read(self, job: Job, proc: subprocess.Popen[bytes]) -> None:
        """Turn the run's output into line events until it ends (or the grace after a cancel
        runs out: then its tree is killed, which closes the pipe)."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        os.set_blocking(fd, False)
        pending = b""
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            exited_at: float | None = None
            while True:
                now = time.monotonic()
                if job.cancel_at is not None and now - job.cancel_at > self.grace_s:
                    kill_process_tree(proc.pid, job.tag, RUN_TAG)
                if exited_at is None and proc.poll() is not None:
                    exited_at = now
                    kill_process_tree(proc.pid, job.tag, RUN_TAG)  # helpers holding the pipe
                elif exited_at is not None and now - exited_at > 1.0:
                    break  # something outside the tree holds the pipe: stop waiting for it
                if not selector.select(0.2):
                    continue
                try:
                    chunk = os.read(fd, 65_536)
                except BlockingIOError:
                    continue
                if not chunk:
                    break
                *lines, pending = (pending + chunk).split(b"\n")
                if len(pending) > 4 * MAX_LINE:
                    lines.append(pending)
                    pending = b""
                self._lines(job, lines)
        if pending:
            self._lines(job, [pending])

    def _lines(self, job: Job, lines: list[bytes]) -> None:
        with self._lock:
            for raw in lines:
                text = raw.decode("utf-8", errors="replace").rstrip("\r")
                if len(text) > MAX_LINE:
                    text = text[: MAX_LINE - 1] + "\u2026"
                job.lines += 1
                self._emit(job, "line", {"text": text, "n": job.lines})
            self._lock.notify_all()

    # -- helpers (called with the lock held) ------------------------------------------------

    def _emit(self, job: Job, name: str, data: dict[str, Any]) -> None:
        job.events.append(Event(job.next_id, name, data))
        job.next_id += 1
        if len(job.events) > MAX_EVENTS:
            del job.events[: len(job.events) - MAX_EVENTS]

    def _finish(self, job: Job, state: str, code: int | None) -> None:
        job.state = state
        job.exit_code = code
        self._emit(job, "end", {"state": state, "exitCode": code})
        self._lock.notify_all()

    def _interrupt(self, job: Job) -> None:
        """SIGINT to the run's process group, as Ctrl-C in a terminal would send."""
        if job.pid is None or not POSIX:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(job.pid, signal.SIGINT)

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.finished]
        for job in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self._jobs[job.id]
