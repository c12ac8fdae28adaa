"""Score an answer against a card's rubric: deterministic, explainable, bounded in time.

Points are generous about form and strict about meaning: a frame earns a point when its clause reads as
a claim, it is about the point's subject (however that subject was found), and its polarity matches the
point's stance. Mistakes are precision-first: a frame is charged only when the wrong claim is explicit
(its subject named in its own clause or line label), affirmed, asserted plainly (not hedged, conditioned,
asked, reported, quoted or a purpose), not part of a comparison phrase, and not at the same time the
correct claim. When in doubt, nothing is charged.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from weakref import WeakKeyDictionary

from lndrill.cards.schema import Card
from lndrill.scoring.attribution import (
    CLEFT_OPENERS,
    RELATIVE_NOUN_CLAUSE,
    RELATIVE_PREPOSITIONS,
    Attribution,
    Mention,
)
from lndrill.scoring.form import read_form
from lndrill.scoring.lexicon import ARROW, ARTICLES, CJK, COPULAS, NUMBER, PUNCT, WORD, Cues, Token, stem
from lndrill.scoring.matcher import COMPARED_WITH, Analysis, Frame
from lndrill.scoring.normalize import MAX_SCORED_CHARS, TABLE_COLON
from lndrill.scoring.polarity import is_negation
from lndrill.scoring.result import MistakeResult, PointResult, ScoreResult, SectionResult
from lndrill.scoring.rubric import PLACEMENTS, Claim, Matcher, Rubric, compile_rubric
from lndrill.scoring.structure import CAUSE, NOUN_PHRASE_OPENERS, Layout, is_function_token

_RUBRICS: WeakKeyDictionary[Card, Rubric] = WeakKeyDictionary()
#: A concrete value in an answer: a number, decimals included ("4000", "0.98", "8.45").
_VALUE = re.compile(r"\d+(?:\.\d+)?")
#: Filler that joins topics without a claim about them (see result.FILLER_LIMIT), matched in the lower-cased text.
_FILLER = re.compile(r"fundamentally|interplay|all (?:inter)?connected|synerg\w*|holistic\w*|harmoni[sz]\w*"
                     r"|inextricabl\w*|intertwined|hand in hand|at the intersection of|manifestation of"
                     r"|(?<![a-z])[a-z]{1,20}-aware|leverag\w*|paradigm\w*|is all about"
                     r"|协同|内在联系|深度耦合|范式|是一个整体|密不可分|息息相关|相辅相成|环环相扣")


def rubric_for(card: Card) -> Rubric:
    """The compiled rubric of a card (compiled once, then cached)."""
    try:
        return _RUBRICS[card]
    except (KeyError, TypeError):
        pass
    rubric = compile_rubric(card)
    rubric.given_points = _given_points(card, rubric)
    try:
        _RUBRICS[card] = rubric
    except TypeError:
        pass
    return rubric


def _given_points(card: Card, rubric: Rubric) -> frozenset[str]:
    """The points the card's own question states: its prompt (en and zh) read as an answer, with the check that
    drops echoes of the prompt switched off (it would drop the whole prompt)."""
    plain = replace(rubric, prompt_grams=frozenset())
    given: set[str] = set()
    for prompt in (card.prompt.en, card.prompt.zh):
        answer = Analysis(plain, prompt)
        given.update(p.id for p in card.points() if find_point(answer, plain.point_claims[p.id]))
    return frozenset(given)


Evidence = tuple[str, tuple[tuple[int, int], ...]]


def _fits_point(claim: Claim, frame: Frame, *, alike: bool = True) -> bool:
    """The frame's subject is the one the claim is about (or, with `alike`, one the subject is said to be like)."""
    subject = frame.who.subject
    if claim.about is None or subject == claim.about or claim.about in frame.who.also or (
            alike and claim.about in frame.who.alike):
        return True
    # A formula's structure names its placement; when no subject is named in its sentence (only further
    # away, or nowhere) it still earns the point (it can never be a mistake that way). With a card's default
    # subject it counts for that subject only. Its structure names a placement, not a model: inherited from the
    # paragraph, another design's name keeps it ("Sandwich-LN ... x + LN(F(LN(x)))" earns nothing about Gemma 2).
    if subject is not None and subject not in PLACEMENTS and claim.about not in PLACEMENTS:
        return False
    return frame.kind == "formula" and frame.who.source in (None, "paragraph", "pronoun", "heading")


#: Words that may stand before a name that still opens its part ("the Pre-LN block is ...").
_DETERMINERS = ARTICLES | {"this", "that", "its", "their", "our"}


def _named_in_passing(answer: Analysis, frame: Frame) -> bool:
    """A formula in a later part of a sentence that names another placement only in passing, not as the subject
    of a part of its own ("two norms, the usual Pre-LN input norm and a second one on the way out, so the block
    becomes x + LN(F(LN(x)))"; "it's basically Pre-LN but you add a norm at the end, so you get x plus LN of F of
    LN of x"): the formula is read as when no subject is named at all (for the card's own subject, or by its
    structure alone). A name that opens its part ("Pre-LN is the heavier variant: x + LN(F(LN(x)))") is the
    formula's subject. Credit only."""
    at = frame.who.at
    if frame.kind != "formula" or frame.who.source != "sentence" or at is None:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    if at >= frame.start or lay.sentence_of[at] != lay.sentence_of[frame.start]:
        return False  # a name in another sentence is paired with the formula, not mentioned beside it
    k = lay.part_opening(at)
    return any(t.kind == WORD and t.key not in _DETERMINERS for t in toks[k:at])


def _fits_mistake(claim: Claim, frame: Frame) -> bool:
    subject = frame.who.subject
    if claim.any_subject_but_about:
        return frame.who.explicit and subject is not None and subject != claim.about and subject in claim.rivals
    if claim.about is None:
        return True
    return frame.who.explicit and (subject == claim.about or claim.about in frame.who.also)


def _plain(frame: Frame) -> bool:
    """Asserted plainly enough to be charged. "can" hedges an affirmation but is the claim itself in a denial
    ("Post-LN can be trained without warm-up")."""
    qualified = frame.qualifier is not None and not (frame.qualifier == "can" and not frame.affirmed)
    return (frame.asserted and not qualified and not frame.quoted and not frame.contrast and frame.firm
            and not frame.straddles_aside)


#: Words that make a capability universal ("can be trained at any learning rate"). English only: a Chinese "can" (可以)
#: reads as a hedge, never as this capability.
_UNIVERSAL = frozenset({"any", "every", "whatever", "regardless"})


def _universal_capability(answer: Analysis, frame: Frame) -> bool:
    """An affirmed "can" whose own matched words say "any"/"every" ("Post-LN can be trained at any learning rate
    without warm-up"): a capability without limits is the claim itself, not a hedge of it."""
    if frame.qualifier != "can" or not frame.affirmed or not _plain(replace(frame, qualifier=None)):
        return False
    toks = answer.tokens
    return any(toks[k].key in _UNIVERSAL for a, b in frame.terms for k in range(a, min(b, len(toks))))


#: How much a charged mistake costs, times the card's `penalty`. Graders take 15-20 points off a mostly right
#: answer for each real error; at 1.0 the scorer took 5-8. Measured over one global factor (not per answer):
#: 1.5 raised rho on all four blind groups (batches b-d 0.878 -> 0.880, e 0.817 -> 0.823, f 0.722 -> 0.731) and
#: on real text (0.861 -> 0.865); 2.0 and more lost on real text.
MISTAKE_WEIGHT = 1.5

#: Words that set one statement against the next inside a clause ("BERT is Post-LN, while GPT-2 is Pre-LN").
_DIVIDERS = frozenset({"while", "whereas", "whilst", "but", "但", "但是", "然而"})


def _divided(answer: Analysis, frame: Frame) -> bool:
    """The frame's words sit on both sides of an arrow or a 'while'/'whereas'/'but' ("Post-LN (2017-2019) ->
    Pre-LN (GPT-2 on)"; "BERT ... (Post-LN), while GPT-2 ..."), or of a comma in a line of arrow notes ("-> old
    stuff shrinks, newest branch big share ->"): two statements, not one claim to charge."""
    toks, text = answer.lay.tokens, answer.lay.text
    terms = sorted(frame.terms)
    if len({answer.lay.part_of[a] for a, _ in terms}) > 1 and (
            answer.lay.line_of[frame.start] in answer.lay.arrow_lines or answer.lay.answers_its_label(frame.start)):
        return True
    for (_, b), (a2, _) in zip(terms, terms[1:], strict=False):
        for j in range(b, a2):
            t = toks[j]
            if t.kind == PUNCT and t.key == ARROW:
                return True
            if t.kind in (WORD, CJK) and text[t.start : t.end].lower() in _DIVIDERS:
                return True
            if t.kind == WORD and t.key == "that" and j > 0 and toks[j - 1].key == "and":
                return True  # "found that X, and that Y": two things found
            if t.kind == CJK and j + 1 < a2 and text[t.start : toks[j + 1].end] in _DIVIDERS:
                return True
    return False


#: What a speaker says right after a slip to take it back ("beta2 0.999 -- no, sorry, 0.98").
_RETRACTIONS = Cues(en=("sorry", "oops", "correction"), pairs=("i mean", "i meant", "scratch that", "no wait", "wait no"),
                    zh=("不对", "说错", "口误", "更正"))


#: "..., and the final LayerNorm is part of that setup": a coordinator and a new subject open a clause of its own.
_COORDINATORS = frozenset({"and", "but", "while", "whereas", "so", "和", "而", "但"})
_NEW_SUBJECTS = frozenset({"the", "its", "their", "this", "these", "it", "they", "we", "you"})
#: Chinese words that open a comma part as a further statement ("，并且 init 时把 FFN 乘上 β"); with an object of its own
#: (把/将 ...) its verb makes a new claim, not one with the words before the comma.
_ZH_FURTHER = Cues(zh=("并且", "而且", "此外", "另外", "同时"))


#: Words that open a relative clause about the noun right before them ("an update amplification that grows").
_RELATIVES = frozenset({"that", "which", "who"})
#: How many words may stand between a frame's word and the relative word for the clause still to be about it
#: ("the gradient norm that grows", "the gradient at init which grows").
_RELATIVE_REACH = 2
#: Prepositions that bring in another noun, which a relative clause after it may describe ("... by a stream norm that
#: grows with depth": what grows is the norm). Not the instrumental with/via/through (in "Admin fixes it with an init
#: that replaces the LayerNorm" the init is Admin's, and so is the claim), nor "of" ("the vanishing-gradient problem of
#: Post-LN that Xiong proved": the relative is about the whole phrase).
_NOUN_PREPOSITIONS = frozenset({"by", "from", "than", "into", "to", "against", "over"})


#: What sets aside the words right after it ("BERT kept Post-LN rather than the later pre-norm variant", "DeepNet
#: extends Admin rather than contradicting it", "而不是前置").
_REJECTING = Cues(pairs=("rather than", "instead of"), zh=("而不是", "而非"))
#: What makes the amount right after it small ("needs little warm-up", "needs minimal warm-up"): a hedged claim.
_DIMINISHING = Cues(en=("little", "minimal", "barely", "hardly", "scarcely", "fewer"), zh=("很少", "少量", "一点点"))


def _set_aside(answer: Analysis, frame: Frame, *, figures: bool = True) -> bool:
    """One of the frame's words is what the answer sets aside ("rather than X", "instead of X", "而不是 X"): the
    alternative it does not claim. Without `figures`, a figure set aside does not count ("in 500k instead of 700k
    updates" compares two values and says both: credit for the pair)."""
    toks, text = answer.lay.tokens, answer.lay.text
    for a, _ in frame.terms:
        for j in range(a - 1, max(-1, a - 4), -1):
            t = toks[j]
            if t.kind == PUNCT or "\n" in text[t.end : toks[j + 1].start]:
                break
            if t.kind in (WORD, CJK) and _REJECTING.ends_at(toks, j) >= 0:
                return figures or toks[a].kind != NUMBER
    return False


def _played_down(answer: Analysis, frame: Frame) -> bool:
    """One of the frame's words comes right after an amount called small ("needs little warm-up"; "a little
    warm-up" is some): a hedged claim."""
    lay, toks, text = answer.lay, answer.lay.tokens, answer.lay.text
    # (across a line break only inside one hard-wrapped sentence: "fewer\ndivergences")
    return any(a > 0 and ("\n" not in text[toks[a - 1].end : toks[a].start] or lay.sentence_of[a - 1] == lay.sentence_of[a])
               and _DIMINISHING.at(toks, a - 1) and not (a > 1 and toks[a - 2].key == "a") for a, _ in frame.terms)


#: What a claim's noun is said to be right after it when the answer grants it only in a smaller measure
#: ("Pre-LN's update amplification is milder", "... is reduced rather than removed", "放大效应小得多").
_LESSER = Cues(en=("milder", "weaker", "smaller", "reduced", "limited", "logarithmic"),
               zh=("较小", "更小", "小得多", "弱得多", "较弱", "更弱", "减弱", "轻得多", "温和得多"))
_LESSER_LINKS = frozenset(stem(w) for w in ("is", "are", "was", "were", "gets", "becomes", "stays", "remains", "much", "far",
                                             "only"))


def _granted_in_lesser_measure(answer: Analysis, frame: Frame) -> bool:
    """Right after the frame's last word the answer says the thing is milder, smaller or reduced ("Pre-LN's update
    amplification is milder (O(log N) per Admin)"): a comparison granting less of it, not the plain claim."""
    toks = answer.lay.tokens
    j = frame.end
    if j < len(toks) and toks[j].kind == CJK:  # "放大效应小得多": the noun may run on a character or two
        return any(_LESSER.at(toks, k) > 0 for k in range(j, min(len(toks), j + 4)) if all(
            toks[q].kind == CJK for q in range(j, k + 1)))
    linked = False  # a linking verb first ("is milder"): "α damps the gradients" is a verb of its own
    for _ in range(3):
        if j < len(toks) and toks[j].kind == WORD and toks[j].key in _LESSER_LINKS:
            linked, j = True, j + 1
    return linked and j < len(toks) and toks[j].kind == WORD and _LESSER.at(toks, j) > 0


def _across_cell_items(answer: Analysis, frame: Frame) -> bool:
    """Two of the frame's words are items of one table cell, a comma between them ("| Without it | logit scale
    grows with depth, over-sharp softmax, large head gradients |"): a list of separate statements."""
    toks, lay = answer.lay.tokens, answer.lay
    terms = sorted(frame.terms)
    for (_, b), (a2, _) in zip(terms, terms[1:], strict=False):
        commas = [j for j in range(b, a2) if toks[j].kind == PUNCT and toks[j].key == "," and lay.aside_of[j] < 0]
        if commas and _in_table_cell(answer, commas[0]):
            return True
    return False


def _in_table_cell(answer: Analysis, j: int) -> bool:
    """Token j is in a table cell: after the "∶" a table row is rewritten with, on its line."""
    text, tok = answer.lay.text, answer.lay.tokens[j]
    line_start = text.rfind("\n", 0, tok.start) + 1
    return TABLE_COLON in text[line_start : tok.start]


#: A table cell that answers its row label rather than giving a value of its own ("| Stability | good | poor |"; the
#: "yes" and "not" that tables' yes/no marks are read as, see normalize).
_AFFIRMING_CELL = re.compile(r"\s*(?:yes|not|good|high|strong|excellent|better|best|好|高|强|稳|更好|更高|更强|更稳)(?![a-z])")


def _row_label_only(answer: Analysis, frame: Frame) -> bool:
    """All of the frame's words are in a table row's label (or column header), before the "∶" its cell follows,
    and the cell gives a value of its own ("| Stability at depth | fragile | robust |"): the label names what the
    row is about, and the cell, not the label, says what holds for the column. A cell that only affirms the label
    ("yes", "good") or denies it ("✗", read as "not") still lets the label's words be the claim."""
    text, toks = answer.lay.text, answer.lay.tokens
    last = toks[max(b for _, b in frame.terms) - 1]
    line_end = text.find("\n", last.end)
    line = text[last.end : line_end if line_end >= 0 else len(text)]
    colon = line.find(TABLE_COLON)
    if colon < 0 or _in_table_cell(answer, frame.start):
        return False
    return _AFFIRMING_CELL.match(line, colon + 1) is None


def _new_clause_between(answer: Analysis, frame: Frame) -> bool:
    """Between two of the frame's words a comma part opens with a coordinator and a new subject ("doesn't need
    warm-up, and the final LayerNorm is part of that setup") or with "where"/"when" (", where a diverged run costs
    a fortune"): the first words' verb has its own object there, so the words do not make one claim. Likewise
    a relative clause that describes another noun ("large gradients and an update amplification that grows with
    depth": what grows is the amplification; "..., and there's Admin's amplification thing where the output change
    grows with depth")."""
    toks, lay = answer.lay.tokens, answer.lay
    terms = sorted(frame.terms)
    for (_, b), (a2, b2) in zip(terms, terms[1:], strict=False):
        for j in range(b, a2):
            # (the relative may follow its preposition: "adds the mechanism by which gradients then vanish")
            noun = j - 2 if j >= 2 and toks[j].key == "which" and toks[j - 1].key in RELATIVE_PREPOSITIONS else j - 1
            # ("where" too, which always brings its own subject: "..., and there's Admin's amplification thing where
            # the output change after an update grows linearly with depth": what grows is the output change)
            if (toks[j].kind == WORD and (toks[j].key in _RELATIVES or toks[j].key == "where")
                    and noun - b > _RELATIVE_REACH - 1
                    and toks[noun].kind == WORD and not is_function_token(toks[noun])
                    and any(toks[k].key in ("and", "or", ",") or toks[k].key in _NOUN_PREPOSITIONS
                            for k in range(b, j))):
                # (its noun in another conjunct or after a preposition: "divides the output-side gradients by a
                # stream norm that grows with depth"; not "after that", not "Admin fixes it with an init that
                # replaces the LayerNorm", where the init is Admin's instrument)
                return True
            if lay.part_of[j] != lay.part_of[j - 1] and toks[j].kind == PUNCT and toks[j].key == ",":
                k = j + 1
                if k + 1 <= a2 and toks[k].key in _COORDINATORS and toks[k + 1].key in _NEW_SUBJECTS:
                    return True
                # "... is the culprit, and gradient vanishing through LN is a side effect": the last words open
                # the new part and have a verb of their own there, so they are its subject, not the object
                if k + 1 == a2 and toks[k].key in _COORDINATORS and (a2, b2) == terms[-1] and _own_copula(lay, b2):
                    return True
                # "Post-LN's bound is flat in L, and Pre-LN's shrinks with depth": the part opens with another
                # subject, whose own claim the later words are
                if k + 1 < a2 and toks[k].key in _COORDINATORS and _names_another(answer, frame, k + 1):
                    return True
                # "goes deep, and at LLM scale, where a diverged run costs a fortune, ...": a situation described
                # in its own relative part is not the first words' claim
                if k < a2 and toks[k].kind == WORD and toks[k].key in ("where", "when", "whereby"):
                    return True
                # "shortcut 乘了 α，并且 init 时把 FFN 乘上 β": a further statement whose verb takes its own object (把/将),
                # not the same claim ("GLM-130B 采用了 DeepNorm，而且照搬了论文的 α" goes on about GLM-130B)
                if k < a2 and _ZH_FURTHER.at(toks, k) and any(toks[q].key in ("把", "将") for q in range(k, a2)):
                    return True
    return False


#: How far after its last word a noun phrase's own copula may come ("gradient vanishing through LN is").
_COPULA_REACH = 4


def _predicate_ends_earlier_part(answer: Analysis, frame: Frame) -> bool:
    """One of the frame's words closes a comma part that has words of its own before it ("某些坐标的 v_t 偶然偏小",
    "some coordinates' v_t is by chance too small") and the next term opens a later part that goes on to a
    predicate of its own ("有效步长就会很大", "the effective step then becomes huge"): the closing word is said of
    its own part's subject, not of the later words."""
    lay, toks = answer.lay, answer.lay.tokens
    content = (WORD, CJK)
    terms = sorted(frame.terms)
    for (a1, b1), (a2, b2) in zip(terms, terms[1:], strict=False):
        p1, p2 = lay.part_of[b1 - 1], lay.part_of[a2]
        if p1 == p2 or (frame.who.at is not None and lay.part_of[frame.who.at] == p1):
            continue  # (the claim's own subject named in the first part: the later part goes on about it)
        k = b1
        while k < a2 and lay.part_of[k] == p1 and toks[k].kind == PUNCT:
            k += 1
        if k < a2 and lay.part_of[k] == p1:
            continue  # the word does not close its part
        j = a1 - 1
        own_words = False
        while j >= 0 and lay.part_of[j] == p1:
            if toks[j].kind in content and not is_function_token(toks[j]):
                own_words = True
                break
            j -= 1
        if not own_words:
            continue
        # the later term opens its part, perhaps after "the" (an apposition, "CogView, a 10B model", opens with
        # an indefinite article and describes the name before it; "它"/"it" goes on about the first part's topic)
        k = a2 - 1
        while k >= 0 and lay.part_of[k] == p2 and (toks[k].kind == PUNCT or toks[k].key == "the"):
            k -= 1
        if k >= 0 and lay.part_of[k] == p2:
            continue
        k, last = b2, lay.part_of[b2 - 1]  # (a term may run over "、" into the next part: "query、key")
        while k < len(toks) and lay.part_of[k] == last:
            if (toks[k].kind == CJK and (not is_function_token(toks[k]) or toks[k].key in ("是", "为"))) or (
                    toks[k].kind == WORD and (toks[k].key in COPULAS or toks[k].key in _THEN_VERBS)):
                return True  # (是, 为 are copulas: "‖J‖_F 只是 2.3 → 3.1", "W^Q, W^K 的 gain 为 1", "its norm is only 2.3 -> 3.1")
            k += 1
    return False


def _parts_apart(answer: Analysis, frame: Frame) -> bool:
    """Two of the frame's words, one after the other, sit in comma parts with a whole part between them, and each
    is wrapped in its own part's words: the first has words before and after it in its part, the second before it
    ("方差随 l 线性变大，第 l 个分支只占约 1/l，累加起来输出变化只有 O(log N)": what grows linearly is the variance, not the
    output change; so too "..., 输出变化只有 O(log N)", the second word opening its part). Each part says something of its
    own; the words do not make one claim. A part the first word
    closes ("Pre-LN 的输出变化，按 Admin 的分析，也线性增长") leaves it the subject of what follows."""
    lay, toks = answer.lay, answer.lay.tokens
    content = (WORD, CJK)

    def wrapped(lo: int, hi: int, part: int) -> bool:
        return any(lay.part_of[k] == part and toks[k].kind in content and not is_function_token(toks[k])
                   for k in range(lo, hi))

    terms = sorted(frame.terms)
    for (a1, b1), (a2, b2) in zip(terms, terms[1:], strict=False):
        p1, p2 = lay.part_of[b1 - 1], lay.part_of[a2]
        if p2 - p1 < 2 or not wrapped(lay.part_opening(a1), a1, p1):
            continue  # (a first word that opens its part is the topic the later parts go on about: "T5：..., 属于 Post-LN")
        after = next((k for k in range(b1, a2) if lay.part_of[k] != p1), a2)
        before = next((k for k in range(a2 - 1, b1 - 1, -1) if lay.part_of[k] != p2), b1 - 1) + 1
        # Chinese runs only: their commas part predications of their own, where English ones part asides and lists
        # ("the gradient is large, and according to Xiong it grows with depth"); and not when the second part
        # goes on about the first's subject (它, 其, 这)
        # (the second word may also open its part and be said something of there: "..., 输出变化只有 O(log N)")
        end2 = next((k for k in range(b2, min(len(toks), b2 + 12)) if lay.part_of[k] != p2), min(len(toks), b2 + 12))
        chinese = any(toks[k].kind == CJK for k in range(b1, after)) and any(
            toks[k].kind == CJK for k in (*range(before, a2), *range(b2, end2)))
        if chinese and wrapped(b1, after, p1) and (wrapped(before, a2, p2) or wrapped(b2, end2, p2)) and not any(
                toks[k].key in _ZH_ANAPHORA for k in range(before, a2)):
            return True
    return False


#: Chinese words that take up the subject of an earlier part ("..., 它只有 O(log N)").
_ZH_ANAPHORA = frozenset({"它", "其", "这", "该", "此", "他", "她"})


#: English words that show a later comma part has a predicate of its own ("the effective step then becomes huge"),
#: besides the copulas; a noun phrase in apposition ("CogView, the 12B model from 2021") has none.
_THEN_VERBS = frozenset({"then", "become", "becomes", "became", "get", "gets", "got", "will", "would", "stays", "stay",
                         "remains", "remain", "grows", "grow", "shrinks", "shrink", "explodes", "explode", "blows"})


def _introduced_after_its_subject(answer: Analysis, frame: Frame) -> bool:
    """The claim's words sit in a comma part that opens with "there is"/"there's" and its subject was named only
    in an earlier part ("ResiDual keeps a Post-LN path, there's the Curse of Depth paper, which scales ..."): a
    run-on sentence has moved on to something new, and the words describe that, not the earlier subject."""
    lay, toks = answer.lay, answer.lay.tokens
    at = frame.who.at
    if at is None or at >= frame.start or lay.part_of[at] == lay.part_of[frame.start]:
        return False
    k = lay.part_opening(frame.start)
    return (k + 1 < len(toks) and toks[k].key == "there"
            and (toks[k + 1].key in ("is", "are", "was", "were") or lay.text[toks[k].start:toks[k].end] == "there's"))


def _own_copula(lay: Layout, b: int) -> bool:
    """A copula ("is", "are" ...) follows within `_COPULA_REACH` words of token b, in the same comma part: the
    noun phrase ending there has a predicate of its own ("gradient vanishing ... is a side effect")."""
    toks = lay.tokens
    for k in range(b, min(b + _COPULA_REACH, len(toks))):
        if lay.part_of[k] != lay.part_of[b - 1]:
            return False
        if toks[k].kind == WORD and toks[k].key in COPULAS:
            return True
    return False


def _subject_opens_later_conjunct(answer: Analysis, frame: Frame) -> bool:
    """The subject is named only after the claim's words, right after "and"/"but"/"while"/而 in a later part ("LN's
    Jacobian has rank d - 2 and RMSNorm's d - 1"): it opens a statement of its own, so the words before are not
    plainly about it. (Credit still takes it: "is what we now call Post-LN, and BERT copied it".)"""
    lay, toks = answer.lay, answer.lay.tokens
    k = frame.who.at
    if k is None or k < frame.end or k == 0:
        return False
    if lay.part_of[k] == lay.part_of[frame.end - 1]:
        return False
    if toks[k - 1].key in _CONJUNCT_OPENERS:
        return True
    # after a bare comma only a possessive that stands for the noun before ("..., RMSNorm's a rank d-1 one")
    m = answer.subjects.between(k, k + 1)
    if m is None or not (toks[k - 1].kind == PUNCT and toks[k - 1].key in (",", "，")):
        return False
    return lay.possessive(m.end - 1)


def _subject_in_a_later_relative(answer: Analysis, frame: Frame) -> bool:
    """The subject is named only after the claim's words, in a later comma part, inside a relative clause on another
    noun there, as the object of its verb ("... the Curse of Depth one that scales the LN output by 1/sqrt(l), there's
    Mix-LN that uses Post-LN early"): that part is a statement of its own about its noun, and the words before are
    not said of the name. (Not "that" after a verb, "found that ... Post-LN reached", nor "that's why Post-LN ...".)"""
    lay, toks = answer.lay, answer.lay.tokens
    k = frame.who.at
    if k is None or k < frame.end or k < 3 or lay.part_of[k] == lay.part_of[frame.end - 1]:
        return False
    rel, verb, noun = toks[k - 2], toks[k - 1], toks[k - 3]
    return (rel.kind == WORD and rel.key in _RELATIVES and verb.kind == WORD and noun.kind == WORD
            and not is_function_token(noun) and lay.part_of[k - 3] == lay.part_of[k])


def _subject_closes_earlier_conjunct(answer: Analysis, frame: Frame) -> bool:
    """The claim's words lie on both sides of its subject, named after its own predicate by "for"/"in" and followed
    by "and" or a comma, and the next statement names its own subject the same way ("the last-layer gradient is flat
    in L for Post-LN and shrinks like 1/sqrt(L) for Pre-LN"): the words after the first name are the second's."""
    lay, toks = answer.lay, answer.lay.tokens
    k = frame.who.at
    if k is None or not frame.terms:
        return False
    lo, hi = min(a for a, _ in frame.terms), max(b for _, b in frame.terms)
    m = answer.subjects.between(k, k + 1)
    if m is None or not (lo < m.start and m.end < hi) or m.start == 0:
        return False
    if toks[m.start - 1].kind != WORD or toks[m.start - 1].key not in ("for", "in"):
        return False
    nxt = toks[m.end] if m.end < len(toks) else None
    if nxt is None or not (nxt.key in _CONJUNCT_OPENERS or (nxt.kind == PUNCT and nxt.key in (",", "，", ";", "；"))):
        return False
    # the next statement names its own subject the same way, after its words ("... for Pre-LN")
    later = [n for n in answer.subjects.mentions if n.start >= hi and lay.sentence_of[n.start] == lay.sentence_of[m.start]]
    # (in the comma part the claim's last words stand in: "... is large in Post-LN and grows with the total depth L,
    # while in Pre-LN it shrinks" names Pre-LN for a statement of its own)
    return (bool(later) and later[0].subject != m.subject and toks[later[0].start - 1].key in ("for", "in")
            and lay.part_of[later[0].start] == lay.part_of[hi - 1])


#: What the second of two conjuncts may hold besides its figures when it takes the first one's predicate whole ("grows
#: like O(N) for Post-LN, and only like O(sqrt(N)) for Pre-LN").
_ELLIPTIC_CONJUNCT_WORDS = frozenset(stem(w) for w in (
    "and", "but", "while", "whereas", "only", "just", "roughly", "about", "approximately", "around", "merely", "like",
    "as", "more", "closer", "to", "for", "in", "o", "n", "l", "d", "sqrt", "log", "ln"))


def _second_conjunct_elliptic(answer: Analysis, frame: Frame) -> bool:
    """Between the subject `_subject_closes_earlier_conjunct` found and the next one there are only a joiner, adverbs,
    "like"/"as" and the figures ("... grows like O(N) for Post-LN, and only like O(sqrt(N)) for Pre-LN"): the second
    conjunct has no words of its own and takes the first one's predicate whole, so the claim's words hold of the
    quantity the first names, whichever placement each is given to."""
    lay, toks = answer.lay, answer.lay.tokens
    k = frame.who.at
    m = answer.subjects.between(k, k + 1) if k is not None else None
    if m is None:
        return False
    sentence_end = lay.sentence_span[lay.sentence_of[m.start]][1]
    later = [n for n in answer.subjects.mentions_overlapping(m.end, sentence_end) if n.start >= m.end and n.subject != m.subject]
    if not later:
        return False
    words = [j for j in range(m.end, later[0].start) if toks[j].kind in (WORD, CJK)]
    return bool(words) and all(toks[j].kind == WORD and toks[j].key in _ELLIPTIC_CONJUNCT_WORDS for j in words)


def _subject_is_the_setting(answer: Analysis, frame: Frame) -> bool:
    """The subject is named only as the setting of a result, in a short part that opens with "on" before the claim's
    part ("On BERT, Pre-LN reached the same validation loss about 40% sooner"): what was run on it, not what it is."""
    toks = answer.lay.tokens
    k = frame.who.at
    if k is None or k == 0 or k >= frame.start or toks[k - 1].kind != WORD or toks[k - 1].key != "on":
        return False
    return answer.lay.part_of[k] != answer.lay.part_of[frame.start] and answer.setting_part(k)


#: Words that turn to the other side of a comparison besides COMPARED_WITH's ("A for Pre-LN versus B for Post-LN").
_VERSUS = Cues(en=("versus", "vs", "against"), pairs=("while for", "whereas for"), zh=("相比之下", "对比"))


def _words_on_the_other_side(answer: Analysis, frame: Frame) -> bool:
    """Some of the claim's words follow a comparison word that follows its subject, and the other side names a subject
    of its own after that word, in the same sentence ("Theorem 1 gives O(d sqrt(ln d / L)) for Pre-LN versus
    O(d sqrt(ln d)), independent of L, for Post-LN", "Pre-LN's bound shrinks like 1/sqrt(L), unlike Post-LN's
    depth-independent one"): those words describe the other side, not the subject."""
    lay, toks = answer.lay, answer.lay.tokens
    k = frame.who.at
    if k is None or not frame.terms or frame.who.subject is None:
        return False
    last = max(a for a, _ in frame.terms)
    sent = lay.sentence_of[k]
    if k >= last or lay.sentence_of[last] != sent:
        return False
    turns = [j for j in range(k + 1, last) if _VERSUS.at(toks, j) or COMPARED_WITH.at(toks, j)]
    if not turns:
        return False
    named = answer.subjects.between(k, k + 1)
    if named is not None:
        # (a label before a colon does not count: "**BERT**: BERT, unlike the original Transformer, switched to Pre-LN")
        opening = max((i + 1 for i in range(lay.sentence_span[sent][0], named.start) if toks[i].key in (":", "：")),
                      default=lay.sentence_span[sent][0])
        if (turns[0] > named.end and all(toks[i].kind == PUNCT for i in range(named.end, turns[0]))
                and not any(toks[i].kind in (WORD, CJK) and lay.part_of[i] == lay.part_of[named.start]
                            for i in range(opening, named.start))):
            return False  # an aside right after the subject that opens its part ("BERT, unlike the original Transformer, is Pre-LN")
    end = lay.sentence_span[sent][1]
    return any(m.subject != frame.who.subject for m in answer.subjects.mentions if turns[0] < m.start < end)


#: Words that open a coordinated statement of its own when a name follows ("..., and RMSNorm's d - 1"): the
#: coordinators but "so" (a consequence goes on about the same subject) and 和 (it joins names).
_CONJUNCT_OPENERS = _COORDINATORS - {"so", "和"}


#: Verbs whose denial denies the thing itself ("does not have a final norm", "没有", "不用"), and the
#: auxiliaries and adverbs between a negation and its verb.
_HAVING = frozenset(stem(w) for w in ("have", "has", "had", "use", "uses", "used", "need", "needs", "needed", "keep",
                                      "keeps", "kept", "include", "includes", "included", "contain", "contains", "exist",
                                      "exists", "come", "comes", "require", "requires", "required", "carry", "carries",
                                      "add", "adds", "apply", "applies", "there", "any", "a", "an", "the"))
_HAVING_ZH = frozenset("有存用要需保带含加设放")
_BETWEEN = frozenset(stem(w) for w in ("do", "does", "did", "at", "all", "really", "actually", "even", "necessarily",
                                       "always", "ever", "also", "still"))


def _denies_another_verb(answer: Analysis, frame: Frame) -> bool:
    """A denial that comes after all the claim's words and denies a verb of its own ("LLaMA's final RMSNorm does
    not re-center at all", "最后的 RMSNorm 不减均值"): what is denied is that verb, not the thing the words name."""
    if frame.affirmed:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    last = max(b for _, b in frame.terms)
    first = min(a for a, _ in frame.terms)
    part = lay.part_of[last - 1]
    ca = lay.clause_span[lay.clause_of[first]][0]
    if any(is_negation(toks, j) for j in range(ca, last)):
        return False
    j = last
    while j < len(toks) and lay.part_of[j] == part and not is_negation(toks, j):
        j += 1
    if j >= len(toks) or lay.part_of[j] != part:
        return False
    k = j + is_negation(toks, j)
    while k < len(toks) and toks[k].kind == WORD and toks[k].key in _BETWEEN:
        k += 1
    if k >= len(toks) or lay.part_of[k] != part:
        return False
    t = toks[k]
    if t.kind == WORD:
        return t.key not in _HAVING and not is_function_token(t)
    return t.kind == CJK and t.key[:1] not in _HAVING_ZH and not is_function_token(t)


#: Relative pronouns that open a clause on the noun before them ("the warm-up phase that Post-LN needs").
_RELATIVE_PRONOUNS = frozenset({"that", "which", "whom"})


def _denial_before_a_relative_clause(answer: Analysis, frame: Frame) -> bool:
    """The claim's subject is named in a relative clause on one of its words, and the only denial stands before that
    clause ("Pre-LN can often skip the warm-up phase that Post-LN needs"): the denial is the main verb's (Pre-LN skips
    it), and the relative clause affirms what it says of the subject (Post-LN needs it)."""
    at = frame.who.at
    if frame.affirmed or at is None or at <= frame.start or at >= frame.end:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    r = next((j for j in range(frame.start + 1, at) if toks[j].kind == WORD and toks[j].key in _RELATIVE_PRONOUNS
              and any(b <= j <= b + 2 and all(toks[i].kind == WORD and not is_function_token(toks[i]) for i in range(b, j))
                      for _, b in frame.terms)), None)  # (right after one of the claim's words and its noun: "warm-up phase")
    if r is None or lay.part_of[r] != lay.part_of[at]:
        return False
    ca = lay.clause_span[lay.clause_of[frame.start]][0]
    return (any(is_negation(toks, j) for j in range(ca, frame.start))
            and not any(is_negation(toks, j) for j in range(r, frame.end)))


def _label_only(answer: Analysis, frame: Frame, correct: Claim | None) -> bool:
    """All the claim's words are its line's label, its subject is named after the label, and the line's body says
    the correct claim of that subject ("前置LN：最初Transformer使用后置LN"): the label is the line's topic, not
    something said of the subject. ("GPT-2: 使用 Post-LN" says nothing correct, and is charged.)"""
    span = answer.lay.label_of_line.get(answer.lay.line_of[frame.start])
    at = frame.who.at
    if (correct is None or span is None or at is None or at < span[1]
            or not all(span[0] <= a and b <= span[1] for a, b in frame.terms)):
        return False
    line = answer.lay.line_of[frame.start]
    return any(f.claim and f.start >= span[1] and answer.lay.line_of[f.start] == line and _fits_point(correct, f)
               and f.who.subject == frame.who.subject and f.affirmed == correct.affirm
               for m in correct.matchers for f in answer.frames(m))


#: A reason given as a phrase ("due to"); the reason words themselves are structure.CAUSE.
_DUE_TO = Cues(pairs=("due to",))


def _gives_reason(toks: list[Token], j: int) -> bool:
    return bool(CAUSE.at(toks, j) or _DUE_TO.at(toks, j))


def _reason_follows_denial(answer: Analysis, frame: Frame) -> bool:
    """"Post-LN does not need warm-up because its gradients vanish; if anything the opposite": a denial with a reason
    right after it may deny the reason rather than the claim, so it is not plain enough to charge."""
    toks = answer.lay.tokens
    end = max(b for _, b in frame.terms)
    # (right after the words, with no comma between: "不需要 final LayerNorm，因为 ..." gives the reason for the denial)
    return not frame.affirmed and end < len(toks) and toks[end].kind != PUNCT and (
        _gives_reason(toks, end) or (end + 1 < len(toks) and toks[end + 1].kind != PUNCT and _gives_reason(toks, end + 1)))


#: Negations that, with "without" after the words they deny, make a need ("you can't train it well without it",
#: normalised to "not").
_NEGATIONS = frozenset({"not", "cannot", "never"})


def _cannot_without(answer: Analysis, frame: Frame) -> bool:
    """"you basically can't train it well without it", "Post-LN does not train well without warm-up": the denial is a
    "not ... without", which states a need (two negations): "without" stands among the words or right after them, and
    a negation before it, from the words' first part on."""
    toks, lay = answer.lay.tokens, answer.lay
    if frame.affirmed:
        return False
    start, end = min(a for a, _ in frame.terms), max(b for _, b in frame.terms)
    part = lay.part_of[end - 1]
    without = next((k for k in range(start, min(len(toks), end + 4))
                    if lay.part_of[k] == part and toks[k].kind == WORD and toks[k].key == "without"), -1)
    return without >= 0 and any(toks[k].kind == WORD and toks[k].key in _NEGATIONS
                                for k in range(lay.part_opening(start), without))


def _object_owns_another(answer: Analysis, frame: Frame) -> bool:
    """A phrase of three or more words ends on a possessive that owns the next word ("alpha shrinks each branch's pull
    on the output" for "alpha shrinks each branch"): what the verb acts on is that next word's noun, not the one the
    phrase names."""
    lay, toks = answer.lay, answer.lay.tokens
    # (a common noun's: "DeepNorm keeps Pre-LN's quality" names what is kept by its owner, a name)
    return any(b - a >= 3 and lay.possessive(b - 1) and b < len(toks) and toks[b].kind == WORD
               and answer.quote_tokens(b - 1, b).islower() for a, b in frame.terms)


def _names_another(answer: Analysis, frame: Frame, k: int) -> bool:
    """A subject other than the frame's is named at token k."""
    m = answer.subjects.between(k, k + 1)
    return m is not None and frame.who.subject is not None and m.subject != frame.who.subject


def _retracted(answer: Analysis, frame: Frame) -> bool:
    """The words right after the frame, in its sentence, take it back: a spoken self-correction."""
    lay = answer.lay
    sent = lay.sentence_of[frame.start]
    stop = min(len(lay.tokens), frame.end + 5)
    return any(lay.sentence_of[j] == sent and _RETRACTIONS.at(lay.tokens, j) for j in range(frame.end, stop))


def _arrow_between(answer: Analysis, a: int, b: int) -> bool:
    """An arrow between tokens a and b ("Post-LN (2017-2019) -> Pre-LN (GPT-2 on)"): a sequence, not an ellipsis."""
    return answer.lay.arrows_between(a, b)


def _named_in_code(answer: Analysis, frame: Frame) -> bool:
    """Every word of the frame is part of an identifier (`post_attention_layernorm`, `normalize_before`):
    a name, which says nothing about where the norm sits (LLaMA's `post_attention_layernorm` is a pre-norm)."""
    text, toks = answer.lay.text, answer.lay.tokens
    for a, b in frame.terms:
        for i in range(a, b):
            t = toks[i]
            if not ((t.start > 0 and text[t.start - 1] == "_") or (t.end < len(text) and text[t.end] == "_")):
                return False
    return bool(frame.terms)


#: What separates the names of a bare list ("Sandwich-LN, Peri-LN, Gemma 2, OLMo 2").
_NAME_LIST_JOINS = frozenset({",", "、", "/", "，"})
#: How many items of such a list are read (bounded, so a pasted list of thousands costs nothing).
_NAME_LIST_MOST = 16


def _list_item(answer: Analysis, a: int, b: int) -> tuple[int, int] | None:
    """The name around tokens [a, b) between list punctuation (a short run of words written with a capital), or
    None when it is not one."""
    toks = answer.lay.tokens
    lo, hi = a, b
    while lo > 0 and toks[lo - 1].kind != PUNCT:
        lo -= 1
    while hi < len(toks) and toks[hi].kind != PUNCT:
        hi += 1
    return (lo, hi) if hi - lo <= 3 and answer.prep.cased[toks[lo].start : toks[lo].start + 1].isupper() else None


def _listed_among_names(answer: Analysis, frame: Frame) -> bool:
    """Each of the frame's words is one item of a bare list of three or more names, one of which is a subject
    ("Branch-output norms (Sandwich-LN, Peri-LN, Gemma 2, OLMo 2): ..."): "Sandwich-LN" is listed beside OLMo 2,
    not said of it."""
    toks = answer.lay.tokens

    def named(lo: int, hi: int) -> bool:
        return any(m.start == lo and m.end == hi for m in answer.subjects.mentions_overlapping(lo, hi))

    if not frame.terms:
        return False
    for a, b in frame.terms:
        item = _list_item(answer, a, b)
        if item is None or named(*item):
            return False
        items, any_named = [item], False
        for step in (-1, 1):  # walk the list both ways from the term's item
            lo, hi = item
            while len(items) < _NAME_LIST_MOST:
                j = lo - 1 if step < 0 else hi
                if not (0 <= j < len(toks)) or toks[j].key not in _NAME_LIST_JOINS:
                    break
                k = j - 1 if step < 0 else j + 1
                if not (0 <= k < len(toks)) or toks[k].kind == PUNCT:
                    break
                nxt = _list_item(answer, k, k + 1)
                if nxt is None:
                    break
                items.append(nxt)
                any_named = any_named or named(*nxt)
                lo, hi = nxt
        if len(items) < 3 or not any_named:
            return False
    return True


#: Words whose object is what something is measured against ("narrower than Pre-LN's", "unlike Post-LN").
_OBJECT_OF_COMPARISON = frozenset(stem(w) for w in ("than", "unlike"))


def _terms_compared_against(answer: Analysis, frame: Frame) -> bool:
    """Every one of the frame's words is the object of a comparison ("Adoption is narrower than Pre-LN's: GLM-130B
    ..."): the thing measured against, not what is said of the subject."""
    toks = answer.lay.tokens
    return bool(frame.terms) and all(a > 0 and toks[a - 1].kind == WORD and toks[a - 1].key in _OBJECT_OF_COMPARISON
                                     for a, _ in frame.terms)


def _symbol_from_formula(answer: Analysis, frame: Frame) -> bool:
    """Some of the frame's words are symbols inside a written formula and others are prose outside it ("Peri-LN:
    x_{l+1} = x_l + LN(F(LN(x_l))), which bounds what each layer adds"): the formula is a statement of its own, and
    the prose beside it is not about the symbol it happens to contain."""
    if frame.kind != "prose" or len(frame.terms) < 2:
        return False
    inside = [answer.in_formula(a, b) for a, b in frame.terms]
    return any(inside) and not all(inside)


def _read_both_ways(answer: Analysis, matcher: Matcher, frame: Frame) -> bool:
    """Another reading of some of the same words has the other polarity ("q_proj and k_proj are left alone": the
    denial after the pair covers "q_proj" too; "not the query, key projections": the comma cuts the denial off
    "key projections"): the words are not plainly affirmed (or denied), and precision comes first."""
    words = {i for a, b in frame.terms for i in range(a, b)}
    return any(f.affirmed != frame.affirmed and any(i in words for a, b in f.terms for i in range(a, b))
               for f in answer.frames_overlapping(matcher, frame.start, frame.end))


def find_point(answer: Analysis, claim: Claim, wrong: tuple[Evidence, ...] = (),
               withheld: tuple[Evidence, ...] = ()) -> Evidence | None:
    """Evidence that the answer makes this claim, or None. A matcher whose words are said of another subject (a
    comparison read the other way round, `Matcher.said_of`) looks for that subject instead. Evidence whose words
    all belong to one of the `wrong` claims charged against this point ("FP16" in "it underflowed in FP16") is
    that wrong claim's, not this one's; so is evidence sharing a word with one of the `withheld` ones, wrong claims
    given as a purpose ("to stop FP16 underflow" holds the "stop ... FP16" of "to stop FP16 overflow")."""
    for found in _point_evidence(answer, claim):
        if not any(_words_within(found, bad) for bad in wrong) and not any(_shares_a_word(found, w) for w in withheld):
            return found
    return None


def _shares_a_word(found: Evidence, bad: Evidence) -> bool:
    """One of the matched words of `found` is one of those of `bad`."""
    return any(a < y and x < b for a, b in found[1] for x, y in bad[1])


def _words_within(found: Evidence, bad: Evidence) -> bool:
    """Every matched word of `found` lies between the first and the last matched word of `bad` ("Adam's bias correction
    makes the first and second moment estimates exact from step one": the second moment is the wrong claim's)."""
    if not found[1] or not bad[1]:
        return False
    lo, hi = min(a for a, _ in bad[1]), max(b for _, b in bad[1])
    return all(lo <= x and y <= hi for x, y in found[1])


def _point_evidence(answer: Analysis, claim: Claim) -> Iterator[Evidence]:
    """Each piece of evidence for the claim, in the order `find_point` prefers them."""
    for matcher in claim.matchers:
        wanted = claim if matcher.said_of is None else replace(claim, about=matcher.said_of)
        for frame in answer.frames(matcher):
            user = _label_used_by(answer, wanted, frame)
            if user is not None:  # "- RMSNorm: drops the mean. Used in LLaMA, Gemma."
                yield answer.evidence(frame, user.start)
                continue
            if not frame.claim:
                named = _heads_items_naming(answer, wanted, frame)
                if named is not None:  # the heading's words, then the line under it that names the subject
                    quote, spans = answer.evidence(frame)
                    yield (f"{quote} … {answer.quote_tokens(named.start, named.end)}",
                           (*spans, answer.span_tokens(named.start, named.end)))
                continue
            if (wanted.affirm and frame.kind == "prose" and frame.qualifier is None
                    and _set_aside(answer, frame, figures=False)):
                continue  # "warm-up was a leftover habit rather than a necessity": the alternative not claimed
            if frame.affirmed == wanted.affirm and (_fits_point(wanted, frame) or (
                    _named_in_passing(answer, frame) and _fits_point(wanted, replace(frame, who=answer.subjects.default)))):
                yield answer.evidence(frame, frame.who.at)
                continue
            if (frame.affirmed == wanted.affirm and wanted.about == answer.subjects.default.subject
                    and _it_for_the_topic(answer, frame) and _fits_point(wanted, replace(frame, who=answer.subjects.default))):
                yield answer.evidence(frame)
                continue
            if frame.affirmed == wanted.affirm and _about_the_sole_subject(answer, wanted, frame):
                yield answer.evidence(frame)
                continue
            said = _said_in_relative_clause(answer, frame)
            if said is not None and said[0].subject == wanted.about and said[1] == wanted.affirm and _fits_point(
                    wanted, replace(frame, who=Attribution(said[0].subject, "clause", said[0].start), affirmed=said[1])):
                yield answer.evidence(frame, said[0].start)
                continue
            for e in answer.ellipses(frame):
                if (wanted.about is None or e.subject == wanted.about) and answer.ellipsis_affirmed(frame, e) == wanted.affirm:
                    yield answer.quote_tokens(frame.start, e.end), (answer.span_tokens(e.start, e.end),)
                    break


def _about_the_sole_subject(answer: Analysis, claim: Claim, frame: Frame) -> bool:
    """The claim is about the one subject the whole text names, named before the claim, and the frame's subject fell
    to the card's default only because its paragraph names nobody (a passage on OLMo 2 alone: "OLMo 2 builds on ...",
    then a paragraph on "normalization is applied to the outputs of attention and MLP layers rather than the inputs").
    A model or method only: a placement named alone ("Mix-LN puts Post-LN in the early layers", then a thread on its
    warm-up) is not what the text is about. Credit only: a mistake never takes a subject this way."""
    subjects = answer.subjects
    return (frame.who.source == "card" and claim.about is not None and claim.about not in PLACEMENTS
            and claim.about != subjects.default.subject and subjects.sole_subject(frame.start) == claim.about
            and _fits_point(claim, replace(frame, who=Attribution(claim.about, "heading", None))))


def _it_for_the_topic(answer: Analysis, frame: Frame) -> bool:
    """The claim's sentence opens with "It"/"它" and its subject was only inherited from the paragraph (a baseline
    named in an earlier sentence: "Plain Pre-LN is x + F(LN(x)), so the only change is the extra LN ... It was
    proposed in CogView"): "it" may as well be what the question asks about, the card's own subject, and the claim
    is credited to that subject too. Credit only: a mistake never takes a subject this way."""
    if frame.who.source not in ("paragraph", "pronoun") or answer.subjects.default.subject is None:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    k = lay.sentence_span[lay.sentence_of[frame.start]][0]
    while k < frame.start and toks[k].kind == PUNCT:
        k += 1
    return k < frame.start and toks[k].key in ("it", "它")


#: Words that end a relative clause's verb phrase ("the warm-up that Post-LN needs and ...").
_RELATIVE_CLAUSE_ENDS = frozenset({"and", "but", "so", "while", "whereas", "because"})


def _said_in_relative_clause(answer: Analysis, frame: Frame) -> tuple[Mention, bool] | None:
    """A relative clause on the claim's last noun names a subject and says the noun of it ("you can skip the warm-up
    that Post-LN needs": Post-LN needs warm-up; "the warm-up that Post-LN no longer needs": it does not): that subject
    and whether the clause affirms the noun, or None. Credit only: the main clause's subject owns the claim itself."""
    toks = answer.lay.tokens
    end = max(b for _, b in frame.terms)
    if frame.kind != "prose" or end + 1 >= len(toks) or toks[end].kind != WORD or toks[end].key not in RELATIVE_NOUN_CLAUSE:
        return None
    named = [m for m in answer.subjects.mentions_overlapping(end + 1, end + 2) if m.start == end + 1 and not m.contrast]
    if not named:
        return None
    m = named[0]
    negations, words = 0, 0
    for k in range(m.end, min(len(toks), m.end + 5)):
        if toks[k].kind != WORD or toks[k].key in _RELATIVE_CLAUSE_ENDS:
            break
        words += 1
        negations += 1 if is_negation(toks, k) else 0
    if words == 0 or negations > 1:
        return None  # (no verb: "the warm-up that Post-LN." is no clause; a double denial is left unread)
    return m, negations == 0


#: "Used in ..." notes: the model names after such a cue use what the line's label names.
_USED_IN = Cues(pairs=("used in", "used by", "adopted by", "adopted in", "employed in", "employed by", "found in", "as in"),
                zh=("用于", "用在", "见于", "例如", "比如"))


def _label_used_by(answer: Analysis, wanted: Claim, frame: Frame) -> Mention | None:
    """The claim's words are all in a line's label that names no subject, and the rest of the line says who uses it
    ("- RMSNorm: drops the mean-centering. Used in LLaMA, Gemma.", "- Pre-Norm: LN before the attention (used in
    GPT-2)"): the label's thing is said of the names after the cue. Returns the wanted subject's mention there, or
    None. Credit only."""
    if wanted.about is None or frame.kind != "prose" or frame.affirmed != wanted.affirm:
        return None
    lay = answer.lay
    span = lay.block_label(frame.start)
    if span is None or not (span[0] <= frame.start and frame.end <= span[1]):
        return None
    if answer.subjects.between(span[0], span[1]) is not None:
        return None  # the label names a subject of its own ("GPT-2: Pre-LN")
    toks, line = lay.tokens, lay.line_of[frame.start]
    k = span[1]
    while k < len(toks) and lay.line_of[k] == line:
        n = _USED_IN.at(toks, k)
        if n:
            sentence = lay.sentence_of[k]
            j = k + n
            while j < len(toks) and lay.sentence_of[j] == sentence and lay.line_of[j] == line:
                for m in answer.subjects.mentions_overlapping(j, j + 1):
                    if m.start == j and m.subject == wanted.about and not m.contrast:
                        return m
                if toks[j].kind == PUNCT and toks[j].key == ")":
                    break
                j += 1
            k = j
            continue
        k += 1
    return None


#: How far around the claim's words a short heading may reach (tokens, punctuation and markup included).
_SHORT_HEADING_TOKENS = 16


def _heads_items_naming(answer: Analysis, wanted: Claim, frame: Frame) -> Mention | None:
    """The claim's words are a short heading (four words at most, no question), or a line leading into a list, that
    names no subject, and the lines under it name the claim's subject ("### Post-LN" over "- BERT", "Pre-LN:" over
    "- GPT-2 and GPT-3"): the heading says what each of them is. Returns that subject's first mention under it.
    Credit only (a heading is never charged)."""
    if wanted.about is None or frame.affirmed != wanted.affirm or frame.kind != "prose":
        return None
    lay = answer.lay
    blk = lay.block_of[frame.start]
    if lay.block_of[frame.end - 1] != blk or not (lay.block_kind[blk] == "heading" or blk in lay.lead_blocks):
        return None
    line = lay.line_of[frame.start]
    toks = lay.tokens
    k0, k1 = frame.start, frame.end
    while k0 > 0 and lay.line_of[k0 - 1] == line and frame.start - k0 < _SHORT_HEADING_TOKENS:
        k0 -= 1
    while k1 < len(toks) and lay.line_of[k1] == line and k1 - frame.end < _SHORT_HEADING_TOKENS:
        k1 += 1
    if (k0 > 0 and lay.line_of[k0 - 1] == line) or (k1 < len(toks) and lay.line_of[k1] == line):
        return None  # (a long line is no short heading; bounded so a huge heading line costs nothing)
    # (words in brackets gloss the heading, "Post-Norm (Original Transformer)": they neither lengthen it nor name its
    # subject; the lines under it still say who uses what it names)
    words = sum(1 if toks[k].kind == WORD else 0.5 for k in range(k0, k1)
                if toks[k].kind in (WORD, CJK) and lay.aside_of[k] < 0)
    if words > 4 or any(toks[k].key in ("?", "？") for k in range(k0, k1)):
        return None  # a title that says more than the claim's words ("Why your FP16 run died"), or asks
    named_in, under = answer.subjects_by_heading()
    if blk in named_in:
        return None  # the heading names a subject of its own: what it says is that subject's
    return under.get(blk, {}).get(wanted.about)


def _other_coefficient(answer: Analysis, matcher: Matcher, frame: Frame) -> bool:
    """A formula whose wrong form names a coefficient ("LN(x + omega*F(x))": Admin's omega put on the branch) matched
    a formula that names none of those ("Norm(x + alpha F(x))", another method's own scalar): the canonical form
    renames every coefficient alike, so without the name the formula is not that claim."""
    if frame.kind != "formula" or not matcher.names:
        return False
    toks = answer.lay.tokens
    return not any(toks[j].key in matcher.names for j in range(frame.start, frame.end))


#: A bold run-in heading opening a line ("**Backward.** ...", "- __What the effect is.__ ..."): group 2 is its text.
_RUN_IN_HEADING = re.compile(r"[ \t]*(?:[-*+][ \t]+|\d{1,2}[.)][ \t]+)?(\*\*|__)([^*_\n]{1,80}?)\1[.:：。]?[ \t]+\S")


def _heading_and_text(answer: Analysis, frame: Frame) -> bool:
    """Some of the frame's words lie in a bold run-in heading that opens its line, the rest in the text after it
    ("**Backward.** Pre-LN 的 per-layer Jacobian 是 ...", "**What the amplification effect is.** Unlike Pre-LN, ... the
    residual stream ..."): the heading names what the paragraph is about, so heading and text together make no
    explicit claim. (Its words may still earn credit.)"""
    text, toks = answer.lay.text, answer.lay.tokens
    first = min((toks[a].start for a, _ in frame.terms), default=toks[frame.start].start)
    line_start = text.rfind("\n", 0, first) + 1
    m = _RUN_IN_HEADING.match(text, line_start)
    if m is None or first >= m.end(2):
        return False
    return any(toks[b - 1].end > m.end(2) for _, b in frame.terms)


def _topic_label_and_text(answer: Analysis, frame: Frame) -> bool:
    """The line's label names a subject and then a later word of the claim, and the text after the label holds the
    claim's first word ("Pre-LN 的线性增长：... 读数大致是 Jacobian 乘以输出范数"): the label names the line's topic, and
    the text's noun is not what the topic is said of. (A label holding the claim's first word, "Jacobian: grows
    linearly", is the subject of its text; "Mix-LN: Pre-LN in the early layers" names no subject before its word.)"""
    span = answer.lay.label_of_line.get(answer.lay.line_of[frame.start])
    if span is None or len(frame.terms) < 2 or frame.terms[0][0] < span[1]:
        return False
    return any(b <= span[1] and answer.subjects.between(span[0], a) is not None for a, b in frame.terms[1:])


#: Words that make a line's label a question ("梯度怎么走：", "为什么需要 final LN：", "How does the gradient flow:").
_ASKING_ZH = ("什么", "怎么", "怎样", "如何", "为什么", "为何", "哪", "吗", "呢")
_ASKING_EN = frozenset({"how", "why", "what", "which", "where", "when", "does", "do", "is", "are", "can"})


def _asking_label_and_text(answer: Analysis, frame: Frame) -> bool:
    """The claim's words sit both in a line's label that asks a question and in the text after it ("梯度怎么走：Pre-LN
    的每层雅可比是 I + ..."): the label names the topic its text answers, and its words are no part of what the text
    claims. (A label that holds all of a claim's words is judged as before.)"""
    lay = answer.lay
    span = lay.label_of_line.get(lay.line_of[frame.start])
    if span is None or not (any(b <= span[1] for _, b in frame.terms) and any(a >= span[1] for a, _ in frame.terms)):
        return False
    toks = lay.tokens
    first = next((k for k in range(span[0], span[1]) if toks[k].kind in (WORD, CJK)), None)
    if first is not None and toks[first].kind == WORD and toks[first].key in _ASKING_EN:
        return True
    label = lay.text[toks[span[0]].start : toks[span[1] - 1].end]
    return any(w in label for w in _ASKING_ZH)


def _label_denial_joined_to_text(answer: Analysis, frame: Frame) -> bool:
    """A denial whose negation sits in a line's label that names no subject, with the rest of its words and its subject
    in the text after the label ("2. 不依赖 warm-up：Post-LN 去掉 warm-up 只有 8.45 BLEU", an item under "why LLMs chose
    Pre-LN"): the label is the item's topic, said of what the section is about, and the text goes on about another
    subject; the label's "not" does not reach across the colon. (A label holding all the words, "Does not need
    warm-up: Post-LN.", is said of the name after it and still charges.)"""
    if frame.affirmed:
        return False
    lay = answer.lay
    span = lay.block_label(frame.start)
    at = frame.who.at
    if span is None or at is None or at < span[1] or answer.subjects.between(span[0], span[1]) is not None:
        return False
    if not (any(b <= span[1] for _, b in frame.terms) and any(a >= span[1] for a, _ in frame.terms)):
        return False
    return any(is_negation(lay.tokens, j) for j in range(span[0], span[1]))


def _title_line(answer: Analysis, frame: Frame) -> bool:
    """The frame lies on a Title Case line standing alone (a paper's title), which asserts nothing."""
    return answer.lay.line_of[frame.start] in answer.lay.title_lines


#: Words that make a "not" before them additive ("not only", "not just", "not merely"): the words go on affirmed.
_ADDITIVE_AFTER_NOT = frozenset({"only", "just", "mere", "merely", "simply"})


def _not_only(answer: Analysis, frame: Frame) -> bool:
    """A phrase of the claim reads its "not" across "only" ("a Pre-LN Transformer not only trained without any
    warm-up, but ..." for "not ... train without"): "not only X" affirms X, so the claim is not made."""
    toks = answer.lay.tokens
    return any(toks[i].key == "not" and toks[i + 1].key in _ADDITIVE_AFTER_NOT
               for a, b in frame.terms for i in range(a, b - 1))


#: What a later part says of the words it opens with when they are left as they were ("..., Q and K unchanged",
#: "..., q_proj and k_proj stay as they are", "，q_proj、k_proj 不变"): a few more listed words may come first.
_LEFT_AS_IT_WAS = re.compile(r"[\w \t、/&+-]{0,30}?(?:unchanged|untouched|unscaled|not scaled|left alone|left as (?:is|they are|it is)"
                             r"|stays? (?:the same|as (?:is|they are|it is))|remains? (?:the same|as (?:is|they are|it is))"
                             r"|keeps? (?:its|their) (?:usual |normal |default |standard )?(?:init|scale|value)"
                             r"|保持不变|保持原样|不变|不动|照旧|不缩放|不乘)")

#: Words that join the names of a list ("q_proj and k_proj", "Q 和 K").
_LIST_JOINERS = frozenset({"and", "or", "和", "与", "及"})


def _left_as_it_was(answer: Analysis, frame: Frame) -> bool:
    """The claim's words run across a comma into a part that opens with some of them and says those are left as they
    were ("FFN, V and O are multiplied by beta, Q and K unchanged" for "beta scales Q and K"): that part sets those
    words apart from what the earlier part did, it does not say it of them."""
    lay, toks, text = answer.lay, answer.lay.tokens, answer.lay.text
    first_part = lay.part_of[min(a for a, _ in frame.terms)]
    for a, b in frame.terms:
        if lay.part_of[a] == first_part:
            continue
        opening = lay.part_opening(a)
        if any(toks[i].kind != PUNCT and toks[i].key not in _LIST_JOINERS
               and (len(toks[i].key) > 4 or toks[i].key in ARTICLES) for i in range(opening, a)):
            continue  # (the words must open their part: only short listed names may stand before them, "q_proj and k_proj";
            # not "..., which copied the DeepNet constants unchanged")
        if _LEFT_AS_IT_WAS.match(text, toks[b - 1].end):
            return True
    return False


#: Verbs that make their object become something ("Admin makes Post-LN ...", "ω 让 Post-LN ..."), and the remedies that,
#: as their causer, describe the subject once fixed rather than as it is.
_CAUSATIVES = frozenset({"make", "makes", "made", "making", "let", "lets", "letting", "让", "使"})
_REMEDY = re.compile(r"admin|\bω|omega|deepnorm|deepnet|warm-?up|rezero|fixup|\binit(?:iali[sz]ation)?\b|初始化|预热")


def _made_so_by_a_remedy(answer: Analysis, frame: Frame) -> bool:
    """The frame's subject is the object of a causative whose causer is a remedy ("ω 让 Post-LN 在 init 时像 Pre-LN 一样
    ... 只有 O(log N)", "Admin makes Post-LN's output change O(log N) at init"): what follows is the subject as the
    remedy leaves it, not as it is. (Any other causer still charges: "the final LN makes Pre-LN's gradient grow".)"""
    at = frame.who.at
    if at is None or frame.who.source != "clause":
        return False
    lay, toks = answer.lay, answer.lay.tokens
    k = at - 1
    if k < 0 or lay.clause_of[k] != lay.clause_of[at] or toks[k].key not in _CAUSATIVES:
        return False
    if any(a < at for a, _ in frame.terms):
        return False  # the remedy is part of the claim ("DeepNorm makes Pre-LN trainable at 1,000 layers")
    first = lay.clause_span[lay.clause_of[k]][0]
    return _REMEDY.search(lay.text, toks[max(first, k - 30)].start, toks[k].start) is not None


#: Reasons a frame of a wrong claim is not charged, whatever its polarity: each names a reading in which the
#: words are not the answer's own plain claim (see each guard's docstring). All are pure; checked in this order,
#: then the ones that need the matcher, then `_label_only` (which needs the correct claim).
_SPARED_BECAUSE: tuple[Callable[[Analysis, Frame], bool], ...] = (
    _named_in_code, _divided, _retracted, _new_clause_between, _predicate_ends_earlier_part, _parts_apart,
    _introduced_after_its_subject,
    _across_cell_items, _set_aside, _played_down, _subject_opens_later_conjunct, _subject_in_a_later_relative,
    _subject_closes_earlier_conjunct,
    _subject_is_the_setting, _words_on_the_other_side, _title_line, _row_label_only,
    _heading_and_text, _topic_label_and_text, _asking_label_and_text, _label_denial_joined_to_text, _symbol_from_formula,
    _listed_among_names, _granted_in_lesser_measure, _terms_compared_against, _object_owns_another, _not_only,
    _made_so_by_a_remedy, _left_as_it_was)
_SPARED_BY_MATCH: tuple[Callable[[Analysis, Matcher, Frame], bool], ...] = (_read_both_ways, _other_coefficient)
#: Further reasons that spare a denial ("X does not Y"): the "not" belongs to another verb or to a reason.
_DENIAL_SPARED_BECAUSE: tuple[Callable[[Analysis, Frame], bool], ...] = (_denies_another_verb, _reason_follows_denial,
                                                                         _cannot_without, _denial_before_a_relative_clause)


def spared_by(answer: Analysis, claim: Claim, matcher: Matcher, frame: Frame, correct: Claim | None) -> str | None:
    """The name of the first guard that keeps `frame` from charging `claim`, or None when none applies."""
    for guard in _SPARED_BECAUSE:
        if guard(answer, frame):
            if (guard is _subject_closes_earlier_conjunct and claim.about is None
                    and _second_conjunct_elliptic(answer, frame)):
                continue  # wrong whoever it is said of, and the second conjunct says it of the same quantity
            return guard.__name__
    for by_match in _SPARED_BY_MATCH:
        if by_match(answer, matcher, frame):
            return by_match.__name__
    if _label_only(answer, frame, correct):
        return _label_only.__name__
    if not claim.affirm:
        for guard in _DENIAL_SPARED_BECAUSE:
            if guard(answer, frame):
                return guard.__name__
    return None


def find_mistake(answer: Analysis, claim: Claim, correct: Claim | None, *,
                 qualified: bool = False) -> Evidence | None:
    """Evidence that the answer plainly makes this wrong claim, or None (see the module docstring). With `qualified`,
    only a frame that would be charged but for being a purpose ("introduced it to stop FP16 underflow"): not a
    charge, but words that cannot earn the point the claim is wrong about (see `score_answer`). (A hedge or a
    condition is not enough: "without it the logits would be sharper or flatter" is how a counterfactual point is
    said.)"""
    for matcher in claim.matchers:
        for frame in answer.frames(matcher):
            if not frame.claim or frame.said_aloud:
                continue
            if matcher.said_of is not None and frame.who.subject not in (None, matcher.said_of):
                continue  # the words are wrong only of `said_of`, and another subject is named
            if qualified and (frame.qualifier != "purpose" or not _plain(replace(frame, qualifier=None))):
                continue
            charges = ((qualified or _plain(frame) or _universal_capability(answer, frame)) and _fits_mistake(claim, frame)
                       and frame.affirmed == claim.affirm)
            # (the guards are the costly part: only a frame that could charge, itself or through an ellipsis, is tried)
            if not charges and (qualified or not (frame.asserted and frame.qualifier is None and not frame.quoted)):
                continue
            if spared_by(answer, claim, matcher, frame, correct) is not None:
                continue
            if charges:
                if _respectively_another(answer, claim, frame) or any(
                        said_of_other(answer, frame) for said_of_other in _SAID_OF_SOMETHING_ELSE):
                    continue
                if claim.about is not None and (_object_of_a_later_name(answer, frame)
                                                or _named_in_an_earlier_aside(answer, frame)):
                    continue  # (a claim wrong of any subject is wrong there too)
                if correct is not None and not qualified and _also_correct(answer, correct, frame):
                    continue  # (withholding asks the other way round: may the wrong claim's words earn the point?)
                return answer.evidence(frame, frame.who.at)
            if qualified or not (frame.asserted and frame.qualifier is None and not frame.quoted):
                continue
            for e in answer.ellipses(frame):
                if e.contrast or e.qualified or e.carried or _arrow_between(answer, frame.end, e.start):
                    continue
                bad_subject = (e.subject != claim.about and e.subject in claim.rivals) if claim.any_subject_but_about \
                    else (claim.about is None or e.subject == claim.about)
                if bad_subject and answer.ellipsis_affirmed(frame, e) == claim.affirm and frame.qualifier is None:
                    return answer.quote_tokens(frame.start, e.end), (answer.span_tokens(e.start, e.end),)
    return None


#: What may stand between the names of a bare list ("Post-LN, Pre-LN", "Post-LN / Pre-LN", "Post-LN and Pre-LN").
_LIST_JOINS = frozenset({",", "、", "/", "和", "与"} | {stem(w) for w in ("and", "vs", "versus")})


def _respectively_another(answer: Analysis, claim: Claim, frame: Frame) -> bool:
    """The frame's subject is one of a bare list of names followed by a list of as many items, one per comma part
    ("Post-LN, Pre-LN, LN(x + F(x)), x + F(LN(x))": the formulas go with the names in order), and the item the
    frame lies in goes with another name than the one the mistake is about."""
    if not frame.who.also or frame.who.at is None:
        return False
    toks, lay = answer.lay.tokens, answer.lay
    clause = lay.clause_of[frame.start]
    names = [m for m in answer.subjects.mentions if lay.clause_of[m.start] == clause and m.end <= frame.start]
    if not names:  # the subject stands in another clause ("(Sandwich-LN, Peri-LN, Gemma 2): ..." before the claim)
        return False
    # the last run of names joined only by list words ("Post-LN, Pre-LN"), up to the frame
    run: list[str] = []
    for m, nxt in zip(names, [*names[1:], None], strict=True):
        run.append(m.subject)
        if nxt is not None and not all(toks[j].key in _LIST_JOINS for j in range(m.end, nxt.start)):
            run = []
    if len(run) < 2 or names[-1].end >= len(toks) or toks[names[-1].end].key not in (",", "、", ":", "："):
        return False
    # the comma parts after the list, each one item
    item, depth = 0, 0
    for j in range(names[-1].end + 1, frame.start):
        key = toks[j].key
        if key in ("(", "[", "{"):
            depth += 1
        elif key in (")", "]", "}"):
            depth -= 1
        elif depth <= 0 and key in (",", "、"):
            item += 1
    return item < len(run) and run[item] != claim.about


#: Words that name a normalisation layer as the agent of a passive ("is removed by LN", "by the layer norm").
_NORM_AGENTS = frozenset({"ln", "layernorm", "layer", "batchnorm", "bn", "groupnorm"})


def _done_by_another(answer: Analysis, frame: Frame) -> bool:
    """The claim's last word is a passive verb whose agent, "by X" right after it, is another norm than the frame's
    subject ("the mean-direction gradient passes RMSNorm ✅, is removed by LN": LN removes it, not RMSNorm)."""
    if frame.who.subject is None:
        return False
    toks = answer.lay.tokens
    k = max(b for _, b in frame.terms)
    if k >= len(toks) or toks[k].kind != WORD or toks[k].key != "by":
        return False
    k += 1
    while k < len(toks) and toks[k].kind == WORD and toks[k].key in ARTICLES:
        k += 1
    if k >= len(toks):
        return False
    named = answer.subjects.mentions_overlapping(k, k + 1)
    if named:
        return all(m.subject != frame.who.subject for m in named)
    return toks[k].kind == WORD and toks[k].key in _NORM_AGENTS


def _another_named_inside(answer: Analysis, frame: Frame) -> bool:
    """Another subject than the frame's is named between the claim's words ("DeepNorm: don't fix Pre-LN, make Post-LN
    trainable": "make ... trainable" is said of Post-LN, named inside it, not of the Pre-LN before it)."""
    if frame.who.subject is None or len(frame.terms) < 2:
        return False
    lo, hi = min(a for a, _ in frame.terms), max(b for _, b in frame.terms)
    words = {i for a, b in frame.terms for i in range(a, b)}
    return any(lo < m.start and m.end <= hi and m.subject != frame.who.subject and not m.contrast
               and not any(i in words for i in range(m.start, m.end)) for m in answer.subjects.mentions_overlapping(lo, hi))


def _untracked_placement_between(answer: Analysis, frame: Frame) -> bool:
    """A placement the card does not track as a subject is named in the claim's sentence between its subject and its
    words ("the identity path of Pre-LN survives (unlike Post-LN, which normalises the sum, LN(x + F(x)))" on the
    Sandwich-LN card, where Post-LN is no subject): the nearer name is what the words are said of. Only for a subject
    that is itself a placement: "BERT is Post-LN" names the placement as what is said of BERT. Precision first: not
    charged."""
    k = frame.who.at
    if k is None or frame.who.subject not in PLACEMENTS:
        return False
    lo = min(a for a, _ in frame.terms)
    if k >= lo or answer.lay.sentence_of[k] != answer.lay.sentence_of[lo]:
        return False
    return answer.placement_named_between(k + 1, lo)


def _subject_of_a_relative_clause(answer: Analysis, frame: Frame) -> bool:
    """The subject is named only inside a relative clause on one of the claim's nouns ("you don't need the long
    warm-up that Post-LN needs"), and all of the claim's words come before it: that clause says its own thing of the
    name, and the claim is said of whoever the main clause is about. (A cleft, "it is the warm-up that Post-LN skips",
    is about the name; so is a claim that goes on after the clause, "the final LN that Post-LN adds divides ...".)"""
    k = frame.who.at
    if k is None or k < 2:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    if toks[k - 1].key not in _RELATIVES or not any(a <= k - 2 < b for a, b in frame.terms):
        return False
    if lay.clause_of[k] != lay.clause_of[frame.start] or any(b > k for _, b in frame.terms):
        return False  # (the claim goes on after it: "the final LN that Post-LN adds divides the gradient")
    opening = lay.part_opening(frame.start)
    return toks[opening].key not in CLEFT_OPENERS


#: How a thing is done, said right after a denied verb: the denial is of the manner ("ω is not learned from
#: scratch: it is set by profiling" says it is learned, from a profiled start).
_MANNERS = (("from", "scratch"), ("from", "zero"), ("from", "random"), ("at", "random"), ("by", "itself"),
            ("on", "its"), ("alone",), ("randomly",))
_MANNERS_ZH = ("从零", "从头", "随机")


def _denied_manner(answer: Analysis, frame: Frame) -> bool:
    """The claim's last words are a denied verb and a manner follows at once ("ω is not learned from scratch",
    "ω 不是从零学的"): what is denied is how, not whether. Precision first: not charged."""
    toks, text = answer.lay.tokens, answer.lay.text
    a, b = max(frame.terms)
    if not any(is_negation(toks, i) for i in range(a, b)) or b >= len(toks):
        return False
    if toks[b].kind == CJK or (b > 0 and toks[b - 1].kind == CJK):
        return text.startswith(_MANNERS_ZH, toks[b].start) or text.startswith(_MANNERS_ZH, toks[b - 1].end)
    return any(all(b + i < len(toks) and toks[b + i].key == w for i, w in enumerate(m)) for m in _MANNERS)


#: Verbs of a relative clause whose object is the noun it hangs on ("the job warm-up does", "the role LN plays").
_SERVICE_VERBS = frozenset({"do", "doe", "did", "play", "provid", "give", "gave", "offer", "serve", "perform", "buy",
                            "bought"})
#: The main clause's copula after such a relative clause, as written.
_MAIN_COPULAS = frozenset({"is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't"})
#: Words that open a noun phrase a relative clause may hang on ("the job", "what").
_HEAD_OPENERS = frozenset({"the", "this", "that", "what", "whatever"})


def _subject_of_what_it_does(answer: Analysis, frame: Frame) -> bool:
    """The claim's first word is the subject of a relative clause on another noun ("the job warm-up does for Post-LN
    is not needed", "what warm-up does for Post-LN is not needed"): the rest of the claim is said of that noun (the
    job), not of the word. Precision first: not charged."""
    lay, toks = answer.lay, answer.lay.tokens
    a, b = min(frame.terms)
    if b >= len(toks) or toks[b].key not in _SERVICE_VERBS or a < 1:
        return False
    # the main clause's own verb comes after the relative clause ("... is not needed"); "the long warm-up does not
    # help" has none
    end = max(e for _, e in frame.terms)
    main = next((i for i in range(b + 1, end) if toks[i].key in ("and", "or", "but")
                 or lay.text[toks[i].start : toks[i].end].lower().replace("’", "'") in _MAIN_COPULAS), None)
    if main is None or toks[main].key in ("and", "or", "but") or lay.clause_of[main] != lay.clause_of[a]:
        return False  # ("the long warm-up does not help and is not needed": one subject, two verbs)
    k = a - 1
    if toks[k].key in ("that", "which") and k >= 1:
        k -= 1
    if toks[k].key in ("what", "whatever"):
        return True
    # "the job", "the stabilising role": a determiner and one or two words of a noun phrase before the word
    return any(toks[j].key in _HEAD_OPENERS and all(toks[i].kind == WORD for i in range(j + 1, k + 1))
               for j in range(max(0, k - 2), k))


def _after_a_relative_clause(answer: Analysis, frame: Frame) -> bool:
    """The subject is named only inside a relative clause whose verb has no object ("it skips the warm-up that Post-LN
    needs and stays stable"), and the claim's words all come after the "and" that closes it: the verb's object is the
    noun before "that", so the clause is a relative one, and what follows the "and" goes on with the main clause's
    subject as likely as with the name. (A "that" clause with an object, "they argue that Post-LN needs warm-up and
    stays unstable", is no relative clause and still charges.) Precision first."""
    k = frame.who.at
    if k is None or k < 2 or frame.who.source != "clause":
        return False
    lay, toks = answer.lay, answer.lay.tokens
    if toks[k - 1].key not in _RELATIVES or toks[k - 2].kind != WORD:
        return False
    named = [m for m in answer.subjects.mentions_overlapping(k, k + 1) if m.start == k]
    if not named:
        return False
    verb = named[0].end
    if verb + 1 >= len(toks) or toks[verb].kind != WORD or toks[verb + 1].key != "and":
        return False
    return lay.clause_of[verb + 1] == lay.clause_of[k] and all(a > verb + 1 for a, _ in frame.terms)


#: Size words that, standing right before a noun, describe that noun ("a huge residual stream", "a small learning
#: rate"), and the words that may follow them without being that noun ("large enough", "large early in training").
_SIZE_WORDS = frozenset(stem(w) for w in ("large", "larger", "big", "bigger", "huge", "enormous", "massive", "small",
                                           "smaller", "tiny", "high", "higher", "low", "lower"))
_NOT_A_NOUN_AFTER_SIZE = frozenset(stem(w) for w in ("enough", "early", "initially", "again", "already", "too", "very",
                                                      "even", "still", "indeed", "overall", "anyway", "near", "close",
                                                      "toward", "towards", "across", "throughout", "everywhere",
                                                      "inside", "outside", "above", "below", "compared", "relative"))


def _size_of_another_noun(answer: Analysis, frame: Frame) -> bool:
    """One of the claim's words is an English size word standing before a noun the claim does not name ("the final LN
    sees this huge residual stream, so the last layer's gradient gets scaled down": "huge" is the stream's): the words
    do not say that the claim's own thing is large (or small). "large output-side gradients", "gradients are large"
    and "large, unstable gradients" still say it. Precision first."""
    toks, part = answer.lay.tokens, answer.lay.part_of
    covered = {i for a, b in frame.terms for i in range(a, b)}
    for a, b in frame.terms:
        # (a bare size word only: a phrase such as "sitting on the big" or "starts with a high" names its noun's role)
        if b - a != 1 or toks[a].kind != WORD or toks[a].key not in _SIZE_WORDS:
            continue
        run = 0
        for j in range(b, min(len(toks), b + 3)):
            t = toks[j]
            if j in covered:
                run = 0  # the size word's noun phrase reaches the claim's own words
                break
            if part[j] != part[a] or t.kind != WORD or is_function_token(t) or t.key in _NOT_A_NOUN_AFTER_SIZE or t.key.endswith("ly"):
                break
            run += 1
        if run:
            return True
    return False


#: Words that may open a clause before its subject ("so", "and then", "所以") and words that stand in for a subject
#: named before ("it", "this", "它"): neither is a subject of the clause's own.
_CLAUSE_OPENERS = frozenset(stem(w) for w in ("so", "and", "but", "then", "thus", "hence", "therefore", "while",
                                               "whereas", "yet", "also", "just", "basically", "essentially", "thereby"))
_STAND_INS = frozenset(stem(w) for w in ("it", "this", "that", "they", "these", "those", "which", "its"))
_ZH_OPENERS = frozenset("所以因此而但就也则故它这那其")
_ZH_COPULA = "是"
#: A subject that brings in one more thing than the placement named before ("another LN", "one more LN on top", "an
#: extra norm", "adding a norm", "再加一个 LN", "再套一层 LN"); its stream, its output or its gradient are still the
#: placement's own.
_ANOTHER_ONE = Cues(en=("another", "extra", "additional", "adding"), pairs=("one more", "a second"),
                    zh=("再加", "再套", "多加", "再多", "额外", "另加", "另一个", "再来"))
#: ... or the others, set apart from the names before ("Post-LN 只剩 BERT 和 GLM-130B，其余都是 pre-norm", "..., and the
#: rest are pre-norm"): what is said of them is not said of those names.
_THE_OTHERS = Cues(en=("rest", "others", "remaining"), pairs=("everything else", "everyone else", "all else"),
                   zh=("其余", "其他", "其它", "剩下", "剩余", "余下", "别的"))


def _named_in_earlier_part(answer: Analysis, frame: Frame, same_sentence: bool) -> tuple[int, int] | None:
    """(where the claim's subject is named, the claim's first word) when the subject is named before the claim in an
    earlier comma part (of the claim's own sentence, with `same_sentence`); None otherwise (the checks below look at what
    that part or the claim's own part says)."""
    at, lay = frame.who.at, answer.lay
    if at is None or frame.who.subject is None:
        return None
    first = min(x for x, _ in frame.terms)
    if at >= first or lay.part_of[at] == lay.part_of[first] or (
            same_sentence and lay.sentence_of[at] != lay.sentence_of[first]):
        return None
    return at, first


def _own_subject_in_clause(answer: Analysis, frame: Frame) -> bool:
    """The claim's subject is named in an earlier comma part of its sentence, and the claim's own part opens with a
    subject of its own before its verb "is" / 是 ("In Post-LN every sublayer ends in an LN, so one more LN on top is
    basically an identity mapping", "Post-LN 的输出已经归一化，再加一个 LN 基本是恒等映射"): what the clause says is said of
    that subject, not of the placement named before it; so does one that opens with the others ("..., 其余都是 pre-norm").
    Precision first."""
    lay, toks = answer.lay, answer.lay.tokens
    named = _named_in_earlier_part(answer, frame, same_sentence=True)
    if named is None:
        return False
    first = named[1]
    part = lay.part_of[first]
    a = first
    while a > 0 and lay.part_of[a - 1] == part:
        a -= 1
    copula = next((j for j in range(a, first + 1) if (toks[j].kind == WORD and toks[j].key in COPULAS)
                   or (toks[j].kind == CJK and toks[j].key == _ZH_COPULA)), None)
    if copula is None:
        return False
    if any(m.start < copula and m.end > a for m in answer.subjects.mentions_overlapping(a, copula)):
        return False  # the clause names a subject of the card before its verb: attribution has dealt with it
    own, new = 0, False
    for j in range(a, copula):
        t = toks[j]
        others = _THE_OTHERS.at(toks, j) > 0  # (其余 opens with 其, an opener on its own)
        if t.kind == PUNCT or (own == 0 and not others and ((t.kind == WORD and t.key in _CLAUSE_OPENERS)
                                                            or (t.kind == CJK and t.key in _ZH_OPENERS))):
            continue
        if own == 0 and t.kind == WORD and t.key in _STAND_INS:
            return False  # "it is ...", "which is ...": the subject named before
        new = new or others or _ANOTHER_ONE.at(toks, j) > 0
        if not is_function_token(t) or others:
            own += 1
    return own >= 1 and new


#: What may join the names of a list before its verb ("GPT-2/3、LLaMA 是", "GPT-3 and LLaMA are").
_JOINS_BEFORE_A_VERB = frozenset({"、", "/", "-", "and", "和", "与", "及"})
#: How many tokens a list of names may take between the claim's words and its verb.
_NAME_LIST_REACH = 8


def _predicate_names_another(answer: Analysis, frame: Frame) -> bool:
    """The claim's subject is named in an earlier comma part of its sentence, and the claim's words are (or end) a
    list of names whose own verb "is"/"are"/是 comes next and names another subject ("The original Transformer and BERT
    are Post-LN, GPT-3 and LLaMA are Pre-LN"): the names are said to be that one, not the placement named before."""
    if _named_in_earlier_part(answer, frame, same_sentence=True) is None:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    j = max(b for _, b in frame.terms)
    stop = min(len(toks), j + _NAME_LIST_REACH)
    while j < stop and lay.sentence_of[j] == lay.sentence_of[frame.start]:
        t = toks[j]
        if (t.kind == WORD and t.key in COPULAS) or (t.kind == CJK and t.key == _ZH_COPULA):
            k = j + 1
            while k < len(toks) and toks[k].kind == WORD and toks[k].key in ARTICLES:
                k += 1
            named = answer.subjects.mentions_overlapping(k, k + 1)
            return any(m.start == k and m.subject != frame.who.subject for m in named)
        if t.kind == PUNCT and t.key not in _JOINS_BEFORE_A_VERB and lay.text[t.start : t.end] not in _JOINS_BEFORE_A_VERB:
            return False  # (、 is read as a comma: its own text tells it apart)
        j += 1
    return False


#: Words that point back at a thing already named ("that norm", "its stream"), and the subordinators that open a
#: comma part giving a reason or a time ("since that norm grows, ...").
_POINTING_DETERMINERS = frozenset(stem(w) for w in ("that", "this", "its", "their", "these", "those"))
_SUBORDINATORS = frozenset(stem(w) for w in ("since", "because", "as", "while", "when", "once", "if"))


#: Words that join a second noun phrase to a first ("a Post-LN stream and an unnormalised one", "with an ...").
_NOUN_PHRASE_JOINERS = frozenset(stem(w) for w in ("and", "with", "plus", "or", "alongside", "besides"))
#: Articles that open a new noun phrase.
_INDEFINITE = frozenset(stem(w) for w in ("a", "an", "another"))


def _attribute_of_a_joined_noun_phrase(answer: Analysis, frame: Frame) -> bool:
    """A later word of the claim opens, right after an article, a second noun phrase of the same noun joined to the
    first ("ResiDual runs a Post-LN stream and an unnormalised Pre-LN-style stream", "combines a Post-LN stream with an
    unnormalised, Pre-LN-style one"): it tells the second thing apart from the first, it is not said of the first.
    Precision first."""
    toks = answer.lay.tokens
    terms = sorted(frame.terms)
    for (_, b), (c, d) in itertools.pairwise(terms):
        # (right after the earlier words' noun: "stream and an", "stream with an"; "T5 uses standard LayerNorm with
        # bias in a Post-LN arrangement" or "starting with a very large" join no second phrase to the claim's noun)
        if c != b + 2 or toks[b].kind != WORD or toks[b].key not in _NOUN_PHRASE_JOINERS or (
                toks[c - 1].kind != WORD or toks[c - 1].key not in _INDEFINITE):
            continue
        # (the phrase goes on to the same noun, or "one": the word tells two of a kind apart, "a 1,000-layer encoder and
        # a 1,000-layer decoder" is one claim about both)
        noun = toks[b - 1].key
        for j in range(d, min(len(toks), d + 6)):
            if toks[j].kind == WORD and toks[j].key in (noun, "one"):
                return True
            if toks[j].kind not in (WORD, NUMBER) and toks[j].key not in (",", "-"):
                break
    return False


def _said_of_a_noun_in_its_part(answer: Analysis, frame: Frame) -> bool:
    """One of the claim's words stands in a comma part of its own that opens with a subordinator, right after a noun
    phrase pointing back at something named before ("Since that norm grows with depth, the bound on the last layer's
    gradient shrinks"): that noun is what the word is said of, not the claim's words in the other part. Precision
    first."""
    lay, toks = answer.lay, answer.lay.tokens
    if len({lay.part_of[a] for a, _ in frame.terms}) < 2:
        return False
    covered = {i for a, b in frame.terms for i in range(a, b)}
    for a, _ in frame.terms:
        part = lay.part_of[a]
        if any(lay.part_of[x] == part for x, _ in frame.terms if x != a):
            continue
        start = a
        while start > 0 and lay.part_of[start - 1] == part:
            start -= 1
        while start < a and toks[start].kind == PUNCT:
            start += 1
        if toks[start].key in ("and", "but") and start + 1 < a:
            start += 1  # ", and since that norm grows ..."
        if toks[start].key not in _SUBORDINATORS:
            continue
        # the noun phrase right before the word: a pointing determiner, then one or two words of no claim
        for j in range(max(0, a - 3), a - 1):
            if (lay.part_of[j] == part and toks[j].kind == WORD and toks[j].key in _POINTING_DETERMINERS
                    and all(toks[i].kind == WORD and i not in covered and not is_function_token(toks[i])
                            for i in range(j + 1, a))):
                return True
        if _written_quantity(toks, start + 1, a, covered):
            return True
    return False


#: How many tokens a written quantity may take ("||x_L||^2", "E[|x_l|^2]", "sqrt(d)/s").
_QUANTITY_REACH = 12


def _written_quantity(toks: list[Token], a: int, b: int, covered: set[int]) -> bool:
    """Tokens a..b-1 are a written quantity, symbols and brackets only ("||x_L||^2", "E|x_l|^2") with a bar or a
    bracket in it, and then at most two words of no claim (its verb: "grows linearly with depth"): as the subject
    after "since", the quantity is what the claim's word is said of, not the claim's other words."""
    end = a
    while end < b and end - a < _QUANTITY_REACH and (toks[end].kind in (PUNCT, NUMBER)
                                                     or (toks[end].kind == WORD and len(toks[end].key) <= 2)):
        end += 1
    quantity = range(a, end)
    return (0 <= b - end <= 2 and any(toks[i].key in ("|", "‖", "(", "[") for i in quantity)
            and any(toks[i].kind == WORD for i in quantity)
            and not any(i in covered or toks[i].kind != WORD for i in range(end, b)))


#: Words that set what follows aside as the alternative not taken ("the culprit is the amplification of updates
#: rather than the size of the gradient").
_SET_ASIDE = Cues(pairs=("rather than", "instead of", "as opposed to", "in place of"))


def _term_set_aside(answer: Analysis, frame: Frame) -> bool:
    """One of the claim's words stands, in its comma part, within a few words after "rather than" / "instead of"
    ("Admin argues the real culprit is the amplification of updates rather than the size of the gradient"): that is
    the alternative the writer turns down, so the claim is not made. Precision first."""
    toks, part = answer.lay.tokens, answer.lay.part_of
    for a, _ in frame.terms:
        for j in range(a - 1, max(-1, a - 6), -1):
            if part[j] != part[a] or toks[j].kind == PUNCT:
                break
            if _SET_ASIDE.ends_at(toks, j) >= 0:
                return True
    return False


#: Words that deny an identity right before a name ("this is not Post-LN", "别把它说成 Post-LN"), and the determiners
#: that may stand between.
_DENIAL_DETERMINERS = ARTICLES | {stem(w) for w in ("plain", "ordinary", "standard")}
_NOT_THIS = Cues(en=("not", "nor"), pairs=("rather than", "instead of"),  # ("isn't" is read as "is not")
                 zh=("不是", "并非", "而非", "并不是", "说成", "当成", "误认为"))


def _subject_denied_before(answer: Analysis, frame: Frame) -> bool:
    """The claim's subject is named in an earlier comma part as what something is not ("注意这不是 Post-LN，主干从来没有被归一化",
    "it is not Post-LN, the stream itself is never normalised"): the later part goes on about the thing that is not it.
    Precision first."""
    named = _named_in_earlier_part(answer, frame, same_sentence=False)
    if named is None:
        return False
    toks, at = answer.lay.tokens, named[0]
    j = at - 1
    while j >= 0 and toks[j].kind == WORD and toks[j].key in _DENIAL_DETERMINERS and at - j <= 2:
        j -= 1
    return j >= 0 and _NOT_THIS.ends_at(toks, j) >= 0


#: What sets names apart as exceptions to what follows ("apart from the first two and GLM-130B, everything is ...").
_EXCEPT = Cues(en=("except", "excluding"), pairs=("apart from", "aside from", "except for", "other than"),
               zh=("除了", "除去", "除开"))


def _subject_excepted(answer: Analysis, frame: Frame) -> bool:
    """The claim's subject is named in an earlier comma part of its sentence that sets it apart as an exception ("So
    apart from the first two and GLM-130B, everything is in the pre-norm family", "除了 BERT，其余都是 pre-norm"): what
    the later part says is said of the rest. Precision first."""
    lay, toks = answer.lay, answer.lay.tokens
    named = _named_in_earlier_part(answer, frame, same_sentence=True)
    if named is None:
        return False
    at, sent = named[0], lay.sentence_of[named[0]]
    # back to the comma that opens the names ("apart from the first two and GLM-130B": an "and" is no boundary)
    j = at - 1
    while j >= 0 and lay.sentence_of[j] == sent and not (toks[j].kind == PUNCT and toks[j].key in (",", "，", ";", "；")):
        if _EXCEPT.at(toks, j):
            return True
        j -= 1
    return False


#: What a name that opens a comma part does when the part is a statement about it ("DeepNorm is Post-LN",
#: "DeepNorm as the Post-LN holdout", "T5 uses a simplified norm").
_NAME_TAKES = frozenset({"as", "use", "uses", "used", "keep", "keeps", "kept", "adopt", "adopts", "adopted", "stay",
                         "stays", "remain", "remains",
                         # a method that does or runs a placement ("Mix-LN does Post-LN in the early layers")
                         "do", "doe", "did", "run", "ran", "apply", "appli"})
#: What a name that opens a Chinese comma part does when the part is a statement about it ("GPT-2 把 LayerNorm 移到每个
#: 子层之前", "GPT-2 改用 ...", "LLaMA 采用 ...").
_NAME_TAKES_ZH = frozenset("把将用采改移换是")


def _part_about_another_name(answer: Analysis, frame: Frame) -> bool:
    """The frame's subject is named in an earlier comma part of its sentence, and the frame's own part opens with
    another capitalised name (no subject of the card) and its verb ("原版是 Post-LN（LN(x + F(x))），GPT-2 把 LayerNorm 移到
    每个子层之前（x + F(LN(x))）", "Post-LN re-normalises the sum, GPT-2 uses x + F(LN(x))", "Pre-LN 是 x + F(LN(x))，
    Post-LN 是 LN(x + F(x))" where Post-LN is no subject): the part is a statement about that name. Precision first:
    not charged to the subject before it."""
    lay, toks = answer.lay, answer.lay.tokens
    at = frame.who.at
    if at is None or at >= frame.start or lay.part_of[at] == lay.part_of[frame.start]:
        return False
    if lay.sentence_of[at] != lay.sentence_of[frame.start]:
        return False
    k = lay.part_opening(frame.start)
    if toks[k].key == "(" and k > 0:
        k = lay.part_opening(k - 1)  # a bracketed formula belongs to the part it stands in
    if lay.part_of[at] >= lay.part_of[k]:
        return False
    return _opens_with_another_name(answer, k, frame.start)


#: English pronouns that stand for a subject named before them (attribution's own list also holds "this", "one").
_EARLIER_SUBJECT_PRONOUNS = frozenset({"it", "they", "its", "their"})


def _object_of_a_later_name(answer: Analysis, frame: Frame) -> bool:
    """The claim's subject is named only in a later comma part of its sentence, and that part opens with another
    capitalised name (no subject of the card) and its verb ("the Curse of Depth paper scales the LayerNorm output by
    one over root l, Mix-LN uses Post-LN for the early layers"): there the subject is that name's object, not what
    the claim's words are said of. Precision first: not charged."""
    lay, toks = answer.lay, answer.lay.tokens
    at = frame.who.at
    if (at is None or frame.who.source != "clause" or at < frame.end
            or lay.sentence_of[at] != lay.sentence_of[frame.end - 1]):
        return False
    k = lay.part_opening(at)
    if lay.part_of[k] <= lay.part_of[frame.end - 1]:
        return False
    # (not when a pronoun in the claim's own part stands for a subject named earlier: "Post-LN's gradients are well
    # scaled, so it can be trained without warm-up ..., which is why GPT-2 and BERT adopted Post-LN")
    opening = lay.part_opening(frame.start)
    if any(toks[j].key in _EARLIER_SUBJECT_PRONOUNS or (toks[j].kind == CJK and toks[j].key in _ZH_ANAPHORA)
           for j in range(opening, frame.end)):
        return False
    return _opens_with_another_name(answer, k, at)


def _opens_with_another_name(answer: Analysis, k: int, limit: int) -> bool:
    """Past punctuation and "and"/"with", the comma part opening at token k starts with a capitalised name of three
    letters or more that is no subject of the card, followed before token `limit` by its verb (a copula or a verb
    a name takes: "GPT-2 uses", "Mix-LN uses", "GPT-2 把", "Post-LN 则是")."""
    toks, text = answer.lay.tokens, answer.prep.cased
    while k < limit and (toks[k].kind == PUNCT or toks[k].key in ("and", "with")):
        k += 1
    if (k >= limit or toks[k].kind != WORD or toks[k].end - toks[k].start < 3
            or not text[toks[k].start:toks[k].start + 1].isupper()):
        return False  # (a name of three letters or more: "E||x||^2 = 2d" opens with a symbol)
    if answer.subjects.between(k, k + 1) is not None:
        return False  # the part opens with one of the card's subjects: attribution has already taken it
    # (a placement that is no subject of the card is a name of several tokens: "Post-LN 是 LN(x + F(x))")
    j = answer.placement_name_at(k) or k + 1
    while j < limit and (toks[j].kind in (NUMBER, PUNCT) and toks[j].key not in (",", ";")
                         or text[toks[j - 1].end : toks[j].start] == "-"):
        j += 1  # (a version: "GPT-2", "OLMo 2"; a hyphenated name: "Mix-LN")
    while j < limit and toks[j].kind == CJK and toks[j].key in _ZH_LINKING_ADVERBS:
        j += 1  # ("Post-LN 则是 ...", "GPT-2 也用 ...")
    # (not "..., and Lemma 2 shows that Post-LN ...": a source reporting on the same subject)
    return j < len(toks) and (toks[j].key in COPULAS or toks[j].key in _NAME_TAKES or (
        toks[j].kind == CJK and toks[j].key in _NAME_TAKES_ZH))


#: Adverbs that may stand between a name and its verb in Chinese ("Post-LN 则是", "GPT-2 也用").
_ZH_LINKING_ADVERBS = frozenset({"则", "也", "就", "而", "才", "还", "都"})


#: What sets a quantity equal to its value ("ΔF = O(log N)", "E||x||^2 ≈ L d", "grad ∝ 1/sqrt(L)").
_EQUATES = frozenset({"=", "≈", "∝", "~", "≃", "≡"})


def _named_after_a_colon(answer: Analysis, frame: Frame) -> bool:
    """Some of the claim's words stand before a colon and its subject is named only after it, past words of the
    colon's own sentence ("能训起来时效果往往更好：DeepNet 报告 Pre-LN 比收敛后的 Post-LN 低 0.5–1.0 BLEU", "it tends to end
    better: DeepNet puts Pre-LN 0.5 BLEU behind"): what follows the colon explains with a subject of its own, and the
    words before it are said of the topic before them (a heading, a list item), never of a name that comes later.
    A name right after the colon ("Better once converged: Post-LN") is the answer the colon gives, and stays, as
    does a name that the sentence named before the words."""
    at = frame.who.at
    if at is None:
        return False
    toks = answer.lay.tokens
    first = min(a for a, _ in frame.terms)
    colon = next((k for k in range(first, at) if toks[k].kind == PUNCT and toks[k].key in (":", "：")), None)
    if colon is None or not any(b <= colon for _, b in frame.terms):
        return False
    opening = answer.lay.sentence_span[answer.lay.sentence_of[first]][0]
    if any(opening <= m.start < first for m in answer.subjects.mentions):
        return False  # ("settled on Pre-LN because it reaches better accuracy: on every benchmark, Pre-LN ...")
    inside = {k for a, b in frame.terms for k in range(a, b)}
    if all(k in inside for k in range(opening, colon) if toks[k].kind in (WORD, CJK)):
        return False  # the words label what the colon says of them ("T5: pre-norm, ordinary LayerNorm", "Mix-LN：...")
    return any(toks[k].kind in (WORD, CJK) and not is_function_token(toks[k]) and toks[k].key not in ARTICLES
               for k in range(colon + 1, at))


#: How far back (in tokens) the bracket opening a fraction's denominator is looked for.
_DENOMINATOR_REACH = 16


def _in_a_denominator(answer: Analysis, frame: Frame) -> bool:
    """The claim's first word opens the denominator of a fraction ("(||grad||_Post)/(||grad||_Pre) ~ sqrt(L)"): what
    the rest says is said of the ratio, not of the quantity divided by. Precision first: not charged."""
    toks = answer.lay.tokens
    depth = 0
    for k in range(frame.start - 1, max(-1, frame.start - _DENOMINATOR_REACH), -1):
        key = toks[k].key
        if toks[k].kind == PUNCT and key in (",", "，", ".", "。", ";", "；", ":", "："):
            return False
        if key in (")", "}", "]"):
            depth += 1
        elif key in ("(", "{", "["):
            if depth == 0:
                # a bracket that opens a group holding the word (a subscript's, then the whole term's): a fraction's
                # denominator when "/" comes right before
                if k > 0 and toks[k - 1].key in ("/", "÷"):
                    return True
                continue
            depth -= 1
    return False


#: How many tokens on from a claim's word the equation giving its value may start, in the word's own comma part.
_EQUATION_REACH = 12


def _bound_by_equation(answer: Analysis, frame: Frame) -> bool:
    """One of the claim's words is the left side of an equation that gives its value, and the claim's other words
    stand in an earlier comma part ("||x_i||^2 grows linearly with i, ..., which gives ΔF = O(log N)": the output
    change is O(log N) by its own equation; "linearly" belongs to the norm). Precision first: not charged."""
    toks, part_of = answer.lay.tokens, answer.lay.part_of
    if len(frame.terms) < 2:
        return False
    for a, b in frame.terms:
        # (the equation may come a few words on in the word's own comma part: "LN 之前的和满足 E||x||^2 = 1.5d")
        k = b
        while k < len(toks) and k < b + _EQUATION_REACH and part_of[k] == part_of[a] and toks[k].key not in _EQUATES:
            k += 1
        if k >= len(toks) or toks[k].key not in _EQUATES or part_of[k] != part_of[a]:
            continue
        others = [x for other in frame.terms if other != (a, b) for x in range(*other)]
        if k > b and (not any(toks[x].key in _EQUATES for x in others) or any(toks[x].key in _EQUATES for x in range(a, b))
                      or answer.lay.line_of[k] != answer.lay.line_of[a]):
            # (further on, only a word with no value in it, given a value of its own on its line against the other
            # words' value: "=d, LN 之前的和满足 E||x||^2 = 1.5d")
            continue
        # (the other words in a comma part of their own before it: "multiplied by β = (8N)^(-1/4)" is about β itself)
        if others and max(others) < a and any(toks[k].key in (",", "，", ";", "；") for k in range(max(others) + 1, a)):
            return True
    return False


def _also_correct(answer: Analysis, correct: Claim, frame: Frame) -> bool:
    """The same words of the same clause also read as the correct claim for the right subject: ambiguous, so
    not charged. (A different wrong claim next to a correct one is still charged.) The correct reading needs a subject
    named for it, unless it is the nearer reading of the later comma parts (`_later_parts_read_otherwise`)."""
    words = {i for a, b in frame.terms for i in range(a, b)}
    clause = answer.lay.clause_of[frame.start]
    for matcher in correct.matchers:
        wanted = correct if matcher.said_of is None else replace(correct, about=matcher.said_of)
        for f in answer.frames(matcher):
            if (answer.lay.clause_of[f.start] == clause and f.claim
                    and (f.who.source not in (None, "card") or _later_parts_read_otherwise(answer, f, frame))
                    and _fits_point(wanted, f, alike=False) and f.affirmed == wanted.affirm
                    and any(i in words for a, b in f.terms for i in range(a, b))
                    and not _adds_a_number(answer, f, frame)):
                return True
    return False


#: The commas that close one comma part of a sentence and open the next, and how many words a part needs to say
#: something of its own rather than name an item of a list.
_PART_COMMAS = frozenset({",", "，"})
_CLAUSE_WORDS = 4


def _later_parts_read_otherwise(answer: Analysis, correct: Frame, wrong: Frame) -> bool:
    """The wrong reading reaches back from its last term over a comma part or more to a word in an earlier part, and
    the later parts alone read as the correct claim ("浅层块能明显改变残差流，深层块几乎改不动，越来越接近恒等映射": "deep
    blocks ... identity" in the last two parts, "early blocks" two parts back): the claim is the nearer reading."""
    if not (correct.kind == wrong.kind == "prose" and wrong.start < correct.start and correct.end <= wrong.end):
        return False
    lay = answer.lay
    # the correct reading opens its comma part, right after a comma of the sentence (not one of a bracketed list:
    # "all projections (Q, K, V, O and the FFN) are scaled by beta" is one claim)
    k = correct.start - 1
    if not (lay.opens_part(correct.start) and k > wrong.start and lay.tokens[k].kind == PUNCT
            and lay.tokens[k].key in _PART_COMMAS and lay.aside_of[k] < 0):
        return False
    # the part the comma closes is long enough to say something of its own, not an item of a list ("query, key,
    # value and output projections get the beta scaling", "query、key、value 投影") that runs on into the claim
    opening = max(lay.part_opening(k - 1), wrong.start)
    words = sum(1 for t in lay.tokens[opening:k] if t.kind in (WORD, CJK, NUMBER))
    return words >= _CLAUSE_WORDS


def _adds_a_number(answer: Analysis, correct: Frame, wrong: Frame) -> bool:
    """The wrong reading has a number of its own and the correct one has none ("LLaMA 2 warms up" is the correct
    claim, "... for 20,000 steps" the wrong detail): a figure is explicit, not an ambiguous reading. The version in a
    model's name is no figure: "LLaMA 2 used 10,000 warm-up steps" gives one, the 10,000."""
    toks = answer.lay.tokens

    def figure(i: int) -> bool:  # a number, not the version in a model's name ("LLaMA 2", "GPT-3")
        return toks[i].kind == NUMBER and not (i > 0 and toks[i - 1].kind == WORD and len(toks[i].key) <= 2
                                                and toks[i].key.isdigit())

    mine = {i for a, b in correct.terms for i in range(a, b)}
    if any(figure(i) for i in mine):
        return False  # both readings give figures: which one the writer meant is not clear
    return any(figure(i) and i not in mine for a, b in wrong.terms for i in range(a, b))


def _one_charge_per_error(mistakes: list[MistakeResult]) -> list[MistakeResult]:
    """Two mistakes whose evidence lies within each other's (every span of one overlaps a span of the other) are
    one wrong statement read by two recognisers ("RMSNorm kills the mean direction like LayerNorm" is both
    rmsnorm-kills-mean and both-kill-mean): it is charged once, by the one with the larger penalty. Two errors
    that only share a word ("the original recipe used SGD ... and cosine decay") are both charged. Order is kept."""
    if len(mistakes) < 2:
        return mistakes

    def within(x: MistakeResult, y: MistakeResult) -> bool:  # every word of x's evidence is in y's
        return bool(x.spans) and all(any(a < d and c < b for c, d in y.spans) for a, b in x.spans)

    kept: list[MistakeResult] = []
    for m in sorted(mistakes, key=lambda m: -m.penalty):
        if not any(within(m, k) or within(k, m) for k in kept):
            kept.append(m)
    return [m for m in mistakes if any(m is k for k in kept)]


def mistakes_in(card: Card, text: str | bytes, *, once_per_statement: bool = True) -> list[MistakeResult]:
    """Only the mistakes `text` makes against `card` (what self-consistency checks need; cheaper than scoring).
    With `once_per_statement=False`, every recogniser that fires (one statement may be read by two)."""
    rubric = rubric_for(card)
    answer = Analysis(rubric, text)
    out: list[MistakeResult] = []
    for point in card.points():
        for m in point.mistakes:
            bad = find_mistake(answer, rubric.mistake_claims[(point.id, m.id)], rubric.point_claims[point.id])
            if bad:
                out.append(MistakeResult(m.id, point.id, m.explanation, m.penalty * MISTAKE_WEIGHT, bad[0], bad[1]))
    return _one_charge_per_error(out) if once_per_statement else out


def score_answer(card: Card, text: str | bytes) -> ScoreResult:
    """Score `text` against `card`: per point hit/miss with evidence, mistakes with explanations.

    Never raises on any input; the total is always in [0, 100]; the empty answer scores 0.
    """
    rubric = rubric_for(card)
    answer = Analysis(rubric, text)
    sections: list[SectionResult] = []
    mistakes: list[MistakeResult] = []
    for section in card.sections:
        points: list[PointResult] = []
        for point in section.points:
            correct = rubric.point_claims[point.id]
            charged: list[Evidence] = []
            withheld: list[Evidence] = []  # wrong claims given as a purpose: not charged, but earning nothing
            for m in point.mistakes:
                wrong = rubric.mistake_claims[(point.id, m.id)]
                bad = find_mistake(answer, wrong, correct)
                if bad:
                    charged.append(bad)
                    mistakes.append(MistakeResult(m.id, point.id, m.explanation, m.penalty * MISTAKE_WEIGHT, bad[0], bad[1]))
                elif not wrong.any_subject_but_about and (as_purpose := find_mistake(answer, wrong, correct, qualified=True)):
                    withheld.append(as_purpose)
            found = find_point(answer, correct, tuple(charged), tuple(withheld))
            evidence, spans = found if found else ("", ())
            points.append(PointResult(point.id, point.claim, point.weight, found is not None, evidence, spans,
                                      given=point.id in rubric.given_points))
        sections.append(SectionResult(section.id, section.title, tuple(points)))
    notes: list[str] = []
    if answer.prep.truncated:
        notes.append(f"Only the first {MAX_SCORED_CHARS:,} characters of this answer were scored.")
    if answer.prep.dropped_repeats:
        notes.append(f"{answer.prep.dropped_repeats} repeated line(s) were counted once.")
    values = sum(1 for _ in _VALUE.finditer(answer.prep.text))
    filler = len({_filler_word(m.group(0)) for m in _FILLER.finditer(answer.prep.text)})
    # (the part of the original that was scored, at most twice the scored length: repeated lines are dropped)
    scored_end = min(answer.prep.origin[-1] + 1, 2 * MAX_SCORED_CHARS) if answer.prep.origin else 0
    written = read_form(answer.prep.original[:scored_end], answer.tokens)
    return ScoreResult(card.id, tuple(sections), tuple(_one_charge_per_error(mistakes)), tuple(notes), values, filler,
                       written, _listed_share(answer), _statements(answer))


def _statements(answer: Analysis) -> int:
    """How many clauses of the answer claim something (bare lists of terms are not statements)."""
    lay = answer.lay
    return sum(1 for c in range(len(lay.clause_span)) if lay.clause_claim[c] and not lay.clause_list[c])


#: The most words a labelled equation has ("encoder-only (N): alpha = (2N)^(1/4)", a table row of constants).
_EQUATION_LINE_WORDS = 8


def _listed_share(answer: Analysis) -> float:
    """The share of the answer's words that stand in clauses claiming nothing: bare lists of terms (0 for no words).
    A short clause that binds a value or states an equation ("decoder-only (M): beta = (8M)^(-1/4)") says something:
    it is no list."""
    lay = answer.lay
    words = listed = 0
    for c, (a, b) in enumerate(lay.clause_span):
        n = sum(1 for i in range(a, b) if lay.tokens[i].kind in (WORD, CJK))
        words += n
        if (lay.clause_list[c] or not lay.clause_claim[c]) and not (
                n <= _EQUATION_LINE_WORDS and b > a and "=" in lay.text[lay.tokens[a].start : lay.tokens[b - 1].end]):
            listed += n
    return listed / words if words else 0.0


def _filler_word(found: str) -> str:
    """One filler phrase however it is inflected ("synergy", "synergies", "synergistic")."""
    if not found.isascii():
        return found
    if found.endswith("-aware"):
        return "-aware"  # "geometry-aware, scale-aware and shift-aware" is one device used three times
    return "all" if found.startswith("all ") else found[:6]


#: Pronouns that may open a clause of their own before a claim's words ("it's too small", "they are large").
_CLAUSE_PRONOUNS = frozenset({"it", "they", "that", "this"})
#: ... the same with the verb glued on.
_PRONOUN_COPULAS = frozenset({"it's", "it\u2019s", "that's", "that\u2019s", "they're", "they\u2019re"})



def _named_in_an_earlier_aside(answer: Analysis, frame: Frame) -> bool:
    """The frame's subject is named only inside a bracket that closes an earlier comma part of its sentence, after
    words of that part ("最新的模型在子层输出端加 norm（Gemma 2、OLMo 2），或者用 DeepNorm 把 Post-LN 训稳", "newer models add an
    output norm (Gemma 2, OLMo 2), or use DeepNorm"): the bracket gives examples of that part's words, not the
    subject of the parts after it. Precision first: not charged."""
    lay, toks = answer.lay, answer.lay.tokens
    at = frame.who.at
    if at is None or at >= frame.start or lay.aside_of[at] < 0 or lay.sentence_of[at] != lay.sentence_of[frame.start]:
        return False
    close = next((j for j in range(at, frame.start) if toks[j].kind == PUNCT and toks[j].key == ")"), None)
    if close is None or close + 1 >= frame.start or toks[close + 1].key != ",":
        return False
    opening = next((j for j in range(at, -1, -1) if toks[j].kind == PUNCT and toks[j].key == "("), None)
    if opening is None or opening == 0 or lay.sentence_of[opening - 1] != lay.sentence_of[at]:
        return False  # (the bracket opens its sentence: nothing before it for it to give examples of)
    before = lay.part_opening(opening - 1)
    if sum(1 for j in range(before, opening) if toks[j].kind in (WORD, CJK) and not is_function_token(toks[j])) < 3:
        return False  # ("Modern models (LLaMA, Mistral), unlike BERT, use ...": examples of the subject itself)
    return not any(m.subject == frame.who.subject and lay.aside_of[m.start] < 0
                   and lay.sentence_span[lay.sentence_of[at]][0] <= m.start < frame.start for m in answer.subjects.mentions)


def _said_of_a_pronoun_before(answer: Analysis, frame: Frame) -> bool:
    """The claim's first words follow a pronoun and its verb, and all its other words come later ("where it's too
    small your effective step is huge"): those first words are said of what the pronoun points back to, and the
    later noun is the subject of a statement of its own. Precision first: not charged."""
    if len(frame.terms) < 2:
        return False
    lay, toks = answer.lay, answer.lay.tokens
    (a, b), (c, _) = sorted(frame.terms)[:2]
    k = a - 1
    if k < 0 or lay.part_of[k] != lay.part_of[a] or c < b:
        return False
    # the later words open a noun phrase of their own ("your effective step", ", the effective step size"), not the
    # rest of the predicate ("it's optional insurance", "it's renormalized at each layer")
    if not any(toks[j].key in NOUN_PHRASE_OPENERS or (toks[j].kind == PUNCT and toks[j].key == ",") for j in range(b, c)):
        return False
    raw = lay.text[toks[k].start : toks[k].end].lower()
    if raw in _PRONOUN_COPULAS:
        return True
    return (toks[k].kind == WORD and toks[k].key in COPULAS and k >= 1 and toks[k - 1].kind == WORD
            and toks[k - 1].key in _CLAUSE_PRONOUNS)


#: The checks that find a plain-looking wrong claim's words said of something else than the mistake's subject (an
#: equation binding them, a fraction's denominator, another name inside the claim, a noun or subject of its own or the
#: others, an alternative turned down, a name denied or set apart as an exception before, a relative clause on another
#: noun, a denied manner, a pointing noun or a written quantity opening a subordinate part, a pronoun and its verb
#: before them), tried in this order by
#: `find_mistake`.
_SAID_OF_SOMETHING_ELSE: tuple[Callable[[Analysis, Frame], bool], ...] = (
    _bound_by_equation, _in_a_denominator, _another_named_inside, _part_about_another_name, _size_of_another_noun,
    _own_subject_in_clause, _term_set_aside, _subject_denied_before, _subject_excepted, _subject_of_a_relative_clause,
    _after_a_relative_clause, _subject_of_what_it_does, _denied_manner, _said_of_a_noun_in_its_part, _named_after_a_colon,
    _done_by_another, _said_of_a_pronoun_before, _attribute_of_a_joined_noun_phrase, _untracked_placement_between,
    _predicate_names_another)
