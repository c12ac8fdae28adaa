"""Plain records returned by the store: one attempt, and one card's history at a glance."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class PointRecord:
    """One rubric point of a stored attempt: the final verdict, the scorer's, and whether it was overruled."""

    section_id: str
    point_id: str
    weight: float
    hit: bool
    scorer_hit: bool
    overruled: bool


@dataclass(frozen=True)
class MistakeRecord:
    """One mistake charged to a stored attempt: its penalty (in point weight) and whether it was disputed."""

    mistake_id: str
    point_id: str
    penalty: float
    disputed: bool


@dataclass(frozen=True)
class Attempt:
    """One submitted answer as stored."""

    id: int
    card_id: str
    mode: str
    started_at: datetime | None
    submitted_at: datetime
    duration_s: float
    score: int
    scorer_score: int
    answers: dict[str, str]
    points: tuple[PointRecord, ...] = ()
    result: dict = field(default_factory=dict)
    mistakes: tuple[MistakeRecord, ...] = ()

    @property
    def overrides(self) -> dict[str, bool]:
        """The points the user overruled, with the verdict they chose."""
        return {p.point_id: p.hit for p in self.points if p.overruled}

    @property
    def disputed(self) -> set[str]:
        """The ids of the mistakes the user disputed (not charged)."""
        return {m.mistake_id for m in self.mistakes if m.disputed}

    def section_percent(self) -> dict[str, float]:
        """Per section id: the share of its point weight that was hit, 0-100 (overrides included)."""
        earned: dict[str, float] = {}
        total: dict[str, float] = {}
        for p in self.points:
            total[p.section_id] = total.get(p.section_id, 0.0) + p.weight
            earned[p.section_id] = earned.get(p.section_id, 0.0) + (p.weight if p.hit else 0.0)
        return {s: 100.0 * earned[s] / total[s] for s in total if total[s] > 0}


@dataclass(frozen=True)
class UnscoredAttempt:
    """An answer stored by `record_answer` whose result never came (the process was killed while scoring)."""

    id: int
    card_id: str
    mode: str
    submitted_at: str
    duration_s: float
    answers: dict[str, str]


@dataclass(frozen=True)
class CardStatus:
    """One card's history at a glance (for the card browser and the drill order)."""

    card_id: str
    attempts: int = 0
    best: int | None = None
    last_score: int | None = None
    last_at: datetime | None = None
    due: datetime | None = None
    retrievability: float | None = None

    @property
    def seen(self) -> bool:
        """Whether the card was ever answered or scheduled."""
        return self.attempts > 0 or self.due is not None

    def is_due(self, now: datetime) -> bool:
        """Due for review at `now` (a card answered but never scheduled counts as due)."""
        if self.due is None:
            return self.attempts > 0
        return self.due <= now
