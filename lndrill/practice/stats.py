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
from lndrill.store import HistorySummary, Store
from lndrill.store.records import CardStatus
from lndrill.store.summary import Answered, PointHit

#: Section and tag averages are over this many most recent attempts.
LAST_N = 10
#: The trend shows this many most recent attempts.
TREND_N = 40
SPARK_BLOCKS = "▁▂▃▄▅▆▇█"
#: `most_overruled` lists this many points and mistakes.
MOST_OVERRULED = 20


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
class OverruleStats:
    """A point the user overruled, or a mistake they disputed: how many of the answers it was judged in.
    These are where the scorer is most often wrong."""

    kind: str
    card_id: str
    item_id: str
    times: int
    judged: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one overruled point or disputed mistake."""
        return {"kind": self.kind, "card": self.card_id, "id": self.item_id, "overruled": self.times,
                "answers": self.judged}


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
    #: Answers left out because their time or score cannot be read (not part of the JSON).
    left_out: int = 0
    #: The points overruled and mistakes disputed, most often first.
    overrules: tuple[OverruleStats, ...] = ()

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
            "most_overruled": [o.to_dict() for o in self.overrules[:MOST_OVERRULED]],
        }

    def to_json(self) -> str:
        """What `lndrill stats --json` prints."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)


def _avg(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 1)


def _section_percent(points: Sequence[PointHit]) -> dict[str, float]:
    """Per section id: the share of its point weight that was hit, 0-100 (as `Attempt.section_percent`)."""
    earned: dict[str, float] = {}
    total: dict[str, float] = {}
    for sid, weight, hit in points:
        total[sid] = total.get(sid, 0.0) + weight
        earned[sid] = earned.get(sid, 0.0) + (weight if hit else 0.0)
    return {s: 100.0 * earned[s] / total[s] for s in total if total[s] > 0}


def build_stats(cards: Mapping[str, Card], summary: HistorySummary, statuses: Mapping[str, CardStatus],
                now: datetime) -> Stats:
    """Stats from the deck (id -> Card, for tags and section titles), the history's summary
    (`Store.summary`) and each card's status (`Store.card_status`). Cards no longer in the deck keep
    their history."""
    totals = {c.card_id: c for c in summary.cards}
    out_cards: list[CardStats] = []
    for cid in list(cards) + sorted(set(totals) - set(cards)):
        st = statuses.get(cid) or CardStatus(cid)
        t = totals.get(cid)
        out_cards.append(CardStats(
            card_id=cid,
            attempts=t.attempts if t else 0,
            best=t.best if t else None,
            last=t.last.score if t else None,
            last_at=t.last.at if t else None,
            due=st.due,
            overridden_points=t.overridden_points if t else 0,
            in_deck=cid in cards,
        ))

    sections: list[SectionStats] = []
    for cid in totals:  # in the order of each card's first answer
        values: dict[str, list[float]] = {}
        for a in summary.recent.get(cid, ()):
            for sid, pct in _section_percent(summary.points.get(a.id, ())).items():
                values.setdefault(sid, []).append(pct)
        card = cards.get(cid)
        titles = {s.id: s.title.en for s in card.sections} if card else {}
        order = [s.id for s in card.sections] if card else sorted(values)
        for sid in order + sorted(set(values) - set(order)):
            if sid in values:
                sections.append(SectionStats(cid, sid, titles.get(sid, sid), _avg(values[sid]), len(values[sid])))

    tag_answers: dict[str, list[Answered]] = {}
    for cid, recent in summary.recent.items():
        card = cards.get(cid)
        for tag in card.tags if card else ():
            tag_answers.setdefault(tag, []).extend(recent)
    tags = []
    for tag, answered in sorted(tag_answers.items()):
        latest = sorted(answered, key=lambda a: a.order, reverse=True)[:LAST_N]  # newest first
        tags.append(TagStats(tag, _avg([a.score for a in latest]), len(latest)))

    trend = tuple(TrendPoint(a.at, a.card_id, a.score) for a in summary.trend)
    return Stats(
        generated_at=now,
        total_attempts=summary.total,
        first_at=summary.first_at,
        cards=tuple(out_cards),
        sections=tuple(sections),
        tags=tuple(tags),
        trend=trend,
        left_out=summary.left_out,
        overrules=tuple(OverruleStats(*row) for row in summary.overrules),
    )


def history_stats(store: Store, cards: Mapping[str, Card], now: datetime) -> Stats:
    """Stats over everything in `store` for the deck `cards` (id -> Card), as of `now`: aggregated in
    SQL, never reading an answer's text."""
    summary = store.summary(LAST_N, TREND_N)
    ids = list(cards) + sorted({c.card_id for c in summary.cards} - set(cards))
    return build_stats(cards, summary, store.card_status(ids, now), now)
