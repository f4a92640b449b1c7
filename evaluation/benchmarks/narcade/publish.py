"""NARCADE publication and paired comparison.

`publish(result_paths, label, output)` turns explicitly selected result files (`results.py`, both
formats: `results/<model>/<game>.json` and the older `<model>-<game>.json`) into one publication
(`PUBLICATION_FORMAT`): per game the protocol, seeds, settings and one entry per model with its
revision, hardware label, per-seed scores and mean. It refuses what would make a table lie:
failed or unfinished runs, the same model twice on a game, mixed observation protocols, seeds or
settings within a game, and mixed rules versions.

`compare(new, old)` pairs the two publications' episodes by seed for every model/game both hold:
paired score differences, the absolute change of the mean and the percentage change (when the old
mean is non-zero). Only the observation protocol may differ; changed model revisions, hardware,
rules version or seeds are refused, since the difference would then not measure the protocol, and
so is an LLM whose run identity changed (the model id behind its slug, the endpoint host, the
sampling or prompt settings, as its result files record them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.protocol import READABLE_RESULT_FORMATS
from evaluation.benchmarks.narcade.results import read_json
from evaluation.core.eventlog import utc_now_iso
from evaluation.core.rundir import write_json_atomic

PUBLICATION_FORMAT = "narcade-publication@1"
_SETTING_KEYS = ("mode", "difficulty", "maxDecisions", "maxPieces", "maxSeconds")


class PublishError(ValueError):
    """A publication or comparison that would mix incomparable runs (the message says which)."""


def _load_result(path: str | Path) -> dict[str, Any]:
    try:
        data = read_json(path)
    except (OSError, ValueError) as exc:
        raise PublishError(f"{path}: cannot read a result file ({exc})") from None
    if not isinstance(data, dict) or data.get("format") not in READABLE_RESULT_FORMATS:
        formats = " or ".join(READABLE_RESULT_FORMATS)
        raise PublishError(f"{path}: not a NARCADE result file (format {formats})")
    return data


def _entry(path: Path, data: Mapping[str, Any]) -> dict[str, Any]:
    model = data["model"]
    settings = data.get("settings", {})
    episodes = [
        {
            key: episode.get(key)
            for key in (
                "seed",
                "score",
                "endReason",
                "decisions",
                "invalidActions",
                "timeouts",
                "policyErrors",
                "latencyMs",
                "solveTimeMs",
            )
        }
        for episode in data["episodes"]
    ]
    scores = [float(e["score"]) for e in episodes]
    return {
        "model": model["spec"],
        "name": model.get("name"),
        "kind": model.get("kind"),
        "revision": model.get("revision"),
        "runIdentity": model.get("runIdentity"),
        "hardware": data.get("hardware"),
        "protocol": data["versions"]["protocol"],
        "rules": data["versions"]["rules"],
        "packageVersion": data["versions"].get("package"),
        "mode": data.get("gameMode"),
        "difficulty": settings.get("difficulty"),
        "maxDecisions": settings.get("maxDecisions"),
        "maxPieces": settings.get("maxPieces"),
        "maxSeconds": settings.get("maxSeconds"),
        "meanScore": sum(scores) / len(scores) if scores else None,
        "episodes": episodes,
        "source": "/".join(path.parts[-2:]),
    }


def _seeds(entry: Mapping[str, Any]) -> list[int]:
    return [int(e["seed"]) for e in entry["episodes"]]


def _one(values: Mapping[str, Any], what: str, game: str) -> Any:
    """The single value all entries share, or PublishError naming who differs."""
    distinct = {repr(v): v for v in values.values()}
    if len(distinct) > 1:
        detail = "; ".join(f"{source}: {value}" for source, value in values.items())
        raise PublishError(f"mixed {what} within game {game!r} ({detail}); publish one kind")
    return next(iter(distinct.values()))


def build_publication(result_paths: Sequence[str | Path], label: str) -> dict[str, Any]:
    """The publication of `result_paths` (see the module docstring), or PublishError."""
    if not result_paths:
        raise PublishError("give at least one result file")
    if not label.strip():
        raise PublishError("--label must not be empty")
    by_game: dict[str, list[dict[str, Any]]] = {}
    seen: dict[tuple[str, str], str] = {}
    rules: dict[str, str] = {}
    for raw in result_paths:
        path = Path(raw)
        data = _load_result(path)
        status = data.get("status")
        if status != "complete":
            why = f": {data['error']}" if data.get("error") else ""
            raise PublishError(
                f"{path}: the run is {status}{why}; only completed runs can be published"
            )
        model = str(data["model"]["spec"])
        game = str(data["game"])
        key = (model, game)
        if key in seen:
            raise PublishError(
                f"duplicate entry: model {model!r} on {game} appears in {seen[key]} and {path}; "
                "select one run per model and game"
            )
        seen[key] = str(path)
        entry = _entry(path, data)
        rules[str(path)] = entry["rules"]
        by_game.setdefault(game, []).append(entry)
    if len(set(rules.values())) > 1:
        detail = "; ".join(f"{p}: {v}" for p, v in rules.items())
        raise PublishError(f"mixed rules versions ({detail}); publish runs of one rules version")
    games: dict[str, Any] = {}
    for game in sorted(by_game):
        entries = by_game[game]
        protocol = _one(
            {e["source"]: e["protocol"] for e in entries}, "observation protocols", game
        )
        seeds = _one({e["source"]: _seeds(e) for e in entries}, "seeds", game)
        settings = _one(
            {e["source"]: {k: e[k] for k in _SETTING_KEYS} for e in entries}, "settings", game
        )
        entries.sort(key=lambda e: (-(e["meanScore"] or 0.0), e["model"]))
        games[game] = {"protocol": protocol, "seeds": seeds, **settings, "entries": entries}
    return {
        "format": PUBLICATION_FORMAT,
        "label": label,
        "createdAt": utc_now_iso(),
        "versions": {"rules": next(iter(rules.values()))},
        "games": games,
        "comparison": None,
    }


def _load_publication(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(source, Mapping):
        data = dict(source)
    else:
        try:
            data = read_json(source)
        except (OSError, ValueError) as exc:
            raise PublishError(f"{source}: cannot read a publication ({exc})") from None
    if data.get("format") != PUBLICATION_FORMAT:
        raise PublishError(f"{source}: not a NARCADE publication (format {PUBLICATION_FORMAT})")
    return data


def compare(
    new: str | Path | Mapping[str, Any], old: str | Path | Mapping[str, Any]
) -> dict[str, Any]:
    """Paired seed comparison of two publications (see the module docstring), or PublishError."""
    new_pub, old_pub = _load_publication(new), _load_publication(old)
    new_rules, old_rules = new_pub["versions"]["rules"], old_pub["versions"]["rules"]
    if new_rules != old_rules:
        raise PublishError(
            f"rules version changed ({old_rules} -> {new_rules}); only the observation protocol "
            "may differ between compared runs"
        )
    out_games: dict[str, Any] = {}
    only_new: list[str] = []
    only_old: list[str] = []
    notes: list[str] = []
    for game in sorted(set(new_pub["games"]) | set(old_pub["games"])):
        if game not in old_pub["games"]:
            only_new.extend(f"{e['model']}/{game}" for e in new_pub["games"][game]["entries"])
            continue
        if game not in new_pub["games"]:
            only_old.extend(f"{e['model']}/{game}" for e in old_pub["games"][game]["entries"])
            continue
        new_game, old_game = new_pub["games"][game], old_pub["games"][game]
        if list(new_game["seeds"]) != list(old_game["seeds"]):
            raise PublishError(
                f"seeds changed on {game} ({old_game['seeds']} -> {new_game['seeds']}); rerun "
                "with the reference seeds"
            )
        for key in _SETTING_KEYS:
            if new_game.get(key) != old_game.get(key):
                notes.append(f"{game}: {key} changed ({old_game.get(key)} -> {new_game.get(key)})")
        old_entries = {e["model"]: e for e in old_game["entries"]}
        new_entries = {e["model"]: e for e in new_game["entries"]}
        only_new.extend(f"{m}/{game}" for m in sorted(set(new_entries) - set(old_entries)))
        only_old.extend(f"{m}/{game}" for m in sorted(set(old_entries) - set(new_entries)))
        models = {}
        for model in sorted(set(new_entries) & set(old_entries)):
            models[model] = _compare_entry(game, new_entries[model], old_entries[model])
        out_games[game] = {
            "protocol": {"old": old_game["protocol"], "new": new_game["protocol"]},
            "seeds": new_game["seeds"],
            "models": models,
        }
    if not any(g["models"] for g in out_games.values()):
        raise PublishError("the two publications share no model/game entry to compare")
    return {
        "against": old_pub.get("label"),
        "rules": new_rules,
        "games": out_games,
        "onlyNew": only_new,
        "onlyOld": only_old,
        "notes": notes,
    }


def _compare_entry(game: str, new: Mapping[str, Any], old: Mapping[str, Any]) -> dict[str, Any]:
    model = new["model"]
    for key, what in (("revision", "model revision"), ("hardware", "hardware")):
        if new.get(key) != old.get(key):
            raise PublishError(
                f"{model} on {game}: {what} changed ({old.get(key)!r} -> {new.get(key)!r}); "
                "compare runs of the same model revision on the same hardware"
            )
    changed = _settings_changed(old.get("runIdentity"), new.get("runIdentity"))
    if changed:
        raise PublishError(
            f"{model} on {game}: the model behind it changed ({'; '.join(changed[:5])}); "
            "compare runs of the same model, endpoint and settings"
        )
    old_scores = {int(e["seed"]): float(e["score"]) for e in old["episodes"]}
    new_scores = {int(e["seed"]): float(e["score"]) for e in new["episodes"]}
    if sorted(old_scores) != sorted(new_scores):
        raise PublishError(
            f"{model} on {game}: seeds changed ({sorted(old_scores)} -> {sorted(new_scores)})"
        )
    pairs = [
        {"seed": s, "old": old_scores[s], "new": new_scores[s], "difference": new_scores[s] - v}
        for s, v in sorted(old_scores.items())
    ]
    old_mean = sum(old_scores.values()) / len(old_scores)
    new_mean = sum(new_scores.values()) / len(new_scores)
    return {
        "oldMean": old_mean,
        "newMean": new_mean,
        "meanChange": new_mean - old_mean,
        "percentChange": None if old_mean == 0 else (new_mean - old_mean) / abs(old_mean) * 100,
        "meanPairedDifference": sum(p["difference"] for p in pairs) / len(pairs),
        "pairs": pairs,
        "protocol": {"old": old.get("protocol"), "new": new.get("protocol")},
    }


def _settings_changed(old: Any, new: Any) -> list[str]:
    """`key: old -> new` for each run-identity setting that differs (model id, endpoint host,
    sampling, prompt version, ...); a publication without them (not an LLM) compares equal."""
    old_map = old if isinstance(old, Mapping) else {}
    new_map = new if isinstance(new, Mapping) else {}
    return [
        f"{key}: {old_map.get(key)!r} -> {new_map.get(key)!r}"
        for key in sorted(set(old_map) | set(new_map))
        if old_map.get(key) != new_map.get(key)
    ]


def publish(
    result_paths: Sequence[str | Path],
    label: str,
    output: str | Path,
    *,
    compare_with: str | Path | None = None,
) -> dict[str, Any]:
    """Write the publication of `result_paths` to `output` (with a comparison against
    `compare_with` when given) and return it; PublishError says what was refused."""
    out = Path(output)
    if compare_with is not None and Path(compare_with).resolve() == out.resolve():
        raise PublishError("--output must be a new file, not the --compare-with publication")
    publication = build_publication(result_paths, label)
    if compare_with is not None:
        publication["comparison"] = compare(publication, compare_with)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, publication)
    return publication


def format_comparison(comparison: Mapping[str, Any]) -> str:
    """A text table of a comparison: per model/game the means, changes and paired differences."""
    lines = [f"compared with {comparison.get('against')!r} (rules {comparison.get('rules')})"]
    header = f"{'game':<12}{'model':<22}{'old':>10}{'new':>10}{'change':>10}{'%':>9}  pairs"
    lines += [header, "-" * len(header)]
    for game, block in comparison["games"].items():
        for model, row in block["models"].items():
            pct = "-" if row["percentChange"] is None else f"{row['percentChange']:+.1f}"
            pairs = " ".join(f"{p['seed']}:{p['difference']:+g}" for p in row["pairs"])
            lines.append(
                f"{game:<12}{model:<22}{row['oldMean']:>10.2f}{row['newMean']:>10.2f}"
                f"{row['meanChange']:>+10.2f}{pct:>9}  {pairs}"
            )
    for note in _iter(comparison.get("notes")):
        lines.append(f"note: {note}")
    return "\n".join(lines)


def _iter(value: Iterable[str] | None) -> Iterable[str]:
    return value or ()
