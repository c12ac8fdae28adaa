"""Messages the app posts, so later features (history, drafts: issue 5) can hook in at one place."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from lndrill.scoring.result import ScoreResult


@dataclass
class AnswerSubmitted(Message):
    """An answer was scored. The card screen first hands it to `app.record_submission` (stored at once),
    then posts it to the app for anything else that wants to know.

    texts maps section id -> the text of that section's answer area; duration is seconds from opening
    the card (or the last retry) to submitting.
    """

    card_id: str
    texts: dict[str, str]
    duration: float
    result: ScoreResult
    lang: str


@dataclass
class PointOverruled(Message):
    """The user marked a point hit or missed; result is the updated score."""

    card_id: str
    point_id: str
    hit: bool
    result: ScoreResult


@dataclass
class DraftChanged(Message):
    """The answer areas of a card changed (a draft-autosave timer can debounce on this)."""

    card_id: str
    texts: dict[str, str]
