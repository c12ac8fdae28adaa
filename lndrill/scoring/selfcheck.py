"""Checks that a card's rubric can work and is consistent with its own text.

* every point can be hit, and the model answer scores high against its own rubric;
* the card's own correct text (model answers, point claims, mistake explanations, in both languages)
  draws no mistake, on this card or on any other card of the deck (self-consistency);
* the question itself earns nothing (a point it hits would be free for anyone who repeats it);
* every point is backed by a source that names it (a warning);
* phrases stay inside the scorer's bounds (reported while compiling).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lndrill.cards.parse import Problem
from lndrill.cards.schema import Card, Point
from lndrill.scoring.engine import mistakes_in, rubric_for, score_answer

#: A model answer must earn at least this share of its own rubric's points.
MODEL_ANSWER_MIN = 80
#: Repeating the question may earn at most this share of the points.
PROMPT_MAX = 5


def _examples(card: Card, point: Point) -> list[str]:
    """Plain sentences that state the point, built from its own first phrases."""
    rubric = rubric_for(card)
    claim = rubric.point_claims[point.id]
    who = ""
    if claim.about is not None and claim.about in rubric.subjects:
        who = rubric.subjects[claim.about][0].source
    out: list[str] = []
    for m, rec in zip(claim.matchers, [r for r in point.match if r.formula or r.value or r.concepts], strict=False):
        if m.formula is not None and rec.formula is not None:
            out.append(f"{who}: y = {rec.formula}.")
            continue
        if m.binding is not None and rec.value is not None:
            out.append(f"{who}: {rec.value}.")
            continue
        words = " ".join(g[0].source for g in m.groups)
        out.append(f"{who} is {words}." if claim.affirm else f"{who} does not need {words}.")
    return out


def deck_texts(card: Card) -> list[tuple[str, str]]:
    """The card's own correct text, named: model answers, point claims and mistake explanations (both
    languages). None of it may draw a mistake, on this card or any other."""
    out: list[tuple[str, str]] = []
    for lang in ("en", "zh"):
        out.append((f"model_answer.{lang}", card.model_answer.get(lang)))
        for p in card.points():
            out.append((f"{p.id}.claim.{lang}", p.claim.get(lang)))
            for m in p.mistakes:
                out.append((f"{m.id}.explanation.{lang}", m.explanation.get(lang)))
    return out


def _line_of(card: Card, name: str) -> int:
    """The line a named deck text comes from (model answers: their key; claims and explanations: the
    point or mistake)."""
    ident = name.split(".", 1)[0]
    for p in card.points():
        if p.id == ident:
            return p.line
        for m in p.mistakes:
            if m.id == ident:
                return m.line
    if card.path is not None:
        try:
            for k, line in enumerate(Path(card.path).read_text("utf-8").splitlines(), 1):
                if line.startswith("model_answer:"):
                    return k
        except OSError:
            pass
    return 1


def check_card(card: Card, deck: Iterable[Card] = ()) -> list[Problem]:
    """Problems that only show when the rubric is compiled and exercised (see the module docstring).

    `deck` is every card the texts must also be consistent with (this card is always checked).
    """
    path = card.path or Path(f"{card.id}.yaml")
    problems = [Problem(path, line, msg) for line, msg in rubric_for(card).problems]
    if problems:
        return problems
    for point in card.points():
        examples = _examples(card, point)
        if not any(p.hit for text in examples for s in score_answer(card, text).sections for p in s.points
                   if p.id == point.id):
            problems.append(Problem(path, point.line,
                                    f"point '{point.id}' could never be hit: even '{examples[0] if examples else ''}' "
                                    "does not earn it (check its phrases, subject and stance)"))
    for lang in ("en", "zh"):
        result = score_answer(card, card.model_answer.get(lang))
        if result.points < MODEL_ANSWER_MIN:
            missed = [p.id for s in result.sections for p in s.points if not p.hit]
            problems.append(Problem(path, _line_of(card, "model_answer"),
                                    f"model_answer.{lang} earns {result.points}/100 points of its own rubric "
                                    f"(missed: {', '.join(missed) or 'none'})"))
        echo = score_answer(card, card.prompt.get(lang))
        if echo.points > PROMPT_MAX:
            given = [p.id for s in echo.sections for p in s.points if p.hit]
            problems.append(Problem(path, 1, f"prompt.{lang} alone earns {echo.points}/100 points (it hits "
                                             f"{', '.join(given)}): reword those points so repeating the question "
                                             "earns nothing"))
    others = [c for c in deck if c is not card]
    for name, text in deck_texts(card):
        for target in [card, *others]:
            drawn = mistakes_in(target, text)
            if drawn:
                where = "its own card" if target is card else f"card '{target.id}'"
                problems.append(Problem(path, _line_of(card, name),
                                        f"{name} is correct text but draws mistake(s) "
                                        f"{', '.join(m.id for m in drawn)} on {where} (evidence: "
                                        f"\"{drawn[0].evidence[:80]}\"): make the mistake demand the wrong claim"))
    backed = {pid for s in card.sources for pid in s.points}
    for point in card.points():
        if point.id not in backed:
            problems.append(Problem(path, point.line, f"point '{point.id}' has no source: name it under a "
                                                      "source's 'points'", warning=True))
    return problems
