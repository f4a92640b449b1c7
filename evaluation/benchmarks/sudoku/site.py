"""The Sudoku pages of the results site (`arcade-eval site`, `evaluation/site/build.py`).

From Sudoku run directories (a `manifest.json` naming the `sudoku` benchmark, or a folder of
them): a leaderboard (score with its 95% interval, grids solved per tier, cell accuracy by the
tier each cell needs and by technique, Brier with the count of answers that gave no confidence,
and the calibration of reported confidence), a page per policy with each grid's grade, and a
replay of every grid whose log the run holds (drawn by `viewers/sudoku.js`). The accuracy by
tier needed is the reports' own (`scoring.cell_tiers`, computed once for reports and replays).
The figures are the run's `report.json`; a run cut short is scored from the results it holds and
marked incomplete.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arcade_gym.sudoku.rules import TECHNIQUES, TIER_NAMES
from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
from evaluation.benchmarks.sudoku.report import policy_report
from evaluation.benchmarks.sudoku.scoring import tiers_label
from evaluation.core.money import usd
from evaluation.core.rundir import safe_name
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.inputs import read_input, runs_among
from evaluation.site.plots import calibration_bins, calibration_plot, interval_plot

SECTION = "sudoku"


@dataclass(frozen=True)
class SudokuRunPages:
    """One run directory as the pages need it: its set, its policies' reports, and for each
    policy slug the spec it was run under (the folder of its logs)."""

    path: Path
    set_version: str
    complete: bool
    reports: list[dict[str, Any]]
    specs: dict[str, str]


def load_run(path: Path) -> SudokuRunPages:
    """A run's reports: `report.json` when the run finished, else rebuilt from its results."""
    manifest = read_input(path / "manifest.json")
    identities: dict[str, dict[str, Any]] = manifest.get("policies") or {}
    specs = {str(ident.get("slug", spec)): spec for spec, ident in identities.items()}
    report_file = path / "report.json"
    if manifest.get("status") == "complete" and report_file.is_file():
        document = read_input(report_file)
        return SudokuRunPages(path, str(document["set"]), True, document["policies"], specs)
    reports = []
    for spec, identity in identities.items():
        folder = path / "results" / safe_name(spec)
        results = [read_input(p) for p in sorted(folder.glob("*.json"))]
        if results:
            reports.append(policy_report(identity, results))
    set_version = str((manifest.get("settings") or {}).get("set", "?"))
    return SudokuRunPages(path, set_version, False, reports, specs)


def calibration_points(grids: Sequence[Mapping[str, Any]]) -> list[tuple[float, float, int]]:
    """Reported confidences binned in tenths: (mean confidence as a probability, share solved,
    answers) per non-empty bin; answers without a confidence are left out."""
    return calibration_bins(
        (float(grid["confidence"]) / 100, grid.get("outcome") == "solved")
        for grid in grids
        if grid.get("confidence") is not None
    )


def _by_need(report: Mapping[str, Any]) -> dict[str, dict[str, int]] | None:
    """A report's accuracy by tier needed (None: a report written before it was recorded)."""
    by = report.get("accuracyByNeededTier")
    return by if isinstance(by, dict) and by else None


def _need_table(rows: Sequence[tuple[Markup, Mapping[str, Any] | None]]) -> Markup:
    tiers = sorted({int(t) for _, by in rows if by for t in by})
    body = [
        [name_html]
        + [
            _percent(by[str(t)]["right"], by[str(t)]["cells"]) if by and str(t) in by else "\u2014"
            for t in tiers
        ]
        for name_html, by in rows
    ]
    headers = [Markup(f'<span title="{esc(TIER_NAMES[t])}">tier {t}</span>') for t in tiers]
    return table(["policy", *headers], body, table_id="sudoku-need-accuracy")


def _tiers_cell(report: Mapping[str, Any]) -> Markup:
    return join(
        (
            Markup(
                f'<span title="tier {esc(t)}: {esc(TIER_NAMES.get(int(t), ""))}">'
                f"{esc(v['solved'])}/{esc(v['grids'])}</span>"
            )
            for t, v in report["tiers"].items()
        ),
        " ",
    )


def _percent(right: int, cells: int) -> str:
    return "\u2014" if not cells else f"{right}/{cells} ({100 * right / cells:.1f}%)"


def _techniques(reports: Sequence[Mapping[str, Any]]) -> list[str]:
    seen = {k for r in reports for k in r["accuracyByTechnique"]}
    return [name for name, _ in TECHNIQUES if name in seen]


def _accuracy_table(rows: Sequence[tuple[Markup, Mapping[str, Any]]]) -> Markup:
    techniques = _techniques([r for _, r in rows])
    body = []
    for name_html, report in rows:
        by = report["accuracyByTechnique"]
        body.append(
            [name_html]
            + [
                _percent(by[t]["right"], by[t]["cells"]) if t in by else "\u2014"
                for t in techniques
            ]
        )
    return table(["policy", *techniques], body, table_id="sudoku-technique-accuracy")


class _Pages:
    """The pages of one site build: names each policy once across runs."""

    def __init__(self, runs: Sequence[SudokuRunPages], build: Any) -> None:
        self.runs = runs
        self.build = build
        slugs = [r["policy"] for run in runs for r in run.reports]
        self.keys: dict[tuple[Path, str], str] = {}
        for run in runs:
            for report in run.reports:
                slug = report["policy"]
                unique = slugs.count(slug) == 1
                self.keys[(run.path, slug)] = safe_name(
                    slug if unique else f"{slug}-{run.path.name}"
                )

    def rows(self) -> list[tuple[SudokuRunPages, dict[str, Any], str]]:
        """(run, report, page key), best score first."""
        rows = [
            (run, r, self.keys[(run.path, r["policy"])]) for run in self.runs for r in run.reports
        ]
        return sorted(rows, key=lambda row: (-row[1]["score"], row[2]))

    def add(self) -> None:
        rows = self.rows()
        best = rows[0][1] if rows else None
        lead = (
            f" Best: {esc(best['policy'])}, {best['score']:.1f} "
            f"({best['ci95'][0]:.1f}\u2013{best['ci95'][1]:.1f})."
            if best is not None
            else ""
        )
        self.build.section(
            SECTION,
            "Sudoku",
            Markup(
                "<p>Seven tiers of unique grids, answered whole with a confidence: score with "
                f"its 95% interval, tiers solved, cell accuracy by technique, Brier.{lead}</p>"
            ),
        )
        for run, report, key in rows:
            self.policy_page(run, report, key)
        self.index(rows)

    def index(self, rows: Sequence[tuple[SudokuRunPages, dict[str, Any], str]]) -> None:
        page = f"{SECTION}/index.html"
        body = []
        leaderboard = []
        for rank, (run, report, key) in enumerate(rows, 1):
            low, high = report["ci95"]
            name = link(f"policies/{key}.html", report["policy"])
            if not run.complete:
                name += Markup(' <span class="note">(incomplete run)</span>')
            body.append(
                [
                    rank,
                    name,
                    f"{report['score']:.1f}",
                    f"{low:.1f}\u2013{high:.1f}",
                    _tiers_cell(report),
                    _percent(report["cellsRight"], report["blankCells"]),
                    report["brokeRules"],
                    "n/a" if report["brier"] is None else f"{report['brier']:.3f}",
                    report.get("missingConfidence", "n/a"),
                    report["sureButWrong"],
                ]
            )
            leaderboard.append(
                {
                    "rank": rank,
                    "key": key,
                    "run": run.path.name,
                    "set": run.set_version,
                    "complete": run.complete,
                    **{k: v for k, v in report.items() if k != "grids"},
                    "accuracyByNeededTier": report.get("accuracyByNeededTier"),
                }
            )
        sets = sorted({run.set_version for run in self.runs})
        calibrations = "".join(
            _calibration(report, 320)
            for _, report, _ in rows
            if calibration_points(report["grids"])
        )
        html = [
            Markup(
                f"<p>Set {esc(', '.join(sets))}: 6 grids in each of 7 tiers (the hardest "
                "technique the reference grader needs), each answered once as a whole grid with a "
                "confidence (one retry for a reply with no readable grid). The score is the mean "
                "over tiers of the share of grids solved (0 to 100, every tier weighs the same); "
                "its 95% interval adds up each tier's Agresti-Coull variance. Brier scores the "
                "reported confidence against solved (lower is better; an answer without a "
                "confidence counts as 50, and their number is shown); sure but wrong counts "
                "unsolved grids answered with confidence 90 or more.</p>"
            ),
            table(
                [
                    "#",
                    "policy",
                    "score",
                    "95% interval",
                    f"solved by tier ({tiers_label([r for _, r, _ in rows])})",
                    "cells right",
                    "broke rules",
                    "Brier",
                    "no confidence",
                    "sure but wrong",
                ],
                body,
                table_id="sudoku-leaderboard",
                numeric=(0, 2, 3, 6, 7, 8, 9),
            ),
            Markup(f"<p>{link('leaderboard.json', 'leaderboard.json')} holds these rows.</p>"),
            interval_plot(
                [(report["policy"], *_interval(report)) for _, report, _ in rows],
                title="Score with its 95% interval",
                x_label="score (mean solve rate over tiers, %)",
            ),
            Markup("<h2>Cell accuracy by technique</h2>"),
            Markup(
                "<p>Blank cells filled with the right digit, grouped by the technique that "
                "placed the cell on the reference grader's path.</p>"
            ),
            _accuracy_table(
                [
                    (link(f"policies/{key}.html", report["policy"]), report)
                    for _, report, key in rows
                ]
            ),
            Markup("<h2>Cell accuracy by the tier each cell needs</h2>"),
            Markup(
                "<p>The same cells grouped by the hardest technique on the grader's path up to "
                "the step that placed them (a single found only after an X-Wing needs tier 4).</p>"
            ),
            _need_table(
                [
                    (link(f"policies/{key}.html", report["policy"]), _by_need(report))
                    for _, report, key in rows
                ]
            ),
            Markup("<h2>Calibration of reported confidence</h2>"),
            Markup(
                "<p>Confidences binned in tenths: the share of grids solved against the mean "
                "confidence of the bin (dot area: answers).</p>"
                f'<div class="plots" style="display: flex; flex-wrap: wrap; gap: 1rem">'
                f"{calibrations}</div>"
                if calibrations
                else "<p>No policy reported a confidence.</p>"
            ),
        ]
        self.build.json(f"{SECTION}/leaderboard.json", {"benchmark": "sudoku", "rows": leaderboard})
        self.build.page(
            page,
            "Sudoku leaderboard",
            join(html, "\n"),
            section=SECTION,
            data={"rows": leaderboard},
        )

    def policy_page(self, run: SudokuRunPages, report: Mapping[str, Any], key: str) -> None:
        spec = run.specs.get(report["policy"], report["policy"])
        folder = run.path / "logs" / safe_name(spec)
        logs = [folder / f"{safe_name(grid['gridId'])}.jsonl" for grid in report["grids"]]
        page = f"{SECTION}/policies/{key}.html"
        rows = []
        for grid, log in zip(report["grids"], logs, strict=True):
            replay = "\u2014"
            if log.is_file():
                target = f"{SECTION}/replays/{key}/{safe_name(grid['gridId'])}.html"
                self.build.replay(
                    target,
                    f"Sudoku {grid['gridId']}: {report['policy']}",
                    log,
                    "sudoku",
                    section=SECTION,
                    intro_html=Markup(
                        f"<p>{link(self.build.href(target, page), report['policy'])}, grid "
                        f"{esc(grid['gridId'])} (tier {esc(grid['tier'])}, "
                        f"{esc(TIER_NAMES.get(int(grid['tier']), ''))}): outcome "
                        f"{esc(grid['outcome'])}. Cells are coloured by the tier of technique "
                        "they need; click one for its details.</p>"
                    ),
                )
                replay = link(self.build.href(page, target), "replay")
            rows.append(
                [
                    esc(grid["gridId"]),
                    grid["tier"],
                    esc(grid["outcome"]),
                    _percent(grid["cellsRight"], grid["blanks"]),
                    grid["confidence"],
                    grid["brokeRules"],
                    replay,
                ]
            )
        identity = report.get("identity") or {}
        usage = report.get("usage") or {}
        low, high = report["ci95"]
        facts = definition_list(
            [
                ("policy", esc(identity.get("name", report["policy"]))),
                ("kind", esc(identity.get("kind", "?"))),
                ("description", esc(identity.get("description", ""))),
                ("run", esc(run.path.name) + ("" if run.complete else " (incomplete)")),
                ("score", f"{report['score']:.1f} (95% interval {low:.1f}\u2013{high:.1f})"),
                ("solved by tier", _tiers_cell(report)),
                ("cells right", _percent(report["cellsRight"], report["blankCells"])),
                ("Brier", "n/a" if report["brier"] is None else f"{report['brier']:.3f}"),
                ("answers without a confidence", report.get("missingConfidence", "n/a")),
                ("calls", usage.get("calls")),
                ("cost", usd(usage.get("costUsd"))),
                ("median s per answer", usage.get("medianSecondsPerAnswer")),
            ]
        )
        html = [
            facts,
            Markup("<h2>Grids</h2>"),
            table(
                ["grid", "tier", "outcome", "cells right", "confidence", "broke rules", "replay"],
                rows,
                table_id="sudoku-grids",
            ),
            Markup("<h2>Cell accuracy by technique</h2>"),
            _accuracy_table([(esc(report["policy"]), report)]),
        ]
        if _by_need(report) is not None:
            html += [
                Markup("<h2>Cell accuracy by the tier each cell needs</h2>"),
                _need_table([(esc(report["policy"]), _by_need(report))]),
            ]
        if calibration_points(report["grids"]):
            html += [Markup("<h2>Calibration</h2>"), _calibration(report, 360)]
        self.build.page(
            page,
            f"Sudoku: {report['policy']}",
            join(html, "\n"),
            section=SECTION,
            data={k: v for k, v in report.items() if k != "identity"},
        )


def _calibration(report: Mapping[str, Any], width: int) -> Markup:
    """The policy's calibration plot, drawn no wider than `width` pixels."""
    plot = calibration_plot(
        calibration_points(report["grids"]),
        title=f"{report['policy']}: confidence against solved",
        x_label="reported confidence",
        y_label="share solved",
        width=width,
    )
    return Markup(f'<figure class="plot-small" style="max-width: {width}px">{plot}</figure>')


def _interval(report: Mapping[str, Any]) -> tuple[float, float, float]:
    low, high = report["ci95"]
    return float(low), float(report["score"]), float(high)


def add_pages(inputs: Sequence[Path], build: Any) -> list[Path]:
    """Add the Sudoku section from the inputs that are Sudoku runs; returns those inputs."""
    used, found = runs_among(inputs, BENCHMARK_ID)
    if found:
        _Pages([load_run(p) for p in found], build).add()
    return used
