"""Points are recognised in the many ways candidates state them, not only in the words of the answers they were
tuned on: for each point, sentences of our own in other words (plain, spoken, terse notes, Chinese, mixed, other
notation) that must hit it.

tests/paraphrases/<card-id>.yaml:
    <point-id>: ["a sentence that states the point, its subject named where the point has one", ...]

None of these sentences is copied from a graded answer (the blind set is never the source).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from lndrill.cards.deck import load_deck
from lndrill.scoring.engine import score_answer

HERE = Path(__file__).resolve().parent / "paraphrases"
_DECK = load_deck()
_CASES = [(p.stem, point, text)
          for p in sorted(HERE.glob("*.yaml"))
          for point, texts in (yaml.safe_load(p.read_text("utf-8")) or {}).items()
          for text in texts or ()]


def test_paraphrases_name_real_points() -> None:
    known = {(c.id, p.id) for c in _DECK.cards.values() for p in c.points()}
    assert [(card, point) for card, point, _ in _CASES if (card, point) not in known] == []


@pytest.mark.parametrize(("card_id", "point", "text"), _CASES, ids=[f"{c}:{p}:{i}" for i, (c, p, _) in enumerate(_CASES)])
def test_a_point_is_recognised_in_other_words(card_id: str, point: str, text: str) -> None:
    result = score_answer(_DECK.cards[card_id], text)
    assert point in {p.id for s in result.sections for p in s.points if p.hit}
    assert not result.mistakes  # a correct statement of a point draws no mistake
