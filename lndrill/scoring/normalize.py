"""Text normalisation that remembers where every character came from.

Answers arrive in English, Chinese, full-width forms, LaTeX and pasted junk. The scorer works on a
normalised copy (NFKC, lower case, one kind of dash, no control characters) and maps every span it
finds back to the user's original text so feedback can quote and highlight the user's own words.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

#: Answers longer than this (after dropping repeated lines) are scored on their first part only.
MAX_SCORED_CHARS = 60_000

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"), "-")
_TIMES = dict.fromkeys(map(ord, "\u00d7\u00b7\u22c5\u2219\u2217"), "*")
_QUOTES = dict.fromkeys(map(ord, "\u2018\u2019\u201b\u2032"), "'") | dict.fromkeys(
    map(ord, "\u201c\u201d\u201f\u2033"), '"'
)
_TRANSLATE = _DASHES | _TIMES | _QUOTES


@dataclass(frozen=True)
class Prepared:
    """A normalised answer: `text` plus, for each of its characters, the offset in the original."""

    original: str
    text: str
    origin: tuple[int, ...]
    truncated: bool
    dropped_repeats: int

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Map a [start, end) span of the normalised text to a span of the original text."""
        if not self.origin or start >= end:
            return (0, 0)
        start = max(0, min(start, len(self.origin) - 1))
        end = max(start + 1, min(end, len(self.origin)))
        return (self.origin[start], self.origin[end - 1] + 1)

    def quote(self, start: int, end: int, limit: int = 240) -> str:
        """The user's original words for a normalised span, whitespace folded, at most `limit` chars."""
        a, b = self.span(start, end)
        words = " ".join(self.original[a:b].split())
        return words if len(words) <= limit else words[: limit - 1] + "\u2026"


def _char_ok(ch: str) -> bool:
    if ch in "\n\t":
        return True
    cat = unicodedata.category(ch)
    return not (cat.startswith("C") or cat in ("Zl", "Zp"))


def _fold(ch: str) -> str:
    """Normalise one character: NFKC, lower case, dashes/quotes/times folded."""
    if ch < "\x80":
        return ch.lower()
    ch = ch.translate(_TRANSLATE)
    if ch < "\x80":
        return ch
    folded = unicodedata.normalize("NFKC", ch).lower()
    return folded.translate(_TRANSLATE)


def _unique_lines(text: str) -> tuple[list[tuple[int, str]], int]:
    """Split into lines keeping each non-blank line's first occurrence (and its original offset)."""
    seen: set[str] = set()
    kept: list[tuple[int, str]] = []
    dropped = 0
    pos = 0
    for line in text.splitlines(keepends=True):
        key = " ".join(line.split())
        if key and key in seen:
            dropped += 1
        else:
            if key:
                seen.add(key)
            kept.append((pos, line))
        pos += len(line)
    return kept, dropped


def prepare(original: str | bytes) -> Prepared:
    """Normalise an answer for scoring, keeping an offset map back to `original`.

    Repeated identical lines are dropped (a line pasted fifty times counts once) and the result is
    capped at `MAX_SCORED_CHARS` characters so a huge paste still scores quickly.
    """
    if isinstance(original, bytes):
        original = original.decode("utf-8", errors="replace")
    original = original.replace("\r\n", "\n").replace("\r", "\n")
    kept, dropped = _unique_lines(original)
    out: list[str] = []
    origin: list[int] = []
    total = 0
    truncated = False
    for start, line in kept:
        for i, ch in enumerate(line):
            if total >= MAX_SCORED_CHARS:
                truncated = True
                break
            if not _char_ok(ch):
                continue
            folded = _fold(ch)
            if ch == "\t":
                folded = " "
            out.append(folded)
            origin.extend([start + i] * len(folded))
            total += len(folded)
        if truncated:
            break
    text = "".join(out)
    if text.count("|") >= 4:
        text, origin = _tables_to_sentences(text, origin)
    return Prepared(original, text, tuple(origin), truncated, dropped)


def _cells(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """Cell spans of one table row text[a:b] (outer pipes dropped, cells stripped)."""
    bounds = [a - 1] + [k for k in range(a, b) if text[k] == "|"] + [b]
    cells = []
    for x, y in zip(bounds, bounds[1:], strict=False):
        x += 1
        while x < y and text[x].isspace():
            x += 1
        while y > x and text[y - 1].isspace():
            y -= 1
        cells.append((x, y))
    if text[a:b].lstrip().startswith("|"):
        cells = cells[1:]
    if text[a:b].rstrip().endswith("|"):
        cells = cells[:-1]
    return cells


def _tables_to_sentences(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Rewrite Markdown tables as sentences: each cell becomes "<column header> <row label>: <cell>."

    An answer laid out as a table (placements as columns, aspects as rows) then reads like prose,
    and every character still maps back to the user's original text.
    """
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    out: list[str] = []
    out_origin: list[int] = []

    def emit(a: int, b: int) -> None:
        out.append(text[a:b])
        out_origin.extend(origin[a:b])

    def emit_sep(sep: str, at: int) -> None:
        out.append(sep)
        out_origin.extend([origin[min(at, len(origin) - 1)]] * len(sep))

    def is_rule(k: int) -> bool:
        if k >= len(lines):
            return False
        row = text[lines[k][0] : lines[k][1]].strip()
        return "-" in row and "|" in row and set(row) <= set("|-: ")

    header: list[tuple[int, int]] | None = None
    for k, (a, b) in enumerate(lines):
        row = text[a:b]
        if header is None and not (row.count("|") >= 2 and is_rule(k + 1)):
            emit(a, min(b + 1, len(text)))
            continue
        if header is not None and row.count("|") < 2:
            header = None
            emit(a, min(b + 1, len(text)))
            continue
        if is_rule(k):
            continue
        cells = _cells(text, a, b)
        if header is None:
            header = cells  # a header row is always followed by a |---| rule
            continue
        label = cells[0]
        for col in range(1, len(cells)):
            ca, cb = cells[col]
            if ca >= cb:
                continue
            if col < len(header) and header[col][0] < header[col][1]:
                emit(*header[col])
                emit_sep(" ", ca)
            if label[0] < label[1]:
                emit(*label)
            emit_sep(": ", ca)
            emit(ca, cb)
            emit_sep(".\n", cb - 1)
    return "".join(out), out_origin
