"""Join a card's per-section answer areas into one scored text, and map result spans back to each area.

Plain Python (no Textual): the card screen keeps one answer area per section; the scorer reads one text
in which a `## Heading` line is a boundary. `join_answer` builds that text and remembers where each
area starts, so `spans_for_area` can turn the scorer's offsets (into the joined text) into offsets into
the user's own words in one area.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from lndrill.cards.schema import Card

#: The scorer reads at most this many characters (lndrill.scoring.normalize.MAX_SCORED_CHARS).
SCORED_CHARS = 60_000
#: An answer area keeps at most this many characters; a bigger paste is cut with a notification.
MAX_AREA_CHARS = 100_000


@dataclass(frozen=True)
class JoinedAnswer:
    """The text sent to the scorer and where each area's text starts and ends in it."""

    text: str
    section_ids: tuple[str, ...]
    starts: tuple[int, ...]
    lengths: tuple[int, ...]

    def area_of(self, offset: int) -> int | None:
        """Index of the area that contains `offset` of the joined text, or None (a heading)."""
        for i, (start, length) in enumerate(zip(self.starts, self.lengths, strict=True)):
            if start <= offset < start + max(length, 1):
                return i
        return None


def join_answer(card: Card, texts: Sequence[str], lang: str = "en") -> JoinedAnswer:
    """Join per-section texts with a heading per section (`## Formulas`) in the card's section order."""
    parts: list[str] = []
    starts: list[int] = []
    lengths: list[int] = []
    pos = 0
    for i, section in enumerate(card.sections):
        body = texts[i] if i < len(texts) else ""
        heading = f"## {section.title.get(lang)}\n"
        if i:
            parts.append("\n\n")
            pos += 2
        parts.append(heading)
        pos += len(heading)
        starts.append(pos)
        lengths.append(len(body))
        parts.append(body)
        pos += len(body)
    return JoinedAnswer("".join(parts), tuple(s.id for s in card.sections), tuple(starts), tuple(lengths))


def spans_for_area(joined: JoinedAnswer, area: int, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of `spans` (offsets into the joined text) that fall inside area `area`, as area offsets."""
    start, length = joined.starts[area], joined.lengths[area]
    out = []
    for a, b in spans:
        lo, hi = max(a, start), min(b, start + length)
        if lo < hi:
            out.append((lo - start, hi - start))
    return out


def _cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\u3000" <= ch <= "\u303f"


def reflow(text: str) -> str:
    """Card text with its hard line breaks joined (a space between words, none between Chinese
    characters); blank lines stay as paragraph breaks, so the screen can wrap at its own width."""
    paragraphs = []
    for para in text.strip().split("\n\n"):
        out = ""
        for line in (ln.strip() for ln in para.splitlines()):
            if not line:
                continue
            if out and not (_cjk(out[-1]) and _cjk(line[0])):
                out += " "
            out += line
        paragraphs.append(out)
    return "\n\n".join(paragraphs)


@dataclass
class Stopwatch:
    """Time spent on a card, from an injectable clock (monotonic in the app, a fake in tests)."""

    clock: Callable[[], float] = time.monotonic
    started: float | None = None

    def start(self) -> None:
        """Start (or restart) timing now."""
        self.started = self.clock()

    def elapsed(self) -> float:
        """Seconds since start (0 if never started)."""
        return 0.0 if self.started is None else max(0.0, self.clock() - self.started)
