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
  re-simulated into frames (`site_frames.py`) drawn by the game's viewer (`docs/frames.md`).

The inputs are read by `site_inputs.py`, the replays built by `site_replays.py`, the policy pages
by `site_policies.py`; this module writes the index and is the benchmark's `site` hook.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.site_format import (
    INCOMPLETE_NOTE,
    SCORE_NAMES,
    SECTION,
    TABLE_GAMES,
    mean_cell,
    number,
    policy_link,
)
from evaluation.benchmarks.narcade.site_inputs import (
    Source,
    load_publication,
    load_run,
    published_in,
    sources_in,
    unique_key,
)
from evaluation.benchmarks.narcade.site_policies import policy_page
from evaluation.benchmarks.narcade.site_replays import Replays, add_replays
from evaluation.site.build import SiteBuild, relative
from evaluation.site.html import Markup, esc, join, link, table

__all__ = ["add_pages", "sources_in"]


# --------------------------------------------------------------------------------------------
# Index
# --------------------------------------------------------------------------------------------


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
        cells: list[object] = [policy_link(page, model, names.get(model))]
        for game in games:
            text = mean_cell(source.entries.get((model, game)))
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
            policy_link(page, model, names.get(model)),
            esc(entry.get("revision") or "\u2014"),
            mean_cell(entry),
        ]
        for seed in seeds:
            episode = by_seed.get(seed)
            if episode is None:
                cells.append(None)
                continue
            replay = replays.find(model, game, seed, episode.get("score"))
            text = esc(number(episode.get("score")))
            cells.append(
                link(relative(page, replay), number(episode.get("score"))) if replay else text
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
            best.append(f"{SCORE_NAMES[game]} {number(mean)} ({name})")
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
        key = unique_key(path.stem if kind == "publication" else path.name, taken)
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
