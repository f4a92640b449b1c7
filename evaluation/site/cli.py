"""`arcade-eval site`: build the static results site from run directories (default: the shipped
official results under `docs/results/`), one page set per benchmark that claims an input."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from evaluation.core.cli_options import add_quiet_option, progress_printer
from evaluation.core.registry import benchmarks
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.inputs import refuse_repeated, sub_folders

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
) -> SiteBuild:
    """Build the site into `output` from `inputs` (None: the shipped results); every input must
    be claimed by the `site` hook of a registered benchmark (importing `evaluation.benchmarks`
    registers them; `arcade-eval` does). `progress` gets one line per stage (each benchmark's
    pages, then the writing), since verifying every replayed log takes minutes. Returns the
    finished build."""
    say = progress or (lambda line: None)
    started = time.monotonic()
    paths = default_inputs() if inputs is None else [Path(p) for p in inputs]
    for path in paths:
        if not path.exists():
            raise SiteError(f"input {path} does not exist")
        refuse_repeated(path)
    site = SiteBuild(output, inputs=[_shown(p) for p in paths])
    claimed: set[Path] = set()
    for benchmark in benchmarks():
        if benchmark.site is None:
            continue
        before, clock = site.page_count, time.monotonic()
        say(f"site: {benchmark.name}: looking for its inputs ...")
        used = benchmark.site(list(paths), site) or []
        claimed.update(Path(p).resolve() for p in used)
        if used:
            say(
                f"site: {benchmark.name}: {site.page_count - before} pages from {len(used)} "
                f"input(s) ({time.monotonic() - clock:.1f} s)"
            )
    unclaimed = [p for p in paths if p.resolve() not in claimed]
    if unclaimed:
        raise SiteError(
            "no benchmark builds pages from "
            + ", ".join(str(p) for p in unclaimed)
            + ": give run directories (with a manifest.json naming their benchmark), a NARCADE "
            "publication or the arena entries folder"
        )
    say(f"site: writing {site.page_count} pages to {output} ...")
    site.finish()
    say(f"site: done in {time.monotonic() - started:.1f} s")
    return site


def _run(args: argparse.Namespace) -> int:
    try:
        site = build_site(args.output, args.inputs or None, progress_printer(args))
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
        "run directories, a NARCADE publication or the arena entries folder; with no INPUT, from "
        "the official results shipped in docs/results/. Every replayed log is verified first.",
    )
    parser.add_argument("--output", "-o", required=True, metavar="DIR", help="where to write it")
    parser.add_argument(
        "inputs", nargs="*", metavar="INPUT", help="run directories (default: shipped)"
    )
    add_quiet_option(parser, "progress lines (one per benchmark's pages, then the writing)")
    parser.set_defaults(handler=_run)
