"""The scorer evaluation's bootstrap interval for rho (benchmarks/eval_scorer.py --ci)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from eval_scorer import rho_interval, spearman  # noqa: E402


def test_perfect_agreement_has_no_spread() -> None:
    grades = [5.0, 20.0, 35.0, 50.0, 65.0, 80.0, 95.0]
    lo, hi = rho_interval(grades, [g + 3 for g in grades])
    assert lo == pytest.approx(1.0) and hi == pytest.approx(1.0)


def test_thirteen_answers_leave_a_wide_interval_around_the_measured_rho() -> None:
    grades = [3, 10, 18, 25, 33, 41, 50, 58, 66, 74, 83, 91, 97]
    scores = [12, 5, 30, 20, 28, 55, 44, 70, 60, 90, 72, 85, 96]
    rho = spearman([float(g) for g in grades], [float(s) for s in scores])
    lo, hi = rho_interval([float(g) for g in grades], [float(s) for s in scores])
    assert lo < rho < hi
    assert hi - lo > 0.1  # a card of 13 answers cannot tell 0.79 from 0.81
    assert (lo, hi) == rho_interval([float(g) for g in grades], [float(s) for s in scores])  # fixed seed: repeatable


def test_more_answers_narrow_the_interval() -> None:
    grades = [float(g) for g in range(0, 100, 4)]
    scores = [g + (9 if i % 3 == 0 else -7) for i, g in enumerate(grades)]
    small = rho_interval(grades[:10], scores[:10])
    large = rho_interval(grades, scores)
    assert large[1] - large[0] < small[1] - small[0]
