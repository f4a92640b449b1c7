"""The site of the shipped results stays small enough to publish and every game on it can be
watched: the whole built site is under `MAX_SITE_BYTES`, and every cell of a Replay column links
to a replay page that exists (replays are compact: `evaluation/core/replay_compact.py`). The one
exception is a Tetris Bench game whose log the shipped folder does not hold
(`docs/results/tetris-bench/README.md`): its row says so, and those rows are exactly the games of
the leaderboard index without a shipped log."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TETRIS = REPO / "docs" / "results" / "tetris-bench"
MAX_SITE_BYTES = 15 * 1024 * 1024

pytestmark = pytest.mark.slow  # building the shipped site verifies every shipped log: minutes

TABLE = re.compile(r"<table\b[^>]*>(.*?)</table>", re.S)
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", re.S)
HREF = re.compile(r'href="([^"#]+)')


def replay_cells(site: Path) -> list[tuple[Path, str]]:
    """(page, cell HTML) of every cell under a Replay column header in every table of `site`."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for table in TABLE.findall(page.read_text(encoding="utf-8")):
            rows = [CELL.findall(row) for row in ROW.findall(table)]
            if not rows:
                continue
            header = [re.sub(r"<[^>]+>", "", h).strip().lower() for h in rows[0]]
            if "replay" not in header:
                continue
            column = header.index("replay")
            found += [(page, row[column]) for row in rows[1:] if len(row) > column]
    return found


def test_the_shipped_site_is_under_15_mb_and_every_game_links_to_its_replay(
    shipped_site: Path,
) -> None:
    total = sum(p.stat().st_size for p in shipped_site.rglob("*") if p.is_file())
    assert total < MAX_SITE_BYTES, f"{total / 1e6:.2f} MB"

    cells = replay_cells(shipped_site)
    assert len(cells) > 200
    unlogged = []
    for page, cell in cells:
        links = HREF.findall(cell)
        if not links:
            unlogged.append((page, cell))
            continue
        for href in links:
            assert (page.parent / href).resolve().is_file(), (page, href)
    shipped_logs = len(list((TETRIS / "logs").rglob("*.jsonl")))
    index = json.loads((TETRIS / "leaderboard-index.json").read_text())
    assert len(unlogged) == len(index["results"]) - shipped_logs
    assert all("tetris" in page.parts and ">no log</span>" in cell for page, cell in unlogged)
