"""NARCADE's page per policy: per game a strip plot of its scores and its episodes (end, errors,
latency, tokens and cost where the run recorded them, the replay)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaluation.benchmarks.narcade.site_format import (
    INCOMPLETE_NOTE,
    SCORE_NAMES,
    SECTION,
    TABLE_GAMES,
)
from evaluation.benchmarks.narcade.site_inputs import Source
from evaluation.benchmarks.narcade.site_replays import Replays
from evaluation.core.money import usd
from evaluation.core.rundir import safe_name
from evaluation.site.build import SiteBuild, relative
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.plots import strip_plot


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
                        None if episode.get("costUsd") is None else esc(usd(episode["costUsd"])),
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
