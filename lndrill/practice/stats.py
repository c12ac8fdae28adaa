"""Statistics over the history: per card, per section, per tag, and a trend, as typed records.

`Stats.to_json()` is exactly what `lndrill stats --json` prints (times in ISO 8601 UTC); the command line
and the app's stats screen read the typed fields, with datetimes, instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lndrill.cards.schema import Card
from lndrill.store import Store
from lndrill.store.records import Attempt, CardStatus

#: Section and tag averages are over this many most recent attempts.
LAST_N = 10
#: The trend shows this many most recent attempts.
TREND_N = 40
SPARK_BLOCKS = "▁▂▃▄▅▆▇█"


def iso(dt: datetime | None) -> str | None:
    """A datetime as ISO 8601 to the second (None stays None)."""
    return dt.isoformat(timespec="seconds") if dt is not None else None


def sparkline(scores: Iterable[float], lo: float = 0.0, hi: float = 100.0) -> str:
    """One block character per score on a fixed lo..hi scale (▁ lowest, █ highest)."""
    out = []
    top = len(SPARK_BLOCKS) - 1
    for s in scores:
        frac = (min(hi, max(lo, s)) - lo) / (hi - lo) if hi > lo else 0.0
        out.append(SPARK_BLOCKS[int(round(frac * top))])
    return "".join(out)


@dataclass(frozen=True)
class CardStats:
    """One card's history: answers, best and last score, when last answered and next due."""

    card_id: str
    attempts: int
    best: int | None
    last: int | None
    last_at: datetime | None
    due: datetime | None
    overridden_points: int
    in_deck: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one card."""
        return {
            "attempts": self.attempts, "best": self.best, "last": self.last, "last_at": iso(self.last_at),
            "due": iso(self.due), "overridden_points": self.overridden_points, "in_deck": self.in_deck,
        }


@dataclass(frozen=True)
class SectionStats:
    """One section of one card: the average share of its points hit over the last LAST_N answers."""

    card_id: str
    section_id: str
    title: str
    average: float
    attempts: int

    @property
    def key(self) -> str:
        """"card-id/section-id"."""
        return f"{self.card_id}/{self.section_id}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one section."""
        return {"card": self.card_id, "section": self.section_id, "title": self.title, "average": self.average,
                "attempts": self.attempts}


@dataclass(frozen=True)
class TagStats:
    """One tag: the average score of the last LAST_N answers to cards with it."""

    tag: str
    average: float
    attempts: int


@dataclass(frozen=True)
class TrendPoint:
    """One answer in the trend."""

    at: datetime
    card_id: str
    score: int


@dataclass(frozen=True)
class Stats:
    """Everything `lndrill stats` shows, in the order it is printed (cards in deck order, then the cards
    that left the deck; sections per card in card order; tags by name; the trend oldest first)."""

    generated_at: datetime
    total_attempts: int
    first_at: datetime | None
    cards: tuple[CardStats, ...]
    sections: tuple[SectionStats, ...]
    tags: tuple[TagStats, ...]
    trend: tuple[TrendPoint, ...]
    window: int = LAST_N

    @property
    def sparkline(self) -> str:
        """The trend's scores as block characters on a 0-100 scale."""
        return sparkline(t.score for t in self.trend)

    @property
    def answered(self) -> tuple[CardStats, ...]:
        """The cards answered at least once."""
        return tuple(c for c in self.cards if c.attempts)

    def card(self, card_id: str) -> CardStats:
        """One card's stats (KeyError if the card is neither in the deck nor in the history)."""
        for c in self.cards:
            if c.card_id == card_id:
                return c
        raise KeyError(card_id)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready dictionary (times as ISO 8601 strings)."""
        return {
            "generated_at": iso(self.generated_at),
            "total_attempts": self.total_attempts,
            "first_at": iso(self.first_at),
            "cards": {c.card_id: c.to_dict() for c in self.cards},
            "sections": {s.key: s.to_dict() for s in self.sections},
            "tags": {t.tag: {"average": t.average, "attempts": t.attempts} for t in self.tags},
            "trend": [{"at": iso(t.at), "card": t.card_id, "score": t.score} for t in self.trend],
            "sparkline": self.sparkline,
            "window": self.window,
        }

    def to_json(self) -> str:
        """What `lndrill stats --json` prints."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)


def _avg(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 1)


def build_stats(cards: Mapping[str, Card], attempts: Sequence[Attempt], statuses: Mapping[str, CardStatus],
                now: datetime) -> Stats:
    """Stats from the deck (id -> Card, for tags and section titles), the attempts (oldest first) and
    each card's status (`Store.card_status`). Cards no longer in the deck keep their history."""
    by_card: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_card.setdefault(a.card_id, []).append(a)

    out_cards: list[CardStats] = []
    for cid in list(cards) + sorted(set(by_card) - set(cards)):
        st = statuses.get(cid) or CardStatus(cid)
        mine = by_card.get(cid, [])
        out_cards.append(CardStats(
            card_id=cid,
            attempts=len(mine),
            best=max((a.score for a in mine), default=None),
            last=mine[-1].score if mine else None,
            last_at=mine[-1].submitted_at if mine else None,
            due=st.due,
            overridden_points=sum(len(a.overrides) for a in mine),
            in_deck=cid in cards,
        ))

    sections: list[SectionStats] = []
    for cid, mine in by_card.items():
        recent = mine[-LAST_N:]
        values: dict[str, list[float]] = {}
        for a in recent:
            for sid, pct in a.section_percent().items():
                values.setdefault(sid, []).append(pct)
        card = cards.get(cid)
        titles = {s.id: s.title.en for s in card.sections} if card else {}
        order = [s.id for s in card.sections] if card else sorted(values)
        for sid in order + sorted(set(values) - set(order)):
            if sid in values:
                sections.append(SectionStats(cid, sid, titles.get(sid, sid), _avg(values[sid]), len(values[sid])))

    tag_scores: dict[str, list[int]] = {}
    for a in reversed(attempts):
        card = cards.get(a.card_id)
        for tag in card.tags if card else ():
            bucket = tag_scores.setdefault(tag, [])
            if len(bucket) < LAST_N:
                bucket.append(a.score)
    tags = tuple(TagStats(t, _avg(v), len(v)) for t, v in sorted(tag_scores.items()))

    trend = tuple(TrendPoint(a.submitted_at, a.card_id, a.score) for a in attempts[-TREND_N:])
    return Stats(
        generated_at=now,
        total_attempts=len(attempts),
        first_at=attempts[0].submitted_at if attempts else None,
        cards=tuple(out_cards),
        sections=tuple(sections),
        tags=tags,
        trend=trend,
    )


def history_stats(store: Store, cards: Mapping[str, Card], now: datetime) -> Stats:
    """Stats over everything in `store` for the deck `cards` (id -> Card), as of `now`."""
    history = store.attempts()
    ids = list(cards) + sorted({a.card_id for a in history} - set(cards))
    return build_stats(cards, history, store.card_status(ids, now), now)
