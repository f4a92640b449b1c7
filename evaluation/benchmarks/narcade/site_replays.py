"""NARCADE's replay pages: every log of a run that verifies, re-simulated into frames
(`site_frames.py`) and drawn by its game's viewer (`docs/frames.md`); every other log is listed as
refused, with the builder's reason, and said on stderr."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.protocol import GAMES
from evaluation.benchmarks.narcade.site_format import SECTION
from evaluation.benchmarks.narcade.site_inputs import Source
from evaluation.core.eventlog import read_log
from evaluation.core.rundir import safe_name
from evaluation.core.verify import log_files
from evaluation.site.build import SiteBuild, SiteError, relative
from evaluation.site.html import Markup, definition_list, esc, link


@dataclass
class Replays:
    """Replay pages by (run key, model, game, seed) and the logs the builder refused."""

    pages: dict[tuple[str, str, str, int], str] = field(default_factory=dict)
    scores: dict[tuple[str, str, str, int], Any] = field(default_factory=dict)
    refused: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def refuse(self, run: Source, log: Path, why: str) -> None:
        """List a run's log as refused, and say so on stderr."""
        self.refused.setdefault(run.key, []).append((log.relative_to(run.path).as_posix(), why))
        print(f"arcade-eval site: NARCADE: refused {log}: {why}", file=sys.stderr)

    def find(self, model: str, game: str, seed: int, score: Any) -> str | None:
        """A replay of this model's game on `seed` that ended with `score` (any run)."""
        for (_, m, g, s), page in sorted(self.pages.items()):
            if (m, g, s) == (model, game, seed) and self.scores[(_, m, g, s)] == score:
                return page
        return None


def _log_identity(run: Source, log: Path) -> tuple[str, str, int]:
    """(model, game, seed) of a run's log: its result file's episode, else its header."""
    relative = log.relative_to(run.path).as_posix()
    for (model, game), entry in run.entries.items():
        for episode in entry["episodes"]:
            if episode.get("log") == relative:
                return model, game, int(episode["seed"])
    header = read_log(log).header
    policy = header.get("policy") or {}
    return str(policy.get("spec")), str(header["settings"]["game"]), int(header["seed"])


def add_replays(build: SiteBuild, runs: Sequence[Source]) -> Replays:
    """A replay page for every log of the runs that verifies; the others are listed as refused
    (with the builder's reason) and reported on stderr, never dropped silently."""
    out = Replays()
    build.prepare_replays(log for run in runs for log in _logs(run))
    for run in runs:
        out.refused.setdefault(run.key, [])
        for log in _logs(run):
            try:
                model, game, seed = _log_identity(run, log)
            except (ValueError, KeyError, TypeError, OSError) as error:
                out.refuse(run, log, f"unreadable log ({type(error).__name__}: {error})")
                continue
            if game not in GAMES:
                out.refuse(run, log, f"{game!r} is not a NARCADE game")
                continue
            path = f"{SECTION}/replays/{run.key}/{safe_name(model)}/{game}/{safe_name(seed)}.html"
            intro = _replay_intro(
                run, model, game, seed, log.relative_to(run.path).as_posix(), path
            )
            try:
                page = build.replay(
                    path,
                    f"{model} on {game}, seed {seed}",
                    log,
                    game,
                    section=SECTION,
                    intro_html=intro,
                )
            except SiteError as error:
                out.refuse(run, log, str(error))
                continue
            key = (run.key, model, game, seed)
            out.pages[key] = page
            episode = recorded_episode(run, model, game, seed)
            out.scores[key] = episode.get("score") if episode else _final_score(log)
    return out


def _logs(run: Source) -> list[Path]:
    folder = run.path / "logs"
    return log_files([folder]) if folder.is_dir() else []


def recorded_episode(run: Source, model: str, game: str, seed: int) -> dict[str, Any] | None:
    entry = run.entries.get((model, game))
    for episode in entry["episodes"] if entry else []:
        if int(episode.get("seed", -1)) == seed:
            return dict(episode)
    return None


def _final_score(log: Path) -> Any:
    result = read_log(log).result
    return None if result is None else result.get("score")


def _replay_intro(run: Source, model: str, game: str, seed: int, log: str, page: str) -> Markup:
    settings = run.data.get("settings") or {}
    episode = recorded_episode(run, model, game, seed) or {}
    policy = f"{SECTION}/policies/{safe_name(model)}.html"
    facts = [
        ("Policy", link(relative(page, policy), model)),
        ("Game", esc(f"{game} ({(settings.get('gameModes') or {}).get(game, '?')})")),
        ("Seed", seed),
        ("Difficulty", esc(settings.get("difficulty", "?"))),
        ("Recorded score", episode.get("score")),
        ("End", esc(episode.get("endReason", "?"))),
        ("Run", esc(run.label)),
        ("Log", Markup(f"<code>{esc(log)}</code>")),
    ]
    return Markup(
        f"{definition_list(facts)}<p>Re-simulated from its event log when this site was built; "
        "playback speed is illustrative, not the original request timing.</p>"
    )
