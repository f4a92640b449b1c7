"""A chat model on 127.0.0.1 that plays every benchmark, and can be killed and brought back on
the same port (the endpoint a run records must not change between a run and its resume).

The "model" answers what each game's prompt asks for: the connection test's own example, the
first Tetris candidate, the first NARCADE action offered, the first empty tic-tac-toe square, a
Sudoku grid copied back unsolved.
`kill_after(n)` makes the server close its port after its n-th completion, as a dead endpoint
does (the client then sees connections refused); `revive()` serves again on the same port.
Every request body is kept (`State.bodies`); `State.answer(prompt, body)`, when set, answers
first (None: the usual reply), so a test can make the reply depend on the request's `seed`;
`State.refuse_seed` refuses a request carrying one (HTTP 400), as a strict server does.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.policies.chat_server import ChatHandler

_EXAMPLE = re.compile(r"Connection test\. Reply with (?:JSON only|exactly this JSON object): (.*)$")
_TETRIS_ID = re.compile(r"^([A-Z]{2}): x=", re.MULTILINE)
_ACTIONS = re.compile(r"^Actions: (\[.*\])$", re.MULTILINE)


def reply_for(prompt: str) -> str:
    """What the model says to `prompt` (the last user message)."""
    example = _EXAMPLE.search(prompt)
    if example:
        return example.group(1)
    if "Connection test" in prompt:
        tag = re.search(r"<move>[^<]*</move>", prompt)
        return tag.group(0) if tag else "{}"
    tetris = _TETRIS_ID.search(prompt)
    if tetris:
        return json.dumps({"candidate": tetris.group(1), "hold": False, "risk": 0.1})
    actions = _ACTIONS.search(prompt)
    if actions:  # NARCADE: the first action offered
        return json.dumps({"action": json.loads(actions.group(1))[0]})
    if prompt.startswith("Puzzle (. = empty cell):"):
        rows = prompt.splitlines()[1:10]
        return json.dumps({"grid": rows, "confidence": 40})
    lines = prompt.splitlines()
    if lines and lines[0].strip().isdigit():
        size = int(lines[0])
        for r, row in enumerate(lines[2 : 2 + size]):
            c = row.find(".")
            if c >= 0:
                return f"<move>{r} {c}</move>"
    return "I cannot tell what you want."


@dataclass
class State:
    """What the server saw and what it will do."""

    completions: int = 0
    kill_at: int | None = None
    prompts: list[str] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    answer: Callable[[str, dict[str, Any]], str | None] | None = None
    refuse_seed: bool = False
    """Answer a request carrying `seed` with a 400 naming it, as a strict server does."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class Handler(ChatHandler):
    server: ModelServer

    def do_POST(self) -> None:  # noqa: N802  (the http.server hook name)
        body = self.read_json()
        prompt = str(body["messages"][-1]["content"])
        state: State = self.server.state
        if state.refuse_seed and "seed" in body:
            message = "Unrecognized request argument supplied: seed"
            self.send_json(400, {"error": {"message": message, "type": "invalid_request_error"}})
            return
        with state.lock:
            state.prompts.append(prompt)
            state.bodies.append(body)
            state.completions += 1
            dying = state.kill_at is not None and state.completions >= state.kill_at
        answer = state.answer(prompt, body) if state.answer is not None else None
        self.send_completion(body, reply_for(prompt) if answer is None else answer)
        if dying:
            self.close_connection = True
            threading.Thread(target=self.server.owner.kill, daemon=True).start()


class ModelServer(ThreadingHTTPServer):
    """The HTTP server of an `Endpoint`, bound to its port (0: a free one, the first time)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, owner: Endpoint, port: int) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.owner = owner
        self.state = owner.state


class Endpoint:
    """One model endpoint whose server can die and come back on the same port."""

    def __init__(self) -> None:
        self.state = State()
        self._server: ModelServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0
        self._lock = threading.Lock()
        self.revive()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def revive(self) -> None:
        """Serve (again) on the endpoint's port."""
        with self._lock:
            self.state.kill_at = None
            server = ModelServer(self, self.port)
            self.port = server.server_address[1]
            self._server = server
            self._thread = threading.Thread(target=server.serve_forever, daemon=True)
            self._thread.start()

    def kill_after(self, completions: int) -> None:
        """Die after `completions` more completions (counted from now)."""
        with self.state.lock:
            self.state.kill_at = self.state.completions + completions

    def kill(self) -> None:
        """Close the port: every later request is refused."""
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    def models_file(self, folder: Path, slug: str = "mock", **more: Any) -> Path:
        """A registry naming this endpoint as `llm:<slug>` (priced, so the cost meter works)."""
        path = folder / "models.toml"
        extra = "".join(f"{key} = {json.dumps(value)}\n" for key, value in more.items())
        path.write_text(
            f'[[models]]\nslug = "{slug}"\nprovider = "Test"\nmodel = "test/{slug}"\n'
            f'json_schema = false\napi_key_env = ""\nbase_url = "{self.base_url}"\n'
            "pricing = { in = 1.0, out = 4.0 }\n" + extra
        )
        return path


@contextmanager
def endpoint() -> Iterator[Endpoint]:
    """A live model endpoint for the duration of the block."""
    live = Endpoint()
    try:
        yield live
    finally:
        live.kill()
