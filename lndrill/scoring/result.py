"""Score results: what was hit, what was missed, what was wrong, and why."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from lndrill.cards.schema import Text


@dataclass(frozen=True)
class PointResult:
    """One rubric point: hit or missed, and the user's words that earned it."""

    id: str
    claim: Text
    weight: float
    hit: bool
    evidence: str = ""
    spans: tuple[tuple[int, int], ...] = ()
    overruled: bool = False


@dataclass(frozen=True)
class SectionResult:
    """Points earned in one section."""

    id: str
    title: Text
    points: tuple[PointResult, ...]

    @property
    def earned(self) -> float:
        """Weight of the points hit."""
        return sum(p.weight for p in self.points if p.hit)

    @property
    def max(self) -> float:
        """Weight of all points."""
        return sum(p.weight for p in self.points)


@dataclass(frozen=True)
class MistakeResult:
    """A wrong claim found in the answer and what it cost."""

    id: str
    point_id: str
    explanation: Text
    penalty: float
    evidence: str = ""
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ScoreResult:
    """The whole score of one answer to one card."""

    card_id: str
    sections: tuple[SectionResult, ...]
    mistakes: tuple[MistakeResult, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def max(self) -> float:
        """Sum of all point weights."""
        return sum(s.max for s in self.sections)

    @property
    def penalty(self) -> float:
        """Total points lost to mistakes."""
        return sum(m.penalty for m in self.mistakes)

    @property
    def score(self) -> int:
        """Total 0-100: points hit minus mistake penalties, as a share of all points."""
        if self.max <= 0:
            return 0
        earned = sum(s.earned for s in self.sections) - self.penalty
        return int(max(0, min(100, round(100 * earned / self.max))))

    def section_score(self, section: SectionResult) -> int:
        """A section's earned points on the same 0-100 scale as the total."""
        return int(round(100 * section.earned / self.max)) if self.max else 0

    def section_max(self, section: SectionResult) -> int:
        """A section's maximum on the same 0-100 scale as the total."""
        return int(round(100 * section.max / self.max)) if self.max else 0

    def overrule(self, point_id: str, hit: bool) -> ScoreResult:
        """A copy where the user has marked `point_id` as hit or missed (the scorer was wrong)."""
        sections = []
        for s in self.sections:
            pts = tuple(replace(p, hit=hit, overruled=True) if p.id == point_id else p for p in s.points)
            sections.append(replace(s, points=pts))
        return replace(self, sections=tuple(sections))

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """The JSON shape printed by `lndrill score --json`."""
        return {
            "card": self.card_id,
            "score": self.score,
            "sections": [
                {
                    "id": s.id,
                    "title": s.title.get(lang),
                    "score": self.section_score(s),
                    "max": self.section_max(s),
                    "points": [
                        {"id": p.id, "hit": p.hit, "evidence": p.evidence, "claim": p.claim.get(lang),
                         "weight": p.weight, "spans": [list(x) for x in p.spans]}
                        for p in s.points
                    ],
                }
                for s in self.sections
            ],
            "mistakes": [
                {"id": m.id, "point": m.point_id, "evidence": m.evidence, "explanation": m.explanation.get(lang),
                 "penalty": round(100 * m.penalty / self.max, 1) if self.max else 0,
                 "spans": [list(x) for x in m.spans]}
                for m in self.mistakes
            ],
            "notes": list(self.notes),
        }
