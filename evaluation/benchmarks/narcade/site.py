"""The NARCADE pages of the results site (`arcade-eval site`, `evaluation/site/build.py`).

Inputs it claims: a NARCADE publication (`publish.py`, a JSON file), a NARCADE run directory (a
`manifest.json` naming the benchmark), or a folder holding them (the shipped
`docs/results/narcade/`). Pages:

- `narcade/index.html`: each publication's mean raw scores per policy and game (the table the
  benchmark publishes), its settings per game, per-seed scores, the error counts and a paired
  comparison when it holds one; each run's closing table (`report.py`: an unfinished result file's
  mean is marked `*`), the same details unless a publication on the page was made from it, and
  its replays, with every log the builder refused listed as refused (and said on stderr);
- `narcade/policies/<policy>.html`: per game the score of every episode as a strip plot, then the
  episodes (end, errors, latency, tokens and cost where the run recorded them, the replay);
  a published run's episodes appear once, under its publication;
- `narcade/replays/<run>/<policy>/<game>/<seed>.html`: every log of a run that verifies,
  re-simulated into frames (`site_frames.py`) drawn by the `snake`, `minesweeper` or `tetris`
  viewer.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.protocol import BENCHMARK_ID, GAMES, READABLE_RESULT_FORMATS
from evaluation.benchmarks.narcade.publish import PUBLICATION_FORMAT
from evaluation.benchmarks.narcade.results import read_json, result_path
from evaluation.core.eventlog import read_log
from evaluation.core.rundir import safe_name
from evaluation.core.verify import log_files
from evaluation.site.build import SiteBuild, SiteError, relative
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.inputs import run_dirs
from evaluation.site.plots import strip_plot

SECTION = "narcade"
TABLE_GAMES = ("tetris", "snake", "minesweeper")
"""Column order of the published table."""
SCORE_NAMES = {
    "tetris": "Tetris points",
    "snake": "Snake food",
    "minesweeper": "Minesweeper safe squares",
}
INCOMPLETE_NOTE = "* incomplete: the model failed or was stopped; not comparable"
"""The closing table's footnote (`report.py`), for the same mark."""


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


@dataclass
class Source:
    """One publication or run as the pages show it: per (model, game) the entry, i.e. the
    model's identity, the status and the episodes (seed, score, end, errors, latency, usage)."""

    key: str
    label: str
    kind: str  # "publication" | "run"
    path: Path
    data: dict[str, Any]
    entries: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)


def _json_object(path: Path) -> dict[str, Any] | None:
    try:
        data = read_json(path)
    except (OSError, ValueError, UnicodeError):
        return None
    return data if isinstance(data, dict) else None


def is_publication(path: Path) -> bool:
    """A JSON file holding a NARCADE publication."""
    if not (path.is_file() and path.suffix == ".json"):
        return False
    data = _json_object(path)
    return data is not None and data.get("format") == PUBLICATION_FORMAT


def sources_in(path: Path) -> tuple[list[Path], list[Path]]:
    """(publications, runs) an input holds: itself, or the folder's own files and sub-folders
    (runs mixed with publications and other folders)."""
    if is_publication(path):
        return [path], []
    runs = run_dirs(path, BENCHMARK_ID, mixed=True)
    if runs == [path] or not path.is_dir():
        return [], runs
    children = sorted(p for p in path.iterdir() if not p.name.startswith("."))
    return [p for p in children if is_publication(p)], runs


def _unique(key: str, taken: set[str]) -> str:
    key = safe_name(key)
    out, n = key, 2
    while out in taken:
        out, n = f"{key}-{n}", n + 1
    taken.add(out)
    return out


def load_publication(path: Path, key: str) -> Source:
    """A publication's entries, keyed by (model, game)."""
    data = read_json(path)
    source = Source(key, str(data.get("label") or path.stem), "publication", path, data)
    for game, block in data.get("games", {}).items():
        source.games.append(str(game))
        for entry in block.get("entries", []):
            model = str(entry["model"])
            if model not in source.models:
                source.models.append(model)
            source.entries[(model, str(game))] = {**entry, "status": "complete"}
    return source


def load_run(path: Path, key: str) -> Source:
    """A run's result files (both formats), keyed by (model, game), in manifest order."""
    manifest = read_json(path / "manifest.json")
    settings = manifest.get("settings") or {}
    source = Source(key, path.name, "run", path, manifest)
    source.games = [str(g) for g in settings.get("games") or GAMES]
    source.models = [str(m) for m in (manifest.get("models") or settings.get("models") or [])]
    for model in source.models:
        for game in source.games:
            data = _result_file(path, model, game)
            if data is None:
                continue
            identity = data.get("model") or {}
            source.entries[(model, game)] = {
                "model": model,
                "name": identity.get("name"),
                "kind": identity.get("kind"),
                "revision": identity.get("revision"),
                "hardware": data.get("hardware"),
                "protocol": (data.get("versions") or {}).get("protocol"),
                "status": data.get("status"),
                "error": data.get("error"),
                "meanScore": (data.get("summary") or {}).get("meanScore"),
                "summary": data.get("summary") or {},
                "episodes": list(data.get("episodes") or []),
            }
    return source


def _result_file(run: Path, model: str, game: str) -> dict[str, Any] | None:
    for path in (result_path(run, model, game), run / f"{safe_name(model)}-{game}.json"):
        data = _json_object(path) if path.is_file() else None
        if data is not None and data.get("format") in READABLE_RESULT_FORMATS:
            return data
    return None


# --------------------------------------------------------------------------------------------
# Replays
# --------------------------------------------------------------------------------------------


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
    for run in runs:
        out.refused.setdefault(run.key, [])
        folder = run.path / "logs"
        for log in log_files([folder]) if folder.is_dir() else []:
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
            episode = _episode(run, model, game, seed)
            out.scores[key] = episode.get("score") if episode else _final_score(log)
    return out


def _episode(run: Source, model: str, game: str, seed: int) -> dict[str, Any] | None:
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
    episode = _episode(run, model, game, seed) or {}
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


# --------------------------------------------------------------------------------------------
# Index
# --------------------------------------------------------------------------------------------


def _mean_cell(entry: Mapping[str, Any] | None) -> str:
    """The closing table's cell: the mean, `*` when the result is not complete, `-` without."""
    if entry is None or entry.get("meanScore") is None:
        return "-"
    text = _number(entry["meanScore"])
    return text + ("*" if entry.get("status") != "complete" else "")


def _number(value: Any) -> str:
    if value is None:
        return "\u2014"
    number = float(value)
    if number == int(number):
        return f"{int(number):,}"
    return f"{number:,.2f}"


def _policy_link(page: str, model: str, name: Any = None) -> Markup:
    target = f"{SECTION}/policies/{safe_name(model)}.html"
    return link(relative(page, target), name or model, title=model)


def _names(sources: Iterable[Source]) -> dict[str, str]:
    names: dict[str, str] = {}
    for source in sources:
        for (model, _), entry in source.entries.items():
            names.setdefault(model, str(entry.get("name") or model))
    return names


def mean_table(source: Source, page: str, names: Mapping[str, str]) -> tuple[Markup, bool]:
    """The published table: one row per policy, the mean raw score per game. Returns the HTML
    and whether a cell is marked incomplete."""
    games = [g for g in TABLE_GAMES if g in source.games] + [
        g for g in source.games if g not in TABLE_GAMES
    ]
    rows, marked = [], False
    for model in source.models:
        cells: list[object] = [_policy_link(page, model, names.get(model))]
        for game in games:
            text = _mean_cell(source.entries.get((model, game)))
            marked = marked or text.endswith("*")
            cells.append(
                Markup(
                    f'<span data-model="{esc(model)}" data-game="{esc(game)}">{esc(text)}</span>'
                )
            )
        rows.append(cells)
    headers = ["Policy", *(SCORE_NAMES.get(g, g) for g in games)]
    html = table(headers, rows, numeric=range(1, len(games) + 1), table_id=f"means-{source.key}")
    return html, marked


def _errors_sentence(source: Source) -> str:
    episodes = [e for entry in source.entries.values() for e in entry["episodes"]]
    counts = {
        "invalid actions": sum(int(e.get("invalidActions") or 0) for e in episodes),
        "timeouts": sum(int(e.get("timeouts") or 0) for e in episodes),
        "policy errors": sum(int(e.get("policyErrors") or 0) for e in episodes),
    }
    if not any(counts.values()):
        return (
            f"All {len(episodes)} episodes completed with zero invalid actions, timeouts or "
            "policy errors."
        )
    listed = ", ".join(f"{n} {what}" for what, n in counts.items())
    return f"{len(episodes)} episodes: {listed} in total."


def _settings_table(source: Source) -> Markup:
    rows = []
    for game in source.games:
        if source.kind == "publication":
            block = source.data["games"][game]
            protocol, seeds = block.get("protocol"), block.get("seeds") or []
            settings = block
        else:
            settings = {**(source.data.get("settings") or {})}
            settings["mode"] = (settings.get("gameModes") or {}).get(game, settings.get("mode"))
            protocol = (source.data.get("versions") or {}).get("protocol")
            seeds = settings.get("seeds") or []
        rows.append(
            [
                esc(game),
                esc(protocol),
                esc(settings.get("mode")),
                esc(settings.get("difficulty")),
                settings.get("maxDecisions"),
                settings.get("maxPieces") if game == "tetris" else None,
                settings.get("maxSeconds") if game == "tetris" else None,
                esc(", ".join(str(s) for s in seeds)),
            ]
        )
    headers = [
        "Game",
        "Observation protocol",
        "Mode",
        "Difficulty",
        "Max decisions",
        "Max pieces",
        "Max seconds",
        "Seeds",
    ]
    return table(headers, rows)


def _end_reasons(episodes: Sequence[Mapping[str, Any]]) -> Markup:
    counts: dict[str, int] = {}
    for episode in episodes:
        reason = str(episode.get("endReason"))
        counts[reason] = counts.get(reason, 0) + 1
    return esc(", ".join(f"{r} \u00d7{n}" if n > 1 else r for r, n in counts.items()))


def game_table(
    source: Source, game: str, page: str, names: Mapping[str, str], replays: Replays
) -> Markup:
    """Per policy on one game: revision, hardware, mean, each seed's score (linked to its replay
    when one is in the site), how the episodes ended and the error counts."""
    seeds: list[int] = []
    for model in source.models:
        entry = source.entries.get((model, game))
        for episode in entry["episodes"] if entry else []:
            if int(episode["seed"]) not in seeds:
                seeds.append(int(episode["seed"]))
    seeds.sort()
    rows = []
    for model in source.models:
        entry = source.entries.get((model, game))
        if entry is None:
            continue
        by_seed = {int(e["seed"]): e for e in entry["episodes"]}
        cells: list[object] = [
            _policy_link(page, model, names.get(model)),
            esc(entry.get("revision") or "\u2014"),
            _mean_cell(entry),
        ]
        for seed in seeds:
            episode = by_seed.get(seed)
            if episode is None:
                cells.append(None)
                continue
            replay = replays.find(model, game, seed, episode.get("score"))
            text = esc(_number(episode.get("score")))
            cells.append(
                link(relative(page, replay), _number(episode.get("score"))) if replay else text
            )
        episodes = entry["episodes"]
        cells += [
            _end_reasons(episodes),
            sum(int(e.get("invalidActions") or 0) for e in episodes),
            sum(int(e.get("timeouts") or 0) for e in episodes),
            sum(int(e.get("policyErrors") or 0) for e in episodes),
        ]
        if game == "minesweeper":
            cells.append(sum(1 for e in episodes if e.get("solveTimeMs") is not None))
        rows.append(cells)
    headers = [
        "Policy",
        "Revision",
        "Mean",
        *(f"Seed {s}" for s in seeds),
        "End",
        "Invalid",
        "Timeouts",
        "Errors",
    ]
    if game == "minesweeper":
        headers.append("Solved")
    numeric = range(2, 3 + len(seeds))
    return table(headers, rows, numeric=numeric, table_id=f"game-{source.key}-{game}")


def comparison_html(comparison: Mapping[str, Any]) -> Markup:
    """A publication's paired comparison with an earlier one."""
    rows = []
    for game, block in comparison.get("games", {}).items():
        for model, row in block.get("models", {}).items():
            pct = row.get("percentChange")
            pairs = ", ".join(f"{p['seed']}: {p['difference']:+g}" for p in row.get("pairs", []))
            rows.append(
                [
                    esc(game),
                    esc(model),
                    row.get("oldMean"),
                    row.get("newMean"),
                    esc(f"{row.get('meanChange', 0):+.2f}"),
                    esc("\u2014" if pct is None else f"{pct:+.1f}%"),
                    esc(pairs),
                ]
            )
    notes = "".join(f"<li>{esc(n)}</li>" for n in comparison.get("notes") or [])
    only = [*(comparison.get("onlyNew") or []), *(comparison.get("onlyOld") or [])]
    changes = table(
        ["Game", "Policy", "Old mean", "New mean", "Change", "%", "Paired differences"], rows
    )
    return Markup(
        f"<h3>Compared with {esc(comparison.get('against'))}</h3>{changes}"
        + (f"<ul>{notes}</ul>" if notes else "")
        + (f"<p>Only in one of the two: {esc(', '.join(map(str, only)))}</p>" if only else "")
    )


def _scores(entry: Mapping[str, Any]) -> list[tuple[int, Any]]:
    return sorted((int(e["seed"]), e.get("score")) for e in entry["episodes"])


def published_in(run: Source, publications: Sequence[Source]) -> Source | None:
    """The publication made from this run: it holds every (model, game) of the run, complete,
    with the same score on every seed (None when there is none)."""
    if not run.entries or any(e.get("status") != "complete" for e in run.entries.values()):
        return None
    for publication in publications:
        held = publication.entries
        if all(
            key in held and _scores(held[key]) == _scores(entry)
            for key, entry in run.entries.items()
        ):
            return publication
    return None


def _source_html(
    source: Source,
    page: str,
    names: Mapping[str, str],
    replays: Replays,
    download: str,
    covered_by: Source | None = None,
) -> Markup:
    """One publication's or run's part of the index; a run already published shows only its
    closing table and replays (the publication above holds the rest)."""
    means, marked = mean_table(source, page, names)
    what = "Publication" if source.kind == "publication" else "Run"
    rules = (source.data.get("versions") or {}).get("rules")
    seeds = sorted({int(e["seed"]) for x in source.entries.values() for e in x["episodes"]})
    hardware = sorted({str(e["hardware"]) for e in source.entries.values() if e.get("hardware")})
    parts = [
        Markup(f'<section class="narcade-source" id="{esc(source.kind)}-{esc(source.key)}">'),
        Markup(f"<h2>{what}: {esc(source.label)}</h2>"),
        Markup(
            f"<p>Mean raw scores over {len(seeds)} seed{'s' if len(seeds) != 1 else ''} "
            f"(rules {esc(rules)}). {esc(_errors_sentence(source))} "
            f"{link(relative(page, download), 'Download the JSON')}.</p>"
        ),
        means,
        Markup(f"<p>Hardware: {esc('; '.join(hardware) or 'not recorded')}.</p>"),
    ]
    if marked:
        parts.append(Markup(f'<p class="note">{esc(INCOMPLETE_NOTE)}</p>'))
    if source.kind == "run" and source.data.get("status") != "complete":
        missing = source.data.get("missing") or []
        parts.append(
            Markup(
                f'<p class="note">The run is {esc(source.data.get("status"))}'
                + (f"; missing: {esc(', '.join(map(str, missing)))}" if missing else "")
                + ".</p>"
            )
        )
    if covered_by is not None:
        parts += [
            Markup(
                f"<p>The publication {link('#publication-' + covered_by.key, covered_by.label)} "
                "was made from this run's result files: its tables above are this run's.</p>"
            ),
            _replay_list(source, page, replays),
            Markup("</section>"),
        ]
        return join(parts)
    parts += [Markup("<h3>Settings</h3>"), _settings_table(source)]
    for game in [g for g in TABLE_GAMES if g in source.games]:
        parts += [
            Markup(f"<h3>{esc(SCORE_NAMES[game])}</h3>"),
            game_table(source, game, page, names, replays),
        ]
    comparison = source.data.get("comparison") if source.kind == "publication" else None
    if comparison:
        parts.append(comparison_html(comparison))
    if source.kind == "run":
        parts.append(_replay_list(source, page, replays))
    parts.append(Markup("</section>"))
    return join(parts)


def _replay_list(run: Source, page: str, replays: Replays) -> Markup:
    """The run's replays as one row per policy and game (a link per seed), then the refused."""
    cells: dict[tuple[str, str], list[Markup]] = {}
    for (key, model, game, seed), path in sorted(replays.pages.items()):
        if key == run.key:
            cells.setdefault((model, game), []).append(link(relative(page, path), f"seed {seed}"))
    rows = [[esc(model), esc(game), join(links, " ")] for (model, game), links in cells.items()]
    listing = (
        table(["Policy", "Game", "Replays"], rows, table_id=f"replays-{run.key}")
        if rows
        else Markup("<p>No log of this run verifies, so there is nothing to replay.</p>")
    )
    out = Markup(f"<h3>Replays</h3>{listing}")
    refused = replays.refused.get(run.key) or []
    if refused:
        rows = [[Markup(f"<code>{esc(log)}</code>"), esc(why)] for log, why in refused]
        out += Markup(
            "<h3>Refused logs</h3><p>These logs do not verify, so they are not replayed.</p>"
        )
        out += table(["Log", "Why"], rows, table_id=f"refused-{run.key}")
    return out


# --------------------------------------------------------------------------------------------
# Policy pages
# --------------------------------------------------------------------------------------------


def _latency(episode: Mapping[str, Any]) -> Markup:
    latency = episode.get("latencyMs") or {}
    if not isinstance(latency, Mapping) or latency.get("p50") is None:
        return Markup("\u2014")
    return esc(f"{latency['p50']:g} / {latency.get('p95'):g}")


def _richest(
    source: Source, model: str, game: str, runs_of: Mapping[str, Source]
) -> dict[str, Any]:
    entry = source.entries[(model, game)]
    run = runs_of.get(source.key)
    if run is None or (model, game) not in run.entries:
        return entry
    return {**entry, "episodes": run.entries[(model, game)]["episodes"]}


def policy_page(
    build: SiteBuild,
    model: str,
    name: str,
    sources: Sequence[Source],
    replays: Replays,
    runs_of: Mapping[str, Source] | None = None,
) -> str:
    """The page of one policy: per game a strip plot of its scores and its episodes. A
    publication made from a run in `runs_of` shows that run's episodes (the same seeds and
    scores, plus the tokens and cost a publication leaves out)."""
    page = f"{SECTION}/policies/{safe_name(model)}.html"
    parts = [Markup(f"<p>Policy <code>{esc(model)}</code>.</p>")]
    data: dict[str, Any] = {"model": model, "games": {}}
    identity = next((s.entries[k] for s in sources for k in s.entries if k[0] == model), {})
    parts.append(
        definition_list(
            [
                ("Name", esc(name)),
                ("Kind", esc(identity.get("kind") or "\u2014")),
                ("Revision", esc(identity.get("revision") or "\u2014")),
            ]
        )
    )
    for game in TABLE_GAMES:
        held = [
            (s, _richest(s, model, game, runs_of or {}))
            for s in sources
            if (model, game) in s.entries
        ]
        if not held:
            continue
        groups = {
            f"{s.label}{'' if e.get('status') == 'complete' else ' *'}": [
                float(x["score"]) for x in e["episodes"]
            ]
            for s, e in held
        }
        labels = {
            f"{s.label}{'' if e.get('status') == 'complete' else ' *'}": [
                f"seed {x['seed']}" for x in e["episodes"]
            ]
            for s, e in held
        }
        usage = any(
            x.get(k) is not None
            for _, e in held
            for x in e["episodes"]
            for k in ("promptTokens", "completionTokens", "costUsd")
        )
        rows = []
        for source, entry in held:
            for episode in entry["episodes"]:
                seed = int(episode["seed"])
                replay = replays.find(model, game, seed, episode.get("score"))
                row: list[object] = [
                    esc(source.label),
                    seed,
                    episode.get("score"),
                    esc(episode.get("endReason")),
                    episode.get("decisions"),
                    episode.get("invalidActions"),
                    episode.get("timeouts"),
                    episode.get("policyErrors"),
                    _latency(episode),
                ]
                if usage:
                    row += [
                        episode.get("promptTokens"),
                        episode.get("completionTokens"),
                        None
                        if episode.get("costUsd") is None
                        else esc(f"${episode['costUsd']:.4f}"),
                    ]
                row.append(link(relative(page, replay), "replay") if replay else "\u2014")
                rows.append(row)
        headers = [
            "Source",
            "Seed",
            "Score",
            "End",
            "Decisions",
            "Invalid",
            "Timeouts",
            "Errors",
            "Latency p50 / p95 ms",
        ]
        if usage:
            headers += ["Tokens in", "Tokens out", "Cost"]
        headers.append("Replay")
        parts += [
            Markup(f"<h2>{esc(SCORE_NAMES[game])}</h2>"),
            strip_plot(
                groups,
                title=f"{name}: {SCORE_NAMES[game]} per episode",
                x_label=SCORE_NAMES[game].split(" ", 1)[1],
                point_labels=labels,
            ),
            table(headers, rows, table_id=f"episodes-{game}"),
        ]
        if any(e.get("status") != "complete" for _, e in held):
            parts.append(Markup(f'<p class="note">{esc(INCOMPLETE_NOTE)}</p>'))
        data["games"][game] = [
            {"source": s.label, "status": e.get("status"), "episodes": e["episodes"]}
            for s, e in held
        ]
    return build.page(page, f"NARCADE: {name}", join(parts), section=SECTION, data=data)


# --------------------------------------------------------------------------------------------
# The hook
# --------------------------------------------------------------------------------------------


def section_summary(sources: Sequence[Source]) -> Markup:
    """The home-page card: what the first publication (else run) shows, and its best means."""
    main = sorted(sources, key=lambda s: s.kind != "publication")[0]
    best = []
    for game in [g for g in TABLE_GAMES if g in main.games]:
        held = [(e.get("meanScore"), m) for (m, g), e in main.entries.items() if g == game]
        scored = [(mean, m) for mean, m in held if mean is not None]
        if scored:
            mean, model = max(scored, key=lambda pair: (pair[0], pair[1]))
            name = main.entries[(model, game)].get("name") or model
            best.append(f"{SCORE_NAMES[game]} {_number(mean)} ({name})")
    return Markup(
        f"<p>Minesweeper, Snake and Tetris with primitive controls. {esc(main.label)}: "
        f"{len(main.models)} policies; best means: {esc('; '.join(best) or 'none')}.</p>"
        "<p>Published tables, a page per policy, replays re-simulated from verified logs.</p>"
    )


def add_pages(inputs: Sequence[Path], build: SiteBuild) -> list[Path]:
    """Build the NARCADE pages from the publications and runs among `inputs`; returns the inputs
    used (an input holding neither is left for another benchmark)."""
    claimed: list[Path] = []
    found: list[tuple[str, Path]] = []
    for raw in inputs:
        path = Path(raw)
        found_publications, found_runs = sources_in(path)
        if found_publications or found_runs:
            claimed.append(raw)
            found += [("publication", p) for p in found_publications]
            found += [("run", r) for r in found_runs]
    if not claimed:
        return []
    taken: set[str] = set()
    sources: list[Source] = []
    for kind, path in found:
        key = _unique(path.stem if kind == "publication" else path.name, taken)
        sources.append(
            load_publication(path, key) if kind == "publication" else load_run(path, key)
        )
    build.section(SECTION, "NARCADE", section_summary(sources))
    sources_by_key = {s.key: s for s in sources}
    replays = add_replays(build, [s for s in sources if s.kind == "run"])
    names = _names(sources)
    publications = [s for s in sources if s.kind == "publication"]
    covered = {s.key: published_in(s, publications) for s in sources if s.kind == "run"}
    runs_of = {pub.key: sources_by_key[run] for run, pub in covered.items() if pub is not None}
    shown = [s for s in sources if covered.get(s.key) is None]
    for model, name in names.items():
        policy_page(build, model, name, shown, replays, runs_of)
    index = f"{SECTION}/index.html"
    body = [
        Markup(
            "<p>Models choose one primitive action at a time from a structured game state: a "
            "direction in Snake, a cell to reveal or flag in Minesweeper, one of six controls in "
            "Tetris. Scores are raw: food eaten, safe squares revealed (the automatic opening "
            "included), classic line-clear points. A capped game is not a win.</p>"
        )
    ]
    for source in sorted(sources, key=lambda s: s.kind != "publication"):
        download = build.json(f"{SECTION}/{source.kind}s/{source.key}.json", _download(source))
        body.append(_source_html(source, index, names, replays, download, covered.get(source.key)))
    data = {
        "sources": [
            {
                "key": s.key,
                "kind": s.kind,
                "label": s.label,
                "means": {
                    f"{m}|{g}": e.get("meanScore") for (m, g), e in sorted(s.entries.items())
                },
                "status": {f"{m}|{g}": e.get("status") for (m, g), e in sorted(s.entries.items())},
            }
            for s in sources
        ],
        "replays": sorted(replays.pages.values()),
        "refused": {k: [log for log, _ in v] for k, v in replays.refused.items() if v},
    }
    build.page(index, "NARCADE", join(body), section=SECTION, data=data)
    return claimed


def _download(source: Source) -> Any:
    """The JSON beside the pages: the publication itself, or a run's entries."""
    if source.kind == "publication":
        return source.data
    return {
        "run": source.label,
        "manifest": source.data,
        "entries": [dict(e, game=g) for (_, g), e in sorted(source.entries.items())],
    }
