"""The scorer evaluation's cross-card precision check (benchmarks/eval_scorer.py --cross)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from eval_scorer import Graded, cross_card  # noqa: E402


def _graded(text: str, *, errors: tuple[str, ...] = (), grade: float = 88.0, kind: str = "") -> Graded:
    return Graded("ln-who-uses-what", "t", grade, text, kind, errors, True)


def test_a_statement_another_card_charges_is_counted_once_per_answer() -> None:
    # recorded as error-free on its own card, this claim is one the main card charges (llm-choose-post)
    hit, n, pairs = cross_card([_graded("LLaMA and GPT-3 both chose Post-LN."),
                                _graded("GPT-2 moved LayerNorm to the input of each sublayer (Pre-LN).")], verbose=False)
    assert (hit, n) == (1, 2) and pairs >= 1


def test_only_error_free_strong_answers_are_checked() -> None:
    hit, n, _ = cross_card([_graded("LLaMA and GPT-3 both chose Post-LN.", errors=("chose Post-LN",)),
                            _graded("LLaMA and GPT-3 both chose Post-LN.", grade=40.0),
                            _graded("LLaMA and GPT-3 both chose Post-LN.", kind="swapped")], verbose=False)
    assert (hit, n) == (0, 0)
