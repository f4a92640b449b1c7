"""Game-independent engines: programs that answer a request given as text with text.

- `make_bf_engine(path)`: a Brainfuck program, run in-process (`bf:PATH`);
- `make_command_engine(command)`: any program, one process per request (`cmd:COMMAND`);
- `make_cli_engine(command)`: an agent command-line tool, the prompt on stdin (`cli:COMMAND`).

Each returns an object with `run(text, deadline_s=None, *, cancel=None) -> EngineOutput`:
`deadline_s` is the time the request may take, in seconds from now (None: the engine's own
timeout); `cancel` is a `threading.Event` that abandons it. `run` never raises for the engine's
fault: `EngineOutput.error` / `.failure` say what went wrong. Processes run in a session of their
own under resource limits (`policies/engines/limits.py`) and their whole tree is killed when the
request ends (`policies/engines/process.py`). `EnginePolicy` (`policies/engines/policy.py`) turns
an engine into a policy for a game, given that game's encode and decode functions.
"""

from policies.engines.agent_cli import make_cli_engine
from policies.engines.brainfuck.engine import BrainfuckTextEngine, make_bf_engine
from policies.engines.limits import NO_LIMITS, ResourceLimits
from policies.engines.output import EngineOutput
from policies.engines.policy import EnginePolicy, TextEngine
from policies.engines.process import ProcessEngine, kill_tree, make_command_engine, spawn

__all__ = [
    "NO_LIMITS",
    "BrainfuckTextEngine",
    "EngineOutput",
    "EnginePolicy",
    "ProcessEngine",
    "ResourceLimits",
    "TextEngine",
    "kill_tree",
    "make_bf_engine",
    "make_cli_engine",
    "make_command_engine",
    "spawn",
]
