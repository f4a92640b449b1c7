"""`arcade-eval serve`: the results site and live benchmark runs, on 127.0.0.1 only."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evaluation.core.cli_options import add_quiet_option, progress_printer
from evaluation.core.errors import RunError
from evaluation.serve.offers import live_options

DESCRIPTION = (
    "Serve the static results site (the one `arcade-eval site` builds) and a live page, "
    "/live/, that starts benchmark runs and streams their progress to the browser with "
    "server-sent events. A run is the arcade-eval command the page shows (an arena entry's "
    "`ttt-arena bench`, a `suite` of a built-in policy) run as a child process, so it saves "
    "exactly what that command saves; one runs at a time, a few may wait. The server binds "
    "127.0.0.1 only, answers only requests addressed to it by that name or localhost (no DNS "
    "rebinding), and starts runs only for its own page (Origin check and a per-process token). "
    "Ctrl-C or SIGTERM stops it: runs are interrupted as Ctrl-C would, then their processes "
    "killed. Built on the standard library's http.server (no extra dependency)."
)


def add_parser(subparsers: Any) -> None:
    """Add `arcade-eval serve` to the command line (with each benchmark's live-run options)."""
    parser = subparsers.add_parser(
        "serve",
        help="the results site and live benchmark runs in the browser (127.0.0.1 only)",
        description=DESCRIPTION,
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8080,
        help="port on 127.0.0.1 (default 8080; 0 picks a free one, printed at start)",
    )
    parser.add_argument(
        "--site-dir",
        metavar="DIR",
        help="a site built by `arcade-eval site` to serve as it is; an absent or empty DIR is "
        "built first (default: build into a temporary folder, removed on stop)",
    )
    parser.add_argument(
        "--rebuild", action="store_true", help="rebuild --site-dir even if it holds a site"
    )
    parser.add_argument(
        "--site-input",
        action="append",
        default=[],
        metavar="INPUT",
        help="what the site is built from, as `arcade-eval site INPUT...` takes (repeatable; "
        "default: the shipped results)",
    )
    parser.add_argument(
        "--max-waiting",
        type=int,
        default=3,
        help="runs that may wait behind the running one (default 3)",
    )
    parser.add_argument(
        "--log-requests", action="store_true", help="print one line per request on stderr"
    )
    for option in live_options():
        parser.add_argument(
            f"--{option.name}",
            dest=f"live_{option.name.replace('-', '_')}",
            metavar=option.metavar,
            help=option.help,
        )
    add_quiet_option(parser, "site build progress lines")
    parser.set_defaults(handler=_run)


@contextlib.contextmanager
def prepared_site(args: argparse.Namespace) -> Iterator[Path]:
    """The root of the site to serve: `--site-dir` as it is when it holds a built site, else
    built (into `--site-dir`, or a temporary folder removed afterwards)."""
    from evaluation.site.build import MARKER, SiteError
    from evaluation.site.cli import build_site

    progress = progress_printer(args)
    inputs = args.site_input or None
    if args.site_dir is not None:
        root = Path(args.site_dir)
        if args.rebuild or not (root / MARKER).is_file():
            try:
                build_site(root, inputs, progress)
            except SiteError as error:
                raise RunError(f"--site-dir: {error}") from None
        elif inputs:
            raise RunError(
                f"{root} holds a built site: add --rebuild to build it from --site-input"
            )
        yield root
        return
    with tempfile.TemporaryDirectory(prefix="arcade-serve-site-") as scratch:
        root = Path(scratch) / "site"
        try:
            build_site(root, inputs, progress)
        except SiteError as error:
            raise RunError(error) from None
        yield root


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM stops the server as Ctrl-C does."""
    raise KeyboardInterrupt


def _run(args: argparse.Namespace) -> int:
    """SIGTERM is Ctrl-C from the start: the site build and the server stop alike (a site built
    into a temporary folder is removed either way)."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
    try:
        return _serve(args)
    except KeyboardInterrupt:
        print("arcade-eval serve: interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _stop(server: Any) -> None:
    """Stop the server with Ctrl-C and SIGTERM ignored meanwhile, so a second Ctrl-C cannot cut
    the stop short and leave a run behind (it takes at most the runs' grace, seconds)."""
    if threading.current_thread() is not threading.main_thread():
        server.stop()
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.stop()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _serve(args: argparse.Namespace) -> int:
    import arcade_gym
    from evaluation.serve.jobs import Runner
    from evaluation.serve.offers import live_runs
    from evaluation.serve.server import LiveServer

    options = {o.name: getattr(args, f"live_{o.name.replace('-', '_')}") for o in live_options()}
    try:
        if not 0 <= args.port <= 65535:
            raise RunError("--port must be from 0 to 65535 (0: a free one)")
        if not 0 <= args.max_waiting <= 100:
            raise RunError("--max-waiting must be from 0 to 100")
        runs = live_runs(options)
        with prepared_site(args) as root:
            runner = Runner(max_waiting=args.max_waiting, say=lambda line: print(line, flush=True))
            try:
                server = LiveServer(
                    root,
                    runs,
                    runner,
                    port=args.port,
                    version=arcade_gym.__version__,
                    log_requests=args.log_requests,
                )
            except OSError as error:
                runner.stop()
                raise RunError(
                    f"cannot listen on 127.0.0.1:{args.port} ({error.strerror or error}): "
                    "choose another --port"
                ) from None
            try:
                print(
                    f"serving {root} at {server.url} (live runs: {server.url}live/); Ctrl-C stops",
                    flush=True,
                )
                server.serve_forever()
            except KeyboardInterrupt:
                print("stopping: interrupting runs ...", flush=True)
            finally:
                _stop(server)
    except RunError as error:
        print(f"arcade-eval serve: {error}", file=sys.stderr)
        return 2
    print("stopped", flush=True)
    return 0
