"""The deck's own correct text never draws a mistake: model answers, point claims and mistake explanations,
in both languages, scored against their own card and against every other card."""

from __future__ import annotations

import pytest

from lndrill.cards.deck import load_deck
from lndrill.scoring.engine import mistakes_in
from lndrill.scoring.selfcheck import deck_texts

_DECK = load_deck()


@pytest.mark.parametrize("card_id", sorted(_DECK.cards))
def test_a_cards_own_text_draws_no_mistake_anywhere(card_id: str) -> None:
    card = _DECK.cards[card_id]
    drawn = [(name, target.id, [m.id for m in found])
             for name, text in deck_texts(card)
             for target in _DECK.cards.values()
             if (found := mistakes_in(target, text))]
    assert drawn == []


def test_the_deck_texts_cover_model_answers_claims_and_explanations() -> None:
    card = _DECK.cards["pre-vs-post-ln"]
    names = {name.split(".")[-2] if name.count(".") == 2 else name.split(".")[0] for name, _ in deck_texts(card)}
    assert "model_answer" in names and "claim" in names and "explanation" in names
    assert len(deck_texts(card)) == 2 * (1 + sum(1 + len(p.mistakes) for p in card.points()))
