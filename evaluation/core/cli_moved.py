"""Older spellings of `arcade-eval` that still work and say their new form on stderr, one line each.

Three kinds: a command that moved under its benchmark (`arcade-eval probe` -> `arcade-eval
tetris-bench probe`) stays a hidden sub-command that parses and runs exactly as the new one
(`add_moved_parser`); a renamed command (`tetris` -> `tetris-bench`) is an argparse alias, noted by
`arcade-eval`'s main; an older flag (`--no-progress` -> `--quiet`) is parsed by an action
(`moved_flag`) that leaves its note in the namespace. `main` prints the notes before it runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

Handler = Callable[[argparse.Namespace], int]


NOTES = "moved_notes"
"""The namespace attribute in which older spellings met while parsing leave their notes."""


def moved_note(old: str, new: str) -> str:
    """The one line an old spelling prints before it runs."""
    return f"`arcade-eval {old}` is now `arcade-eval {new}`"


def note_moved(namespace: argparse.Namespace, old: str, new: str) -> None:
    """Leave the note that `old` is now `new` in `namespace` (once however often it is met)."""
    notes: list[str] = list(getattr(namespace, NOTES, None) or [])
    line = moved_note(old, new)
    if line not in notes:
        notes.append(line)
    setattr(namespace, NOTES, notes)


def moved_notes(namespace: argparse.Namespace) -> list[str]:
    """The notes left while parsing, in the order the old spellings came."""
    return list(getattr(namespace, NOTES, None) or [])


def moved_flag(action: str, new: str | None, old: Sequence[str]) -> type[argparse.Action]:
    """An argparse action that does what the built-in `action` (`"append"`, `"store_true"`,
    ...) does and, when the option came under one of its `old` spellings, notes that it is now
    `new` (None: the option is the default now and can be dropped)."""
    base: type[argparse.Action] = argparse.ArgumentParser()._registry_get("action", action, None)
    if base is None:
        raise ValueError(f"no argparse action {action!r}")  # a bug in the caller
    return type("MovedFlag", (_Noting, base), {"olds": frozenset(old), "new": new})


class _Noting(argparse.Action):
    olds: frozenset[str] = frozenset()
    new: str | None = None

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if option_string in self.olds:
            command = parser.prog.removeprefix("arcade-eval").strip()
            new = command if self.new is None else f"{command} {self.new}".strip()
            note_moved(namespace, f"{command} {option_string}".strip(), new)
        super().__call__(parser, namespace, values, option_string)


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
