"""Fake agent CLIs for the tests: small Python scripts named `claude` and `codex`, written to a
folder the test puts first on PATH, that read the prompt on stdin and print their answer in the
tool's own structured output (`claude -p --output-format json`, `codex exec --json`), with token
usage (about four characters a token) and, for Claude Code, the tool's own cost figure.

They answer what each benchmark asks: the connection test's own example, a Sudoku grid copied
back unsolved, a tic-tac-toe move, the first Tetris candidate, else a NARCADE action. Each run
appends one line to `calls.log` beside the scripts (the prompt's first 60 characters), so a test
counts the tool's runs.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ANSWER = r"""
import json, re, sys
from pathlib import Path

prompt = sys.stdin.read()
with open(Path(__file__).with_name("calls.log"), "a") as log:
    log.write(json.dumps(prompt[:60]) + "\n")
example = re.search(
    r"Connection test\. Reply with (?:JSON only|exactly this JSON object): (.*)$", prompt, re.M
)
tetris = re.search(r"^([A-Z]{2}): x=", prompt, re.M)
if example:
    text = example.group(1)
elif "Connection test" in prompt:
    text = "<move>0 1</move>"
elif "Puzzle (. = empty cell):" in prompt:
    rows = prompt.split("Puzzle (. = empty cell):", 1)[1].strip().splitlines()[:9]
    text = json.dumps({"grid": rows, "confidence": 40})
elif tetris:
    text = json.dumps({"candidate": tetris.group(1), "hold": False, "risk": 0.1})
elif "<move>" in prompt:
    text = "<move>1 1</move>"
else:
    text = '{"action": "up"}'
prompt_tokens = len(prompt) // 4
output_tokens = len(text) // 4 + 1
"""

CLAUDE = (
    ANSWER
    + r"""
CACHED = 640  # Claude Code's own context, read from its prompt cache
print(json.dumps({
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "duration_ms": 12,
    "num_turns": 1,
    "result": text,
    "session_id": "fake",
    "total_cost_usd": 0.25,
    "usage": {
        "input_tokens": prompt_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": CACHED,
        "output_tokens": output_tokens,
    },
}))
"""
)

CODEX = (
    ANSWER
    + r"""
CACHED = 9800  # the Codex CLI's own context
events = [
    {"type": "thread.started", "thread_id": "fake"},
    {"type": "turn.started"},
    {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "I look."}},
    {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": text}},
    {"type": "turn.completed", "usage": {
        "input_tokens": prompt_tokens + CACHED,
        "cached_input_tokens": CACHED,
        "output_tokens": output_tokens,
    }},
]
print("\n".join(json.dumps(e) for e in events))
"""
)

LIMITED = r"""
import json, sys
sys.stdin.read()
print(json.dumps({"type": "result", "subtype": "success", "is_error": True,
                  "result": "Claude AI usage limit reached", "usage": {}}))
"""


def install(folder: Path, name: str, body: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Write `body` as the executable `folder/name` and put `folder` first on PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f"#!{sys.executable}\n{body}")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    return script


def runs(folder: Path) -> list[str]:
    """The prompts' beginnings of every run of the fake tools in `folder`."""
    log = folder / "calls.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def registry(folder: Path, command: str, *, pricing: str | None) -> Path:
    """A registry naming the agent CLI `command`, at `pricing` (a TOML inline table or None)."""
    path = folder / "models.toml"
    price = f"pricing = {pricing}\n" if pricing else ""
    path.write_text(
        f'[[models]]\nslug = "claude-code"\nname = "Claude (Claude Code)"\n'
        f'provider = "Anthropic"\nmodel = "claude-test"\ncommand = {json.dumps(command)}\n'
        f'api_key_env = ""\n{price}'
    )
    return path
