"""What every game's prompt module shares: the contract with the chat-policy base (`base.py`),
the JSON reply reader (`json_reply.py`) and the prompt of a game that offers its actions
(`offered_actions.py`). The game's own prompt lives in `policies/<game>/prompt.py`."""
