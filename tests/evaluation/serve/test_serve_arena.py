"""`arcade-eval serve` as a person runs it (issue 26's acceptance): started in a subprocess, an
arena run started over HTTP the way the live page starts it, its progress received as
server-sent events, its result saved where and as `arcade-eval ttt-arena bench` saves it, then
Ctrl-C (or SIGTERM, mid-run) stops the server with nothing left running and the port closed."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import evaluation.benchmarks  # noqa: F401  (registers the arena for verify)
from evaluation.core.verify import verify_paths
from tests.evaluation.serve.client import read_events, request, start_run
from tests.evaluation.serve.test_server import make_site

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "seeds" / "arena" / "entries"
MARK = "ARCADE_SERVE_TEST_MARK"
"""Set on the server process only: every process it starts inherits it, so a scan of /proc
finds anything of the server's still running."""


@dataclass
class Server:
    proc: subprocess.Popen[str]
    port: int
    mark: str
    scratch: Path

    def stop(self, sig: int = signal.SIGINT) -> str:
        """Send `sig`, wait for the exit, return what the server printed."""
        self.proc.send_signal(sig)
        out, _ = self.proc.communicate(timeout=120)
        return out


def marked_processes(mark: str) -> list[int]:
    """Live processes carrying `MARK=mark` in their environment."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            if stat[stat.rfind(b")") + 2 :].split()[0] == b"Z":
                continue
            if needle in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                found.append(int(entry))
        except OSError:
            continue
    return found


def entries_with(root: Path, *names: str) -> Path:
    """A copy of shipped entries without their results."""
    for name in names:
        shutil.copytree(SHIPPED / name, root / name, ignore=shutil.ignore_patterns("results"))
    return root


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    entries = entries_with(tmp_path / "entries", "broken", "first-empty")
    site = make_site(tmp_path / "site")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    mark = uuid.uuid4().hex
    env = {**os.environ, MARK: mark, "TMPDIR": str(scratch), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "evaluation.cli", "serve", "--port", "0"]
    command += ["--site-dir", str(site), "--arena-entries", str(entries)]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    match = re.search(r"at http://127\.0\.0\.1:(\d+)/", first)
    assert match is not None, first + proc.stdout.read()
    running = Server(proc, int(match.group(1)), mark, scratch)
    yield running
    if proc.poll() is None:
        proc.kill()
        proc.communicate()


def test_an_arena_run_started_over_http_streams_its_progress_and_saves_its_result(
    server: Server, tmp_path: Path
) -> None:
    port = server.port
    assert request(port, "GET", "/").body == b"<h1>home</h1>"
    page = request(port, "GET", "/live/").body.decode()
    assert 'data-run="ttt-arena-bench"' in page and '<option value="broken"' in page
    reply = start_run(port, "ttt-arena-bench", {"entry": "broken", "seed": "7", "save": True})
    assert reply.status == 202, reply.body
    job = reply.json()
    assert job["command"][1:3] == ["ttt-arena", "bench"] and job["steps"] == 212
    stream = read_events(port, job["events"])
    lines = [e.data["text"] for e in stream.events if e.name == "line"]
    games = [line for line in lines if line.startswith("bf:")]  # one progress line per game
    assert len(games) == 212, lines[:5]
    assert stream.events[-1].name == "end"
    assert stream.events[-1].data == {"state": "done", "exitCode": 0}, lines[-10:]
    (saved,) = (tmp_path / "entries" / "broken" / "results").glob("*.json")
    assert saved.name.startswith("broken-seed7-")
    assert any(line.startswith(f"saved {saved}") for line in lines)
    document = json.loads(saved.read_text())
    assert document["entry"] == "broken" and document["seed"] == 7
    assert document["grade"] == "F" and document["illegalMoves"] == 212
    logs = saved.with_suffix("")
    assert len(list((logs / "matches").glob("*.jsonl"))) == 24
    assert len(list((logs / "positions").glob("*.jsonl"))) == 188
    assert all(report.ok for report in verify_paths([logs / "matches"]))
    children = marked_processes(server.mark)
    assert children == [server.proc.pid]  # the run's process has ended with the run
    out = server.stop(signal.SIGINT)
    assert server.proc.returncode == 0 and out.rstrip().endswith("stopped"), out
    assert marked_processes(server.mark) == []
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), 5):
        pass


@pytest.mark.slow
def test_sigterm_mid_run_interrupts_the_run_and_leaves_nothing(server: Server) -> None:
    port = server.port
    job = start_run(port, "ttt-arena-bench", {"entry": "first-empty", "seed": 3}).json()
    read_events(port, job["events"], until=3)
    assert len(marked_processes(server.mark)) >= 2  # the server and its run
    watched: list[Any] = []
    attached = threading.Event()
    watcher = threading.Thread(
        target=lambda: watched.append(read_events(port, job["events"], started=attached))
    )
    watcher.start()
    assert attached.wait(60)
    out = server.stop(signal.SIGTERM)
    watcher.join(60)
    assert server.proc.returncode == 0 and "stopped" in out, out
    # the run stopped as Ctrl-C stops `ttt-arena bench`: exit 130, its line says nothing saved
    assert watched[0].events[-1].data == {"state": "cancelled", "exitCode": 130}
    texts = [e.data["text"] for e in watched[0].events if e.name == "line"]
    assert any("interrupted; the engine being benched has no result saved" in t for t in texts)
    assert f"run {job['id']} cancelled (exit 130)" in out
    assert marked_processes(server.mark) == []
    assert list(server.scratch.iterdir()) == []  # the run's scratch folder was removed
    assert not list((server.scratch.parent / "entries" / "first-empty").glob("results/*.json"))
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), 5):
        pass


def test_serve_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "evaluation.cli", "serve", *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)

    site = make_site(tmp_path / "site")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    with busy:
        taken = serve("--port", str(busy.getsockname()[1]), "--site-dir", str(site))
    assert taken.returncode == 2 and "choose another --port" in taken.stderr
    assert len(taken.stderr.strip().splitlines()) == 1
    absent = serve("--site-dir", str(site), "--arena-entries", str(tmp_path / "none"))
    assert absent.returncode == 2 and "--arena-entries: no entries directory" in absent.stderr
    stray = tmp_path / "stray"
    stray.mkdir()
    (stray / "photo.jpg").write_text("x")
    refused = serve("--site-dir", str(stray), "--port", "0")
    assert refused.returncode == 2 and "--site-dir:" in refused.stderr
    assert serve("--port", "70000").returncode == 2


@pytest.mark.slow
def test_a_suite_started_over_http_writes_its_scorecard(server: Server, tmp_path: Path) -> None:
    """The generic offer: `arcade-eval suite` of a built-in policy, written where the command
    writes by default (under the folder the server was started in)."""
    values = {"policy": "random", "budget": "quick", "benchmarks": "ttt-arena"}
    job = start_run(server.port, "suite", values).json()
    stream = read_events(server.port, job["events"], timeout=900)
    assert stream.events[-1].data == {"state": "done", "exitCode": 0}
    (card,) = (tmp_path / "runs").glob("suite-*/scorecard.json")
    assert json.loads(card.read_text())["budget"] == "quick"
    server.stop()
    assert marked_processes(server.mark) == []
