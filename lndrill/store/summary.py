"""What `lndrill stats` needs from the history, aggregated in SQL: totals per card, each card's last few
answers with their point rows, and the latest answers overall. No answer text is read, so the cost
grows with the number of cards, not of answers.

A scored attempt whose time or score cannot be read (a row edited by hand, a bug) is left out and
counted in `left_out`, so one bad row never stops the statistics.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from lndrill.store.db import read_time

#: A scored attempt that `stats` can use: a readable time (year 1000-9999) and a numeric score.
VALID = ("scored = 1 AND typeof(score) IN ('integer', 'real') AND julianday(submitted_at) IS NOT NULL "
         "AND submitted_at GLOB '[1-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'")
_UNIX_EPOCH_JD = 2440587.5
#: Point-row lookups are split into chunks of this many attempt ids (SQLite's parameter limit).
_CHUNK = 500


def _time(text: str, julian: float) -> datetime:
    """A stored time: as written by `format_time`, or (a hand-edited row) from SQLite's reading of it."""
    dt = read_time(text)
    if dt is not None:
        return dt
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    try:
        return epoch + timedelta(days=julian - _UNIX_EPOCH_JD)
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC) if julian > _UNIX_EPOCH_JD else datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Answered:
    """One scored attempt, without its text."""

    id: int
    card_id: str
    at: datetime
    score: int
    #: The stored time as text: with `id`, the order of attempts (the order they were submitted).
    key: str = field(repr=False)

    @property
    def order(self) -> tuple[str, int]:
        """Sort key: oldest first."""
        return (self.key, self.id)


@dataclass(frozen=True)
class CardTotals:
    """One card's answers: how many, the best, the first and the last, and overruled points."""

    card_id: str
    attempts: int
    best: int
    first: Answered
    last: Answered
    overridden_points: int


#: One point of one attempt, in stored order: section id, weight, hit.
PointHit = tuple[str, float, bool]
#: One point or mistake the user disagreed with: kind ("point"/"mistake"), card id, its id, times, out of.
Overruled = tuple[str, str, str, int, int]


@dataclass(frozen=True)
class HistorySummary:
    """Everything the statistics read from the history."""

    total: int
    #: Per card, in the order of each card's first answer.
    cards: tuple[CardTotals, ...]
    #: Per card id, its last `window` answers, oldest first.
    recent: dict[str, tuple[Answered, ...]]
    #: Per attempt id in `recent`, its points in stored order.
    points: dict[int, tuple[PointHit, ...]]
    #: The last `trend` answers overall, oldest first.
    trend: tuple[Answered, ...]
    #: Scored attempts left out because their time or score cannot be read.
    left_out: int = 0
    #: Where the user disagreed with the scorer, most often first: ("point" or "mistake", card id, point or
    #: mistake id, how many answers overruled it (a point) or disputed it (a mistake), how many answers it
    #: was judged in (a point scored, a mistake charged)).
    overrules: tuple[Overruled, ...] = ()

    @property
    def first_at(self) -> datetime | None:
        """When the first answer was submitted (None for an empty history)."""
        firsts = [c.first for c in self.cards]
        return min(firsts, key=lambda a: a.order).at if firsts else None


def _answered(row: Sequence) -> Answered:
    aid, cid, key, julian, score = row[:5]
    return Answered(int(aid), str(cid), _time(key, julian), int(score), key)


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for i in range(0, len(ids), _CHUNK):
        yield ids[i:i + _CHUNK]


def _answers(conn: sqlite3.Connection, card_id: str, newest_first: bool, limit: int) -> list[Answered]:
    """A card's first or last `limit` answers (an index seek on `attempts_for_stats`), oldest first."""
    order = "DESC" if newest_first else "ASC"
    rows = [_answered(row) for row in conn.execute(
        f"SELECT id, card_id, submitted_at, julianday(submitted_at), score FROM attempts WHERE {VALID} "
        f"AND card_id = ? ORDER BY submitted_at {order}, id {order} LIMIT ?", (card_id, limit))]
    return sorted(rows, key=lambda a: a.order)


def summarize(conn: sqlite3.Connection, window: int, trend: int) -> HistorySummary:
    """The summary of the history on `conn`: `window` recent answers per card, `trend` overall."""
    totals = conn.execute(
        f"SELECT card_id, count(*), max(score) FROM attempts WHERE {VALID} GROUP BY card_id").fetchall()
    overruled = {cid: int(n) for cid, n in conn.execute(
        "SELECT a.card_id, count(*) FROM (SELECT DISTINCT attempt_id, point_id FROM attempt_points "
        f"WHERE overruled = 1) p JOIN attempts a ON a.id = p.attempt_id WHERE {VALID} GROUP BY a.card_id")}
    left_out = int(conn.execute(f"SELECT count(*) FROM attempts WHERE scored = 1 AND NOT ({VALID})").fetchone()[0])

    recent: dict[str, tuple[Answered, ...]] = {}
    unordered: list[CardTotals] = []
    for cid, count, best in totals:
        recent[cid] = tuple(_answers(conn, cid, newest_first=True, limit=window))
        first = _answers(conn, cid, newest_first=False, limit=1)[0]
        unordered.append(CardTotals(cid, int(count), int(best), first, recent[cid][-1], overruled.get(cid, 0)))
    cards = tuple(sorted(unordered, key=lambda c: c.first.order))

    points: dict[int, list[PointHit]] = {}
    ids = sorted(a.id for mine in recent.values() for a in mine)
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for aid, sid, weight, hit in conn.execute(
            f"SELECT attempt_id, section_id, weight, hit FROM attempt_points WHERE attempt_id IN ({marks}) "
            "ORDER BY attempt_id, rowid", chunk,
        ):
            points.setdefault(int(aid), []).append((str(sid), float(weight), bool(hit)))

    latest_rows = [_answered(row) for row in conn.execute(
        f"SELECT id, card_id, submitted_at, julianday(submitted_at), score FROM attempts WHERE {VALID} "
        "ORDER BY submitted_at DESC, id DESC LIMIT ?", (trend,))]
    return HistorySummary(
        total=sum(c.attempts for c in cards), cards=cards, recent=recent,
        points={aid: tuple(rows) for aid, rows in points.items()}, trend=tuple(reversed(latest_rows)),
        left_out=left_out, overrules=_overrules(conn),
    )


def _overrules(conn: sqlite3.Connection) -> tuple[Overruled, ...]:
    """The points overruled and the mistakes disputed, per card, most often first (a history older than
    schema 5, opened in place for reading, has no mistakes table: points only)."""
    rows: list[Overruled] = [("point", str(cid), str(pid), int(n), int(of)) for cid, pid, n, of in conn.execute(
        "SELECT a.card_id, p.point_id, sum(p.overruled), count(*) FROM attempt_points p "
        f"JOIN attempts a ON a.id = p.attempt_id WHERE {VALID} GROUP BY a.card_id, p.point_id "
        "HAVING sum(p.overruled) > 0")]
    has_mistakes = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'attempt_mistakes'").fetchone()
    if has_mistakes:
        rows += [("mistake", str(cid), str(mid), int(n), int(of)) for cid, mid, n, of in conn.execute(
            "SELECT a.card_id, m.mistake_id, sum(m.disputed), count(*) FROM attempt_mistakes m "
            f"JOIN attempts a ON a.id = m.attempt_id WHERE {VALID} GROUP BY a.card_id, m.mistake_id "
            "HAVING sum(m.disputed) > 0")]
    return tuple(sorted(rows, key=lambda r: (-r[3], -r[3] / r[4], r[0], r[1], r[2])))
