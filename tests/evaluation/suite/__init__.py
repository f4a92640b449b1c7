"""Tests of `arcade-eval suite` and its scorecard."""
