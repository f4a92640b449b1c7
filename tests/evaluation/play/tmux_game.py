"""A game of `arcade-eval play` in a detached tmux session of fixed size, driven like a person:
keys sent with `tmux send-keys`, the screen read with `tmux capture-pane -p`.

Each session runs on its own tmux server (`-L`, a socket of its own), so tests never touch a
person's tmux; `close()` ends that server only. Waits poll the screen with generous timeouts (the
machine is shared): nothing here asserts speed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

TMUX = shutil.which("tmux")
WIDTH, HEIGHT = 110, 50
TIMEOUT_S = 120.0
"""How long a wait may take before the test fails (a loaded machine compiles slowly)."""
REPO = Path(__file__).resolve().parents[3]


class TmuxGame:
    """One `arcade-eval play ...` in tmux; the command's exit status lands in `exit_file`."""

    def __init__(self, args: list[str], work: Path) -> None:
        assert TMUX is not None
        self.socket = f"arcade-play-{uuid.uuid4().hex[:12]}"
        self.exit_file = work / "exit-status"
        command = " ".join(
            [shlex.quote(sys.executable), "-m", "evaluation.cli", "play", *map(shlex.quote, args)]
        )
        script = f"cd {shlex.quote(str(REPO))} && {command}; echo $? > {self.exit_file}; sleep 600"
        # LINES and COLUMNS would override the pane's size in curses (pytest-xdist's workers
        # set them to 24 and 80, and the game then drew an 80x24 screen into the 110x50 pane).
        outside = ("TMUX", "TMUX_PANE", "LINES", "COLUMNS")
        env = {k: v for k, v in os.environ.items() if k not in outside}
        self._tmux(
            "new-session", "-d", "-s", "play", "-x", str(WIDTH), "-y", str(HEIGHT), script, env=env
        )

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, env=env, check=True
        )
        return done.stdout

    def screen(self) -> str:
        """The visible text of the pane."""
        return self._tmux("capture-pane", "-p", "-t", "play")

    def styled_screen(self) -> str:
        """The pane with its colours and attributes, as SGR escape sequences."""
        return self._tmux("capture-pane", "-p", "-e", "-t", "play")

    def keys(self, *keys: str) -> None:
        """Send keys by tmux name (`Left`, `Enter`, `q`, ...)."""
        self._tmux("send-keys", "-t", "play", *keys)

    def wait(self, ready: Callable[[str], bool], what: str, timeout: float = TIMEOUT_S) -> str:
        """Poll until `ready(screen)`; the screen. AssertionError with the last screen otherwise."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if ready(screen):
                return screen
            if self.exit_file.exists() and self.exit_file.read_text().strip():
                screen = self.screen()
                if ready(screen):
                    return screen
                break
            time.sleep(0.2)
        raise AssertionError(f"waited for {what}; the screen shows:\n{screen}")

    def wait_text(self, text: str, timeout: float = TIMEOUT_S) -> str:
        return self.wait(lambda screen: text in screen, repr(text), timeout)

    def exit_status(self, timeout: float = TIMEOUT_S) -> int:
        """The command's exit status, once it has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.exit_file.exists() and self.exit_file.read_text().strip():
                return int(self.exit_file.read_text().strip())
            time.sleep(0.2)
        raise AssertionError(f"the command did not end; the screen shows:\n{self.screen()}")

    def close(self) -> None:
        """End this session's tmux server (and the command, if it still runs)."""
        subprocess.run([TMUX or "tmux", "-L", self.socket, "kill-server"], capture_output=True)
