"""The arena's tier list: every entry's official result, ranked by score (`arcade-eval
ttt-arena table`, the site's arena index).

Only a verified result is ranked (`evidence.verified_results`: its logs replay and give its
numbers); an entry whose results are all unverified is listed unranked, and every unverified
result is listed with its reason. An entry whose `engine.bf` changed since its result was benched
(the SHA-256 the result records differs) is marked stale (`"stale": true` in the JSON rows,
`stale` in the Grade column of the text table and the site) until it is benched again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaluation.benchmarks.ttt_arena.entries import Entry
from evaluation.benchmarks.ttt_arena.evidence import Evidence, verified_results

COLUMNS = (
    "Entry",
    "Grade",
    "Score",
    "Forced win in 5",
    "Fork defense",
    "Matches W/D/L",
    "Avg / max instructions per move",
)


def millions(count: float | None) -> str:
    """An instruction count as the tier list shows it (`8.6 M`, `12.3 k`, `540`)."""
    if count is None:
        return "n/a"
    if count >= 1e6:
        return f"{count / 1e6:.1f} M"
    if count >= 1e3:
        return f"{count / 1e3:.1f} k"
    return f"{count:.0f}"


def tier_rows(
    entries: Sequence[Entry], evidence: Mapping[str, Evidence] | None = None
) -> list[dict[str, Any]]:
    """One row per entry, best verified score first; entries without a verified official result
    last, unranked. `unverified` lists the results not shown and why; `evidence` (entry id ->
    `verified_results(entry)`) saves checking again what the caller has checked."""
    rows: list[dict[str, Any]] = []
    for entry in entries:
        checked = (evidence or {}).get(entry.id) or verified_results(entry)
        result = checked.official
        row: dict[str, Any] = {
            "entry": entry.id,
            "name": entry.metadata.name,
            "benched": False,
            "stale": result is None and any(u.stale for u in checked.unverified),
            "unverified": [u.to_dict() for u in checked.unverified],
        }
        if result is not None:
            matches = result["matches"]
            row.update(
                benched=True,
                grade=result["grade"],
                score=result["score"],
                forcedWin5=result["forcedWin5"],
                forkDefense=result["forkDefense"],
                matches={k: matches[k] for k in ("win", "draw", "loss")},
                avgInstructions=result["avgInstructions"],
                maxInstructions=result["maxInstructions"],
                illegalMoves=result["illegalMoves"],
                seed=result["seed"],
                suite=result["suite"],
                benchedAt=result["benchedAt"],
                result=result["file"],
            )
        rows.append(row)
    rows.sort(key=lambda r: (not r["benched"], -r.get("score", 0.0), r["entry"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank if row["benched"] else None
    return rows


def row_cells(row: dict[str, Any]) -> list[str]:
    """A row as the table's column texts."""
    if not row["benched"]:
        status = "unverified" if row.get("unverified") else "not benched"
        if row.get("stale"):
            status = "stale: engine.bf changed, re-bench"
        return [row["name"], status, "", "", "", "", ""]
    m = row["matches"]
    return [
        row["name"],
        row["grade"],
        f"{row['score']:.1f}",
        f"{row['forcedWin5']['passed']}/{row['forcedWin5']['total']}",
        f"{row['forkDefense']['passed']}/{row['forkDefense']['total']}",
        f"{m['win']}/{m['draw']}/{m['loss']}",
        f"{millions(row['avgInstructions'])} / {millions(row['maxInstructions'])}",
    ]


def tier_text(rows: Sequence[dict[str, Any]]) -> str:
    """The tier list as a plain-text table."""
    body = [list(COLUMNS)] + [row_cells(r) for r in rows]
    widths = [max(len(line[i]) for line in body) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in body
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = unverified_lines(rows)
    if notes:
        lines += ["", "Unverified results (not ranked):", *(f"  {line}" for line in notes)]
    return "\n".join(lines)


def unverified_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """`<entry>/results/<file>: <reason>` for every unverified result of the rows."""
    return [
        f"{row['entry']}/results/{u['result']}: {u['reason']}"
        for row in rows
        for u in row.get("unverified", ())
    ]
