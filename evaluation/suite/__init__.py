"""`arcade-eval suite`: every registered benchmark for a set of policies, in one run directory, with
one manifest, one resume, one cost cap and one scorecard (docs/suite.md).

The suite knows no benchmark: each fills the `suite` field of its registry record
(`evaluation/core/registry.py`) with a function of its own folder that plays a request through the
benchmark's own command (`evaluation/suite/part.py`). Importing this package is cheap.
"""
