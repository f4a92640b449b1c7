"""The arena's live run under `arcade-eval serve`: bench an entry from the page, exactly as
`arcade-eval ttt-arena bench --entry ID` does (same command, same saved result and logs under
`<entry>/results/`), one progress line per game."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID, DEFAULT_SEED, MAX_SEED
from evaluation.core.live import LiveError, LiveField, LiveRun


def runs(options: Mapping[str, str | None]) -> list[LiveRun]:
    """`ttt-arena-bench`: one entry of the entries folder through the official suite."""
    from evaluation.benchmarks.ttt_arena.entries import (
        EntryError,
        default_entries_dir,
        load_entries,
    )
    from evaluation.benchmarks.ttt_arena.suite import TOTAL_MATCHES, TOTAL_POSITIONS

    given = options.get("arena-entries")
    try:
        directory = Path(given) if given else default_entries_dir()
        entries = load_entries(directory)
    except EntryError as error:
        raise LiveError(f"--arena-entries: {error}") from None
    if not entries:
        raise LiveError(f"--arena-entries: no entries in {directory}")
    folder = str(directory.resolve())

    def argv(values: Mapping[str, Any]) -> list[str]:
        line = [BENCHMARK_ID, "bench", "--entries", folder, "--entry", values["entry"]]
        line += ["--seed", str(values["seed"])]
        return line if values["save"] else [*line, "--no-save"]

    fields = (
        LiveField(
            "entry",
            "Entry",
            "choice",
            entries[0].id,
            choices=tuple(e.id for e in entries),
            help=f"an entry of {folder}",
        ),
        LiveField(
            "seed",
            "Suite seed",
            "int",
            DEFAULT_SEED,
            minimum=0,
            maximum=MAX_SEED,
            help=f"the official result is a run on {DEFAULT_SEED}",
        ),
        LiveField(
            "save",
            "Save the result",
            "bool",
            True,
            help="under <entry>/results/, with the log of every game (as arena bench does)",
        ),
    )
    return [
        LiveRun(
            key="ttt-arena-bench",
            title="Tic-tac-toe arena: bench an entry",
            description=(
                f"The official arena run ({TOTAL_POSITIONS} positions, {TOTAL_MATCHES} matches) "
                f"of one entry, as the command arcade-eval {BENCHMARK_ID} bench --entry ID runs it."
            ),
            fields=fields,
            argv=argv,
            steps=TOTAL_POSITIONS + TOTAL_MATCHES,
        )
    ]
