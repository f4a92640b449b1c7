"""`arcade-eval play GAME`: a person plays a benchmark's game in the terminal.

A person is a policy (`human.Human`): keystrokes become answers to the very questions the benchmark
asks any policy, played by the one episode loop and recorded by the benchmark's own play function,
so `arcade-eval verify` replays a person's game like any other. One module per game maps keys to
answers (`tetris`, `primitive`, `snake`, `minesweeper`, `sudoku`, `tictactoe`, `chess`); `games`
says how each game is played and recorded; `command` is the sub-command; `screen` is curses.
"""
