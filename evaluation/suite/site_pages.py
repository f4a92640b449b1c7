"""The suite's pages on the results site: the policies x benchmarks matrix (on the home page and
the `suite/` section), a page per policy across every benchmark it played, and a comparison
page for each pair of policies.

Every figure is the suite's own `scorecard.json` (`evaluation/suite/scorecard.py`), formatted by
the scorecard's functions (`figure`, `interval_text`), so the site, `scorecard.md` and the printed
matrix show one set of numbers. Paired differences come from each benchmark's `compare` hook
(`evaluation/suite/paired.py`); the benchmarks' own pages (made from the suite's part
directories by their `site` hooks) are linked, never rebuilt here. This module names no
benchmark.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.core.money import usd
from evaluation.core.registry import Benchmark, benchmarks
from evaluation.core.rundir import safe_name
from evaluation.site.build import SiteBuild
from evaluation.site.html import Markup, definition_list, esc, join, link, table
from evaluation.site.plots import interval_plot, strip_plot
from evaluation.site.replay_index import IndexedBuild
from evaluation.suite.paired import Paired
from evaluation.suite.scorecard import failures_text, figure, interval_text, tokens_text
from evaluation.suite.site_inputs import SuiteInput, text

SECTION = "suite"
MAX_REPLAY_LINKS = 60
"""Replay links per benchmark on a policy's page (the benchmark's own pages list every one)."""


def _diff(value: float) -> str:
    """A paired difference as the leaderboards' head-to-head tables show it (`+1,234.5`)."""
    return f"{value:+,.1f}"


class SuitePages:
    """Every suite page of one build: `add` once the benchmarks have added their pages."""

    def __init__(
        self, suites: Sequence[SuiteInput], build: SiteBuild, sections: Mapping[str, str]
    ) -> None:
        self.suites = list(suites)
        self.build = build
        self.sections = dict(sections)
        """Benchmark name -> the index page of the section its `site` hook added."""
        self.known: dict[str, Benchmark] = {b.name: b for b in benchmarks()}
        self.bases = self._bases()
        self.policy_pages: dict[tuple[int, str], str] = {}
        self.compare_pages: dict[tuple[int, str, str], str] = {}
        for index, suite in enumerate(self.suites):
            used: set[str] = set()
            for policy in suite.policies:
                name = safe_name(policy)
                while name in used:
                    name = safe_name(f"{name}-{len(used)}")
                used.add(name)
                self.policy_pages[(index, policy)] = f"{self.bases[index]}/policies/{name}.html"
            for a, b in itertools.combinations(suite.policies, 2):
                pa, pb = (Path(self.policy_pages[(index, p)]).stem for p in (a, b))
                name = safe_name(f"{pa}--{pb}")  # long names: cut, with a hash
                self.compare_pages[(index, a, b)] = f"{self.bases[index]}/compare/{name}.html"

    def _bases(self) -> list[str]:
        if len(self.suites) == 1:
            return [SECTION]
        used: set[str] = set()
        bases = []
        for suite in self.suites:
            key = safe_name(suite.name)
            while key in used:
                key = safe_name(f"{key}-{len(used)}")
            used.add(key)
            bases.append(f"{SECTION}/{key}")
        return bases

    # -- the matrix ---------------------------------------------------------------------------

    def benchmark_link(self, page: str, name: str) -> Markup:
        index = self.sections.get(name)
        return link(self.build.href(page, index), name) if index else esc(name)

    def cell_html(self, page: str, index: int, policy: str, name: str) -> Markup:
        """One matrix cell: each headline's number, 95% interval and normalised score, linking
        to the benchmark's pages; a cell that did not play says why."""
        suite = self.suites[index]
        cell = suite.cell(policy, name)
        target = self.sections.get(name)
        href = self.build.href(page, target) if target else None
        quick = cell["label"] != "official"
        parts = []
        if cell["status"] != "ok":
            shown = link(href, cell["status"]) if href else esc(cell["status"])
            parts.append(Markup(f'<span class="status" title="{esc(cell["note"])}">{shown}</span>'))
        for h in cell["headlines"]:
            label = Markup(f"{esc(h['label'])}: ") if len(cell["headlines"]) > 1 else Markup("")
            value = figure(h["value"])
            shown = link(href, value) if href else esc(value)
            norm = "n/a" if h["normalised"] is None else figure(h["normalised"])
            parts.append(
                Markup(
                    f'<span class="headline" data-label="{esc(h["label"])}">{label}'
                    f'<span class="value">{shown}</span> '
                    f'<span class="interval">{esc(interval_text(h))}</span> '
                    f'<span class="normalised" title="normalised: 0 random, 100 strongest '
                    f'built-in">norm {esc(norm)}</span></span>'
                )
            )
        if quick and cell["status"] == "ok":
            parts.append(
                Markup(f'<span class="quick note">{esc(cell["label"] or "not official")}</span>')
            )
        return Markup(
            f'<div class="suite-cell" data-policy="{esc(policy)}" data-benchmark="{esc(name)}">'
            f"{join(parts, '<br>')}</div>"
        )

    def matrix(self, page: str, index: int) -> Markup:
        """The policies x benchmarks table of one suite run, as seen from `page`."""
        suite = self.suites[index]
        names = [b["name"] for b in suite.card["benchmarks"]]
        rows = []
        for policy in suite.policies:
            own = self.build.href(page, self.policy_pages[(index, policy)])
            rows.append(
                [link(own, policy)]
                + [self.cell_html(page, index, policy, n) for n in names]
                + [suite.card["label"]]
            )
        headers = ["Policy", *(self.benchmark_link(page, n) for n in names), "Budget"]
        key = Markup(
            '<p class="note">Each cell: the headline, its 95% interval and the normalised score '
            "(0 = the random built-in, 100 = the strongest built-in), linking to the "
            "benchmark's pages.</p>"
        )
        return key + table(headers, rows, table_id=f"suite-matrix-{index}")

    def links(self, page: str, index: int) -> Markup:
        """Links to a suite's policy pages and comparison pages."""
        suite = self.suites[index]
        policies = [
            link(self.build.href(page, self.policy_pages[(index, p)]), p) for p in suite.policies
        ]
        pairs = [
            link(self.build.href(page, path), f"{a} vs {b}")
            for (i, a, b), path in self.compare_pages.items()
            if i == index
        ]
        html = [Markup("<p>Policies: "), join(policies, ", "), Markup(".</p>")]
        if pairs:
            html += [Markup("<p>Compare: "), join(pairs, ", "), Markup(".</p>")]
        return join(html)

    # -- the pages ----------------------------------------------------------------------------

    def add(self) -> None:
        """The home-page matrix, the section, the policy and comparison pages."""
        if not self.suites:
            return
        self.build.section(
            SECTION,
            "Suite",
            Markup(
                f"<p>{len(self.suites)} suite run(s): each policy across the benchmarks, a page "
                "per policy, paired comparisons.</p>"
            ),
        )
        home = []
        for index, suite in enumerate(self.suites):
            home += [
                Markup(f"<h2>Suite scorecard: {esc(suite.name)}</h2>"),
                self._label_note(suite),
                self.matrix("index.html", index),
                self.links("index.html", index),
            ]
        self.build.home(join(home, "\n"))
        body = []
        for index, suite in enumerate(self.suites):
            base = self.bases[index]
            card = self.build.json(f"{base}/scorecard.json", suite.card)
            page = f"{SECTION}/index.html"
            body += [
                Markup(f"<h2>{esc(suite.name)}</h2>"),
                self._label_note(suite),
                self.matrix(page, index),
                self.links(page, index),
                Markup(
                    f"<p>{link(self.build.href(page, card), 'scorecard.json')}: every figure "
                    f"of this table. {esc(suite.card['normalisation'])}.</p>"
                ),
            ]
            for policy in suite.policies:
                self.policy_page(index, policy)
            for (i, a, b), path in self.compare_pages.items():
                if i == index:
                    self.compare_page(index, a, b, path)
        self.build.page(f"{SECTION}/index.html", "Suite scorecards", join(body, "\n"))

    @staticmethod
    def _label_note(suite: SuiteInput) -> Markup:
        if suite.card["budget"] == "official":
            shown = "Official budget: each benchmark under its own official protocol."
        else:
            shown = (
                f"Budget {suite.card['budget'] or '?'} ({suite.card['label']}): a small sample "
                "of each benchmark, not its official protocol."
            )
        return Markup(f'<p class="note">{esc(shown)}</p>')

    def _facts(self, suite: SuiteInput, name: str, spec: str | None) -> Markup:
        """Who played as `spec` on benchmark `name` and under which settings (its run's
        manifest)."""
        manifest = suite.manifests.get(name) or {}
        identity = None
        for key in ("policies", "models"):  # a run's manifest names its policies one way
            listed = manifest.get(key)
            found = listed.get(spec) if isinstance(listed, dict) and spec else None
            if isinstance(found, dict):
                identity = found
                break
        items: list[tuple[object, object]] = [("Played as", spec)]
        if isinstance(identity, dict):
            for key in ("name", "kind", "provider", "model", "description"):
                items.append((key.capitalize(), text(identity.get(key)) or None))
            run_identity = identity.get("runIdentity")
            for key, value in run_identity.items() if isinstance(run_identity, dict) else []:
                items.append((f"runIdentity.{text(key, 60)}", _short(value)))
        settings = manifest.get("settings")
        shown = [
            (text(k, 60), _short(v))
            for k, v in (settings.items() if isinstance(settings, dict) else [])
        ][:30]
        html = [definition_list(items)]
        if shown:
            html.append(
                Markup("<details><summary>Settings of the run</summary>")
                + definition_list(shown)
                + Markup("</details>")
            )
        return join(html)

    def _chart(self, suite: SuiteInput, name: str, policy: str, cell: dict[str, Any]) -> Markup:
        """The policy's headlines on this benchmark against its references: on the normalised
        scale (0 random, 100 strongest built-in) when every headline has one, else raw."""
        heads = cell["headlines"]
        refs: dict[str, dict[str, float]] = next(
            (b["references"] for b in suite.card["benchmarks"] if b["name"] == name), {}
        )
        if heads and all(h["normalised"] is not None for h in heads):
            rows = [("random built-in", 0.0, 0.0, 0.0), ("strongest built-in", 100.0, 100.0, 100.0)]
            for h in heads:
                r = refs.get(h["label"], {})
                low, high = r.get("random"), r.get("strongest")
                scale = None if low is None or high is None or high == low else 100 / (high - low)
                lo = hi = h["normalised"]
                if scale is not None and h["low95"] is not None and h["high95"] is not None:
                    lo, hi = (h["low95"] - low) * scale, (h["high95"] - low) * scale
                rows.insert(-1, (f"{policy}: {h['label']}", lo, h["normalised"], hi))
            return interval_plot(
                rows, title=f"{name}: normalised score", x_label="normalised score", width=480
            )
        rows = [
            (h["label"], h["low95"] if h["low95"] is not None else h["value"], h["value"],
             h["high95"] if h["high95"] is not None else h["value"])
            for h in heads
            if h["value"] is not None
        ]  # fmt: skip
        if not rows:
            return Markup("")
        return interval_plot(rows, title=f"{name}: headline", x_label="headline", width=480)

    def _replays(self, page: str, suite: SuiteInput, name: str, spec: str | None) -> Markup:
        """Links to the replay pages the benchmark made from this policy's logs (a run directory
        keeps a policy's logs under `logs/<spec>/`, `evaluation/core/rundir.py`)."""
        part = suite.parts.get(name)
        if part is None or spec is None or not isinstance(self.build, IndexedBuild):
            return Markup("")
        found = self.build.replays_under(part / "logs" / safe_name(spec))
        if not found:
            return Markup('<p class="note">No replay of this policy on this site.</p>')
        items = [
            link(self.build.href(page, target), log.with_suffix("").as_posix())
            for log, target in list(found.items())[:MAX_REPLAY_LINKS]
        ]
        more = len(found) - len(items)
        tail = Markup(f" and {more} more on the benchmark's pages") if more > 0 else Markup("")
        return Markup(f'<p class="replays">Replays: {join(items, ", ")}{tail}.</p>')

    def policy_page(self, index: int, policy: str) -> None:
        """One policy across every benchmark of the suite."""
        suite = self.suites[index]
        path = self.policy_pages[(index, policy)]
        names = [b["name"] for b in suite.card["benchmarks"]]
        summary = []
        for name in names:
            cell = suite.cell(policy, name)
            heads = "; ".join(
                f"{h['label']} {figure(h['value'])} {interval_text(h)}" for h in cell["headlines"]
            )
            summary.append(
                [
                    self.benchmark_link(path, name),
                    cell["status"],
                    heads or None,
                    usd(cell["costUsd"]),
                    tokens_text(cell),
                    cell["seconds"],
                    failures_text(cell),
                ]
            )
        html = [
            self._label_note(suite),
            table(
                [
                    "Benchmark",
                    "Status",
                    "Headline [95% interval]",
                    "Cost",
                    "Tokens",
                    "Time (s)",
                    "Invalid / illegal / timeouts / aborted",
                ],
                summary,
                table_id="policy-benchmarks",
            ),
        ]
        others = [
            link(self.build.href(path, target), f"{a} vs {b}")
            for (i, a, b), target in self.compare_pages.items()
            if i == index and policy in (a, b)
        ]
        if others:
            html.append(Markup("<p>Compare: ") + join(others, ", ") + Markup(".</p>"))
        for name in names:
            cell = suite.cell(policy, name)
            html.append(Markup(f"<h2>{self.benchmark_link(path, name)}</h2>"))
            if cell["status"] != "ok":
                note = f": {cell['note']}" if cell["note"] else ""
                html.append(Markup(f"<p>{esc(cell['status'] + note)}</p>"))
                continue
            html += [
                self._facts(suite, name, cell["spec"]),
                self._chart(suite, name, policy, cell),
                self._replays(path, suite, name, cell["spec"]),
            ]
        data = {
            "suite": suite.name,
            "policy": policy,
            "cells": {n: suite.cell(policy, n) for n in names},
        }
        self.build.page(
            path, f"{policy} across the suite", join(html, "\n"), section=SECTION, data=data
        )

    def pairs(self, suite: SuiteInput, name: str, a: str, b: str) -> tuple[list[Paired], str]:
        """The benchmark's paired comparisons of A and B, or why there are none."""
        ca, cb = suite.cell(a, name), suite.cell(b, name)
        if ca["status"] != "ok" or cb["status"] != "ok":
            return [], "not played by both"
        hook = getattr(self.known.get(name), "compare", None)
        part = suite.parts.get(name)
        if hook is None:
            return [], "this benchmark does not pair its games: compare the intervals"
        if part is None or not ca["spec"] or not cb["spec"]:
            return [], "the benchmark's run is not on this site"
        try:
            found = [p for p in hook(part, ca["spec"], cb["spec"]) if isinstance(p, Paired)]
        except (OSError, ValueError, KeyError, TypeError) as error:
            return [], f"cannot pair them: {text(str(error), 200)}"
        return found, "" if found else "nothing pairs them (the same built-in, or no shared unit)"

    def compare_page(self, index: int, a: str, b: str, path: str) -> None:
        """A against B on every benchmark: both headlines, and the paired difference where the
        benchmark pairs its games."""
        suite = self.suites[index]
        names = [bench["name"] for bench in suite.card["benchmarks"]]
        rows = []
        details = []
        data: dict[str, Any] = {"suite": suite.name, "a": a, "b": b, "pairs": {}}
        for name in names:
            ca, cb = suite.cell(a, name), suite.cell(b, name)
            found, why = self.pairs(suite, name, a, b)
            data["pairs"][name] = [p.to_json() for p in found]
            by_label = {p.label: p for p in found}
            labels = [h["label"] for h in ca["headlines"]] or [""]
            for label in labels:
                ha = next((h for h in ca["headlines"] if h["label"] == label), None)
                hb = next((h for h in cb["headlines"] if h["label"] == label), None)
                paired = by_label.get(label)
                rows.append(
                    [
                        self.benchmark_link(path, name),
                        label or None,
                        _headline(ha, ca),
                        _headline(hb, cb),
                        esc(_diff(paired.summary.mean_diff)) if paired else esc(why or "n/a"),
                        esc(_interval(paired)) if paired else None,
                        esc(_wins(paired)) if paired else None,
                    ]
                )
            if found:
                details.append(Markup(f"<h2>{self.benchmark_link(path, name)}</h2>"))
                for p in found:
                    details.append(Markup(f'<p class="note">{esc(p.label)}: {esc(p.method)}.</p>'))
                    if p.differences:
                        details.append(
                            strip_plot(
                                {f"{a} - {b}": list(p.differences.values())},
                                title=f"{p.label}: {a} - {b} per {p.unit}",
                                x_label=f"difference ({p.label})",
                                point_labels={f"{a} - {b}": list(p.differences)},
                                width=560,
                            )
                        )
        html = [
            self._label_note(suite),
            table(
                [
                    "Benchmark",
                    "Headline",
                    f"{a} [95%] (norm)",
                    f"{b} [95%] (norm)",
                    f"Paired {a} - {b}",
                    "95% interval",
                    "Units won A / B / tied",
                ],
                rows,
                table_id="comparison",
            ),
            Markup(
                '<p class="note">Paired: the two policies on the same units (seeds, grids, '
                "positions, matches), each benchmark's own interval; \u2248 marks an interval "
                "that includes zero.</p>"
            ),
            *details,
        ]
        self.build.page(path, f"{a} vs {b}", join(html, "\n"), section=SECTION, data=data)


def _short(value: Any) -> str | None:
    """A setting as one bounded line (lists joined, objects as key=value)."""
    if isinstance(value, list):
        return text(
            ", ".join(text(v, 60) for v in value[:12]) + (", ..." if len(value) > 12 else "")
        )
    if isinstance(value, dict):
        return text("; ".join(f"{text(k, 40)}={text(v, 60)}" for k, v in list(value.items())[:12]))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return text(value) or None


def _headline(h: dict[str, Any] | None, cell: dict[str, Any]) -> str:
    if h is None:
        return cell["status"]
    norm = "n/a" if h["normalised"] is None else figure(h["normalised"])
    return f"{figure(h['value'])} {interval_text(h)} (norm {norm})"


def _interval(p: Paired) -> str:
    s = p.summary
    return f"[{_diff(s.low)}, {_diff(s.high)}]" + (" \u2248" if s.includes_zero else "")


def _wins(p: Paired) -> str:
    s = p.summary
    return f"{s.wins_a} / {s.wins_b} / {s.ties} of {s.n} {p.unit}s"


def add_pages(suites: Sequence[SuiteInput], build: SiteBuild, sections: Mapping[str, str]) -> None:
    """The suite pages of `suites` (nothing when there is none)."""
    SuitePages(suites, build, sections).add()
