"""The leaderboard: ranking, the seed's columns, refusals, and merging into the index file."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.benchmarks.tetris_bench.leaderboard import (
    COLUMNS,
    Leaderboard,
    build_leaderboard,
    cost_per_100,
    leaderboard_from_json,
    load_index,
    median_latency,
    merge_index,
    to_json,
    to_markdown,
    to_text,
)
from evaluation.benchmarks.tetris_bench.records import GameResult

RULESET = "tetris-bench@3"
SEEDS = [f"seed-{i:02d}" for i in range(1, 11)]
BRAINS: dict[str, dict[str, Any]] = {
    "heur": {"slug": "heur", "name": "Heuristic", "kind": "heuristic"},
    "llm": {"slug": "llm", "name": "Some Model", "kind": "llm", "provider": "Vendor"},
    "rand": {"slug": "rand", "name": "Random", "kind": "baseline"},
    "zeta": {"slug": "zeta", "name": "Zeta", "kind": "search"},
}


def game(
    slug: str,
    seed: str,
    score: int,
    *,
    lines: int = 10,
    mode: str = "IQ",
    ruleset: str = RULESET,
    **extra: Any,
) -> GameResult:
    values: dict[str, Any] = {
        "end_reason": "top-out",
        "pieces": 100,
        "ticks": 100,
        "level": 2,
        "decisions": 100,
        "latencies_ms": [5.0],
    }
    values.update(extra)
    return GameResult(
        ruleset=ruleset,
        seed=seed,
        mode=mode,
        brain=dict(BRAINS.get(slug, {"slug": slug, "name": slug, "kind": "heuristic"})),
        score=score,
        lines=lines,
        **values,
    )


def iq_run(
    slug: str, scores: list[int], seeds: list[str] = SEEDS, **extra: Any
) -> list[GameResult]:
    return [game(slug, s, v, **extra) for s, v in zip(seeds, scores, strict=True)]


STRONG = [3000, 3400, 2800, 3100, 2900, 3300, 3050, 2950, 3200, 3150]
WEAK = [100, 300, 50, 200, 150, 250, 120, 80, 90, 110]


def rows_by_slug(lb: Leaderboard) -> dict[str, Any]:
    return {r.slug: r for r in lb.rows}


def markdown_cells(text: str, slug_name: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if slug_name in ln and ln.startswith("|"))
    return [c.strip() for c in line.strip("|").split(" | ")]


# --------------------------------------------------------------------------- ordering and columns


def test_rows_are_ranked_by_mean_iq_score() -> None:
    lb = build_leaderboard(iq_run("rand", WEAK) + iq_run("heur", STRONG))
    assert [r.slug for r in lb.rows] == ["heur", "rand"]
    assert [r.rank for r in lb.rows] == [1, 2]
    heur = lb.rows[0]
    assert heur.score == pytest.approx(sum(STRONG) / 10)
    assert lb.seeds == tuple(SEEDS) and lb.ruleset == RULESET


def test_equal_scores_are_ordered_by_mean_lines_then_slug() -> None:
    results = (
        iq_run("zeta", STRONG, lines=12)
        + iq_run("llm", STRONG, lines=9)
        + iq_run("heur", STRONG, lines=9)
        + iq_run("rand", WEAK, lines=50)
    )
    lb = build_leaderboard(results, replicates=200)
    assert [r.slug for r in lb.rows] == ["zeta", "heur", "llm", "rand"]


def test_blitz_does_not_change_the_rank() -> None:
    results = iq_run("heur", STRONG) + iq_run("rand", WEAK)
    results += [game("rand", s, 99_999, mode="Blitz") for s in SEEDS[:3]]
    assert [r.slug for r in build_leaderboard(results).rows] == ["heur", "rand"]


def test_the_interval_is_shown_for_official_results_and_per_seed_scores_otherwise() -> None:
    lb = build_leaderboard(iq_run("heur", STRONG), official=True)
    mean = sum(STRONG) / 10
    sd = math.sqrt(sum((x - mean) ** 2 for x in STRONG) / 9)
    assert lb.rows[0].half_width == pytest.approx(2.262157 * sd / math.sqrt(10), abs=1e-3)
    assert markdown_cells(to_markdown(lb), "Heuristic")[3].startswith("±")

    # Ten or more seeds of a non-official run: no interval, so it never looks official.
    partial = build_leaderboard(iq_run("heur", STRONG))
    assert partial.rows[0].half_width is None and not partial.official
    cell = markdown_cells(to_markdown(partial), "Heuristic")[3]
    assert cell == "per seed: " + ", ".join(map(str, STRONG))
    assert to_json(partial)["rows"][0]["halfWidth95"] is None

    quick = build_leaderboard(iq_run("heur", STRONG[:3], SEEDS[:3]), official=True)
    assert quick.rows[0].half_width is None  # fewer than ten seeds: never an interval
    assert markdown_cells(to_markdown(quick), "Heuristic")[3] == "per seed: 3000, 3400, 2800"


def test_the_approx_marker_follows_the_head_to_head_with_the_row_above() -> None:
    # The same mean with swings both ways, one point behind: ranked second, not separated.
    close = [s + (40 if i % 2 else -40) for i, s in enumerate(STRONG)]
    close[0] -= 1
    lb = build_leaderboard(iq_run("heur", STRONG) + iq_run("llm", close) + iq_run("rand", WEAK))
    heur, llm, rand = lb.rows
    assert (heur.slug, llm.slug, rand.slug) == ("heur", "llm", "rand")
    assert heur.vs_above is None and not heur.tied_with_above
    assert llm.tied_with_above and llm.vs_above is not None and llm.vs_above.includes_zero
    assert not rand.tied_with_above and rand.vs_above is not None
    assert rand.vs_above.wins_a == 10  # paired on the common seeds: llm beat rand everywhere
    md = to_markdown(lb)
    assert markdown_cells(md, "Some Model")[0] == "2 ≈"
    assert markdown_cells(md, "Random")[0] == "3"
    assert "2 ≈" in to_text(lb)


def test_local_brains_show_a_dash_for_cost_and_hosted_brains_a_price() -> None:
    hosted = iq_run("llm", STRONG, cost_usd=0.02, priced_calls=100)
    lb = build_leaderboard(hosted + iq_run("heur", WEAK))
    rows = rows_by_slug(lb)
    assert rows["llm"].cost_per_100 == pytest.approx(0.02 * 10 / 1000 * 100)
    assert rows["heur"].cost_per_100 is None
    md = to_markdown(lb)
    assert markdown_cells(md, "Heuristic")[6] == "—"
    assert markdown_cells(md, "Some Model")[6] == "$0.02"  # evaluation/core/money.py:usd


def test_token_totals_are_summed_over_every_game_and_a_cost_under_a_cent_keeps_its_digits() -> None:
    hosted = iq_run(
        "llm", STRONG, cost_usd=0.0011, priced_calls=100, prompt_tokens=1200, completion_tokens=30
    )
    lb = build_leaderboard(hosted + iq_run("heur", WEAK))
    rows = rows_by_slug(lb)
    assert (rows["llm"].prompt_tokens, rows["llm"].completion_tokens) == (12_000, 300)
    md = to_markdown(lb)
    assert COLUMNS[7] == "Tokens in / out"
    assert markdown_cells(md, "Some Model")[7] == "12,000 / 300"
    assert markdown_cells(md, "Heuristic")[7] == "—"  # a local brain reports no tokens
    assert markdown_cells(md, "Some Model")[6] == "$0.0011"  # $0.011 over 1,000 decisions
    again = leaderboard_from_json(to_json(lb))
    assert rows_by_slug(again)["llm"].prompt_tokens == 12_000


def test_blitz_columns_show_level_and_in_time_share_or_not_run() -> None:
    blitz = [
        game("llm", "seed-01", 500, mode="Blitz", level=3, ticks=40, blitz_in_time=30),
        game("llm", "seed-02", 900, mode="Blitz", level=5, ticks=60, blitz_in_time=45),
    ]
    lb = build_leaderboard(iq_run("llm", STRONG) + blitz + iq_run("heur", WEAK))
    rows = rows_by_slug(lb)
    assert rows["llm"].blitz is not None
    assert rows["llm"].blitz.level_reached == 5
    assert rows["llm"].blitz.in_time_share == pytest.approx(75 / 100)
    assert rows["heur"].blitz is None
    md = to_markdown(lb)
    assert markdown_cells(md, "Some Model")[8:] == ["5", "75.0%"]
    assert markdown_cells(md, "Heuristic")[8:] == ["not run", "not run"]


def test_latency_is_the_median_of_completed_calls_over_both_modes() -> None:
    iq = iq_run("heur", STRONG, latencies_ms=[10.0])
    blitz = [game("heur", "seed-01", 1, mode="Blitz", latencies_ms=[30.0] * 20)]
    assert build_leaderboard(iq + blitz).rows[0].latency_ms == 30.0
    assert build_leaderboard(iq).rows[0].latency_ms == 10.0


def test_markdown_has_the_seed_columns_and_escapes_pipes() -> None:
    md = to_markdown(build_leaderboard(iq_run("heur", STRONG)))
    header, rule = md.splitlines()[:2]
    assert header == "| " + " | ".join(COLUMNS) + " |"
    assert rule.count("|") == len(COLUMNS) + 1
    odd = [
        GameResult.from_dict(
            {**g.to_dict(), "brain": {"slug": "odd", "name": "A|B", "kind": "llm"}}
        )
        for g in iq_run("odd", STRONG)
    ]
    assert "| A\\|B (llm) |" in to_markdown(build_leaderboard(odd))


def test_elo_and_brier_footnotes() -> None:
    risky = iq_run("heur", STRONG, risks=[(0.2, False), (0.9, True)])
    lb = build_leaderboard(risky + iq_run("rand", WEAK) + iq_run("llm", STRONG[::-1]))
    rows = rows_by_slug(lb)
    assert rows["heur"].brier == pytest.approx((0.04 + 0.01) / 2)
    assert rows["heur"].risk_reports == 20
    assert rows["rand"].brier is None
    assert rows["rand"].elo_interval is None  # lost every comparison: withheld
    assert rows["heur"].elo_interval is not None
    assert sum(r.elo for r in lb.rows) / 3 == pytest.approx(1500.0)
    md = to_markdown(lb)
    assert "rand" in md and "withheld" in md
    assert "Brier" in md and "0.025 (20 reports)" in md


def test_json_output_is_serialisable_and_carries_every_figure() -> None:
    lb = build_leaderboard(iq_run("heur", STRONG) + iq_run("rand", WEAK))
    data = json.loads(json.dumps(to_json(lb)))
    assert data["ruleset"] == RULESET and data["seeds"] == SEEDS
    first, second = data["rows"]
    assert first["slug"] == "heur" and first["costPer100Decisions"] is None
    assert first["blitz"] is None and first["vsAbove"] is None
    assert second["vsAbove"]["winsAbove"] == 10 and second["vsAbove"]["includesZero"] is False
    assert second["eloInterval"] is None
    assert first["seedScores"]["seed-01"] == 3000


@settings(max_examples=10, deadline=None)
@given(st.permutations(list(range(30))))
def test_input_order_does_not_change_the_leaderboard(order: list[int]) -> None:
    results = iq_run("heur", STRONG) + iq_run("rand", WEAK) + iq_run("llm", STRONG[::-1])
    shuffled = [results[i] for i in order]
    assert to_json(build_leaderboard(shuffled, replicates=100)) == to_json(
        build_leaderboard(results, replicates=100)
    )


# --------------------------------------------------------------------------- refusals


def test_mixed_rulesets_are_refused() -> None:
    results = iq_run("heur", STRONG) + iq_run("rand", WEAK, ruleset="tetris-bench@2")
    with pytest.raises(ValueError, match="mix rulesets"):
        build_leaderboard(results)


def test_different_iq_seed_sets_are_refused() -> None:
    other = [*SEEDS[:9], "seed-11"]
    with pytest.raises(ValueError, match="different IQ seed sets") as err:
        build_leaderboard(iq_run("heur", STRONG) + iq_run("rand", WEAK, other))
    assert "seed-10" in str(err.value) and "seed-11" in str(err.value)
    with pytest.raises(ValueError, match="different IQ seed sets"):
        build_leaderboard(iq_run("heur", STRONG) + iq_run("rand", WEAK[:3], SEEDS[:3]))


@pytest.mark.parametrize("end", ["interrupted", "aborted", "stopped"])
def test_a_game_that_did_not_finish_is_never_counted(tmp_path: Path, end: str) -> None:
    results = iq_run("heur", STRONG)
    results[3] = game("heur", SEEDS[3], 99_999, end_reason=end)
    with pytest.raises(ValueError, match=f"ended '{end}'.*never counted"):
        build_leaderboard(results)
    with pytest.raises(ValueError, match="never counted"):
        merge_index(tmp_path / "index.json", results)
    assert not (tmp_path / "index.json").exists()


def test_a_brain_without_iq_games_is_refused() -> None:
    blitz_only = [game("rand", s, 5, mode="Blitz") for s in SEEDS]
    with pytest.raises(ValueError, match="no IQ game"):
        build_leaderboard(iq_run("heur", STRONG) + blitz_only)


def test_duplicate_games_and_empty_input_are_refused() -> None:
    with pytest.raises(ValueError, match="more than once"):
        build_leaderboard([*iq_run("heur", STRONG), game("heur", "seed-01", 1)])
    with pytest.raises(ValueError, match="no results"):
        build_leaderboard([])


# --------------------------------------------------------------------------- index


def test_merge_creates_then_extends_the_index(tmp_path: Path) -> None:
    path = tmp_path / "index" / "tetris.json"
    merge_index(path, iq_run("heur", STRONG))
    written = merge_index(path, iq_run("rand", WEAK))
    on_disk = json.loads(path.read_text())
    assert on_disk == written
    assert on_disk["ruleset"] == RULESET and on_disk["seeds"] == SEEDS
    assert len(on_disk["results"]) == 20
    lb = build_leaderboard(load_index(path), official=True)
    assert [r.slug for r in lb.rows] == ["heur", "rand"]


def test_merging_a_brain_again_replaces_its_earlier_entries(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    blitz = [game("heur", "seed-01", 1, mode="Blitz")]
    merge_index(path, iq_run("heur", WEAK) + blitz + iq_run("rand", WEAK))
    merge_index(path, iq_run("heur", STRONG))
    results = load_index(path)
    heur = [r for r in results if r.slug == "heur"]
    assert len(heur) == 10 and all(r.mode == "IQ" for r in heur)
    assert sorted(r.score for r in heur) == sorted(STRONG)
    assert len([r for r in results if r.slug == "rand"]) == 10


def test_merge_refuses_another_ruleset_or_seed_set_and_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    merge_index(path, iq_run("heur", STRONG))
    before = path.read_text()
    with pytest.raises(ValueError, match="cannot merge") as err:
        merge_index(path, iq_run("rand", WEAK, ruleset="tetris-bench@4"))
    assert "tetris-bench@3" in str(err.value) and "tetris-bench@4" in str(err.value)
    with pytest.raises(ValueError, match="cannot merge") as err:
        merge_index(path, iq_run("rand", WEAK[:3], SEEDS[:3]))
    assert "missing: seed-04" in str(err.value)
    assert path.read_text() == before


def test_merge_refuses_mixed_rulesets_within_the_results(tmp_path: Path) -> None:
    results = iq_run("heur", STRONG) + iq_run("rand", WEAK, ruleset="tetris-bench@2")
    with pytest.raises(ValueError, match="mix rulesets"):
        merge_index(tmp_path / "index.json", results)
    assert not (tmp_path / "index.json").exists()


def test_merge_refuses_duplicates_within_one_merge(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="more than once"):
        merge_index(tmp_path / "index.json", iq_run("heur", STRONG) + iq_run("heur", STRONG))


def test_merge_refuses_quick_runs_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="only official results"):
        merge_index(tmp_path / "index.json", iq_run("heur", STRONG), official=False)
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"hello": 1}')
    with pytest.raises(ValueError, match="not a leaderboard index"):
        merge_index(bogus, iq_run("heur", STRONG))
    assert load_index(tmp_path / "missing.json") == []


def test_a_lone_brain_has_no_comparison_rather_than_a_separated_record() -> None:
    from evaluation.benchmarks.tetris_bench.leaderboard import to_text

    results = [
        GameResult(
            ruleset="tetris-bench@3", seed=f"seed-{i:02d}", mode="IQ",
            brain={"slug": "solo", "name": "Solo", "description": "", "kind": "heuristic",
                   "adapterVersion": "1"},
            end_reason="piece cap", score=1000 + i, lines=10, pieces=500, ticks=500, level=2,
        )
        for i in range(1, 4)
    ]  # fmt: skip
    text = to_text(build_leaderboard(results))
    assert "no other brain to compare with" in text and "separated record" not in text


def costed_game(
    latencies: list[float], cost: float | None, decisions: int, mode: str = "IQ"
) -> GameResult:
    return GameResult(
        ruleset="tetris-bench@3",
        seed="seed-01",
        mode=mode,
        brain={"slug": "b", "name": "B", "kind": "llm"},
        end_reason="top-out",
        score=0,
        lines=0,
        pieces=decisions,
        ticks=decisions,
        level=1,
        decisions=decisions,
        latencies_ms=latencies,
        cost_usd=cost,
        priced_calls=decisions if cost is not None else 0,
        unpriced_calls=0 if cost is not None else decisions,
    )


def test_median_latency_pools_completed_calls_of_both_modes() -> None:
    games = [
        costed_game([10.0, 30.0], None, 2),
        costed_game([20.0, 500.0, 40.0], None, 3, mode="Blitz"),
    ]
    assert median_latency(games) == 30.0
    assert median_latency([costed_game([], None, 0)]) is None


def test_cost_per_100_decisions_over_both_modes() -> None:
    games = [costed_game([], 0.01, 100), costed_game([], 0.02, 200, mode="Blitz")]
    assert cost_per_100(games) == pytest.approx(0.03 / 300 * 100)
    # An unpriced game adds decisions but no cost.
    assert cost_per_100([*games, costed_game([], None, 100)]) == pytest.approx(0.03 / 400 * 100)


def test_cost_is_none_for_a_local_brain() -> None:
    assert cost_per_100([costed_game([1.0], None, 50), costed_game([1.0], None, 50)]) is None
    assert cost_per_100([]) is None


# --------------------------------------------------------------------------- head-to-head


def test_every_pair_of_brains_has_a_head_to_head_in_json_and_markdown() -> None:
    close = [s + (40 if i % 2 else -40) for i, s in enumerate(STRONG)]
    lb = build_leaderboard(
        iq_run("heur", STRONG) + iq_run("llm", close) + iq_run("rand", WEAK), replicates=2000
    )
    assert [(p.a, p.b) for p in lb.pairs] == [("heur", "llm"), ("heur", "rand"), ("llm", "rand")]
    data = json.loads(json.dumps(to_json(lb)))
    assert data["headToHeadReplicates"] == 2000
    pairs = {(p["brainA"], p["brainB"]): p for p in data["headToHead"]}
    heur_rand = pairs[("heur", "rand")]
    assert heur_rand["differences"] == {
        s: float(a - b) for s, a, b in zip(SEEDS, STRONG, WEAK, strict=True)
    }
    assert heur_rand["meanDiff"] == pytest.approx((sum(STRONG) - sum(WEAK)) / 10)
    assert (heur_rand["winsA"], heur_rand["winsB"], heur_rand["ties"]) == (10, 0, 0)
    assert heur_rand["low"] > 0 and heur_rand["includesZero"] is False
    heur_llm = pairs[("heur", "llm")]
    assert (heur_llm["winsA"], heur_llm["winsB"]) == (5, 5) and heur_llm["includesZero"]
    # The adjacent pair is the row's own comparison with the row above.
    assert data["rows"][1]["vsAbove"]["meanDiff"] == heur_llm["meanDiff"]
    md = to_markdown(lb)
    assert "2,000-replicate seed-block bootstrap" in md
    line = next(ln for ln in md.splitlines() if ln.startswith("| heur | rand |"))
    assert line.endswith("| 10 / 0 / 0 |")
    assert "Brain A" in to_text(lb) and "llm" in to_text(lb).split("Head-to-head")[1]


def test_a_lone_brain_has_no_head_to_head_table() -> None:
    lb = build_leaderboard(iq_run("heur", STRONG))
    assert lb.pairs == () and to_json(lb)["headToHead"] == []
    assert "Head-to-head" not in to_markdown(lb)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=10, max_size=10))
def test_seeds_won_by_each_and_ties_add_up_to_the_seeds(other: list[int]) -> None:
    lb = build_leaderboard(iq_run("heur", STRONG) + iq_run("llm", other), replicates=50)
    (pair,) = lb.pairs
    h = pair.summary
    assert h.wins_a + h.wins_b + h.ties == len(SEEDS)
    assert sum(pair.differences.values()) / len(SEEDS) == pytest.approx(h.mean_diff)
    assert h.low <= h.high


def test_an_index_written_with_snake_case_keys_still_loads_and_merges(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    merge_index(path, iq_run("heur", STRONG))
    data = json.loads(path.read_text())
    data["results"] = [asdict(GameResult.from_dict(d)) for d in data["results"]]
    path.write_text(json.dumps(data))
    assert [r.score for r in load_index(path)] == STRONG
    merged = merge_index(path, iq_run("rand", WEAK))
    assert all("endReason" in d and "end_reason" not in d for d in merged["results"])


def test_an_index_holding_a_broken_result_is_refused_with_one_message(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    merge_index(path, iq_run("heur", STRONG))
    data = json.loads(path.read_text())
    data["results"][0] = {"score": 1}
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"cannot read leaderboard index .*lacks"):
        load_index(path)
    with pytest.raises(ValueError, match="cannot read leaderboard index"):
        merge_index(path, iq_run("rand", WEAK))
