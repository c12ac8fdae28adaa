"""Tokenisation for mixed Chinese/English answers.

Latin words become one token each (lightly stemmed, so "passes" and "passed" meet "pass");
every CJK character is its own token, so Chinese needs no spaces; punctuation that matters for
clause boundaries is kept as one-character tokens. Hyphens, underscores and apostrophes join
nothing and are dropped, so "warm-up", "warm up" and "warmup" all reach the phrase matcher.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WORD, NUMBER, CJK, PUNCT = "w", "n", "c", "p"

_TOKEN_RE = re.compile(
    r"(?P<w>[a-z\u00e0-\u024f\u03b1-\u03c9][a-z0-9\u00e0-\u024f\u03b1-\u03c9]*(?:'[a-z]+)?)"
    r"|(?P<n>[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+(?:\.[0-9]+)?)"
    r"|(?P<c>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])"
    r"|(?P<p>[.,;:!?()\[\]{}=+*/#\u3001\u3002\u300a\u300b\u3010\u3011])"
)


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its matching key, its kind (w/n/c/p) and its [start, end) in the normalised text."""

    key: str
    kind: str
    start: int
    end: int


def stem(word: str) -> str:
    """A deliberately light English stemmer (plurals, -ed, -ing, final -e), applied to both sides."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("es") and word[:-2].endswith(("ss", "x", "ch", "sh", "z")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    if word.endswith("e") and len(word) > 5:
        word = word[:-1]
    return word


_APOSTROPHE_LESS_NOT = {"doesnt", "dont", "isnt", "arent", "cant", "wont", "didnt", "wasnt", "werent", "shouldnt",
                        "couldnt", "wouldnt", "hasnt", "havent", "neednt", "mustnt"}


def _word_key(raw: str) -> str:
    if raw.endswith("n't") or raw in _APOSTROPHE_LESS_NOT:
        return "not"
    if "'" in raw:
        raw = raw.split("'", 1)[0] if raw.endswith("'s") else raw.replace("'", "")
    return stem(raw)


def tokenize(text: str) -> list[Token]:
    """Split normalised text into tokens (see module docstring)."""
    out: list[Token] = []
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup or PUNCT
        raw = m.group()
        if kind == WORD:
            key = _word_key(raw)
        elif kind == PUNCT:
            key = {"\u3002": ".", "\u3001": ","}.get(raw, raw)
        elif kind == NUMBER:
            key = raw.replace(",", "")
        else:
            key = raw
        out.append(Token(key, kind, m.start(), m.end()))
    return out
