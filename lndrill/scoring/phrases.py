"""Phrases: the bounded pattern language card authors use to recognise concepts.

A phrase is plain text ("identity path", "恒等通道", "warm-up"). Latin words match case-insensitively
after light stemming and tolerate small typos ("gradeint", "warmpu", "layernrom"); a word ending in
`*` matches any word with that prefix ("normaliz*"). CJK characters match exactly and need no
spaces. There are no regular expressions, so no card can make the scorer hang: matching is linear
in the answer's length for every phrase.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from lndrill.scoring.normalize import prepare
from lndrill.scoring.tokens import CJK, NUMBER, PUNCT, WORD, Token, stem, tokenize

#: How many extra words may sit between two Latin words of a phrase ("identity residual path").
WORD_GAP = 1


@dataclass(frozen=True)
class Phrase:
    """A compiled phrase: its unit keys (stems or CJK characters) and a joined form for compounds."""

    source: str
    units: tuple[str, ...]
    kinds: tuple[str, ...]
    prefix: tuple[bool, ...]
    joined: str | None

    @property
    def empty(self) -> bool:
        """True when the phrase has nothing to match (only punctuation or blanks)."""
        return not self.units


def compile_phrase(source: str) -> Phrase:
    """Compile a card author's phrase into matchable units."""
    text = prepare(source).text
    units: list[str] = []
    kinds: list[str] = []
    prefix: list[bool] = []
    for tok in tokenize(text):
        if tok.kind == PUNCT:
            at_word_end = tok.end == len(text) or text[tok.end].isspace()
            if tok.key == "*" and units and kinds[-1] == WORD and at_word_end and units[-1] == "\x00":
                continue
            if tok.key == "*" and units and kinds[-1] == WORD and at_word_end and not prefix[-1]:
                # "normaliz*": a prefix of the written word (compared unstemmed and stemmed)
                prefix[-1] = True
                units[-1] = text[_last_word_start(text, tok.start) : tok.start]
                continue
            if tok.key in ",.;:!?":
                continue
        units.append(tok.key)
        kinds.append(tok.kind)
        prefix.append(False)
    joined = None
    if len(units) > 1 and all(k == WORD for k in kinds) and not any(prefix):
        joined = stem("".join(units))
    return Phrase(source, tuple(units), tuple(kinds), tuple(prefix), joined)


def _last_word_start(text: str, end: int) -> int:
    i = end
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_'"):
        i -= 1
    return i


def osa_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment edit distance (a transposition costs 1), cut off above `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        best = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
            best = min(best, v)
        if best > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def typo_budget(word: str) -> int:
    """How many edits a word of this length may carry and still count (short words must be exact;
    five-letter words may only swap two neighbouring letters, see `Lexicon.near`)."""
    if len(word) >= 10:
        return 2
    if len(word) >= 5:
        return 1
    return 0


def _deletes(word: str, depth: int) -> set[str]:
    out = {word}
    frontier = {word}
    for _ in range(depth):
        nxt = set()
        for w in frontier:
            for i in range(len(w)):
                nxt.add(w[:i] + w[i + 1 :])
        out |= nxt
        frontier = nxt
    return out


class Lexicon:
    """The Latin words a card can ever look for, indexed for typo-tolerant lookup."""

    def __init__(self, words: set[str]) -> None:
        self.words = {w for w in words if w}
        self._index: dict[str, set[str]] = defaultdict(set)
        for w in self.words:
            budget = typo_budget(w)
            if budget:
                for d in _deletes(w, 1):
                    self._index[d].add(w)

    def near(self, key: str) -> set[str]:
        """Lexicon words a text word may stand for, typos included (exact match excluded)."""
        if len(key) < 5 or key in self.words:
            return set()
        found: set[str] = set()
        for d in _deletes(key, 1):
            for w in self._index.get(d, ()):
                if w[0] == key[0] and w not in found:
                    if len(w) == 5 and sorted(w) != sorted(key):
                        continue  # "sqaur" ~ "squar", but never "later" ~ "layer"
                    if osa_distance(key, w, typo_budget(w)) <= typo_budget(w):
                        found.add(w)
        return found


class TextIndex:
    """An answer's tokens, indexed so each phrase is found in time linear in its matches."""

    def __init__(self, tokens: list[Token], text: str, lexicon: Lexicon) -> None:
        self.tokens = tokens
        self.text = text
        self.by_key: dict[str, list[int]] = defaultdict(list)
        self.pair_key: dict[str, list[int]] = defaultdict(list)
        near_cache: dict[str, set[str]] = {}

        def aliases(key: str) -> set[str]:
            if key not in near_cache:
                near_cache[key] = lexicon.near(key)
            return near_cache[key]

        self.alias: list[frozenset[str]] = []
        for i, tok in enumerate(tokens):
            keys = {tok.key}
            if tok.kind == WORD:
                keys |= aliases(tok.key)
            self.alias.append(frozenset(keys))
            for k in keys:
                self.by_key[k].append(i)
        # Two adjacent words written apart ("warm up", "layer-norm") may spell one compound.
        for i in range(len(tokens) - 1):
            a, b = tokens[i], tokens[i + 1]
            if a.kind == WORD and b.kind == WORD and b.start - a.end <= 1:
                joined = stem(text[a.start : a.end] + text[b.start : b.end])
                for k in {joined} | aliases(joined):
                    self.pair_key[k].append(i)

    def _prefix_at(self, j: int, unit: str) -> bool:
        tok = self.tokens[j]
        if tok.kind != WORD:
            return False
        root = unit[:-1] if unit.endswith("e") and len(unit) > 4 else unit  # "scale*" also covers "scaling"
        return tok.key.startswith(root) or self.text.startswith(root, tok.start)

    def _unit_at(self, j: int, unit: str, kind: str, is_prefix: bool) -> bool:
        if j >= len(self.tokens):
            return False
        tok = self.tokens[j]
        if kind == WORD:
            if tok.kind != WORD:
                return False
            if is_prefix:
                return self._prefix_at(j, unit)
            return unit in self.alias[j]
        return tok.kind == kind and tok.key == unit

    def _starts(self, phrase: Phrase) -> list[int]:
        unit = phrase.units[0]
        if phrase.prefix[0]:
            return [i for i in range(len(self.tokens)) if self._prefix_at(i, unit)]
        return self.by_key.get(unit, [])

    def find(self, phrase: Phrase) -> list[tuple[int, int]]:
        """Every match of `phrase` as a (first token, last token + 1) pair, in text order."""
        if phrase.empty:
            return []
        found: set[tuple[int, int]] = set()
        n = len(phrase.units)
        for i in self._starts(phrase):
            j = i + 1
            ok = True
            for u in range(1, n):
                unit, kind, pre = phrase.units[u], phrase.kinds[u], phrase.prefix[u]
                if self._unit_at(j, unit, kind, pre):
                    j += 1
                    continue
                if kind == WORD and phrase.kinds[u - 1] == WORD:
                    k = j
                    skipped = 0
                    while skipped < WORD_GAP and k < len(self.tokens) and self.tokens[k].kind in (WORD, NUMBER):
                        k += 1
                        skipped += 1
                        if self._unit_at(k, unit, kind, pre):
                            break
                    if self._unit_at(k, unit, kind, pre):
                        j = k + 1
                        continue
                ok = False
                break
            if ok:
                found.add((i, j))
        if phrase.joined:
            for i in self.by_key.get(phrase.joined, []):
                found.add((i, i + 1))
            for i in self.pair_key.get(phrase.joined, []):
                found.add((i, i + 2))
        if len(phrase.units) == 1 and phrase.kinds[0] == WORD and not phrase.prefix[0]:
            for i in self.pair_key.get(phrase.units[0], []):
                found.add((i, i + 2))
        return sorted(found)


def lexicon_words(phrases: list[Phrase]) -> set[str]:
    """The Latin words (and compounds) of a set of phrases, for building a `Lexicon`."""
    words: set[str] = set()
    for p in phrases:
        for unit, kind, pre in zip(p.units, p.kinds, p.prefix, strict=True):
            if kind == WORD and not pre:
                words.add(unit)
        if p.joined:
            words.add(p.joined)
    return words


__all__ = ["CJK", "Lexicon", "Phrase", "TextIndex", "compile_phrase", "lexicon_words", "osa_distance"]
