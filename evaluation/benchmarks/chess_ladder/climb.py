"""One policy's climb of one variant (`schedule.py`): each scheduled game kept from an earlier
run or played now, then graded and written out (result, PGN). A climb is one executor task
(`runner.py`): its games depend on each other's results, climbs do not.

A kept game must be the game the schedule asks for now: one played with another colour or start
(a run made before colours alternated over the climb) is set aside and played again. A kept game
whose result does not record what graded it (`gradedBy`, added after the first runs) is graded
again at the run's node budget, so every report can name the engine version and nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess

from arcade_gym.chess.contract import legal_uci
from arcade_gym.chess.positions import start_board
from evaluation.benchmarks.chess_ladder.calibrate import stockfish_spec
from evaluation.benchmarks.chess_ladder.episode import LiveSide, play_ladder_game, settings_of
from evaluation.benchmarks.chess_ladder.grading import Grader, MoveGrade
from evaluation.benchmarks.chess_ladder.ladder import (
    Ladder,
    chess960_starts,
    load_ladder,
    rung_policy,
)
from evaluation.benchmarks.chess_ladder.pgn import game_pgn, pgn_date
from evaluation.benchmarks.chess_ladder.schedule import PlayedGame, ScheduledGame, next_game
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.rundir import (
    GameFiles,
    RunDir,
    inside_root,
    safe_name,
    set_aside,
    write_text_atomic,
)
from evaluation.core.verify import verify_log
from policies.engines.uci import EngineFailedError, UciEngine, parse_uci_spec


def agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    fields = [key for key in logged if key != "type"]
    return "endReason" in fields and all(saved.get(key) == logged[key] for key in fields)


def off_schedule(saved: Mapping[str, Any], game: ScheduledGame) -> str | None:
    """Why a kept game is not the game the schedule now asks for (another colour or Chess960
    start: a run made before colours alternated over the climb), or None."""
    colour, start = saved.get("modelColour"), saved.get("startIndex")
    if colour == game.colour and start == game.start:
        return None
    return (
        f"it was played as {colour} from start {start}, the schedule asks for {game.colour} "
        f"from start {game.start}"
    )


@dataclass(frozen=True)
class Climb:
    """One policy's climb of one variant: its games depend on each other's results, climbs do
    not (the schedule of a variant reads only that variant's games), so an executor may play
    climbs side by side. Plain data and top-level callables: it travels to Ray workers."""

    spec: str
    variant: str
    make_policy: Callable[[str], Any]
    run_dir: RunDir
    games_per_rung: int
    grade_nodes: int
    timeout_ms: float | None
    report: Callable[[tuple[str, ...], dict[str, Any] | None, ScheduledGame, bool], None] | None
    shared: Mapping[str, Any] | None = None
    """The driver's policy instances, when the climbs run one after another in its process (no
    second build, no second pre-flight call); else each climb builds and closes its own."""
    say: Callable[[str], None] = print


@dataclass
class Climbed:
    """What a climb played (in schedule order; `new`: played now, not kept from before), and
    why it stopped early, if it did."""

    games: list[tuple[tuple[str, ...], dict[str, Any], ScheduledGame, bool]]
    aborted: str | None = None
    aborted_key: tuple[str, ...] | None = None


def play_climb(climb: Climb) -> Climbed:
    """Play one climb into the run directory, keeping the games an earlier run finished. Its
    own policy instance, judge and grader (engine processes are not shared between climbs)."""
    ladder = load_ladder()
    starts = chess960_starts()
    rungs = [r.name for r in ladder.rungs]
    policy = climb.shared[climb.spec] if climb.shared else climb.make_policy(climb.spec)
    judge = UciEngine(parse_uci_spec(stockfish_spec(None)))
    grader = Grader(climb.grade_nodes)
    out = Climbed(games=[])
    played: list[PlayedGame] = []
    run_dir = climb.run_dir
    try:
        while (
            game := next_game(rungs, [climb.variant], climb.games_per_rung, played, starts)
        ) is not None:
            key = (climb.spec, game.variant, game.rung, f"game-{game.index}")
            files = run_dir.game(*key)
            saved = run_dir.finished(files, agrees, verify_log, climb.say)
            if saved is not None and (off := off_schedule(saved, game)) is not None:
                for path in (files.result, files.log):
                    set_aside(path, "off-schedule")
                climb.say(f"set aside the files of {'/'.join(key)}: {off}; it is played again")
                saved = None
            new = saved is None
            if saved is not None and "gradedBy" not in saved:
                saved = regrade(run_dir, files, key, saved, game, grader, climb.say)
            if saved is None:
                if climb.report is not None:
                    climb.report(key, None, game, True)
                try:
                    saved = play_game(
                        policy, climb.spec, game, ladder, judge, grader, files.log, climb.timeout_ms
                    )
                except GameAbortedError as abort:
                    run_dir.abandon(files, "aborted")
                    out.aborted, out.aborted_key = f"{'/'.join(key)}: {abort.reason}", key
                    break  # the schedule needs this game's result: finish on resume
                except (RunStoppedError, KeyboardInterrupt):
                    run_dir.abandon(files, "interrupted")
                    raise
                run_dir.save_result(files, saved)
                write_pgn(run_dir.path, key, saved, climb.spec, game)
            out.games.append((key, saved, game, new))
            if climb.report is not None:
                climb.report(key, saved, game, new)
            played.append(PlayedGame(game.variant, game.rung, float(saved["score"])))
    finally:
        judge.close()
        grader.close()
        close = getattr(policy, "close", None)
        if not climb.shared and callable(close):
            close()
    return out


def play_game(
    policy: Any,
    spec: str,
    game: ScheduledGame,
    ladder: Ladder,
    judge: UciEngine,
    grader: Grader,
    log: Path,
    timeout_ms: float | None,
) -> dict[str, Any]:
    """Play one game, then grade the model's moves (after the game: the rung's clock is never
    delayed). `GameAbortedError` when the rung, the judge or the grader fails (engines crash:
    a failure on our side, the game is set aside and played again on resume)."""
    rung = ladder.rung(game.rung)
    board = start_board(game.variant, game.start)
    settings = settings_of(
        game.variant,
        rung.name,
        rung.rating,
        board.fen(),
        game.start,
        game.colour,
        timeout_ms,
        ladder.version,
    )
    seed = f"{spec}|{game.variant}|{game.rung}|{game.index}"
    opponent = rung_policy(rung, ladder, seed)
    try:
        saved = play_ladder_game(
            policy, LiveSide(opponent, judge, game.variant), settings, log, seed=seed
        )
    finally:
        close = getattr(opponent, "close", None)
        if callable(close):
            close()
    end_game = getattr(policy, "end_game", None)
    if callable(end_game):
        end_game()
    try:
        graded = grade(saved, game, grader)
    except EngineFailedError as failed:
        raise GameAbortedError(f"the grader failed: {failed}", int(saved["requests"])) from None
    return {
        **saved,
        "rung": rung.name,
        "rungRating": rung.rating,
        "startIndex": game.start,
        **graded,
    }


def grade(saved: Mapping[str, Any], game: ScheduledGame, grader: Grader) -> dict[str, Any]:
    """The model's moves of a played game graded (`grades`), and what graded them (`gradedBy`:
    the engine's version and the node budget). EngineFailedError when the grader fails."""
    start = chess.Board(saved["startFen"], chess960=game.variant == "chess960")
    board, moves = start.copy(), []
    for uci in saved["moves"]:
        moves.append(legal_uci(board, uci))
        board.push(moves[-1])
    grades = grader.grade_game(start, moves, game.colour == "white")
    return {"grades": [g.to_dict() for g in grades], "gradedBy": grader.identity()}


def regrade(
    run_dir: RunDir,
    files: GameFiles,
    key: tuple[str, ...],
    saved: dict[str, Any],
    game: ScheduledGame,
    grader: Grader,
    say: Callable[[str], None],
) -> dict[str, Any]:
    """A kept game graded before results recorded what graded them, graded again now (at the
    run's node budget, so the engine's version is known; the game itself is not replayed) and
    saved with its PGN. If the grader fails, the result is kept as it was."""
    try:
        regraded = {**saved, **grade(saved, game, grader)}
    except EngineFailedError as failed:
        say(f"{'/'.join(key)}: kept without regrading (the grader failed: {failed})")
        return saved
    run_dir.save_result(files, regraded)
    write_pgn(run_dir.path, key, regraded, key[0], game)
    return regraded


def write_pgn(
    root: Path, key: tuple[str, ...], saved: Mapping[str, Any], spec: str, game: ScheduledGame
) -> None:
    grades = {g["ply"]: MoveGrade.from_dict(g) for g in saved.get("grades", [])}
    white, black = (spec, game.rung) if game.colour == "white" else (game.rung, spec)
    text = game_pgn(
        start_fen=saved["startFen"],
        variant=game.variant,
        moves_uci=saved["moves"],
        white=white,
        black=black,
        result=saved["result"],
        termination=saved["endReason"],
        adjudicated=bool(saved["adjudicated"]),
        grades=grades,
        round_=f"{game.variant} {game.rung} {game.index + 1}",
        forfeit_note="Forfeit: three rejected tries for one move."
        if saved["endReason"] == "forfeit"
        else None,
        date=pgn_date(saved.get("startedAt")),
    )
    path = root.joinpath("pgn", *(safe_name(p) for p in key[:-1]), f"{safe_name(key[-1])}.pgn")
    inside_root(root, path)
    write_text_atomic(path, text)
