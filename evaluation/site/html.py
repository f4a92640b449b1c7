"""Small HTML helpers for site pages: escaping, links and tables, so no page builds markup by hand.

Convention: a `str` given to `table` is HTML the caller already made safe (with `esc`, `link` or
literal markup); any other value (int, float, None) is formatted here and escaped.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence


def esc(text: object) -> str:
    """`text` as HTML text (quotes escaped too, so it is safe in attributes)."""
    return html.escape(str(text), quote=True)


def link(href: str, text: object, *, title: str | None = None) -> str:
    """An `<a>` element; `text` is plain text (escaped), `href` a relative URL (escaped)."""
    extra = f' title="{esc(title)}"' if title else ""
    return f'<a href="{esc(href)}"{extra}>{esc(text)}</a>'


def cell(value: object) -> str:
    """One table cell's HTML: strings pass through as HTML, numbers are formatted, None is a
    dash (a missing figure), everything else is escaped text."""
    if value is None:
        return "\u2014"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return "\u2014"
        return esc(f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.0f}")
    if isinstance(value, int):
        return esc(f"{value:,}")
    return esc(value)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def table(
    headers: Sequence[object],
    rows: Iterable[Sequence[object]],
    *,
    caption: str | None = None,
    numeric: Iterable[int] | None = None,
    table_id: str | None = None,
) -> str:
    """An HTML table. Headers and cells follow `cell` (str = safe HTML). Columns listed in
    `numeric` (or, by default, cells holding numbers) are right-aligned with tabular digits."""
    numeric_columns = set(numeric or ())
    head = "".join(f'<th scope="col">{cell(h)}</th>' for h in headers)
    body = []
    for row in rows:
        cells = []
        for index, value in enumerate(row):
            css = ' class="num"' if index in numeric_columns or _is_number(value) else ""
            cells.append(f"<td{css}>{cell(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    ident = f' id="{esc(table_id)}"' if table_id else ""
    cap = f"<caption>{caption}</caption>" if caption else ""
    return (
        f'<div class="table-wrap"><table{ident}>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def definition_list(items: Iterable[tuple[str, object]]) -> str:
    """A `<dl>` of (term, value) pairs; terms are plain text, values follow `cell`. A pair whose
    value is None is left out (a fact that does not apply)."""
    parts = [
        f"<dt>{esc(term)}</dt><dd>{cell(value)}</dd>" for term, value in items if value is not None
    ]
    return f'<dl class="facts">{"".join(parts)}</dl>'
