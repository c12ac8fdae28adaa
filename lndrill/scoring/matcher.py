"""Claim frames: where a rubric's words, formulas and values occur in an answer, and what is said there.

An `Analysis` reads one answer once (normalised text, tokens, layout, subject mentions, negation and
modality, formulas, bound values). `Analysis.frames(matcher)` yields a `Frame` for every place the
matcher's concept groups co-occur in one clause (or its formula or value appears): the words found, who
the claim is about and how explicitly (`Attribution`), whether it is affirmed, whether it is qualified, and
whether its clause reads as a claim at all. The engine decides from frames what earns a point and what is
charged as a mistake.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

from lndrill.scoring.attribution import ELLIPSIS_JOINERS, NOBODY, Attribution, Mention, Subjects
from lndrill.scoring.formula import find_bindings, find_formulas, same_value, spoken_formulas
from lndrill.scoring.lexicon import (
    ARROW,
    ARTICLES,
    CJK,
    COPULAS,
    NUMBER,
    PUNCT,
    WORD,
    Cues,
    Phrase,
    TextIndex,
    Token,
    stem,
    tokenize,
)
from lndrill.scoring.normalize import Prepared, prepare
from lndrill.scoring.polarity import Polarity, is_negation
from lndrill.scoring.rubric import Matcher, Rubric
from lndrill.scoring.structure import Layout, analyse, is_consequence, is_function_token
from lndrill.scoring.vocabulary import short_names

#: Words after which a lower-case "pre"/"post" is a prefix written apart ("pre training"), not a placement's name.
#: Words that pair "pre" with "post" ("pre and post norm", "pre + post RMSNorm"): the two sides of one design.
_PAIRING = frozenset({"and", "or", "+", "&", "/", "和", "与"})
#: Words after which a lower-case "pre"/"post" is a prefix written apart ("pre training"), not a placement's name.
_NOT_AFTER_SHORT_NAME = frozenset(stem(w) for w in ("train", "training", "trained", "trains", "process", "processing",
                                                   "processed", "hoc", "mortem", "condition", "conditions", "fix",
                                                   "fixes")) | _PAIRING

#: The words of one claim must lie within this many tokens of its first word (punctuation not counted).
WINDOW = 30
#: Below this many tokens an answer is about the card's own question, whatever it names (see Analysis.__init__).
_SHORT_ANSWER_TOKENS = 80
#: Any word for a normalisation layer (the text is lower-cased). A bare "norm" counts unless it is the size of a vector
#: (`_SIZE_OF_NORM`), and "normalising" as a verb does not ("updates proportional to weight magnitudes, normalizing
#: them"): a passage on warm-up and optimisers that measures norms is still not about a normalisation layer.
_NORM_WORDS = re.compile(r"\bln\b|layer ?norm|rmsnorm|归一化|normali[sz]ation")
_BARE_NORM = re.compile(r"(?:\b([a-z0-9]+)\s+)?\bnorms?\b(\s+of\b)?")
#: Words before a bare "norm" that make it a vector's size ("the L2 update norm", "gradient norms"); not "output" or
#: "input", which also name where a normalisation layer sits ("OLMo 2 keeps only the output norm").
_SIZE_OF_NORM = frozenset({"gradient", "update", "weight", "vector", "stream", "activation", "l2", "l1", "spectral",
                           "frobenius", "parameter", "euclidean"})

#: What may open a clause before the pronoun that refers back to the clause before it ("..., so it keeps growing").
_BRIDGE_CONNECTIVES = frozenset({"so", "and", "then", "thus", "hence", "therefore", "所以", "因此", "于是"})
_BRIDGE_PRONOUNS = frozenset({"it", "they", "它", "它们"})
#: What opens a concession ("although ...", "虽然 ..."), and what opens the main clause after one ("虽然 ..., 但 ...").
_CONCESSIONS = frozenset({"although", "though"})
#: ... and what opens a leading subordinate clause set off by a comma ("While stable at scale, Pre-LN ...").
_LEADING_CONCESSIONS = _CONCESSIONS | {"while", "whereas", "despite"}
_CONCESSIONS_ZH = ("虽然", "尽管", "虽说")
_TURN_AFTER_CONCESSION = ("但", "可", "却", "还是", "仍")
#: The denials of a verb that "but" may correct ("does not use RMSNorm but standard LayerNorm"; "n't" is "not").
_VERB_DENIALS = frozenset({"not", "never", "cannot"})
#: Words that point a sentence back at the one before ("these transforms", "those weights", "这些层").
_BACK_REFERENCES = frozenset({"these", "those"})
_BACK_REFERENCES_ZH = ("这些", "这几个", "这两个", "这三个", "这四个")
#: Possessives that point back at the clause's own subject ("its alpha", "their beta").
_OWNER_PRONOUNS = frozenset({"it", "its", "their", "his", "her", "one", "this", "that"})
#: What a quantity does as the condition before it changes ("随 L 增大而变小", "随 L 增大反而下降").
_CHANGE_AFTER_CONDITION = Cues(zh=("变小", "减小", "缩小", "下降", "衰减", "降低", "减少", "不变", "保持不变"))
#: Conjunctions that may open a comma part as a statement of its own, and the words that then set its scene
#: (", and at LLM scale ...", ", but in practice ...").
_NEW_STATEMENT = frozenset({"and", "but"})
_SETTING_WORDS = frozenset(stem(w) for w in ("at", "in", "on", "for", "with", "under"))
#: How many tokens after a mistake's match a colon may stand and still lead into an elaboration of it.
_COLON_REACH = 6
#: At most this many frames per matcher and sentence (a pasted wall of text cannot multiply work).
PER_SENTENCE = 6
#: Frames kept per recogniser, in text order: a paste that repeats one statement thousands of times ("pre is
#: x + F(LN(x)). " x 3000) would otherwise build and weigh every copy (about a third of the time of scoring it).
#: Across the 6,230 blind answers and real passages no recogniser has more than 19 frames; past this many, a later
#: copy of a statement adds no credit, and a wrong claim found only there is not charged (precision first).
MAX_FRAMES = 300
#: Prepositions that open a setting before the claim's subject ("For BERT-base, Pre-LN ...").
_SETTING_PREPOSITIONS = frozenset({"for", "on", "in", "with", "at"})
#: How far back from a word such a setting part may open (a few words and the punctuation between them).
_SETTING_REACH = 16

_ELLIPSIS = Cues(
    en=("does", "do", "did", "not", "is", "are", "can", "cannot", "too", "also", "either", "neither", "nor", "no",
        "so", "as", "well", "same", "the", "other", "hand", "it", "its", "on", "while", "whereas", "but",
        "and", "doesn't", "isn't", "unlike", "has", "have", "does", "will", "won't", "need", "needs"),
    zh=(*tuple("不需要用也是则就会没有同样如此并非但而却样与和跟同像必加"), "可以", "能够"),
)
#: How many words a setting framed by 在 ... 下 may hold inside an elliptical clause.
_ZH_SETTING_WORDS = 8
#: Adverbs of frequency an elliptical clause may carry ("..., but Post-LN usually needs it", "但 Post-LN 通常要加"):
#: they hedge it, so it earns credit but is never charged.
_FREQUENCY = Cues(en=("usually", "typically", "often", "generally", "normally", "still", "always"),
                  zh=("通常", "一般", "往往", "仍然", "依然", "还是", "总是", "还"))
#: What makes an elliptical clause take the whole statement over ("RMSNorm is the same", "Pre-LN 也一样").
_SAME = Cues(en=("same", "likewise", "similarly"), zh=("一样", "同样", "如此"))
#: Auxiliaries and verbs an elliptical clause echoes the claim's verb with ("Post-LN does", "Post-LN can't",
#: "neither does Pre-LN", "Post-LN 需要", "Post-LN 要加").
_ECHOED_VERB = Cues(en=("does", "do", "did", "is", "are", "was", "were", "can", "cannot", "will", "has", "have", "need",
                        "needs", "not", "neither", "nor", "either"),
                    zh=("需", "要", "会", "能", "可", "用", "必", "加"))
#: What a sentence that only carries the one before over to another subject is made of ("BERT kept that.",
#: "GPT-3 did the same.", "So did LLaMA.", "T5 也一样。"), and the words that make it refer back.
_FOLLOW_SUIT = Cues(en=("kept", "keep", "keeps", "that", "it", "this", "did", "does", "do", "the", "same", "followed",
                        "follow", "follows", "suit", "too", "also", "as", "well", "so", "likewise", "copied"),
                    zh=tuple("也是一样同样如此这沿用保留了"))
_BACK_REFERENCE = Cues(en=("that", "it", "this", "same", "suit", "too", "also", "likewise", "so"),
                       zh=("也", "同样", "一样", "如此"))
_WHY = Cues(en=("why", "how"), zh=("为什么", "为何", "怎么", "如何"))


def _spelled_maths(phrase: Phrase) -> bool:
    """A root or log spelled without brackets ("sqrt ln d", "log n"): its argument may go on ("sqrt(ln d / L)")."""
    units = phrase.units
    return (len(units) > 1 and any(u in _ROOTS_AND_LOGS for u in units)
            and all(u in _ROOTS_AND_LOGS or (len(u) == 1 and u.isalnum()) for u in units))


_ROOTS_AND_LOGS = frozenset({"sqrt", "ln", "log"})


#: Determiners that open the object of an object relative clause ("the warm-up Post-LN needs").
_OBJECT_DETERMINERS = ARTICLES | {"any", "this", "that", "its", "whatever"}


@dataclass(frozen=True)
class Frame:
    """One place a matcher is satisfied, and what the answer says there."""

    start: int  # token indices
    end: int
    terms: tuple[tuple[int, int], ...]
    kind: str  # "prose", "formula" or "value"
    char_span: tuple[int, int]
    who: Attribution
    affirmed: bool
    qualifier: str | None
    claim: bool  # the clause reads as a claim (keyword lists, headings and echoes of the prompt do not)
    quoted: bool
    asserted: bool  # a plain statement with a verb, not a label, list or fragment
    contrast: bool  # some of its words sit in a comparison phrase ("unlike BERT, which ...")
    firm: bool = True  # its polarity does not rest on absence alone ("without warm-up it reaches ...")
    #: Its words sit on both sides of a bracket ("multiplied by beta (Q and K keep the normal init)"): the
    #: aside is a statement of its own, so together they claim nothing that can be charged.
    straddles_aside: bool = False
    #: A formula said aloud ("x plus F of LN of x"): it earns credit, never a mistake.
    said_aloud: bool = False


#: How an elliptical clause takes a claim's polarity over (see `_Ellipsis.reading`).
EllipsisReading = Literal["carry", "verb", "object"]


@dataclass(frozen=True)
class _Ellipsis:
    subject: str
    negated: bool
    contrast: bool
    start: int
    end: int
    qualified: bool = False  # a comma phrase stands between the subject and its predicate ("at high lr")
    #: A sentence of its own after the claim's ("... LayerNorm after the add. BERT kept that."): it earns a point
    #: for its subject but, the subject being carried over, is never charged.
    carried: bool = False
    #: How its polarity follows from the claim's (see `Analysis.ellipsis_affirmed`): "carry" (it takes the whole
    #: statement over: "RMSNorm too", "Pre-LN 也一样", "unlike Pre-LN"), "verb" (it echoes the verb: "..., but Post-LN
    #: does", "Post-LN can't") or "object" (a verb of its own on a pronoun: "..., but Post-LN needs it").
    reading: EllipsisReading = "carry"


#: What introduces the other side of a comparison inside a part ("unlike the stream", "compared with the input").
#: Words that introduce what something is compared with (also read by the engine's comparison guards).
COMPARED_WITH = Cues(en=("unlike",), pairs=("compared to", "compared with", "as opposed to", "in contrast to"),
                      zh=("不同于", "不像", "相比于", "相较于"))
_CHOICE_WORDS = frozenset(stem(w) for w in ("chose", "choose", "chosen", "chooses", "prefer", "prefers", "preferred",
                                             "picked", "pick", "favour", "favor", "favoured", "favored", "selected"))
_DETERMINERS = ARTICLES | {"its", "their", "his", "her"}
#: What "just" comes before when it means "exactly", "equally" or "right", not "only".
_AFTER_JUST_NOT_ONLY = frozenset(stem(w) for w in ("like", "as", "before", "after", "about"))
#: Nouns that make "linear" the name of a module or map ("a Linear layer", "linear projections", "nn.Linear(d, d)"),
#: not a rate of growth or a ramp.
_LINEAR_MODULES = frozenset(stem(w) for w in ("layer", "layers", "map", "maps", "mapping", "mappings", "projection",
                                              "projections", "transformation", "transformations", "transform", "module",
                                              "modules", "probe", "probes", "classifier", "regression", "unit", "units",
                                              "combination", "combinations", "algebra", "operator", "operators"))
#: Words that make "head" one of attention's heads ("every attention head", "multi-head attention"), not the output
#: head.
_ATTENTION_HEAD = frozenset(stem(w) for w in ("attention", "attn", "multi", "qk", "query", "key"))
#: How near "attention" makes a softmax attention's own.
_ATTENTION_REACH = 8
#: An auxiliary or copula that an ellipsis may end with ("..., and Pre-LN's is", "..., Post-LN does").
_HANGING_AUXILIARIES = frozenset(stem(w) for w in ("is", "are", "was", "were", "does", "do", "did", "has", "have", "can",
                                                   "will"))
#: What, right after a rubric phrase written as an equation ("g_x = g/s", "s = var + eps"), adds to or raises its
#: right-hand side (a product, "g_x = s·(...)", is how such phrases are meant to be read on).
_CONTINUES_EXPRESSION = frozenset("+-−^")
#: ... and an argument inside a bracket ("sqrt(ln d / L)" is not "sqrt(ln d)").
_CONTINUES_ARGUMENT = frozenset("/")
#: A lower-case "ln" applied to a dimension or a number ("sqrt(ln d)", "ln(n)", "\\ln 2"): the natural logarithm of
#: Xiong et al.'s bounds, not LayerNorm (a LayerNorm call in code takes a tensor: "ln(x)", "self.ln(h)").
_LOG_ARGUMENT = re.compile(r"\s*(?:\(\s*)?(?:d|n|N|2|10|d_model|d_\{model\})(?![\w{])")
#: The spelled-out word of "pre-normalisation"/"post-normalization" ...
_SPELLED_NORMALISING = ("normalisation", "normalization")
#: ... and the nouns of a quantity it may stand before ("the pre-normalisation vector"): then it says when the quantity
#: is taken, not which placement is meant.
_QUANTITY_NOUNS = frozenset(stem(w) for w in ("vector", "vectors", "value", "values", "input", "inputs", "sum", "sums",
                                              "activation", "activations", "tensor", "tensors", "hidden", "statistic",
                                              "statistics", "feature", "features", "quantity", "scale"))
#: The longest list of names after a colon that spells out a noun of the clause before it (tokens).
_NAMED_LIST_TOKENS = 24
#: Words that make a clause a statement of its own rather than a list of names.
_VERB_SIGNS = frozenset({"has", "have", "had", "do", "does", "did", "get", "gets", "make", "makes", "become", "becomes",
                         "change", "changes", "give", "gives", "keep", "keeps", "go", "goes", "grow", "grows"})
#: Modals that leave their verb for later when a comma follows them ("Pre-LN can, at moderate rates, drop it").
_MODALS = frozenset({"can", "could", "may", "might", "will", "would", "should", "must"})
#: Modals that hedge what an ellipsis carries over ("..., and Pre-LN can, too" is no plain claim to charge).
_HEDGING_MODALS = frozenset({"can", "could", "may", "might"})
#: What opens a formula or a bracket right after an elliptical-looking subject ("RMSNorm's is (1/r)(...)").
_OPENERS = frozenset({"(", "[", "{", "=", ":"})
_COPULAS = COPULAS | {"是"}
#: Adverbs that may stand before a copula introducing a subject's own formula ("Pre-LN 则是 ...", "而是").
_COPULA_ADVERBS = frozenset({"则", "而", "就", "也"})
#: Pronouns that take the claim's object back ("Pre-LN can skip it").
_PRONOUNS = frozenset({"it", "them", "one", "that"})


#: The words that make a norm's name into a placement's ("pre-layer normalization", 后置层归一化).
_PLACEMENT_PREFIX = frozenset({"pre", "post", "-", "前", "置", "后"})
_PLACEMENT_WORDS = {"pre": "post", "post": "pre", "前置": "后置", "后置": "前置"}
_PLACEMENT_NOUNS = frozenset({"norm", "ln", "layernorm", "normal", "normalization", "layer"})
_PLACEMENT_JOINS = frozenset({"and", "or", "/", ",", "和", "或", "与", "及"})


def _one_side_of_pair(pairs: list[tuple[range, range]], terms: tuple[tuple[int, int], ...]) -> bool:
    """The claim's words take one placement of a conjoined pair and not the other."""
    words = {i for x, y in terms for i in range(x, y)}
    return any(any(i in words for i in first) != any(i in words for i in second) for first, second in pairs)


def _conjoined_placements(tokens: list[Token]) -> list[tuple[range, range]]:
    """The two placements named together ("pre-norm and post-norm", "pre- or post-LN", "Pre-LN/Post-LN", "前置和
    后置"), as token ranges: such a pair puts nothing in one of the places alone (the claim "Gemma 2 uses pre-norm
    and post-norm" takes both)."""
    keys = [t.key for t in tokens]
    cjk = [t.kind == CJK for t in tokens]
    out: list[tuple[range, range]] = []
    n = len(tokens)
    for i, k in enumerate(keys):
        word = k if k in ("pre", "post") and not cjk[i] else ("".join(keys[i : i + 2]) if cjk[i] else "")
        if word not in _PLACEMENT_WORDS:
            continue
        j = i + (2 if cjk[i] else 1)
        while j < n and keys[j] in _PLACEMENT_NOUNS and j - i < 4:
            j += 1
        if j >= n or keys[j] not in _PLACEMENT_JOINS:
            continue
        k2 = j + 1
        other = _PLACEMENT_WORDS[word]
        if k2 < n and (keys[k2] == other or "".join(keys[k2 : k2 + 2]) == other):
            end = k2 + (2 if cjk[k2] else 1)
            while end < n and keys[end] in _PLACEMENT_NOUNS and end - k2 < 4:
                end += 1
            out.append((range(i, j), range(k2, end)))
    return out


def _names_a_norm_layer(text: str) -> bool:
    """The (lower-cased) text names a normalisation layer somewhere (see `_NORM_WORDS`)."""
    if _NORM_WORDS.search(text):
        return True
    return any(m.group(1) not in _SIZE_OF_NORM and not m.group(2) for m in _BARE_NORM.finditer(text))


#: Chinese words that make the name right after them the one compared with ("和 Sandwich 同一个结构", "像 Pre-LN 一样").
_ZH_LIKENESS = frozenset({"和", "与", "跟", "同", "像"})


def _full_width_brackets(prep: Prepared) -> frozenset[int]:
    """Where the normalised text's brackets were written full-width ("（", "）") in the answer (none to look for in
    most answers)."""
    if "\uff08" not in prep.original and "\uff09" not in prep.original:
        return frozenset()
    return frozenset(m.start() for m in re.finditer(r"[()]", prep.text)
                     if prep.original[prep.origin[m.start()]] in "\uff08\uff09")


class Analysis:
    """Everything derived from one answer text, shared by all points of a card."""

    def __init__(self, rubric: Rubric, text: str | bytes) -> None:
        self.prep: Prepared = prepare(text)
        self.tokens: list[Token] = tokenize(self.prep.text, self.prep.cased)
        self.index = TextIndex(self.tokens, self.prep.text, rubric.lexicon)
        # where the placements that are no subject of the card are named ("Post-LN" on the Sandwich-LN card)
        self._placement_spans = sorted({hit for ph in rubric.placement_names for hit in self.index.find(ph)})
        self._placement_starts = sorted({a for a, _ in self._placement_spans})
        wide = _full_width_brackets(self.prep)
        self.lay: Layout = analyse(self.prep.text, self.tokens, self.prep.cased, wide)
        starts = [t.start for t in self.tokens]
        written = find_formulas(self.prep.text)
        self._formulas = [(f.sides, *span) for f in written
                          if (span := self._token_span(starts, f.start, f.end)) is not None]
        self._spoken = [(f.sides, *span) for f in spoken_formulas(self.prep.text)
                        if (span := self._token_span(starts, f.start, f.end)) is not None]
        self._formula_begins = {a for _, a, _, _, _ in self._formulas} | {a for _, a, _, _, _ in self._spoken}
        # How far apart two tokens are for one claim: punctuation does not count ("J_{LN} = \frac{1}{s}(I - ...)，每往回一层
        # 都要乘一次": a LaTeX formula's brackets and operators would otherwise put its words out of reach)
        self._reach = list(itertools.accumulate((t.kind != PUNCT for t in self.tokens), initial=0))
        found = [(subject, a, b) for subject, phrases in rubric.subjects.items()
                 for ph in phrases for a, b in self.index.find(ph)]
        found += self._short_names(rubric)
        found = self._without_other_versions(rubric, found)
        found = self._outside_placement_names(rubric, found)
        found = [(s, a, b) for s, a, b in found if not self._before_or_after_normalising(s, a, b)]
        # The card's placement is the subject of unnamed claims in a short answer (the card's question sets the topic), but
        # a long text must be about normalisation at all: a passage on warm-up and Adam that never names a LayerNorm is
        # not about Pre-LN's warm-up.
        about_norm = found or len(self.tokens) < _SHORT_ANSWER_TOKENS or _names_a_norm_layer(self.prep.text)
        default = rubric.default_subject if about_norm else None
        taken = {i for _, a, b in found for i in range(a, b)}
        others = [a for ph in rubric.other_method_names for a, b in self.index.find(ph)
                  if not any(i in taken for i in range(a, b))]
        others += [a for a, b in self._placement_spans if not any(i in taken for i in range(a, b))]
        self.subjects = Subjects(self.lay, found, default, others)
        self.polarity = Polarity(self.lay)
        self._mention_tokens = self.subjects.tokens_covered
        self._phrase_cache: dict[Phrase, list[tuple[int, int]]] = {}
        self._open_brackets: list[int] | None = None  # (built on first use by _ends_inside_an_aside)
        self._all_cached = False
        vocabulary = set(self._mention_tokens)
        for phrase in rubric.phrases_for(set(self.index.by_key) | set(self.index.pair_key)):
            for a, b in self.find(phrase):
                vocabulary.update(range(a, b))
        self._all_cached = True  # every concept phrase that can match is in the cache now: the rest have none
        self.lay.mark_claims(vocabulary)
        self._contrast_parts = self.subjects.contrast_parts
        self._both_placements = _conjoined_placements(self.tokens)
        self._frames: dict[int, list[Frame]] = {}
        self._frame_cache: dict[tuple[int, int, tuple[tuple[int, int], ...], str, tuple[int, int]], Frame] = {}
        self._by_heading: tuple[frozenset[int], dict[int, dict[str, Mention]]] | None = None
        self._by_start: dict[int, tuple[list[int], list[Frame]]] = {}
        self.quoted = self._quoted_tokens()
        self.echo = self._echo_clauses(rubric.prompt_grams)
        self._ellipses = self._find_ellipses()
        self._bindings = [(b.symbol, b.value, *span) for b in find_bindings(self.prep.text)
                          if (span := self._token_span(starts, b.start, b.end)) is not None]
        # (whole written equations, unstructured sides included, in text order and never overlapping)
        self._equations = [span for f in written
                           if (span := self._token_span(starts, f.whole_start, f.end)) is not None]
        self._equation_starts = [a for a, _, _, _ in self._equations]

    # -- setup -----------------------------------------------------------------------------------------
    def _without_other_versions(self, rubric: Rubric,
                                found: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """A bare model name followed by a version the subject does not list names another model: when the
        subject is "GPT-2/3" or "OLMo 2", "GPT-1 was Post-LN" and "OLMo 1 was pre-norm" are about other
        models, which stay subjects of their clauses (so no label or heading lends them the card's). A
        subject listed without versions ("LLaMA") keeps every version."""
        toks, text = self.tokens, self.prep.text
        versions = rubric.subject_versions
        covered = {(subject, i) for subject, a, b in found for i in range(a, b)}
        kept = []
        for subject, a, b in found:
            nxt = toks[b] if b < len(toks) else None
            if (nxt is not None and nxt.kind == NUMBER and toks[b - 1].kind == WORD and versions.get(subject)
                    and text[toks[b - 1].end : nxt.start] in ("", " ", "-")
                    and nxt.key not in versions[subject] and (subject, b) not in covered):
                kept.append((f"{subject} {nxt.key}", a, b + 1))
                continue
            kept.append((subject, a, b))
        return kept

    def _outside_placement_names(self, rubric: Rubric,
                                 found: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """Mentions that are not part of a longer placement name: on a card whose subjects are norms, the
        "Layer Normalization" of "Pre-Layer Normalization" (or the 层归一化 of 前置层归一化) names where the norm
        goes, not which norm it is."""
        spans = self._placement_spans
        if not spans:
            return found
        toks = self.tokens

        def inside_name(a: int, b: int) -> bool:
            # only the placement's own prefix around it ("Pre-Layer Normalization", 前置层归一化): "Pre-LN LayerNorm"
            # and "pre-norm LayerNorm" name a placement and then a norm
            return any(x <= a and b <= y and y - x > b - a
                       and all(toks[i].key in _PLACEMENT_PREFIX for i in (*range(x, a), *range(b, y)))
                       for x, y in spans)

        return [(s, a, b) for s, a, b in found if not inside_name(a, b)]

    def _before_or_after_normalising(self, subject: str, a: int, b: int) -> bool:
        """"the pre-normalisation vector", "post-normalization values": the spelled-out word before a noun of the
        quantity says when it is taken (before or after the norm), not which placement is meant."""
        if subject not in ("pre", "post") or b >= len(self.tokens):
            return False
        text = self.prep.text
        written = text[self.tokens[a].start : self.tokens[b - 1].end].lower()
        return written.endswith(_SPELLED_NORMALISING) and self.tokens[b].kind == WORD and self.tokens[b].key in _QUANTITY_NOUNS

    def _short_names(self, rubric: Rubric) -> list[tuple[str, int, int]]:
        """"Post"/"Pre" written as a name (capitalised, or a line's whole label), not "pre-training"."""
        names = {s: forms for s, forms in short_names().items() if s in rubric.subjects}
        if not names:
            return []
        cased, toks = self.prep.cased, self.tokens
        keys = {f.lower(): s for s, forms in names.items() for f in forms}
        out = []
        for i, t in enumerate(toks):
            subject = keys.get(t.key) if t.kind == WORD else None
            if subject is None:
                continue
            raw = cased[t.start : t.end].split("'", 1)[0]  # "Pre's stream" names Pre
            glued = cased[t.end : t.end + 1] in ("-", "_") or cased[t.start - 1 : t.start] in ("-", "_")
            if glued:
                continue
            label = self.lay.block_label(i)
            if (raw in names[subject] or (label is not None and label == (i, i + 1)) or self._names_a_formula(i)
                    or (subject in ("pre", "post") and self._leads_a_note(i))):
                out.append((subject, i, i + 1))
        return out

    def _leads_a_note(self, i: int) -> bool:
        """A lower-case short name that opens a terse note ("; pre (1+l/2)d <= E||x_l||^2", "Admin: post better, pre
        more robust", "→ pre ok w/o WU"): the first word of its comma part, or right after a colon, arrow or bar,
        not the prefix of "pre training" / "post processing"."""
        toks = self.tokens
        if i + 1 < len(toks) and toks[i + 1].key in _NOT_AFTER_SHORT_NAME:
            return False
        if i > 0 and toks[i - 1].key in _PAIRING:
            return False
        if i > 0 and toks[i - 1].kind == PUNCT and toks[i - 1].key in (":", ";", "|", ARROW):
            return True
        return self.lay.opens_part(i)

    def _names_a_formula(self, i: int) -> bool:
        """The short name, in lower case, is what "is" a formula right after it ("and sandwich is x plus LN of F of LN
        of x", "post is LN(x + F(x))"): said of a formula, the word names the placement."""
        toks = self.tokens
        if i + 2 >= len(toks) or toks[i + 1].key != "is":
            return False
        begins = self._formula_begins
        return i + 2 in begins or (i + 3 in begins and toks[i + 2].key in ("just", "basically", "simply"))

    def _token_span(self, starts: list[int], cs: int, ce: int) -> tuple[int, int, int, int] | None:
        """(first token, last token + 1, start char, end char) of a character span, or None."""
        a = bisect.bisect_left(starts, cs)
        if a >= len(self.tokens):
            return None
        return a, max(a + 1, bisect.bisect_left(starts, ce)), cs, ce

    def _quoted_tokens(self) -> set[int]:
        """Tokens inside quotation marks: a quoted claim is being discussed, not made."""
        text = self.prep.text
        marks = [i for i, ch in enumerate(text) if ch in '"\u300c\u300d\u300e\u300f']
        out: set[int] = set()
        starts = [t.start for t in self.tokens]
        for a, b in zip(marks[::2], marks[1::2], strict=False):
            if b - a > 400:
                continue
            lo, hi = bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)
            out.update(range(lo, hi))
        return out

    def _echo_clauses(self, grams: frozenset[tuple[str, str, str]]) -> set[int]:
        """Clauses that mostly repeat the card's own question (its words, in its order)."""
        if not grams:
            return set()
        out: set[int] = set()
        for c, (a, b) in enumerate(self.lay.clause_span):
            idx = [i for i in range(a, b) if self.tokens[i].kind in (WORD, CJK, NUMBER)]
            if len(idx) < 6:
                continue  # a short claim ("GLM-130B uses DeepNorm.") may share the question's words and still say something
            keys = [self.tokens[i].key for i in idx]
            covered = [False] * len(keys)
            for k in range(len(keys) - 2):
                if (keys[k], keys[k + 1], keys[k + 2]) in grams:
                    covered[k] = covered[k + 1] = covered[k + 2] = True
            # A negation the question does not have makes it a claim of its own ("... does not need a final LN").
            negates = any(not covered[k] and is_negation(self.tokens, i) for k, i in enumerate(idx))
            new_words = sum(1 for k, i in enumerate(idx) if not covered[k] and not is_function_token(self.tokens[i]))
            if sum(covered) >= 0.8 * len(keys) and new_words <= 1 and not negates:
                out.add(c)
        return out

    def _find_ellipses(self) -> dict[int, list[_Ellipsis]]:
        """Elliptical clauses ("..., Pre-LN doesn't", "Pre-LN 也需要", "unlike Pre-LN"), by sentence."""
        lay, toks = self.lay, self.tokens
        by_part: dict[int, list] = {}
        for m in self.subjects.mentions:
            by_part.setdefault(lay.part_of[m.start], []).append(m)
        out: dict[int, list[_Ellipsis]] = {}
        for part, ms in by_part.items():
            if len(ms) != 1:
                continue
            m = ms[0]
            a = m.start
            while a > 0 and lay.part_of[a - 1] == part:
                a -= 1
            b = m.end
            while b < len(toks) and lay.part_of[b] == part:
                b += 1
            rest = [k for k in range(a, b) if toks[k].kind in (WORD, CJK) and k not in self._mention_tokens]
            qualified = False
            setting = self._zh_setting(rest)
            if setting:
                # "Pre-LN 在 moderate lr 下可以不用": a setting framed by 在 ... 下 qualifies the ellipsis
                rest, qualified = [k for k in rest if k not in setting], True
            if rest and all(toks[k].key in ELLIPSIS_JOINERS or (toks[k].key in _MODALS and b < len(toks) and toks[b].key == ",")
                            for k in rest):
                # "and Pre-LN, at moderate learning rates, can skip it": the predicate comes after a comma phrase
                bare_end = b
                q, end_q = part + 1, b
                # (a comma phrase may close the clause: "; Pre-LN can, at moderate learning rates, drop it" goes on
                # to the end of its sentence)
                sent = lay.sentence_of[m.start]
                while q <= part + 3 and end_q < len(toks) and lay.sentence_of[end_q] == sent:
                    span_end = end_q
                    while span_end < len(toks) and lay.part_of[span_end] == q:
                        span_end += 1
                    words = [k for k in range(end_q, span_end) if toks[k].kind in (WORD, CJK)]
                    if words and self._elliptic(words):
                        rest, b, qualified = rest + words, span_end, q > part + 1
                        break
                    q, end_q = q + 1, span_end
                if b == bare_end and any(toks[k].kind in (WORD, CJK) and lay.sentence_of[k] == sent
                                         for k in range(b, min(len(toks), b + 40))):
                    # "while GPT-2, GPT-3 and newer LLMs put it before the sublayer": the clause goes on with a
                    # predicate of its own; the bare "while GPT-2" takes nothing from the clause before
                    continue
            if not rest or len(rest) > 6 or not self._elliptic(rest):
                continue  # a bare name ("RMSNorm's (1/r)(I - yy^T/D) ...") or a new predicate is no ellipsis
            if (b < len(toks) and toks[b].key == "," and toks[rest[-1]].key in _HANGING_AUXILIARIES
                    and all(toks[k].key in ELLIPSIS_JOINERS or toks[k].key in _HANGING_AUXILIARIES for k in rest)
                    and any(toks[k].kind in (WORD, CJK) and lay.sentence_of[k] == lay.sentence_of[m.start]
                            for k in range(b, min(len(toks), b + 40)))):
                # "..., and Post-LN's is, sorry, not growing": a bare auxiliary cut off by a comma is taken up again
                # later in the sentence with a predicate of its own
                continue
            if any(toks[k].kind == NUMBER and k not in self._mention_tokens for k in range(a, b)):
                continue  # "... (a real contraction) and Pre 2.33 -> 3.11": the subject's own figures follow
            if (b < len(toks) and self._formula_opens(b) and self._runs_on(m.start, b)
                    and all(toks[k].key in _COPULAS or toks[k].key in _COPULA_ADVERBS for k in rest)
                    and any(toks[k].key in _COPULAS for k in rest)):
                # "...; RMSNorm's is (1/r)(I - yy^T/D), removing ...", "；Pre-LN 则是 (1 + l/2)d <= ...", "；Pre-LN 则是
                # O(d sqrt(ln d/L))": the subject's own formula follows
                continue
            cues, covered = 0, -1
            for k in rest:  # a two-word cue ("do without") counts once
                if k > covered and (n := is_negation(toks, k)):
                    cues, covered = cues + 1, k + n - 1
            negated = cues % 2 == 1
            # "..., and Pre-LN can, too": a modal hedges what the ellipsis carries over
            qualified = qualified or any(toks[k].key in _HEDGING_MODALS for k in rest)
            unlike = any(toks[k].key in (stem("unlike"), "不") for k in rest)
            if m.contrast and not unlike:
                continue
            qualified = qualified or any(_FREQUENCY.at(toks, k) for k in rest)
            out.setdefault(lay.sentence_of[m.start], []).append(
                _Ellipsis(m.subject, negated or m.contrast, m.contrast, a, b, qualified,
                          reading=self._ellipsis_reading(rest, m.contrast)))
        by_sentence: dict[int, list] = {}
        for m in self.subjects.mentions:
            by_sentence.setdefault(lay.sentence_of[m.start], []).append(m)
        for sent, ms in by_sentence.items():
            a, b = lay.sentence_span[sent]
            if len(ms) != 1 or ms[0].contrast or sent == 0 or b - a > 24 or (
                    lay.block_of[lay.sentence_span[sent - 1][0]] != lay.block_of[a]):
                continue
            rest = [k for k in range(a, b) if toks[k].kind in (WORD, CJK) and k not in self._mention_tokens]
            if (rest and len(rest) <= 6 and all(_FOLLOW_SUIT.at(toks, k) for k in rest)
                    and any(_BACK_REFERENCE.at(toks, k) for k in rest)):
                out.setdefault(sent - 1, []).append(_Ellipsis(ms[0].subject, False, False, ms[0].start, b, carried=True))
        return out

    def _zh_setting(self, words: list[int]) -> set[int]:
        """The tokens of a short setting framed by 在 ... 下/时/中/里 among `words` ("在 moderate lr 下", "在中等学习率下"),
        or none."""
        toks = self.tokens
        for i, k in enumerate(words):
            if toks[k].key != "在":
                continue
            for n, j in enumerate(words[i + 1 : i + 1 + _ZH_SETTING_WORDS], start=1):
                if toks[j].kind == CJK and toks[j].key in ("下", "时", "中", "里") and n > 1:
                    return set(words[i : i + 1 + n])
            return set()
        return set()

    def _formula_opens(self, k: int) -> bool:
        """A formula starts at token k: a bracket, a number or a one- or two-letter function applied to a bracket
        ("(1 + l/2)d", "O(d sqrt(ln d / L))", "f(x)")."""
        toks = self.tokens
        if toks[k].key in _OPENERS or toks[k].kind == NUMBER:
            return True
        return (toks[k].kind == WORD and toks[k].end - toks[k].start <= 2 and k + 1 < len(toks)
                and toks[k + 1].key == "(" and toks[k + 1].start == toks[k].end)

    def _runs_on(self, a: int, b: int) -> bool:
        """Token b goes on the clause of token a, perhaps across a hard line break ("Pre-LN 则是\n$O(...)$")."""
        lay = self.lay
        if lay.clause_of[b] == lay.clause_of[a]:
            return True
        gap = lay.text[self.tokens[b - 1].end : self.tokens[b].start]
        return lay.clause_of[b - 1] == lay.clause_of[a] and gap.strip() == "" and gap.count("\n") <= 1

    def _elliptic(self, words: list[int]) -> bool:
        """Only the words an elliptical clause is made of ("doesn't", "too", "也需要", "usually needs it", "通常要加"),
        or a denial of a pronoun that takes the object back ("can skip it", "can do without it")."""
        toks = self.tokens
        pronoun = any(toks[k].key in _PRONOUNS for k in words)
        covered = -1
        for k in words:
            if k <= covered:
                continue
            n = _FREQUENCY.at(toks, k) or _ELLIPSIS.at(toks, k)
            if n:
                covered = k + n - 1
                continue
            if not (toks[k].key == stem("doesn't") or (pronoun and is_negation(toks, k))):
                return False
        return True

    def _ellipsis_reading(self, rest: list[int], contrast: bool) -> EllipsisReading:
        """How an elliptical clause made of the words `rest` takes the claim's polarity over (`_Ellipsis.reading`)."""
        toks = self.tokens
        if contrast or any(_SAME.at(toks, k) for k in rest):
            return "carry"
        if any(toks[k].key in _PRONOUNS for k in rest):
            return "object"
        if any(_ECHOED_VERB.at(toks, k) for k in rest):
            return "verb"
        return "carry"

    def ellipsis_affirmed(self, frame: Frame, e: _Ellipsis) -> bool:
        """Whether an elliptical follow-up of `frame` affirms the claim of its own subject. One that takes the
        statement over ("..., RMSNorm too") says what the claim says, or its opposite when denied ("..., Pre-LN
        doesn't", "unlike Pre-LN"); one that echoes the verb ("Pre-LN doesn't need warm-up, but Post-LN does",
        "Pre-LN can skip warm-up, Post-LN can't") replaces the claim's own negated verb; one with a verb of its own
        on a pronoun ("..., but Post-LN needs it") says only what it says."""
        if e.reading == "object":
            return not e.negated
        affirmed = frame.affirmed
        if e.reading == "verb" and frame.kind == "prose" and self.polarity.denies_verb(frame.terms):
            affirmed = not affirmed
        return affirmed != e.negated

    # -- finding ---------------------------------------------------------------------------------------
    def find(self, phrase: Phrase) -> list[tuple[int, int]]:
        """Matches of a concept phrase (never inside a subject's own name)."""
        found = self._phrase_cache.get(phrase)
        if found is None:
            if self._all_cached:
                return []
            found = self._phrase_cache[phrase] = self._checked(phrase, self.index.find(phrase))
        return found

    def _checked(self, phrase: Phrase, hits: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The hits of `phrase` that are not inside a subject's name, nor only the start of a longer formula."""
        if not hits:
            return hits
        # (one with a bracket left open, "g_x = s·(g", is a prefix on purpose)
        formula_like = "=" in phrase.source and phrase.source.count("(") == phrase.source.count(")")
        # one that closes its bracket ("sqrt(ln d)", "O(N)") is not the start of a longer argument ("sqrt(ln d / L)",
        # "O(N^2)")
        closes = (phrase.tight and phrase.source.rstrip().endswith(")")) or _spelled_maths(phrase)
        # a phrase with an exponent ("1/||x||^2") is not a subscript in the text ("(∂ z_1)/(∂ x_2)", "W_2")
        power = "^" in phrase.source and "_" not in phrase.source
        # a phrase about a word ("alpha shrinks") is not about its reciprocal in the text ("shrinks it by 1/alpha")
        about_word = phrase.kinds[0] == WORD and not phrase.source.lstrip().startswith("1")
        # the bare word "ln" is no LayerNorm where it is the logarithm ("O(d sqrt(ln d / L))")
        ln_word = phrase.source.strip() == "ln"
        # the bare word "just" is no "only" in "just like", "just as", "just before" (exactly, equally, right)
        just_word = phrase.source.strip() == "just"
        word = phrase.units[0] if len(phrase.units) == 1 and phrase.kinds[0] == WORD else None
        # "linear" names a module ("a Linear layer", "nn.Linear(d, d)"), not a growth rate or a ramp
        linear_word = word == "linear"
        # "head" names one of attention's heads after "attention"/"multi-" ("every attention head"), not the output head
        head_word = word == "head"
        # ... and "softmax" attention's own next to its words ("attention scores become large, and the softmax saturates")
        softmax_word = word == "softmax"
        return [(a, b) for a, b in hits
                if not self._runs_into_label(a, b)
                and not (ln_word and self._logarithm(a))
                and not (just_word and b < len(self.tokens) and self.tokens[b].key in _AFTER_JUST_NOT_ONLY)
                and not (linear_word and self._names_a_module(a, b))
                and not (head_word and a > 0 and self.tokens[a - 1].key in _ATTENTION_HEAD)
                and not (softmax_word and self._attention_near(a, b))
                and not (any(i in self._mention_tokens for i in range(a, b)) and not self._holds_whole_names(a, b))
                and not (formula_like and self._expression_goes_on(b))
                and not (closes and self._argument_goes_on(b))
                and not (power and self._has_subscript_number(a, b))
                and not (about_word and self._reciprocal(a))
                and not self._inside_placement_name(a, b)
                and not (about_word and self._ends_inside_an_aside(a, b))]

    def _attention_near(self, a: int, b: int) -> bool:
        """"attention" or "attn" stands within a few tokens of [a, b) in its sentence: the softmax there is
        attention's ("the dot products in attention scores become large, and the softmax saturates")."""
        toks, sent = self.tokens, self.lay.sentence_of[a]
        return any(toks[k].key in ("attention", "attn") and self.lay.sentence_of[k] == sent
                   for k in range(max(0, a - _ATTENTION_REACH), min(len(toks), b + _ATTENTION_REACH)))

    def _names_a_module(self, a: int, b: int) -> bool:
        """The word "linear" at [a, b) names a module or map: a noun of one follows ("a Linear layer", "linear
        projections"), or it is a call or attribute in code ("nn.Linear(d, d)", "Linear(d_model, d_ff)")."""
        toks = self.tokens
        if b - a != 1 or toks[a].key != "linear":
            return False
        after = toks[b] if b < len(toks) else None
        if after is not None and after.kind == WORD and after.key in _LINEAR_MODULES:
            return True
        glued_call = after is not None and after.key == "(" and after.start == toks[a].end
        attribute = a > 0 and toks[a - 1].key == "." and toks[a - 1].end == toks[a].start
        return glued_call or attribute

    def _placement_opens_after_another(self, i: int, part: int) -> bool:
        """A placement name (no subject of the card) opens token i's comma part, and the nearest one before it stands
        in `part`."""
        starts = self._placement_starts
        k = bisect.bisect_left(starts, i)
        if k >= len(starts) or starts[k] != i or k == 0 or not self.lay.opens_part(i):
            return False
        return self.lay.part_of[starts[k - 1]] == part

    def placement_name_at(self, i: int) -> int | None:
        """Where a placement's name that is no subject of the card ("Post-LN" on the Sandwich-LN card) starting at
        token i ends, or None."""
        k = bisect.bisect_left(self._placement_spans, (i, 0))
        ends = [b for a, b in self._placement_spans[k:k + 4] if a == i]
        return max(ends) if ends else None

    def placement_named_between(self, a: int, b: int) -> bool:
        """A placement's name that is no subject of the card lies wholly within tokens [a, b)."""
        spans = self._placement_spans
        k = bisect.bisect_left(spans, (a, 0))
        return k < len(spans) and spans[k][1] <= b

    def _inside_placement_name(self, a: int, b: int) -> bool:
        """[a, b) lies strictly inside a placement's name: the "LN" of "Post-LN" is no LayerNorm of its own."""
        spans = self._placement_spans
        k = bisect.bisect_right(spans, (a, len(self.tokens))) - 1
        while k >= 0 and spans[k][0] >= a - 4:
            x, y = spans[k]
            if x <= a and b <= y and y - x > b - a:
                return True
            k -= 1
        return False

    def _runs_into_label(self, a: int, b: int) -> bool:
        """The hit runs from one line into the label that opens the next ("... # 2017 Transformer, BERT" over "Pre-LN:
        x + F(LN(x))" is no "BERT Pre-LN"). (A sentence hard-wrapped onto the next line keeps its phrases: "square root
        of log\nd".)"""
        lay = self.lay
        if lay.line_of[a] == lay.line_of[b - 1]:
            return False
        label = lay.block_label(b - 1)
        return label is not None and a < label[0] < b

    def _named_in_terms(self, terms: tuple[tuple[int, int], ...]) -> Attribution | None:
        """The one subject a term of the claim spells out whole ("Post-LN early"), or None."""
        named = {m.subject: m for a, b in terms if any(i in self._mention_tokens for i in range(a, b))
                 for m in self.subjects.mentions_overlapping(a, b)}
        if len(named) != 1:
            return None
        m = next(iter(named.values()))
        return Attribution(m.subject, "clause", m.start)

    def _holds_whole_names(self, a: int, b: int) -> bool:
        """The hit spells out whole subject names and words of its own besides ("Post-LN early" in a phrase list):
        the phrase names the subject on purpose, it is not a word found inside a name ("norm" in "RMSNorm")."""
        named = 0
        for m in self.subjects.mentions_overlapping(a, b):
            if m.start < a or m.end > b:
                return False
            named += m.end - m.start
        return 0 < named < b - a

    def _has_subscript_number(self, a: int, b: int) -> bool:
        """A number among tokens a..b-1 is written as a subscript ("x_2", "x_{2}")."""
        text = self.prep.text
        for t in self.tokens[a:b]:
            if t.kind == NUMBER and (text[t.start - 1 : t.start] == "_" or text[t.start - 2 : t.start] == "_{"):
                return True
        return False

    def _logarithm(self, a: int) -> bool:
        """Token a is a lower-case "ln" taking a dimension or a number: the natural logarithm."""
        t = self.tokens[a]
        cased = self.prep.cased
        return cased[t.start : t.end] == "ln" and _LOG_ARGUMENT.match(cased, t.end) is not None

    def _reciprocal(self, a: int) -> bool:
        """Token a stands under "1/" ("1/alpha", "1 / alpha"): the text is about its reciprocal."""
        text = self.prep.text
        k = self.tokens[a].start
        before = text[max(0, k - 6) : k].replace(" ", "")
        return before.endswith("1/") and not before[-3:-2].isdigit()

    def _after_spaces(self, b: int) -> int:
        """The offset of the first non-blank character after token b-1 (len(text) at the end)."""
        text = self.prep.text
        k = self.tokens[b - 1].end
        while k < len(text) and text[k] == " ":
            k += 1
        return k

    def _ends_inside_an_aside(self, a: int, b: int) -> bool:
        """A phrase of words that steps into a bracket opened after its first word, and the bracket goes on in words
        after the match ("the radial direction y (only an eps-sized residue is left)" is no "y only"): its last words
        open an aside of their own. (A bracket that closes right after, "(g * y).mean", is part of the expression.)"""
        toks = self.tokens
        if self._open_brackets is None:
            self._open_brackets = [k for k, t in enumerate(toks) if t.kind == PUNCT and t.key in ("(", "[")]
        brackets = self._open_brackets
        n = bisect.bisect_left(brackets, b) - 1
        if n < 0 or brackets[n] <= a:
            return False
        last = brackets[n]
        if any(toks[k].kind == PUNCT and toks[k].key in (")", "]") for k in range(last, b)):
            return False
        # prose inside: a word opens the bracket and another follows the match ("σ·(g − mean(g) ...)" is maths)
        inside = toks[last + 1]
        return (inside.kind == WORD and len(inside.key) >= 3 and b < len(toks)
                and (toks[b].kind == CJK or (toks[b].kind == WORD and len(toks[b].key) >= 2)))

    def _argument_goes_on(self, b: int) -> bool:
        """The phrase ending at token b-1 is followed by an operator inside a bracket that is still open ("O(d
        sqrt(ln d / L))"): only the start of a longer argument."""
        text = self.prep.text
        k = self._after_spaces(b)
        if k >= len(text) or text[k] not in _CONTINUES_ARGUMENT:
            return False
        line_start = text.rfind("\n", 0, k) + 1
        return text.count("(", line_start, k) > text.count(")", line_start, k)

    def _expression_goes_on(self, b: int) -> bool:
        """The text right after token b-1 adds to or raises the expression ("g_x = g/s - mean(g)/s",
        "s = (var + eps)^{1/2}"): an equation phrase matched there is only the start of a different formula."""
        text = self.prep.text
        k = self._after_spaces(b)
        if k >= len(text) or text[k] not in _CONTINUES_EXPRESSION:
            return False
        # "J 1 = 0 -> mean direction killed", "J 1 = 0 -- so ...": an arrow or a dash, not a minus
        return not (text[k] in "-−" and text[k + 1 : k + 2] in (">", "-", "−"))

    def frames(self, matcher: Matcher) -> list[Frame]:
        """Every frame where `matcher` is satisfied, in text order (computed once per matcher)."""
        key = id(matcher)
        if key not in self._frames:
            frames = list(itertools.islice(self._build(matcher), MAX_FRAMES))
            if matcher.unless and frames:
                frames = self._without_unless(matcher, frames)
            if matcher.unless_context and frames:
                frames = self._without_context(matcher, frames)
            if matcher.unless_within and frames:
                frames = self._without_inside(matcher, frames)
            self._frames[key] = frames
        return self._frames[key]

    def _without_unless(self, matcher: Matcher, frames: list[Frame]) -> list[Frame]:
        """Drop the frames that one of the matcher's `unless` phrases cancels: one standing in the frame's
        sentence before the frame's end ("its squared norm grows linearly" for "norm grows linearly")."""
        sentence_of = self.lay.sentence_of
        cancel: dict[int, int] = {}  # sentence -> first token of a cancelling phrase in it
        conceded: list[int] = []  # cancelling phrases in sentences that open with a concession
        own_words: list[tuple[int, int]] = []  # cancelling phrases made of the point's own terms
        terms: frozenset[int] | None = None  # (built only when some unless phrase occurs)
        for ph in matcher.unless:
            # (a subject's name cancels too: "unless: [deepnet]" where DeepNet is a subject)
            for a, b in self.index.find(ph):
                if terms is None:
                    terms = self._term_tokens(matcher) if not matcher.unless_reads_on else frozenset()
                if terms and any(i in terms for i in range(a, b)):
                    own_words.append((a, b))
                    continue
                s = sentence_of[a]
                if self._opens_a_concession(self.lay.sentence_span[s][0], _LEADING_CONCESSIONS):
                    conceded.append(a)
                    continue
                cancel[s] = min(cancel.get(s, a), a)
        kept = [f for f in frames if cancel.get(sentence_of[f.start], f.end) >= f.end]
        if conceded:
            # "While stable and scalable to large model sizes, Pre-LN suffers from an exponential growth in activation
            # variance": a phrase in the concession the sentence opens with cancels nothing after the comma that ends it
            kept = [f for f in kept if not any(sentence_of[a] == sentence_of[f.start] and a < f.end
                                                and not self._comma_between(a, f.start) for a in conceded)]
        if own_words:
            # A point's name spelled out ("by its root mean square" for root + mean + square) cancels the frames
            # built from those very words, not a formula later in the sentence ("...: y = a / sqrt(mean(a²) + ε)").
            kept = [f for f in kept if not any(a < fb and fa < b for a, b in own_words for fa, fb in f.terms)]
        if matcher.unless_reads_on and cancel:
            kept = [f for f in kept if not self._elaboration_cancels(f, cancel)]
        return kept

    def _without_context(self, matcher: Matcher, frames: list[Frame]) -> list[Frame]:
        """Drop the frames that one of the matcher's `unless_context` phrases stands over: earlier in the frame's
        paragraph or list item (its label included), or in the heading or lead line its block stands under."""
        lay = self.lay
        first_in_block: dict[int, int] = {}  # block -> first token of a cancelling phrase in it
        for ph in matcher.unless_context:
            for a, _ in self.index.find(ph):
                k = lay.block_of[a]
                first_in_block[k] = min(first_in_block.get(k, a), a)
        if not first_in_block:
            return frames

        def stands_under(f: Frame) -> bool:
            k = lay.block_of[f.start]
            if first_in_block.get(k, f.start) < f.start:
                return True
            head = lay.heading_of[k] if k < len(lay.heading_of) else -1
            return head >= 0 and head in first_in_block

        return [f for f in frames if not stands_under(f)]

    def _without_inside(self, matcher: Matcher, frames: list[Frame]) -> list[Frame]:
        """Drop the frames that one of the matcher's `unless_within` phrases stands inside: between the frame's first
        and last term, overlapping none of them ("(1/r)(I - 11^T/D - yy^T/D)" holds LayerNorm's all-ones term between
        1/r and yy^T; "LN's is (1/s)(I - 11^T/D - yy^T/D), RMSNorm's (1/r)(I - yy^T/D)" holds none inside the second)."""
        hits = [h for ph in matcher.unless_within for h in self.index.find(ph)]
        if not hits:
            return frames

        def holds_one(f: Frame) -> bool:
            return any(f.start <= a and b <= f.end and not any(a < tb and ta < b for ta, tb in f.terms)
                       for a, b in hits)

        return [f for f in frames if not holds_one(f)]

    def _term_tokens(self, matcher: Matcher) -> frozenset[int]:
        """The tokens any of the matcher's concept phrases matches."""
        return frozenset(i for group in matcher.groups for ph in group for a, b in self.find(ph) for i in range(a, b))

    def _elaboration_cancels(self, frame: Frame, cancel: dict[int, int]) -> bool:
        """A colon follows the frame in its sentence (only a few words between) and what the colon leads into,
        to the end of that sentence or of the next one when the colon ends the line, holds a cancelling phrase:
        "the expected norm grows linearly with depth: (1 + 2l)d <= E(||h_l||^2)" claims the squared norm grows."""
        toks, lay = self.tokens, self.lay
        sent = lay.sentence_of[frame.start]
        end = lay.sentence_span[sent][1]
        for k in range(frame.end, min(end, frame.end + _COLON_REACH)):
            if toks[k].key in (":", "："):
                break
            if toks[k].kind == PUNCT and toks[k].key not in ("(", ")", ","):
                return False
        else:
            return False
        last = lay.sentence_of[k + 1] if k + 1 < len(toks) else sent
        # (a cancelling phrase in the frame's own sentence stands after the frame, or the frame was dropped above)
        return any(s in cancel for s in range(sent, last + 1))

    def frames_overlapping(self, matcher: Matcher, start: int, end: int) -> list[Frame]:
        """The frames of `matcher` that start before `end` and may reach back to `start` (a frame spans at most
        WINDOW tokens), found by bisection in text order."""
        key = id(matcher)
        if key not in self._by_start:
            ordered = sorted(self.frames(matcher), key=lambda f: f.start)
            self._by_start[key] = ([f.start for f in ordered], ordered)
        starts, ordered = self._by_start[key]
        return ordered[bisect.bisect_left(starts, start - WINDOW) : bisect.bisect_left(starts, end)]

    def _build(self, matcher: Matcher) -> Iterator[Frame]:
        if matcher.formula is not None:
            for sides, a, b, cs, ce in self._formulas:
                if matcher.formula in sides:
                    yield self._frame(a, b, ((a, b),), "formula", (cs, ce))
            for sides, a, b, cs, ce in self._spoken:
                if matcher.formula in sides:
                    yield replace(self._frame(a, b, ((a, b),), "formula", (cs, ce)), said_aloud=True)
            return
        if matcher.binding is not None:
            symbol, value = matcher.binding
            for sym, val, a, b, cs, ce in self._bindings:
                if sym == symbol and same_value(val, value):
                    yield self._frame(a, b, ((a, b),), "value", (cs, ce))
            return
        yield from self._prose(matcher)

    def _prose(self, matcher: Matcher) -> Iterator[Frame]:
        per_group: list[list[tuple[int, int]]] = []
        cache = self._phrase_cache  # (read directly: a matcher's groups hold many phrases, most with no match)
        complete = self._all_cached  # (then a phrase missing from the cache has no match)
        for group in matcher.groups:
            found: set[tuple[int, int]] = set()
            for ph in group:
                hits = cache.get(ph)
                if hits is None:
                    if complete:
                        continue
                    hits = self.find(ph)
                if hits:
                    found.update(hits)
            if not found:
                return
            per_group.append(sorted(found))
        lay = self.lay
        clause_of, part_of = lay.clause_of, lay.part_of
        starts = [[h[0] for h in hits] for hits in per_group[1:]]
        seen: dict[int, int] = {}
        for anchor in per_group[0]:
            clause = clause_of[anchor[0]]
            sent = lay.sentence_of[anchor[0]]
            if seen.get(sent, 0) >= PER_SENTENCE:
                continue
            terms = [anchor]
            ok = True
            for hits, hs in zip(per_group[1:], starts, strict=True):
                best = self._nearest(anchor, hits, hs, clause, part_of)
                if best is None:
                    ok = False
                    break
                terms.append(best)
            if not ok:
                continue
            seen[sent] = seen.get(sent, 0) + 1
            a = min(t[0] for t in terms)
            b = max(t[1] for t in terms)
            yield self._frame(a, b, tuple(terms), "prose", (self.tokens[a].start, self.tokens[b - 1].end))

    def _nearest(self, anchor: tuple[int, int], hits: list[tuple[int, int]], hs: list[int], clause: int,
                 part_of: list[int]) -> tuple[int, int] | None:
        """The hit closest to `anchor` in the same clause that may belong to the same claim."""
        k = bisect.bisect_left(hs, anchor[0])
        lo, hi = k - 1, k
        tried = 0
        bridged: tuple[int, int] | None = None
        anchor_contrast = part_of[anchor[0]] in self._contrast_parts
        reach = self._reach
        at = reach[anchor[0]]
        while (lo >= 0 or hi < len(hits)) and tried < 8:
            d_lo = at - reach[hs[lo]] if lo >= 0 else 1 << 30
            d_hi = reach[hs[hi]] - at if hi < len(hits) else 1 << 30
            if d_lo <= d_hi:
                h, lo = hits[lo], lo - 1
            else:
                h, hi = hits[hi], hi + 1
            tried += 1
            if abs(reach[h[0]] - at) > WINDOW:
                break
            if self.lay.clause_of[h[0]] != clause and not self._bridged(clause, self.lay.clause_of[h[0]]):
                continue
            if (part_of[h[0]] in self._contrast_parts) != anchor_contrast:
                continue  # one word in "unlike X, which ..." and one outside it: two claims
            if part_of[h[0]] != part_of[anchor[0]]:
                # a subject that opens the later part starts another claim ("Pre-LN ..., Post-LN ..."); one in the
                # earlier part is its object ("NormFormer keeps Pre-LN and adds an LN after attention")
                first = h if h[0] < anchor[0] else anchor
                m = self.subjects.between(min(h[1], anchor[1]), max(h[0], anchor[0]))
                # (not a name compared with, right after 和/与/跟/像: "Peri-LN（arXiv:2502.02732）和 Sandwich 同一个结构" is
                # Peri-LN's claim)
                if (m is not None and part_of[m.start] != part_of[first[0]] and not m.contrast
                        and not (m.start > 0 and self.tokens[m.start - 1].key in _ZH_LIKENESS)
                        and not self.setting_part(first[0])
                        and not self._in_table_label(m.start) and not self._names_the_replacement(m.start, first[0])
                        and not self._conceded_aside(m.start)):
                    continue
                # (likewise a placement that is no subject of the card opening the later part: "Post-LN for the BERT
                # era, pre-norm for GPT-style LLMs" pairs BERT with Post-LN)
                later_start = max(h[0], anchor[0])
                if part_of[later_start] != part_of[first[0]] and self._placement_opens_after_another(later_start,
                                                                                                    part_of[first[0]]):
                    continue
                # "large compared with Pre-LN's, which shrinks like 1/sqrt(L)": a relative part about the subject
                # the earlier part compares with is that subject's claim, not the rest of the earlier part's
                later = h if h[0] > anchor[0] else anchor
                partner = self.subjects.relative_antecedent(later[0])
                if partner is not None and partner.contrast:
                    continue
            if self.lay.clause_of[h[0]] == clause:
                return h
            bridged = bridged or h  # (a hit in the anchor's own clause, if there is one, comes first)
        return bridged

    def _in_table_label(self, i: int) -> bool:
        """Token i is in the label of a table row read as a sentence ("output norm (on branch) gemma 2∶ yes"): the row
        names the subject of the whole line, whatever bracket its column header holds."""
        label = self.lay.block_label(i)
        return (label is not None and label[0] <= i < label[1] and label[1] < len(self.tokens)
                and self.lay.text[self.tokens[label[1]].start : self.tokens[label[1]].end] == "\u2236")

    def setting_part(self, i: int) -> bool:
        """Token i sits in a short comma part that opens its sentence or clause with a setting preposition ("For
        BERT-base, Pre-LN trained at 1e-3 ...", "On IWSLT14, Post-LN ..."): the setting of the next part's claim, not
        a claim of its own, so its words may join that claim."""
        lay, toks = self.lay, self.tokens
        part = lay.part_of[i]
        a = i
        while a > 0 and lay.part_of[a - 1] == part:
            a -= 1
            if i - a > _SETTING_REACH:
                return False  # (a long part is no short setting; stop walking a long paste)
        while a < i and toks[a].kind == PUNCT:
            a += 1
        if toks[a].key not in _SETTING_PREPOSITIONS:
            return False
        if a > 0 and lay.sentence_of[a - 1] == lay.sentence_of[a] and not (
                toks[a - 1].kind == PUNCT and toks[a - 1].key in (";", ":")):
            return False  # (only a part that opens its sentence or follows a semicolon or colon)
        words = 0
        b = a + 1
        while b < len(toks) and lay.part_of[b] == part:
            words += toks[b].kind in (WORD, NUMBER, CJK)
            if words > 4:
                return False
            b += 1
        return True


    def _later_part_has_own_topic(self, terms: tuple[tuple[int, int], ...]) -> bool:
        """The claim's words sit in two comma parts and the later part opens with a topic of its own, a short
        "<X> 的 <noun>" ("由于有 norm 不会随层数变化, x 的方差在主干上随层数累积"): two statements, whose words together
        are too loose a reading to charge."""
        lay, toks = self.lay, self.tokens
        parts = sorted({lay.part_of[x] for x, _ in terms})
        if len(parts) < 2:
            return False
        first = min(x for x, _ in terms if lay.part_of[x] == parts[-1])
        k = lay.part_opening(first)
        if self._opens_with_setting(k, first):
            return True
        if self._disposal_object(k, first):
            return True
        if not self._has_de(k + 1, min(first, k + 4)):
            return False
        # the earlier part has a topic of its own too ("第二项的方差 ... 不会随层数变化"), not just a circumstance
        # ("精确算术下，f 的梯度严格为 0" is one statement)
        t0 = min(x for x, _ in terms if lay.part_of[x] == parts[0])
        e = t0
        while e > 0 and e > t0 - 12 and lay.sentence_of[e - 1] == lay.sentence_of[t0]:
            e -= 1
        if not self._has_de(e, k):
            return False
        # "eps 越小，残留的梯度越大": a correlative pair is one statement over both parts
        correlative = {lay.part_of[j] for j in range(max(0, k - 12), min(len(toks), first + 8))
                       if toks[j].kind == CJK and toks[j].key == "越"}
        return not {parts[-1], lay.part_of[k - 1] if k > 0 else -1} <= correlative

    def _disposal_object(self, k: int, first: int) -> bool:
        """The later part has an agent of its own and the claim's word is what that agent acts on ("残差流范数随层数
        增长，最后的 LayerNorm 会把梯度按 1/||x|| 缩小"): the word right after "把" (or "将" not meaning "will") is its
        object, so it is not the subject of the earlier part's change ("把它们缩小": the change is the claim's)."""
        toks = self.tokens
        for j in range(max(k + 1, first - 2), first):
            if toks[j].kind == CJK and (toks[j].key == "把" or (
                    toks[j].key == "将" and not (toks[j + 1].kind == CJK and toks[j + 1].key in ("会", "要")))):
                return any(toks[x].kind in (WORD, CJK) for x in range(k, j))
        return False

    def _opens_with_setting(self, k: int, first: int) -> bool:
        """The later part opens with "and"/"but" and a setting of its own before the claim's word ("Deep pre-norm
        stacks train reliably, and at LLM scale a diverged run is costly"): a new statement, not the rest of the
        first one."""
        toks = self.tokens
        return (k + 1 < first and toks[k].kind == WORD and toks[k].key in _NEW_STATEMENT
                and toks[k + 1].kind == WORD and toks[k + 1].key in _SETTING_WORDS)

    def _sui_condition(self, terms: tuple[tuple[int, int], ...]) -> bool:
        """A "随 L 增大" term followed in its clause by a change of its own ("随 L 增大按 1/sqrt(L) 变小"): the growth
        is the condition the claim varies with, not the claim."""
        toks, lay = self.tokens, self.lay
        last = max(y for _, y in terms)
        for a, b in terms:
            if b != last or not (toks[a].kind == CJK and toks[a].key in ("随", "随着")):
                continue  # (the claim's own change word after it, "随深度减小", is the claim)
            clause = lay.clause_of[a]
            for j in range(b, min(len(toks), b + 8)):
                if lay.clause_of[j] != clause:
                    break
                if toks[j].kind == CJK and _CHANGE_AFTER_CONDITION.at(toks, j):
                    return True
        return False

    def _has_de(self, a: int, b: int) -> bool:
        """A possessive 的 stands among tokens [a, b)."""
        return any(self.tokens[j].kind == CJK and self.tokens[j].key == "的" for j in range(a, b))

    def _bridged(self, c1: int, c2: int) -> bool:
        """Two neighbouring clauses of one sentence where the later one opens with a pronoun for the earlier one's
        noun ("the residual stream is never normalised, so it keeps getting bigger"): a claim's words may sit on both
        sides (for credit only: such a frame is never firm enough to charge)."""
        lo, hi = min(c1, c2), max(c1, c2)
        lay = self.lay
        if hi == lo + 2 and self._only_a_name(lo):
            # "BERT 虽然是 2018 年的模型，但仍然是 Post-LN": the name, its concession, then the main clause's turn
            a = lay.clause_span[hi][0]
            return a < len(self.tokens) and (self.tokens[a].key in ("but", "yet", "still")
                                             or self.prep.text.startswith(_TURN_AFTER_CONCESSION, self.tokens[a].start))
        if hi != lo + 1:
            return False
        a = lay.clause_span[hi][0]
        if a >= len(self.tokens):
            return False
        toks = self.tokens
        if lay.sentence_of[a] != lay.sentence_of[lay.clause_span[lo][0]]:
            return self._refers_back(lo, a)
        if self._names_after_colon(hi):
            return True
        if self._corrects_a_denial(lo, a) or self._only_a_name(lo):
            return True
        k = a
        while k < len(toks) and k < a + 3 and (toks[k].kind == PUNCT or toks[k].key in _BRIDGE_CONNECTIVES):
            k += 1
        return k < len(toks) and toks[k].key in _BRIDGE_PRONOUNS

    def _corrects_a_denial(self, lo: int, a: int) -> bool:
        """The clause starting at token a says what the denied clause lo's subject does instead: 而是 ("BERT 不用
        RMSNorm，而是带 β 的 LayerNorm，且是 Post-LN"), "but rather" / "but instead", or "but" with no name of its own
        after a denial ("BERT does not use RMSNorm but standard LayerNorm, and is Post-LN"). 而是 and "but rather"
        take no subject: they go on with the one before."""
        toks, text = self.tokens, self.prep.text
        if text.startswith("而是", toks[a].start):
            return True
        if toks[a].key != "but" or a + 1 >= len(toks):
            return False
        if toks[a + 1].key in ("rather", "instead"):
            return True
        # (a verb's own denial: "removing warm-up made no difference for Post-LN but badly hurt Pre-LN" sets two
        # subjects side by side)
        x, y = self.lay.clause_span[lo]
        if not any(toks[j].key in _VERB_DENIALS for j in range(x, y)):
            return False
        nxt = toks[a + 1]
        # "... not stable, but Pre-LN is": a name (or a pronoun, which the caller reads) opens a claim of its own
        return nxt.kind == WORD and nxt.key not in _BRIDGE_PRONOUNS and a + 1 not in self._mention_tokens \
            and not self.prep.cased[nxt.start : nxt.start + 1].isupper()

    def _only_a_name(self, clause: int) -> bool:
        """The clause is a subject's name and nothing else, set off by a concession or an aside that opens the next
        clause ("T5 虽然代码里叫 LayerNorm，实际上属于 RMS 式", "T5, although its code calls it LayerNorm, is an RMS-style
        norm"): the name is the subject of what the next clause says."""
        a, b = self.lay.clause_span[clause]
        words = [i for i in range(a, b) if self.tokens[i].kind != PUNCT]
        cased = self.prep.cased
        return 0 < len(words) <= 2 and all(
            i in self._mention_tokens or (self.tokens[i].kind == WORD and cased[self.tokens[i].start].isupper())
            for i in words) and b < len(self.tokens) and self._opens_a_concession(b)

    def _comma_between(self, a: int, b: int) -> bool:
        """A comma stands between tokens a and b, outside any bracketed aside."""
        toks, aside = self.tokens, self.lay.aside_of
        return any(toks[k].kind == PUNCT and toks[k].key in (",", "，") and aside[k] < 0 for k in range(a, b))

    def _opens_a_concession(self, i: int, words: frozenset[str] = _CONCESSIONS) -> bool:
        """Token i (after any punctuation) opens a concession: although, though, 虽然, 尽管 (or one of `words`)."""
        toks = self.tokens
        while i < len(toks) and toks[i].kind == PUNCT:
            i += 1
        return i < len(toks) and (toks[i].key in words or self.prep.text.startswith(_CONCESSIONS_ZH, toks[i].start))

    def _conceded_aside(self, i: int) -> bool:
        """Token i stands in a part that opens with a concession right after a clause that is only a name ("T5,
        although its code calls it LayerNorm, is an RMS-style norm"): a name in the concession says what the subject is
        not, and opens no claim of its own."""
        lay = self.lay
        p = lay.part_of[i]
        a = next((k for k in range(i, -1, -1) if lay.part_of[k] != p), -1) + 1
        c = lay.clause_of[a]
        return c > 0 and self._opens_a_concession(a) and self._only_a_name(c - 1)

    def _names_the_replacement(self, i: int, first: int) -> bool:
        """Token i stands in the opening part of a clause that says what the subject of the clause holding `first` (the
        one right before) does instead of what it denies ("BERT does not use RMSNorm but standard LayerNorm, and is
        Post-LN"): a name there is the object put in place of the denied one, not the subject of a new claim."""
        lay = self.lay
        c = lay.clause_of[i]
        a = lay.clause_span[c][0]
        return (c == lay.clause_of[first] + 1 and lay.part_of[i] == lay.part_of[a]
                and self._corrects_a_denial(c - 1, a))

    def _names_after_colon(self, clause: int) -> bool:
        """The clause opens with a colon and only names things, with no verb of its own ("Two directions have zero
        Jacobian: the all-ones vector and x-hat itself"): it spells out a noun of the clause before it."""
        a, b = self.lay.clause_span[clause]
        toks = self.tokens
        if not (a < b <= a + _NAMED_LIST_TOKENS and toks[a].kind == PUNCT and toks[a].key in (":", "：")):
            return False
        return not any(t.key in _COPULAS or t.key in _MODALS or t.key in _VERB_SIGNS for t in toks[a + 1 : b])

    def _refers_back(self, lo: int, a: int) -> bool:
        """The sentence starting at token a (whose first clause follows clause lo, in the same paragraph) points back
        at the sentence before within its first few words ("... the value and output projections. Weights of these
        transforms are scaled by beta", "这些矩阵的初始化再乘以 beta")."""
        lay, toks = self.lay, self.tokens
        before = lay.clause_span[lo][1] - 1
        if before < 0 or lay.block_of[before] != lay.block_of[a] or lay.sentence_of[before] + 1 != lay.sentence_of[a]:
            return False
        text = lay.text
        return any(toks[k].key in _BACK_REFERENCES or text.startswith(_BACK_REFERENCES_ZH, toks[k].start)
                   for k in range(a, min(a + 4, lay.clause_span[lo + 1][1])))

    def _owned_by_another(self, a: int) -> bool:
        """A formula or value is written as the property of a name that is not one of the card's subjects, right
        before it ("跟 DeepNet 的 α = (2N)^{1/4} 不一样", "DeepNet's alpha = ..."): it is that name's, not the
        subject's the clause is about."""
        toks = self.tokens
        k = a - 1
        if k >= 1 and toks[k].kind == CJK and toks[k].key == "的":
            k -= 1
        elif not (k >= 0 and toks[k].kind == WORD and self.lay.possessive(k)):
            return False
        if k < 0 or toks[k].kind not in (WORD, NUMBER) or toks[k].key in _OWNER_PRONOUNS:
            return False
        return self.subjects.between(max(0, k - 3), k + 1) is None

    def _not_never(self, a: int, b: int) -> bool:
        """A denied 'never' in the clause before the claim's end ("it is not true that X never needs Y", "None of
        this means X never ..."): what is affirmed is "sometimes", a hedged claim."""
        lay, toks = self.lay, self.tokens
        start = lay.clause_span[lay.clause_of[a]][0]
        nevers = [j for j in range(start, b) if toks[j].kind == WORD and toks[j].key == "never"]
        return bool(nevers) and any(is_negation(toks, k) for k in range(start, nevers[0]))

    def _object_relative(self, terms: tuple[tuple[int, int], ...], who: Attribution) -> int | None:
        """The claim is an object relative clause: a term, maybe "that"/"which", the subject's name, then the other
        terms ("the warm-up (that) Post-LN needs"). The index where the relative clause's object starts, or None."""
        if who.at is None or len(terms) < 2:
            return None
        toks = self.tokens
        m = self.subjects.mention_at(who.at)
        if m is None:
            return None
        before = [t for t in terms if t[1] <= m.start]
        after = [t for t in terms if t[0] >= m.end]
        if len(before) != 1 or not after or len(before) + len(after) != len(terms):
            return None
        gap = [toks[k].key for k in range(before[0][1], m.start)]
        if gap not in ([], ["that"], ["which"]) or after[0][0] - m.end > 2:
            return None
        # (the object is a noun phrase with its determiner, "the (learning-rate) warm-up": "Without warm-up Post-LN
        # fails" is one clause whose "without" is the claim's)
        k = before[0][0] - 1
        while k >= 0 and before[0][0] - k <= 4 and toks[k].key not in _OBJECT_DETERMINERS and (
                toks[k].kind == WORD or toks[k].key == "-"):
            k -= 1
        return before[0][0] if k >= 0 and toks[k].key in _OBJECT_DETERMINERS else None

    def _frame(self, a: int, b: int, terms: tuple[tuple[int, int], ...], kind: str,
               char_span: tuple[int, int]) -> Frame:
        """What the answer says where these terms stand (the same words read for two matchers are read once: a frame
        depends on nothing but the words and the analysis built in __init__)."""
        key = (a, b, terms, kind, char_span)
        frame = self._frame_cache.get(key)
        if frame is None:
            frame = self._frame_cache[key] = self._read_frame(a, b, terms, kind, char_span)
        return frame

    def _read_frame(self, a: int, b: int, terms: tuple[tuple[int, int], ...], kind: str,
                    char_span: tuple[int, int]) -> Frame:
        lay = self.lay
        clause = lay.clause_of[a]
        who = self.subjects.attribute(a, b)
        if kind == "prose":
            own = self._named_in_terms(terms)
            if own is not None:
                who = own  # "Post-LN early": the phrase names its subject itself
            elif not who.explicit and self.setting_part(a):
                # "For BERT-base, Pre-LN trained at 1e-3": the subject opens the part after the setting
                m = self.subjects.between(a, b)
                if m is not None and lay.part_of[m.start] != lay.part_of[a]:
                    who = Attribution(m.subject, "clause", m.start)
        if kind != "prose" and who.explicit and self._owned_by_another(a):
            who = Attribution(who.subject, "sentence", who.at)
        if kind == "prose":
            affirmed, firm = self.polarity.affirmed(terms)
            relative = self._object_relative(terms, who)
            if not affirmed and relative is not None:
                # "Pre-LN trains without the warm-up (that) Post-LN needs": the relative clause says Post-LN needs it;
                # the "without" is the main clause's
                affirmed, firm = self.polarity.affirmed(terms, since=relative)
        else:
            # a formula or value is denied by a negation right before it ("not LN(x + F(x))") or a refutation
            affirmed, firm = self.polarity.affirmed(((a, a),)) if a > 0 else (True, True)
        if kind == "prose" and len({lay.clause_of[x] for x, _ in terms}) > 1:
            firm = False  # its words reach across a pronoun into the clause before (see _bridged)
        if kind == "prose" and firm and (self._later_part_has_own_topic(terms) or self._sui_condition(terms)):
            firm = False
        qualifier = self.polarity.qualifier(a, b, {i for x, y in terms for i in range(x, y)})
        if qualifier is None and affirmed and kind == "prose" and self._not_never(a, b):
            qualifier = "hedge"  # "None of this means Pre-LN never needs warm-up": sometimes, not always
        question_why = (qualifier == "question" and any(_WHY.at(self.tokens, j) for j in lay.clause_tokens(clause))
                        and not self.polarity.framed_before(a))
        # (a claim whose words reach from a bare name into the clause after it, "BERT, although it came out in 2018,
        # still uses Post-LN" (see _bridged), is claimed by that later clause)
        said_in = clause
        if kind == "prose":
            last = max(lay.clause_of[x] for x, _ in terms)
            if last != clause and self._only_a_name(clause):
                said_in = last
        claim_clause = (lay.clause_claim[said_in] or clause in lay.shorthand or self._labelled(a)
                        or is_consequence(self.tokens, lay.clause_span[clause][0])
                        or lay.sentence_of[a] in self.polarity.answered)  # "Contradiction? No." states its answer
        # In a keyword list nothing is claimed, not even by a formula or a value written into it.
        # The prompt's own question echoed is no claim, unless the writer answers it ("Do they contradict each
        # other? Not really: ...").
        echo = clause in self.echo and lay.sentence_of[a] not in self.polarity.answered
        # "used in LLaMA, T5, GPT and BERT in pre-norm and post-norm positions": both placements named together
        # bind neither to anything
        both = kind == "prose" and bool(self._both_placements) and _one_side_of_pair(self._both_placements, terms)
        claim = (claim_clause if kind == "prose" else not lay.clause_list[clause] or clause in lay.shorthand) and not echo and (
            qualifier != "question" or question_why) and qualifier != "framing" and not both
        asserted = claim and (kind != "prose" or lay.clause_claim[said_in])
        contrast = any(lay.part_of[x] in self._contrast_parts or self._compared(x) for x, _ in terms)
        if contrast and kind == "prose":
            own = self._own_subject_in_comparison(terms)
            if own is not None:
                who, contrast = own, False
        straddles = kind == "prose" and len({lay.aside_of[x] for x, _ in terms}) > 1
        return Frame(a, b, terms, kind, char_span, who, affirmed, qualifier, claim, self._in_quotes(a, terms), asserted,
                     contrast, firm, straddles)

    def _in_quotes(self, a: int, terms: tuple[tuple[int, int], ...]) -> bool:
        """The claim starts inside quotation marks, or most of its words are inside them ('I'd resist the reading
        "this proves Post-LN gradients vanish"'): it is discussed, not made. So is a claim one of whose words
        stands alone in scare quotes ('用同一个指标也会"证明"它梯度消失', 'the metric "shows" vanishing'): the
        quotes keep the writer's distance from that word."""
        if a in self.quoted:
            return True
        if not self.quoted:
            return False
        words = [i for x, y in terms for i in range(x, y)]
        if any(x - 1 not in self.quoted and y not in self.quoted and all(i in self.quoted for i in range(x, y))
               for x, y in terms):
            return True
        return 2 * sum(1 for i in words if i in self.quoted) > len(words)

    def _labelled(self, a: int) -> bool:
        """A terse line labelled with a subject ("BERT: Post-LN", "- T5: pre-norm, no bias") is a claim."""
        label = self.lay.block_label(a)
        if label is None:
            return False
        if self.subjects.between(label[0], label[1]) is None:
            return False
        if self.lay.sentence_of[label[1] - 1] != self.lay.sentence_of[a]:
            return False  # "Pre-LN: x + F(LN(x)). Final LN. Residual stream, identity path." labels its own sentence
        clause = self.lay.clause_of[a]
        ca, cb = self.lay.clause_span[clause]
        return sum(1 for i in range(ca, cb) if self.tokens[i].kind in (WORD, CJK)) <= 14

    def ellipses(self, frame: Frame) -> list[_Ellipsis]:
        """Elliptical follow-ups of a prose claim later in its sentence ("Post-LN needs warm-up, Pre-LN doesn't"),
        and of any claim, in a sentence of their own right after it ("... x = LN(x + F(x)). BERT kept that.")."""
        lay = self.lay
        last = frame.end - 1
        part = lay.part_of[last]
        return [e for e in self._ellipses.get(lay.sentence_of[last], ())
                if e.start >= frame.end and (e.carried or (frame.kind == "prose"
                                                           and part < lay.part_of[e.start] <= part + 3
                                                           and not self._statement_between(frame.end, e.start)))]

    def _statement_between(self, a: int, b: int) -> bool:
        """Another subject is named between a claim and an elliptical follow-up ("only the radial direction is
        killed; RMSNorm doesn't remove it, LayerNorm does"): the follow-up echoes that nearer statement."""
        return any(a <= m.start < b and not m.contrast for m in self.subjects.mentions)

    def _own_subject_in_comparison(self, terms: tuple[tuple[int, int], ...]) -> Attribution | None:
        """A comparison part that names its own subject after the words ("..., versus O(√N) for Pre-LN", "compared
        with a constant bound in Pre-LN"): a plain statement about that subject, not only the other side of the
        comparison."""
        lay, toks = self.lay, self.tokens
        if any(self._compared(x) for x, _ in terms):
            return None
        # The words inside the comparison all in its one part; any others before it, the predicate the comparison
        # shares ("the output change grows as O(N) for Post-LN, versus O(√N) for Pre-LN": what grows as O(√N)).
        parts = {lay.part_of[x] for x, _ in terms if lay.part_of[x] in self._contrast_parts}
        if len(parts) != 1:
            return None
        part = parts.pop()
        inside = [(x, y) for x, y in terms if lay.part_of[x] == part]
        if any(lay.part_of[x] > part for x, _ in terms):
            return None
        named = [m for m in self.subjects.mentions if lay.part_of[m.start] == part]
        if len({m.subject for m in named}) != 1:
            return None
        m = named[0]
        if m.start < max(inside)[1] or toks[m.start - 1].kind != WORD or toks[m.start - 1].key not in ("for", "in"):
            return None
        return Attribution(m.subject, "clause", m.start)

    def _compared(self, x: int) -> bool:
        """The word at x is what something is compared with, in the middle of a part ("so unlike the stream its
        output doesn't grow"): the other side of the comparison, not the claim."""
        j = x - 1
        while j >= 0 and self.tokens[j].kind == WORD and self.tokens[j].key in _DETERMINERS and x - j <= 2:
            j -= 1
        if j >= 0 and self.tokens[j].kind == WORD and self.tokens[j].key == "over":
            # "chose it for stability over Pre-LN", "preferred over Post-LN": what was passed over
            return any(self.tokens[k].key in _CHOICE_WORDS for k in range(max(0, j - 5), j))
        return j >= 0 and COMPARED_WITH.ends_at(self.tokens, j) >= 0

    def subjects_by_heading(self) -> tuple[frozenset[int], dict[int, dict[str, Mention]]]:
        """The blocks that name a subject themselves (outside a bracketed gloss: "Post-Norm (Original Transformer)" names
        none), and per heading (or lead) block the subjects named in the blocks it governs, each with its first mention,
        comparison partners left out (computed once per answer)."""
        if self._by_heading is None:
            lay = self.lay
            named = frozenset(lay.block_of[m.start] for m in self.subjects.mentions if lay.aside_of[m.start] < 0)
            under: dict[int, dict[str, Mention]] = {}
            for m in self.subjects.mentions:
                if m.contrast:
                    continue
                # (up the chain: an item under an item under the heading; a few levels at most)
                head, hops = lay.heading_of[lay.block_of[m.start]], 0
                while head >= 0 and hops < 4:
                    under.setdefault(head, {}).setdefault(m.subject, m)
                    head, hops = lay.heading_of[head], hops + 1
            self._by_heading = (named, under)
        return self._by_heading

    def in_formula(self, a: int, b: int) -> bool:
        """Tokens a..b-1 all lie inside one written formula ("x_l" in "x_{l+1} = x_l + LN(F(LN(x_l)))")."""
        k = bisect.bisect_right(self._equation_starts, a) - 1
        return k >= 0 and self._equations[k][1] >= b

    def evidence(self, frame: Frame, start: int | None = None) -> tuple[str, tuple[tuple[int, int], ...]]:
        """The user's words for a frame (its clause when short, from `start`, the subject's mention, when that stands
        earlier in the same sentence) and the spans of the matched words."""
        a, b = frame.char_span
        if start is not None and start < frame.start and self.lay.sentence_of[start] == self.lay.sentence_of[frame.start]:
            a = min(a, self.tokens[start].start)  # (a subject named sentences before is not quoted with the claim)
        ca, cb = self.lay.clause_span[self.lay.clause_of[frame.start]]
        seg_start, seg_end = self.tokens[ca].start, self.tokens[cb - 1].end
        if seg_end - seg_start <= 160:
            a, b = min(a, seg_start), max(b, seg_end)
        quote = self.prep.quote(a, b)
        spans = tuple(self.prep.span(self.tokens[x].start, self.tokens[y - 1].end) for x, y in frame.terms)
        if frame.kind != "prose":
            spans = (self.prep.span(*frame.char_span),)
        return quote, spans

    def quote_tokens(self, a: int, b: int) -> str:
        """The user's words for tokens [a, b)."""
        return self.prep.quote(self.tokens[a].start, self.tokens[b - 1].end)

    def span_tokens(self, a: int, b: int) -> tuple[int, int]:
        """The original-text span of tokens [a, b)."""
        return self.prep.span(self.tokens[a].start, self.tokens[b - 1].end)


__all__ = ["NOBODY", "Analysis", "Frame", "PUNCT"]
