"""Words: tokens for mixed Chinese/English text, cue-word sets, and the phrases card authors write.

Tokens. Latin words become one token each, lightly stemmed ("passes" and "passed" meet "pass"); every
CJK character is its own token, so Chinese needs no spaces; numbers, arrows, check marks and the
punctuation that matters for clause boundaries are kept. Hyphens, underscores and apostrophes join
nothing and are dropped, so "warm-up", "warm up" and "warmup" all reach the phrase matcher.

Cues. A `Cues` set holds English stems (and two-word English cues) and Chinese words; `Cues.at`
says how many tokens a cue spans at a position. Every mechanism (negation, modality, connectives)
keeps its words in one `Cues` so both languages are handled by the same code.

Phrases. A phrase is plain text ("identity path", "恒等通道", "warm-up"). Latin words match
case-insensitively after stemming and tolerate small typos ("gradeint", "warmpu"); a word ending in
`*` matches any word with that prefix ("normaliz*"). CJK characters match exactly. There are no
regular expressions, and the index below finds every phrase in time linear in its matches, so no card
can make the scorer hang.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property, lru_cache

WORD, NUMBER, CJK, PUNCT = "w", "n", "c", "p"
#: Check marks and crosses, as table cells and notes use them.
YES_MARK, NO_MARK = "\u2713", "\u2717"
ARROW = "\u2192"
#: Relation signs other than "=": ≈ ∝ ≤ ≥ ≠ ~ < > and the arrows ↑ ↓ of notes ("贡献↓"). Each keeps its own key,
#: so "alpha < 1" and "alpha > 1" are different phrases.
#: English forms of "to be" that make a noun phrase before them the subject of a predicate ("X is ...").
COPULAS = frozenset({"is", "are", "was", "were"})
#: The articles, which every module's own set of determiners extends with the words its rule needs.
ARTICLES = frozenset({"the", "a", "an"})
RELATIONS = frozenset("≈∝≤≥≠~<>\u2191\u2193")

#: One Chinese character (a token of its own).
CJK_CLASS = "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
CJK_CHAR = re.compile(CJK_CLASS)

_TOKEN_RE = re.compile(
    r"(?P<w>[a-z\u00e0-\u024f\u03b1-\u03c9][a-z0-9\u00e0-\u024f\u03b1-\u03c9]*(?:'[a-z]+)?|\u2207)"
    r"|(?P<n>[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+(?:\.[0-9]+)?)"
    rf"|(?P<c>{CJK_CLASS})"
    r"|(?P<e><->|<=>|[\u2194\u21d4\u27fa])"  # both ways: "Pre Norm :<-> x + f(norm(x))" names, it leads nowhere
    r"|(?P<a>->|=>|[\u2192\u21d2\u27f6\u27f9])"
    r"|(?P<y>[\u2713\u2714\u2705\u2611])"
    r"|(?P<x>[\u2717\u2718\u274c\u274e])"
    r"|(?P<r>[≈∝≤≥≠~<>\u2191\u2193])"
    r"|(?P<p>[.,;:!?()\[\]{}=+*/#|\u2236\u3001\u3002\u300a\u300b\u3010\u3011])"
)
_PUNCT_KEYS = {"\u3002": ".", "\u3001": ",", "\u2236": ":", "<->": "=", "<=>": "=", "\u2194": "=", "\u21d4": "=",
               "\u27fa": "="}


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


#: British "-ise" after the roots that take it (normalise, initialise, stabilise, regularise, optimise, penalise,
#: parameterise, tokenise, quantise, recognise, ...): read as "-ize". Not "otherwise", "precise", "promise", "premise".
_BRITISH = re.compile(r"(?<=[a-z](?:al|il|ar|er|or|en|an|im|gn|nt|at|ic|rd|ol|on|ul))is(?=(?:e|es|ed|ing|ation|ations|er|ers)$)")


def american(word: str) -> str:
    """The "-ize" spelling of a British "-ise" word ("normalised" -> "normalized"); other words unchanged."""
    return _BRITISH.sub("iz", word) if "is" in word and len(word) >= 7 else word


#: Abbreviations notes use for words the rubric spells out ("per-layer param grads").
_ABBREVIATIONS = {"grad": "gradient", "grads": "gradient", "param": "parameter", "params": "parameter"}


@lru_cache(maxsize=1 << 16)  # (answers repeat their words: each is keyed once; a long word is never cached)
def _cached_word_key(raw: str) -> str:
    return _word_key_of(raw)


def _word_key(raw: str) -> str:
    return _cached_word_key(raw) if len(raw) <= MAX_CACHED_WORD else _word_key_of(raw)


#: Words longer than this are keyed each time they come (a pasted 1 MB "word" must not sit in the cache).
MAX_CACHED_WORD = 40


def _word_key_of(raw: str) -> str:
    if raw.endswith("n't") or raw in _APOSTROPHE_LESS_NOT:
        return "not"
    raw = _ABBREVIATIONS.get(raw, raw)
    raw = american(raw)  # "normalised" meets "normalized", "initialisation" meets "initialization"
    if "'" in raw:
        # "BERT's" and "LN'd" (normalised) keep their word; "don't"-style contractions lose the apostrophe
        raw = raw.split("'", 1)[0] if raw.endswith(("'s", "'d")) else raw.replace("'", "")
    return stem(raw)


def tokenize(text: str, cased: str | None = None) -> list[Token]:
    """Split normalised text into tokens (see module docstring).

    With `cased` (the same text before lower-casing), a single capital L keeps its case: the depth L
    and the layer index l mean different things ("grows with L" is not "grows with l").
    """
    out: list[Token] = []
    for m in _TOKEN_RE.finditer(text):
        group = m.lastgroup or PUNCT
        raw = m.group()
        kind = group
        if group == WORD:
            key = _word_key("gradient" if raw == "\u2207" else raw)  # "∇_x f" is the gradient of f
        elif group == NUMBER:
            key = raw.replace(",", "")
        elif group == CJK:
            key = raw
        else:
            kind = PUNCT
            key = {"a": ARROW, "y": YES_MARK, "x": NO_MARK}.get(group) or _PUNCT_KEYS.get(raw, raw)
        if key == "l" and cased is not None and cased[m.start() : m.end()] == "L":
            key = "L"
        out.append(Token(key, kind, m.start(), m.end()))
    return out


class Cues:
    """Cue words in both languages: English words (stemmed here), English word pairs, Chinese words."""

    def __init__(self, en: Iterable[str] = (), zh: Iterable[str] = (), pairs: Iterable[str] = ()) -> None:
        self.en = frozenset(stem(american(w)) for w in en)
        self.pairs = frozenset(tuple(stem(american(w)) for w in p.split()) for p in pairs)
        self.zh = tuple(sorted(set(zh), key=len, reverse=True))
        self._by_first: dict[str, tuple[str, ...]] = {}
        for w in self.zh:
            self._by_first[w[0]] = self._by_first.get(w[0], ()) + (w,)
        self._first = frozenset(self._by_first)
        self._pair_first = frozenset(p[0] for p in self.pairs)
        self._pair_last = frozenset(p[-1] for p in self.pairs)
        self._pair_lengths = tuple(sorted({len(p) for p in self.pairs if len(p) > 1}, reverse=True))
        self._longest_zh = max((len(w) for w in self.zh), default=0)
        self._zh_chars = frozenset("".join(self.zh))
        #: The token keys a cue can start with: at any other token `at` is 0.
        self.starters = self.en | self._pair_first | self._first

    def at(self, tokens: list[Token], i: int) -> int:
        """The number of tokens a cue spans starting at token i (0 when there is none)."""
        if i >= len(tokens):
            return 0
        t = tokens[i]
        if t.key not in self.starters:
            return 0
        if t.kind == WORD:
            if t.key in self._pair_first:
                for n in self._pair_lengths:  # the longest word sequence first ("the key is", "people say")
                    seq = tokens[i : i + n]
                    if len(seq) == n and all(w.kind == WORD for w in seq) and tuple(w.key for w in seq) in self.pairs:
                        return n
            return 1 if t.key in self.en else 0
        if t.kind == CJK:
            words = self._by_first.get(t.key)
            if words:
                w = cjk_word_at(tokens, i, words)
                return len(w) if w else 0
        return 0

    def ends_at(self, tokens: list[Token], i: int) -> int:
        """The start of a cue that covers token i, or -1 (for scanning backwards)."""
        t = tokens[i] if 0 <= i < len(tokens) else None
        if t is None:
            return -1
        if t.kind == WORD:
            if t.key in self._pair_last:
                for n in self._pair_lengths:
                    seq = tokens[i - n + 1 : i + 1] if i - n + 1 >= 0 else []
                    if len(seq) == n and all(w.kind == WORD for w in seq) and tuple(w.key for w in seq) in self.pairs:
                        return i - n + 1
            return i if t.key in self.en else -1
        if t.kind != CJK or t.key not in self._zh_chars:
            return -1
        longest = self._longest_zh
        for back in range(min(longest, i + 1) - 1, -1, -1):
            n = self.at(tokens, i - back)
            if n > back:
                return i - back
        return -1

    def __contains__(self, key: str) -> bool:
        return key in self.en


def cjk_word_at(tokens: list[Token], i: int, words: tuple[str, ...]) -> str | None:
    """The first (longest, when sorted so) of `words` spelled by CJK tokens starting at i, if any."""
    n = len(tokens)
    for w in words:
        if i + len(w) > n:
            continue
        for k, ch in enumerate(w):
            t = tokens[i + k]
            if t.key != ch or t.kind != CJK:
                break
        else:
            return w
    return None


# ---------------------------------------------------------------------------------------------------
# Phrases

#: Words written with a dot that does not end the sentence ("indep. of L", "Fig. 3", "e.g."); phrases see through
#: that dot when a word follows it.
ABBREVIATIONS = frozenset({"i", "e", "g", "al", "vs", "eq", "fig", "sec", "cf", "approx", "resp", "etc", "ca", "indep",
                           "incl", "thm", "prop", "const", "avg", "esp", "corr", "lem", "def", "dim"})

#: Chinese characters a phrase takes for one another inside it: "跟 eps 成正比" is "和 eps 成正比" ("with").
_CJK_SAME = {"和": ("与", "跟"), "与": ("和", "跟"), "跟": ("和", "与")}


def cjk_same(unit: str) -> tuple[str, ...]:
    """The characters a phrase's CJK unit also matches ("和" is also "与" and "跟")."""
    return _CJK_SAME.get(unit, ())


#: A phrase may skip a word between two of its words, but never one that negates ("jacobian is not diagonal").
_NEVER_SKIPPED = frozenset({"not", "no", "never", "cannot", "without", "nor", "neither"})


#: A phrase's word before a determiner is a verb on its object ("scales the branch"); with "of" between them it is a
#: noun ("the scale of the earlier branches"), so the gap never skips that "of", unless the noun names the action
#: itself ("no subtraction of the mean", "scaling of the branch"): the endings of such nouns.
_ACTION_NOUN_ENDINGS = ("ion", "ing", "ment")
#: Participles of a passive that says how a value is chosen ("alpha is set below 1"): see TextIndex._passive_at.
_PARTICIPLES = frozenset({"set", "chosen", "kept", "taken", "fixed", "initialised", "initialized", "held", "made"})


def _symbol(key: str) -> bool:
    """A one-letter word other than the article: a symbol ("L" in "sqrt(L ln d)"), which changes what a formula
    says, so a phrase's word gap never skips it ("sqrt ln d" is not found in "sqrt L ln d")."""
    return len(key) == 1 and key.isalpha() and key not in ("a", "i")


#: The exponent of a number in scientific notation, right after its mantissa ("1e-8": "e-8").
_EXPONENT = re.compile(r"[eE][-+\u2212]?[0-9]")
_NEW_ITEM = re.compile(r"\n\s*(?:\n|[-*•·>+|]|[0-9]{1,2}[.)])")
#: Brackets and bars are transparent to phrases: "sqrt(d)/||x||" matches "√d/‖x‖".
BRACKETS = frozenset("()[]{}|")
#: How many extra words may sit between two Latin words of a phrase ("identity residual path").
WORD_GAP = 1
#: The most words a likening comma aside (", like GPT-2,") may hold for a phrase to run across it.
_ASIDE_WORDS = 6
#: Two-word openers of such an aside (", as in BERT,", ", as with GPT-3,", ", similar to T5,", ", much like GPT-2,").
_LIKENING_PAIRS = {"as": ("in", "with"), "similar": ("to",), "much": ("like",)}
#: Bounds on what a card author can ask for, so no card can stall the scorer (checked by `cards check`).
MAX_PHRASE_CHARS = 80
MAX_PHRASE_UNITS = 16
MAX_WORD_CHARS = 40
MAX_PHRASES_PER_CARD = 2500


@dataclass(frozen=True, eq=False)  # compiled once per rubric: compared and hashed by identity (a cache key)
class Phrase:
    """A compiled phrase: its unit keys (stems or CJK characters) and a joined form for compounds."""

    source: str
    units: tuple[str, ...]
    kinds: tuple[str, ...]
    prefix: tuple[bool, ...]
    joined: str | None
    #: Maths ("O(N)", "d_model^-0.5"): no word may slip in between its units ("O(N)" is not "O(log N)").
    tight: bool = False
    #: A norm of one letter ("||x||", "||J||_2", "||J_LN||"): bars are transparent, but without them it is the bare letter,
    #: which every formula has ("\frac{\partial z_1}{\partial x_1}" is no norm of x). It matches only next to a bar.
    barred: bool = False

    @property
    def empty(self) -> bool:
        """True when the phrase has nothing to match (only punctuation or blanks)."""
        return not self.units

    @cached_property
    def later_needs(self) -> tuple[tuple[str, ...], ...]:
        """For each unit after the first but a prefix: the token keys that can stand for it (a match needs one of
        each somewhere in the text)."""
        return tuple((unit, *_CJK_SAME.get(unit, ())) for unit, pre in zip(self.units[1:], self.prefix[1:], strict=True)
                     if not pre)

    @cached_property
    def later_keys(self) -> frozenset[str] | None:
        """The token keys every match needs after its first unit, when each has one spelling (None when one of them
        may be written another way: "和" as "与")."""
        if any(len(keys) > 1 for keys in self.later_needs):
            return None
        return frozenset(keys[0] for keys in self.later_needs)

    def later_units_in(self, keys: AbstractSet[str]) -> bool:
        """Every unit after the first (but a prefix) is among `keys`, in one of its spellings: a match needs them all."""
        later = self.later_keys
        if later is not None:
            return later <= keys
        return all(any(k in keys for k in alts) for alts in self.later_needs)

    @cached_property
    def spelled(self) -> str | None:
        """A Chinese phrase of several characters as written out in a text (None for any other phrase)."""
        n = len(self.units)
        if n > 1 and all(k == CJK for k in self.kinds) and not any(u in _CJK_SAME for u in self.units):
            return "".join(self.units)
        return None


def phrase_problem(source: str) -> str | None:
    """Why a phrase is over the scorer's bounds, or None when it is fine."""
    if len(source) > MAX_PHRASE_CHARS:
        return f"is {len(source)} characters long (at most {MAX_PHRASE_CHARS})"
    words = source.split()
    if len(words) > MAX_PHRASE_UNITS:
        return f"has {len(words)} words (at most {MAX_PHRASE_UNITS})"
    long = next((w for w in words if len(w) > MAX_WORD_CHARS), None)
    if long is not None:
        return f"has a word of {len(long)} characters (at most {MAX_WORD_CHARS})"
    return None


def compile_phrase(source: str) -> Phrase:
    """Compile a card author's phrase into matchable units (over-long phrases compile to nothing)."""
    from lndrill.scoring.normalize import prepare

    if phrase_problem(source) is not None:
        return Phrase(source, (), (), (), None)
    prepared = prepare(source)
    text = prepared.text
    units: list[str] = []
    kinds: list[str] = []
    prefix: list[bool] = []
    for tok in tokenize(text, prepared.cased):
        if tok.kind == PUNCT:
            glued = tok.start > 0 and not text[tok.start - 1].isspace()
            at_word_end = tok.end == len(text) or text[tok.end].isspace()
            # "normaliz*": a prefix of the word right before the star; a star after a space is a
            # plain character that phrases never match ("y * mean" is not "y<anything> mean").
            if tok.key == "*" and units and kinds[-1] == WORD and at_word_end and glued and not prefix[-1]:
                prefix[-1] = True
                units[-1] = text[_last_word_start(text, tok.start) : tok.start]
                continue
            if tok.key in ".;:!?" or tok.key in BRACKETS:
                continue
        units.append(tok.key)
        kinds.append(tok.kind)
        prefix.append(False)
    joined = None
    if len(units) > 1 and all(k == WORD for k in kinds) and not any(prefix):
        joined = stem("".join(units))
    barred = any(c in source for c in "|‖") and 0 < len(units) <= 2 and kinds[0] == WORD and len(units[0]) == 1
    return Phrase(source, tuple(units), tuple(kinds), tuple(prefix), joined, tight=any(c in source for c in "()^=/"),
                  barred=barred)


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


def _deletes(word: str) -> set[str]:
    return {word} | {word[:i] + word[i + 1 :] for i in range(len(word))}


#: Distinct words a typo can never turn into each other (both are real words with other meanings).
_NOT_TYPOS = {frozenset(p) for p in (("varianc", "variant"), ("later", "layer"), ("form", "from"),
                                     ("mean", "meant"), ("sign", "sing"), ("scal", "scar"))}


#: Common English words that answers use in their own sense and that lie one edit from a word the cards look for
#: ("identify" is not a typo of "identity", "there" not of "three", "though" not of "through", "present" not of
#: "prevent"): such a word in an answer is never read as a typo. Found by listing, over all graded answers and real
#: passages, the text words that typo lookup turned into a lexicon word, and keeping those with a meaning of their own.
_REAL_WORDS = frozenset(stem(w) for w in (
    "there", "three", "though", "through", "thorough", "identify", "identifies", "identified", "remain", "remains",
    "retain", "retains", "defend", "present", "presents", "finally", "additionally", "everyone", "safely", "master",
    "explore", "compete", "qualify", "inflate", "nearby", "protect", "protects", "region", "weigh",
    "touch", "trick", "begin", "deepen", "sharpen", "originate", "liner", "properly"))


class Lexicon:
    """The Latin words a card can ever look for, indexed for typo-tolerant lookup."""

    def __init__(self, words: set[str]) -> None:
        self.words = {w for w in words if w}
        self.longest = max((len(w) for w in self.words), default=0)
        self._index: dict[str, set[str]] = defaultdict(set)
        for w in self.words:
            if typo_budget(w):
                for d in _deletes(w):
                    self._index[d].add(w)

    def near(self, key: str) -> set[str]:
        """Lexicon words a text word may stand for, typos included (exact match excluded)."""
        # A word much longer than any lexicon word cannot be a typo of one (and its deletes would
        # cost time and memory quadratic in its length).
        if len(key) < 5 or key in self.words or len(key) > self.longest + 2 or key in _REAL_WORDS:
            return set()
        if any(c.isdigit() for c in key):
            return set()  # a version is no typo of another: "llama1" is not "llama2", nor "gemma3" "gemma2"
        found: set[str] = set()
        for d in _deletes(key):
            for w in self._index.get(d, ()):
                if w[0] != key[0] or w in found or frozenset((w, key)) in _NOT_TYPOS:
                    continue
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
        self._pair_at: dict[int, str] = {}  # first token of such a pair -> the compound it spells
        for i in range(len(tokens) - 1):
            a, b = tokens[i], tokens[i + 1]
            if a.kind == WORD and b.kind == WORD and b.start - a.end <= 1:
                # Exact only: a typo allowance on a joined pair lets "the ln" pass for "then ln".
                joined = stem(text[a.start : a.end] + text[b.start : b.end])
                self.pair_key[joined].append(i)
                self._pair_at[i] = joined
        #: every word key in the text, and every compound two adjacent words spell
        self._present: frozenset[str] = frozenset(self.by_key) | frozenset(self.pair_key)
        # Word keys and raw words, sorted, so a prefix finds its words by bisection.
        raw: dict[str, list[int]] = defaultdict(list)
        for i, tok in enumerate(tokens):
            if tok.kind == WORD:
                raw[tok.key].append(i)
                word = text[tok.start : tok.end]
                if word != tok.key:
                    raw[word].append(i)
        self._sorted_words: list[str] = sorted(raw)
        self._raw = raw
        # The next token that is not a bracket or bar, for each position (phrases see through brackets), nor
        # the dot of a method call ("(g * y).mean(-1)" meets "(g * y).mean"; "Post-LN. Pre-LN" keeps its dot).
        self._sig = list(range(len(tokens) + 1))
        for pos in range(len(tokens) - 1, -1, -1):
            tok = tokens[pos]
            if tok.kind == PUNCT and (tok.key in BRACKETS or (tok.key == "." and (
                    self._method_dot(pos) or self._abbreviation_dot(pos)))):
                self._sig[pos] = self._sig[pos + 1]
        # Comma asides that liken the subject to another ("BERT, like GPT-2, uses ..."): a phrase steps over them.
        self._aside_end: dict[int, int] = {}
        for pos, tok in enumerate(tokens):
            if tok.kind == PUNCT and tok.key == "," and (end := self._likening_aside(pos)) is not None:
                self._aside_end[pos] = end

    def _likening_aside(self, pos: int) -> int | None:
        """Where a comma aside opening at token `pos` that likens what comes before it to something else ends (the
        token after its closing comma): ", like GPT-2,", ", just like the original Transformer,", ", as in BERT,". It
        says the sentence's predicate holds of both, so a phrase may run across it ("BERT, like GPT-2, uses Pre-LN"
        says "BERT uses Pre-LN"); "unlike" turns the predicate round and is no such aside."""
        toks = self.tokens
        k = pos + 1
        if k < len(toks) and toks[k].key == "just":
            k += 1
        if k + 1 < len(toks) and toks[k].kind == WORD and toks[k + 1].key in _LIKENING_PAIRS.get(toks[k].key, ()):
            k += 2
        elif k < len(toks) and toks[k].key == "like":
            k += 1
        else:
            return None
        for j in range(k, min(k + _ASIDE_WORDS + 1, len(toks))):
            tok = toks[j]
            if tok.kind == PUNCT and tok.key == ",":
                return j + 1 if j > k and j + 1 < len(toks) else None
            if tok.kind not in (WORD, NUMBER) and tok.key not in ("-", "/", "'"):
                return None
            if tok.kind == WORD and tok.key in _NEVER_SKIPPED:
                return None
        return None

    def _abbreviation_dot(self, pos: int) -> bool:
        """The dot of an abbreviation ("indep. of L", "approx. D"): glued to a word that abbreviates."""
        toks = self.tokens
        return (pos > 0 and toks[pos - 1].kind == WORD and toks[pos - 1].end == toks[pos].start
                and toks[pos - 1].key in ABBREVIATIONS and pos + 1 < len(toks) and toks[pos + 1].kind == WORD)

    def _method_dot(self, pos: int) -> bool:
        """The dot of `x.mean(` or `).mean(`: nothing around it but a name or bracket and a called word."""
        toks, text = self.tokens, self.text
        if not (0 < pos < len(toks) - 2):
            return False
        before, name, call = toks[pos - 1], toks[pos + 1], toks[pos + 2]
        return (before.end == toks[pos].start and name.start == toks[pos].end and name.kind == WORD
                and (before.kind == WORD or before.key == ")") and call.kind == PUNCT and call.key == "("
                and call.start == name.end and text[toks[pos].start] == ".")

    def _action_noun(self, k: int) -> bool:
        """The word at token k is a noun of action ("subtraction", "scaling"): its "of" introduces what is acted on."""
        tok = self.tokens[k]
        return self.text[tok.start : tok.end].lower().endswith(_ACTION_NOUN_ENDINGS)

    def _passive_at(self, k: int, skipped: int) -> bool:
        """Token k is the participle of a passive verb the word gap has just stepped over the copula of ("alpha is set
        below 1", "the gain is kept at 1"): the gap steps over both, as over one word."""
        if skipped != WORD_GAP or k >= len(self.tokens) or k < 1:
            return False
        before, tok = self.tokens[k - 1], self.tokens[k]
        return before.key in COPULAS and tok.kind == WORD and self.text[tok.start : tok.end].lower() in _PARTICIPLES

    def _hyphenated(self, a: int, b: int) -> bool:
        """Tokens a and b are the halves of one hyphenated word ("encoder-decoder"): a phrase's word gap never
        skips the first half, or "only decoder" would be read in "only encoder-decoder"."""
        return self.text[self.tokens[a].end : self.tokens[b].start] == "-"

    def _crosses_item(self, a: int, b: int) -> bool:
        """A phrase never runs from one list item or paragraph into the next ("Post-LN\n- BERT")."""
        gap = self.text[self.tokens[a].end : self.tokens[b - 1].start]
        return "\n" in gap and _NEW_ITEM.search(gap) is not None

    def _prefix_positions(self, unit: str) -> list[int]:
        root = unit[:-1] if unit.endswith("e") and len(unit) > 4 else unit  # "scale*" also covers "scaling"
        k = bisect.bisect_left(self._sorted_words, root)
        out: set[int] = set()
        while k < len(self._sorted_words) and self._sorted_words[k].startswith(root):
            out.update(self._raw[self._sorted_words[k]])
            k += 1
        return sorted(out)

    def _prefix_at(self, j: int, unit: str) -> bool:
        tok = self.tokens[j]
        if tok.kind != WORD:
            return False
        root = unit[:-1] if unit.endswith("e") and len(unit) > 4 else unit
        return tok.key.startswith(root) or self.text.startswith(root, tok.start)

    def _bracket_between(self, a: int, b: int) -> bool:
        """An opening bracket stands between tokens a and b (a phrase's unit and the next one it meets)."""
        return any(self.tokens[k].key in ("(", "[") for k in range(a + 1, b))

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
        return tok.kind == kind and (tok.key == unit or (kind == CJK and tok.key in _CJK_SAME.get(unit, ())))

    def _numerator(self, k: int) -> bool:
        """The number at token k is divided by what follows it, written tight, maybe after closing brackets ("1/s",
        "((1)/(s))"); a spaced slash lists ("GPT-2 / nanoGPT", "2.33 / 3.09")."""
        toks = self.tokens
        j = k + 1
        while j < len(toks) and j - k <= 3 and toks[j].kind == PUNCT and toks[j].key == ")":
            j += 1
        return (j < len(toks) and toks[j].kind == PUNCT and toks[j].key in ("/", "÷")
                and toks[j].start == toks[j - 1].end and j + 1 < len(toks) and toks[j + 1].start == toks[j].end)

    def _mantissa(self, k: int) -> bool:
        """The number at token k is the mantissa of one written in scientific notation ("1e-8", "1E+3", "3e5"): the
        exponent is glued to it."""
        return _EXPONENT.match(self.text, self.tokens[k].end) is not None

    def find(self, phrase: Phrase) -> list[tuple[int, int]]:
        """Every match of `phrase` as a (first token, last token + 1) pair, in text order."""
        units = phrase.units
        if not units:
            return []
        first = units[0]
        # Most of a rubric's phrases do not start anywhere in a given answer: out before any other work.
        if phrase.prefix[0]:
            starts = self._prefix_positions(first)
        elif phrase.kinds[0] == CJK and first in _CJK_SAME:
            starts = sorted(i for key in (first, *_CJK_SAME[first]) for i in self.by_key.get(key, []))
        else:
            starts = self.by_key.get(first, [])
        one_word = len(units) == 1 and phrase.kinds[0] == WORD and not phrase.prefix[0]
        # (a first compound written as two words: "layer norm scaling" for "layernorm scaling")
        paired = self.pair_key.get(first, ()) if len(units) > 1 and phrase.kinds[0] == WORD and not phrase.prefix[0] else ()
        paired_set: AbstractSet[int] = frozenset()
        if paired:
            starts, paired_set = sorted({*starts, *paired}), set(paired)
        if starts and not phrase.later_units_in(self._present):
            starts = []  # a later word of the phrase is nowhere in the text: it can only match joined up
        if not starts and not phrase.joined and not one_word:
            return []  # nor can it match as a compound ("pre norm" as "prenorm") or a split word ("warm up")
        found: set[tuple[int, int]] = set()
        n = len(units)
        sig = self._sig
        pair_at, aside_end = self._pair_at, self._aside_end
        # A Chinese phrase written out in the text as it is (no bracket or space inside): one string comparison
        # instead of a unit-by-unit walk (long Chinese answers repeat their terms thousands of times).
        spelled = phrase.spelled
        text, tokens = self.text, self.tokens
        bound = _CJK_BOUND_BEFORE.get(first, "") if phrase.kinds[0] == CJK else ""
        for i in starts:
            if bound and i > 0 and tokens[i - 1].kind == CJK and tokens[i - 1].key in bound and (
                    tokens[i - 1].end == tokens[i].start):
                continue  # "主要用来": the 要 ends the word 主要, it starts no "要用"
            if spelled is not None and text.startswith(spelled, tokens[i].start) and i + n <= len(tokens) and (
                    tokens[i + n - 1].start == tokens[i].start + n - 1):
                found.add((i, i + n))
                continue
            prev, j = i, sig[i + 1]
            if i in paired_set and not self._unit_at(i, first, WORD, False):
                prev, j = i + 1, sig[i + 2]
            ok = True
            for u in range(1, n):
                unit, kind, pre = phrase.units[u], phrase.kinds[u], phrase.prefix[u]
                if j in aside_end and not self._unit_at(j, unit, kind, pre):
                    j = sig[aside_end[j]]  # over ", like GPT-2,"
                if self._unit_at(j, unit, kind, pre):
                    if kind == NUMBER == phrase.kinds[u - 1] and self._bracket_between(prev, j):
                        ok = False  # "2.77 at lr 1e-3 (31.16 at 5e-4)": the bracketed number is bound inside its aside
                        break
                    prev, j = j, sig[j + 1]
                    continue
                if kind == WORD and not pre and pair_at.get(j) == unit:
                    prev, j = j + 1, sig[j + 2]  # a later compound written as two words ("one more layer norm")
                    continue
                if kind == WORD and phrase.kinds[u - 1] == WORD and not phrase.tight:
                    k = j
                    skipped = 0
                    while ((skipped < WORD_GAP or self._passive_at(k, skipped)) and k < len(self.tokens)
                           and self.tokens[k].kind in (WORD, NUMBER)
                           and self.tokens[k].key not in _NEVER_SKIPPED and not _symbol(self.tokens[k].key)
                           and not (self.tokens[k].key == "of" and unit in ARTICLES and not self._action_noun(prev))):
                        k += 1
                        skipped += 1
                        if self._unit_at(k, unit, kind, pre):
                            break
                    if self._unit_at(k, unit, kind, pre) and not self._hyphenated(k - 1, k):
                        prev, j = k, sig[k + 1]
                        continue
                ok = False
                break
            if ok and phrase.kinds[-1] == NUMBER and (self._numerator(prev) or self._mantissa(prev)):
                ok = False  # "norm = 1" is not "‖J‖ = \frac{1}{s}" nor "= 1/sqrt(d)" nor "~ 1e-8": the number goes on
            if ok:
                end = j
                while end > i + 1 and self.tokens[end - 1].kind == PUNCT and self.tokens[end - 1].key in BRACKETS:
                    end -= 1
                if not self._crosses_item(i, end):
                    found.add((i, end))
        if phrase.joined:
            for i in self.by_key.get(phrase.joined, []):
                found.add((i, i + 1))
            for i in self.pair_key.get(phrase.joined, []):
                found.add((i, i + 2))
        if one_word:
            for i in self.pair_key.get(first, []):
                found.add((i, i + 2))
        if phrase.barred:
            found = {(a, b) for a, b in found if self._barred(a)}
        return sorted(found)

    def _barred(self, a: int) -> bool:
        """The letter a `barred` phrase's match opens with at token a stands next to a norm bar ("||x||", "‖x‖",
        "|x|")."""
        text, t = self.text, self.tokens[a]
        near = text[max(0, t.start - 2) : t.start] + text[t.end : t.end + 4]
        return "|" in near or "‖" in near


#: Chinese characters that end a common word with the character before them, so a phrase cannot start there:
#: 要 in 主要 / 重要 / 只要 / 次要 / 首要 / 必要 / 摘要 / 纲要 / 概要 ("主要用来支撑更高的学习率" holds no "要用").
_CJK_BOUND_BEFORE = {"要": "主重只次首必摘纲概"}


def lexicon_words(phrases: Iterable[Phrase]) -> set[str]:
    """The Latin words (and compounds) of a set of phrases, for building a `Lexicon`."""
    words: set[str] = set()
    for p in phrases:
        for unit, kind, pre in zip(p.units, p.kinds, p.prefix, strict=True):
            if kind == WORD and not pre:
                words.add(unit)
        if p.joined:
            words.add(p.joined)
    return words
