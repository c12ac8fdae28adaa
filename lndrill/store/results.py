"""A scored answer as the rows the history stores: the final and the scorer's score, one row per point and
one per mistake charged."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from lndrill.scoring.result import ScoreResult

#: One rubric point as stored: section id, point id, weight, hit, the scorer's hit, overruled.
PointRow = tuple[str, str, float, bool, bool, bool]
#: One mistake the scorer charged, as stored: mistake id, point id, penalty (in point weight), disputed.
MistakeRow = tuple[str, str, float, bool]


@dataclass(frozen=True)
class ResultRows:
    """What `attempts` and `attempt_points` hold for a scored answer (`result_json` may be "{}")."""

    score: int
    scorer_score: int
    points: tuple[PointRow, ...]
    result_json: str = "{}"
    mistakes: tuple[MistakeRow, ...] = ()


def result_rows(result: ScoreResult, overrides: Mapping[str, bool] | None = None,
                disputed: Collection[str] = ()) -> ResultRows:
    """The rows for the scorer's `result` with the user's `overrides` (point id -> verdict) and disputed
    mistakes (ids: not charged) applied.

    Points already marked `overruled` in `result` count as overruled too; the stored score includes
    every overrule and dispute, the scorer's score none.
    """
    final = result
    for pid, hit in (overrides or {}).items():
        final = final.overrule(pid, hit)
    disputed = set(disputed)
    if disputed:
        final = replace(final, mistakes=tuple(m for m in final.mistakes if m.id not in disputed))
    scorer_hit = {
        (s.id, p.id): (not p.hit if p.overruled else p.hit) for s in result.sections for p in s.points
    }
    points = tuple(
        (s.id, p.id, float(p.weight), bool(p.hit), bool(scorer_hit[(s.id, p.id)]), bool(p.overruled))
        for s in final.sections for p in s.points
    )
    mistakes = tuple((m.id, m.point_id, float(m.penalty), m.id in disputed) for m in result.mistakes)
    return ResultRows(final.score, result.score, points, json.dumps(result.to_dict("en"), ensure_ascii=False),
                      mistakes)
