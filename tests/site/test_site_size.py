"""The site of the shipped results stays small enough to publish and every game on it can be
watched: the whole built site is under `MAX_SITE_BYTES`, and every cell of a Replay column links
to a replay page that exists (replays are compact: `evaluation/core/replay_compact.py`), every
Tetris Bench game of the leaderboard index included (its logs are shipped xz-compressed:
`docs/results/tetris-bench/README.md`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaluation.core.eventlog import is_log_name

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
    for page, cell in cells:
        links = HREF.findall(cell)
        assert links, (page, cell)
        for href in links:
            assert (page.parent / href).resolve().is_file(), (page, href)
    index = json.loads((TETRIS / "leaderboard-index.json").read_text())
    shipped_logs = [p for p in (TETRIS / "logs").rglob("*") if is_log_name(p.name)]
    assert len(shipped_logs) == len(index["results"]) == 180
    tetris = {href for page, cell in cells if "tetris" in page.parts for href in HREF.findall(cell)}
    assert len(tetris) == 180
