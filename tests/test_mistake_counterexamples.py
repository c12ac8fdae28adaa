"""Every mistake in the deck has counter-examples: correct or qualified sentences close to the wrong claim
that must not fire it (and the wrong claim itself, plainly stated, that must).

tests/counterexamples/<card-id>.yaml:
    <mistake-id>:
      fires: ["a plain, explicit, unqualified wrong sentence", ...]     # at least one
      spares: ["a correct or qualified sentence near it", ...]          # at least one
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from lndrill.cards.deck import load_deck
from lndrill.scoring.engine import mistakes_in

HERE = Path(__file__).resolve().parent / "counterexamples"
_DECK = load_deck()


def _examples() -> dict[str, dict[str, dict[str, list[str]]]]:
    out = {}
    for p in sorted(HERE.glob("*.yaml")):
        out[p.stem] = yaml.safe_load(p.read_text("utf-8")) or {}
    return out


_EX = _examples()
_CASES = [(card, mid, kind, text) for card, ms in _EX.items() for mid, d in ms.items()
          for kind in ("fires", "spares") for text in (d or {}).get(kind, ())]


def test_every_mistake_in_the_deck_has_counter_examples() -> None:
    missing = []
    for card in _DECK.cards.values():
        listed = _EX.get(card.id, {})
        for point in card.points():
            for m in point.mistakes:
                d = listed.get(m.id) or {}
                if not d.get("fires") or not d.get("spares"):
                    missing.append(f"{card.id}:{m.id}")
    assert missing == []


def test_counter_examples_name_real_mistakes() -> None:
    known = {(c.id, m.id) for c in _DECK.cards.values() for p in c.points() for m in p.mistakes}
    assert [(card, mid) for card, mid, _, _ in _CASES if (card, mid) not in known] == []


@pytest.mark.parametrize(("card_id", "mistake", "kind", "text"), _CASES,
                         ids=[f"{c}:{m}:{k}:{i}" for i, (c, m, k, _) in enumerate(_CASES)])
def test_a_mistake_fires_on_its_wrong_claim_and_spares_its_counter_examples(card_id, mistake, kind, text) -> None:
    # every recogniser that fires (the score charges one statement read by two recognisers once)
    fired = {m.id for m in mistakes_in(_DECK.cards[card_id], text, once_per_statement=False)}
    if kind == "fires":
        assert mistake in fired
    else:
        assert mistake not in fired
