"""Cards as the scorer and the app use them: frozen dataclasses that remember the line each part came
from. The file format they are read from is declared in `lndrill.cards.fileformat` (and documented, with
an annotated example, in lndrill/content/README.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Text:
    """A bilingual string."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        """The text in `lang` ('en' or 'zh'), falling back to the other language if empty."""
        first, second = (self.zh, self.en) if lang == "zh" else (self.en, self.zh)
        return first or second


@dataclass(frozen=True)
class Recogniser:
    """One way a point is recognised: every concept group present in one clause, a formula's structure,
    or a value bound to a symbol ("alpha = (2N)^(1/4)")."""

    concepts: tuple[tuple[str, ...], ...] = ()
    formula: str | None = None
    value: str | None = None
    line: int = 0
    #: Phrases that cancel a concepts match when they stand earlier in its sentence or inside it.
    unless: tuple[str, ...] = ()
    #: Phrases that cancel a concepts match from the text it stands under: earlier in its paragraph or list item,
    #: or in that item's label or the heading above it.
    unless_context: tuple[str, ...] = ()
    #: Phrases that cancel a concepts match when they stand between its first and last term.
    unless_within: tuple[str, ...] = ()
    #: The subject the words are said of when it is not the point's own (a comparison read the other way round).
    #: On a mistake's recogniser: the subject its words are wrong of ("it also removes the mean direction" is wrong
    #: only of RMSNorm); a clause that names another subject is not charged.
    said_of: str | None = None


@dataclass(frozen=True)
class Mistake:
    """A wrong claim that costs points: a swapped or negated version of its point, or its own match."""

    id: str
    explanation: Text
    penalty: float
    kind: str | None = None
    about: str | None = None
    stance: str = "affirm"
    match: tuple[Recogniser, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Point:
    """One claim of a model answer, with its weight, how it is recognised, and its mistakes."""

    id: str
    weight: float
    claim: Text
    about: str | None
    stance: str
    match: tuple[Recogniser, ...]
    mistakes: tuple[Mistake, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Section:
    """An ordered part of the answer (e.g. formulas, backprop, tradeoffs)."""

    id: str
    title: Text
    points: tuple[Point, ...]
    line: int = 0

    @property
    def max_score(self) -> float:
        """Sum of the section's point weights."""
        return sum(p.weight for p in self.points)


@dataclass(frozen=True)
class Source:
    """Where a card's facts come from: an arXiv id, a section, and the points it backs."""

    arxiv: str
    section: str
    note: str = ""
    points: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, eq=False)
class Card:
    """A question card."""

    id: str
    title: Text
    prompt: Text
    tags: tuple[str, ...]
    difficulty: str
    subjects: tuple[str, ...]
    sections: tuple[Section, ...]
    model_answer: Text
    follow_ups: tuple[Text, ...]
    sources: tuple[Source, ...]
    vocab: dict[str, tuple[str, ...]] = field(default_factory=dict)
    path: Path | None = None
    #: The subject the question is about: a claim that names no subject anywhere near it is taken to be about
    #: it (for points only; a mistake always needs its subject named).
    default_subject: str | None = None

    @property
    def max_score(self) -> float:
        """Sum of all point weights."""
        return sum(s.max_score for s in self.sections)

    def points(self) -> list[Point]:
        """All points in section order."""
        return [p for s in self.sections for p in s.points]
