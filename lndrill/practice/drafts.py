"""Drafts: what is typed but not submitted, saved now and then and put back when the card reopens.

`DraftBuffer` decides what needs saving (only drafts that changed since they were last saved or
restored); `Practice` does the saving. `draft_for_areas` maps a saved draft onto a card's sections.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lndrill.cards.schema import Card


@dataclass
class DraftBuffer:
    """Draft texts typed since the last save, per card id, and what was last saved or restored."""

    pending: dict[str, dict[str, str]] = field(default_factory=dict)
    saved: dict[str, dict[str, str]] = field(default_factory=dict)

    def changed(self, card_id: str, texts: Mapping[str, str]) -> None:
        """The answer areas of a card now hold `texts` (typing back to the saved text needs no save)."""
        if self.saved.get(card_id) == dict(texts):
            self.pending.pop(card_id, None)
        else:
            self.pending[card_id] = dict(texts)

    def take(self) -> dict[str, dict[str, str]]:
        """The drafts to save now (and forget them as pending)."""
        pending, self.pending = self.pending, {}
        return pending

    def mark_saved(self, card_id: str, texts: Mapping[str, str]) -> None:
        """`texts` is what the history now holds for the card (saved, or just restored)."""
        self.saved[card_id] = dict(texts)

    def forget(self, card_id: str) -> None:
        """The card's answer was submitted: nothing of it is a draft any more."""
        self.pending.pop(card_id, None)
        self.saved.pop(card_id, None)


def draft_for_areas(card: Card, draft: Mapping[str, str]) -> list[str]:
    """A saved draft as one text per section, in section order.

    Text saved under a section id the card no longer has goes to the last section, so nothing is lost.
    """
    ids = [s.id for s in card.sections]
    extra = [t for k, t in draft.items() if k not in ids and t.strip()]
    out = []
    for i, sid in enumerate(ids):
        text = draft.get(sid, "")
        if i == len(ids) - 1 and extra:
            text = "\n\n".join(t for t in (text, *extra) if t)
        out.append(text)
    return out
