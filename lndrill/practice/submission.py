"""A submitted answer: what was typed, the scorer's verdict, the user's overrules, and where it is stored.

The scorer's result is never changed: the result shown and stored is the scorer's with the user's
`Overrules` applied, so any overrule can be taken back and the scorer's verdict is always at hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from lndrill.cards.schema import Card
from lndrill.practice.answer import JoinedAnswer
from lndrill.scoring.result import ScoreResult


@dataclass(frozen=True)
class Overrules:
    """Where the user disagrees with the scorer: a verdict per point (hit or missed), and mistakes the
    user disputes (not charged)."""

    points: Mapping[str, bool] = field(default_factory=dict)
    mistakes: frozenset[str] = frozenset()

    def apply(self, scored: ScoreResult) -> ScoreResult:
        """The scorer's result with these overrules applied."""
        result = scored
        for point_id, hit in self.points.items():
            result = result.overrule(point_id, hit)
        if self.mistakes:
            result = replace(result, mistakes=tuple(m for m in result.mistakes if m.id not in self.mistakes))
        return result

    def with_point(self, point_id: str, hit: bool, scorer_hit: bool) -> Overrules:
        """These overrules with point `point_id` set to `hit` (agreeing with the scorer drops the overrule)."""
        points = {k: v for k, v in self.points.items() if k != point_id}
        if hit != scorer_hit:
            points[point_id] = hit
        return replace(self, points=points)

    def with_mistake(self, mistake_id: str, disputed: bool) -> Overrules:
        """These overrules with mistake `mistake_id` disputed (not charged) or charged again."""
        mistakes = self.mistakes | {mistake_id} if disputed else self.mistakes - {mistake_id}
        return replace(self, mistakes=frozenset(mistakes))


@dataclass(frozen=True)
class Submission:
    """One submitted answer to one card.

    `answers` maps section id (or "answer" for one text) to the text typed; `joined` is the text the
    scorer read; `scored` is the scorer's verdict; `attempt_id` is None when the answer is not in the
    history (blank, `--no-save`, or history unavailable). `saved` is True when the answer and its
    result are in the history file; `kept` is the pending file that holds it when they could not be.
    """

    card: Card
    answers: Mapping[str, str]
    joined: JoinedAnswer
    scored: ScoreResult
    attempt_id: int | None
    duration_s: float = 0.0
    overrules: Overrules = field(default_factory=Overrules)
    saved: bool = False
    kept: Path | None = None

    @property
    def result(self) -> ScoreResult:
        """The result to show and store: the scorer's, with the user's overrules."""
        return self.overrules.apply(self.scored)

    def scorer_hit(self, point_id: str) -> bool:
        """The scorer's own verdict on a point (False for an unknown id)."""
        return any(p.hit for s in self.scored.sections for p in s.points if p.id == point_id)

    def with_point(self, point_id: str, hit: bool) -> Submission:
        """This submission with the user's verdict `hit` on point `point_id`."""
        return replace(self, overrules=self.overrules.with_point(point_id, hit, self.scorer_hit(point_id)))

    def with_mistake(self, mistake_id: str, disputed: bool) -> Submission:
        """This submission with the scorer's mistake `mistake_id` disputed (its penalty refunded) or not."""
        return replace(self, overrules=self.overrules.with_mistake(mistake_id, disputed))
