"""A UCI engine for tests, run as a script: it speaks enough UCI for python-chess, starts a
detached helper (a session of its own, so neither its process group nor its session holds it)
and can crash.

Environment: `FAKE_UCI_PIDS` a file that gets "ENGINE_PID HELPER_PID" appended; `FAKE_UCI_CRASH_AT`
the `go` on which it kills itself with SIGSEGV (1: the first; 0: never); `FAKE_UCI_HANG` set: it
never answers a `go`; `FAKE_UCI_BESTMOVE` a move to answer every `go` with (default: the first
legal move).

`wrapper(tmp_path)` writes an executable that runs it (an engine is started by path, as
`ARCADE_STOCKFISH` names one).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

OPTIONS = (
    "option name Threads type spin default 1 min 1 max 512",
    "option name Hash type spin default 16 min 1 max 33554432",
    "option name MultiPV type spin default 1 min 1 max 500",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1320 min 1320 max 3190",
    "option name UCI_Chess960 type check default false",
)


def wrapper(tmp_path: Path) -> Path:
    """An executable file that runs this script with this interpreter."""
    path = tmp_path / "fake-engine"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{Path(__file__).resolve()}" "$@"\n')
    path.chmod(0o755)
    return path


def _board(words: list[str]) -> object:
    import chess

    moves = words.index("moves") if "moves" in words else len(words)
    fen = " ".join(words[2:moves]) if len(words) > 1 and words[1] == "fen" else chess.STARTING_FEN
    board = chess.Board(fen)
    for uci in words[moves + 1 :]:
        board.push_uci(uci)
    return board


def main() -> None:
    helper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)"],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pids = os.environ.get("FAKE_UCI_PIDS")
    if pids:
        with open(pids, "a") as handle:
            handle.write(f"{os.getpid()} {helper.pid}\n")
    crash_at = int(os.environ.get("FAKE_UCI_CRASH_AT", "1"))
    answer = os.environ.get("FAKE_UCI_BESTMOVE")
    board = _board(["position", "startpos"])
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name fake-uci", *OPTIONS, "uciok", sep="\n")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "position":
            board = _board(words)
        elif words[0] == "go":
            goes += 1
            if goes == crash_at:
                sys.stdout.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            if os.environ.get("FAKE_UCI_HANG"):
                continue
            move = answer or next(iter(board.legal_moves)).uci()  # type: ignore[attr-defined]
            print(f"info depth 1 multipv 1 score cp 0 pv {move}")
            print(f"bestmove {move}")
        elif words[0] == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
