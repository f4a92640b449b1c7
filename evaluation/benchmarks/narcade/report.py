"""The closing table of a NARCADE run: mean score per model and game from its result files.

A mean over an unfinished result file (a failed, aborted or interrupted model) is marked with `*`
and never printed as if it stood beside complete ones.
"""

from __future__ import annotations

from pathlib import Path

from evaluation.benchmarks.narcade.results import read_json, result_path


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
    for spec in models:
        cells = []
        for game in games:
            path = result_path(out, spec, game)
            text = "-"
            if path.is_file():
                data = read_json(path)
                mean = data.get("summary", {}).get("meanScore")
                if mean is not None:
                    text = f"{mean:.2f}"
                    if data.get("status") != "complete":
                        text += "*"
                        marked = True
            cells.append(f"{text:>14}")
        lines.append(f"{spec:<{width}}" + "".join(cells))
    if marked:
        lines.append("* incomplete: the model failed or was stopped; not comparable")
    return "\n".join(lines)
