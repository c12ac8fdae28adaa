"""Statistics over the history: per card, per section, per tag, and a trend (pure functions)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from lndrill.cards.schema import Card
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


def _avg(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 1)


def build_stats(cards: Mapping[str, Card], attempts: Sequence[Attempt], statuses: Mapping[str, CardStatus],
                now: datetime) -> dict[str, Any]:
    """The stats dictionary printed by `lndrill stats --json`.

    `cards` is the deck (id -> Card, for tags and section titles); `attempts` oldest first; `statuses`
    from `Store.card_status`. Cards no longer in the deck keep their history (`"in_deck": false`).
    """
    by_card: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_card.setdefault(a.card_id, []).append(a)

    out_cards: dict[str, Any] = {}
    for cid in list(cards) + sorted(set(by_card) - set(cards)):
        st = statuses.get(cid) or CardStatus(cid)
        mine = by_card.get(cid, [])
        out_cards[cid] = {
            "attempts": len(mine),
            "best": max((a.score for a in mine), default=None),
            "last": mine[-1].score if mine else None,
            "last_at": iso(mine[-1].submitted_at) if mine else None,
            "due": iso(st.due),
            "overridden_points": sum(len(a.overrides) for a in mine),
            "in_deck": cid in cards,
        }

    sections: dict[str, Any] = {}
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
                sections[f"{cid}/{sid}"] = {
                    "card": cid, "section": sid, "title": titles.get(sid, sid),
                    "average": _avg(values[sid]), "attempts": len(values[sid]),
                }

    tag_scores: dict[str, list[int]] = {}
    for a in reversed(attempts):
        card = cards.get(a.card_id)
        for tag in card.tags if card else ():
            bucket = tag_scores.setdefault(tag, [])
            if len(bucket) < LAST_N:
                bucket.append(a.score)
    tags = {t: {"average": _avg(v), "attempts": len(v)} for t, v in sorted(tag_scores.items())}

    trend = [{"at": iso(a.submitted_at), "card": a.card_id, "score": a.score} for a in attempts[-TREND_N:]]
    return {
        "generated_at": iso(now),
        "total_attempts": len(attempts),
        "first_at": iso(attempts[0].submitted_at) if attempts else None,
        "cards": out_cards,
        "sections": sections,
        "tags": tags,
        "trend": trend,
        "sparkline": sparkline(t["score"] for t in trend),
        "window": LAST_N,
    }
