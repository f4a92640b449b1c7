"""A policy pool builds one instance per spec and thread: games in flight never share one."""

from __future__ import annotations

import threading
from typing import Any

from evaluation.core.grid import PolicyPool


def test_games_in_flight_get_their_own_instance_and_a_thread_reuses_its_own() -> None:
    built: list[str] = []
    pool = PolicyPool(lambda spec: built.append(spec) or object())
    here = pool.get("a")
    assert pool.get("a") is here and pool.get("b") is not here
    elsewhere: list[Any] = []
    worker = threading.Thread(target=lambda: elsewhere.extend([pool.get("a"), pool.get("a")]))
    worker.start()
    worker.join()
    assert elsewhere[0] is elsewhere[1] and elsewhere[0] is not here
    assert built == ["a", "b", "a"]
