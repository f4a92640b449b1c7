"""The scorecard of a suite run: per policy x benchmark the headline and its 95% interval, the
normalised score, cost, tokens, time, failure counts and links to the benchmark's report and logs.

Normalised score (docs/suite.md), per benchmark headline, like Atari's human-normalised score:
`100 * (score - random) / (strongest - random)`, where `random` is the `random` built-in's headline
and `strongest` the strongest built-in's, both measured by this same suite run (same budget, same
seeds); a benchmark without a `random` built-in (Sudoku) takes the score of an empty answer, 0.
When this run did not play a reference the normalised score is n/a, never a guess.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from evaluation.core.money import usd
from evaluation.suite.part import QUICK_LABEL, Cell, Headline, Part

SCORECARD_VERSION = 1


def normalised(value: float | None, refs: dict[str, float]) -> float | None:
    """`100 * (value - random) / (strongest - random)`; None without both references or when
    they are equal (nothing to scale by)."""
    low, high = refs.get("random"), refs.get("strongest")
    if value is None or low is None or high is None or math.isclose(low, high):
        return None
    return 100.0 * (value - low) / (high - low)


def _link(part: Part, name: str | None) -> str | None:
    return None if name is None else f"{part.output_dir}/{name}"


def _headline(headline: Headline, part: Part) -> dict[str, Any]:
    refs = part.references.get(headline.label, {})
    return {
        "label": headline.label,
        "value": headline.value,
        "low95": headline.low,
        "high95": headline.high,
        "unit": headline.unit,
        "normalised": normalised(headline.value, refs),
    }


def _cell(cell: Cell | None, part: Part, budget: str) -> dict[str, Any]:
    if cell is None:  # the part never reached this policy (it stopped or failed first)
        cell = Cell("", None, status="missing" if part.status != "not applicable" else part.status)
    status = cell.status if part.status in ("complete", "not applicable") else part.status
    if cell.status == "not applicable":
        status = cell.status
    return {
        "status": status,
        "spec": cell.spec,
        "note": cell.note,
        "headlines": [_headline(h, part) for h in cell.headlines] if status == "ok" else [],
        "costUsd": cell.cost_usd,
        "promptTokens": cell.prompt_tokens,
        "completionTokens": cell.completion_tokens,
        "seconds": cell.seconds,
        "failures": cell.failures,
        "report": _link(part, part.report),
        "logs": _link(part, part.logs),
        "label": QUICK_LABEL if budget == "quick" else "official",
    }


def build(policies: Sequence[str], budget: str, parts: Sequence[Part]) -> dict[str, Any]:
    """scorecard.json's content."""
    rows = []
    for policy in policies:
        cells = {}
        for part in parts:
            mine = next((c for c in part.cells if c.policy == policy), None)
            cells[part.benchmark] = _cell(mine, part, budget)
        rows.append({"policy": policy, "cells": cells})
    return {
        "scorecardVersion": SCORECARD_VERSION,
        "budget": budget,
        "label": QUICK_LABEL if budget == "quick" else "official",
        "normalisation": "100 * (score - random) / (strongest built-in - random), references "
        "measured in this run (docs/suite.md)",
        "benchmarks": [
            {
                "name": part.benchmark,
                "status": part.status,
                "message": part.message,
                "directory": part.output_dir,
                "report": _link(part, part.report),
                "logs": _link(part, part.logs),
                "seconds": part.seconds,
                "spentUsd": part.spent_usd,
                "references": part.references,
                "repeats": part.repeats,
            }
            for part in parts
        ],
        "policies": list(policies),
        "rows": rows,
    }


def figure(value: Any) -> str:
    """A scorecard number as every table shows it (the Markdown, the printed matrix, the site)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "n/a"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}" if abs(value) < 10 else f"{value:.1f}"


def interval_text(h: dict[str, Any]) -> str:
    """A headline's 95% interval as `[low, high]` (n/a: none defined)."""
    if h["low95"] is None or h["high95"] is None:
        return "n/a"
    return f"[{figure(h['low95'])}, {figure(h['high95'])}]"


def tokens_text(cell: dict[str, Any]) -> str:
    prompt, completion = cell["promptTokens"], cell["completionTokens"]
    if prompt is None and completion is None:
        return "n/a"
    return f"{prompt or 0:,} in / {completion or 0:,} out"


def failures_text(cell: dict[str, Any]) -> str:
    f = cell["failures"] or {}
    return " / ".join(
        "n/a" if f.get(k) is None else str(f[k])
        for k in ("invalid", "illegal", "timeouts", "aborted")
    )


def _brief(cell: dict[str, Any]) -> str:
    if cell["status"] != "ok":
        return cell["status"]
    shown = []
    for h in cell["headlines"]:
        norm = "n/a" if h["normalised"] is None else f"{h['normalised']:.0f}"
        label = f"{h['label']} " if len(cell["headlines"]) > 1 else ""
        shown.append(f"{label}{figure(h['value'])} {interval_text(h)} (norm {norm})")
    return "; ".join(shown) or "n/a"


def matrix(card: dict[str, Any]) -> str:
    """The table printed at the end: a row per policy, a column per benchmark."""
    names = [b["name"] for b in card["benchmarks"]]
    lines = [
        f"Scorecard ({card['label']}): headline [95% interval] (normalised: 0 random, 100 "
        "strongest built-in)",
        "| policy | " + " | ".join(names) + " | |",
        "|---|" + "---|" * len(names) + "---|",
    ]
    for row in card["rows"]:
        cells = [_brief(row["cells"][n]) for n in names]
        lines.append(f"| {row['policy']} | " + " | ".join(cells) + f" | {card['label']} |")
    return "\n".join(lines)


def markdown(card: dict[str, Any]) -> str:
    """scorecard.md: the matrix, then one line per policy x benchmark with the details."""
    lines = [f"# Suite scorecard ({card['label']})", "", matrix(card), ""]
    lines += [
        "| policy | benchmark | headline | 95% interval | normalised | cost | tokens | time (s) | "
        "invalid / illegal / timeouts / aborted | report | logs | budget |",
        "|---|---|---|---|---:|---:|---|---:|---|---|---|---|",
    ]
    for row in card["rows"]:
        for name, cell in row["cells"].items():
            heads = cell["headlines"] or [None]
            for h in heads:
                label = cell["status"] if h is None else f"{h['label']}: {figure(h['value'])}"
                norm = "n/a" if h is None or h["normalised"] is None else f"{h['normalised']:.1f}"
                report = f"[report]({cell['report']})" if cell["report"] else "n/a"
                logs = f"[logs]({cell['logs']})" if cell["logs"] else "n/a"
                lines.append(
                    f"| {row['policy']} | {name} | {label} | "
                    f"{'n/a' if h is None else interval_text(h)} | {norm} | "
                    f"{usd(cell['costUsd'])} | "
                    f"{tokens_text(cell)} | {figure(cell['seconds'])} | {failures_text(cell)} | "
                    f"{report} | {logs} | {cell['label']} |"
                )
    notes = [
        f"- {b['name']}: {b['status']}. {b['message']}".rstrip()
        + (
            f" Each game played {b['repeats']} times: the mean over repeats, its interval "
            "resampling games and repeats."
            if b.get("repeats", 1) > 1
            else ""
        )
        for b in card["benchmarks"]
    ]
    lines += ["", "Benchmarks:", *notes, "", card["normalisation"] + "."]
    return "\n".join(lines) + "\n"


def to_json(card: dict[str, Any]) -> str:
    return json.dumps(card, indent=1, allow_nan=False) + "\n"
