"""Small HTML helpers for site pages: escaping, links and tables, so no page builds markup by hand.

Rule: every `str` that reaches a page is text and is escaped; only `Markup` (MarkupSafe's type
for trusted HTML) passes through as HTML. Markup is what the site writes itself: the results of
`esc`, `link`, `join`, `table`, `definition_list` and the plots, and literal markup a builder
wraps, `Markup(f"<p>{esc(name)}</p>")`, where every value interpolated went through `esc` (or
is a number the builder formatted). `SiteBuild.page` and `section` escape a plain `str` body the
same way, so a value read from a run directory or an entry can never become markup by mistake.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence

from markupsafe import Markup

__all__ = ["Markup", "cell", "definition_list", "esc", "join", "link", "safe_href", "table"]

SAFE_SCHEMES = ("http", "https", "mailto")
"""The URL schemes a link may use besides relative URLs (never `javascript:`, `data:`, ...)."""
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f]")
"""Control characters and spaces, which browsers drop or trim before reading a scheme."""


def esc(text: object) -> Markup:
    """`text` as HTML text (quotes escaped too, so it is safe in attributes); `Markup` is
    already HTML and is returned as it is."""
    if hasattr(text, "__html__"):
        return Markup(text.__html__())
    return Markup(html.escape(str(text), quote=True))


def join(parts: Iterable[object], separator: str = "") -> Markup:
    """`parts` joined into one piece of HTML: `Markup` parts as they are, anything else escaped
    (`esc`). The separator is literal markup written by the caller (e.g. a newline)."""
    return Markup(separator.join(esc(part) for part in parts))


def safe_href(href: str) -> bool:
    """Whether `href` is a relative URL, a fragment or an http(s)/mailto URL, read as a browser
    reads it (control characters and spaces dropped), so `java\\tscript:` is refused too."""
    match = _SCHEME.match(_IGNORED_IN_URLS.sub("", href))
    return match is None or match.group(1).lower() in SAFE_SCHEMES


def link(href: str, text: object, *, title: str | None = None) -> Markup:
    """An `<a>` element; `text` is plain text (escaped), `href` a relative URL (escaped). An
    href with any other scheme (`javascript:`, `data:`, ...) gives the text without a link."""
    if not safe_href(str(href)):
        return esc(text)
    extra = f' title="{esc(title)}"' if title else ""
    return Markup(f'<a href="{esc(href)}"{extra}>{esc(text)}</a>')


def cell(value: object) -> Markup:
    """One table cell's HTML: `Markup` passes as HTML, a `str` is escaped text, numbers are
    formatted, None is a dash (a missing figure), anything else is escaped text."""
    if value is None:
        return Markup("\u2014")
    if isinstance(value, bool):
        return Markup("yes" if value else "no")
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return Markup("\u2014")
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
    caption: object = None,
    numeric: Iterable[int] | None = None,
    table_id: str | None = None,
) -> Markup:
    """An HTML table. Headers, cells and the caption follow `cell` (only `Markup` is HTML).
    Columns listed in `numeric` (or, by default, cells holding numbers) are right-aligned with
    tabular digits."""
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
    cap = f"<caption>{cell(caption)}</caption>" if caption else ""
    return Markup(
        f'<div class="table-wrap"><table{ident}>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def definition_list(items: Iterable[tuple[object, object]]) -> Markup:
    """A `<dl>` of (term, value) pairs; terms and values follow `cell` (a `str` is text). A
    pair whose value is None is left out (a fact that does not apply)."""
    parts = [
        f"<dt>{esc(term)}</dt><dd>{cell(value)}</dd>" for term, value in items if value is not None
    ]
    return Markup(f'<dl class="facts">{"".join(parts)}</dl>')
