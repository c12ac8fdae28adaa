"""Spaced repetition with FSRS (py-fsrs 6): score -> rating, one review step, and card ordering.

Pure functions: the store persists the FSRS card state (`Card.to_dict`) per lndrill card id and passes
the clock in, so everything here is deterministic.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache

from fsrs import Card, Rating, Scheduler

from lndrill.store.records import CardStatus

#: Scores below this are a failed recall: `Again` (a missed answer is Again, not Hard).
AGAIN_BELOW = 50
#: Scores below this (and at least AGAIN_BELOW) are `Hard`.
HARD_BELOW = 70
#: Scores at or above this are `Easy`; between HARD_BELOW and this, `Good`.
EASY_FROM = 90


def rating_for(score: int) -> Rating:
    """The FSRS rating for a 0-100 score: <50 Again, <70 Hard, <90 Good, else Easy."""
    if score < AGAIN_BELOW:
        return Rating.Again
    if score < HARD_BELOW:
        return Rating.Hard
    if score < EASY_FROM:
        return Rating.Good
    return Rating.Easy


@lru_cache(maxsize=1)
def scheduler() -> Scheduler:
    """The scheduler (default FSRS-6 parameters, 90% retention; no fuzzing, so due dates are reproducible)."""
    return Scheduler(enable_fuzzing=False)


def fsrs_card_id(card_id: str) -> int:
    """A stable integer id for the FSRS card of an lndrill card id."""
    return zlib.crc32(card_id.encode("utf-8"))


def dump_state(card: Card) -> str:
    """The FSRS card state as JSON text (`Card.to_dict`)."""
    return json.dumps(card.to_dict(), sort_keys=True)


def load_state(text: str) -> Card:
    """The FSRS card state stored by `dump_state`."""
    return Card.from_dict(json.loads(text))


def apply_review(
    card_id: str, before: str | None, score: int, duration_s: float, now: datetime
) -> tuple[Card, int, int | None]:
    """Review a card at `now` with the rating for `score`.

    `before` is the stored state (None for a card never reviewed). Returns the new FSRS card, the rating
    value, and the review duration in milliseconds passed to FSRS (None when the duration is unknown, 0).
    """
    state = load_state(before) if before else Card(card_id=fsrs_card_id(card_id), due=now)
    rating = rating_for(score)
    duration_ms = int(round(duration_s * 1000)) if duration_s > 0 else None
    after, _log = scheduler().review_card(state, rating, review_datetime=now, review_duration=duration_ms)
    return after, int(rating), duration_ms


def retrievability(state: Card, now: datetime) -> float:
    """The predicted probability of recall at `now` (0 for a card never reviewed)."""
    return float(scheduler().get_card_retrievability(state, now))


def _unique(card_ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(card_ids))


def _due_key(status: CardStatus, now: datetime) -> tuple[float, float, datetime, str]:
    r = status.retrievability if status.retrievability is not None else 0.0
    last = status.last_score if status.last_score is not None else -1
    return (round(r, 3), last, status.due or now, status.card_id)


def _split(
    card_ids: Sequence[str], statuses: Mapping[str, CardStatus], now: datetime
) -> tuple[list[str], list[str], list[str]]:
    due, new, rest = [], [], []
    for cid in card_ids:
        st = statuses.get(cid) or CardStatus(cid)
        if st.is_due(now):
            due.append(cid)
        elif not st.seen:
            new.append(cid)
        else:
            rest.append(cid)
    due.sort(key=lambda c: _due_key(statuses[c], now))
    return due, new, rest


def order_for_drill(
    card_ids: Iterable[str], statuses: Mapping[str, CardStatus], now: datetime, cram: bool = False
) -> list[str]:
    """Drill order: due cards (least likely recalled, then lowest last score, first), never-seen cards
    in the given order, then the rest by due time. With `cram`, the schedule is ignored: given order."""
    ids = _unique(card_ids)
    if cram:
        return ids
    due, new, rest = _split(ids, statuses, now)
    far = max((s.due for s in statuses.values() if s.due is not None), default=now)
    rest.sort(key=lambda c: (statuses[c].due or far, c))
    return due + new + rest


def pick_for_mock(
    card_ids: Iterable[str],
    statuses: Mapping[str, CardStatus],
    k: int,
    now: datetime,
    tags: Mapping[str, Sequence[str]] | None = None,
    tag: str | None = None,
    seed: int | None = None,
) -> list[str]:
    """K cards for a mock interview: due cards, weakest first, then the others in a seeded random order.

    With `tag`, only cards whose `tags[card_id]` contains it are candidates. The same seed and history
    give the same pick.
    """
    ids = _unique(card_ids)
    if tag is not None:
        if tags is None:
            raise ValueError("pick_for_mock: `tag` needs the `tags` mapping (card id -> tags)")
        ids = [c for c in ids if tag in tags.get(c, ())]
    if k <= 0 or not ids:
        return []
    due, new, rest = _split(ids, statuses, now)
    others = sorted(new + rest)
    random.Random(seed).shuffle(others)
    return (due + others)[:k]
