"""`arcade_gym/chess`: the chess ladder as an Inspect task. The ladder's climb is adaptive (the next
rung depends on the last results), which a fixed dataset cannot be, so a sample is one scheduled
game against one fixed rung: `games_per_rung` games at each rung named (all by default), colours
alternating and Chess960 starts taken in pairs as the ladder takes them
(`evaluation/benchmarks/chess_ladder/schedule.py`). Each game is played, adjudicated and its
moves graded by the ladder's own code (`climb.py:play_game`; Stockfish needed). The value is the
model's score (1, 0.5, 0); the metrics are the mean and the ladder's rating fit against the
rungs' fixed ratings (`ratings.py:fit_rating`; NaN when every game was won or every game lost)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, Score, Scorer, Target, mean, metric, scorer
from inspect_ai.solver import TaskState

from evaluation.benchmarks.chess_ladder.calibrate import stockfish_spec
from evaluation.benchmarks.chess_ladder.climb import play_game as play_ladder_game
from evaluation.benchmarks.chess_ladder.grading import DEFAULT_GRADE_NODES, Grader
from evaluation.benchmarks.chess_ladder.ladder import chess960_starts, load_ladder
from evaluation.benchmarks.chess_ladder.ratings import fit_rating
from evaluation.benchmarks.chess_ladder.schedule import ScheduledGame
from evaluation.inspect_tasks.sample import Game, game_score, play_game, results, run_folder
from policies.engines.uci import UciEngine, parse_uci_spec

TASK = "chess"
VARIANTS = ("standard", "chess960")


@metric
def chess_rating() -> Metric:
    """The ladder's maximum-likelihood rating from the games against the rungs."""

    def compute(scores: list[Any]) -> float:
        games = [(float(r["rungRating"]), float(r["score"])) for r in results(scores)]
        fit = fit_rating(games)
        return math.nan if fit.rating is None else float(fit.rating)

    return compute


def _score(result: Mapping[str, Any]) -> tuple[float, str]:
    return float(result["score"]), f"{result.get('endReason')} vs {result.get('rung')}"


def schedule(
    variant: str, rungs: list[str], games_per_rung: int, starts: list[int]
) -> list[ScheduledGame]:
    """The games of the task, in the climb's order: colours alternate over all of them (white
    first) and Chess960 games 2k and 2k+1 start from the k-th shipped position."""
    out = []
    for n in range(len(rungs) * games_per_rung):
        rung = rungs[n // games_per_rung]
        start = starts[(n // 2) % len(starts)] if variant == "chess960" else None
        colour = "white" if n % 2 == 0 else "black"
        out.append(ScheduledGame(variant, rung, n % games_per_rung, colour, start))
    return out


def _game(games: Mapping[str, ScheduledGame], timeout_ms: float | None, grade_nodes: int) -> Game:
    ladder = load_ladder()

    def play(policy: Any, metadata: Mapping[str, Any], log: Path) -> Mapping[str, Any]:
        game = games[str(metadata["game"])]
        spec = f"inspect:{getattr(policy, 'inspect_model', policy)}"
        judge = UciEngine(parse_uci_spec(stockfish_spec(None)))
        grader = Grader(grade_nodes)
        try:
            return play_ladder_game(policy, spec, game, ladder, judge, grader, log, timeout_ms)
        finally:
            judge.close()
            grader.close()

    return Game(TASK, lambda metadata: "chess", play, _score)


@scorer(metrics=[mean(), chess_rating()])
def chess_scorer(game: Game) -> Scorer:
    """The model's score in the game (1 won, 0.5 drawn, 0 lost)."""

    async def score(state: TaskState, target: Target) -> Score:
        return game_score(game, state)

    return score


@task(name="chess")
def chess(
    variant: str = "standard",
    rungs: str | None = None,
    games_per_rung: int = 2,
    timeout_s: float | None = 600.0,
    grade_nodes: int = DEFAULT_GRADE_NODES,
    temperature: float | None = None,
    max_tokens: int | None = None,
    log_dir: str | None = None,
) -> Task:
    """`games_per_rung` games of `variant` against each of `rungs` (comma-separated names of the
    shipped ladder; default every rung); `timeout_s` is the safety net per answer (a timeout sets
    the game aside). `temperature`/`max_tokens` None: the eval's, else 0 and the benchmark's
    budget. Event logs go to a new folder under `log_dir` (default `arcade-inspect-logs`)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be standard or chess960, got {variant!r}")
    ladder = load_ladder()
    names = [r.name for r in ladder.rungs]
    wanted = names if rungs is None else [r.strip() for r in rungs.split(",") if r.strip()]
    unknown = [r for r in wanted if r not in names]
    if not wanted or unknown:
        raise ValueError(f"rungs must name rungs of the ladder ({', '.join(names)}), got {rungs!r}")
    if games_per_rung < 1:
        raise ValueError(f"games_per_rung must be at least 1, got {games_per_rung}")
    games = {
        f"{g.variant}-{g.rung}-game-{g.index}": g
        for g in schedule(variant, wanted, games_per_rung, chess960_starts())
    }
    samples = [
        Sample(
            input=f"chess ladder game: {g.variant}, as {g.colour} against {g.rung}",
            id=key,
            metadata={"game": key, "rung": g.rung, "colour": g.colour},
        )
        for key, g in games.items()
    ]
    timeout_ms = None if timeout_s is None else float(timeout_s) * 1000.0
    folder = run_folder(log_dir, TASK)
    game = _game(games, timeout_ms, int(grade_nodes))
    return Task(
        dataset=MemoryDataset(samples, name=f"chess-ladder-{ladder.version}"),
        solver=play_game(game, str(folder), temperature, max_tokens),
        scorer=chess_scorer(game),
        metadata={"benchmark": "chess-ladder", "eventLogs": str(folder)},
    )
