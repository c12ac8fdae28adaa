"""Graded answers, for modules that import them as `calibration` (tests/test_scoring_graded.py and
benchmarks/eval_scorer.py): they now live in tests/helpers.py."""

from helpers import Graded, load_graded, own_answers, shared_answers

__all__ = ["Graded", "load_graded", "own_answers", "shared_answers"]
