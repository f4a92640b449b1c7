"""`arcade-eval serve`'s server in a thread, with runs of a small script instead of `arcade-eval`:
the static site (content types, folders, no traversal, no symlink out), the guard (Host, Origin,
token), every bad request refused in one line, runs streamed as server-sent events, the bounded
queue, cancel, and a stop that leaves no process, thread or socket behind."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from evaluation.core.live import LiveField, LiveRun
from evaluation.serve.jobs import Runner
from evaluation.serve.server import MAX_BODY, LiveServer
from tests.evaluation.serve.client import read_events, request, start_run, token_of

SCRIPT = """
import signal, subprocess, sys, time
mode, count = sys.argv[1], int(sys.argv[2])
if mode == "lines":
    for i in range(count):
        print(f"line {i} <b>&amp;</b>", flush=True)
    sys.exit(0)
if mode == "fail":
    print("about to fail", flush=True)
    sys.exit(3)
if mode == "stubborn":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(f"helper {helper.pid}", flush=True)
time.sleep(600)
"""


MODES = ("lines", "fail", "sleep", "stubborn")


def _argv(values: Mapping[str, Any]) -> list[str]:
    return [values["mode"], str(values["count"])]


SCRIPT_RUN = LiveRun(
    key="script",
    title="A <script>test</script> run",
    description='prints lines, fails, or sleeps with a helper ("quoted" & <tagged>)',
    fields=(
        LiveField("mode", "Mode", "choice", "lines", choices=MODES),
        LiveField("count", "Count", "int", 5, minimum=0, maximum=1000),
        LiveField("loud", "Loud", "bool", False),
    ),
    argv=_argv,
    steps=5,
)


def make_site(root: Path) -> Path:
    """A small built site: a home page, a section with its index, assets, data files."""
    (root / "assets").mkdir(parents=True)
    (root / ".arcade-site").write_text("{}")
    (root / "index.html").write_text("<h1>home</h1>")
    (root / "arena").mkdir()
    (root / "arena" / "index.html").write_text(
        '<header><nav><a href="../index.html">Home</a></nav></header><h1>arena</h1>'
    )
    (root / "assets" / "site.css").write_text("body {}")
    (root / "assets" / "replay.js").write_text("var a = 1;")
    (root / "arena" / "result.json").write_text("{}")
    (root / "arena" / "game.pgn").write_text("1. e4")
    (root / "arena" / "blob.bin").write_bytes(b"\0\1")
    return root


@dataclass
class Served:
    server: LiveServer
    thread: threading.Thread
    root: Path

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(30)
        self.server.stop()


def serve(root: Path, *, max_waiting: int = 2, grace_s: float = 5.0) -> Served:
    runner = Runner([sys.executable, "-c", SCRIPT], max_waiting=max_waiting, grace_s=grace_s)
    server = LiveServer(root, [SCRIPT_RUN], runner, port=0, version="test")
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    return Served(server, thread, root)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    running = serve(make_site(tmp_path / "site"))
    yield running
    running.stop()


def alive(pid: int) -> bool:
    """Whether `pid` is a live (not zombie) process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 :].split()[0] != "Z"


def wait_for(predicate: Any, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


# -- the static site ---------------------------------------------------------------------------


def test_site_files_are_served_with_their_content_types(served: Served) -> None:
    port = served.port
    home = request(port, "GET", "/")
    assert home.status == 200 and home.body == b"<h1>home</h1>"
    assert home.headers["content-type"] == "text/html; charset=utf-8"
    assert home.headers["x-content-type-options"] == "nosniff"
    kinds = {
        "/assets/site.css": "text/css; charset=utf-8",
        "/assets/replay.js": "text/javascript; charset=utf-8",
        "/arena/result.json": "application/json",
        "/arena/game.pgn": "application/x-chess-pgn; charset=utf-8",
        "/arena/blob.bin": "application/octet-stream",
        "/arena/": "text/html; charset=utf-8",
        "/arena/index.html?x=1": "text/html; charset=utf-8",
    }
    for path, kind in kinds.items():
        reply = request(port, "GET", path)
        assert (reply.status, reply.headers["content-type"]) == (200, kind), path
    section = request(port, "GET", "/arena/")
    assert section.body == (
        b'<header><nav><a href="/live/">Live runs</a><a href="../index.html">Home</a></nav>'
        b"</header><h1>arena</h1>"
    )
    assert section.headers["content-length"] == str(len(section.body))
    assert b"Live runs" not in (served.root / "arena" / "index.html").read_bytes()
    folder = request(port, "GET", "/arena")
    assert folder.status == 301 and folder.headers["location"] == "/arena/"
    head = request(port, "HEAD", "/assets/site.css")
    assert head.status == 200 and head.body == b"" and head.headers["content-length"] == "7"
    assert request(port, "GET", "/missing.html").status == 404
    assert request(port, "GET", "/.arcade-site").status == 404


def test_no_path_leaves_the_site(served: Served, tmp_path: Path) -> None:
    port = served.port
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    (served.root / "out").symlink_to(tmp_path)
    (served.root / "leak.txt").symlink_to(secret)
    (served.root / "inside.css").symlink_to(served.root / "assets" / "site.css")
    for path in (
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/./index.html",
        "/a\\..\\secret.txt",
        "/index.html%00.css",
        "/%ff",
    ):
        reply = request(port, "GET", path)
        assert reply.status == 400, path
        assert list(reply.json()) == ["error"] and b"SECRET" not in reply.body
    for path in ("/out/secret.txt", "/leak.txt", "/out/", "//etc/passwd", "/etc/passwd"):
        reply = request(port, "GET", path)
        assert reply.status == 404, path
        assert b"SECRET" not in reply.body and b"root:" not in reply.body
    assert request(port, "GET", "/inside.css").body == b"body {}"


# -- the guard ---------------------------------------------------------------------------------


def test_requests_for_another_host_are_refused(served: Served) -> None:
    """DNS rebinding: a page of evil.example re-pointed at 127.0.0.1 still sends its own name."""
    port = served.port
    token = token_of(port)
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", "", "127.0.0.1"):
        reply = request(port, "GET", "/", host=host)
        assert reply.status == 403, host
        assert "refused" in reply.json()["error"]
        body = json.dumps({"run": "script", "values": {}}).encode()
        headers = {"Content-Type": "application/json", "X-Live-Token": token}
        post = request(port, "POST", "/api/runs", body=body, headers=headers, host=host)
        assert post.status == 403
    assert request(port, "GET", "/", host=f"localhost:{port}").status == 200
    assert request(port, "GET", "/", host=f"LOCALHOST:{port}").status == 200
    assert served.server.runner.jobs() == []


def test_posts_need_the_page_s_token_and_origin(served: Served) -> None:
    port = served.port
    token = token_of(port)
    assert token_of(port) == token and len(token) >= 32
    body = json.dumps({"run": "script", "values": {}}).encode()
    base = {"Content-Type": "application/json"}
    refused = [
        {},
        {"X-Live-Token": "wrong"},
        {"X-Live-Token": token + "x"},
        {"X-Live-Token": token, "Origin": "http://evil.example"},
        {"X-Live-Token": token, "Origin": f"http://127.0.0.1:{port + 1}"},
        {"X-Live-Token": token, "Origin": "null"},
        {"X-Live-Token": token, "Sec-Fetch-Site": "cross-site"},
    ]
    for headers in refused:
        reply = request(port, "POST", "/api/runs", body=body, headers={**base, **headers})
        assert reply.status == 403, headers
    assert served.server.runner.jobs() == []
    for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        headers = {**base, "X-Live-Token": token, "Origin": origin, "Sec-Fetch-Site": "same-origin"}
        reply = request(port, "POST", "/api/runs", body=body, headers=headers)
        assert reply.status == 202, reply.body
    page = request(port, "GET", "/live/")
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_bad_requests_are_refused_with_one_clear_line(served: Served) -> None:
    port = served.port
    token = token_of(port)
    headers = {"Content-Type": "application/json", "X-Live-Token": token}

    def post(body: bytes, extra: dict[str, str] | None = None) -> tuple[int, str]:
        reply = request(port, "POST", "/api/runs", body=body, headers={**headers, **(extra or {})})
        return reply.status, reply.json()["error"]

    def values(**given: Any) -> bytes:
        return json.dumps({"run": "script", "values": given}).encode()

    assert post(values(count=1001)) == (400, "count must be an integer from 0 to 1000")
    assert post(values(count=-1))[0] == 400
    assert post(values(count=True))[0] == 400
    assert post(values(count="12abc"))[0] == 400
    assert post(values(count=1.5))[0] == 400
    assert post(values(mode="rm -rf /")) == (
        400,
        "mode must be one of: lines, fail, sleep, stubborn",
    )
    assert post(values(loud="yes")) == (400, "loud must be true or false")
    fields = "script takes no field 'other'; its fields: mode, count, loud"
    assert post(values(other=1)) == (400, fields)
    unknown = (400, "no live run 'nope'; offered: script")
    assert post(json.dumps({"run": "nope"}).encode()) == unknown
    assert post(json.dumps({"run": "script", "values": [1]}).encode())[0] == 400
    assert post(json.dumps({"run": "script", "extra": 1}).encode())[0] == 400
    assert post(json.dumps([1, 2]).encode())[0] == 400
    assert post(b"{not json") == (400, "the body is not JSON")
    assert post(b"[" * 5000 + b"]" * 5000) == (400, "the body is not JSON")
    assert post(values(), {"Content-Type": "text/plain"})[0] == 415
    assert post(b"x" * (MAX_BODY + 1))[0] == 413
    missing = request(port, "POST", "/api/runs", headers=headers)
    assert missing.status == 411
    assert request(port, "POST", "/elsewhere", body=b"{}", headers=headers).status == 404
    assert request(port, "PUT", "/api/runs", body=b"{}", headers=headers).status == 501
    assert request(port, "GET", "/api/runs/0123456789ab/events").status == 404
    assert request(port, "GET", "/api/nothing").status == 404
    assert served.server.runner.jobs() == []
    ok = start_run(port, "script", {"count": "3"}, token)
    assert ok.status == 202 and ok.json()["values"] == {"mode": "lines", "count": 3, "loud": False}


def test_the_live_page_escapes_every_name(served: Served) -> None:
    page = request(served.port, "GET", "/live/").body.decode()
    assert "<script>test</script>" not in page and "&lt;script&gt;test&lt;/script&gt;" in page
    assert "(&quot;quoted&quot; &amp; &lt;tagged&gt;)" in page
    assert page.count("<script") == 1 and '<script src="/live/live.js"></script>' in page
    assert request(served.port, "GET", "/live").status == 301
    script = request(served.port, "GET", "/live/live.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert b"EventSource" in script.body and b"innerHTML" not in script.body
    offers = request(served.port, "GET", "/api/offers").json()
    assert [run["key"] for run in offers["runs"]] == ["script"]


# -- runs --------------------------------------------------------------------------------------


def test_a_run_streams_its_lines_as_server_sent_events(served: Served) -> None:
    port = served.port
    job = start_run(port, "script", {"mode": "lines", "count": 40}).json()
    assert job["command"] == ["arcade-eval", "lines", "40"]
    stream = read_events(port, job["events"])
    assert stream.content_type.startswith("text/event-stream")
    names = [e.name for e in stream.events]
    assert names[0] == "state" and names[-1] == "end"
    lines = [e.data["text"] for e in stream.events if e.name == "line"]
    assert lines == [f"line {i} <b>&amp;</b>" for i in range(40)]
    assert stream.events[-1].data == {"state": "done", "exitCode": 0}
    assert [e.id for e in stream.events] == list(range(len(stream.events)))
    again = read_events(port, job["events"], last_id=40)
    assert [e.id for e in again.events] == list(range(41, len(stream.events)))
    listed = request(port, "GET", "/api/runs").json()["runs"]
    assert listed[0]["state"] == "done" and listed[0]["lines"] == 40
    failed = start_run(port, "script", {"mode": "fail", "count": 0}).json()
    end = read_events(port, failed["events"]).events[-1]
    assert end.data == {"state": "failed", "exitCode": 3}


def test_one_run_at_a_time_and_a_bounded_queue(served: Served) -> None:
    port = served.port
    token = token_of(port)
    first = start_run(port, "script", {"mode": "sleep", "count": 0}, token).json()
    assert wait_for(lambda: served.server.runner.get(first["id"]).state == "running")
    second = start_run(port, "script", {"mode": "lines", "count": 1}, token).json()
    third = start_run(port, "script", {"mode": "lines", "count": 1}, token).json()
    assert second["state"] == third["state"] == "queued"
    full = start_run(port, "script", {"mode": "lines", "count": 1}, token)
    assert full.status == 429 and "waiting already" in full.json()["error"]
    cancel = {"Content-Type": "application/json", "X-Live-Token": token}
    path = f"/api/runs/{third['id']}/cancel"
    assert request(port, "POST", path, body=b"{}", headers=cancel).status == 202
    assert read_events(port, third["events"]).events[-1].data["state"] == "cancelled"
    no_token = {"Content-Type": "application/json"}
    assert request(port, "POST", path, body=b"{}", headers=no_token).status == 403
    stream = read_events(port, first["events"], until=1)
    helper = int(stream.events[-1].data["text"].split()[1])
    assert alive(helper)
    path = f"/api/runs/{first['id']}/cancel"
    assert request(port, "POST", path, body=b"{}", headers=cancel).status == 202
    assert read_events(port, first["events"]).events[-1].data["state"] == "cancelled"
    assert wait_for(lambda: not alive(helper))
    done = read_events(port, second["events"]).events[-1].data
    assert done == {"state": "done", "exitCode": 0}


@pytest.mark.parametrize("mode", ["sleep", "stubborn"])
def test_stopping_leaves_no_process_thread_or_socket(tmp_path: Path, mode: str) -> None:
    """A run that stops on SIGINT, and one that ignores it (killed after the grace)."""
    threads = set(threading.enumerate())
    running = serve(make_site(tmp_path / "site"), grace_s=1.0)
    port = running.port
    job = start_run(port, "script", {"mode": mode, "count": 0}).json()
    waiting = start_run(port, "script", {"mode": "lines", "count": 1}).json()
    stream = read_events(port, job["events"], until=1)
    helper = int(stream.events[-1].data["text"].split()[1])
    child = running.server.runner.get(job["id"]).pid
    assert child is not None and alive(child) and alive(helper)
    watcher: list[Any] = []
    attached = threading.Event()
    reader = threading.Thread(
        target=lambda: watcher.append(read_events(port, job["events"], started=attached))
    )
    reader.start()
    assert attached.wait(60)
    running.stop()
    reader.join(30)
    assert not reader.is_alive() and watcher[0].events[-1].data["state"] == "cancelled"
    assert not alive(child) and not alive(helper)
    assert running.server.runner.get(waiting["id"]).state == "cancelled"
    assert wait_for(lambda: set(threading.enumerate()) <= threads, 10)
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), 5):
        pass


def test_the_runner_refuses_runs_once_stopping(tmp_path: Path) -> None:
    runner = Runner([sys.executable, "-c", SCRIPT])
    runner.stop()
    from evaluation.serve.jobs import QueueFullError

    with pytest.raises(QueueFullError, match="stopping"):
        runner.submit(SCRIPT_RUN, {"mode": "lines", "count": 1, "loud": False})
    assert os.environ.get("ARCADE_SERVE_RUN") is None


def test_event_streams_are_bounded(served: Served) -> None:
    port = served.port
    served.server.streams = threading.BoundedSemaphore(1)
    job = start_run(port, "script", {"mode": "sleep", "count": 0}).json()
    watched: list[Any] = []
    watcher = threading.Thread(target=lambda: watched.append(read_events(port, job["events"])))
    watcher.start()
    assert wait_for(lambda: served.server.streams._value == 0)  # type: ignore[attr-defined]
    refused = request(port, "GET", job["events"])
    assert refused.status == 503 and "event streams are open" in refused.json()["error"]
    token = token_of(port)
    cancel = {"Content-Type": "application/json", "X-Live-Token": token}
    request(port, "POST", f"/api/runs/{job['id']}/cancel", body=b"{}", headers=cancel)
    watcher.join(60)
    assert watched[0].events[-1].data["state"] == "cancelled"
    # the server gives the stream's slot back once its handler returns, which may come a moment
    # after the client has read the last event
    assert wait_for(lambda: served.server.streams._value == 1)  # type: ignore[attr-defined]
    assert request(port, "GET", job["events"]).status == 200
