"""Game-independent engines: programs that answer a question given as text (Brainfuck, external
commands, UCI chess engines, agent command-line tools)."""
