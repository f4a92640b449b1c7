"""`arcade-eval play GAME`: the sub-command (options, the run directory, the curses session).

The game is written into a run directory (`evaluation/core/rundir.py`) as a one-game run of the
benchmark that records it: `manifest.json`, `logs/human/<seed>.jsonl` and, once the game is
finished and its log verifies, `results/human/<seed>.json`. `arcade-eval verify DIR` replays
every such game, a game played on its env directly (no benchmark records it) as well.
Exit status: 0 a finished game whose log verifies, 1 a log that does not verify (a bug) or a game
aborted by a failure on our side (one line with the reason; its log ends `aborted`), 2 a bad
request, 130 a game quit or interrupted (its log ends `interrupted`).
"""

from __future__ import annotations

import argparse
import contextlib
import curses
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluation.play.catalogue import flags, play_setups
from evaluation.play.setups import PlayError, PlaySetup, Setup

if TYPE_CHECKING:
    from evaluation.core.rundir import GameFiles, RunDir

INTERRUPTED = 130


@dataclass(frozen=True)
class Ended:
    """How a game ended early: `interrupted` (quit, Ctrl-C) or `aborted` (a failure on our
    side, such as an opponent engine that crashed: `reason` says which)."""

    kind: str
    reason: str = ""


def add_parser(sub: Any) -> None:
    """The `play` sub-command: its games and flags are the registered setups'
    (`evaluation/play/catalogue.py`)."""
    setups = play_setups()
    play = sub.add_parser(
        "play",
        help="play a game yourself in the terminal; the game is a log `verify` accepts",
        description="A person plays with the keyboard (curses) on the benchmark's own engine and "
        "protocol; keystrokes are the answers, recorded as the benchmark records any policy's. "
        "Press ? in the game for the keys, q to quit (asks y/n; a quit game is recorded as "
        "interrupted). Board games count rows and columns from 1, labelled on screen.",
    )
    games = "; ".join(f"{name}: {setup.summary}" for name, setup in setups.items())
    play.add_argument("game", choices=list(setups), help=f"what to play ({games})")
    for flag in flags(setups.values()):
        play.add_argument(flag.flag, dest=flag.name, type=flag.type, help=flag.help)
    play.add_argument(
        "--output-dir",
        metavar="DIR",
        help="where the game is written (default: a new runs/play-<game>-<UTC time>)",
    )
    play.set_defaults(handler=cmd_play)


def _check_options(args: argparse.Namespace, setups: dict[str, PlaySetup]) -> None:
    """Refuse an option the chosen game does not take (naming both)."""
    takes = setups[args.game].option_names
    for flag in flags(setups.values()):
        if flag.name not in takes and getattr(args, flag.name, None) is not None:
            raise PlayError(f"{flag.flag} does not apply to {args.game}")


def _in_terminal() -> bool:
    """Whether stdin and stdout are a terminal (curses needs one)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def cmd_play(args: argparse.Namespace) -> int:
    """Set the game up, play it in curses, verify its log and say where it is."""
    from evaluation.core.run_exit import default_output_dir
    from evaluation.core.rundir import RunDir, RunDirError

    setups = play_setups()
    try:
        if args.game not in setups:
            raise PlayError(f"no game {args.game!r} to play; games: {', '.join(setups)}")
        _check_options(args, setups)
        if not _in_terminal():
            raise PlayError("a game is played in a terminal (stdin and stdout are not one)")
        setup = setups[args.game].setup(args)
    except PlayError as error:
        print(f"arcade-eval play: {error}", file=sys.stderr)
        return 2
    output = Path(args.output_dir) if args.output_dir else default_output_dir(f"play-{args.game}")
    settings = {"game": args.game, "seed": setup.seed, **setup.settings}
    run_dir = RunDir(output, setup.benchmark, settings)
    try:
        run_dir.prepare(resume=False)
    except RunDirError as error:
        setup.close()
        print(f"arcade-eval play: {error}", file=sys.stderr)
        return 2
    files = run_dir.game("human", setup.seed)
    run_dir.write_manifest("running", [files.key], [])
    try:
        ended = curses.wrapper(_session, setup, files.log)
    finally:
        setup.close()
    return _finish(run_dir, files, ended, setup)


def _session(window: curses.window, setup: Setup, log: Path) -> Ended | None:
    """Play in the curses window; None for a finished game, else how it ended early."""
    from evaluation.core.episode import GameAbortedError
    from evaluation.play.human import Human
    from evaluation.play.screen import Screen, View

    screen = Screen(window)
    human = Human(setup.keys, screen, [f"log {log}"])
    screen.show(View([f"{setup.keys.title}: starting ..."]))
    try:
        setup.play(human, log)
    except KeyboardInterrupt:
        return Ended("interrupted")
    except GameAbortedError as aborted:
        return Ended("aborted", aborted.reason)
    from evaluation.core.eventlog import read_log
    from evaluation.play.game_over import game_over_view

    result = read_log(log).result or {}
    board = None
    if human.last is not None:
        final = getattr(setup.keys, "final", None)  # the position after the last move, if known
        drawn = final(human.last, result) if final is not None else None
        if drawn is None:
            drawn = setup.keys.view(human.last)
            drawn = View([*drawn.lines, "(the board as at your last move)"], None, drawn.spans)
        board = View(drawn.lines, None, drawn.spans)
    screen.show(
        game_over_view(board, result, log, screen.width(), f"{setup.keys.title}: game over")
    )
    with contextlib.suppress(KeyboardInterrupt):
        screen.key()
    return None


def _finish(run_dir: RunDir, files: GameFiles, ended: Ended | None, setup: Setup) -> int:
    """Verify the log, record the game in the run directory, and say where it is."""
    from evaluation.core.verify import verify_log

    if not files.log.exists():  # quit before the first question: nothing was played
        run_dir.write_manifest("interrupted", [files.key], [])
        print(f"quit before the game started; nothing was recorded in {run_dir.path}")
        return INTERRUPTED
    if ended is not None and ended.kind == "aborted":
        run_dir.write_manifest("aborted", [files.key], [])
        print(
            f"arcade-eval play: the game was aborted: {ended.reason} (not counted; its log "
            f"ends `aborted`: {files.log})",
            file=sys.stderr,
        )
        return 1
    interrupted = ended is not None
    report = verify_log(files.log)
    finished = report.ok and not interrupted
    if finished:
        fields = {k: v for k, v in (report.result or {}).items() if k != "type"}
        run_dir.save_result(files, {**fields, "seed": (report.header or {}).get("seed")})
    status = "complete" if finished else "interrupted" if interrupted else "failed"
    run_dir.write_manifest(status, [files.key], [files.key] if finished else [])
    print(report.line())
    if interrupted:
        print(f"the game was quit: its log ends `interrupted` (not counted); {files.log}")
        return INTERRUPTED
    print(f"game written to {run_dir.path} (verify with: arcade-eval verify {run_dir.path})")
    return 0 if report.ok else 1
