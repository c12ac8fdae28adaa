"""Checks that a card's rubric can work: every point hittable, the model answer scoring full marks."""

from __future__ import annotations

from lndrill.cards.parse import Problem
from lndrill.cards.schema import Card, Point
from lndrill.scoring.engine import rubric_for, score_answer

#: A model answer must score at least this against its own rubric.
MODEL_ANSWER_MIN = 80


def _examples(card: Card, point: Point) -> list[str]:
    """Plain sentences that state the point, built from its own first phrases."""
    rubric = rubric_for(card)
    claim = rubric.point_claims[point.id]
    who = ""
    if claim.about is not None and claim.about in rubric.subjects:
        who = rubric.subjects[claim.about][0].source
    out: list[str] = []
    for m in claim.matchers:
        if m.formula is not None:
            rec = next((r for r in point.match if r.formula is not None), None)
            if rec is not None:
                out.append(f"{who}: y = {rec.formula}.")
            continue
        words = " ".join(g[0].source for g in m.groups)
        if claim.affirm:
            out.append(f"{who} is {words}.")
        else:
            out.append(f"{who} does not need {words}.")
    return out


def check_card(card: Card) -> list[Problem]:
    """Problems that only show when the rubric is compiled and exercised."""
    path = card.path
    problems = [Problem(path, line, msg) for line, msg in rubric_for(card).problems]  # type: ignore[arg-type]
    if problems:
        return problems
    for point in card.points():
        examples = _examples(card, point)
        hit = False
        for text in examples:
            result = score_answer(card, text)
            if any(p.hit for s in result.sections for p in s.points if p.id == point.id):
                hit = True
                break
        if not hit:
            problems.append(Problem(path, point.line,  # type: ignore[arg-type]
                                    f"point '{point.id}' could never be hit: even '{examples[0] if examples else ''}' "
                                    "does not earn it (check its phrases, subject and stance)"))
    for lang in ("en", "zh"):
        text = card.model_answer.get(lang)
        result = score_answer(card, text)
        if result.score < MODEL_ANSWER_MIN:
            missed = [p.id for s in result.sections for p in s.points if not p.hit]
            problems.append(Problem(path, 1,  # type: ignore[arg-type]
                                    f"model_answer.{lang} scores {result.score}/100 against its own rubric "
                                    f"(missed: {', '.join(missed) or 'none'}; mistakes: "
                                    f"{', '.join(m.id for m in result.mistakes) or 'none'})"))
    return problems
