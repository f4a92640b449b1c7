"""Site inputs whose every user-supplied text carries a script payload, made through the
benchmarks' own APIs (so their logs verify) and then edited where the site reads a file without
verifying it: a policy whose slug, name, description, provider and model are payloads, whose raw
replies (call telemetry) are payloads and which now and then answers a payload; a payload seed;
payloads in manifests, reports, result files, PGN tags, a publication's label and the arena's
`entry.json` fields and source file names.

`hostile_policy` is the `py:` factory the runs name (`py:tests.site.hostile_inputs:hostile_policy`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import chess

from policies.base import DecisionContext, PolicyIdentity

PAYLOAD = (
    'javascript:window.__xss=1 <img src=x onerror="window.__xss=1"> '
    '"><script>window.__xss=1</script> </script><script>window.__xss=1</script> '
    "'><svg onload=window.__xss=1> <!-- &amp; &#60;"
)
"""One text holding every way out: an element with a handler, leaving an attribute, closing a
`<script>` block, a `javascript:` URL, an HTML comment and character references."""
SPEC = "py:tests.site.hostile_inputs:hostile_policy"
INNER = {
    "tetris": "heuristic",
    "snake": "heuristic",
    "minesweeper": "heuristic",
    "sudoku": "singles",
}
"""The built-in each game's hostile policy plays through (`random` for the others)."""
REPOSITORY = Path(__file__).resolve().parents[2]
SHIPPED_ENTRIES = REPOSITORY / "seeds" / "arena" / "entries"
SHIPPED_LADDER = REPOSITORY / "docs" / "results" / "chess-ladder" / "material-2ply"
ENTRY_TEXT_FIELDS = ("name", "model", "provider", "harness", "submittedBy", "description")


class HostilePolicy(PolicyIdentity):
    """A built-in policy under a payload identity that reports payload raw replies and answers
    a payload every fifth question (an unreadable answer the benchmark records)."""

    def __init__(self, inner: Any) -> None:
        super().__init__(
            slug=f"hostile{PAYLOAD}",
            name=f"Hostile {PAYLOAD}",
            description=PAYLOAD,
            kind=getattr(inner, "kind", "baseline"),
            provider=PAYLOAD,
            model=PAYLOAD,
        )
        self.inner = inner
        self.asked = 0

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        self.asked += 1
        if self.asked % 5 == 2:
            return PAYLOAD
        return self.inner.act(question, ctx)

    def pop_telemetry(self) -> dict[str, Any]:
        return {"raw": PAYLOAD, "finishReason": PAYLOAD, "costNote": PAYLOAD}

    def __getattr__(self, name: str) -> Any:
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(name)
        return getattr(inner, name)


def hostile_policy(game: str, seed: Any = None) -> HostilePolicy:
    """The `py:` factory: the hostile wrapper around the game's built-in."""
    from policies.specs import make_policy

    return HostilePolicy(make_policy(INNER.get(game, "random"), game))


def _edit_json(path: Path, edit: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def tetris_run(out: Path) -> Path:
    """A Tetris Bench run of the hostile brain on `seed-01` and a payload seed, IQ and Blitz."""
    from evaluation.benchmarks.tetris_bench.cli import make_tetris_brain
    from evaluation.benchmarks.tetris_bench.leaderboard import to_json, to_markdown
    from evaluation.benchmarks.tetris_bench.runner import RunConfig, run_tetris_bench

    config = RunConfig(
        brains=(SPEC,),
        seeds=("seed-01", f"s{PAYLOAD}"),
        seed_set="custom",
        modes=("IQ", "Blitz"),
        official=False,
        piece_cap=20,
    )
    outcome = run_tetris_bench(config, out, make_tetris_brain, say=lambda _: None)
    assert outcome.leaderboard is not None
    (out / "leaderboard.json").write_text(json.dumps(to_json(outcome.leaderboard), indent=1))
    (out / "leaderboard.md").write_text(to_markdown(outcome.leaderboard))
    return out


def narcade_results(root: Path) -> Path:
    """A folder like `docs/results/narcade/`: a lockstep run of the hostile policy on the three
    games and its publication, labelled with a payload."""
    from evaluation.benchmarks.narcade.publish import publish
    from evaluation.benchmarks.narcade.runner import run_narcade
    from evaluation.benchmarks.narcade.settings import NarcadeRunSettings

    request = NarcadeRunSettings(
        models=SPEC,
        games="minesweeper,snake,tetris",
        episodes=1,
        mode="lockstep",
        difficulty="easy",
        max_decisions=30,
        max_pieces=6,
        isolate=False,
        quiet=True,
        hardware=PAYLOAD,
    )
    code = run_narcade(request, root / "run")
    assert code == 0
    publish(sorted((root / "run" / "results").glob("*/*.json")), PAYLOAD, root / "pub.json")
    return root


def sudoku_run(out: Path) -> Path:
    """A Sudoku run of the hostile policy on tier 1; its report then names the policy, its
    kind and description with payloads."""
    from evaluation.benchmarks.sudoku.cli import add_parsers

    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers())
    args = parser.parse_args(["sudoku", "--policy", SPEC, "--tiers", "1", "--output-dir", str(out)])
    with contextlib.redirect_stdout(io.StringIO()):
        assert args.handler(args) == 0

    def edit_report(report: Any) -> None:
        for row in report["policies"]:
            row["identity"]["kind"] = PAYLOAD
            for grid in row["grids"][:2]:
                grid["outcome"] = PAYLOAD

    _edit_json(out / "report.json", edit_report)
    return out


class MaterialJudge:
    """Measures a position by material (white's side): a stand-in for Stockfish."""

    VALUES: ClassVar[dict[int, int]] = {
        chess.PAWN: 1,
        chess.KNIGHT: 3,
        chess.BISHOP: 3,
        chess.ROOK: 5,
        chess.QUEEN: 9,
    }

    def analyse(self, board: chess.Board, limit: Any) -> list[dict[str, Any]]:
        from chess.engine import Cp, PovScore

        balance = sum(
            value * (len(board.pieces(kind, chess.WHITE)) - len(board.pieces(kind, chess.BLACK)))
            for kind, value in self.VALUES.items()
        )
        return [{"score": PovScore(Cp(100 * balance), chess.WHITE)}]


def ladder_run(out: Path) -> Path:
    """The shipped ladder run with payloads in its manifest (the policy's slug, name and
    description), report (model, scale, note) and PGN tags, a result file without a log (payload
    colour, result and end: verify checks the result files of logged games), and one game the
    hostile policy played (payload replies and seed) with its log."""
    from evaluation.benchmarks.chess_ladder.episode import LiveSide, play_ladder_game, settings_of
    from policies.chess import BUILTINS

    shutil.copytree(SHIPPED_LADDER, out)
    slug = f"m{PAYLOAD}"

    def edit_manifest(manifest: Any) -> None:
        identity = manifest["policies"]["material-2ply"]
        identity.update(slug=slug, name=PAYLOAD, description=PAYLOAD)

    def edit_report(report: Any) -> None:
        report["scale"] = PAYLOAD
        report["models"][0]["model"] = slug
        report["models"][0]["rating"]["note"] = PAYLOAD

    _edit_json(out / "manifest.json", edit_manifest)
    _edit_json(out / "report.json", edit_report)
    folder = ("material-2ply", "standard", "random")
    results = out.joinpath("results", *folder)
    planted = json.loads((results / "game-0.json").read_text(encoding="utf-8"))
    planted.update(modelColour=PAYLOAD, result=PAYLOAD, endReason=PAYLOAD)
    (results / "game-8.json").write_text(json.dumps(planted), encoding="utf-8")
    settings = settings_of("standard", "random", 0.0, chess.STARTING_FEN, None, "black", None, "v1")
    side = LiveSide(BUILTINS["random"](PAYLOAD), MaterialJudge(), "standard")  # seeded as the game
    log = out.joinpath("logs", *folder, "game-7.jsonl")
    saved = play_ladder_game(hostile_policy("chess"), side, settings, log, seed=PAYLOAD)
    played = {**saved, "rung": "random", "rungRating": 0.0, "startIndex": None, "grades": []}
    (results / "game-7.json").write_text(json.dumps(played), encoding="utf-8")
    for pgn in sorted(out.joinpath("pgn").rglob("*.pgn"))[:4]:
        text = pgn.read_text(encoding="utf-8")
        escaped = PAYLOAD.replace("\\", "\\\\").replace('"', '\\"')
        text = text.replace('[White "', f'[White "{escaped}', 1)
        text = text.replace('[Event "', f'[Event "{escaped}', 1)
        pgn.write_text(text + "\n{ " + PAYLOAD.replace("}", "") + " }\n", encoding="utf-8")
    return out


def arena_entries(root: Path) -> Path:
    """Two shipped entries with payloads in every text field of `entry.json` and a source file
    named with a payload; one of them with a payload grade and seed planted in its result."""
    for entry in ("tactician", "broken"):
        shutil.copytree(SHIPPED_ENTRIES / entry, root / entry)
        _edit_json(
            root / entry / "entry.json",
            lambda meta: meta.update({field: PAYLOAD for field in ENTRY_TEXT_FIELDS}),
        )
        source = root / entry / "source"
        source.mkdir(exist_ok=True)
        (source / PAYLOAD.replace("/", "")).write_text("notes\n", encoding="utf-8")

    def plant(result: Any) -> None:
        result["report"]["grade"] = PAYLOAD
        result["seed"] = PAYLOAD
        result["benchedAt"] = PAYLOAD

    for result in sorted((root / "tactician" / "results").glob("*.json")):
        _edit_json(result, plant)
    return root


def arena_run(out: Path) -> Path:
    """An arena run of the hostile policy (`arcade-eval arena --policy`)."""
    from evaluation import cli

    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["ttt-arena", "--policy", SPEC, "--output-dir", str(out)]) == 0
    return out
