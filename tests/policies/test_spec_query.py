"""The one reader of a spec's `?name=value&...` options (`policies/spec_query.py`), and the two
prefixes that take them (`ppo:` search settings, `uci:` engine options) reporting alike."""

from __future__ import annotations

import pytest

from policies.engines.uci import parse_uci_spec
from policies.ppo.policy import PPOModelError, parse_search
from policies.spec_query import query_options


def test_pairs_come_in_order_with_blank_values_kept() -> None:
    assert query_options("", "?a=1") == []
    assert query_options("b=2&a=1&a=3&c=", "?a=1") == [
        ("b", "2"),
        ("a", "1"),
        ("a", "3"),
        ("c", ""),
    ]
    assert query_options("x=a%20b&y=1+2", "?a=1") == [("x", "a b"), ("y", "1 2")]


@pytest.mark.parametrize("query", ["depth", "a=1&&b=2", "=3", "a=1&b", "&"])
def test_text_that_is_not_pairs_is_one_error_showing_the_form(query: str) -> None:
    with pytest.raises(ValueError, match=r"write options as \?a=1, got \?"):
        query_options(query, "?a=1")


def test_both_prefixes_report_a_malformed_query_the_same_way() -> None:
    with pytest.raises(PPOModelError, match=r"^ppo:m\.pt: write options as \?depth=2"):
        parse_search("m.pt", "depth")
    with pytest.raises(ValueError, match=r"^uci: write options as \?UCI_Elo=1500"):
        parse_uci_spec("/bin/true?UCI_Elo")


def test_a_blank_search_setting_is_refused_not_ignored() -> None:
    with pytest.raises(PPOModelError, match="depth must be a whole number, got ''"):
        parse_search("m.pt", "depth=")


def test_a_blank_engine_option_is_kept() -> None:
    spec = parse_uci_spec("/bin/true?Debug Log File=&movetime=0.25")
    assert spec.options == {"Debug Log File": ""}
    assert spec.movetime == 0.25
