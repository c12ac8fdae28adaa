"""Messages screens post up to the app: where to go next, and a language switch.

Screens get what they work with (the Practice, the card, the language) as attributes from the app;
what should happen beyond the screen goes up as one of these messages, handled by `LndrillApp`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from textual.message import Message

Destination = Literal["home", "browser", "mock", "sim", "stats"]


@dataclass
class Navigate(Message):
    """Open one of the app's places (home pops back to the home screen)."""

    to: Destination


@dataclass
class OpenCard(Message):
    """Open a card."""

    card_id: str


@dataclass
class OpenNextCard(Message):
    """Open the card after `current` in the browser's order, instead of the current screen."""

    current: str


@dataclass
class CardOrderChanged(Message):
    """The browser now lists these cards, in this order ("next card" follows it)."""

    card_ids: list[str] = field(default_factory=list)


class ToggleLanguage(Message):
    """Switch the cards between English and Chinese."""
