"""What every chat client shares whose replies come from something other than an
OpenAI-compatible server (an agent CLI, Inspect's model): the request body is the server client's,
so every lane's prompt and parser play unchanged; no API key is sent; nothing stays open between
requests. A subclass names where replies come from (`base_url`, `key_note`) and implements `send`.
"""

from __future__ import annotations

from policies.llm.client import ChatClient


class KeylessChatClient:
    """The shared half of a chat client that needs no API key (see the module docstring)."""

    build_body = staticmethod(ChatClient.build_body)
    api_key_env: str | None = None

    def __init__(self) -> None:
        self.requests_sent = 0

    def api_key(self) -> str | None:
        """No key: whatever answers holds its own credentials."""
        return None

    async def aclose(self) -> None:
        """Nothing is kept open between requests."""
