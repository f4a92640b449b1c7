"""A real OpenAI-compatible chat server on 127.0.0.1 for the LLM tests (no network).

Test modules subclass `ChatHandler` with their own `do_POST` script and keep their own state;
this module holds the HTTP plumbing they share: JSON replies, chat-completion bodies with token
usage and a reported cost, and detecting a client that hung up (a cancelled request).
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ChatHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 keep-alive handler with helpers to answer like a chat-completions server."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def read_json(self) -> dict[str, Any]:
        """The request body."""
        body: dict[str, Any] = json.loads(
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
        )
        return body

    def send_json(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def client_left_within(self, seconds: float) -> bool:
        """Wait up to `seconds`; True as soon as the client closes the connection."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.connection], [], [], 0.02)
            if ready:
                try:
                    peek = self.connection.recv(1, socket.MSG_PEEK)
                except OSError:
                    peek = b""
                if not peek:
                    return True
        return False

    def send_completion(
        self,
        body: dict[str, Any],
        content: str | None,
        *,
        refusal: str | None = None,
        report_cost: bool = True,
        request_id: int = 0,
        usage_extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Answer with one assistant message; token counts are ~4 characters a token and the
        reported cost follows from them (`usage_extra` adds or overrides usage fields, `headers`
        adds response headers, e.g. LiteLLM's cost header). Returns the `usage` block sent."""
        prompt_tokens = sum(len(m["content"]) for m in body["messages"]) // 4
        completion_tokens = len(content or refusal or "") // 4 + 1
        usage: dict[str, Any] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        if report_cost:
            usage["cost"] = round(1e-7 * prompt_tokens + 4e-7 * completion_tokens, 12)
        usage.update(usage_extra or {})
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if refusal is not None:
            message["refusal"] = refusal
        self.send_json(
            200,
            {
                "id": f"gen-{request_id}",
                "object": "chat.completion",
                "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": usage,
            },
            headers,
        )
        return usage


class ChatServer(ThreadingHTTPServer):
    """A server on a free port of 127.0.0.1; `state` is whatever the test module keeps."""

    daemon_threads = True

    def __init__(self, handler: type[ChatHandler], state: Any) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.state = state

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@contextmanager
def serving(server: ChatServer) -> Iterator[ChatServer]:
    """Serve on a background thread for the duration of the block."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
