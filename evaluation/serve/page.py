"""The live page of `arcade-eval serve` (`/live/`): a form per offered run and a progress view.

Written with the site's escaping helpers (`evaluation/site/html.py`): every name, label and
choice is text. The page embeds the server's per-process token (`evaluation/serve/guard.py`) for
its POSTs; its script (`assets/live.js`) reads the run's events with `EventSource` and writes
every line with `textContent`, so nothing a run prints can become markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evaluation.core.live import LiveField, LiveRun
from evaluation.site.html import Markup, esc, join

ASSETS = Path(__file__).parent / "assets"
"""The page's own script and style sheet, served under `/live/`."""


def _field(run: LiveRun, field: LiveField) -> Markup:
    ident = f"{run.key}--{field.name}"
    hint = Markup(f'<small class="hint">{esc(field.help)}</small>') if field.help else ""
    data = f'data-field="{esc(field.name)}" data-kind="{esc(field.kind)}"'
    if field.kind == "bool":
        checked = " checked" if field.default else ""
        return Markup(
            f'<p class="field"><label><input type="checkbox" id="{esc(ident)}" {data}{checked}> '
            f"{esc(field.label)}</label> {hint}</p>"
        )
    if field.kind == "choice":
        options = join(
            Markup(
                f'<option value="{esc(choice)}"'
                + (" selected" if choice == field.default else "")
                + f">{esc(choice)}</option>"
            )
            for choice in field.choices
        )
        control = Markup(f'<select id="{esc(ident)}" {data}>{options}</select>')
    else:
        control = Markup(
            f'<input type="text" inputmode="numeric" id="{esc(ident)}" {data} '
            f'value="{esc(field.default)}" size="22" autocomplete="off">'
        )
    return Markup(
        f'<p class="field"><label for="{esc(ident)}">{esc(field.label)}</label> {control} '
        f"{hint}</p>"
    )


def _form(run: LiveRun) -> Markup:
    fields = join(_field(run, f) for f in run.fields)
    return Markup(
        f'<form class="card live-form" data-run="{esc(run.key)}">'
        f"<h2>{esc(run.title)}</h2><p>{esc(run.description)}</p>{fields}"
        '<p><button type="submit">Start</button> '
        '<output class="form-error" role="alert"></output></p></form>'
    )


def live_page(runs: Sequence[LiveRun], token: str, version: str) -> bytes:
    """The whole `/live/` page."""
    forms = join(_form(run) for run in runs) or Markup("<p>No benchmark offers a live run.</p>")
    text = (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="live-token" content="{esc(token)}">\n'
        "<title>Live runs \u00b7 arcade-gym</title>\n"
        '<link rel="icon" href="data:,">\n'
        '<link rel="stylesheet" href="/assets/site.css">\n'
        '<link rel="stylesheet" href="/live/live.css">\n'
        "</head>\n<body>\n"
        '<header class="site-header"><a class="brand" href="/index.html">arcade-gym results</a>'
        '<nav><a href="/live/" aria-current="true">Live runs</a></nav></header>\n'
        "<main>\n<h1>Live runs</h1>\n"
        '<p class="lead">Start a benchmark run on this machine and watch it as it plays. A run '
        "is the <code>arcade-eval</code> command shown beside it, and saves what that command "
        "saves. One run at a time; a few more may wait.</p>\n"
        f'<div class="cards live-forms">{forms}</div>\n'
        '<section class="live-progress" aria-label="progress">'
        '<h2 id="progress-title">No run watched</h2>'
        '<p><code id="progress-command"></code></p>'
        '<p><progress id="progress-bar" max="1" value="0"></progress> '
        '<output id="progress-count" aria-live="polite"></output> '
        '<output id="progress-state"></output> '
        '<button type="button" id="progress-cancel" hidden>Cancel</button></p>'
        '<pre id="progress-log" tabindex="0"></pre></section>\n'
        '<section aria-label="runs"><h2>Runs</h2><div class="table-wrap"><table>'
        "<thead><tr><th>Run</th><th>Command</th><th>State</th><th>Lines</th><th></th></tr>"
        '</thead><tbody id="runs"></tbody></table></div></section>\n'
        "</main>\n"
        f'<footer class="site-footer">Served by <code>arcade-eval serve</code> (arcade-gym '
        f"{esc(version)}) on 127.0.0.1 only: no account, no outside requests.</footer>\n"
        '<script src="/live/live.js"></script>\n'
        "</body>\n</html>\n"
    )
    return text.encode("utf-8")


LIVE_LINK = b'<a href="/live/">Live runs</a>'


def with_live_link(page: bytes) -> bytes:
    """A site page as served: a "Live runs" link first in its navigation (the header every
    `evaluation/site/build.py` page has holds one `<nav>`), so the live page is one click from
    any page; a page without one is unchanged. The file on disk is never touched."""
    return page.replace(b"<nav>", b"<nav>" + LIVE_LINK, 1)
