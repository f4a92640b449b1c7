"""The closing table of a NARCADE run: mean score per model and game from its result files.

A mean over an unfinished result file (a failed, aborted or interrupted model) is marked with `*`
and never printed as if it stood beside complete ones.
"""

from __future__ import annotations

from pathlib import Path

from evaluation.benchmarks.narcade.results import read_json, result_path
from evaluation.core.money import usd
from evaluation.core.repeat_report import repeat_line


def mean_score_table(output_dir: str | Path) -> str:
    """A text table of mean scores per model and game (`-`: no episode finished)."""
    out = Path(output_dir)
    manifest = read_json(out / "manifest.json")
    games = list(manifest["settings"]["games"])
    models = list(manifest["models"])
    width = max([24, *(len(spec) + 2 for spec in models)])
    header = f"{'model':<{width}}" + "".join(f"{g:>14}" for g in games)
    lines = [header, "-" * len(header)]
    marked = False
    repeated: list[str] = []
    for spec in models:
        cells = []
        for game in games:
            path = result_path(out, spec, game)
            text = "-"
            if path.is_file():
                data = read_json(path)
                mean = data.get("summary", {}).get("meanScore")
                block = data.get("summary", {}).get("repeats")
                if isinstance(block, dict):
                    repeated.append(repeat_line(f"{spec} {game}", block))
                if mean is not None:
                    text = f"{mean:.2f}"
                    if data.get("status") != "complete":
                        text += "*"
                        marked = True
            cells.append(f"{text:>14}")
        lines.append(f"{spec:<{width}}" + "".join(cells))
    if marked:
        lines.append("* incomplete: the model failed or was stopped; not comparable")
    if repeated:
        lines += ["", "each seed played several times (--repeats): the means are over repeats"]
        lines += repeated
    usage = _usage_lines(out, models, games, width)
    return "\n".join(lines + usage)


def _usage_lines(out: Path, models: list[str], games: list[str], width: int) -> list[str]:
    """Total tokens (in / out) and dollars per game, for the models whose calls reported them
    (dollars through `evaluation/core/money.py`, so a cost under a cent keeps its digits)."""
    rows = []
    for spec in models:
        cells, any_usage = [], False
        for game in games:
            path = result_path(out, spec, game)
            summary = read_json(path).get("summary", {}) if path.is_file() else {}
            episodes = summary.get("episodes") or 0
            tokens_in, tokens_out = summary.get("promptTokens"), summary.get("completionTokens")
            cost = summary.get("costUsd")
            if episodes and (tokens_in is not None or cost is not None):
                any_usage = True
                text = f"{tokens_in or 0:,}/{tokens_out or 0:,} {usd(cost)}"
            else:
                text = "-"
            cells.append(f"{text:>24}")
        if any_usage:
            rows.append(f"{spec:<{width}}" + "".join(cells))
    if not rows:
        return []
    header = f"{'total: tokens in/out, cost':<{width}}" + "".join(f"{g:>24}" for g in games)
    return ["", header, "-" * len(header), *rows]
