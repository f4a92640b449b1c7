"""What every game shares: spaces, seeding, clocks, the wire base of contracts, one-action answers.

The core imports no game: games import it, and register themselves in `arcade_gym/registration.py`.
"""
