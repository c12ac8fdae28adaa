"""Join a card's answer into the one text the scorer reads, and map result spans back to each part.

The card screen keeps one answer area per section; the scorer reads one text in which a `## Heading`
line is a boundary. `join_answer` builds that text and remembers where each part starts, so
`spans_for_area` can turn the scorer's offsets (into the joined text) into offsets into the user's own
words in one area. An answer typed as one text (`lndrill score`) is scored exactly as typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from lndrill.cards.schema import Card
from lndrill.scoring.normalize import MAX_SCORED_CHARS

#: The scorer reads at most this many characters.
SCORED_CHARS = MAX_SCORED_CHARS


@dataclass(frozen=True)
class JoinedAnswer:
    """The text sent to the scorer and where each part's text starts and ends in it."""

    text: str
    keys: tuple[str, ...]
    starts: tuple[int, ...]
    lengths: tuple[int, ...]

    @property
    def truncated(self) -> bool:
        """Longer than the scorer reads: only the first SCORED_CHARS characters count."""
        return len(self.text) > SCORED_CHARS


def join_answer(card: Card, answers: Mapping[str, str], lang: str = "en") -> JoinedAnswer:
    """Join the parts of an answer, separated by a blank line.

    An answer keyed by every section of the card, in the card's order (the app's answer areas), gets
    each section's heading (`## Formulas`, in `lang`) before its part; any other answer (`lndrill score`
    keys its one text "answer") is taken exactly as typed.
    """
    titles = [s.title.get(lang) for s in card.sections] if list(answers) == [s.id for s in card.sections] else []
    parts: list[str] = []
    starts: list[int] = []
    lengths: list[int] = []
    pos = 0
    for i, body in enumerate(answers.values()):
        if i:
            parts.append("\n\n")
            pos += 2
        if titles:
            heading = f"## {titles[i]}\n"
            parts.append(heading)
            pos += len(heading)
        starts.append(pos)
        lengths.append(len(body))
        parts.append(body)
        pos += len(body)
    return JoinedAnswer("".join(parts), tuple(answers), tuple(starts), tuple(lengths))


def spans_for_area(joined: JoinedAnswer, area: int, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of `spans` (offsets into the joined text) that fall inside part `area`, as offsets into
    that part's own text."""
    start, length = joined.starts[area], joined.lengths[area]
    out = []
    for a, b in spans:
        lo, hi = max(a, start), min(b, start + length)
        if lo < hi:
            out.append((lo - start, hi - start))
    return out
