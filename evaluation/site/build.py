"""`SiteBuild`: the one static-site builder every benchmark's `site` hook writes its pages through.

Pages are collected in memory and written by `finish`, so the navigation knows every section, a
failed build (say, a replay log that does not verify) leaves an earlier site untouched, and the
same inputs give a byte-identical site (no time stamps, files in a fixed order). Every page is a
plain HTML file that opens from `file://`: data is inlined as
`<script type="application/json" id="page-data">`, links are relative, nothing is fetched.
"""

from __future__ import annotations

import json
import os
import posixpath
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from arcade_gym.core.batch_threads import available_cores
from evaluation.core.replay_export import UnverifiedLogError
from evaluation.core.rundir import safe_name, write_bytes_atomic, write_text_atomic
from evaluation.site.html import Markup, esc, link
from evaluation.site.page_json import (
    Prepared,
    file_state,
    inline_json,
    plain_json,
    replay_json,
    replay_outcome,
)
from evaluation.site.viewers import ViewerError, viewer_files, viewer_script

if TYPE_CHECKING:
    from evaluation.site.replay_pool import ReplayPool

ASSETS = Path(__file__).parent / "assets"
"""The files copied to `assets/` of every site (style sheet, replay player, the kit viewers share);
the games' viewers come from their descriptors (`evaluation/site/viewers.py`)."""
MARKER = ".arcade-site"
"""The file that marks a directory as a site this builder wrote (so a rebuild may replace it)."""
SITE_NAME = "arcade-gym results"
TEXT_SUFFIXES = (".pgn", ".txt")
"""The plain-text files a benchmark may ship for download (`SiteBuild.text`)."""
PROGRESS_EVERY_S = 10.0
"""How often a build that is replaying games says how many it has done (`progress`)."""
DEFAULT_MAX_WORKERS = 8
"""The most replay workers a build starts unless told (`workers`): one per available core up to
this, since each is an interpreter of its own (about 200 MB with a game's kernels loaded)."""


class SiteError(Exception):
    """A user error while building a site: one clear line that names the fix."""


@dataclass(frozen=True)
class Section:
    """A nav entry and a home-page card; its index page is `<key>/index.html`."""

    key: str
    title: str
    summary_html: Markup


@dataclass
class _Page:
    title: str
    body_html: Markup
    section: str | None
    scripts: tuple[str, ...]
    data: Any
    extra_json: dict[str, Any] = field(default_factory=dict)


def relative(from_page: str, target: str) -> str:
    """The relative URL from page `from_page` to site file `target` (both site-relative paths)."""
    start = posixpath.dirname(from_page) or "."
    return posixpath.relpath(target, start)


def site_path(path: str | PurePosixPath) -> str:
    """A site-relative file path, checked: relative, no `..`, every folder a `safe_name` and the
    file name a `safe_name` plus an extension (so a name `safe_name` cut to its limit fits)."""
    text = str(path).replace("\\", "/")
    parts = PurePosixPath(text).parts
    if not parts or text.startswith("/"):
        raise ValueError(f"site paths are relative file paths, got {text!r}")
    for index, part in enumerate(parts):
        stem, dot, suffix = part.rpartition(".")
        name = stem if index == len(parts) - 1 and dot and stem and suffix.isalnum() else part
        if name != safe_name(name):
            raise ValueError(
                f"unsafe site path {text!r}: pass each name derived from input through "
                "evaluation.core.rundir.safe_name"
            )
    return "/".join(parts)


class SiteBuild:
    """One site being built into `output`. Benchmarks call `section`, `page`, `json`, `text`
    and `replay`; the command calls `finish` once every benchmark has added its pages."""

    def __init__(
        self,
        output: str | Path,
        *,
        inputs: Sequence[str] = (),
        version: str = "",
        progress: Callable[[str], None] | None = None,
        workers: int | None = None,
    ) -> None:
        self.output = Path(output)
        self.inputs = list(inputs)
        self.workers = min(available_cores(), DEFAULT_MAX_WORKERS) if workers is None else workers
        """Processes `prepare_replays` exports on (1: none, every replay in-process)."""
        self._say = progress
        self._replayed = 0
        self._said_at = time.monotonic()
        self._prepared: dict[str, Prepared] = {}
        self._pool: ReplayPool | None = None
        if not version:
            import arcade_gym

            version = arcade_gym.__version__
        self.version = version
        self.sections: dict[str, Section] = {}
        self._pages: dict[str, _Page] = {}
        self._json: dict[str, Any] = {}
        self._texts: dict[str, str] = {}
        self._assets: dict[str, bytes] = {}
        self._home_blocks: list[Markup] = []
        self.check_output()

    @property
    def page_count(self) -> int:
        """Pages added so far (the command's progress lines count them)."""
        return len(self._pages)

    # -- the API benchmarks use -------------------------------------------------------------

    def section(self, key: str, title: str, summary_html: Markup | str) -> Section:
        """Declare a section: a nav entry and a card (with `summary_html`) on the home page.
        Its index is `<key>/index.html`, which the benchmark writes with `page`. Only `Markup`
        is HTML: a plain `str` summary is shown as text (`evaluation/site/html.py`)."""
        if key != safe_name(key) or "/" in key:
            raise ValueError(f"section key {key!r} is not a safe name")
        if key in self.sections:
            raise ValueError(f"section {key!r} is declared twice")
        self.sections[key] = Section(key, title, esc(summary_html))
        return self.sections[key]

    def page(
        self,
        path: str,
        title: str,
        body_html: Markup | str,
        *,
        section: str | None = None,
        scripts: Sequence[str] = (),
        data: Any = None,
    ) -> str:
        """Add the page `path` (e.g. `<section>/runs/<run>.html`) in the shared layout.
        `body_html` is HTML only when it is `Markup` (a plain `str` is escaped, shown as text);
        `title` is text; `data` is inlined as `#page-data`; each of `scripts` is a
        file under `assets/` (e.g. `"replay.js"`). `section` defaults to the path's first folder
        when that is a section. Returns the path."""
        path = self._claim(site_path(path), ".html")
        for script in scripts:
            site_path(script)
        if section is None:
            head = path.split("/", 1)[0]
            section = head if "/" in path and head in self.sections else None
        elif section not in self.sections:
            raise ValueError(f"page {path}: unknown section {section!r} (call build.section first)")
        self._pages[path] = _Page(title, esc(body_html), section, tuple(scripts), data)
        return path

    def json(self, path: str, data: Any) -> str:
        """Add a JSON file (for download and tests; no page fetches it). Returns the path."""
        path = self._claim(site_path(path), ".json")
        self._json[path] = plain_json(data)
        return path

    def text(self, path: str, content: str) -> str:
        """Add a plain-text file for download in a format of its own (`TEXT_SUFFIXES`: a game
        record's `.pgn`), written as UTF-8 as given. Returns the path."""
        path = site_path(path)
        suffix = PurePosixPath(path).suffix
        if suffix not in TEXT_SUFFIXES:
            raise ValueError(f"{path}: expected one of {', '.join(TEXT_SUFFIXES)}")
        path = self._claim(path, suffix)
        self._texts[path] = content
        return path

    def asset(self, path: str, content: bytes) -> str:
        """Add a benchmark's own script or style sheet as `assets/<path>` (for its pages'
        `scripts`); the same file added twice with the same bytes is one file. Returns the path
        under `assets/`."""
        path = site_path(path)
        if not path.endswith((".js", ".css")):
            raise ValueError(f"asset {path}: expected a .js or .css file")
        if (ASSETS / path).exists() or path.startswith("viewers/"):
            raise ValueError(f"asset {path} is one of the site's own")
        if self._assets.setdefault(path, content) != content:
            raise ValueError(f"asset {path} is added twice with different content")
        return path

    def replay(
        self,
        path: str,
        title: str,
        log_path: str | Path,
        viewer: str,
        *,
        section: str | None = None,
        intro_html: Markup | str = "",
        data: Any = None,
    ) -> str:
        """Add a replay page for the game `log_path` records, drawn by the viewer of the game
        named `viewer` (its descriptor's, `evaluation/site/viewers.py`; the frame contract is
        `docs/frames.md`) through the player `assets/replay.js` (with `assets/viewer-kit.js`, the
        helpers viewers share, loaded before it); `data` (what the viewer reads beside the frames,
        e.g. a run's grades) is inlined as `#page-data`; `intro_html` follows `page`'s rule
        for bodies (only `Markup` is HTML). The log must verify: one that does not is
        refused with a `SiteError` naming it. The replay is inlined compact
        (`evaluation/core/replay_compact.py`; the player rebuilds the frames with
        `assets/inflate.js`). The game is checked by the rules (`verify_log` with `rederive=False`:
        every decision judged, the result compared; `arcade-eval verify` also re-derives a
        deterministic policy's answers). Returns the page path (for links). A replay
        `prepare_replays` made for this log is used, refused or not, as if made here."""
        prepared = self._take_prepared(log_path)
        try:
            if prepared is None:
                steps, replay = replay_json(log_path)
                self._count_replayed()
            elif prepared[0] == "ok":
                steps, replay = prepared[1], prepared[2]
            else:
                raise UnverifiedLogError(prepared[2])
        except UnverifiedLogError as error:
            raise SiteError(f"cannot replay {log_path}: {error}") from error
        if viewer != safe_name(viewer):
            raise ValueError(f"viewer {viewer!r} is not a safe name")
        body = Markup(
            f"{esc(intro_html)}"
            f'<section class="replay" data-viewer="{esc(viewer)}" aria-label="replay">'
            '<div class="controls" role="group" aria-label="replay controls">'
            '<button type="button" id="first" title="first (Home)">|&#x25C0;</button>'
            '<button type="button" id="back" title="step back (&#x2190;)">&#x25C0; step</button>'
            '<button type="button" id="play" title="play / pause (space)">play</button>'
            '<button type="button" id="step" title="step (&#x2192;)">step &#x25B6;</button>'
            '<button type="button" id="last" title="last (End)">&#x25B6;|</button>'
            f'<input type="range" id="seek" min="0" max="{steps}" value="0" step="1" '
            'aria-label="decision">'
            '<label class="speed">speed <select id="speed">'
            '<option value="1">1/s</option><option value="4" selected>4/s</option>'
            '<option value="16">16/s</option><option value="64">64/s</option></select></label>'
            f'<output id="position" aria-live="polite">decision 0 / {steps}</output>'
            "</div>"
            '<div id="board" class="board"></div>'
            "</section>"
            f'<script type="application/json" id="replay-data">{replay}</script>'
        )
        scripts = ("inflate.js", "replay.js", "viewer-kit.js", viewer_script(viewer))
        return self.page(path, title, body, section=section, scripts=scripts, data=data)

    def prepare_replays(self, log_paths: Iterable[str | Path]) -> None:
        """Export the replays of `log_paths` now, on `workers` processes, for the `replay` calls
        that follow (each with the same path, spelt the same): a build that replays many long
        games calls this first with all of them (those that take seconds a game; games
        replayed in milliseconds gain less than a worker takes to start and load their game).
        Each result, or the reason a log is refused, waits for its `replay` call, which raises
        the same `SiteError` there; a log that changed since, or that a worker could not finish,
        is exported by `replay` in-process. The pages are the same whatever `workers` is; with
        one worker (or one log) nothing is done ahead."""
        paths = list(dict.fromkeys(os.fspath(p) for p in log_paths))
        if self.workers < 2 or len(paths) < 2:
            return
        if self._pool is None:
            from evaluation.site.replay_pool import ReplayPool

            self._pool = ReplayPool(self.workers)
        states = {path: file_state(path) for path in paths}
        longest_first = sorted(paths, key=lambda p: -(states[p] or (0, 0))[0])  # even the load
        for path, outcome in self._pool.run(replay_outcome, longest_first):
            self._prepared[path] = Prepared(states[path], outcome)
            if outcome[0] == "ok":
                self._count_replayed()

    def home(self, body_html: Markup | str) -> None:
        """Add a block to the home page, above the section cards (the suite's policies x
        benchmarks matrix, `evaluation/suite/site_pages.py`); `page`'s rule for bodies holds."""
        self._home_blocks.append(esc(body_html))

    def href(self, from_page: str, target: str) -> str:
        """The relative URL from one site page to another site file."""
        return relative(from_page, target)

    # -- the command's side -------------------------------------------------------------------

    def check_output(self) -> None:
        """Refuse an output that is a file, or a non-empty directory that is not an earlier site."""
        out = self.output
        if out.exists() and not out.is_dir():
            raise SiteError(f"{out} exists and is not a directory: choose another --output")
        if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
            raise SiteError(
                f"{out} is not empty and holds no earlier site ({MARKER} missing): "
                "choose a new or empty --output directory"
            )

    def files(self) -> dict[str, bytes]:
        """Every file of the site (path -> bytes), in a fixed order, without writing anything."""
        self._require_section_indexes()
        files: dict[str, bytes] = {}
        files["index.html"] = self._render("index.html", self._home())
        for path in sorted(self._pages):
            files[path] = self._render(path, self._pages[path])
        for path in sorted(self._json):
            text = json.dumps(self._json[path], ensure_ascii=False, indent=2) + "\n"
            files[path] = text.encode("utf-8")
        for path in sorted(self._texts):
            files[path] = self._texts[path].encode("utf-8")
        for asset in sorted(p for p in ASSETS.rglob("*") if p.is_file()):
            relative_path = asset.relative_to(ASSETS).as_posix()
            if asset.suffix in (".css", ".js", ".svg", ".json"):
                files[f"assets/{relative_path}"] = asset.read_bytes()
        try:
            viewers = viewer_files()
        except ViewerError as error:
            raise SiteError(f"{error}: fix the game's descriptor (viewer=...)") from None
        for path, content in sorted({**viewers, **self._assets}.items()):
            files[f"assets/{path}"] = content
        for path, page in self._pages.items():
            for script in page.scripts:
                if f"assets/{script}" not in files:
                    raise SiteError(f"page {path} needs assets/{script}, which does not exist")
        return files

    def close(self) -> None:
        """Stop the processes `prepare_replays` started (`finish` does; the command calls it
        after a failed build too). A replay prepared and not shown yet is dropped."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self._prepared.clear()

    def finish(self) -> list[str]:
        """Write the site: the files of an earlier site here are replaced, nothing else is
        touched. Returns the paths written."""
        self.close()
        files = self.files()
        self.check_output()
        self._remove_previous()
        for path, content in files.items():
            write_bytes_atomic(self.output / path, content)
        marker = {"generator": "arcade-eval site", "files": sorted(files)}
        write_text_atomic(self.output / MARKER, json.dumps(marker, indent=1) + "\n")
        return list(files)

    # -- internals ----------------------------------------------------------------------------

    def _take_prepared(self, log_path: str | Path) -> tuple[str, int, str] | None:
        key = os.fspath(log_path)
        prepared = self._prepared.pop(key, None)
        if prepared is None or prepared.state is None or prepared.state != file_state(key):
            return None
        return prepared.outcome

    def _count_replayed(self) -> None:
        """One more game replayed and checked; the progress line every `PROGRESS_EVERY_S`."""
        self._replayed += 1
        if self._say is not None and time.monotonic() - self._said_at >= PROGRESS_EVERY_S:
            self._say(f"site: games replayed and checked so far: {self._replayed}")
            self._said_at = time.monotonic()

    def _claim(self, path: str, suffix: str) -> str:
        if not path.endswith(suffix):
            raise ValueError(f"{path}: expected a {suffix} file")
        if path == "index.html" or path.startswith("assets/"):
            raise ValueError(f"{path} is reserved for the site itself")
        if path in self._pages or path in self._json or path in self._texts:
            raise ValueError(f"{path} is written twice (two benchmarks, or one twice)")
        return path

    def _require_section_indexes(self) -> None:
        """A section whose benchmark wrote no index gets one listing its pages."""
        for key, section in self.sections.items():
            index = f"{key}/index.html"
            if index in self._pages:
                continue
            pages = sorted(p for p, page in self._pages.items() if page.section == key)
            items = "".join(
                f"<li>{link(relative(index, p), self._pages[p].title)}</li>" for p in pages
            )
            body = Markup(f"{section.summary_html}<ul>{items}</ul>")
            self._pages[index] = _Page(section.title, body, key, (), None)

    def _home(self) -> _Page:
        cards = "".join(
            f'<article class="card"><h2>{link(f"{s.key}/index.html", s.title)}</h2>'
            f"{s.summary_html}</article>"
            for s in self.sections.values()
        )
        if not cards:
            cards = "<p>No benchmark results were given.</p>"
        body = Markup(
            '<p class="lead">Results of the arcade-gym benchmarks: leaderboards, per-policy '
            "pages and replays of verified games. Every replay was re-simulated from its event "
            "log when this site was built.</p>"
            f"{''.join(self._home_blocks)}"
            f'<div class="cards">{cards}</div>'
        )
        return _Page(SITE_NAME, body, None, (), None)

    def _render(self, path: str, page: _Page) -> bytes:
        root = "../" * path.count("/")
        nav = "".join(
            f'<a href="{esc(root)}{s.key}/index.html"'
            + (' aria-current="true"' if s.key == page.section else "")
            + f">{esc(s.title)}</a>"
            for s in self.sections.values()
        )
        crumbs = ""
        if page.section is not None and path != f"{page.section}/index.html":
            section = self.sections[page.section]
            crumbs = (
                f'<p class="crumbs">'
                f"{link(relative(path, f'{section.key}/index.html'), section.title)}</p>"
            )
        data = ""
        if page.data is not None:
            inline = inline_json(page.data)
            data = f'<script type="application/json" id="page-data">{inline}</script>\n'
        scripts = "".join(
            f'<script src="{esc(root)}assets/{esc(s)}"></script>\n' for s in page.scripts
        )
        inputs = ", ".join(f"<code>{esc(i)}</code>" for i in self.inputs) or "no inputs"
        heading = SITE_NAME if path == "index.html" else f"{page.title} \u00b7 {SITE_NAME}"
        text = (
            "<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(heading)}</title>\n"
            '<link rel="icon" href="data:,">\n'
            f'<link rel="stylesheet" href="{esc(root)}assets/site.css">\n'
            "</head>\n<body>\n"
            f'<header class="site-header"><a class="brand" href="{esc(root)}index.html">'
            f"{esc(SITE_NAME)}</a><nav>{nav}</nav></header>\n"
            f"<main>\n{crumbs}<h1>{esc(page.title)}</h1>\n{page.body_html}\n</main>\n"
            f'<footer class="site-footer">Built by <code>arcade-eval site</code> (arcade-gym '
            f"{esc(self.version)}) from {inputs}. Static files: no server, no network "
            "requests, no tracking.</footer>\n"
            f"{data}{scripts}</body>\n</html>\n"
        )
        return text.encode("utf-8")

    def _remove_previous(self) -> None:
        marker = self.output / MARKER
        if not marker.is_file():
            return
        try:
            listed = json.loads(marker.read_text(encoding="utf-8")).get("files", [])
        except (OSError, ValueError, AttributeError):
            listed = []
        root = self.output.resolve()
        folders: set[Path] = set()
        for name in listed:
            target = (self.output / str(name)).resolve()
            if root in target.parents and target.is_file():
                target.unlink()
                folders.update(p for p in target.parents if root in p.parents)
        for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        marker.unlink()
