"""Compile a card's points into matchers: phrases expanded from the vocabulary, formulas parsed."""

from __future__ import annotations

from dataclasses import dataclass, field

from lndrill.cards.schema import Card, Point, Recogniser
from lndrill.scoring.formula import canonical
from lndrill.scoring.phrases import Lexicon, Phrase, compile_phrase, lexicon_words
from lndrill.scoring.vocabulary import shared_vocabulary


@dataclass(frozen=True)
class Matcher:
    """A compiled recogniser: concept groups of phrases, or a canonical formula."""

    groups: tuple[tuple[Phrase, ...], ...] = ()
    formula: str | None = None


@dataclass(frozen=True)
class Claim:
    """What must be said (matchers), about whom (`about`) and with which stance."""

    about: str | None
    affirm: bool
    matchers: tuple[Matcher, ...]
    rivals: tuple[str, ...] = ()
    any_subject_but_about: bool = False


@dataclass
class Rubric:
    """A card ready for scoring, plus any problems found while compiling it (for `cards check`)."""

    card: Card
    subjects: dict[str, tuple[Phrase, ...]]
    lexicon: Lexicon
    point_claims: dict[str, Claim]
    mistake_claims: dict[tuple[str, str], Claim]
    problems: list[tuple[int, str]] = field(default_factory=list)
    phrases: tuple[Phrase, ...] = ()


def _expand(card: Card, alt: str, problems: list[tuple[int, str]], line: int) -> list[str]:
    _, concepts = shared_vocabulary()
    if alt.startswith("@"):
        name = alt[1:]
        if name in card.vocab:
            return list(card.vocab[name])
        if name in concepts:
            return list(concepts[name])
        problems.append((line, f"unknown vocabulary '@{name}' (define it under 'vocab' or use a shared one)"))
        return []
    return [alt]


def _matchers(card: Card, recs: tuple[Recogniser, ...], problems: list[tuple[int, str]], where: str) -> tuple[Matcher, ...]:
    out: list[Matcher] = []
    for r in recs:
        if r.formula is not None:
            canon = canonical(r.formula)
            if canon is None or "(" not in canon:
                problems.append((r.line, f"{where}: formula '{r.formula}' does not parse as a structured formula"))
                continue
            out.append(Matcher(formula=canon))
            continue
        groups: list[tuple[Phrase, ...]] = []
        for g in r.concepts:
            phrases: list[Phrase] = []
            for alt in g:
                for text in _expand(card, alt, problems, r.line):
                    p = compile_phrase(text)
                    if p.empty:
                        problems.append((r.line, f"{where}: phrase '{text}' has nothing to match"))
                    else:
                        phrases.append(p)
            if not phrases:
                problems.append((r.line, f"{where}: a concept group has no usable phrase, so the point can never be hit"))
            groups.append(tuple(dict.fromkeys(phrases)))
        out.append(Matcher(groups=tuple(groups)))
    return tuple(out)


def _check_subject(card: Card, about: str | None, line: int, problems: list[tuple[int, str]], where: str) -> None:
    if about is not None and about not in card.subjects:
        problems.append((line, f"{where}: 'about: {about}' is not one of the card's subjects ({', '.join(card.subjects)})"))


def compile_rubric(card: Card) -> Rubric:
    """Compile `card` for scoring. Problems are collected, never raised."""
    problems: list[tuple[int, str]] = []
    shared_subjects, _ = shared_vocabulary()
    subjects: dict[str, tuple[Phrase, ...]] = {}
    for s in card.subjects:
        texts = card.vocab.get(s) or shared_subjects.get(s)
        if not texts:
            problems.append((1, f"subject '{s}' has no phrases (add it under 'vocab')"))
            continue
        subjects[s] = tuple(compile_phrase(t) for t in texts)
    point_claims: dict[str, Claim] = {}
    mistake_claims: dict[tuple[str, str], Claim] = {}
    for point in card.points():
        where = f"point '{point.id}'"
        _check_subject(card, point.about, point.line, problems, where)
        matchers = _matchers(card, point.match, problems, where)
        if not matchers:
            problems.append((point.line, f"{where} has no working 'match', so no answer could ever hit it"))
        affirm = point.stance == "affirm"
        rivals = tuple(s for s in card.subjects if s != point.about)
        point_claims[point.id] = Claim(point.about, affirm, matchers)
        for m in point.mistakes:
            if m.kind == "swapped":
                claim = Claim(point.about, affirm, matchers, rivals=rivals, any_subject_but_about=True)
            elif m.kind == "negated":
                claim = Claim(point.about, not affirm, matchers)
            else:
                _check_subject(card, m.about, m.line, problems, f"mistake '{m.id}'")
                claim = Claim(m.about, m.stance == "affirm", _matchers(card, m.match, problems, f"mistake '{m.id}'"))
            mistake_claims[(point.id, m.id)] = claim
    all_phrases = [p for ps in subjects.values() for p in ps]
    concept_phrases: list[Phrase] = []
    for claim in list(point_claims.values()) + list(mistake_claims.values()):
        for mt in claim.matchers:
            for g in mt.groups:
                concept_phrases.extend(g)
    all_phrases += concept_phrases
    return Rubric(card, subjects, Lexicon(lexicon_words(all_phrases)), point_claims, mistake_claims, problems,
                  phrases=tuple(dict.fromkeys(concept_phrases)))


def point_by_id(card: Card, point_id: str) -> Point | None:
    """The point with this id, or None."""
    return next((p for p in card.points() if p.id == point_id), None)
