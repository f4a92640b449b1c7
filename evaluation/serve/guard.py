"""What makes `arcade-eval serve` safe to leave running on a person's machine.

- It listens on 127.0.0.1 only (`evaluation/serve/server.py`).
- Every request must name this server in its Host header (`127.0.0.1:PORT` or
  `localhost:PORT`): a page on another site that has its own name re-pointed at 127.0.0.1 (DNS
  rebinding) sends its own name, and is refused before anything is read or run.
- A request that changes something (a POST) must come from this server's own page: its Origin,
  when sent, is this server's; a `Sec-Fetch-Site` header, when sent, says same-origin; and it
  carries the per-process token the live page embeds (`X-Live-Token`), which no other site can
  read. A custom header also makes browsers ask before sending it cross-origin, which this server
  never allows.
"""

from __future__ import annotations

import hmac
import secrets

TOKEN_HEADER = "X-Live-Token"


class Guard:
    """The checks for a server on 127.0.0.1:`port`; `token` is made fresh when not given."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token or secrets.token_urlsafe(32)
        names = ("127.0.0.1", "localhost")
        self.hosts = {f"{name}:{port}" for name in names}
        if port == 80:
            self.hosts.update(names)
        self.origins = {f"http://{host}" for host in self.hosts}

    def host_refusal(self, host: str | None) -> str | None:
        """Why a request with this Host header is refused (None: it is this server's)."""
        if host is not None and host.strip().lower() in self.hosts:
            return None
        return (
            f"Host {str(host)[:80]!r} refused: this server answers only as "
            f"http://127.0.0.1:{self.port}/ or http://localhost:{self.port}/"
        )

    def post_refusal(
        self, origin: str | None, fetch_site: str | None, token: str | None
    ) -> str | None:
        """Why a POST with these headers is refused (None: it comes from the live page)."""
        if origin is not None and origin.strip().lower() not in self.origins:
            return f"cross-origin request refused (Origin {origin[:80]!r})"
        if fetch_site is not None and fetch_site.strip().lower() not in ("same-origin", "none"):
            return f"cross-site request refused (Sec-Fetch-Site {fetch_site[:40]!r})"
        if token is None or not hmac.compare_digest(token.encode(), self.token.encode()):
            return f"missing or wrong {TOKEN_HEADER}: start runs from this server's /live/ page"
        return None
