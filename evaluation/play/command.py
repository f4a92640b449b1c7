"""`arcade-eval play GAME`: the sub-command (options, the run directory, the curses session).

The game is written into a run directory (`evaluation/core/rundir.py`) as a one-game run of the
benchmark that records it: `manifest.json`, `logs/human/<seed>.jsonl` and, once the game is
finished and its log verifies, `results/human/<seed>.json`. `arcade-eval verify DIR` replays it.
Exit status: 0 a finished game whose log verifies, 1 a log that does not verify (a bug), 2 a bad
request, 130 a game quit or interrupted (its log ends `interrupted`).
"""

from __future__ import annotations

import argparse
import contextlib
import curses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluation.play.games import GAMES, OPTIONS, PlayError, Setup

if TYPE_CHECKING:
    from evaluation.core.rundir import GameFiles, RunDir

INTERRUPTED = 130
GAME_OPTIONS = frozenset().union(*OPTIONS.values())
"""Options some games take (`games.OPTIONS` says which)."""


def add_parser(sub: Any) -> None:
    """The `play` sub-command."""
    play = sub.add_parser(
        "play",
        help="play a game yourself in the terminal; the game is a log `verify` accepts",
        description="A person plays with the keyboard (curses) on the benchmark's own engine and "
        "protocol; keystrokes are the answers, recorded as the benchmark records any policy's. "
        "Press ? in the game for the keys, q to quit (a quit game is recorded as interrupted).",
    )
    play.add_argument("game", choices=list(GAMES), help="what to play")
    play.add_argument(
        "--seed",
        help="the benchmark's seed: a Tetris Bench seed name (default seed-01), a NARCADE "
        "episode seed (default 100), a Sudoku grid id (default the first), the arena suite "
        "seed, or a Chess960 start index",
    )
    play.add_argument(
        "--difficulty", help="NARCADE: easy, medium (default) or hard; Sudoku: a tier 1-7"
    )
    play.add_argument("--mode", help="tetris: iq (default) or blitz (the piece falls meanwhile)")
    play.add_argument(
        "--max-pieces", type=int, help="tetris, tetris-primitive: end the game after N pieces"
    )
    play.add_argument("--size", type=int, help="tictactoe: 3 (default), 5 or 10")
    play.add_argument(
        "--opponent",
        help="tictactoe: a sparring partner (random, greedy, tactician (default), perfect) plays "
        "that match of the arena's suite; entry:ID (a shipped arena entry, e.g. entry:tactician) "
        "or bf:PATH (a Brainfuck file) plays a free match against that engine",
    )
    play.add_argument("--mark", help="tictactoe: X (default, moves first) or O")
    play.add_argument("--rung", help="chess: the ladder rung, 1 (weakest, default) up, or its name")
    play.add_argument("--colour", help="chess: white (default) or black")
    play.add_argument("--variant", help="chess: standard (default) or chess960")
    play.add_argument(
        "--output-dir",
        metavar="DIR",
        help="where the game is written (default: a new runs/play-<game>-<UTC time>)",
    )
    play.set_defaults(handler=cmd_play)


def _check_options(args: argparse.Namespace) -> None:
    """Refuse an option the chosen game does not take (naming both)."""
    for name in sorted(GAME_OPTIONS - OPTIONS[args.game]):
        if getattr(args, name) is not None:
            raise PlayError(f"--{name.replace('_', '-')} does not apply to {args.game}")


def cmd_play(args: argparse.Namespace) -> int:
    """Set the game up, play it in curses, verify its log and say where it is."""
    from evaluation.core.run_exit import default_output_dir
    from evaluation.core.rundir import RunDir, RunDirError

    try:
        _check_options(args)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise PlayError("a game is played in a terminal (stdin and stdout are not one)")
        setup = GAMES[args.game](args)
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
        interrupted = curses.wrapper(_session, setup, files.log)
    finally:
        setup.close()
    return _finish(run_dir, files, interrupted)


def _session(window: curses.window, setup: Setup, log: Path) -> bool:
    """Play in the curses window; whether the game was quit or interrupted."""
    from evaluation.play.human import Human
    from evaluation.play.screen import Screen, View

    screen = Screen(window)
    human = Human(setup.keys, screen, [f"log {log}"])
    screen.show(View([f"{setup.keys.title}: starting ..."]))
    try:
        setup.play(human, log)
    except KeyboardInterrupt:
        return True
    from evaluation.core.eventlog import read_log

    result = read_log(log).result or {}
    summary = ", ".join(f"{k} {v}" for k, v in result.items() if k != "type" and _short(v))
    screen.show(
        View(
            [
                f"{setup.keys.title}: game over",
                "",
                summary,
                "",
                f"log {log}",
                "press any key",
            ]
        )
    )
    with contextlib.suppress(KeyboardInterrupt):
        screen.key()
    return False


def _short(value: object) -> bool:
    return isinstance(value, int | float | str | bool) and len(str(value)) <= 40


def _finish(run_dir: RunDir, files: GameFiles, interrupted: bool) -> int:
    """Verify the log, record the game in the run directory, and say where it is."""
    from evaluation.core.verify import verify_log

    if not files.log.exists():  # quit before the first question: nothing was played
        run_dir.write_manifest("interrupted", [files.key], [])
        print(f"quit before the game started; nothing was recorded in {run_dir.path}")
        return INTERRUPTED
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
