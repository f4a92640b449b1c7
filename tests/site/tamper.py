"""Tampering with a Tetris Bench log the way the site's refusal tests need: one recorded answer
moved one column, so the log no longer verifies (the game it claims is not the one replayed)."""

from __future__ import annotations

import json
from pathlib import Path


def flip_one_answer(log: Path) -> None:
    """Move the first recorded placement answer of `log` one column (in place)."""
    lines = log.read_text().splitlines()
    for index, line in enumerate(lines):
        event = json.loads(line)
        answer = (event.get("call") or {}).get("answer")
        if event.get("type") == "decision" and answer and answer.get("choice"):
            choice = answer["choice"][0]
            choice["x"] = (choice["x"] + 1) % 7
            lines[index] = json.dumps(event)
            break
    else:
        raise AssertionError("no decision with an answer to flip")
    log.write_text("\n".join(lines) + "\n")
