"""What every game shares: the env base (`env`) and the native vector env base (`vector`), the
action check (`actions`), constructor checks (`args`), masked spaces (`spaces`), flat
observations (`observation`), mask-safe Gymnasium vectors (`masked_vector`), the warmup registry
(`warmup`), seeding, clocks, the wire base of contracts and one-action answers.

The core imports no game: games import it, and register themselves in `arcade_gym/registration.py`.
"""
