"""Identity of a policy that plays from a file (a trained model, a weights file): a slug from the
file's name plus a short hash of its bytes, so a log names exactly which file played and
retraining into the same path gives a new slug."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

HASH_CHARS = 8


def file_digest(path: Path) -> str:
    """The first `HASH_CHARS` hex digits of the file's SHA-256."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:HASH_CHARS]


def file_slug(prefix: str, path: Path, digest: str) -> str:
    """`<prefix>-<file stem>-<digest>`, lower case, only `[a-z0-9-]`."""
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "model"
    return f"{prefix}-{stem}-{digest}"
