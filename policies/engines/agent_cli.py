"""Agent command-line tools as engines (`cli:COMMAND`, e.g. `cli:claude -p` or `cli:codex exec`).

An agent CLI is a per-request process like a `cmd:` engine (`policies/engines/process.py`): the
prompt goes to its stdin, the reply is read from its stdout, and its whole process tree is killed
when the request ends. Only the defaults differ, because these are chat tools, not game engines:
UTF-8 text, minutes rather than seconds, replies up to 1 MB, and no address-space cap (their
runtimes, node or a JIT, reserve far more virtual memory than they use; pass `limits=` to cap
anyway). Turning a game question into a prompt and reading the reply is the chat lanes' job
(`policies/llm/cli_backend.py`).
"""

from __future__ import annotations

from policies.engines.limits import ResourceLimits
from policies.engines.process import ProcessEngine

CLI_TIMEOUT_S = 300.0
CLI_MAX_OUTPUT = 1_048_576
CLI_LIMITS = ResourceLimits(memory_mb=None, cpu_seconds=None, file_mb=None)


def make_cli_engine(command: str, **options: object) -> ProcessEngine:
    """The `cli:COMMAND` engine: `run(prompt, deadline_s) -> EngineOutput` with the agent-CLI
    defaults above; keyword options override `ProcessEngine`'s fields."""
    settings: dict[str, object] = {
        "timeout_s": CLI_TIMEOUT_S,
        "max_output": CLI_MAX_OUTPUT,
        "limits": CLI_LIMITS,
        "encoding": "utf-8",
    }
    settings.update(options)
    return ProcessEngine(command, **settings)  # type: ignore[arg-type]
