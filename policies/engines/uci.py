"""Any UCI chess engine as a policy: `uci:COMMAND?Option=Value&Option2=Value`.

The spec body is the command line (shell words), then optionally `?` and `&`-separated
`Name=Value` pairs. Names are UCI options of the engine (`UCI_Elo`, `UCI_LimitStrength`,
`Threads`, `Hash`, ...), set once when the process starts, except three lower-case search limits:
`movetime` (seconds a move), `nodes` and `depth`. Example:
`uci:stockfish?UCI_LimitStrength=true&UCI_Elo=1500&movetime=0.5`. The command `stockfish` means
the Stockfish of `find_stockfish()`.

One engine process per game: it starts at the game's first question (a question that does not
continue the previous game starts a new process), runs in a session of its own with a tree tag in
its environment, and `end_game()` / `close()` quit it and SIGKILL its whole tree (group, session
and tagged helpers: `policies/engines/process.py:kill_process_tree`), so no engine outlives its
game. python-chess's `chess.engine` speaks the protocol.

An engine that crashes, hangs (no answer long after its search limit: `STALL_BASE_S`), stops
speaking UCI or cannot start raises `EngineFailedError` (its tree is killed first; the next
request starts a fresh process). As a policy that is the policy's
failure (a rejected try); as a rung or judge the ladder aborts the game
(`evaluation/benchmarks/chess_ladder/episode.py`). The moves an engine plays are read by the one
move parser (`arcade_gym/chess/contract.py:parse_move`): a null move is never legal.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import threading
from dataclasses import dataclass, field
from typing import Any

import chess
import chess.engine

from arcade_gym.chess.contract import ChessAnswer, ChessQuestion
from policies.base import DecisionContext, PolicyIdentity
from policies.engines.process import kill_process_tree, new_tree_tag, tree_env
from policies.spec_query import query_options

STOCKFISH_ENV = "ARCADE_STOCKFISH"
DEBIAN_STOCKFISH = "/usr/games/stockfish"
LIMIT_KEYS = ("movetime", "nodes", "depth")
START_TIMEOUT_S = 10.0
STALL_BASE_S = 60.0
"""A search without a time limit (nodes, depth) that gives no answer within this many seconds,
plus one second per `STALL_NODES_PER_S` nodes, has hung: the engine's tree is killed. A timed
search is bounded by python-chess (its time plus `START_TIMEOUT_S`)."""
STALL_NODES_PER_S = 20_000
STALL_DEPTH_S = 600.0
"""The allowance of a depth-limited search (depth says nothing about time)."""


class EngineMissingError(RuntimeError):
    """The engine binary is not installed; the message says how to install it."""


class EngineFailedError(RuntimeError):
    """The engine crashed, hung up or broke the protocol; its process tree is already killed."""


ENGINE_FAILURES = (chess.engine.EngineError, TimeoutError, OSError, EOFError)
"""What python-chess raises when the engine process dies or misbehaves (EngineTerminatedError
is an EngineError)."""


def find_stockfish() -> str:
    """The Stockfish binary: `$ARCADE_STOCKFISH`, else `stockfish` on PATH, else Debian's
    `/usr/games/stockfish`; EngineMissingError naming `apt-get install stockfish` otherwise."""
    configured = os.environ.get(STOCKFISH_ENV)
    if configured:
        found = shutil.which(configured)
        if found is None:
            raise EngineMissingError(
                f"{STOCKFISH_ENV}={configured!r} is not an executable; point it at a Stockfish "
                "binary or install one with `apt-get install stockfish`"
            )
        return found
    found = shutil.which("stockfish") or shutil.which(DEBIAN_STOCKFISH)
    if found is None:
        raise EngineMissingError(
            "Stockfish is not installed: run `apt-get install stockfish` (Debian/Ubuntu) or set "
            f"{STOCKFISH_ENV}=/path/to/stockfish"
        )
    return found


@dataclass
class UciSpec:
    """A parsed spec body: argv, UCI options, search limits."""

    argv: list[str]
    options: dict[str, str] = field(default_factory=dict)
    movetime: float | None = None
    nodes: int | None = None
    depth: int | None = None

    def limit(self) -> chess.engine.Limit:
        """The python-chess search limit (0.5 s a move when the spec sets none)."""
        if self.movetime is None and self.nodes is None and self.depth is None:
            return chess.engine.Limit(time=0.5)
        return chess.engine.Limit(time=self.movetime, nodes=self.nodes, depth=self.depth)


def parse_uci_spec(body: str, **limits: Any) -> UciSpec:
    """`"stockfish?UCI_Elo=1500&movetime=0.5"` -> UciSpec; keyword `movetime`/`nodes`/`depth`
    override the spec's. ValueError on an empty command, a pair without `=`, or a bad limit."""
    command, _, query = body.partition("?")
    argv = shlex.split(command)
    if not argv:
        raise ValueError(f"uci: needs a command, e.g. 'uci:stockfish?UCI_Elo=1500'; got {body!r}")
    if argv[0] == "stockfish":
        argv[0] = find_stockfish()
    spec = UciSpec(argv=argv)
    try:
        pairs = query_options(query, "?UCI_Elo=1500&movetime=0.5")
    except ValueError as error:
        raise ValueError(f"uci: {error}") from None
    for key, value in pairs + [(k, str(v)) for k, v in limits.items() if v is not None]:
        if key in LIMIT_KEYS:
            try:
                number = float(value) if key == "movetime" else int(value)
            except ValueError:
                raise ValueError(f"uci: {key} must be a number, got {value!r}") from None
            if number <= 0:
                raise ValueError(f"uci: {key} must be positive, got {value!r}")
            setattr(spec, key, number)
        else:
            spec.options[key] = value
    return spec


class UciEngine:
    """One engine process: started by `start()`, ended (with its process group) by `close()`."""

    def __init__(self, spec: UciSpec, *, stall_base_s: float = STALL_BASE_S) -> None:
        self.spec = spec
        self.stall_base_s = stall_base_s
        self.engine: chess.engine.SimpleEngine | None = None
        self.pid: int | None = None
        self.tag: str | None = None

    @property
    def label(self) -> str:
        """The engine's program name, for messages."""
        return os.path.basename(self.spec.argv[0])

    def start(self) -> chess.engine.SimpleEngine:
        """Start the process (in a session of its own, tagged) and set the options; idempotent.
        EngineMissingError when the binary is missing, EngineFailedError when it fails."""
        if self.engine is not None:
            return self.engine
        self.tag = tag = new_tree_tag()
        try:
            engine = chess.engine.SimpleEngine.popen_uci(
                self.spec.argv,
                timeout=START_TIMEOUT_S,
                start_new_session=True,
                env=tree_env(tag),
            )
        except FileNotFoundError:
            self.close()
            raise EngineMissingError(f"UCI engine not found: {self.spec.argv[0]!r}") from None
        except ENGINE_FAILURES as exc:
            self.close()
            raise EngineFailedError(f"{self.label} failed to start: {_why(exc)}") from None
        self.engine = engine
        self.pid = engine.transport.get_pid()
        options = {k: v for k, v in self.spec.options.items() if k not in ("MultiPV",)}
        if options:
            self._guarded(lambda: engine.configure(options), "setting its options")
        return engine

    def _guarded(self, request: Any, doing: str, limit: chess.engine.Limit | None = None) -> Any:
        """Run one request; an engine failure kills the tree and raises EngineFailedError. A
        search without a time limit gets a watchdog that kills the tree when it hangs."""
        allowance = self._allowance(limit)
        stalled = threading.Event()
        watchdog = None
        if allowance is not None:
            pid, tag = self.pid, self.tag

            def kill() -> None:
                stalled.set()
                kill_process_tree(pid, tag)

            watchdog = threading.Timer(allowance, kill)
            watchdog.daemon = True
            watchdog.start()
        try:
            return request()
        except ENGINE_FAILURES as exc:
            self.close()
            why = f"no answer within {allowance:g} s (killed)" if stalled.is_set() else _why(exc)
            raise EngineFailedError(f"{self.label} failed {doing}: {why}") from None
        finally:
            if watchdog is not None:
                watchdog.cancel()

    def _allowance(self, limit: chess.engine.Limit | None) -> float | None:
        """Seconds a search may take before it counts as hung (None: python-chess bounds it)."""
        if limit is None or limit.time is not None:
            return None
        if limit.nodes is not None:
            return self.stall_base_s + limit.nodes / STALL_NODES_PER_S
        return self.stall_base_s + STALL_DEPTH_S

    def option_range(self, name: str) -> tuple[int, int]:
        """(min, max) of a spin option, e.g. `UCI_Elo`; KeyError when the engine has none."""
        engine = self.start()
        option = engine.options[name]
        if option.min is None or option.max is None:
            raise KeyError(f"option {name!r} has no range")
        return int(option.min), int(option.max)

    def play(self, board: chess.Board, limit: chess.engine.Limit | None = None) -> chess.Move:
        """The engine's move on `board` (a copy of it is sent)."""
        engine = self.start()
        search = limit or self.spec.limit()
        result = self._guarded(lambda: engine.play(board, search), "choosing a move", search)
        if result.move is None:
            raise EngineFailedError(f"{self.label} returned no move for {board.fen()!r}")
        return result.move

    def analyse(
        self, board: chess.Board, limit: chess.engine.Limit, multipv: int = 1
    ) -> list[chess.engine.InfoDict]:
        """The engine's principal variations (best first) on `board`."""
        engine = self.start()
        infos: list[chess.engine.InfoDict] = self._guarded(
            lambda: engine.analyse(board, limit, multipv=multipv), "analysing a position", limit
        )
        return infos

    def close(self) -> None:
        """Quit the engine and kill its whole process tree; safe to call twice."""
        engine, pid, tag = self.engine, self.pid, self.tag
        self.engine = self.pid = self.tag = None
        if engine is not None:
            with contextlib.suppress(Exception):
                engine.quit()
            with contextlib.suppress(Exception):
                engine.close()
        if pid is not None or tag is not None:
            kill_process_tree(pid, tag)

    def __enter__(self) -> UciEngine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class UciPolicy(PolicyIdentity):
    """A UCI engine answering the chess ladder's questions (`kind="engine"`).

    It rebuilds the position from the question's start FEN and UCI moves, so repetition and
    castling history are the game's own.
    """

    def __init__(self, spec: UciSpec, *, slug: str, name: str | None = None) -> None:
        super().__init__(
            slug=slug,
            name=name or slug,
            description=" ".join(
                ["UCI engine", *spec.argv, *(f"{k}={v}" for k, v in spec.options.items())]
            ),
            kind="engine",
        )
        self.spec = spec
        self.engine = UciEngine(spec)
        self._game: tuple[str, tuple[str, ...]] | None = None

    def act(self, question: ChessQuestion, ctx: DecisionContext) -> ChessAnswer:
        """The engine's move for the question's position."""
        game = (question.start_fen, question.moves_uci)
        if self._game is not None and (
            self._game[0] != game[0] or game[1][: len(self._game[1])] != self._game[1]
        ):
            self.end_game()  # a new game: a new process
        self._game = game
        move = self.engine.play(question.board_now())
        return ChessAnswer(move=move.uci())

    def end_game(self) -> None:
        """Quit this game's engine process (the next question starts a new one)."""
        self.engine.close()
        self._game = None

    def close(self) -> None:
        """Release the engine."""
        self.end_game()


def _why(exc: BaseException) -> str:
    """One line for an engine failure."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def make_uci_policy(spec_body: str, **limits: Any) -> UciPolicy:
    """The policy of `uci:SPEC_BODY` for the shared policy grammar; `limits` (`movetime`,
    `nodes`, `depth`) override the spec's."""
    spec = parse_uci_spec(spec_body, **limits)
    slug = "uci-" + os.path.basename(spec.argv[0])
    if spec.options.get("UCI_Elo") and spec.options.get("UCI_LimitStrength", "").lower() == "true":
        slug += f"-{spec.options['UCI_Elo']}"
    return UciPolicy(spec, slug=slug)
