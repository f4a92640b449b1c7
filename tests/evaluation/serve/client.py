"""A raw HTTP client for the serve tests: exact paths and headers (no URL normalising), and a
reader of server-sent events."""

from __future__ import annotations

import http.client
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def request(
    port: int,
    method: str,
    path: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    host: str | None = None,
    timeout: float = 60.0,
) -> Reply:
    """One request as given: `host` replaces the Host header (None: 127.0.0.1:PORT)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return Reply(
            response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        )
    finally:
        connection.close()


def token_of(port: int) -> str:
    """The per-process token the live page embeds."""
    page = request(port, "GET", "/live/").body.decode()
    match = re.search(r'<meta name="live-token" content="([^"]+)">', page)
    assert match is not None, page[:400]
    return match.group(1)


def start_run(port: int, run: str, values: dict[str, Any], token: str | None = None) -> Reply:
    """POST a run the way the live page does."""
    body = json.dumps({"run": run, "values": values}).encode()
    headers = {
        "Content-Type": "application/json",
        "Origin": f"http://127.0.0.1:{port}",
        "X-Live-Token": token if token is not None else token_of(port),
    }
    return request(port, "POST", "/api/runs", body=body, headers=headers)


@dataclass
class Event:
    name: str
    data: Any
    id: int | None = None


@dataclass
class Stream:
    content_type: str
    events: list[Event] = field(default_factory=list)


def read_events(
    port: int,
    path: str,
    *,
    last_id: int | None = None,
    timeout: float = 300.0,
    until: int = 0,
    started: threading.Event | None = None,
) -> Stream:
    """Read a run's event stream to its `end` event (or, with `until`, to that many line
    events), as EventSource would; `started` is set once the first event has arrived."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        stream = Stream(response.getheader("Content-Type", ""))
        assert response.status == 200, response.read()
        name, data, ident = "message", [], None
        lines = 0
        while True:
            raw = response.fp.readline()
            if not raw:
                return stream
            line = raw.decode("utf-8").rstrip("\n")
            if line == "":
                if data:
                    stream.events.append(Event(name, json.loads("\n".join(data)), ident))
                    if started is not None:
                        started.set()
                    lines += name == "line"
                    if name == "end" or (until and lines >= until):
                        return stream
                name, data, ident = "message", [], None
            elif line.startswith(":"):
                continue
            else:
                key, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if key == "event":
                    name = value
                elif key == "data":
                    data.append(value)
                elif key == "id":
                    ident = int(value)
    finally:
        connection.close()
