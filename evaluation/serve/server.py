"""The HTTP side of `arcade-eval serve`, on the standard library's `ThreadingHTTPServer`.

Routes (every request first passes the Host check of `evaluation/serve/guard.py`):

    GET  /...                       the built static site (`evaluation/serve/files.py`)
    GET  /live/                     the live page (`evaluation/serve/page.py`), live.js, live.css
    GET  /api/offers                the runs a page may start, with their fields (JSON)
    GET  /api/runs                  the runs started, oldest first (JSON)
    GET  /api/runs/<id>/events      one run's progress as server-sent events (text/event-stream)
    POST /api/runs                  {"run": KEY, "values": {...}}: queue a run (202, JSON)
    POST /api/runs/<id>/cancel      cancel a waiting run, interrupt a running one

POSTs must pass the guard's origin and token checks and carry a JSON body of at most
`MAX_BODY` bytes. Connections are HTTP/1.0 (one request each), so a stop never waits on an idle
keep-alive connection; a slow client is cut off after `Handler.timeout` seconds.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from evaluation.core.live import LiveError, LiveRun, check_values, find_run
from evaluation.serve.files import BadPathError, NotFoundError, find
from evaluation.serve.guard import TOKEN_HEADER, Guard
from evaluation.serve.jobs import Job, QueueFullError, Runner
from evaluation.serve.page import ASSETS, live_page, with_live_link

MAX_BODY = 16_384
"""The largest POST body read (bytes); a larger one is refused unread (413)."""
DRAIN_LIMIT = 1_048_576
"""The largest refused body read (and dropped) before answering; a larger one is not read."""
KEEP_ALIVE_S = 15.0
"""How often an idle event stream sends a comment (a closed page is noticed then)."""
MAX_STREAMS = 32
"""Event streams open at once (each holds a thread); one more is refused (503)."""
MAX_LINKED_PAGE = 8_388_608
"""Site pages up to this size get a "Live runs" link in their navigation (`with_live_link`)."""
HOST = "127.0.0.1"
RUN_PATH = re.compile(r"/api/runs/([0-9a-f]{12})/(events|cancel)")
LIVE_ASSETS = {"/live/live.js": "live.js", "/live/live.css": "live.css"}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
"""The live page's Content-Security-Policy: its own script and styles, requests to this server."""


class LiveServer(ThreadingHTTPServer):
    """The server: the site root, the runs offered, the runner and the guard. Handler threads
    are joined on `server_close` (none is left behind)."""

    daemon_threads = False
    block_on_close = True

    def __init__(
        self,
        site_root: Path,
        runs: Sequence[LiveRun],
        runner: Runner,
        *,
        port: int = 8080,
        version: str = "",
        log_requests: bool = False,
    ) -> None:
        super().__init__((HOST, port), Handler)
        self.site_root = site_root
        self.runs = list(runs)
        self.runner = runner
        self.port = int(self.server_address[1])
        self.guard = Guard(self.port)
        self.version = version
        self.log_requests = log_requests
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self._stopped = threading.Event()

    @property
    def url(self) -> str:
        """The server's address."""
        return f"http://{HOST}:{self.port}/"

    def stop(self) -> None:
        """End every run (their process trees too), then close the socket and join every handler
        thread. Call after `serve_forever` has returned (or from another thread, `shutdown`
        first)."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.runner.stop()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    """One request of a `LiveServer`."""

    server: LiveServer
    server_version = "arcade-eval-serve"
    protocol_version = "HTTP/1.0"
    timeout = 30.0
    _body_read = False

    # -- methods -------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._get(head=False)

    def do_HEAD(self) -> None:
        self._get(head=True)

    def do_POST(self) -> None:
        if not self._host_ok():
            return
        path = urlsplit(self.path).path
        match = RUN_PATH.fullmatch(path)
        if path != "/api/runs" and (match is None or match.group(2) != "cancel"):
            self._error(HTTPStatus.NOT_FOUND, f"nothing to POST to at {path[:80]}")
            return
        refusal = self.server.guard.post_refusal(
            self.headers.get("Origin"),
            self.headers.get("Sec-Fetch-Site"),
            self.headers.get(TOKEN_HEADER),
        )
        if refusal is not None:
            self._error(HTTPStatus.FORBIDDEN, refusal)
            return
        body = self._json_body()
        if body is None:
            return
        if match is not None:
            self._cancel(match.group(1))
            return
        self._start(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are logged only with `serve --log-requests`."""
        if self.server.log_requests:
            super().log_message(format, *args)

    # -- GET --------------------------------------------------------------------------------

    def _get(self, head: bool) -> None:
        if not self._host_ok():
            return
        path = urlsplit(self.path).path
        if path == "/live":
            self._redirect("/live/")
        elif path == "/live/":
            page = live_page(self.server.runs, self.server.guard.token, self.server.version)
            self._send(HTTPStatus.OK, page, "text/html; charset=utf-8", head, page=True)
        elif path in LIVE_ASSETS:
            name = LIVE_ASSETS[path]
            kind = "text/javascript" if name.endswith(".js") else "text/css"
            self._send(HTTPStatus.OK, (ASSETS / name).read_bytes(), f"{kind}; charset=utf-8", head)
        elif path == "/api/offers":
            self._json(HTTPStatus.OK, {"runs": [run.to_dict() for run in self.server.runs]}, head)
        elif path == "/api/runs":
            self._json(
                HTTPStatus.OK, {"runs": [job.to_dict() for job in self.server.runner.jobs()]}, head
            )
        elif path.startswith("/api/"):
            match = RUN_PATH.fullmatch(path)
            if match is None or match.group(2) != "events":
                self._error(HTTPStatus.NOT_FOUND, f"no API at {path[:80]}")
            elif head:
                self._error(HTTPStatus.METHOD_NOT_ALLOWED, "GET the event stream")
            else:
                self._events(match.group(1))
        else:
            self._static(head)

    def _static(self, head: bool) -> None:
        try:
            found = find(self.server.site_root, self.path.split("?", 1)[0].split("#", 1)[0])
        except BadPathError as error:
            self._error(HTTPStatus.BAD_REQUEST, f"bad path: {error}")
            return
        except NotFoundError:
            self._error(HTTPStatus.NOT_FOUND, "no such file in the site")
            return
        if found.location is not None:
            self._redirect(found.location)
            return
        assert found.path is not None
        try:
            handle = found.path.open("rb")
        except OSError:
            self._error(HTTPStatus.NOT_FOUND, "no such file in the site")
            return
        with handle:
            size = handle.seek(0, 2)
            handle.seek(0)
            if found.content_type.startswith("text/html") and size <= MAX_LINKED_PAGE:
                self._send(HTTPStatus.OK, with_live_link(handle.read()), found.content_type, head)
                return
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", found.content_type)
            self.send_header("Content-Length", str(size))
            self.send_header("Cache-Control", "no-cache")
            self._security_headers()
            self.end_headers()
            if not head:
                shutil.copyfileobj(handle, self.wfile)

    def _events(self, job_id: str) -> None:
        job = self.server.runner.get(job_id)
        if job is None:
            self._error(HTTPStatus.NOT_FOUND, f"no run {job_id}")
            return
        if not self.server.streams.acquire(blocking=False):
            self._error(
                HTTPStatus.SERVICE_UNAVAILABLE,
                f"{MAX_STREAMS} event streams are open already; close a page watching a run",
            )
            return
        try:
            self._stream(job)
        finally:
            self.server.streams.release()

    def _stream(self, job: Job) -> None:
        try:
            after = int(self.headers.get("Last-Event-ID", "-1"))
        except ValueError:
            after = -1
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self._security_headers()
        self.end_headers()
        try:
            while True:
                events, dropped, done = self.server.runner.events_after(job, after, KEEP_ALIVE_S)
                chunks = []
                if dropped:
                    chunks.append(f"event: gap\ndata: {json.dumps({'dropped': dropped})}\n\n")
                for event in events:
                    data = json.dumps(event.data, ensure_ascii=False)
                    chunks.append(f"id: {event.id}\nevent: {event.name}\ndata: {data}\n\n")
                    after = event.id
                if not chunks and not done:
                    chunks.append(": keep-alive\n\n")
                if chunks:
                    self.wfile.write("".join(chunks).encode("utf-8"))
                    self.wfile.flush()
                if done and not events:
                    return
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            return

    # -- POST -------------------------------------------------------------------------------

    def _json_body(self) -> Any:
        """The request's JSON body (None after an error was sent)."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self._error(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length")
            return None
        length_text = self.headers.get("Content-Length")
        if length_text is None or not length_text.strip().isdigit():
            self._error(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length")
            return None
        length = int(length_text)
        if length > MAX_BODY:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"bodies are at most {MAX_BODY} bytes")
            return None
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send the body as application/json")
            return None
        raw = self.rfile.read(length)
        self._body_read = True
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON")
            return None

    def _start(self, body: Any) -> None:
        runner = self.server.runner
        try:
            if not isinstance(body, dict):
                raise LiveError('send {"run": KEY, "values": {...}}')
            unknown = sorted(str(k)[:40] for k in body if k not in ("run", "values"))
            if unknown:
                raise LiveError(f'unknown key {unknown[0]!r}: send {{"run": KEY, "values": {{}}}}')
            run = find_run(self.server.runs, body.get("run"))
            values = check_values(run, body.get("values", {}))
            job = runner.submit(run, values)
        except LiveError as error:
            self._error(HTTPStatus.BAD_REQUEST, str(error))
            return
        except QueueFullError as error:
            self._error(HTTPStatus.TOO_MANY_REQUESTS, str(error))
            return
        self._json(HTTPStatus.ACCEPTED, job.to_dict())

    def _cancel(self, job_id: str) -> None:
        job: Job | None = self.server.runner.get(job_id)
        if job is None:
            self._error(HTTPStatus.NOT_FOUND, f"no run {job_id}")
            return
        self.server.runner.cancel(job)
        self._json(HTTPStatus.ACCEPTED, job.to_dict())

    # -- responses --------------------------------------------------------------------------

    def _host_ok(self) -> bool:
        refusal = self.server.guard.host_refusal(self.headers.get("Host"))
        if refusal is None:
            return True
        self._error(HTTPStatus.FORBIDDEN, refusal)
        return False

    def _security_headers(self, page: bool = False) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        if page:
            self.send_header("Content-Security-Policy", PAGE_POLICY)

    def _send(
        self,
        status: HTTPStatus,
        content: bytes,
        content_type: str,
        head: bool = False,
        *,
        page: bool = False,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Cache-Control", "no-store")
        self._security_headers(page)
        self.end_headers()
        if not head:
            self.wfile.write(content)

    def _json(self, status: HTTPStatus, data: Any, head: bool = False) -> None:
        content = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
        self._send(status, content, "application/json", head)

    def _error(self, status: HTTPStatus, message: str) -> None:
        """One JSON line saying what is wrong. A POST body not read yet is read and dropped
        first (up to `DRAIN_LIMIT`), so closing the connection does not reset it before the
        client reads the answer."""
        if self.command == "POST" and not self._body_read:
            self._body_read = True
            length_text = self.headers.get("Content-Length", "")
            if length_text.strip().isdigit() and int(length_text) <= DRAIN_LIMIT:
                with contextlib.suppress(OSError):
                    self.rfile.read(int(length_text))
        self.close_connection = True
        self._json(status, {"error": message})

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self._security_headers()
        self.end_headers()
