"""Prompt modules: one per game (`<game>.py`), turning a question into chat messages and reading
the reply back (`base.py` is the contract, `json_reply.py` the shared JSON reader)."""
