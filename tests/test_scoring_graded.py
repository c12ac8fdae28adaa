"""The scorer against graded answers: ours (tests/answers) and the shared calibration sample."""

from __future__ import annotations

import pytest
from calibration import Graded, own_answers, shared_answers

from lndrill.scoring.engine import score_answer


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman rank correlation (ties get average ranks)."""
    ra, rb = _ranks(a), _ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def test_spearman_helper() -> None:
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


ALL = own_answers() + shared_answers()


def _adversarial(g: Graded) -> bool:
    return bool(g.kind) or g.grade <= 10


def _score(g: Graded, deck) -> int:
    card = deck.get(g.card)
    assert card is not None, f"graded answer {g.id} names unknown card {g.card}"
    return score_answer(card, g.text).score


def test_we_have_enough_graded_answers_in_both_languages() -> None:
    own = own_answers()
    assert len(own) >= 30
    texts = " ".join(g.text for g in own)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in texts)
    kinds = {g.kind for g in own}
    assert {"swapped", "negated", "keywords", "offtopic", "repeated"} <= kinds


def test_rank_correlation_with_grades(deck) -> None:
    grades = [g.grade for g in ALL]
    scores = [_score(g, deck) for g in ALL]
    rho = spearman(grades, scores)
    assert rho >= 0.9, f"Spearman {rho:.3f}"


def test_rank_correlation_on_shared_calibration_alone(deck) -> None:
    shared = shared_answers()
    if len(shared) < 3:
        pytest.skip("no shared calibration folder here")
    rho = spearman([g.grade for g in shared], [_score(g, deck) for g in shared])
    assert rho >= 0.9, f"Spearman {rho:.3f}"


@pytest.mark.parametrize("g", [g for g in ALL if g.grade >= 85], ids=lambda g: g.id)
def test_strong_answers_score_at_least_80(g: Graded, deck) -> None:
    assert _score(g, deck) >= 80


@pytest.mark.parametrize("g", [g for g in ALL if _adversarial(g)], ids=lambda g: g.id)
def test_adversarial_answers_score_at_most_20(g: Graded, deck) -> None:
    assert _score(g, deck) <= 20
