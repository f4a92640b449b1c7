"""An `llm:SLUG` policy plays NARCADE through the real client against a chat server on
127.0.0.1 (no network): one pre-flight per game, every decision logged, every log verifying
(identity recorded, not proven), the model's identity in its result files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.report import mean_score_table
from evaluation.benchmarks.narcade.results import read_json
from evaluation.core.rundir import safe_name
from evaluation.core.verify import log_files, verify_log
from tests.evaluation.narcade.conftest import GAMES, run
from tests.policies.chat_server import ChatHandler, ChatServer, serving


class FirstAction(ChatHandler):
    """A model that always plays the first action it is offered."""

    server: ChatServer

    def do_POST(self) -> None:  # noqa: N802  (the http.server hook name)
        body = self.read_json()
        prompt = body["messages"][-1]["content"]
        self.server.state.append(prompt)
        if "Connection test" in prompt:
            self.send_completion(body, '{"action":"up"}')
            return
        match = re.search(r"^Actions: (\[.*\])$", prompt, re.MULTILINE)
        actions = json.loads(match.group(1)) if match else ["?"]
        self.send_completion(body, json.dumps({"action": actions[0]}))


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with serving(ChatServer(FirstAction, [])) as srv:
        yield srv


def test_an_llm_model_plays_every_game_into_verified_logs(
    server: ChatServer, tmp_path: Path
) -> None:
    models = tmp_path / "models.toml"
    models.write_text(
        '[[models]]\nslug = "first"\nname = "First action"\nprovider = "Test"\n'
        'model = "test/first"\njson_schema = true\napi_key_env = ""\n'
        f'base_url = "{server.base_url}"\n'
    )
    out = tmp_path / "run"
    code = run(out, models="llm:first", episodes=1, max_decisions=6, models_file=str(models))
    assert code == 0
    prompts: list[str] = server.state
    assert sum("Connection test" in p for p in prompts) == len(GAMES)  # one pre-flight a game
    manifest: dict[str, Any] = read_json(out / "manifest.json")
    entry = manifest["models"]["llm:first"]
    assert entry["status"] == "complete" and entry["kind"] == "llm"
    for game in GAMES:
        data = read_json(out / entry["files"][game])
        assert data["model"]["model"] == "test/first" and data["model"]["spec"] == "llm:first"
        assert data["model"]["runIdentity"]["baseUrlHost"].startswith("127.0.0.1:")
        assert data["episodes"][0]["invalidActions"] == 0
        episode = data["episodes"][0]
        assert episode["promptTokens"] > 0 and episode["completionTokens"] > 0
        assert data["summary"]["promptTokens"] == episode["promptTokens"]
    table = mean_score_table(out)
    assert "total: tokens in/out, cost" in table
    summary = read_json(out / entry["files"][GAMES[0]])["summary"]
    totals = f"{summary['promptTokens']:,}/{summary['completionTokens']:,} "
    assert totals in table and "$" in table.split(totals, 1)[1].split()[0]
    logs = log_files([out / "logs"])
    assert len(logs) == len(GAMES)
    for log in logs:
        report = verify_log(log)
        assert report.ok and "identity recorded, not proven" in report.message


def test_the_cost_cap_stops_the_run_resumably(server: ChatServer, tmp_path: Path) -> None:
    models = tmp_path / "models.toml"
    models.write_text(
        '[[models]]\nslug = "first"\nprovider = "Test"\nmodel = "test/first"\n'
        f'json_schema = true\napi_key_env = ""\nbase_url = "{server.base_url}"\n'
    )
    out = tmp_path / "run"
    kw: dict[str, Any] = {"models": "llm:first", "games": "snake", "max_decisions": 6}
    kw |= {"models_file": str(models), "isolate": False}
    said: list[str] = []
    assert run(out, max_cost_usd=1e-4, log=said.append, **kw) == 1  # a stop on our side
    assert len(said) == 1 and said[0].startswith("arcade-eval narcade: stopped: CostCapReached")
    data = read_json(out / "results" / safe_name("llm:first") / "snake.json")
    assert data["status"] == "interrupted" and "stopped" in data["error"]
    spent = sum(e["costUsd"] for e in data["episodes"])
    assert len(data["episodes"]) < 2 and spent <= 1e-4
    assert run(out, max_cost_usd=1.0, resume=True, **kw) == 0
    data = read_json(out / "results" / safe_name("llm:first") / "snake.json")
    assert data["status"] == "complete" and all(e["costUsd"] > 0 for e in data["episodes"])
