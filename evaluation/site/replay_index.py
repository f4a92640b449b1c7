"""A `SiteBuild` that remembers which log each replay page shows, so pages written after the
benchmarks' own (a suite policy's page, `evaluation/suite/site_pages.py`) can link a policy's
replays without knowing how any benchmark names its pages."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from evaluation.site.build import SiteBuild


class IndexedBuild(SiteBuild):
    """`SiteBuild` plus `replays`: the resolved log path -> the replay page made from it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.replays: dict[Path, str] = {}

    def replay(self, *args: Any, **kwargs: Any) -> str:
        """`SiteBuild.replay`, recording the page under its log's resolved path."""
        page = super().replay(*args, **kwargs)
        bound = inspect.signature(SiteBuild.replay).bind(self, *args, **kwargs)
        log = bound.arguments.get("log_path")
        if log is not None:
            self.replays[Path(log).resolve()] = page
        return page

    def replays_under(self, folder: Path) -> dict[Path, str]:
        """The replay pages of the logs inside `folder` (by log path relative to it, sorted)."""
        root = Path(folder).resolve()
        found = {
            log.relative_to(root): page for log, page in self.replays.items() if root in log.parents
        }
        return dict(sorted(found.items()))
