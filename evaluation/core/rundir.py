"""One run directory for every benchmark: refusal, resume, set-aside, atomic writes, manifest.

    manifest.json                 what the run is (benchmark, settings), what is finished, missing
    logs/<part>/.../<last>.jsonl  one event log per game (`arcade-eval verify` replays them)
    results/<part>/.../<last>.json one result per finished game (or the benchmark's own files)

Every name that comes from a user (policy, seed, game, label) becomes a path component through
`safe_name`, so nothing is ever written outside the directory. A directory holding another run
(different settings) or anything else is refused, naming the difference. On resume a game counts
as finished only when its log verifies and its result file agrees with the log; anything else
(a cut-off log, a planted or unreadable result) is set aside under a new name, never deleted or
overwritten, and the game is played again.

A run directory may come from elsewhere: it is read only through links that stay inside it
(`inside_root`; `logs/` linked to another folder is refused in one line naming it), its JSON
within bounds (`evaluation/core/untrusted_json.py`), and every file is written by atomic replace
(`write_text_atomic`), which replaces a link in its place instead of writing through it.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.core.errors import RunError
from evaluation.core.eventlog import utc_now_iso
from evaluation.core.repeats import check_repeats
from evaluation.core.untrusted_json import read_json

MANIFEST = "manifest.json"
LOCK = ".arcade-eval.lock"
"""Holds the pid of the process writing the directory (see `RunDir._check_lock`)."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_NAME = 80


class RunDirError(RunError):
    """A user error about the output directory (another run's settings, a changed policy
    setting, a link leaving it): one clear line that names the fix. A `RunError`, so every
    command that catches those says it in one line and exits 2, never in a traceback."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _release(lock: Path, pid: int) -> None:
    """Remove the lock at exit if it is still ours."""
    try:
        if lock.read_text(encoding="utf-8").strip() == str(pid):
            lock.unlink()
    except OSError:
        pass


def safe_name(name: object) -> str:
    """`name` as one safe path component: letters, digits, `.`, `_` and `-` only, never empty,
    `.` or `..`, never hidden. A name that had to change gets a short hash of the original, so two
    different names never share a file."""
    text = str(name)
    cleaned = _UNSAFE.sub("_", text).lstrip(".-") or "_"
    if cleaned != text or len(cleaned) > _MAX_NAME:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=3).hexdigest()
        cleaned = f"{cleaned[: _MAX_NAME - 7]}-{digest}"
    return cleaned


def inside_root(root: str | Path, path: str | Path) -> Path:
    """`path` resolved, once it is known to stay inside `root`: every symbolic link on the way
    from `root` down to `path` must point inside `root` (the link named otherwise), and `path`
    itself must lie below `root`. Files a user hands us (run directories, entries, site inputs)
    are read through this, so a planted link cannot make us read, publish or overwrite a file
    elsewhere. `RunDirError` (one line naming the link) when it would escape."""
    root_path = Path(root)
    try:
        real_root = root_path.resolve()
        whole = Path(os.path.abspath(path))
        below = whole.relative_to(os.path.abspath(root_path))
    except ValueError:
        raise RunDirError(f"{path} is outside {root}; give a path inside it") from None
    except (OSError, RuntimeError) as exc:
        raise RunDirError(f"cannot resolve {root} ({exc})") from None
    current, shown = Path(os.path.abspath(root_path)), root_path
    for part in below.parts:
        current, shown = current / part, shown / part
        if not current.is_symlink():
            continue
        try:
            target = current.resolve()
        except (OSError, RuntimeError):
            raise RunDirError(
                f"{shown} is a symbolic link that loops; replace it with a real file or folder"
            ) from None
        if not target.is_relative_to(real_root):
            raise RunDirError(
                f"{shown} is a symbolic link to {target}, outside {root}; links that leave "
                "it are not followed: replace it with a real file or folder"
            )
    try:
        final = whole.resolve()
    except (OSError, RuntimeError) as exc:
        raise RunDirError(f"cannot resolve {path} ({exc})") from None
    if not final.is_relative_to(real_root):
        raise RunDirError(f"{path} leads outside {root}; give a path inside it")
    return final


def write_text_atomic(path: str | Path, text: str, *, fsync: bool = False) -> None:
    """Write `text` (UTF-8) to `path` by `write_bytes_atomic`."""
    write_bytes_atomic(path, text.encode("utf-8"), fsync=fsync)


def write_bytes_atomic(path: str | Path, data: bytes, *, fsync: bool = False) -> None:
    """Write `data` to `path` so that a reader or a crash never sees half a file, and never
    through an existing link: a temporary file is created beside it (exclusively, not following
    links), then renamed over `path`, which replaces a link rather than the file it points to.
    `fsync` also flushes it to the disk first (for files a crash must not lose)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    tmp = path
    try:
        while True:
            tmp = path.with_name(f".{path.name[:100]}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(tmp, flags, 0o666)
                break
            except FileExistsError:
                continue
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                if fsync:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        if exc.filename is None or str(exc.filename) == str(tmp):
            raise OSError(exc.errno, exc.strerror, str(path)) from exc  # name the file we write
        raise


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON so a reader (or a crash) never sees half a file (`write_text_atomic`)."""
    write_text_atomic(path, json.dumps(data, indent=1, allow_nan=False) + "\n")


def set_aside(path: Path, why: str = "set-aside") -> Path | None:
    """Rename `path` to `<name>.<why>-N` (the first free N); never deletes anything."""
    if not path.exists():
        return None
    n = 1
    while (aside := path.with_name(f"{path.name}.{why}-{n}")).exists():
        n += 1
    path.rename(aside)
    return aside


def _differences(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> list[str]:
    out: list[str] = []
    for key in dict.fromkeys([*old, *new]):
        a, b = old.get(key), new.get(key)
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            out.extend(_differences(a, b, f"{prefix}{key}."))
        elif a != b:
            out.append(f"{prefix}{key} {a!r} -> {b!r}")
    return out


@dataclass(frozen=True)
class GameFiles:
    """Where one game's log and result live."""

    key: tuple[str, ...]
    log: Path
    result: Path


class RunDir:
    """The output directory of one run of `benchmark` with `settings` (what makes runs
    comparable: a resume must match them exactly), each game played `repeats` times
    (`evaluation/core/repeats.py`; more than one is recorded in the settings as `repeats`)."""

    def __init__(
        self, path: str | Path, benchmark: str, settings: Mapping[str, Any], *, repeats: int = 1
    ) -> None:
        self.path = Path(path)
        self.benchmark = benchmark
        self.repeats = check_repeats(repeats)
        more = {"repeats": repeats} if repeats > 1 else {}
        self.settings = json.loads(json.dumps({**settings, **more}))  # as it reads back from disk
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._policies: dict[str, Any] = {}
        self.earlier: dict[str, Any] = {}
        self._meter: Any = None

    # -- opening -----------------------------------------------------------------------------

    def prepare(self, *, resume: bool | None = None) -> bool:
        """Check the directory and create it; returns whether an earlier run is resumed.

        `resume=None`: the same run resumes, anything else is refused; `False`: any non-empty
        directory is refused (the benchmark wants `--resume` said out loud); `True`: resume the
        same run (an empty or new directory starts one).
        """
        if self.path.exists() and not self.path.is_dir():
            raise RunDirError(f"{self.path} is a file; --output-dir needs a directory")
        earlier = self.path / MANIFEST
        resuming = False
        self._check_lock()
        if self.path.is_dir() and any(p.name != LOCK for p in self.path.iterdir()):
            if resume is False:
                raise RunDirError(
                    f"{self.path} is not empty; choose a new --output-dir, or add --resume to "
                    "finish the run it holds"
                )
            if not earlier.is_file():
                raise RunDirError(
                    f"{self.path} is not empty and holds no {self.benchmark} run; choose a new or "
                    "empty --output-dir"
                )
            self._check_links()
            try:
                manifest = read_json(earlier)
            except (OSError, ValueError) as exc:
                raise RunDirError(
                    f"{earlier} is unreadable ({exc}); choose a new --output-dir"
                ) from None
            if not isinstance(manifest, dict) or manifest.get("benchmark") != self.benchmark:
                raise RunDirError(
                    f"{self.path} holds a run of another benchmark; choose a new --output-dir"
                )
            self.earlier = manifest
            self._check_repeats(manifest.get("settings"))
            changed = _differences(manifest.get("settings") or {}, self.settings)
            if changed:
                raise RunDirError(
                    f"{self.path} holds another run ({'; '.join(changed[:5])}); repeat that "
                    "run's exact command to resume it, or choose a new --output-dir"
                )
            resuming = True
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._take_lock()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise RunDirError(
                f"cannot write to {self.path} ({reason}); choose a writable --output-dir"
            ) from None
        return resuming

    def _check_repeats(self, earlier: Any) -> None:
        """Refuse, in one line naming both counts, to resume a run with another `--repeats`:
        its games and files are another grid (a run of one repeat records none)."""
        recorded = earlier.get("repeats", 1) if isinstance(earlier, Mapping) else 1
        if recorded != self.repeats:
            raise RunDirError(
                f"{self.path} holds a run of --repeats {recorded}, not {self.repeats}; repeat "
                f"--repeats {recorded} to resume it, or choose a new --output-dir"
            )

    def check_policies(self, policies: Mapping[str, Mapping[str, Any]]) -> None:
        """Refuse to resume with a policy whose settings changed (the model, its endpoint host,
        temperature, token limits, prompt version, ...), naming each difference; then record the
        settings in the manifest for the next resume. `policies`: spec -> settings."""
        current = json.loads(json.dumps(dict(policies), default=str))
        manifest_path = self.path / MANIFEST
        earlier: dict[str, Any] = {}
        if manifest_path.is_file():
            try:
                inside_root(self.path, manifest_path)
                earlier = read_json(manifest_path).get("policies") or {}
            except (OSError, ValueError, AttributeError):
                earlier = {}
            if not isinstance(earlier, dict):
                earlier = {}
        changed = [
            f"{spec}: {line}"
            for spec in current
            if spec in earlier
            for line in _differences(earlier[spec], current[spec])
        ]
        if changed:
            raise RunDirError(
                f"{self.path} was played with other policy settings ({'; '.join(changed[:5])}); "
                "restore them to resume, or choose a new --output-dir"
            )
        self._policies = {**earlier, **current}

    def track_cost(self, meter: Any) -> None:
        """Count what every invocation of this run spent against one cap (`--max-cost-usd`): the
        meter starts at what the manifest says was spent, and each manifest records it."""
        self._meter = meter
        if meter is not None:
            earlier = self.earlier.get("spentUsd")
            if isinstance(earlier, int | float) and earlier > meter.spent_usd:
                meter.spent_usd = float(earlier)

    def _check_links(self) -> None:
        """Refuse, before anything is read or written, a run whose manifest or top folders are
        links leaving it (a planted `logs/` would have us verify, set aside and write files
        elsewhere)."""
        for name in (MANIFEST, LOCK, "logs", "results"):
            if (self.path / name).is_symlink():
                inside_root(self.path, self.path / name)

    def _check_lock(self) -> None:
        """Refuse a directory another live process is writing (two runs would mix files)."""
        lock = self.path / LOCK
        if lock.is_symlink():
            return  # never ours: `_take_lock` replaces it
        try:
            holder = int(lock.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return
        if holder != os.getpid() and _alive(holder):
            raise RunDirError(
                f"{self.path} is being written by another arcade-eval process (pid {holder}); "
                "wait for it to finish or choose another --output-dir"
            )

    def _take_lock(self) -> None:
        """Mark the directory as this process's until it exits (a stale mark is taken over)."""
        lock = self.path / LOCK
        write_text_atomic(lock, str(os.getpid()))
        atexit.register(_release, lock, os.getpid())

    # -- games -------------------------------------------------------------------------------

    def game(self, *parts: object) -> GameFiles:
        """The files of the game named by `parts` (e.g. policy, mode, seed)."""
        key = tuple(str(p) for p in parts)
        safe = tuple(safe_name(p) for p in key)
        for other, other_safe in self._names.items():
            if other != key and other_safe == safe:
                raise RunDirError(f"{key} and {other} would share files; rename one of them")
        self._names[key] = safe
        log = self.path.joinpath("logs", *safe[:-1], f"{safe[-1]}.jsonl")
        result = self.path.joinpath("results", *safe[:-1], f"{safe[-1]}.json")
        for target in (log, result):
            inside_root(self.path, target)  # safe names keep them inside; links may not
        return GameFiles(key, log, result)

    def finished(
        self,
        files: GameFiles,
        agrees: Callable[[Mapping[str, Any], Mapping[str, Any]], bool],
        verify: Callable[[Path], Any],
        say: Callable[[str], None] = print,
    ) -> dict[str, Any] | None:
        """The saved result of a finished game, or None (the game must be played).

        Finished means: the result file reads as a JSON object, the log verifies (`verify(path)`
        returns a report whose `ok` is true and whose `result` is the log's result line), and
        `agrees(result, log_result)`. Anything less is set aside with one line saying so.
        """
        if not files.result.exists():
            if files.log.exists():
                aside = set_aside(files.log, "interrupted")
                say(f"set aside {files.log} as {aside.name if aside else '?'}: not finished")
            return None
        problem = None
        inside_root(self.path, files.result)
        inside_root(self.path, files.log)
        try:
            saved = read_json(files.result)
            if not isinstance(saved, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            saved, problem = None, f"unreadable result ({exc})"
        if problem is None:
            report = verify(files.log) if files.log.exists() else None
            if report is None:
                problem = "its log is missing"
            elif not report.ok:
                problem = f"its log does not verify ({report.message})"
            elif saved is None or not agrees(saved, report.result or {}):
                problem = "the result file disagrees with its log"
        if problem is None:
            return saved
        for path in (files.result, files.log):
            set_aside(path, "untrusted")
        say(f"set aside the files of {'/'.join(files.key)}: {problem}; it is played again")
        return None

    def save_result(self, files: GameFiles, data: Mapping[str, Any]) -> None:
        write_json_atomic(files.result, dict(data))

    def abandon(self, files: GameFiles, why: str) -> Path | None:
        """Set a game's log aside (aborted, stopped, interrupted) so a resume replays it."""
        return set_aside(files.log, why)

    # -- manifest ----------------------------------------------------------------------------

    def write_manifest(
        self,
        status: str,
        games: Sequence[tuple[str, ...]],
        finished: Iterable[tuple[str, ...]],
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """What the run is and where it stands: finished, and missing with why."""
        from arcade_gym import __version__

        done = set(finished)
        manifest = {
            "benchmark": self.benchmark,
            "packageVersion": __version__,
            "settings": self.settings,
            "policies": self._policies,
            "status": status,
            "updatedAt": utc_now_iso(),
            "games": len(games),
            "finished": sum(1 for g in games if g in done),
            "missing": [list(g) for g in games if g not in done],
            **({"spentUsd": round(self._meter.spent_usd, 6)} if self._meter is not None else {}),
            **(extra or {}),
        }
        write_json_atomic(self.path / MANIFEST, manifest)
