"""Games a person played (`arcade-eval play` run directories) as replay pages of the site.

`arcade-eval play` writes each game as a one-game run of the benchmark that records it
(`evaluation/play/command.py`): `manifest.json` whose settings name the `game`, and
`logs/human/<seed>.jsonl`. Such a run has no leaderboard, so no benchmark's pages take it; here
each of its games gets a replay page, drawn by the viewer of the game the play setup names
(`evaluation/play/catalogue.py`), under the section "Played games". A game that did not finish
(quit, aborted) or was played on an env no viewer draws is listed with the reason instead.

Run directories are untrusted: the manifest is read within bounds (`inputs.read_input`), logs only
through `inside_root` (a link leaving the run is refused, one line), the log is verified before
it is shown (`SiteBuild.replay`), and every text from the run reaches the page escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.core.replay_export import UnverifiedLogError
from evaluation.core.rundir import MANIFEST, inside_root, safe_name
from evaluation.core.verify import verify_log
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.html import Markup, definition_list, esc, link, table
from evaluation.site.inputs import read_input, sub_folders

SECTION = "played"
PLAYER = "human"
"""The folder of `logs/` a person's games are written to (`RunDir.game("human", seed)`)."""
MAX_GAMES = 1000
"""The most games read from one input (a play run holds one)."""
SHOWN_RESULT_FIELDS = 6
"""The most plain fields of a game's result line shown beside its replay link."""


@dataclass(frozen=True)
class PlayedGame:
    """One game of a play run: its run, log, the game's name and the manifest's status."""

    run: Path
    log: Path
    game: str
    status: str


def _manifest(path: Path) -> Mapping[str, Any] | None:
    """The play run manifest of `path` (None: not a play run)."""
    manifest = path / MANIFEST
    if manifest.is_symlink():
        inside_root(path, manifest)
    if not manifest.is_file() or not (path / "logs" / PLAYER).is_dir():
        return None
    data = read_input(manifest)
    settings = data.get("settings") if isinstance(data, dict) else None
    if not isinstance(settings, dict) or not isinstance(settings.get("game"), str):
        return None
    return data


def is_play_run(path: Path) -> bool:
    """Whether `path` is a run directory `arcade-eval play` wrote."""
    return Path(path).is_dir() and _manifest(Path(path)) is not None


def play_runs(path: Path) -> list[Path]:
    """The play runs an input holds: itself, or every sub-folder of a folder of play runs."""
    path = Path(path)
    if is_play_run(path):
        return [path]
    if not path.is_dir():
        return []
    children = sub_folders(path)
    runs = [p for p in children if is_play_run(p)]
    return runs if children and len(runs) == len(children) else []


def games_of(run: Path) -> list[PlayedGame]:
    """The games of one play run, each log reached through `inside_root`."""
    manifest = _manifest(run) or {}
    game = str(manifest.get("settings", {}).get("game"))
    status = str(manifest.get("status", "?"))
    folder = inside_root(run, run / "logs" / PLAYER)
    logs = sorted(p for p in folder.iterdir() if p.suffix == ".jsonl")
    if len(logs) > MAX_GAMES:
        raise SiteError(f"{run} holds more than {MAX_GAMES} games: give one play run at a time")
    return [PlayedGame(run, inside_root(run, log), game, status) for log in logs]


def _viewer(game: str) -> str | None:
    """The viewer that draws the game the play setup `game` plays (None: none does)."""
    from evaluation.play.catalogue import play_setups
    from evaluation.site.viewers import viewers

    setup = play_setups().get(game)
    name = setup.game if setup is not None else game
    return name if name in viewers() else None


def _result_text(result: Mapping[str, Any]) -> str:
    shown = [
        f"{key} {value}"
        for key, value in result.items()
        if key != "type" and isinstance(value, str | int | float) and not isinstance(value, bool)
    ]
    return ", ".join(shown[:SHOWN_RESULT_FIELDS])


def add_play_pages(inputs: Sequence[Path], build: SiteBuild) -> list[Path]:
    """The section of played games from the play runs among `inputs`; returns the inputs used."""
    used = [Path(p) for p in inputs if play_runs(Path(p))]
    if not used:
        return []
    build.section(
        SECTION,
        "Played games",
        Markup("<p>Games played by a person with <code>arcade-eval play</code>, replayed.</p>"),
    )
    index = f"{SECTION}/index.html"
    rows = []
    taken: set[str] = set()
    for run in (r for path in used for r in play_runs(path)):
        for played in games_of(run):
            name = safe_name(f"{run.name}-{played.log.stem}")
            while name in taken:
                name = safe_name(f"{name}-{len(taken)}")
            taken.add(name)
            rows.append(_game_row(build, played, f"{SECTION}/{name}.html", index))
    body = table(["Run", "Game", "Log", "Status", "Result", "Replay"], rows, table_id="played")
    build.page(index, "Played games", body)
    return used


def _game_row(build: SiteBuild, played: PlayedGame, path: str, index: str) -> list[Any]:
    """A replay page for one played game when it can be replayed; its row of the index."""
    viewer = _viewer(played.game)
    report = verify_log(played.log)
    result = report.result or {}
    replay: Markup | str = ""
    if viewer is None:
        replay = esc(f"no replay viewer draws {played.game}")
    elif not report.ok:
        replay = esc(f"not replayed: {report.message}")
    else:
        intro = definition_list(
            [
                ("Game", esc(played.game)),
                ("Run", esc(played.run.name)),
                ("Result", esc(_result_text(result)) or None),
            ]
        )
        try:
            page = build.replay(
                path, f"{played.game}: {played.log.stem}", played.log, viewer, intro_html=intro
            )
        except SiteError as error:
            if not isinstance(error.__cause__, UnverifiedLogError):
                raise
            replay = esc(str(error.__cause__))
        else:
            replay = link(build.href(index, page), "replay")
    return [
        esc(played.run.name),
        esc(played.game),
        esc(played.log.name),
        esc(played.status),
        esc(_result_text(result)),
        replay,
    ]
