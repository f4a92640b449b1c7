"""`arcade-eval site`: build the static results site from run directories (default: the shipped
official results under `docs/results/`), one page set per benchmark that claims an input, and a
replay page for each game of an `arcade-eval play` run (`evaluation/site/play_runs.py`)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from evaluation.core.cli_options import add_quiet_option, bounded_int, progress_printer
from evaluation.core.registry import benchmarks
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.inputs import refuse_repeated, sub_folders
from evaluation.site.play_runs import add_play_pages, play_runs
from evaluation.site.replay_index import IndexedBuild

REPOSITORY = Path(__file__).resolve().parents[2]
RESULTS = REPOSITORY / "docs" / "results"
ENTRIES = REPOSITORY / "seeds" / "arena" / "entries"


def default_inputs() -> list[Path]:
    """Every folder of the shipped official results (and the arena entries folder), in name
    order. Raises `SiteError` when the checkout's `docs/results/` is absent (an installed wheel)."""
    if not RESULTS.is_dir():
        raise SiteError(
            f"no shipped results at {RESULTS} (an installed package has none): pass run "
            "directories, e.g. arcade-eval site --output dist runs/my-run"
        )
    inputs = sub_folders(RESULTS)
    if ENTRIES.is_dir():
        inputs.append(ENTRIES)
    return inputs


def _shown(path: Path) -> str:
    """How an input is named in the footer: relative to the repository when inside it."""
    try:
        return path.resolve().relative_to(REPOSITORY).as_posix()
    except ValueError:
        return path.as_posix()


def build_site(
    output: str | Path,
    inputs: Sequence[str | Path] | None = None,
    progress: Callable[[str], None] | None = None,
    workers: int | None = None,
) -> SiteBuild:
    """Build the site into `output` from `inputs` (None: the shipped results); every input must
    be claimed by the `site` hook of a registered benchmark (importing `evaluation.benchmarks`
    registers them; `arcade-eval` does). `progress` gets one line per stage (each benchmark's
    pages, then the writing) and, while games are replayed, a count every 10 s, since checking
    every replayed log takes minutes. Games are replayed on `workers` processes (None: one per
    available core, at most `DEFAULT_MAX_WORKERS`; `SiteBuild.prepare_replays`); the site is the
    same whatever their number. Returns the finished build."""
    say = progress or (lambda line: None)
    started = time.monotonic()
    paths = default_inputs() if inputs is None else [Path(p) for p in inputs]
    for path in paths:
        if not path.exists():
            raise SiteError(f"input {path} does not exist")
        refuse_repeated(path)
    from evaluation.suite import site_inputs, site_pages

    suites, expanded = site_inputs.split_inputs(paths)
    shown = [_shown(p) for p in paths]
    site = IndexedBuild(output, inputs=shown, progress=progress, workers=workers)
    try:
        played = [p for p in expanded if play_runs(p)]  # a person's games: no benchmark takes them
        claimed: set[Path] = {s.path.resolve() for s in suites} | {p.resolve() for p in played}
        sections: dict[str, str] = {}
        for benchmark in benchmarks():
            if benchmark.site is None:
                continue
            before, clock, keys = site.page_count, time.monotonic(), set(site.sections)
            say(f"site: {benchmark.name}: looking for its inputs ...")
            used = benchmark.site([p for p in expanded if p not in played], site) or []
            claimed.update(Path(p).resolve() for p in used)
            added = [key for key in site.sections if key not in keys]
            if added:
                sections[benchmark.name] = f"{added[0]}/index.html"
            if used:
                say(
                    f"site: {benchmark.name}: {site.page_count - before} pages from {len(used)} "
                    f"input(s) ({time.monotonic() - clock:.1f} s)"
                )
        if suites:
            site_pages.add_pages(suites, site, sections)
            say(f"site: suite: pages for {len(suites)} suite run(s)")
        if played:
            before, clock = site.page_count, time.monotonic()
            add_play_pages(played, site)
            say(
                f"site: played games: {site.page_count - before} pages from {len(played)} "
                f"input(s) ({time.monotonic() - clock:.1f} s)"
            )
        unclaimed = [p for p in expanded if p.resolve() not in claimed]
        if unclaimed:
            raise SiteError(
                "no benchmark builds pages from "
                + ", ".join(str(p) for p in unclaimed)
                + ": give run directories (with a manifest.json naming their benchmark), suite run "
                "directories (arcade-eval suite), a NARCADE publication, the arena entries folder "
                "or `arcade-eval play` runs"
            )
        say(f"site: writing {site.page_count} pages to {output} ...")
        site.finish()
    finally:
        site.close()
    say(f"site: done in {time.monotonic() - started:.1f} s")
    return site


def _run(args: argparse.Namespace) -> int:
    try:
        site = build_site(args.output, args.inputs or None, progress_printer(args), args.jobs)
    except SiteError as error:
        print(f"arcade-eval site: {error}", file=sys.stderr)
        return 2
    index = Path(args.output) / "index.html"
    pages = sum(1 for p in Path(args.output).rglob("*.html"))
    print(f"wrote {pages} pages ({len(site.sections)} sections) to {args.output}")
    print(f"open {index}  (or: python -m http.server -d {args.output}, then http://localhost:8000)")
    return 0


def add_parser(subparsers: Any) -> None:
    """Add `arcade-eval site` to the command line."""
    parser = subparsers.add_parser(
        "site",
        help="build the static results site (leaderboards, policy pages, replays)",
        description="Build one static site (HTML, CSS, JS, JSON; opens from disk, no server) from "
        "run directories, suite run directories (`arcade-eval suite`: a policies x benchmarks "
        "matrix on the home page, a page per policy, paired comparisons), a NARCADE publication, "
        "the arena entries folder or games played with `arcade-eval play` (each gets a replay "
        "page); with no INPUT, from the official results shipped in docs/results/. Every "
        "replayed log is verified first.",
    )
    parser.add_argument("--output", "-o", required=True, metavar="DIR", help="where to write it")
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="run directories, suite run directories, play runs or folders of them "
        "(default: shipped)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=bounded_int(1, 256),
        default=None,
        metavar="N",
        help="processes replaying games (default: one per available core, at most 8; 1: all "
        "in this process); the site is the same whatever N",
    )
    add_quiet_option(
        parser,
        "progress lines (one per benchmark's pages, a count of the games replayed every 10 s, "
        "then the writing)",
    )
    parser.set_defaults(handler=_run)
