"""Keyboard maps for `gymnasium.utils.play`: key codes (pygame's, without importing pygame) and
the one way an env declares which keys play which action (`ArcadeEnv.keys_to_action`)."""

from __future__ import annotations

K_RIGHT, K_LEFT, K_DOWN, K_UP = 0x4000004F, 0x40000050, 0x40000051, 0x40000052
"""pygame's (SDL2's) arrow key codes."""
K_SPACE = ord(" ")

KeyMap = dict[tuple[int, ...], int]
"""Tuples of key codes pressed together -> the action they play."""


def key_map(bindings: dict[int, tuple[int | str, ...]]) -> KeyMap:
    """`{action: (key, ...)}` (a key is a code or a one-character string) as play's key map:
    each key alone plays its action."""
    out: KeyMap = {}
    for action, keys in bindings.items():
        for key in keys:
            out[(ord(key) if isinstance(key, str) else key,)] = action
    return out
