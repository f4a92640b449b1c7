"""The chess ladder pages of the results site (`arcade-eval site`, `evaluation/site/build.py`).

From ladder run directories (a `manifest.json` naming `chess-ladder`, or a folder of them): the
ratings with their 95% intervals (a table and an interval plot with the rungs for scale), W/D/L
by variant and rung, a page per policy with its games, and a replay of every game whose log the
run holds, drawn by `viewers/chess.js` with the moves in PGN notation and the run's grades
(inaccuracy ?!, mistake ?, blunder ??) and each answer's time. The ratings table shows what the
grading measured (accuracy, best-move and top-3 shares, judgements) and what graded it (the
Stockfish version and node budget the results record). Each game's PGN (grades as
comments, its `Date` the day it started) is a `.pgn` file of the site, linked from its replay page
and its policy's page, and a policy's games are also one `.pgn` file (`pgn/<policy>.pgn`).
Ratings come from the run's `report.json`, written when the run finished; a run cut short shows
its games without a rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym.seeds import load_json
from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
from evaluation.benchmarks.chess_ladder.ladder import LADDER_FILE
from evaluation.benchmarks.chess_ladder.pgn import dated
from evaluation.benchmarks.chess_ladder.report import grading_line
from evaluation.core.money import usd
from evaluation.core.rundir import safe_name
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.inputs import read_input, runs_among
from evaluation.site.plots import interval_plot

SECTION = "chess-ladder"
Z95 = 1.959963984540054
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass
class LadderGamePage:
    """One finished game of a run: its key (policy spec, variant, rung, game) and saved result,
    with its log and PGN files when the run holds them."""

    key: tuple[str, str, str, str]
    saved: dict[str, Any]
    log: Path | None
    pgn: str | None


@dataclass
class LadderRunPages:
    """One run directory: its report's rows (empty for a run cut short), the slug of each
    policy spec, and its games."""

    path: Path
    complete: bool
    scale: str
    models: list[dict[str, Any]]
    slugs: dict[str, str]
    games: list[LadderGamePage] = field(default_factory=list)


def load_run(path: Path) -> LadderRunPages:
    """A run's report rows and its finished games (their results, logs and PGN files)."""
    manifest = read_input(path / "manifest.json")
    identities: dict[str, dict[str, Any]] = manifest.get("policies") or {}
    slugs = {spec: str(ident.get("slug", spec)) for spec, ident in identities.items()}
    report_file = path / "report.json"
    complete = manifest.get("status") == "complete" and report_file.is_file()
    report = read_input(report_file) if complete else {}
    run = LadderRunPages(
        path, complete, str(report.get("scale", "")), list(report.get("models", [])), slugs
    )
    for spec in identities:
        folder = path / "results" / safe_name(spec)
        for result in sorted(folder.glob("*/*/*.json")):
            variant, rung, game = result.parent.parent.name, result.parent.name, result.stem
            saved = read_input(result)
            parts = (safe_name(spec), variant, rung)
            log = path.joinpath("logs", *parts, f"{game}.jsonl")
            pgn = path.joinpath("pgn", *parts, f"{game}.pgn")
            run.games.append(
                LadderGamePage(
                    (spec, variant, rung, game),
                    saved,
                    log if log.is_file() else None,
                    pgn.read_text(encoding="utf-8") if pgn.is_file() else None,
                )
            )
    return run


def rung_rows() -> list[tuple[str, float, float, float]]:
    """The ladder's rungs as interval rows: a weak rung's fitted rating +- 1.96 standard errors,
    a Stockfish rung's pinned rating as a point."""
    rows = []
    for rung in load_json(LADDER_FILE)["rungs"]:
        rating = float(rung["rating"])
        half = Z95 * float(rung.get("stdErr", 0.0))
        rows.append((f"rung {rung['name']}", rating - half, rating, rating + half))
    return sorted(rows, key=lambda r: r[2])


def rung_order() -> list[str]:
    """Rung names from the weakest up."""
    rungs = load_json(LADDER_FILE)["rungs"]
    return [r["name"] for r in sorted(rungs, key=lambda r: float(r["rating"]))]


def wdl(cells: Sequence[int] | None) -> str:
    """`W/D/L` text for a record cell (a dash when no game was played)."""
    return "\u2014" if not cells else "/".join(str(int(v)) for v in cells)


def _totals(record: Mapping[str, Mapping[str, Sequence[int]]]) -> str:
    sums = [sum(int(cells[i]) for by in record.values() for cells in by.values()) for i in range(3)]
    return "/".join(str(v) for v in sums)


def _num(value: Any, fmt: str) -> str:
    return "n/a" if value is None else fmt.format(value)


def _graded_by(model: Mapping[str, Any]) -> str:
    """What graded a model's moves (a report written before it was recorded: not recorded)."""
    graded_by = model.get("gradedBy")
    return grading_line(graded_by) if isinstance(graded_by, dict) else "not recorded"


def _game_accuracy(saved: Mapping[str, Any]) -> str:
    accuracies = [g["accuracy"] for g in saved.get("grades", []) if g.get("accuracy") is not None]
    return "n/a" if not accuracies else f"{sum(accuracies) / len(accuracies):.1f}"


def _judgement_counts(saved: Mapping[str, Any]) -> str:
    grades = saved.get("grades", [])
    return " / ".join(
        str(sum(g.get("judgement") == kind for g in grades))
        for kind in ("inaccuracy", "mistake", "blunder")
    )


def pgn_link(href: str | None, filename: str, text: str) -> Markup:
    """A link to a PGN file of the site (`href` relative to the page), saved as `filename`;
    "-" when there is none."""
    if href is None:
        return Markup("\u2014")
    return Markup(
        f'<a href="{esc(href)}" type="application/x-chess-pgn" download="{esc(filename)}">'
        f"{esc(text)}</a>"
    )


class _Pages:
    """The pages of one site build; names each policy once across runs."""

    def __init__(self, runs: Sequence[LadderRunPages], build: Any) -> None:
        self.runs = runs
        self.build = build
        slugs = [slug for run in runs for slug in run.slugs.values()]
        self.keys: dict[tuple[Path, str], str] = {}
        for run in runs:
            for slug in run.slugs.values():
                name = slug if slugs.count(slug) == 1 else f"{slug}-{run.path.name}"
                self.keys[(run.path, slug)] = safe_name(name)
        self.rungs = rung_order()
        self.pgn_files: dict[str, str] = {}

    def add(self) -> None:
        rated = [m for _, m, _ in self._model_rows() if m["rating"]["rating"] is not None]
        lead = (
            f" Top: {esc(rated[0]['model'])}, rated {rated[0]['rating']['rating']:.0f}."
            if rated
            else ""
        )
        self.build.section(
            SECTION,
            "Chess ladder",
            Markup(
                "<p>Policies against fixed-rating rungs (weak built-ins, Stockfish at limited "
                "strength): ratings with 95% intervals, W/D/L by rung, graded games with a PGN "
                f"viewer.{lead}</p>"
            ),
        )
        for run in self.runs:
            for spec, slug in run.slugs.items():
                self.policy_page(run, spec, slug)
        self.index()

    def _model_rows(self) -> list[tuple[LadderRunPages, dict[str, Any], str]]:
        rows = [
            (run, model, self.keys[(run.path, str(model["model"]))])
            for run in self.runs
            for model in run.models
            if (run.path, str(model["model"])) in self.keys
        ]
        return sorted(
            rows,
            key=lambda r: (
                -(r[1]["rating"]["rating"] if r[1]["rating"]["rating"] is not None else -1e9),
                r[2],
            ),
        )

    def _record_table(self, rows: Sequence[tuple[Markup | None, Mapping[str, Any]]]) -> Markup:
        """W/D/L per (policy, variant) against each rung any of them played; without a policy
        column when the names are None (one policy's page)."""
        played = {rung for _, record in rows for by in record.values() for rung in by}
        rungs = [r for r in self.rungs if r in played]
        named = any(name is not None for name, _ in rows)
        body = []
        for name_html, record in rows:
            for variant, by_rung in record.items():
                cells = [esc(variant)] + [wdl(by_rung.get(r)) for r in rungs]
                body.append([name_html or "", *cells] if named else cells)
        return table(
            (["policy"] if named else []) + ["variant", *rungs],
            body,
            table_id="chess-wdl",
            caption="wins / draws / losses against each rung played",
        )

    def index(self) -> None:
        page = f"{SECTION}/index.html"
        rows = self._model_rows()
        body = []
        leaderboard = []
        for rank, (run, model, key) in enumerate(rows, 1):
            fit = model["rating"]
            grading = model["grading"]
            interval = (
                f"{fit['low95']:.0f} to {fit['high95']:.0f}"
                if fit.get("low95") is not None and fit.get("high95") is not None
                else "n/a"
            )
            judgements = (
                "n/a"
                if not grading.get("moves")
                else " / ".join(
                    f"{grading[k]:.1f}"
                    for k in ("inaccuraciesPer100", "mistakesPer100", "blundersPer100")
                )
            )
            body.append(
                [
                    rank,
                    link(f"policies/{key}.html", model["model"]),
                    _num(fit["rating"], "{:.0f}"),
                    interval,
                    model["games"],
                    _totals(model["record"]),
                    _num(model["illegalRate"], "{:.1%}"),
                    _num(grading.get("accuracy"), "{:.1f}"),
                    _num(grading.get("bestMovePercent"), "{:.1f}%"),
                    _num(grading.get("top3Percent"), "{:.1f}%"),
                    judgements,
                    model["adjudicated"],
                    usd(model.get("cost")),
                    _num(model.get("medianAnswerMs"), "{:.0f} ms"),
                    _graded_by(model),
                ]
            )
            leaderboard.append({"rank": rank, "key": key, "run": run.path.name, **model})
        plot_rows = [
            (
                str(model["model"]),
                float(model["rating"]["low95"]),
                float(model["rating"]["rating"]),
                float(model["rating"]["high95"]),
            )
            for _, model, _ in rows
            if model["rating"]["rating"] is not None
            and model["rating"].get("low95") is not None
            and model["rating"].get("high95") is not None
        ]
        scales = sorted({run.scale for run in self.runs if run.scale})
        incomplete = [run.path.name for run in self.runs if not run.complete]
        html = [
            Markup(
                "<p>Each policy climbs the ladder from the weakest rung, playing standard chess "
                "and Chess960; its rating is the one-player fit against the rungs' fixed ratings "
                "with a 95% profile-likelihood interval. "
                f"{esc(' '.join(f'Scale: {s}.' for s in scales))}</p>"
            ),
            table(
                [
                    "#",
                    "policy",
                    "rating",
                    "95% interval",
                    "games",
                    "W/D/L",
                    "illegal",
                    "accuracy",
                    "best move",
                    "top 3",
                    "inacc. / mist. / blund. per 100 moves",
                    "adjudicated",
                    "cost",
                    "time per answer",
                    "graded by",
                ],
                body,
                table_id="chess-ratings",
                numeric=(0, 2, 4, 7, 8, 9, 11),
            ),
            Markup(f"<p>{link('leaderboard.json', 'leaderboard.json')} holds these rows.</p>"),
            interval_plot(
                plot_rows + rung_rows(),
                title="Ratings with 95% intervals (rungs for scale)",
                x_label="rating (ladder scale)",
            ),
            Markup("<h2>W/D/L by rung</h2>"),
            self._record_table(
                [(link(f"policies/{key}.html", m["model"]), m["record"]) for _, m, key in rows]
            ),
        ]
        if incomplete:
            html.append(
                Markup(
                    "<p>Runs cut short (games shown on the policy pages, no rating): "
                    f"{esc(', '.join(incomplete))}.</p>"
                )
            )
        self.build.json(
            f"{SECTION}/leaderboard.json", {"benchmark": BENCHMARK_ID, "rows": leaderboard}
        )
        self.build.page(
            page, "Chess ladder", join(html, "\n"), section=SECTION, data={"rows": leaderboard}
        )

    def policy_page(self, run: LadderRunPages, spec: str, slug: str) -> None:
        key = self.keys[(run.path, slug)]
        page = f"{SECTION}/policies/{key}.html"
        games = [g for g in run.games if g.key[0] == spec]
        rows = []
        pgns: list[str] = []
        for game in games:
            _, variant, rung, name = game.key
            saved = game.saved
            replay = "\u2014"
            if game.log is not None:
                where = "/".join(safe_name(part) for part in (variant, rung, name))
                target = f"{SECTION}/replays/{key}/{where}.html"
                self.replay_page(target, page, slug, game, key)
                replay = link(self.build.href(page, target), "replay")
            pgn_target = self.pgn_file(key, game)
            if pgn_target is not None:
                pgns.append(self.pgn_files[pgn_target])
            rows.append(
                [
                    esc(variant),
                    esc(rung),
                    esc(saved.get("modelColour", "?")),
                    esc(saved.get("result", "?")),
                    esc(f"{float(saved.get('score', 0)):g}"),
                    esc(saved.get("endReason", "")),
                    saved.get("plies"),
                    saved.get("rejected"),
                    _game_accuracy(saved),
                    _judgement_counts(saved),
                    replay,
                    self.pgn_anchor(page, key, game, "PGN"),
                ]
            )
        model = next((m for m in run.models if m["model"] == slug), None)
        facts: list[tuple[str, object]] = [
            ("policy", esc(slug)),
            ("run", esc(run.path.name) + ("" if run.complete else " (cut short)")),
        ]
        html: list[Markup] = []
        if model is not None:
            fit = model["rating"]
            facts += [
                ("rating", _num(fit["rating"], "{:.0f}")),
                (
                    "95% interval",
                    "n/a"
                    if fit.get("low95") is None
                    else f"{fit['low95']:.0f} to {fit['high95']:.0f}",
                ),
                ("games", model["games"]),
                ("W/D/L", _totals(model["record"])),
                ("accuracy", _num(model["grading"].get("accuracy"), "{:.1f}")),
                ("best move", _num(model["grading"].get("bestMovePercent"), "{:.1f}%")),
                ("top 3", _num(model["grading"].get("top3Percent"), "{:.1f}%")),
                ("graded by", esc(_graded_by(model))),
            ]
            if fit.get("note"):
                facts.append(("note", esc(fit["note"])))
            html += [
                Markup("<h2>W/D/L by rung</h2>"),
                self._record_table([(None, model["record"])]),
            ]
        if pgns:  # every game in one PGN file, a blank line between games
            all_games = self.build.text(f"{SECTION}/pgn/{key}.pgn", "\n".join(pgns))
            facts.append(
                ("PGN", pgn_link(self.build.href(page, all_games), f"{key}.pgn", f"{key}.pgn"))
            )
        html = [
            definition_list(facts),
            *html,
            Markup("<h2>Games</h2>"),
            table(
                [
                    "variant",
                    "rung",
                    "colour",
                    "result",
                    "score",
                    "end",
                    "plies",
                    "rejected",
                    "accuracy",
                    "inacc. / mist. / blund.",
                    "replay",
                    "PGN",
                ],
                rows,
                table_id="chess-games",
            ),
        ]
        self.build.page(page, f"Chess ladder: {slug}", join(html, "\n"), section=SECTION)

    def pgn_file(self, key: str, game: LadderGamePage) -> str | None:
        """The game's PGN as a `.pgn` file of the site (its unknown `Date` set from the result's
        `startedAt` when the result has one); None when the run holds no PGN for it."""
        if game.pgn is None:
            return None
        where = "/".join(safe_name(part) for part in game.key[1:])
        target = f"{SECTION}/pgn/{key}/{where}.pgn"
        if target not in self.pgn_files:
            text = dated(game.pgn, game.saved.get("startedAt"))
            self.build.text(target, text)
            self.pgn_files[target] = text
        return target

    def pgn_anchor(self, page: str, key: str, game: LadderGamePage, text: str) -> Markup:
        """A link from `page` to the game's `.pgn` file (made on first use), or "-"."""
        target = self.pgn_file(key, game)
        href = None if target is None else self.build.href(page, target)
        return pgn_link(href, safe_name("-".join((key, *game.key[1:]))) + ".pgn", text)

    def replay_page(
        self, target: str, page: str, slug: str, game: LadderGamePage, key: str
    ) -> None:
        _, variant, rung, name = game.key
        saved = game.saved
        intro = [
            Markup(
                f"<p>{link(self.build.href(target, page), slug)} as "
                f"{esc(saved.get('modelColour'))} against {esc(rung)} ({esc(variant)}): "
                f"{esc(saved.get('result'))}, {esc(saved.get('endReason'))}. Judgements: ?! "
                "inaccuracy, ? mistake, ?? blunder (winning chances lost: 5, 10, 15 points); "
                "click a move to go there.</p>"
            )
        ]
        if game.pgn is not None:
            download = self.pgn_anchor(target, key, game, "Download the PGN")
            intro.append(Markup(f"<p>{download} (grades as comments).</p>"))
        grades = {
            "grades": saved.get("grades", []),
            "answerMs": [call.get("latencyMs") for call in saved.get("calls", [])],
            "source": "run results",
        }
        self.build.replay(
            target,
            f"{slug} vs {rung}, {variant} {name}",
            game.log,
            "chess",
            section=SECTION,
            intro_html=join(intro),
            data=grades,
        )


def add_pages(inputs: Sequence[Path], build: Any) -> list[Path]:
    """Add the chess ladder section from the inputs that are ladder runs; returns those."""
    used, found = runs_among(inputs, BENCHMARK_ID)
    if found:
        _Pages([load_run(p) for p in found], build).add()
    return used
