"""The static site's files as `arcade-eval serve` hands them out: a URL path to a file inside the
site's root, or a refusal. Nothing outside the root is ever read: `..` and `.` segments, a
backslash, NUL, hidden names and any symbolic link that leads out of the root
(`evaluation/core/rundir.py:inside_root`) are refused."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from evaluation.core.rundir import RunDirError, inside_root

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".txt": "text/plain; charset=utf-8",
    ".pgn": "application/x-chess-pgn; charset=utf-8",
    ".jsonl": "application/x-ndjson; charset=utf-8",
}
"""Content type by file suffix; anything else is `application/octet-stream`."""
OCTET_STREAM = "application/octet-stream"


@dataclass(frozen=True)
class Found:
    """A file to send (`path`, resolved inside the root), or a redirect (`location`) that adds
    the trailing slash a folder's URL needs so its relative links work."""

    path: Path | None = None
    location: str | None = None

    @property
    def content_type(self) -> str:
        """The file's content type (`CONTENT_TYPES`)."""
        assert self.path is not None
        return CONTENT_TYPES.get(self.path.suffix.lower(), OCTET_STREAM)


class BadPathError(Exception):
    """A URL path that cannot name a site file (400)."""


class NotFoundError(Exception):
    """No file of the site at that path (404), including one a link would take outside it."""


def find(root: Path, url_path: str) -> Found:
    """The file of the site at `root` that the (still %-encoded) `url_path` names: a folder's
    `index.html`, a redirect to the folder's URL with its slash, `BadPathError` or
    `NotFoundError`."""
    try:
        decoded = unquote(url_path, errors="strict")
    except UnicodeDecodeError:
        raise BadPathError("the path is not UTF-8") from None
    if not decoded.startswith("/") or "\x00" in decoded or "\\" in decoded:
        raise BadPathError("a path starts with / and holds no NUL or backslash")
    parts = decoded.split("/")[1:]
    names = [part for part in parts if part]
    if any(part in (".", "..") for part in parts):
        raise BadPathError("a path holds no '.' or '..' segment")
    if any(name.startswith(".") for name in names):
        raise NotFoundError(decoded)
    target = root.joinpath(*names)
    try:
        resolved = inside_root(root, target)
    except RunDirError:
        raise NotFoundError(decoded) from None
    if resolved.is_dir():
        if not decoded.endswith("/"):
            return Found(location=url_path + "/")
        resolved = root.joinpath(*names, "index.html")
        try:
            resolved = inside_root(root, resolved)
        except RunDirError:
            raise NotFoundError(decoded) from None
    if not resolved.is_file():
        raise NotFoundError(decoded)
    return Found(path=resolved)
