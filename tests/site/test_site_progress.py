"""`arcade-eval site` says what it is doing while it builds (one line per benchmark's pages, then
the writing), and `--quiet` keeps only the closing lines."""

from __future__ import annotations

from evaluation.cli import main
from evaluation.site.cli import ENTRIES


def test_site_prints_a_line_per_stage_and_quiet_silences_them(tmp_path, capsys):
    assert main(["site", "--output", str(tmp_path / "a"), str(ENTRIES)]) == 0
    lines = capsys.readouterr().out.splitlines()
    stages = [line for line in lines if line.startswith("site: ")]
    assert any("pages from 1 input(s)" in line for line in stages), lines
    assert stages[-2].startswith("site: writing ") and stages[-1].startswith("site: done in ")
    assert lines[-2].startswith("wrote ")
    assert main(["site", "--quiet", "--output", str(tmp_path / "b"), str(ENTRIES)]) == 0
    quiet = capsys.readouterr().out.splitlines()
    assert not [line for line in quiet if line.startswith("site: ")]
    assert quiet[0].startswith("wrote ")
