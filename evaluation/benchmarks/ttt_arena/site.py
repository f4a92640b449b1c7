"""The arena pages of the results site (`arcade-eval site`, `evaluation/site/build.py`).

From the arena entries folder (`entries.py`): the tier list (`arena/index.html`, also
`arena/tier-list.json`) and a page per entry (`arena/entries/<id>.html`): its metadata, grade and
every number of its official result, the replays of its 24 matches (from the match logs the result
keeps, verified when the site is built), its source code and a box where a visitor plays it
(`assets/arena-play.js` with `assets/tictactoe-rules.js`, the arena's own scripts in
`evaluation/benchmarks/ttt_arena/assets/`, added to the site by `SiteBuild.asset`). From arena run
directories (`arcade-eval arena --policy ...`): a page per run with each engine's report and match
replays.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID, DEFAULT_SEED
from evaluation.benchmarks.ttt_arena.entries import (
    ENGINE_FILE,
    Entry,
    EntryError,
    load_entries,
)
from evaluation.benchmarks.ttt_arena.entry_bench import match_logs
from evaluation.benchmarks.ttt_arena.evidence import Evidence, verified_results
from evaluation.benchmarks.ttt_arena.grading import WEIGHTS
from evaluation.benchmarks.ttt_arena.suite import CATEGORIES, CATEGORY_TITLES
from evaluation.benchmarks.ttt_arena.tier_list import (
    COLUMNS,
    millions,
    row_cells,
    tier_rows,
    unverified_lines,
)
from evaluation.core.rundir import safe_name
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.inputs import read_input, run_dirs
from evaluation.site.plots import strip_plot

SECTION = "arena"
PLAY_SCRIPTS = (
    "viewer-kit.js",
    "brainfuck.js",
    "bf-wasm.js",
    "bf-worker.js",
    "tictactoe-rules.js",
    "arena-play.js",
)
OWN_SCRIPTS = ("tictactoe-rules.js", "arena-play.js")
"""The scripts of `PLAY_SCRIPTS` that are the arena's own (`assets/` beside this file)."""
SIZES = [3, 5, 10]
VIEWER = "tictactoe"
SHOW_SOURCE = Markup(
    "<script>document.addEventListener('DOMContentLoaded', function () {"
    "var data = JSON.parse(document.getElementById('page-data').textContent);"
    "document.getElementById('engine-source').textContent = data.play.source;});</script>"
)
"""Fills the source listing from the page's data (the engine text is inlined once, not twice)."""


def add_play_scripts(build: SiteBuild) -> tuple[str, ...]:
    """Add the arena's own scripts to the site; returns the scripts a play page loads."""
    folder = resources.files("evaluation.benchmarks.ttt_arena").joinpath("assets")
    for name in OWN_SCRIPTS:
        build.asset(name, folder.joinpath(name).read_bytes())
    return PLAY_SCRIPTS


def is_entries_dir(path: Path) -> bool:
    """Whether `path` is an arena entries folder: some sub-folder holds an `engine.bf`."""
    if not path.is_dir() or (path / "manifest.json").exists():
        return False
    return any((child / ENGINE_FILE).is_file() for child in path.iterdir() if child.is_dir())


def arena_runs_in(path: Path) -> list[Path]:
    """The finished arena runs (a report beside the manifest) an input holds: itself, or (a
    folder of runs) every sub-folder when each one is a finished arena run; [] otherwise."""
    return run_dirs(path, BENCHMARK_ID, needs=("report.json",))


# --- shared pieces ------------------------------------------------------------------------------


def _fraction(cell: Mapping[str, int] | None) -> str:
    return "" if not cell else f"{cell['passed']}/{cell['total']}"


def category_table(report: Mapping[str, Any]) -> Markup:
    """Category x board size (passed / total), the category's accuracy, weight and points."""
    rows: list[list[object]] = []
    accuracy = report["accuracy"]
    for category in CATEGORIES:
        cells = report["table"].get(category, {})
        rows.append(
            [
                esc(CATEGORY_TITLES[category]),
                *(esc(_fraction(cells.get(key))) for key in ("3", "5", "10", "all")),
                f"{100 * accuracy[category]:.1f}%",
                WEIGHTS[category],
                f"{WEIGHTS[category] * accuracy[category]:.2f}",
            ]
        )
    overall = report["matches"].get("all")
    if overall:
        rows.append(
            [
                "Match play",
                "",
                "",
                "",
                esc(f"{overall['points']:g}/{overall['games']}"),
                f"{100 * accuracy['match_play']:.1f}%",
                WEIGHTS["match_play"],
                f"{WEIGHTS['match_play'] * accuracy['match_play']:.2f}",
            ]
        )
    return table(
        ["Category", "3\u00d73", "5\u00d75", "10\u00d710", "All", "Accuracy", "Weight", "Points"],
        rows,
        numeric=range(1, 8),
        table_id="arena-categories",
    )


def matches_table(report: Mapping[str, Any], replays: Mapping[str, str]) -> Markup:
    """Every match: board, opponent, the engine's colour, result, points, length, replay."""
    rows = []
    for game in report["games"]:
        replay = replays.get(game["id"])
        rows.append(
            [
                esc(game["id"]),
                esc(f"{game['size']}\u00d7{game['size']}"),
                esc(game["opponent"] + (" (varied opening)" if game["opening"] else "")),
                esc(game["engineMark"]),
                join([game["result"], f" ({game['forfeit']})" if game["forfeit"] else ""]),
                f"{game['points']:g}",
                len(game["moves"]),
                link(replay, "replay") if replay else "",
            ]
        )
    return table(
        ["Match", "Board", "Opponent", "Engine", "Result", "Points", "Stones", "Replay"],
        rows,
        table_id="arena-matches",
    )


def instructions_plot(report: Mapping[str, Any]) -> Markup:
    """Instructions per suite position, one row per board size (millions)."""
    groups: dict[str, list[float]] = {}
    labels: dict[str, list[str]] = {}
    for position in report["positions"]:
        if position.get("instructions") is None:
            continue
        key = f"{position['size']}\u00d7{position['size']}"
        groups.setdefault(key, []).append(position["instructions"] / 1e6)
        labels.setdefault(key, []).append(position["id"])
    if not groups:
        return Markup()
    return strip_plot(
        groups,
        title="Instructions per suite position",
        x_label="million instructions",
        point_labels=labels,
    )


def report_html(report: Mapping[str, Any], replays: Mapping[str, str]) -> Markup:
    """An engine's full report: the category table, matches, move cost, illegal moves."""
    stats = report["moveStats"]
    summary = report["matches"].get("all", {})
    facts = definition_list(
        [
            ("Grade", f"{report['grade']}" + (" (capped at C)" if report["capped"] else "")),
            ("Score", f"{report['score']:.1f}"),
            ("Suite", f"{report['suite']}, seed {report['seed']}"),
            (
                "Matches W/D/L",
                f"{int(summary.get('win', 0))}/{int(summary.get('draw', 0))}/"
                f"{int(summary.get('loss', 0))}",
            ),
            (
                "Instructions per move",
                f"avg {millions(stats['avgInstructions'])}, "
                f"max {millions(stats['maxInstructions'])} ({stats['moves']} moves)",
            ),
            ("Illegal moves", len(report["illegalMoves"])),
        ]
    )
    illegal = ""
    if report["illegalMoves"]:
        items = "".join(
            f"<li><code>{esc(i['where'])}</code>: {esc(i['reason'])}</li>"
            for i in report["illegalMoves"]
        )
        illegal = f'<h2>Illegal moves</h2><ul class="illegal">{items}</ul>'
    return Markup(
        f'<div id="arena-facts">{facts}</div>'
        f"<h2>Suite</h2>{category_table(report)}{instructions_plot(report)}"
        f"<h2>Matches</h2>{matches_table(report, replays)}{illegal}"
    )


# --- the pages ----------------------------------------------------------------------------------


class ArenaPages:
    """The arena section of one site build."""

    def __init__(self, build: Any) -> None:
        self.build = build
        self.entries: list[Entry] = []
        self.runs: list[Path] = []
        self.evidence: dict[str, Evidence] = {}

    def add(self) -> None:
        self.evidence = {entry.id: verified_results(entry) for entry in self.entries}
        rows = tier_rows(self.entries, self.evidence)
        benched = [r for r in rows if r["benched"]]
        summary = Markup(
            f"<p>{len(self.entries)} Brainfuck entries graded on the tic-tac-toe suite "
            f"(seed {DEFAULT_SEED})"
            + (f"; best: {esc(benched[0]['name'])}, {esc(benched[0]['grade'])}" if benched else "")
            + ".</p>"
        )
        self.build.section(SECTION, "Tic-tac-toe arena", summary)
        add_play_scripts(self.build)
        entry_pages = {entry.id: self.entry_page(entry) for entry in self.entries}
        run_pages = [self.run_page(run) for run in self.runs]
        self.index(rows, entry_pages, run_pages)

    def index(
        self,
        rows: Sequence[Mapping[str, Any]],
        entry_pages: Mapping[str, str],
        run_pages: Sequence[tuple[str, str]],
    ) -> None:
        page = f"{SECTION}/index.html"
        body_rows = []
        for row in rows:
            cells: list[object] = list(row_cells(dict(row)))
            target = entry_pages.get(row["entry"])
            cells = [esc(c) for c in cells]
            if target:
                cells[0] = link(self.build.href(page, target), row["name"])
            body_rows.append(cells)
        tier_list = (
            table(COLUMNS, body_rows, numeric=(2,), table_id="arena-tier-list")
            if rows
            else Markup("<p>No entries.</p>")
        )
        if notes := unverified_lines(rows):
            tier_list += (
                Markup(
                    "<h2>Unverified results</h2><p>Not ranked: their logs do not prove them.</p>"
                    '<ul id="arena-unverified">'
                )
                + join(Markup(f"<li>{esc(line)}</li>") for line in notes)
                + Markup("</ul>")
            )
        body = Markup(
            '<p class="lead">Each entry is a tic-tac-toe engine written in Brainfuck. The arena '
            "runs it through the seeded suite (188 positions on 3\u00d73, 5\u00d75 and "
            "10\u00d710, 24 matches against sparring partners) and grades it; nobody "
            "self-reports a grade. The official result of an entry is its latest run on seed "
            f"{DEFAULT_SEED} whose logs replay to it.</p>{tier_list}"
            '<p class="note">Grades: S+ \u2265 98, S \u2265 93, A \u2265 85, B \u2265 75, '
            "C \u2265 65, D \u2265 50, F below; any illegal move or runtime error caps the grade "
            "at C. Instructions are exact Brainfuck instruction counts per move.</p>"
        )
        if run_pages:
            items = "".join(
                f"<li>{link(self.build.href(page, target), name)}</li>"
                for name, target in run_pages
            )
            body += Markup(f"<h2>Arena runs</h2><ul>{items}</ul>")
        self.build.json(
            f"{SECTION}/tier-list.json", {"seed": DEFAULT_SEED, "columns": COLUMNS, "rows": rows}
        )
        self.build.page(page, "Tic-tac-toe arena: tier list", body, section=SECTION)

    def replays(
        self, page: str, folder: str, logs: Mapping[str, Path], back: str
    ) -> dict[str, str]:
        """A replay page per match log; match id -> its URL relative to `page`."""
        out: dict[str, str] = {}
        for match_id, log in logs.items():
            target = f"{folder}/{safe_name(match_id)}.html"
            intro = Markup(
                f"<p>{link(self.build.href(target, page), back)}: match {esc(match_id)}</p>"
            )
            self.build.replay(
                target, f"{back}: {match_id}", log, VIEWER, section=SECTION, intro_html=intro
            )
            out[match_id] = self.build.href(page, target)
        return out

    def entry_page(self, entry: Entry) -> str:
        page = f"{SECTION}/entries/{entry.id}.html"
        meta = entry.metadata
        checked = self.evidence.get(entry.id) or verified_results(entry)
        result = checked.official
        source = entry.engine_bytes().decode("latin-1")
        facts = definition_list(
            [
                ("Entry", entry.id),
                ("Model", meta.model),
                ("Provider", meta.provider),
                ("Harness", meta.harness),
                ("Date", meta.date),
                ("Submitted by", meta.submittedBy),
                ("Engine", f"{ENGINE_FILE}, {len(source.encode('latin-1')):,} bytes"),
            ]
        )
        body = Markup(f'<p class="lead">{esc(meta.description)}</p>{facts}')
        if result is None:
            body += Markup('<p id="arena-not-benched">Not benched yet: no official result.</p>')
        else:
            logs = match_logs(entry, result)
            replays = self.replays(page, f"{SECTION}/entries/{entry.id}", logs, meta.name)
            body += Markup(
                f'<p class="note">Official result: suite {esc(result["suite"])}, seed '
                f"{esc(result['seed'])}, benched {esc(result['benchedAt'])}, engine SHA-256 "
                f"<code>{esc(result['engineSha256'])}</code>.</p>"
                f"{report_html(result['report'], replays)}"
            )
            self.build.json(f"{SECTION}/entries/{entry.id}.json", result)
        if checked.unverified:
            body += (
                Markup(
                    '<p>Unverified results (not shown, not ranked):</p><ul id="arena-unverified">'
                )
                + join(
                    Markup(f"<li>{esc(u.file)}: {esc(u.reason)}</li>") for u in checked.unverified
                )
                + Markup("</ul>")
            )
        body += Markup(
            "<h2>Play it</h2>"
            f"<p>Play {esc(meta.name)} on 3\u00d73, 5\u00d75 or 10\u00d710: its Brainfuck runs "
            "in your browser under the arena's limits.</p>"
            '<div id="play" data-arcade-play="play"></div>'
        )
        sources = ""
        if entry.source is not None:
            names = sorted(p.relative_to(entry.source).as_posix() for p in entry.source.rglob("*"))
            sources = "".join(f"<li><code>{esc(n)}</code></li>" for n in names)
            sources = f"<p>Its <code>source/</code> folder holds:</p><ul>{sources}</ul>"
        body += Markup(
            f"<h2>Source code</h2>{sources}"
            f"<details><summary>{ENGINE_FILE} ({len(source):,} characters)</summary>"
            f'<pre><code id="engine-source"></code></pre></details>{SHOW_SOURCE}'
        )
        data = {"entry": entry.id, "play": {"source": source, "name": meta.name, "sizes": SIZES}}
        return str(
            self.build.page(page, meta.name, body, section=SECTION, scripts=PLAY_SCRIPTS, data=data)
        )

    def run_page(self, run: Path) -> tuple[str, str]:
        document = read_input(run / "report.json")
        key = safe_name(run.resolve().name)
        page = f"{SECTION}/runs/{key}.html"
        body = Markup(f'<p class="note">Arena run <code>{esc(run.name)}</code>.</p>')
        for report in document.get("reports", []):
            name = str(report["engine"].get("name", "?"))
            slug = safe_name(report["engine"].get("slug", name))
            logs = {
                p.stem: p
                for folder in sorted((run / "logs").glob(f"*/{'matches'}"))
                for p in sorted(folder.glob("*.jsonl"))
                if _log_slug(p) == report["engine"].get("slug")
            }
            replays = self.replays(page, f"{SECTION}/runs/{key}/{slug}", logs, name)
            body += Markup(f"<h2>{esc(name)}</h2>{report_html(report, replays)}")
        self.build.page(page, f"Arena run {run.name}", body, section=SECTION)
        return run.name, page


def _log_slug(path: Path) -> Any:
    """The policy slug of a log's header line."""
    with path.open(encoding="utf-8") as handle:
        header = json.loads(handle.readline())
    return (header.get("policy") or {}).get("slug")


def add_pages(inputs: Sequence[Path], build: Any) -> list[Path]:
    """Add the arena section from the inputs that are entries folders or arena runs; returns
    those inputs."""
    pages = ArenaPages(build)
    used: list[Path] = []
    for path in inputs:
        path = Path(path)
        if is_entries_dir(path):
            try:
                pages.entries.extend(load_entries(path))
            except EntryError as error:
                raise SiteError(str(error)) from None
            used.append(path)
        elif runs := arena_runs_in(path):
            pages.runs.extend(runs)
            used.append(path)
    if used:
        ids = [e.id for e in pages.entries]
        if len(ids) != len(set(ids)):
            raise SiteError("two entries folders hold entries with the same id")
        pages.add()
    return used
