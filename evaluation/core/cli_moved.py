"""Commands that moved under their benchmark (`arcade-eval probe` -> `arcade-eval tetris-bench
probe`): the old spelling stays a hidden sub-command that parses and runs exactly as the new one
and says its new form on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

Handler = Callable[[argparse.Namespace], int]


def moved_note(old: str, new: str) -> str:
    """The one line an old spelling prints before it runs."""
    return f"`arcade-eval {old}` is now `arcade-eval {new}`"


def add_moved_parser(
    subparsers: Any,
    old: str,
    new: str,
    build: Callable[[argparse.ArgumentParser], None],
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """A hidden `arcade-eval OLD` (no `help=`, so `arcade-eval --help` does not list it) whose
    arguments `build` adds as it does for `arcade-eval NEW`; its handler prints `moved_note`
    on stderr, then runs NEW's handler."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        old, prog=f"arcade-eval {new}", **kwargs
    )
    build(parser)
    handler: Handler | None = parser.get_default("handler")
    if handler is None:
        raise ValueError(f"`{new}` sets no handler")  # a bug in the command's builder

    def run(args: argparse.Namespace) -> int:
        print(moved_note(old, new), file=sys.stderr, flush=True)
        return handler(args)

    run.__doc__ = handler.__doc__
    parser.set_defaults(handler=run)
    return parser
