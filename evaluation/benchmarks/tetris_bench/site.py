"""Tetris Bench pages of the results site: the leaderboard, a page per brain, replays.

Every figure comes from the run's own `leaderboard.json` (written by `leaderboard.py`) and its
result files, formatted by the same cell functions as `leaderboard.md`, so the page, the
Markdown and `tetris/leaderboard.json` show one set of numbers. Every game whose log is present
in the run gets a replay page (compact: `evaluation/core/replay_compact.py`), each log verified
first (`evaluation/site/build.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.benchmarks.tetris_bench.leaderboard import (
    COLUMNS,
    PAIR_COLUMNS,
    Leaderboard,
    Row,
    footnotes,
    latency_text,
    leaderboard_from_json,
    load_index,
    money_text,
    number_text,
    pair_cells,
    pair_title,
    row_cells,
    tokens_text,
)
from evaluation.benchmarks.tetris_bench.records import GameResult, ResultFormatError
from evaluation.core.eventlog import read_header
from evaluation.core.rundir import MANIFEST, safe_name
from evaluation.core.untrusted_json import read_json
from evaluation.core.verify import log_files
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.inputs import is_run, read_input
from evaluation.site.plots import calibration_bins, calibration_plot, interval_plot, strip_plot

SECTION = "tetris"
VIEWER = "tetris"


@dataclass(frozen=True)
class TetrisRun:
    """One Tetris Bench run directory as the site reads it."""

    path: Path
    manifest: Mapping[str, Any]
    board_json: Mapping[str, Any]
    leaderboard: Leaderboard
    results: list[GameResult]
    logs: dict[tuple[str, str, str], Path]


INDEX = "leaderboard-index.json"
"""Where a shipped folder keeps its results when it ships only a few logs (`merge_index`'s
format): a `results/` folder without the logs would fail `arcade-eval verify` on the folder."""


def _results(path: Path) -> list[GameResult]:
    """The run's game results: its `results/` files, else its leaderboard index."""
    files = sorted((path / "results").rglob("*.json"))
    if not files and (path / INDEX).is_file():
        try:
            return load_index(path / INDEX)
        except ValueError as error:
            raise SiteError(str(error)) from error
    results = []
    for file in files:
        try:
            results.append(GameResult.from_dict(read_json(file)))
        except (OSError, ValueError, ResultFormatError) as error:
            raise SiteError(f"cannot read the game result {file}: {error}") from error
    return results


def _logs(path: Path) -> dict[tuple[str, str, str], Path]:
    """The logs present (plain or compressed, found as `verify` finds them: a link leaving the
    folder is refused), by (brain slug, mode, seed) as their headers name them."""
    logs: dict[tuple[str, str, str], Path] = {}
    folder = path / "logs"
    for log in log_files([folder]) if folder.is_dir() else []:
        header = read_header(log)
        if header is None:
            continue  # not a readable log: nothing to replay (verify reports it)
        brain = header.get("policy") or header.get("brain") or {}
        settings = header.get("settings") or header
        if isinstance(brain, dict) and isinstance(settings, dict):
            logs[(str(brain.get("slug")), str(settings.get("mode")), str(header.get("seed")))] = log
    return logs


def load_run(path: Path) -> TetrisRun:
    """Read a finished run: manifest, leaderboard, every result, and the logs present."""
    manifest = read_input(path / MANIFEST)
    board_path = path / "leaderboard.json"
    if not board_path.is_file():
        if "game" in (manifest.get("settings") or {}):
            raise SiteError(
                f"{path} is a one-game run of `arcade-eval play`: it has no leaderboard; "
                f"`arcade-eval site` gives its game a replay page under Played games"
            )
        raise SiteError(
            f"{path} has no leaderboard.json: the run is unfinished (resume it with the same "
            "arcade-eval tetris-bench command) or is not a Tetris Bench run"
        )
    try:
        board_json = read_json(board_path)
        leaderboard = leaderboard_from_json(board_json)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SiteError(f"cannot read {board_path}: {error}") from error
    return TetrisRun(path, manifest, board_json, leaderboard, _results(path), _logs(path))


def add_pages(inputs: Sequence[Path], build: SiteBuild) -> list[Path]:
    """The Tetris Bench section from every Tetris Bench run directory among `inputs`."""
    paths = [Path(p) for p in inputs if is_run(Path(p), BENCHMARK_ID)]
    if not paths:
        return []
    runs = [load_run(p) for p in paths]
    first = runs[0].leaderboard
    leader = first.rows[0] if first.rows else None
    summary = Markup(
        f"<p>{len(first.rows)} brains on {len(first.seeds)} IQ seeds ({esc(first.ruleset)})"
        + (
            f"; first: {esc(leader.name)}, mean score {esc(number_text(leader.score))}"
            if leader
            else ""
        )
        + ".</p><p>Leaderboard, head-to-head, a page per brain, replays.</p>"
    )
    build.section(SECTION, "Tetris Bench", summary)
    if len(runs) == 1:
        run_pages(runs[0], build, SECTION)
        return paths
    used: set[str] = set()
    items = []
    for run in runs:
        key = safe_name(run.path.name)
        while key in used:
            key = safe_name(f"{key}-{len(used)}")
        used.add(key)
        run_pages(run, build, f"{SECTION}/{key}")
        items.append(
            [
                link(f"{key}/index.html", run.path.name),
                esc(run.leaderboard.ruleset),
                len(run.leaderboard.rows),
                len(run.leaderboard.seeds),
                "yes" if run.leaderboard.official else "no",
            ]
        )
    body = table(["Run", "Ruleset", "Brains", "IQ seeds", "Official"], items)
    build.page(f"{SECTION}/index.html", "Tetris Bench runs", body)
    return paths


def _spread(row: Row) -> str:
    return "" if row.half_width is None else f" ± {number_text(row.half_width)}"


def run_pages(run: TetrisRun, build: SiteBuild, base: str) -> None:
    """The leaderboard page `<base>/index.html`, `<base>/leaderboard.json`, brain pages and
    replays of one run."""
    lb = run.leaderboard
    replays = _replays(run, build, base)
    brain_pages = {row.slug: f"{base}/brains/{safe_name(row.slug)}.html" for row in lb.rows}
    index = f"{base}/index.html"
    rows = []
    for row in lb.rows:
        cells = [esc(c) for c in row_cells(row)]
        if row.tied_with_above:
            cells[0] = Markup(
                f'<span class="tie" title="head-to-head interval with the row above includes '
                f'zero">{cells[0]}</span>'
            )
        cells[1] = link(build.href(index, brain_pages[row.slug]), row_cells(row)[1])
        rows.append(cells)
    notes = join(Markup(f'<p class="footnote">{esc(note)}</p>') for note in footnotes(lb))
    parts = [
        table(COLUMNS, rows, numeric=(0, *range(2, len(COLUMNS))), table_id="leaderboard"),
        notes,
        Markup(
            f"<p>{link('leaderboard.json', 'leaderboard.json')}: every figure of this table.</p>"
        ),
    ]
    scores = {row.name: [float(v) for v in row.seed_scores.values()] for row in lb.rows}
    seeds = {row.name: list(row.seed_scores) for row in lb.rows}
    parts.append(strip_plot(scores, title="IQ score per seed", x_label="score", point_labels=seeds))
    if lb.official and all(row.half_width is not None for row in lb.rows):
        parts.append(
            interval_plot(
                [
                    (row.name, row.score - hw, row.score, row.score + hw)
                    for row in lb.rows
                    if (hw := row.half_width) is not None
                ],
                title="Mean IQ score with its 95% t-interval",
                x_label="mean IQ score",
            )
        )
    elo = [
        (row.name, iv[0], row.elo, iv[1]) for row in lb.rows if (iv := row.elo_interval) is not None
    ]
    if elo:
        parts.append(interval_plot(elo, title="Elo with its bootstrap interval", x_label="Elo"))
    if lb.pairs:
        parts += [
            Markup("<h2>Head-to-head</h2>"),
            Markup(f'<p class="note">{esc(pair_title(lb))}</p>'),
            table(
                PAIR_COLUMNS,
                [[esc(c) for c in pair_cells(p)] for p in lb.pairs],
                numeric=(2, 3, 4),
                table_id="head-to-head",
            ),
        ]
    parts += [Markup("<h2>About this run</h2>"), _run_facts(run)]
    build.page(index, "Tetris Bench leaderboard", join(parts, "\n"), data=run.board_json)
    build.json(f"{base}/leaderboard.json", run.board_json)
    for row in lb.rows:
        games = [r for r in run.results if r.slug == row.slug]
        brain_page(build, brain_pages[row.slug], row, games, replays, index)


def _run_facts(run: TetrisRun) -> Markup:
    settings = run.manifest.get("settings") or {}
    lb = run.leaderboard
    budget = settings.get("budgetMs")
    return definition_list(
        [
            ("Ruleset", esc(lb.ruleset)),
            ("IQ seeds", esc(f"{len(lb.seeds)} ({settings.get('seedSet') or 'custom'})")),
            ("Modes", esc(", ".join(settings.get("modes") or []))),
            ("Official", "yes (all public seeds)" if lb.official else "no (a quick run)"),
            ("IQ budget", esc(latency_text(float(budget))) if budget is not None else None),
            ("Caps", esc(f"{settings.get('pieceCap')} pieces, {settings.get('tickCap')} ticks")),
            ("Games", esc(f"{run.manifest.get('finished')} of {run.manifest.get('games')}")),
            ("Made by", esc(f"arcade-gym {run.manifest.get('packageVersion', '?')}")),
        ]
    )


def _replays(run: TetrisRun, build: SiteBuild, base: str) -> dict[tuple[str, str, str], str]:
    """A replay page for every game whose log is present: (slug, mode, seed) -> page path."""
    groups: dict[tuple[str, str], list[GameResult]] = {}
    for game in run.results:
        if (game.slug, game.mode, game.seed) in run.logs:
            groups.setdefault((game.slug, game.mode), []).append(game)
    pages: dict[tuple[str, str, str], str] = {}
    build.prepare_replays(
        run.logs[(slug, mode, game.seed)]
        for (slug, mode), games in groups.items()
        for game in games
    )
    for (slug, mode), games in sorted(groups.items()):
        for game in sorted(games, key=lambda g: g.seed):
            key = (slug, mode, game.seed)
            path = f"{base}/replays/{safe_name(f'{slug}-{mode}-{game.seed}')}.html"
            brain = f"{base}/brains/{safe_name(slug)}.html"
            intro = definition_list(
                [
                    ("Brain", link(build.href(path, brain), game.brain.get("name") or slug)),
                    ("Mode, seed", esc(f"{mode}, {game.seed}")),
                    (
                        "Recorded result",
                        esc(
                            f"score {game.score:,}, {game.lines} lines, "
                            f"level {game.level}, {game.end_reason}"
                        ),
                    ),
                ]
            )
            pages[key] = build.replay(
                path,
                f"{game.brain.get('name') or slug}: {mode} {game.seed}",
                run.logs[key],
                VIEWER,
                intro_html=intro,
            )
    return pages


def _median(values: Sequence[float]) -> float | None:
    return float(np.median(values)) if values else None


def brain_page(
    build: SiteBuild,
    path: str,
    row: Row,
    games: list[GameResult],
    replays: Mapping[tuple[str, str, str], str],
    index: str,
) -> None:
    """One brain: who it is, its leaderboard figures, every game, Blitz, replays."""
    identity = games[0].brain if games else {}
    iq = sorted((g for g in games if g.mode == "IQ"), key=lambda g: g.seed)
    blitz = sorted((g for g in games if g.mode == "Blitz"), key=lambda g: g.seed)
    elo = f"{row.elo:.0f}"
    if row.elo_interval is not None:
        elo += f" [{row.elo_interval[0]:.0f}, {row.elo_interval[1]:.0f}]"
    facts = [
        ("Brain", esc(f"{row.name} ({row.slug})")),
        ("Kind", esc(row.kind) if row.kind else None),
        ("Provider", esc(row.provider) if row.provider else None),
        ("Model", esc(identity["model"]) if identity.get("model") else None),
        ("Via", esc(identity["via"]) if identity.get("via") else None),
        ("About", esc(identity["description"]) if identity.get("description") else None),
        ("Rank", link(build.href(path, index), f"{row.rank} of the leaderboard")),
        ("Mean IQ score", esc(number_text(row.score) + _spread(row))),
        ("Mean lines", esc(number_text(row.lines))),
        ("Median latency", esc(latency_text(row.latency_ms))),
        ("$ / 100 decisions", esc(money_text(row.cost_per_100))),
        ("Tokens in / out", esc(tokens_text(row.prompt_tokens, row.completion_tokens))),
        ("Elo", esc(elo)),
        (
            "Brier (top-out risk)",
            esc(f"{row.brier:.3f} over {row.risk_reports} reports")
            if row.brier is not None
            else None,
        ),
    ]
    parts = [definition_list(facts)]
    groups = {
        mode: [float(g.score) for g in gs] for mode, gs in (("IQ", iq), ("Blitz", blitz)) if gs
    }
    labels = {mode: [g.seed for g in gs] for mode, gs in (("IQ", iq), ("Blitz", blitz)) if gs}
    parts.append(strip_plot(groups, title=f"{row.name}: score per seed", point_labels=labels))
    latency = {
        mode: [m for g in gs if (m := _median(g.latencies_ms)) is not None]
        for mode, gs in (("IQ", iq), ("Blitz", blitz))
        if gs
    }
    if any(latency.values()):
        parts.append(strip_plot(latency, title="Median latency per game", x_label="milliseconds"))
    risks = [pair for g in games for pair in g.risks]  # as the Brier score counts them
    if risks:
        parts.append(
            calibration_plot(
                calibration_bins(risks),
                title=f"{row.name}: reported top-out risk against top-outs",
                x_label="reported risk",
                y_label="share topped out within ten pieces",
            )
        )

    def replay_cell(game: GameResult) -> Markup:
        page = replays.get((game.slug, game.mode, game.seed))
        if page:
            return link(build.href(path, page), "replay")
        return Markup(  # a folder of results may ship without some of its logs
            '<span title="the input holds no event log of this game to replay">no log</span>'
        )

    parts += [
        Markup("<h2>IQ games</h2>"),
        table(
            [
                "Seed",
                "Score",
                "Lines",
                "Pieces",
                "Level",
                "End",
                "Decisions",
                "Unusable",
                "Median latency",
                "Cost",
                "Replay",
            ],
            [
                [
                    esc(g.seed),
                    g.score,
                    g.lines,
                    g.pieces,
                    g.level,
                    esc(g.end_reason),
                    g.decisions,
                    g.invalid + g.stale + g.errors + g.timeouts,
                    esc(latency_text(_median(g.latencies_ms))),
                    esc(money_text(g.cost_usd)),
                    replay_cell(g),
                ]
                for g in iq
            ],
            table_id="iq-games",
        ),
        Markup(
            '<p class="note">Unusable: invalid, stale, failed or timed-out answers (three in a '
            "row end a game).</p>"
        ),
        Markup("<h2>Blitz</h2>"),
    ]
    if row.blitz is None:
        parts.append(Markup("<p>Not run: this run played IQ only.</p>"))
    else:
        b = row.blitz
        share = b.in_time_share
        parts.append(
            definition_list(
                [
                    ("Games", b.games),
                    ("Level reached", b.level_reached),
                    ("Questions (ticks)", b.questions),
                    ("Answered in time", esc("—" if share is None else f"{100 * share:.1f}%")),
                    ("Late", b.late),
                    ("Unreachable", b.unreachable),
                    ("Locked by gravity", b.locked),
                ]
            )
        )
        parts.append(
            table(
                [
                    "Seed",
                    "Score",
                    "Lines",
                    "Level",
                    "Questions",
                    "In time",
                    "Late",
                    "Unreachable",
                    "Locked",
                    "End",
                    "Replay",
                ],
                [
                    [
                        esc(g.seed),
                        g.score,
                        g.lines,
                        g.level,
                        g.ticks,
                        g.blitz_in_time,
                        g.blitz_late,
                        g.blitz_unreachable,
                        g.blitz_locked,
                        esc(g.end_reason),
                        replay_cell(g),
                    ]
                    for g in blitz
                ],
                table_id="blitz-games",
            )
        )
    data = {
        "slug": row.slug,
        "games": [
            {k: v for k, v in g.to_dict().items() if k not in ("latenciesMs", "risks", "logPath")}
            for g in games
        ],
    }
    build.page(path, row.name, join(parts, "\n"), data=data)
