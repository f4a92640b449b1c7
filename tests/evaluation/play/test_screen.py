"""The terminal's plain key names and the score panel beside a board."""

from __future__ import annotations

import curses

from evaluation.play.screen import beside, key_name


def test_keys_get_plain_names():
    assert key_name(curses.KEY_LEFT) == "left"
    assert key_name(curses.KEY_DOWN) == "down"
    assert key_name("\n") == key_name("\r") == key_name(curses.KEY_ENTER) == "enter"
    assert key_name(" ") == "space"
    assert key_name("\x7f") == key_name(curses.KEY_BACKSPACE) == "backspace"
    assert key_name("\x1b") == "escape"
    assert key_name("q") == "q" and key_name("?") == "?"
    assert key_name(curses.KEY_F1).startswith("key-")


def test_a_panel_sits_beside_the_board_without_trailing_blanks():
    lines = beside(["ab", "abcd", "a"], ["score 1", "lines 2"])
    assert lines == ["ab     score 1", "abcd   lines 2", "a"]
    assert beside([], ["x"]) == []
