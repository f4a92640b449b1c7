"""The `?name=value&...` options a policy spec may end with (`uci:stockfish?UCI_Elo=1500`,
`ppo:model.pt?depth=9&nodes=50000`): one reader for every prefix that takes them, so they are
split, checked and reported alike. The prefix turns the pairs into its settings."""

from __future__ import annotations

from urllib.parse import parse_qsl


def query_options(query: str, example: str) -> list[tuple[str, str]]:
    """The (name, value) pairs of `query` (the text after '?'), in order; a blank value is
    kept (`Name=` sets an empty one). ValueError showing `example` for text that is not such a
    list (a part without '=', an empty name)."""
    if not query:
        return []
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise ValueError(f"write options as {example}, got ?{query}") from None
    if any(not name for name, _ in pairs):
        raise ValueError(f"write options as {example}, got ?{query}")
    return pairs
