"""What NARCADE adds to a run directory beside the core's files: the result file of each model and
game (`results/<model>/<game>.json`, `results.py:ResultFile`) and the manifest's own fields.

The manifest (`narcade-manifest@2`) holds the core's (`evaluation/core/rundir.py`: settings,
finished, missing, status) plus `format`, `startedAt`, `finishedAt`, `versions`, `hardware`,
`hardwareDetails` and a block per model: `status` (pending, running, complete, failed,
interrupted), `exitCode` (0, 1 or 130), `error`, `name`, `kind`, `revisions` and `files` (per
game). A result file is written for every model and game about to play (with the episodes kept
from an earlier run), rebuilt after each saved episode, and given its final status when the
game's episodes are all played or the run ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from evaluation.benchmarks.narcade.episode import POLICY_FAILURE
from evaluation.benchmarks.narcade.protocol import MANIFEST_FORMAT
from evaluation.benchmarks.narcade.results import (
    ResultFile,
    collect_model,
    hardware_info,
    result_path,
    versions,
)
from evaluation.benchmarks.narcade.settings import Settings
from evaluation.core import repeats
from evaluation.core.eventlog import utc_now_iso
from evaluation.core.grid import GridRun, Key
from evaluation.core.rundir import RunDir

EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130
Say = Callable[[str], None]


def episode_key(model: str, game: str, seed: int) -> Key:
    return (model, game, str(seed))


def failure_text(streak: int, game: str, episode: Mapping[str, Any]) -> str:
    """Why an episode that ended in `policy failure` failed its model."""
    return (
        f"{streak} consecutive timeouts/errors on {game} seed {episode['seed']} "
        f"({episode['timeouts']} timeouts, {episode['policyErrors']} errors)"
    )


class RunFiles:
    """The result files and manifest fields of one NARCADE run, kept by the driver."""

    def __init__(
        self,
        run_dir: RunDir,
        models: Sequence[str],
        settings: Settings,
        say: Say,
        *,
        repeats: int = 1,
    ) -> None:
        self.run_dir = run_dir
        self.repeats = repeats
        self.models = list(models)
        self.settings = settings
        self.say = say
        self.files: dict[tuple[str, str], ResultFile] = {}
        self.finished: set[Key] = set()
        self.extra: dict[str, Any] = {
            "format": MANIFEST_FORMAT,
            "startedAt": utc_now_iso(),
            "finishedAt": None,
            "versions": versions(),
            "hardware": settings.hardware,
            "hardwareDetails": hardware_info(),
            "models": {
                m: {
                    "status": "pending",
                    "exitCode": None,
                    "error": None,
                    "revisions": {},
                    "files": {},
                }
                for m in models
            },
        }

    def keys(self, model: str, game: str) -> list[Key]:
        """The grid keys of a model's game: every seed, each repeat (`--repeats`)."""
        keys = [episode_key(model, game, seed) for seed in self.settings.seeds]
        return repeats.expand(keys, self.repeats)

    def manifest(self) -> Mapping[str, Any]:
        """NARCADE's fields of the manifest (`play_grid` adds them to every write)."""
        return self.extra

    # -- as the grid plays ---------------------------------------------------------------------

    def start(self, grid: GridRun) -> None:
        """Write the result file of every game about to play, holding its kept episodes."""
        for model in self.models:
            self.extra["models"][model]["status"] = "running"
            for game in self.settings.games:
                kept = [k for k in self.keys(model, game) if k in grid.finished]
                if not kept and model in grid.stopped:
                    continue  # a failed model's games that never played get no file
                current = self._file(model, game)
                for key in kept:
                    self._add(current, grid.finished[key])
                    self.finished.add(key)
                current.write()

    def saved(self, key: Key, saved: Mapping[str, Any]) -> None:
        """Rebuild the game's result file with a newly saved episode, and say how it went."""
        model, game, seed = key[:3]
        current = self._file(model, game)
        self._add(current, saved)
        self.finished.add(key)
        played = f"seed {seed}" + (f" {key[3]}" if len(key) > 3 else "")
        self.say(
            f"{model} {game} {played}: score {saved['score']} ({saved['endReason']}), "
            f"{saved['decisions']} decisions, {saved['invalidActions']} invalid, "
            f"{saved['timeouts']} timeouts, {saved['policyErrors']} errors"
        )
        if saved["endReason"] == POLICY_FAILURE:
            error = failure_text(self.settings.failure_streak, game, saved)
            current.finish("failed", error)
            self.say(f"{model}: FAILED ({error}); its remaining episodes are skipped")
        elif all(k in self.finished for k in self.keys(model, game)):
            current.finish("complete")
            self._settle_if_complete(model)

    # -- when the run ends ---------------------------------------------------------------------

    def finish(self, grid: GridRun, crashed: Mapping[str, int]) -> dict[str, int]:
        """Give every result file and model its final status; the models' exit codes."""
        codes: dict[str, int] = {}
        if grid.stop_reason is not None:
            self.say(f"the run stops ({grid.stop_reason}); resumable")
        for key, why in grid.aborted_games.items():
            self.say(f"{' '.join(key)}: aborted, not counted ({why})")
        for model in self.models:
            statuses = []
            for game in self.settings.games:
                status, error = self._final(grid, crashed, model, game)
                statuses.append(status)
                current = self.files.get((model, game))
                if current is not None:
                    current.finish(status, error)
            stop = grid.stopped.get(model)
            if stop is not None and self._failure(model, stop.key[1]) is None:
                self.say(f"{model} {stop.key[1]}: FAILED, {stop.reason}")
            if "failed" in statuses or model in crashed:
                code = EXIT_FAILED
            elif "interrupted" in statuses:
                code = EXIT_INTERRUPTED
            else:
                code = EXIT_FAILED if "aborted" in statuses else EXIT_OK
            codes[model] = code
            self._settle(model, code, crashed.get(model))
        self.extra["finishedAt"] = utc_now_iso()
        return codes

    def _final(
        self, grid: GridRun, crashed: Mapping[str, int], model: str, game: str
    ) -> tuple[str, str | None]:
        keys = self.keys(model, game)
        stop = grid.stopped.get(model)
        failure = self._failure(model, game)
        aborted = sum(1 for key in keys if key in grid.aborted_games)
        if failure is not None:
            return "failed", failure_text(self.settings.failure_streak, game, failure)
        if stop is not None and stop.key[1] == game:
            return "failed", stop.reason
        if all(key in grid.finished for key in keys):
            return "complete", None
        if model in crashed:
            return "failed", f"the model's process exited with code {crashed[model]}"
        if aborted:
            return "aborted", (
                f"{aborted} episodes aborted by failures on our side; resume to play them"
            )
        if grid.interrupted:
            why = grid.stop_reason
            return "interrupted", "interrupted (Ctrl-C)" if why is None else f"stopped: {why}"
        if stop is not None:
            return "failed", f"not played: the model failed on {stop.key[1]}"
        return "failed", "not played"

    def _failure(self, model: str, game: str) -> dict[str, Any] | None:
        current = self.files.get((model, game))
        episodes = [] if current is None else current.data["episodes"]
        return next((e for e in episodes if e.get("endReason") == POLICY_FAILURE), None)

    def _file(self, model: str, game: str) -> ResultFile:
        if (model, game) not in self.files:
            settings = self.settings
            self.files[(model, game)] = ResultFile(
                result_path(self.run_dir.path, model, game),
                model=model,
                game=game,
                game_mode=settings.game_mode(game),
                seeds=settings.seeds,
                settings=settings.to_dict(),
                hardware=settings.hardware,
            )
        return self.files[(model, game)]

    @staticmethod
    def _add(current: ResultFile, saved: Mapping[str, Any]) -> None:
        entry = dict(saved)
        identity = entry.pop("policy", None)
        if identity:
            current.set_model(identity)
        current.add(entry)

    def _settle_if_complete(self, model: str) -> None:
        games = self.settings.games
        if all(k in self.finished for g in games for k in self.keys(model, g)):
            self._settle(model, EXIT_OK, None)

    def _settle(self, model: str, code: int, crashed: int | None) -> None:
        """The model's manifest block from its result files and exit code."""
        entry = collect_model(self.run_dir.path, model, self.settings.games)
        status = {EXIT_OK: "complete", EXIT_INTERRUPTED: "interrupted"}.get(code, "failed")
        block = self.extra["models"][model]
        block.update(
            {
                "status": status,
                "exitCode": code,
                "error": entry["error"],
                "name": entry["name"],
                "kind": entry.get("kind"),
                "revisions": entry["revisions"],
                "files": entry["files"],
            }
        )
        if code == EXIT_FAILED and entry["error"] is None:
            block["error"] = f"the model's process exited with code {crashed}"
