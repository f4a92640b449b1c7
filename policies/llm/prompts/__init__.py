"""One prompt/parser module per game: what a chat model sees of a question and how its reply is
read back (`policies/llm/prompts/base.py` is the contract with the chat-policy base)."""
