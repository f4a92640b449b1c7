"""A chat model on 127.0.0.1 that keeps every request body it receives, for tests that assert on
what the benchmarks send (the token limit of each benchmark, a retry being a new request).

It answers as `tests/evaluation/model_server.py:reply_for` does (every benchmark's connection
test, Tetris, tic-tac-toe, Sudoku); with `first_unreadable`, the first time it sees a prompt it
replies with prose and no answer in it, so a benchmark that retries an unreadable reply asks
the same question again. `reasoning` adds a `reasoning_content` to every reply.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.evaluation.model_server import reply_for
from tests.policies.chat_server import ChatHandler, ChatServer, serving

UNREADABLE = "Let me look at this carefully before I answer."


@dataclass
class Seen:
    """What the server received, and how it answers."""

    first_unreadable: bool = False
    reasoning: str | None = None
    bodies: list[dict[str, Any]] = field(default_factory=list)
    prompts: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Recording(ChatHandler):
    server: ChatServer

    def do_POST(self) -> None:  # noqa: N802  (the http.server hook name)
        body = self.read_json()
        prompt = str(body["messages"][-1]["content"])
        seen: Seen = self.server.state
        with seen.lock:
            seen.bodies.append(body)
            times = seen.prompts[prompt] = seen.prompts.get(prompt, 0) + 1
        text = reply_for(prompt)
        if seen.first_unreadable and times == 1 and "Connection test" not in prompt:
            text = UNREADABLE
        if seen.reasoning is None:
            self.send_completion(body, text)
            return
        message = {"role": "assistant", "content": text, "reasoning_content": seen.reasoning}
        self.send_json(
            200,
            {
                "id": "gen-r",
                "object": "chat.completion",
                "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            },
        )


@contextmanager
def recording(**how: Any) -> Iterator[tuple[ChatServer, Seen]]:
    """A recording server for the block (`how`: `Seen`'s switches)."""
    seen = Seen(**how)
    with serving(ChatServer(Recording, seen)) as server:
        yield server, seen


def models_file(folder: Path, base_url: str, *, slug: str = "mock", more: str = "") -> Path:
    """A registry naming the server as `llm:<slug>` (priced; `more` adds TOML lines)."""
    path = folder / "models.toml"
    path.write_text(
        f'[[models]]\nslug = "{slug}"\nprovider = "Test"\nmodel = "test/{slug}"\n'
        f'json_schema = false\napi_key_env = ""\nbase_url = "{base_url}"\n'
        f"temperature = 0.3\npricing = {{ in = 1.0, out = 4.0 }}\n{more}"
    )
    return path
