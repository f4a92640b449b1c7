"""Chess and Chess960 on python-chess, encoded the way PettingZoo's `chess_v6` encodes them.

`encoding` (the 8x8x73 = 4672 move-index action space), `engine` (the numba kernel that draws the
observation planes), `game` (a board with its history, repetition count and cached legal actions),
`positions` (start positions: standard, Chess960 by index, any FEN), `opponents` (the weak ladder
rungs as move rules), `contract` (the benchmark's question and answer), `env`
(`arcade_gym/Chess-v0`); the two-player PettingZoo env is `arcade_gym.multiagent.chess_v0`.
"""
