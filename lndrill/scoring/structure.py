"""The shape of an answer: blocks, sentences, clauses and parts, and which clauses read as claims.

* A block is a paragraph, a list item or a heading. A blank line, a heading (`## Formulas`, `公式：`,
  `二、反向传播`) or a bullet starts a new block; a hard-wrapped line continues its block.
* A label is the short head of a line before a colon ("Pre-LN: x + F(LN(x))", "- T5: pre-norm").
* A sentence ends at . ! ? 。 (not in "i.e.", "e.g.", "et al.", "0.5") and at a block or label line.
* A clause is the part of a sentence between connectives (so, because, while, but, 所以, 而, ...) and
  semicolons: the words of one claim must be found in one clause.
* A part is the part of a clause between commas, "and"/"or" and parentheses.
* A clause reads as a claim when it has a function word, a verb, an arrow or a label, and is not a
  keyword list (items separated by commas, spaces, `|` or 、 that carry no function word).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property

from lndrill.scoring.lexicon import (
    ABBREVIATIONS,
    ARROW,
    ARTICLES,
    CJK,
    CJK_CHAR,
    NUMBER,
    PUNCT,
    RELATIONS,
    WORD,
    Cues,
    Token,
)

CONNECTIVES = Cues(
    en=("so", "thus", "hence", "therefore", "because", "whereas", "while", "but", "however", "although",
        "though", "meanwhile", "whilst", "consequently", "since", "whereby", "yet", "otherwise"),
    zh=("所以", "因此", "因而", "于是", "因为", "由于", "但是", "然而", "不过", "从而", "以致", "但", "却", "而",
        "虽然", "尽管", "可是", "只是", "否则", "不然"),
)
_MID_CLAUSE_ADVERBS = frozenset({"therefor", "thus", "henc", "consequently", "hence", "therefore"})
CONSEQUENCE = Cues(en=("so", "hence", "thus", "therefore", "consequently"),
                   zh=("所以", "因此", "因而", "于是", "从而"))
CAUSE = Cues(en=("because", "since"), zh=("因为", "由于"))
_ZH_NOT_CONNECTIVE_AFTER_ER = ("且", "言", "已")  # 而且, 而言, 而已
_PART_WORDS = Cues(en=("and", "or"))

FUNCTION = Cues(en=(
    "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "does", "do", "did", "can", "could",
    "will", "would", "should", "may", "might", "must", "need", "needs", "needed", "require", "requires",
    "required", "the", "a", "an", "to", "of", "in", "on", "at", "by", "for", "with", "without", "from", "through",
    "into", "than", "that", "which", "it", "its", "they", "their", "this", "these", "not", "gets", "makes",
    "keeps", "stays", "grows", "passes", "goes", "flows", "reaches", "becomes", "so", "because", "while", "but",
    "and", "or", "if", "when", "where", "there", "uses", "use", "used", "lets", "allows", "after", "before",
    "then", "i", "we", "you", "get", "got", "put", "puts", "applied", "apply", "applies", "since", "though",
    "whereas", "cannot", "computes", "compute", "gives", "give", "trains", "train", "ends", "tends", "try",
    "tries", "choose", "chooses", "pick", "picks", "sets", "set", "takes", "take", "adds", "add", "scales",
    "scale", "multiplies", "divides", "normalizes", "normalises", "removes", "drops", "keep", "shrinks",
    "grow", "falls", "decays", "vanishes", "explodes", "diverges", "converges", "remains",
    "shows", "proves", "proved", "showed", "says", "works", "helps", "leads", "causes", "adopts",
    "adopted", "follows", "bounds", "controls", "stabilizes", "stabilises", "prevents", "avoids", "fixes",
    "replaces", "skips", "sits", "lies", "comes", "reads", "measures", "equals", "depends", "more",
    "less", "better", "worse", "easier", "harder", "larger", "smaller", "higher", "lower", "as", "each",
    "every", "only", "also", "still", "no", "very", "much", "both", "all", "about", "around", "over", "under",
    "between", "like", "same", "what", "how", "why", "who", "whose", "our", "your", "my", "he", "she", "them",
    "here", "just", "even", "because", "called", "known", "based", "instead",
    "too", "into", "onto", "via", "per", "yes", "don't", "doesn't", "isn't",
    "went", "switched", "switch", "moved", "chose", "picked", "prefer", "prefers", "preferred", "opted", "opt",
    "relies", "rely", "changed", "made", "make", "became", "stayed", "kept",
), zh=tuple("的是了着在和与及把被对从到为而也才再就都很更比将则即因所得地会能可要需让使没不还又已其它们该这那给吗呢吧"
            "啊嗯说并且先后靠沿经过用乘除做随越按往成由于里跟致变只有"))

_FUNCTION_CHARS = frozenset(w for w in FUNCTION.zh if len(w) == 1)

#: Words that make a line head a sentence rather than a label ("output is large: ..." is not a label).
_NOT_IN_LABELS = Cues(en=("is", "are", "was", "were", "be", "been", "am", "has", "have", "had", "does", "do", "did",
                          "can", "could", "will", "would", "should", "must", "may", "might", "that", "which", "it",
                          "this", "these", "there", "we", "you", "i", "they", "so", "because", "if", "when", "then",
                          "not", "the", "a", "an")).en

#: Verbs of saying or meaning: a line that stops on one ("That is not to say", "this does not mean") leaves its clause open.
_SAYING_VERBS = "say|says|mean|means|imply|implies|claim|claims|argue|argues"
_SAYS_AT_END = re.compile(rf"\b(?:{_SAYING_VERBS})\s*$")
_DANGLING = re.compile(rf"(?:[,、，]|\b(?:and|or|the|a|an|of|to|with|by|from|that|is|are|in|on|for|{_SAYING_VERBS})"
                       r"|[的和与及被把对])\s*$")
_SPACED_DASH = re.compile(r"\u2014|\u2015|(?:^|\s)--(?:\s|$)")
_NUMBERED_TITLE = re.compile(r"^(?:[一二三四五六七八九十]+[、.．]|\(?[0-9]{1,2}[.)、]\s*|[0-9]{1,2}\s|\(?[a-h][.)]\s+)")
_ENDS_SENTENCE = re.compile(r"[.!?。！？;；]\s*$")
#: A list item's line at least this wide (a CJK character counts 2) that stops mid-sentence was hard-wrapped.
_ITEM_WRAP_WIDTH = 60
_BULLET = re.compile(r"^(?:[-*•·>+]\s+|\(?[0-9]{1,2}[.)、]\s+|\(?[a-h][.)]\s+|[①-⑳]\s*|[一二三四五六七八九十]+、)")


#: A bare verdict that answers a row's label ("LN on main path? | no, skip is pure identity").
_VERDICTS = frozenset({"no", "yes", "不", "是", "否", "对", "有", "没有"})


@dataclass
class Layout:
    """Tokens grouped into blocks, sentences, clauses and parts (all indexed per token)."""

    tokens: list[Token]
    text: str
    line_of: list[int] = field(default_factory=list)
    block_of: list[int] = field(default_factory=list)
    sentence_of: list[int] = field(default_factory=list)
    clause_of: list[int] = field(default_factory=list)
    part_of: list[int] = field(default_factory=list)
    #: Per token, the bracketed aside it sits in (an index, innermost), or -1 outside every aside.
    aside_of: list[int] = field(default_factory=list)
    clause_span: list[tuple[int, int]] = field(default_factory=list)
    sentence_span: list[tuple[int, int]] = field(default_factory=list)
    #: Per block: "heading", "item" (list item) or "para".
    block_kind: list[str] = field(default_factory=list)
    #: Per block: the heading block that governs it (-1 if none), or for a list item, the line that leads
    #: into its list ("Pre-LN: forward growth" above indented "- ..." items).
    heading_of: list[int] = field(default_factory=list)
    #: Para blocks that lead into a list (they govern their items as a heading does).
    lead_blocks: set[int] = field(default_factory=set)
    #: Per line: the token span of its label ("Pre-LN" in "Pre-LN: ..."), or None.
    label_of_line: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Per clause: does it read as a claim / is it a keyword list.
    clause_claim: list[bool] = field(default_factory=list)
    clause_list: list[bool] = field(default_factory=list)
    #: Per sentence: does it end with a question mark.
    sentence_question: list[bool] = field(default_factory=list)
    #: Per sentence: the first token the question mark asks about (the sentence's first token, or for a statement
    #: ending in an unsure spoken aside, "..., I think forty percent fewer steps?", the aside's first token).
    question_from: list[int] = field(default_factory=list)
    #: Lines that stand alone in Title Case ("Post-LayerNorm Is Back: Stable, ExpressivE, and Deep"): a paper's or
    #: post's title, which names a topic rather than claims it (its words may earn credit, never a mistake).
    title_lines: set[int] = field(default_factory=set)
    #: Lines that display a formula (an equation with few words on a line of its own).
    display_lines: set[int] = field(default_factory=set)
    #: Clauses written as a bare list inside a paragraph of prose (see `_lists_in_prose`): read as shorthand
    #: statements for the points they name, never for a mistake.
    shorthand: set[int] = field(default_factory=set)

    def part_opening(self, i: int) -> int:
        """The first word of token i's comma part (punctuation at its start skipped), never past i."""
        k, part = i, self.part_of[i]
        while k > 0 and self.part_of[k - 1] == part:
            k -= 1
        while k < i and self.tokens[k].kind == PUNCT:
            k += 1
        return k

    def opens_part(self, i: int) -> bool:
        """Token i is the first word of its comma part, as `part_opening(i) == i` says, walking back over the
        punctuation before it only (a long part costs one step, not its length)."""
        k, part = i - 1, self.part_of[i]
        while k >= 0 and self.part_of[k] == part and self.tokens[k].kind == PUNCT:
            k -= 1
        return k < 0 or self.part_of[k] != part

    def possessive(self, i: int) -> bool:
        """Token i is written with a possessive "'s" ("DeepNet's alpha", "Admin's reading", "it's")."""
        t = self.tokens[i]
        return self.text[t.start : t.end].endswith(("'s", "’s"))

    @cached_property
    def arrows_before(self) -> list[int]:
        """For each i in 0..len(tokens), how many arrows stand among tokens [0, i): counted once per answer."""
        out = [0]
        for t in self.tokens:
            out.append(out[-1] + (t.kind == PUNCT and t.key == ARROW))
        return out

    def arrows_between(self, a: int, b: int) -> bool:
        """An arrow stands among tokens [a, b) ("Post-LN (2017-2019) -> Pre-LN (GPT-2 on)": a sequence)."""
        counts = self.arrows_before
        return counts[max(0, min(b, len(counts) - 1))] > counts[max(0, min(a, len(counts) - 1))]

    @cached_property
    def arrow_lines(self) -> frozenset[int]:
        """The lines with an arrow in them (notes, where a comma separates statements)."""
        return frozenset(self.line_of[i] for i, t in enumerate(self.tokens) if t.kind == PUNCT and t.key == ARROW)

    def answers_its_label(self, at: int) -> bool:
        """The line of token `at` is a labelled row whose cell opens with a bare yes/no and a comma ("LN on
        main path? | no, skip is pure identity"): the verdict answers the label, and the rest of the cell is a
        statement of its own."""
        span = self.label_of_line.get(self.line_of[at])
        if span is None:
            return False
        toks, i = self.tokens, span[1]
        while i < len(toks) and toks[i].kind == PUNCT and toks[i].key in (":", "\u2236"):
            i += 1
        return (i + 1 < len(toks) and toks[i].key in _VERDICTS and toks[i + 1].kind == PUNCT
                and toks[i + 1].key == ",")

    def mark_claims(self, vocabulary: set[int]) -> None:
        """Decide which clauses read as claims. Tokens in `vocabulary` (the rubric's own terms, such as
        "every layer") do not count as function words: a list of terms stays a list."""
        self.clause_list = [b <= a or is_keyword_list(self, a, b, vocabulary) or _topic_list(self, a, b)
                            for a, b in self.clause_span]
        self.clause_claim = [b > a and not lst and self.block_kind[self.block_of[a]] != "heading"
                             and _has_predicate(self, a, b, vocabulary)
                             for (a, b), lst in zip(self.clause_span, self.clause_list, strict=True)]
        for clauses in _semicolon_soups(self) + _labelled_soups(self) + _soup_paragraphs(self):
            for c in clauses:
                self.clause_list[c], self.clause_claim[c] = True, False
        self.shorthand = _lists_in_prose(self)

    def clause_tokens(self, clause: int) -> range:
        """Token indices of one clause."""
        a, b = self.clause_span[clause]
        return range(a, b)

    def block_label(self, i: int) -> tuple[int, int] | None:
        """The label span of the line (or list item) holding token i, if it has one."""
        return self.label_of_line.get(self.line_of[i])


#: A paragraph holds this many claims besides a list for the list to read as shorthand, each of at least _PROSE_WORDS
#: words (one-letter symbols not counted: terse labelled notes, "Pre-LN: x + F(LN(x)).", are no prose), and they are
#: two thirds of its other clauses or more (a soup's fragments, "Final LN.", are not).
_PROSE_CLAIMS = 3
_PROSE_WORDS = 6


def _lists_in_prose(lay: Layout) -> set[int]:
    """The one list clause of a paragraph that otherwise makes claims ("..., so x plus F of LN of x, that's Pre-LN.
    LLaMA, Mistral, Qwen, DeepSeek, pre-norm RMSNorm, final RMSNorm at the end. GLM-130B is the odd one, ..."): a
    speaker or note-taker running through names and their settings, not a dump of terms (a keyword soup's lists
    come in numbers, or stand alone)."""
    claims: dict[int, list[bool]] = {}  # per paragraph, for each other clause: a claim of some length
    lists: dict[int, list[int]] = {}
    for c, (a, b) in enumerate(lay.clause_span):
        if b <= a or lay.block_kind[lay.block_of[a]] != "para":
            continue
        k = lay.block_of[a]
        if lay.clause_list[c]:
            # (not the topics of "the interplay between A, B and C": filler, which names and claims nothing)
            lists.setdefault(k, []).append(-1 if _topic_list(lay, a, b) else c)
        else:
            long = lay.clause_claim[c] and sum(1 for t in lay.tokens[a:b] if t.kind == CJK or (
                t.kind == WORD and len(t.key) >= 2)) >= _PROSE_WORDS
            claims.setdefault(k, []).append(long)
    return {cs[0] for k, cs in lists.items()
            if len(cs) == 1 and cs[0] >= 0 and sum(claims.get(k, ())) >= max(_PROSE_CLAIMS, 2 * len(claims.get(k, ())) / 3)}


#: A sentence of this many ";"-separated items, most of them bare terms, is a keyword list as a whole.
_SOUP_ITEMS = 6


def _semicolon_soups(lay: Layout) -> list[list[int]]:
    """Unlabelled sentences of six or more items separated by ";", at least 60% of which claim nothing on their
    own ("Pre-LN vs Post-LN; residual stream; x_{l+1} = x_l + F(LN(x_l)); effective depth; Mix-LN; ..."): the
    few items with an equation or a stray "in" are terms of the same list, not claims. A labelled line of notes
    ("- setup: 1 head; W ~ N(0, 1/d); bias 0") keeps its items."""
    toks = lay.tokens
    by_sentence: dict[int, list[int]] = {}
    for c, (a, b) in enumerate(lay.clause_span):
        if b > a:
            by_sentence.setdefault(lay.sentence_of[a], []).append(c)
    out: list[list[int]] = []
    for clauses in by_sentence.values():
        if len(clauses) < _SOUP_ITEMS:
            continue
        opened = [c for c in clauses[1:] if toks[lay.clause_span[c][0]].key in (";", "；")]
        if len(opened) + 1 < _SOUP_ITEMS:
            continue
        first = lay.clause_span[clauses[0]][0]
        if lay.block_label(first) is not None or _sentence_label(lay, first, lay.clause_span[clauses[0]][1]):
            continue
        if _a_bullet_of_notes(lay, first, set(clauses)):
            continue
        items = [clauses[0], *opened]
        if sum(1 for c in items if not lay.clause_claim[c]) >= 0.6 * len(items):
            out.append(items)
    return out


#: An answer that makes at least this many claims outside a bulleted line of ";" items, and claims in at least this
#: share of its other clauses, writes notes: the line is a list of its recommendations, not a dump of terms.
_NOTES_CLAIMS = 8
_NOTES_SHARE = 0.5


#: A dash after a capitalised name of this many words or fewer that opens its part ends the name it describes ("...;
#: LLaMA — RMSNorm, pre-norm", "Gemma 2 — both"), not a statement ("The stream doesn't — it keeps accumulating").
_DASH_NAME_WORDS = 2


def _names_before_dash(tokens: list[Token], part_of: list[int], i: int, cased: str) -> bool:
    """The dash before token i follows a name that opens its part: a name and its note, not two parts."""
    part, k = part_of[i - 1], i - 1
    while k > 0 and part_of[k - 1] == part:
        k -= 1
    run = [t for t in tokens[k:i] if not (t.kind == PUNCT and t.key in ",;-")]
    return (0 < len(run) <= _DASH_NAME_WORDS and all(t.kind in (WORD, NUMBER) for t in run)
            and cased[run[0].start : run[0].start + 1].isupper())


def _a_bullet_of_notes(lay: Layout, first: int, own: set[int]) -> bool:
    """The sentence opening at token `first` is a bullet item ("- per-layer param grads; untied W; d >= 64; ...") of
    an answer that otherwise states things in claims."""
    line_start = lay.text.rfind("\n", 0, lay.tokens[first].start) + 1
    if not _BULLET.match(lay.text[line_start : lay.tokens[first].start + 1].lstrip()):
        return False
    others = [c for c, (a, b) in enumerate(lay.clause_span) if b > a and c not in own]
    claims = sum(1 for c in others if lay.clause_claim[c])
    return claims >= _NOTES_CLAIMS and claims >= _NOTES_SHARE * len(others)


#: A paragraph of this many sentences, most of them bare lists, is a keyword soup as a whole.
_SOUP_SENTENCES = 6
#: ... where "most" is this share of its unlabelled sentences. It was 0.7 until two soups on the tuning half (graded
#: 8 and 9, scored 61 and 53) came in at 7 of 11 and 6 of 9: the stray verbs of a dump ("gradient vanishing", "not
#: the root cause", "better performance") read as predicates. At 0.6 only those two moved; at 0.5 a swapped answer
#: in one-line notes lost four real charges.
_SOUP_SHARE = 0.6


def _soup_paragraphs(lay: Layout) -> list[list[int]]:
    """Paragraphs written on one line with six or more sentences, at least 60% of which are nothing but keyword lists
    ("Post-LN, Pre-LN. LN(x + F(x)) vs x + F(LN(x)). Residual stream, identity path, gradient flow. ..."): the few
    formulas and short statements among them are items of the same dump, not claims. A sentence a label opens
    ("Pre-LN: x + F(LN(x)).") stays a note."""
    out: list[list[int]] = []
    by_line: dict[int, list[int]] = {}
    # A block whose sentences run across line breaks is one paragraph, hard-wrapped: its sentences are judged
    # together (a block of notes, one item per line, keeps the line as its unit).
    wrapped = {lay.block_of[a] for a, b in lay.sentence_span if b > a and lay.line_of[a] != lay.line_of[b - 1]}
    # (not a block with an indented line: that is prose around displayed formulas, each its own unit)
    wrapped -= {lay.block_of[i] for i, t in enumerate(lay.tokens)
                if (i == 0 or lay.line_of[i - 1] != lay.line_of[i]) and t.start > 0 and lay.text[t.start - 1] in " \t"}
    for s, (a, b) in enumerate(lay.sentence_span):
        if b > a and lay.block_of[a] in wrapped and lay.block_of[a] == lay.block_of[b - 1]:
            by_line.setdefault(-1 - lay.block_of[a], []).append(s)
        elif b > a and lay.line_of[a] == lay.line_of[b - 1]:
            by_line.setdefault(lay.line_of[a], []).append(s)
    for sentences in by_line.values():
        if len(sentences) < _SOUP_SENTENCES:
            continue
        clauses = [sorted({lay.clause_of[i] for i in range(*lay.sentence_span[s])}) for s in sentences]
        # a sentence a label opens ("Pre-LN: x + F(LN(x)).") is a note of its own and stays one
        labelled = [_sentence_label(lay, *lay.sentence_span[s]) is not None for s in sentences]
        bare = sum(1 for s, cs, lab in zip(sentences, clauses, labelled, strict=True)
                   if not lab and (all(lay.clause_list[c] or not lay.clause_claim[c] for c in cs)
                                   or not _has_function_word(lay, *lay.sentence_span[s])))
        unlabelled = labelled.count(False)
        if unlabelled >= _SOUP_SENTENCES and bare >= _SOUP_SHARE * unlabelled:
            out.append([c for cs, lab in zip(clauses, labelled, strict=True) if not lab for c in cs])
    return out


def _has_function_word(lay: Layout, a: int, b: int) -> bool:
    """Some token in [a, b) is a verb or a function word that makes a statement (not a one-letter symbol such as
    "a" in "RMS(a)", nor a word that only builds a noun phrase: "no mu, no beta", "all-ones direction"), or an
    arrow."""
    toks = lay.tokens
    for i in range(a, b):
        t = toks[i]
        if (t.kind == CJK or (t.kind == WORD and len(t.key) > 1)) and is_function_token(t) and t.key not in _WEAK_FUNCTION:
            return True
        if t.kind == PUNCT and t.key == ARROW:
            return True
    return False


def _labelled_soups(lay: Layout) -> list[list[int]]:
    """The clauses of a sentence that a list label opens ("Key concepts: LN(a x + c 1) = LN(x), eps = 1e-5, ...",
    "Keywords: ..."), however many lines it runs over: the label says what follows is a list, so its equations are
    items of it, not claims."""
    out: list[list[int]] = []
    for a, b in lay.sentence_span:
        if b <= a:
            continue
        line_label = lay.block_label(a)
        label = line_label if line_label is not None and line_label[0] == a else _sentence_label(lay, a, b)
        if label is None:
            continue
        k = label[0]
        while k < label[1] and lay.tokens[k].kind == PUNCT:
            k += 1
        # the label is the list's name itself ("Key concepts:"), not a topic that mentions a term ("Representation
        # collapse (ResiDual's term):")
        n = _SOUP_LABELS.at(lay.tokens, k) if k < label[1] else 0
        if not n or any(lay.tokens[j].kind != PUNCT for j in range(k + n, label[1])):
            continue
        # a long run of items, not a short note under that name ("Key concepts: DeepNorm = LN(alpha x + G(x)),
        # alpha = (2N)^(1/4).")
        if sum(1 for i in range(label[1], b) if lay.tokens[i].kind == PUNCT and lay.tokens[i].key in (",", ";", "、")) + 1 \
                < _SOUP_ITEMS + 2:
            continue
        out.append(sorted({lay.clause_of[i] for i in range(a, b)}))
    return out


def _width(s: str) -> int:
    """Display width: CJK characters take two cells."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in s)


def _line_bounds(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def is_function_token(tok: Token) -> bool:
    """A function word or verb (English) or a function character (Chinese)."""
    if tok.kind == WORD:
        return tok.key in FUNCTION.en
    return tok.kind == CJK and tok.key in _FUNCTION_CHARS


#: A sentence end with more text after it, inside one line ("... 模型发散。为什么? ...").
_SENTENCE_END_INSIDE = re.compile(r"[.!?。！？](?=\s*[^\s.!?。！？#*\d])")


#: A title wrapped whole in brackets: "[[Post-LN]]", "[Pre-LN]", "【Pre-LN】", "「DeepNorm」".
_BRACKETED_TITLE = re.compile(r"\[\[[^\[\]]+\]\]|\[[^\[\]]+\]|【[^【】]+】|「[^「」]+」|《[^《》]+》")
_TITLE_BRACKETS = frozenset("[]【】「」《》")
#: A title followed by a short bracketed aside of at most three words, nothing after it.
_TITLE_WITH_ASIDE = re.compile(r"[^()（）:：.。,，;；!?！？=\"“”]{2,40}\s*[(（]\s*[^()（）\s\"“”']+(?:\s+[^()（）\s\"“”']+){0,2}\s*[)）]")


#: Personal pronouns that open a sentence, never a title.
_SUBJECT_PRONOUNS = frozenset({"you", "we", "i", "they", "he", "she"})


def _heading_line(line_tokens: list[Token], raw: str) -> bool:
    stripped = raw.strip()
    words = [t for t in line_tokens if t.kind in (WORD, CJK)]
    if stripped.startswith("#"):
        # a whole article flattened onto one line after its "## 8." title is prose, not a heading
        size = sum(1 if t.kind == WORD else 0.5 for t in words)
        return size <= 40 or len(_SENTENCE_END_INSIDE.findall(stripped)) < 2
    if stripped.endswith(":") and 0 < len(words) <= 6:
        # ("you normalise the branch output too:" over a code block is a sentence: a pronoun and its verb)
        return not (words[0].kind == WORD and words[0].key in _SUBJECT_PRONOUNS and len(words) >= 3)
    if stripped.startswith("**") and stripped.endswith("**") and len(words) <= 6:
        return True
    # "二、反向传播", "2. Backprop", "(3) Trade-offs", "A. Post-LN": a numbered title line
    if _NUMBERED_TITLE.match(stripped) and 0 < len(words) <= 8 and not _ENDS_SENTENCE.search(stripped):
        # (a letter marker is no word of the title: "A. Post-LN")
        body = line_tokens[1:] if line_tokens and line_tokens[0].kind == WORD and len(line_tokens[0].key) == 1 else line_tokens
        return not any(is_function_token(t) for t in body if t.kind == WORD)
    # A short bare title ("Backprop path", "权衡") with no punctuation, digits or formula; brackets around the whole
    # title are markup ("[[Post-LN]]" from a wiki, "【Pre-LN】")
    if _BRACKETED_TITLE.fullmatch(stripped):
        line_tokens = [t for t in line_tokens if not (t.kind == PUNCT and t.key in _TITLE_BRACKETS)]
    elif _TITLE_WITH_ASIDE.fullmatch(stripped):
        # "Post-LayerNorm (Original)", "Pre-LN（现代）": a short title with a short aside after it
        close = len(line_tokens) - 1
        opener = next((k for k in range(close - 1, -1, -1) if line_tokens[k].key == "("), 0)
        line_tokens = line_tokens[:opener]
        words = [t for t in line_tokens if t.kind in (WORD, CJK)]
    letters = [t for t in line_tokens if t.kind == WORD]
    return (0 < len(words) <= 4 and len(letters) <= 3 and all(t.kind in (WORD, CJK) for t in line_tokens)
            and sum(t.kind == CJK for t in line_tokens) <= 6
            and not any(is_function_token(t) for t in letters))


#: A capitalised ordinary word ("Back", "Stable") and a lower-case one of four letters or more ("training").
_CAPITALISED = re.compile(r"(?<![\w-])[A-Z][a-z]{2,}(?![\w-])")
_LOWER_WORD = re.compile(r"(?<![\w-])[a-z]{4,}(?![\w-])")
#: Chinese, arrows, equations, brackets and bullets: a line with them is a note or a formula, not a Title Case title.
_NOT_IN_TITLES = re.compile(r"[\u3000-\u9fff\uff00-\uffef]|->|→|=|\(|^[•·▪◦‣*+-]")


def _title_case(stripped: str) -> bool:
    """A title set in Title Case ("Post-LayerNorm Is Back: Stable, ExpressivE, and Deep", "Why Pre-LN Needs No
    Warm-up"): three or more capitalised ordinary words, no lower-case word of four letters or more, no sentence end."""
    return (len(stripped) <= 100 and not _ENDS_SENTENCE.search(stripped) and len(_CAPITALISED.findall(stripped)) >= 3
            and not _LOWER_WORD.search(stripped) and not _NOT_IN_TITLES.search(stripped))


def _standalone(text: str, lines: list[tuple[int, int]], k: int) -> bool:
    """Line k stands alone: a blank line (or the text's edge) before and after it."""
    before = k == 0 or not text[lines[k - 1][0] : lines[k - 1][1]].strip()
    after = k + 1 >= len(lines) or not text[lines[k + 1][0] : lines[k + 1][1]].strip()
    return before and after


def _display_line(line_tokens: list[Token]) -> bool:
    """A displayed formula: an equation or inequality with few words ("E||x||^2 = (3/2)d", "(1 + l/2)d <= ...")."""
    words = sum(1 for t in line_tokens if t.kind == WORD and len(t.key) > 2)
    cjk = sum(1 for t in line_tokens if t.kind == CJK)
    return (cjk == 0 and words <= 6 and any(t.kind == PUNCT and (t.key == "=" or t.key in RELATIONS) for t in line_tokens)
            and not any(t.kind == PUNCT and t.key == ARROW for t in line_tokens))


def _title_like(stripped: str) -> bool:
    """A short line that does not end a sentence: a title over the list that follows it."""
    return _width(stripped) <= 60 and not _ENDS_SENTENCE.search(stripped)


def _bold_run_in(raw: str, after_stop: int, body: int) -> bool:
    """The stop ending at raw[after_stop] closes a bold run-in heading that opens the line's text ("**The myth.** ...",
    "- __Stability.__ ...")."""
    mark = raw[after_stop : after_stop + 2]
    return mark in ("**", "__") and raw[body : body + 2] == mark and raw[after_stop + 2 : after_stop + 3].isspace()


#: What a long list-item label cannot hold: a clause break or a Chinese modal, verb of need, or negation.
_NOT_IN_LONG_LABELS = re.compile(r"[，,;；]\s|[，；]|[必需会能要不没可]")


def _says_something(label: str) -> bool:
    """A long list-item label that reads as a statement ("Post-LN 容易发散，必须 warm-up"), not a group of names
    ("LLaMA 1/2 以及 Mistral、Qwen、DeepSeek 这类 Llama 风格模型")."""
    return _NOT_IN_LONG_LABELS.search(label) is not None


#: Chinese question words: a label's 是 followed by one asks ("Pre-LN 的线性增长是什么：", "D 是多少："), it states nothing.
_QUESTION_WORDS = ("什么", "啥", "哪", "多少", "怎样", "怎么", "如何")


def _asks_after(line_tokens: list[Token], k: int) -> bool:
    """The 是 at line_tokens[k] is followed right away by a question word: "X 是什么" asks what X is."""
    after = "".join(t.key for t in line_tokens[k + 1 : k + 3] if t.kind == CJK)
    return after.startswith(_QUESTION_WORDS)


def _label_end(line_tokens: list[Token], raw: str, line_start: int) -> int | None:
    """Index (into line_tokens) of the colon that ends a line's label, or None.

    A label is a short noun phrase (no copula, modal or pronoun; at most 6 words or 15 CJK characters, and
    maybe a short bracketed aside after its first word; a bold heading closed before its colon may have articles
    and up to 10 words) after an optional bullet, followed by a colon or a
    dash and then more text.
    """
    if "\u2236" in raw:  # a table row read as a sentence: "<column> <row label>∶ <cell>"
        for k, t in enumerate(line_tokens):
            if t.kind == PUNCT and t.key == ":" and raw[t.start - line_start] == "\u2236":
                return k if k > 0 else None
    stripped = raw.lstrip()
    m = _BULLET.match(stripped)
    skip_to = line_start + (len(raw) - len(stripped)) + (m.end() if m else 0)
    words = 0.0
    prev_end = skip_to
    # a bold heading closed right before its colon ("**LLaMA and the Llama-style family (...)**: ...") is a label even
    # with articles in it and a few more words
    rest = raw[skip_to - line_start :]
    bold = rest.startswith(("**", "__")) and re.match(r"(\*\*|__)[^*_\n]{1,90}(?:\1\s*[:：]|[.]\1\s)", rest) is not None
    # (a list item's label may name a group: "5. LLaMA 1/2 以及 Mistral、Qwen、DeepSeek 这类 Llama 风格模型：...")
    most = 10 if bold else 12 if m else 6
    depth = 0  # inside a bracket after the label's first words ("Post-LN (Vaswani et al. 2017, BERT): ...")
    aside = 0
    for k, t in enumerate(line_tokens):
        if t.start < skip_to:
            continue
        if t.kind == PUNCT and t.key in "()" and (words or depth):
            depth = max(0, depth + (1 if t.key == "(" else -1))
            continue
        if depth:
            aside += 1  # an aside's words and stops (citations: "et al.") do not make the label a sentence
            if aside > 12 or (t.kind == PUNCT and t.key == ":"):
                return None
            continue
        if words and _SPACED_DASH.search(raw[prev_end - line_start : t.start - line_start]):
            return k  # "**GPT-2 / GPT-3** —— Pre-LN, LayerNorm": the dash ends the label
        prev_end = t.end
        if t.kind == PUNCT and t.key == ":":
            if words == 0 or k + 1 >= len(line_tokens):
                return None
            if words > 6 and not bold and _says_something(raw[skip_to - line_start : t.start - line_start]):
                return None  # "- Post-LN 直接上大学习率容易发散，必须 warm-up：...": a statement, not a long item label
            return k
        if t.kind == PUNCT and t.key == "." and words and k + 3 < len(line_tokens) and _bold_run_in(raw, t.end - line_start,
                                                                                                   skip_to - line_start):
            return k  # "**The myth.** You often hear ...": a bold run-in heading labels the rest of its line
        if t.kind == PUNCT and t.key not in "()[],/+*":  # "*" is Markdown emphasis ("**GPT-2**: ...")
            return None
        if t.kind in (WORD, NUMBER):
            if t.kind == WORD and t.key in _NOT_IN_LABELS and not (bold and t.key in ARTICLES):
                return None
            words += 1
        elif t.kind == CJK:
            if t.key == "是" and not _asks_after(line_tokens, k):
                return None  # "2017 年的原版 Transformer 是 Post-LN：...": a statement with a colon, not a label
            words += 0.4
        if words > most:
            return None
    return None


def analyse(text: str, tokens: list[Token], cased: str | None = None, wide: frozenset[int] = frozenset()) -> Layout:
    """Split tokens into blocks, sentences, clauses and parts; mark claim-like clauses.

    `cased` (the text before lower-casing) tells a hard-wrapped continuation ("...multiplied by\n  beta.")
    from a new note ("Pre → identity path"). `wide` holds where the brackets were written full-width ("（", "）"):
    those are never a call's ("norm（Gemma 2、OLMo 2）" is an aside)."""
    lay = Layout(tokens, text)
    n = len(tokens)
    lines = _line_bounds(text)
    starts = [a for a, _ in lines]
    tok_line = [bisect.bisect_right(starts, t.start) - 1 for t in tokens]
    lay.line_of = tok_line
    line_first = [bisect.bisect_left(tok_line, k) for k in range(len(lines))]
    line_last = [bisect.bisect_right(tok_line, k) for k in range(len(lines))]
    # Blocks and labels, line by line.
    line_block: list[int] = []
    line_new_sentence: list[bool] = []
    block = -1
    prev_blank = True
    prev_open = False  # the previous line ends mid-sentence (a hard wrap)
    current_heading = -1
    lead, lead_colon = -1, False  # the para line that leads into the list being read, if any
    lead_ends_colon = False  # that line ends with a colon, so it leads into a list even across a blank line
    lead_items: list[tuple[int, int]] = []  # open list items (block, indent) that more-indented items nest under
    in_code = False
    prev_dangling = prev_unclosed = prev_joined = prev_says = prev_cjk_end = False
    item_text_col = 0  # the column where the current list item's text starts (0: not in a list item)
    prev_open_item = prev_long = False
    after_display = prev_prose_open = False
    for k, (a, b) in enumerate(lines):
        raw = text[a:b]
        stripped = raw.strip()
        fence = stripped.startswith("```")
        if fence:
            in_code = not in_code
        blank = not stripped or fence
        ltoks = tokens[line_first[k] : line_last[k]]
        # Inside a code block a line is a statement of its own ("# Pre-LN" is a comment, not a heading).
        bullet = bool(_BULLET.match(stripped)) and not blank and not in_code
        # (a dash or star item of a bare name, "- BERT", is an item under the heading above it, not a heading; a
        # numbered "(1) stream" still titles what follows)
        heading = (not blank and not in_code and _heading_line(ltoks, raw)
                   and not (bullet and stripped[:1] in "-*+•·▪◦‣" and not stripped.endswith((":", "："))
                            and "**" not in stripped and "__" not in stripped))
        if cased is not None and not heading and not bullet and not in_code and _standalone(text, lines, k) \
                and _title_case(cased[a:b].strip()):
            lay.title_lines.add(k)
        # A lower-case line that carries on a sentence the line before left open is no label, whatever colon it has
        # ("Post-LN, when it trains, tends\nto give better final quality: DeepNet reports ..."), nor is any line after
        # one that stops on a verb of saying ("That is not to say\nPre-LN never needs warm-up: ...").
        # (Only after a long prose line and not indented: in notes "sandwich-LN: ..." over "  vs Pre-LN: ..." each line
        # is a label of its own.)
        # (a Chinese sentence broken between two characters carries on too: "...，Post-LN 只要能训起来\n往往更好：DeepNet ...")
        wrapped = (not blank and not heading and not bullet and not prev_blank and prev_prose_open and prev_dangling
                   and raw[:1] not in (" ", "\t") and cased is not None
                   and (cased[a:b][:1].islower() or prev_says or (prev_cjk_end and CJK_CHAR.match(raw) is not None)))
        # The same inside a list item: a line indented under the item's text that carries on a long item line left
        # open ("- 代价：...，有效深度打折。训得动的 Post-LN\n  最终效果常常更好：DeepNet 报告 ...") is no label either.
        # (A short item line over an indented "vs Pre-LN: ..." is notes: each line its own label.)
        item_wrapped = (not blank and not heading and not bullet and prev_dangling and prev_open_item and prev_long
                        and item_text_col > 1 and not stripped.startswith("|")
                        and abs((len(raw) - len(raw.lstrip())) - item_text_col) <= 1)
        label_at = None if blank or heading or in_code or wrapped or item_wrapped else _label_end(ltoks, raw, a)
        # Notes: an indented line, or one whose first words lead into an arrow, starts a statement of its own.
        note = not blank and (raw[:1] in (" ", "\t") or in_code
                              or any(t.kind == PUNCT and t.key == ARROW for t in ltoks[:4]))
        new_block = not blank and (heading or bullet or prev_blank or (block >= 0 and lay.block_kind[block] == "heading"))
        # A displayed formula set inside a sentence left open ("... the input satisfies" / "..., so" above it) is part
        # of that paragraph, and so is a lower-case line that carries on after it ("for all l > 0, independent of
        # depth"): they take the paragraph's subject, though each is a sentence of its own.
        # (a line of code is no displayed formula: "```" over "x = LN(x + F(x))  # Post-LN" starts a block of its own)
        display = not blank and not heading and not bullet and label_at is None and not in_code and _display_line(ltoks)
        if display:
            lay.display_lines.add(k)
        own_sentence = False
        if new_block and not heading and not bullet and block >= 0 and lay.block_kind[block] == "para" and (
                (display and prev_prose_open) or (after_display and cased is not None
                                                  and cased[a + len(raw) - len(raw.lstrip()) : b][:1].islower())):
            new_block = False
            after_display = display
            own_sentence = True  # one paragraph, but the formula and what follows it are statements of their own
        elif not blank:
            after_display = display and not new_block and after_display
        if new_block:
            block += 1
            kind = "heading" if heading else "item" if bullet else "para"
            lay.block_kind.append(kind)
            indented = raw[:1] in (" ", "\t")
            item_indent = len(raw) - len(raw.lstrip())
            while lead_items and (not bullet or lead_items[-1][1] >= item_indent):
                lead_items.pop()
            if heading and bullet and lead_items and not prev_blank:
                # "- **Pre-Norm**" over "  - **优势**:" over "    1. ...": a label item nested under an item heads
                # the items under it, and is itself about the item above it
                current_heading = block
                lay.heading_of.append(lead_items[-1][0])
                lay.lead_blocks.add(lead_items[-1][0])
                lead = -1
            elif heading:
                current_heading = block
                lay.heading_of.append(-1)
                lead = -1
            elif bullet and lead_items and not prev_blank:
                # "- **Why big models use Pre-LN**" over "  - stable at depth": a nested item is about the item above it
                lay.heading_of.append(lead_items[-1][0])
                lay.lead_blocks.add(lead_items[-1][0])
            elif bullet and lead >= 0 and ((not prev_blank and (indented or lead_colon)) or (prev_blank and lead_ends_colon)):
                # (Markdown wants a blank line before a list: "Llama 做了如下改动：\n\n- 采用前置的 RMSNorm" still leads
                # into its items)
                lay.heading_of.append(lead)
                lay.lead_blocks.add(lead)
            else:
                lay.heading_of.append(current_heading)
                lead = -1
            if kind == "para" and not indented and not in_code:
                # A line followed at once by indented items (or by any items, when it ends with a colon) leads
                # into them: "Pre-LN: forward growth" above "  - ||S(x)|| grows with depth".
                # A short title-like line without a full stop ("Pre-LN linear growth -> mostly forward") leads into
                # the items right under it as a colon would.
                lead, lead_colon = block, stripped.endswith((":", "：")) or _title_like(stripped)
                lead_ends_colon = stripped.endswith((":", "："))
        elif blank:
            if not lead_ends_colon:
                lead = -1
            lead_items.clear()
        if new_block and bullet and not in_code:
            lead_items.append((block, len(raw) - len(raw.lstrip())))
        line_block.append(max(block, 0))
        if label_at is not None:
            first = line_first[k]
            lo = first
            # The label starts after the bullet marker.
            while lo < first + label_at and tokens[lo].kind == PUNCT:
                lo += 1
            lay.label_of_line[k] = (lo, first + label_at)
        # A short line that does not end a sentence is a note of its own, not a hard-wrapped sentence; but a
        # line that carries on a sentence left open (lower-case start, an open bracket, a dangling "and") is
        # part of it, however short or indented.
        indent = len(raw) - len(raw.lstrip())
        carries_on = not blank and not prev_blank and not heading and prev_dangling and not bullet and label_at is None and (
            (cased is not None and cased[a + indent : a + indent + 1].islower())
            or prev_unclosed or prev_joined
            # a list item's hard-wrapped text, indented under the item's first word ("- BERT: ... People
            # sometimes assume\n  BERT is Pre-LN because ...")
            or (item_text_col > 0 and abs(indent - item_text_col) <= 1 and prev_open_item))
        # A line that ends with a colon over list items leads into them: it starts a statement of its own, not the
        # rest of a long line before it ("...，而不需要 warmup 阶段\n在标准 Post-Norm Transformer 中：\n- ...").
        leads_list = (stripped.endswith((":", "：")) and k + 1 < len(lines)
                      and bool(_BULLET.match(text[lines[k + 1][0] : lines[k + 1][1]].strip())))
        line_new_sentence.append(own_sentence or (not carries_on and (new_block or label_at is not None or bullet or note
                                                                      or not prev_open or leads_list)))
        if bullet:
            marker = _BULLET.match(stripped)
            item_text_col = indent + (marker.end() if marker else 0)
        elif blank or heading or (not carries_on and indent < item_text_col - 1):
            item_text_col = 0
        if not blank:
            prev_open_item = item_text_col > 0 and not _ENDS_SENTENCE.search(stripped)
            prev_long = _width(stripped) >= _ITEM_WRAP_WIDTH
            prev_open = not _ENDS_SENTENCE.search(stripped) and not heading and _width(stripped) >= 50
            prev_dangling = not _ENDS_SENTENCE.search(stripped) and not heading and not stripped.endswith((":", "："))
            prev_unclosed = stripped.count("(") > stripped.count(")")
            prev_joined = bool(_DANGLING.search(stripped))
            prev_says = bool(_SAYS_AT_END.search(stripped))
            prev_cjk_end = CJK_CHAR.match(stripped[-1:]) is not None
            # (a line of prose ending with a colon is open however short: "其形式为：" over a displayed formula)
            prev_prose_open = (not display and not heading and not bullet and label_at is None and not in_code and not fence
                               and (_width(stripped) >= 40 or stripped.endswith((":", "：")))
                               and not _ENDS_SENTENCE.search(stripped)
                               and not any(t.kind == PUNCT and t.key == ARROW for t in ltoks))
        prev_blank = blank
    if not lay.block_kind:
        lay.block_kind.append("para")
        lay.heading_of.append(-1)
    # Sentences, clauses, parts.
    lay.block_of = [line_block[ln] for ln in tok_line]
    lay.sentence_of = [0] * n
    lay.clause_of = [0] * n
    lay.part_of = [0] * n
    lay.aside_of = [-1] * n
    asides: list[int] = []  # the open asides, innermost last
    aside_count = 0
    sent = clause = part = 0
    last_line = -1
    calls: list[bool] = []  # per open bracket: does it open a call ("O(log N)") rather than an aside
    dashed = _SPACED_DASH.search(text) is not None
    items = _inline_items(text)
    for i, tok in enumerate(tokens):
        ln = tok_line[i]
        if ln != last_line:
            if line_new_sentence[ln] and i > 0 and lay.sentence_of[i - 1] == sent:
                sent += 1
                clause += 1
                part += 1
                asides.clear()
            last_line = ln
        label = lay.label_of_line.get(ln)
        if (tok.kind == PUNCT and tok.key in "*_" and i > 0 and sent > 0 and lay.sentence_of[i - 1] == sent - 1
                and tokens[i - 1].end == tok.start and tokens[i - 1].key in ".!?*_"):
            # the emphasis closing right after a full stop ("**1. What goes wrong.** In Post-LN") ends that sentence
            lay.sentence_of[i], lay.clause_of[i], lay.part_of[i] = sent - 1, clause - 1, part - 1
            continue
        if (tok.kind == PUNCT and tok.key in ".!?" and not (label is not None and label[1] == i)
                and _sentence_end(text, tokens, i)):
            # (a run-in heading's stop, "**T5.** Pre-norm as well", labels the rest of its line, as a colon would)
            lay.sentence_of[i], lay.clause_of[i], lay.part_of[i] = sent, clause, part
            sent += 1
            clause += 1
            part += 1
            asides.clear()
            continue
        # An elaborating colon after a sentence-long head starts a clause ("X is wrong: it is flat"); a label's
        # colon, even mid-line ("...; Pre-LN: x + F(LN(x))"), does not.
        colon = (tok.kind == PUNCT and tok.key == ":" and not (label is not None and label[1] == i)
                 and not asides and _head_words(tokens, lay.clause_of, clause, i) > 6)  # "(LLaMA 2: 2,000 steps)"
        # A spaced bar left outside a table parts one side of a note from the other as a comma does ("Thm 1: Post
        # O(d√ln d), flat in L | Pre O(d√(ln d/L))")
        bar = (tok.kind == PUNCT and tok.key == "|" and text[tok.start - 1 : tok.start] == " "
               and text[tok.end : tok.end + 1] == " ")
        if (dashed and i > 0 and tok.start > tokens[i - 1].end and lay.sentence_of[i - 1] == sent
                and not (label is not None and label[1] in (i - 1, i))
                and _SPACED_DASH.search(text, tokens[i - 1].end, tok.start) and not _names_before_dash(tokens, lay.part_of, i, cased or text)):
            part += 1  # "和 L 无关——不是随深度变大": a dash parts the sentence as a comma does (the tokens leave it out)
        if tok.kind == PUNCT and i >= 2 and tokens[i - 2].start in items and tok.key == ")":
            pass  # the close of an item's marker: "(2)" opened its clause
        elif (_is_connective(tokens, i) or (tok.kind == PUNCT and tok.key == ";") or colon or _which_follows(tokens, i)
                or tok.start in items):
            # An elaborating colon ("X is wrong: it is flat") starts a clause; a label's colon does not.
            clause += 1
            part += 1
        elif tok.kind == PUNCT and tok.key in "()" and _call_bracket(text, tokens, i, calls, wide):
            pass  # "O(log N)", "LN(x + F(x))": the brackets of a call or a formula group the maths, they start no aside
        elif tok.kind == PUNCT and tok.key == "," and calls and calls[-1] and _between_arguments(tokens, i):
            pass  # "F(x, W)": a comma between a call's arguments parts nothing
        elif tok.kind == PUNCT and tok.key in ",()" or _PART_WORDS.at(tokens, i) or bar:
            part += 1
            if tok.kind == PUNCT and tok.key == "(":
                asides.append(aside_count if _prose_aside(text, tok.end) else (asides[-1] if asides else -1))
                aside_count += 1
            elif tok.kind == PUNCT and tok.key == ")" and asides:
                asides.pop()
        lay.sentence_of[i], lay.clause_of[i], lay.part_of[i] = sent, clause, part
        lay.aside_of[i] = asides[-1] if asides else -1
    lay.clause_span = _spans(lay.clause_of, n)
    lay.sentence_span = _spans(lay.sentence_of, n)
    lay.sentence_question = [b > a and any(tokens[j].kind == PUNCT and tokens[j].key == "?"
                                           for j in range(max(a, b - 2), b)) and not _tag_question(text, tokens, a, b)
                             for a, b in ((a, _before_emphasis(tokens, a, b)) for a, b in lay.sentence_span)]
    lay.question_from = [_unsure_aside(text, tokens, a, b) if asks else a
                         for (a, b), asks in zip(lay.sentence_span, lay.sentence_question, strict=True)]
    lay.mark_claims(set())
    return lay


#: A spoken aside that ends a statement with a question mark of doubt ("..., I think forty percent fewer steps?",
#: "— I think four billion parameters?", "，我记得是 40%？"): the doubt is about the aside, not the statement before it.
_UNSURE_ASIDE = re.compile(r"[,，:：—–]\s*(?:I think|I guess|I believe|I reckon|if I remember|if I recall|IIRC|something like|"
                           r"我记得|我印象中|好像是|大概是)[^,，:：—–]*$", re.IGNORECASE)


def _unsure_aside(text: str, tokens: list[Token], a: int, b: int) -> int:
    """The first token of a question sentence that its question mark asks about: the unsure aside at its end
    when the sentence before it states something, else the sentence's first token."""
    end = b
    while end > a and tokens[end - 1].kind == PUNCT:
        end -= 1
    m = _UNSURE_ASIDE.search(text, tokens[a].start, tokens[end - 1].end) if end > a else None
    if m is None:
        return a
    k = a
    while k < end and tokens[k].start <= m.start():
        k += 1
    words_before = sum(1 for j in range(a, k) if tokens[j].kind != PUNCT)
    return k if words_before >= 3 else a


#: Tags that turn a statement into a spoken check, not a question ("it grows with depth, right?", "对吧？").
_TAGS = re.compile(r"[,，]\s*(?:right|isn't it|is that right|you know|correct|yeah|对吧|是吧|对不对|是不是|没错吧)\s*[?？]\s*$")


def _tag_question(text: str, tokens: list[Token], a: int, b: int) -> bool:
    """The sentence is a statement with a tag ("..., right?"): the writer asserts it."""
    return _TAGS.search(text[tokens[a].start : tokens[b - 1].end]) is not None


_ASIDE_WORDS = re.compile(r"[A-Za-z]{2,}|" + CJK_CHAR.pattern)


def _prose_aside(text: str, start: int) -> bool:
    """Does the bracket opened just before `start` hold words ("(Q and K keep the normal init)"), not maths
    ("(2N)^(1/4)")?"""
    close = text.find(")", start, start + 200)
    return len(_ASIDE_WORDS.findall(text, start, close if close >= 0 else start + 200)) >= 2


#: Longer names written as calls ("LayerNorm(x)", "softmax(QK^T)").
_CALL_NAMES = frozenset({"layernorm", "rmsnorm", "softmax", "sqrt", "attn", "norm", "mean", "tanh", "relu", "gelu",
                         "sublayer", "attention", "deepnorm", "diag", "sigma", "alpha", "beta", "gamma", "theta"})


def _between_arguments(tokens: list[Token], i: int) -> bool:
    """The comma at i sits between two symbols ("F(x, W)", "W^{2, L}"), not between two phrases of prose in a
    bracket glued to a word ("norm（no mean subtraction, no bias）")."""
    def symbol(k: int) -> bool:
        return (0 <= k < len(tokens) and tokens[k].kind in (WORD, NUMBER) and len(tokens[k].key) <= 2
                and tokens[k].key not in ("no", "or", "an", "in", "is", "it", "to", "of", "on", "by", "as", "at"))
    return symbol(i - 1) and symbol(i + 1)


def _call_bracket(text: str, tokens: list[Token], i: int, calls: list[bool], wide: frozenset[int] = frozenset()) -> bool:
    """Is the bracket at token i one of a call ("O(", "LN(", "sqrt(") rather than of an aside? An opening bracket
    glued to the word or bracket before it opens a call, unless it was written full-width (`wide`); a closing
    bracket closes whatever its opening one did (`calls` is the stack of open brackets)."""
    tok = tokens[i]
    if tok.key == "(":
        before = text[tok.start - 1] if tok.start > 0 else " "
        glued = ((before.isascii() and before.isalnum()) or before in ")_^") and tok.start not in wide
        if glued and i > 0 and tokens[i - 1].kind == WORD:
            word = text[tokens[i - 1].start : tokens[i - 1].end].lower()
            glued = len(word) <= 4 or word in _CALL_NAMES
        if glued:
            close = text.find(")", tok.end, tok.end + 80)
            # "necessary（无 warm-up 8.45 BLEU）" is an aside
            glued = CJK_CHAR.search(text, tok.end, close if close >= 0 else tok.end + 80) is None
        calls.append(glued)
        return glued
    return calls.pop() if calls else False


def _head_words(tokens: list[Token], clause_of: list[int], clause: int, i: int) -> float:
    """Words between the start of the current clause and token i (a Chinese character counts half)."""
    words = 0.0
    j = i - 1
    while j >= 0 and clause_of[j] == clause and words <= 7:
        t = tokens[j]
        words += 1 if t.kind in (WORD, NUMBER) else 0.5 if t.kind == CJK else 0
        j -= 1
    return words


def _spans(index: list[int], n: int) -> list[tuple[int, int]]:
    count = (index[-1] + 1) if n else 0
    spans = [[n, -1] for _ in range(count)]
    for i, s in enumerate(index):
        if i < spans[s][0]:
            spans[s][0] = i
        spans[s][1] = i + 1
    return [(a, b) if b >= 0 else (0, 0) for a, b in spans]


def _before_emphasis(tokens: list[Token], a: int, b: int) -> int:
    """The end of tokens [a, b) without the emphasis marks that close it ("**Contradiction?**")."""
    while b > a and tokens[b - 1].kind == PUNCT and tokens[b - 1].key in "*_":
        b -= 1
    return b


def _sentence_end(text: str, tokens: list[Token], i: int) -> bool:
    tok = tokens[i]
    if tok.key == "." and (text[tok.start - 1 : tok.start] == "." or text[tok.end : tok.end + 1] == "."):
        return False  # "..." and "……" trail off; they do not end a claim
    if tok.key == "!" and text[tok.end : tok.end + 1] == "=":
        return False  # "a != b": not equal, no exclamation
    if text[tok.start] == "\u3002" or tok.key in "!?":
        return True
    nxt = text[tok.end : tok.end + 1]
    if nxt in ("*", "_"):  # "**What goes wrong.** In Post-LN ...": the emphasis closes after the full stop
        after = text[tok.end :].lstrip("*_")[:1]
        return not after or after.isspace()
    if nxt and not (nxt.isspace() or "\u3400" <= nxt <= "\u9fff" or nxt in "\"')"):
        return False
    prev = tokens[i - 1] if i > 0 else None
    if prev is not None and prev.kind == WORD and prev.end == tok.start and prev.key in ABBREVIATIONS:
        return prev.key in _LETTERS_OF_ABBREVIATIONS and not _letter_abbreviation(text, tokens, i)
    return True


#: One-letter words that end a sentence as an index ("the newest branch carries 1/i.", "... at layer l.") unless
#: they are part of "i.e." or "e.g." (also spaced: "i. e.").
_LETTERS_OF_ABBREVIATIONS = frozenset({"i", "e", "g"})
_SECOND_LETTER = {"i": "e", "e": "g"}


def _letter_abbreviation(text: str, tokens: list[Token], i: int) -> bool:
    """The dot at token i closes the first or last letter of "i.e." / "e.g." (or "i. e." / "e. g.")."""
    letter = tokens[i - 1]
    before = tokens[i - 2] if i > 1 else None
    if before is not None and before.key == "." and before.end >= letter.start - 1 and letter.key in ("e", "g"):
        first = tokens[i - 3] if i > 2 else None
        if first is not None and first.key == ("i" if letter.key == "e" else "e"):
            return True  # the closing dot of "i.e." / "e.g."
    second = _SECOND_LETTER.get(letter.key)
    rest = text[tokens[i].end : tokens[i].end + 4].lstrip()
    return second is not None and rest[:2].lower() == second + "."


#: Words that open a noun phrase ("but not the root cause", "but not a bound on the stream", "it's too small, the
#: effective step ...").
NOUN_PHRASE_OPENERS = frozenset({"the", "a", "an", "its", "their", "his", "her", "our", "my", "your"})

#: Words after which "since" is an adverb ("since has gone", "ever since then"), not "because".
_AFTER_ADVERB_SINCE = frozenset({"has", "have", "had", "then", "becam", "became", "adopt", "adopted", "switch",
                                 "switched", "gone", "move", "moved", "use", "used", "follow", "followed"})

#: Words after a "while" with no comma before it that tell a time ("... small while the model is fragile",
#: "while training is young"); a placement named right after it makes it a contrast ("while Pre-LN does not").
_TEMPORAL_WHILE_NEXT = frozenset({"the", "training", "it", "its", "we", "you", "gradients", "gradient", "adam"})

#: Words before "while" the noun ("for a while", "a little while", "all the while").
_BEFORE_NOUN_WHILE = frozenset({"a", "the", "little", "short", "long", "good", "worthwhil"})


#: What a sentence's clause "which" leads to when it draws a consequence (", which implies ...", ", which means ..."):
#: a new claim about another quantity, as after "so" ("θ ~ 1/√l, which implies 1 − cos ~ θ² ~ 1/l" gives 1/l to 1 − cos).
_CONSEQUENCE_VERBS = frozenset({"imply", "mean", "entail"})


#: A marker of an item run into a sentence: "(2)" or "(b)" standing alone between spaces.
_INLINE_MARKER = re.compile(r"(?:(?<=\s)|^)\(([1-9]|[a-h])\)(?=\s)", re.MULTILINE)


def _inline_items(text: str) -> frozenset[int]:
    """Where the markers of items run into a sentence start: "differs from (1) the Post-Norm of the original
    Transformer, (2) the Pre-Norm of GPT-2": each item is a clause of its own, as a list item is a block of its own.
    Only markers that count on from one another on a line ("(1) ... (2)", "(a) ... (b)") are items."""
    starts: set[int] = set()
    for line in re.finditer(r"[^\n]+", text):
        found = [(m.start() + line.start(), m.group(1)) for m in _INLINE_MARKER.finditer(line.group())]
        for (a, x), (b, y) in zip(found, found[1:], strict=False):
            if ord(y) == ord(x) + 1:
                starts.update((a, b))
    return frozenset(starts)


def _which_follows(tokens: list[Token], i: int) -> bool:
    """Does token i open ", which implies/means ..."?"""
    return (tokens[i].kind == WORD and tokens[i].key == "which" and i > 0 and tokens[i - 1].key == ","
            and i + 1 < len(tokens) and tokens[i + 1].kind == WORD and tokens[i + 1].key in _CONSEQUENCE_VERBS)


def _is_connective(tokens: list[Token], i: int) -> bool:
    n = CONNECTIVES.at(tokens, i)
    if not n:
        return False
    tok = tokens[i]
    if tok.kind == WORD:
        # "so that" / "so as to" state a purpose, "while" after a comma is a connective; "but also"
        # continues "not only".
        nxt = tokens[i + 1].key if i + 1 < len(tokens) and tokens[i + 1].kind == WORD else ""
        if tok.key == "but" and nxt == "also":
            return False
        if (tok.key == "but" and nxt == "not" and i + 2 < len(tokens) and tokens[i + 2].kind == WORD
                and tokens[i + 2].key in NOUN_PHRASE_OPENERS):
            return False  # "its unbalanced gradients are real but not the root cause": one predicate, half denied
        if tok.key == "becaus" and nxt == "of":
            return False  # "wastes depth because of vanishing gradients": a cause inside the claim
        if tok.key == "since" and (nxt in _AFTER_ADVERB_SINCE or i + 1 >= len(tokens) or tokens[i + 1].kind == PUNCT):
            return False  # "every LLM since has gone Pre-LN": "since" as an adverb of time
        prev = tokens[i - 1] if i > 0 else None
        if tok.key == "while" and prev is not None and prev.key in _BEFORE_NOUN_WHILE:
            return False  # "for a while", "after a short while": a stretch of time, not a connective
        if (tok.key == "while" and prev is not None and prev.kind != PUNCT and nxt in _TEMPORAL_WHILE_NEXT
                and not any(t.key in ("pre", "post") for t in tokens[i + 1 : i + 4])):
            return False  # "keeps the step small while the model is most sensitive": during, not a contrast
        if (tok.key in _MID_CLAUSE_ADVERBS and prev is not None and prev.kind != PUNCT
                and prev.key not in ("and", "so", "or")):
            return False  # "Each block's contribution therefore falls ...": an adverb, not a new clause
        if tok.key in _MID_CLAUSE_ADVERBS and prev is not None and prev.key == "," and _after_a_formula_aside(tokens, i - 1):
            return False  # "Each block's relative contribution, ||F_l|| / ||x_l||, therefore falls ..."
        if (tok.key in ("however", "though") and prev is not None and prev.key == "," and nxt == ""
                and i + 1 < len(tokens) and tokens[i + 1].key == "," and i >= 2 and tokens[i - 2].kind == WORD):
            return False  # "it is not, however, a bound on the stream": an aside inside the clause
        return not (tok.key == "so" and nxt in ("that", "as", "much", "far", "called"))
    word = "".join(t.key for t in tokens[i : i + n])
    if word == "而":
        nxt = tokens[i + 1].key if i + 1 < len(tokens) else ""
        prv = tokens[i - 1] if i > 0 else None
        if nxt in _ZH_NOT_CONNECTIVE_AFTER_ER:
            return False
        # Only a clause-initial 而 ("..., 而 Pre-LN ...") joins two claims; "随 L 增大而减小" is one claim.
        if prv is not None and prv.kind == CJK:
            return False
    if word in ("但", "却") and i > 0 and tokens[i - 1].key == "不":
        return False
    if word == "只是" and i > 0 and tokens[i - 1].kind != PUNCT:  # "Pre-LN 只是 O(log N)": "is only", no "but"
        return False
    return True


def _after_a_formula_aside(tokens: list[Token], close: int) -> bool:
    """The comma at `close` ends an aside that writes the noun phrase before it as a formula (", ||F_l|| / ||x_l||,"),
    and that noun phrase opens its sentence with no verb of its own: what follows the aside is the phrase's predicate,
    not a new clause."""
    k = close - 1
    symbols = 0
    while k >= 0 and close - k <= 16 and tokens[k].key != ",":
        t = tokens[k]
        if t.kind == PUNCT and t.key in _SENTENCE_STOPS:
            return False
        if t.kind == WORD and len(t.key) > 1 and t.key not in ("sqrt", "ln", "log", "norm"):
            return False  # words: an aside said in prose, or no aside at all
        symbols += t.kind == PUNCT and t.key in ("|", "‖", "/", "_", "^", "(", ")")
        k -= 1
    if k < 1 or tokens[k].key != "," or not symbols:
        return False
    j = k - 1
    words = 0
    while j >= 0 and not (tokens[j].kind == PUNCT and tokens[j].key in _PART_STOPS):
        if k - j > _NOUN_PHRASE_REACH:
            return False  # no noun phrase is that long: a clause of its own
        t = tokens[j]
        if t.kind == WORD and t.key in FUNCTION.en and t.key not in _WEAK_FUNCTION:
            return False
        words += t.kind == WORD
        j -= 1
    return words >= 1


#: Punctuation that ends a sentence or a clause of its own.
_SENTENCE_STOPS = frozenset({".", "!", "?", ";", ":", "。", "！", "？", "；", "："})
#: ... or a comma part.
_PART_STOPS = _SENTENCE_STOPS | {","}
#: How many tokens a noun phrase before a formula aside may hold.
_NOUN_PHRASE_REACH = 40


def is_consequence(tokens: list[Token], a: int) -> bool:
    """Does the clause starting at token a begin with "so"/"hence"/"所以"?"""
    return CONSEQUENCE.at(tokens, a) > 0


def is_cause(tokens: list[Token], a: int) -> bool:
    """Does the clause starting at token a begin with "because"/"since"/"因为"?"""
    return CAUSE.at(tokens, a) > 0


def _has_predicate(lay: Layout, a: int, b: int, vocabulary: set[int]) -> bool:
    """A function word or verb, an arrow, a relation or an equation, a label, or a short sentence: what keeps
    a claim from being a keyword soup.

    Prose is dense in function words (English about a third, Chinese one character in six or more); a run
    of terms with one stray "of" or "的" is still a soup. Notes and formulas are claims by their signs
    ("g_x = (g - mean(g) - y mean(g y))/s", "输入越大 → 梯度越小", "贡献↓"); a labelled line with a short value
    ("- BERT: LN, post", "- Results: 1000 layers") and a short sentence that ends with a full stop are
    claims too.
    """
    toks = lay.tokens
    english = cjk = function = 0
    marker = False
    for i in range(a, b):
        t = toks[i]
        if t.kind == WORD:
            english += len(t.key) > 1  # single letters are symbols (d, x, L), not words
            function += is_function_token(t) and not (i in vocabulary and t.key in _WEAK_FUNCTION)
        elif t.kind == CJK:
            cjk += 1
            function += is_function_token(t) and not (i in vocabulary and t.key in _WEAK_FUNCTION)
        elif t.kind == PUNCT and ((t.key == ARROW or t.key in RELATIONS) or (t.key == "=" and a < i < b - 1)):
            marker = True
    words = english + cjk / 2
    if marker:
        return True
    if words <= 12 and _ticked(toks, a, b):
        return True
    label = lay.block_label(a) or _sentence_label(lay, a, b)
    if (label is not None and label[1] < b and not _soup_label(lay, label)
            and (words <= 20 or (words <= 30 and function >= 0.05 * words))):
        return True
    end = _before_emphasis(toks, a, b)
    last = toks[end - 1]
    if 2 <= words <= 12 and last.kind == PUNCT and last.key in ".!" and b - 1 == lay.sentence_span[lay.sentence_of[a]][1] - 1:
        return True
    if 2 <= words <= 12 and _under_colon_lead(lay, a, b):
        return True
    if function == 0:
        return False
    return words < 12 or function / words >= SOUP_RATIO


def _sentence_label(lay: Layout, a: int, b: int) -> tuple[int, int] | None:
    """A label that opens a sentence inside a line, as a line label opens a line: "... near-identity. Fixes:
    LayerNorm Scaling (...), Mix-LN (...)" in a one-paragraph answer. One to three words, then a colon that falls
    inside the clause."""
    toks = lay.tokens
    s = lay.sentence_span[lay.sentence_of[a]][0]
    for k in range(s, min(s + 4, b)):
        t = toks[k]
        if t.kind == PUNCT and t.key in (":", "："):
            return (s, k) if a <= k and k > s else None
        if t.kind != WORD:
            return None
    return None


def _under_colon_lead(lay: Layout, a: int, b: int) -> bool:
    """The clause is a whole list item, or one of its ";"-separated notes, under a line that leads into the list with
    a colon ("Pre-LN 的优势：" above "- 训练更稳定"): the lead line is the items' label, so a short item is a note about it,
    as after "Pre-LN:".
    Not under a line that announces keywords or topics ("Keywords:")."""
    blk = lay.block_of[a]
    lead = lay.heading_of[blk] if lay.block_kind[blk] == "item" else -1
    if lead < 0 or lead == blk or not (lead in lay.lead_blocks or lay.block_kind[lead] == "heading"):
        return False
    lo, hi = bisect.bisect_left(lay.block_of, lead), bisect.bisect_right(lay.block_of, lead)
    if hi <= lo or lay.tokens[hi - 1].key not in (":", "："):
        return False
    if any(_SOUP_LABELS.at(lay.tokens, i) for i in range(lo, hi)):
        return False
    span = lay.sentence_span[lay.sentence_of[a]]
    if not all(lay.block_of[i] == blk for i in range(span[0], span[1])):
        return False
    # the whole item, or one of its ";"-separated notes ("- per-layer param grads; untied W; d >= 64")
    opens = a <= span[0] or lay.tokens[a].key in (";", "；")
    closes = b >= span[1] - 1 or (b < len(lay.tokens) and lay.tokens[b].key in (";", "；"))
    return opens and closes


#: Tick marks: a note graded as holding ("1000 layers (500+500) ✓"), a question answered yes ("Contradiction? ✓").
TICKS = frozenset({"✓", "✔", "✅", "☑"})


def _ticked(toks: list[Token], a: int, b: int) -> bool:
    """The clause ends with a tick (brackets after it aside): a note graded as true is a claim ("- 1000 layers
    (500+500) ✓", "- 不需要 warm-up ✓"). Only one tick: "LN ✓ warm-up ✓ RMSNorm ✓" is a checklist of words."""
    ticks = [i for i in range(a, b) if toks[i].kind == PUNCT and toks[i].key in TICKS]
    if len(ticks) != 1:
        return False
    return all(toks[i].kind == PUNCT for i in range(ticks[0] + 1, b))


_SOUP_LABELS = Cues(en=("keywords", "keyword", "tags", "tag", "terms", "buzzwords", "topics", "concepts"),
                    pairs=("key words", "key terms", "key concepts", "key ideas"),
                    zh=("关键词", "关键字", "标签", "术语", "关键概念", "核心概念", "相关概念"))


def _soup_label(lay: Layout, label: tuple[int, int]) -> bool:
    """"Keywords: ..." announces a list, not a claim."""
    return any(_SOUP_LABELS.at(lay.tokens, i) for i in range(*label))


#: Below this share of function words, twelve or more words are a keyword soup.
SOUP_RATIO = 0.1


#: Function words that do not make a claim when they sit inside a rubric term ("every layer", "per layer",
#: "残差流的"): a list of such terms is still a list. Verbs and copulas always count.
_WEAK_FUNCTION = frozenset({"every", "each", "all", "per", "of", "the", "a", "an", "in", "on", "at", "to", "with",
                            "for", "by", "from", "more", "less", "both", "only", "no", "very", "much", "as", "over",
                            "under", "between", "via", "into", "onto", "的", "在", "对", "从", "到", "为", "与", "及",
                            "和", "都", "很", "更", "最"})


_LIST_SEPARATORS = {",", "|", "/"}


def is_keyword_list(lay: Layout, a: int, b: int, vocabulary: set[int]) -> bool:
    """A run of bare terms: items separated by commas, 、, `|`, or spaces between Chinese terms, most
    of which carry no function word, verb, equation or arrow."""
    toks = lay.tokens
    text = lay.text
    items: list[list[int]] = [[]]
    depth = 0  # a comma inside brackets does not end an item: "Mix-LN (Post-LN early, Pre-LN deep)"
    bracketed: set[int] = set()  # the tokens inside brackets
    for i in range(a, b):
        t = toks[i]
        if depth:
            bracketed.add(i)
        if t.kind == PUNCT:
            if t.key in ("(", "[", "（"):
                depth += 1
            elif t.key in (")", "]", "）") and depth:
                depth -= 1
            if t.key in _LIST_SEPARATORS and items[-1] and not depth and not _division(toks, i):
                items.append([])
            elif t.key in ("=", ARROW) or t.key in RELATIONS:
                items[-1].append(-1)  # marks the item as a statement
            continue
        prev = toks[items[-1][-1]] if items[-1] and items[-1][-1] >= 0 else None
        # Between two Chinese characters, a space separates items (mixed prose puts spaces only
        # around English words).
        if (prev is not None and prev.kind == CJK and t.kind == CJK and t.start > prev.end
                and text[prev.end : t.start].isspace()):
            items.append([])
        if t.kind in (WORD, CJK, NUMBER):
            items[-1].append(i)
    # (an item of one-letter symbols counts when it is a term of its own: an order of growth such as "O(N)")
    real = [it for it in items if any(j < 0 or toks[j].kind == CJK or len(toks[j].key) >= 2 for j in it)
            or (it and it[0] >= 0 and toks[it[0]].key in _ORDER_NAMES and _call_item(toks, it, b))]
    if len(real) < 5:
        return False
    bare = sum(1 for it in real if (_call_item(toks, it, b) or _item_words(toks, it, text) <= 3) and not any(
        j < 0 or (is_function_token(toks[j]) and not (j in vocabulary and toks[j].key in _WEAK_FUNCTION)
                  and not _symbol_letter(toks, j, bracketed) and not _modifier_of_a_noun(lay, it, j)) for j in it))
    return bare >= 0.7 * len(real)


def _division(toks: list[Token], i: int) -> bool:
    """The slash at token i divides: written tight between operands, one of them a number, a bracket or a one-letter
    symbol ("1/s", "var/(var+eps)", "yy^T/D"); "Pre-LN/Post-LN" and "GPT-2 / nanoGPT" list."""
    if toks[i].key != "/" or i == 0 or i + 1 >= len(toks):
        return False
    before, after = toks[i - 1], toks[i + 1]
    if before.end != toks[i].start or after.start != toks[i].end:
        return False
    return any(t.kind == NUMBER or t.key in ("(", ")") or (t.kind == WORD and len(t.key) == 1) for t in (before, after))


def _symbol_letter(toks: list[Token], j: int, bracketed: set[int]) -> bool:
    """A one-letter word inside brackets is a symbol, not the pronoun or article it spells ("(I - 11^T/D)")."""
    return j in bracketed and len(toks[j].key) == 1


def _modifier_of_a_noun(lay: Layout, item: list[int], j: int) -> bool:
    """The first of an item's two words is a participle that names a kind of the second, a noun: "vanishing
    gradients", "fixed point" are terms, not statements."""
    if len(item) != 2 or item[0] != j or item[1] < 0:
        return False
    tok, noun = lay.tokens[j], lay.tokens[item[1]]
    raw = lay.text[tok.start : tok.end].lower()
    return (tok.kind == WORD and noun.kind == WORD and raw.endswith(("ing", "ed")) and len(raw) > 4
            and not is_function_token(noun))


#: The names of an order of growth ("O(N)", "Θ(d)", "Ω(1)").
_ORDER_NAMES = frozenset({"o", "θ", "theta", "ω", "omega"})


def _call_item(toks: list[Token], item: list[int], end: int) -> bool:
    """The item is one bracketed expression after a name ("min(step^-0.5, step * warmup^-1.5)", "O(d sqrt(ln d))"):
    a single term however many symbols it holds. (Its bracket closes inside the clause, which ends at `end`.)"""
    words = [j for j in item if j >= 0]
    if len(words) < 2 or words[0] + 1 >= len(toks) or toks[words[0] + 1].key != "(":
        return False
    depth = 0
    for k in range(words[0] + 1, end):
        if toks[k].kind == PUNCT and toks[k].key == "(":
            depth += 1
        elif toks[k].kind == PUNCT and toks[k].key == ")":
            depth -= 1
            if depth == 0:
                return k > words[-1]
    return False


#: "X is all about A, B and C", "the key is A, B, C": what follows names topics, it claims nothing about them.
_TOPIC_CUES = Cues(pairs=("all about", "comes down to", "come down to", "boils down to",
                          "revolves around", "the key is", "the keys are", "key ingredients", "it involves",
                          "the main ideas are", "the main concepts are", "a story about", "the story of",
                          "a matter of", "a question of", "interplay of", "interplay between",
                          # "a faithful experiment should take into account A, B, C and D"
                          "take into account", "takes into account", "taking into account", "taken into account"),
                   zh=("关键词是", "无非就是", "核心概念有", "涉及到"))


def _topic_list(lay: Layout, a: int, b: int) -> bool:
    """A clause that names topics after a cue such as "is all about" or "the key is", three or more of them,
    each a few words ("RMSNorm is all about the root mean square, scale invariance, re-centering and the
    Jacobian"): a list dressed as a sentence."""
    toks = lay.tokens
    starters = _TOPIC_CUES.starters
    for i in range(a, b):
        if toks[i].key not in starters:
            continue
        n = _TOPIC_CUES.at(toks, i)
        if not n:
            continue
        items, words = 1, 0.0
        for j in range(i + n, b):
            t = toks[j]
            if (t.kind == PUNCT and t.key in (",", "、")) or (t.kind in (WORD, CJK) and t.key in ("and", "or", "和", "与")):
                if words:
                    items += 1
                words = 0.0
                continue
            if t.kind == PUNCT and t.key in (".", ";", ":"):
                break
            words += 1 if t.kind in (WORD, NUMBER) else 0.5 if t.kind == CJK else 0
            if words > 5:
                # a long last item after three or more ("..., the identity path and representation collapse working
                # together across layers") still ends a list
                return items >= 3
        return items >= 3
    return False


def _item_words(toks: list[Token], item: list[int], text: str) -> float:
    """An item of four words or more describes something ("LayerNorm Scaling (LN output x 1/sqrt(l))"); a list
    of terms has items of one to three words."""
    return sum(0.5 if toks[j].kind == CJK else 1 for j in item if j >= 0 and (toks[j].kind != WORD or len(toks[j].key) > 1)
               and not _version_of_a_name(toks, j, text))


def _version_of_a_name(toks: list[Token], j: int, text: str) -> bool:
    """The number at token j is the version of the name hyphened to it ("GPT-2", "LLaMA-3"): one word with it."""
    return (toks[j].kind == NUMBER and j >= 1 and toks[j - 1].kind == WORD
            and text[toks[j - 1].end : toks[j].start] == "-")
