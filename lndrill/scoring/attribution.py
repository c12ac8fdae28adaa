"""Who a claim is about: subject mentions, comparison partners, and how a claim finds its subject.

A claim's subject is looked for, in this order:

1. ``clause``: a subject named in the claim's own clause (between its words, then before it in the same
   comma part, then after it in that part, then before it in the clause); in a relative part ("BERT,
   which is Post-LN") the noun it hangs on; ``clause-after``: one named after it in another part of the
   clause ("flat in L, it is Pre-LN that shrinks" is not about Pre-LN's flatness);
2. ``label``: the label of its line ("Pre-LN: ...", "- T5: ..."), or a topic that opens the sentence ("For
   Pre-LN, ...", "For RMSNorm the Jacobian is ...");
3. ``sentence``: the nearest subject named earlier in the same sentence (``clause`` when the claim's clause
   opens with "they"/"it" right after a colon and the one subject named before owns the noun there:
   "Post-LN's gradients are uneven: they are largest ...");
4. ``paragraph``: the subject of an earlier sentence of the same paragraph or list item, when that
   sentence named exactly one; ``pronoun`` when the claim's sentence opens with "It" (maybe after a short "Like
   LayerNorm's," part) and the sentence right before opens with that subject and names no other;
5. ``heading``: the subject a heading names, for everything under it (a heading that names nobody right
   under one that does is its sub-heading and keeps that subject);
6. ``card``: the card's `default_subject` (the one its question is about), when none of the above names one.

A subject is never inherited across a paragraph break (only a heading reaches further; a displayed formula
inside an open sentence belongs to its paragraph) and never taken from a later clause, nor from a bracketed
aside that closed before the claim and says something of its own, nor from a name that labels what follows it
("... Post-norm (original): ..."). Mentions that are comparison partners ("than Post-LN", "unlike BERT, which is
Post-LN,", "和 Pre-LN 相比") are never subjects. Only ``clause``, ``label`` and ``pronoun`` subjects are
explicit enough for a mistake to be charged, and ``contrasted``: a placement from the sentence or paragraph whose clause
names only the other placement, as the other side of "versus" / "against" / "compared with" (with two
placements, what is set against Pre-LN is Post-LN).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from lndrill.scoring.lexicon import ARTICLES, CJK, COPULAS, NUMBER, PUNCT, WORD, Cues, Token, stem
from lndrill.scoring.structure import CAUSE, NOUN_PHRASE_OPENERS, Layout

#: Words after which a verb goes on with the subject of the verb before ("takes a Pre-LN block and adds ...").
_COORDINATED_VERB = frozenset({"and", "then", "but"})

#: The brackets a name alone in them tags the claim right before with ("... (Pre-LN)", "... [Pre]").
_TAG_CLOSERS = {"(": ")", "[": "]"}

#: Words that open a sentence's topic ("For Pre-LN, ...", "In Post-LN, ...", "对于 Pre-LN，...", "在 Post-LN 中，...").
_TOPIC_WORDS = frozenset({"for", "in", "with", "对于", "对", "在", "关于", "至于"})
#: Words that open the noun phrase after a topic written without its comma ("In Post-LN the gradient ...").
_TOPIC_NOUN_OPENERS = frozenset({"the", "each", "every", "all", "its"})
#: Words that may stand before a sentence's opening subject ("The Post-LN stack ...", "So Pre-LN ...", "而 Post-LN ...").
_OPENING_WORDS = frozenset({"the", "in", "so", "and", "but", "a", "with", "for", "对于", "在", "而", "所以"})
#: Quotation marks that may close a quoted phrase before a colon.
_CLOSING_QUOTES = frozenset('"\'\u201d\u2019\u300d\u300f')
#: Pronouns whose complement says what they are ("it's Pre-LN in spirit", "这是 Post-LN").
_PRONOUN_SUBJECTS = frozenset({"it", "this", "that", "它", "这", "那"})
#: Pronouns that open a sentence about the paragraph's subject ("It is the default in LLaMA").
_OPENING_PRONOUNS = frozenset({"it", "它", "其"})
#: Nouns for a placement's layer that its formula may follow ("the Pre-LN block x_{l+1} = x_l + F(LN(x_l))").
_FORMULA_HEADS = frozenset(stem(w) for w in ("block", "blocks", "layer", "layers", "form", "formula", "update", "recipe",
                                              "residual", "sublayer"))
#: Words for all the others, opening a part ("everything else", "the rest", "all the others").
_THE_REST = tuple(tuple(stem(w) for w in p.split()) for p in ("everything else", "all else", "the rest", "all the rest",
                                                                "all the others", "all others", "the others", "everyone else",
                                                                "every other"))
_THE_REST_ZH = ("其余", "其他", "其它", "剩下的", "别的")
#: Words a spoken answer to a question may open with before its subject ("Basically it's stable", "Well, it ...").
_ANSWER_OPENERS = frozenset(stem(w) for w in ("so", "basically", "well", "mainly", "mostly", "simply", "honestly",
                                               "because", "yeah", "yes", "um", "uh", "short", "answer", "in", "the", "one",
                                               "word"))
#: Words that open a short part setting a sentence's subject beside another before the subject itself ("Like LayerNorm's,
#: it ...", "Unlike Post-LN, it ..."), and how long that part may be (tokens).
_LIKENESS_OPENERS = frozenset({"like", "unlike", "和", "与", "跟", "同"})
_LIKENESS_PART_MAX = 6
#: Prepositions whose object is set beside a sentence's subject ("an addition to Pre-LN", "a fix for Post-LN").
_PREPOSITIONS_BEFORE_OBJECTS = frozenset({"to", "for", "from", "of", "on", "over", "with", "upon"})
_DETERMINERS_BEFORE_NAMES = ARTICLES | {"plain", "vanilla", "standard"}
#: How far after a name set beside the subject ("less a replacement for Pre-LN than an addition to it:") the colon that
#: closes the predicate may come (tokens).
_PREDICATE_TAIL = 8
#: Colons that end a label or a predicate (ASCII, ratio sign, full-width).
_COLONS = (":", "\u2236", "\uff1a")
#: What ends a Chinese clause of time before its main clause ("训练时", "的时候", "之后"): a name right after it is that
#: main clause's subject.
_ZH_WHEN_CLAUSE_ENDS = ("时", "时候", "之后", "以后")
#: Words that may stand between a topic word and the name it introduces ("with ordinary Pre-LN", "for plain Post-LN").
_PLAIN_MODIFIERS = _DETERMINERS_BEFORE_NAMES | {"ordinary", "regular", "normal", "usual", "classic", "original",
                                               "conventional"}
#: Words after a name that make it a kind something is like ("Pre-LN-style", "Post-LN-like", "Pre-LN flavoured").
_LIKENESS_WORDS = frozenset({"style", "styl", "like", "ish", "flavour", "flavor", "flavoured", "flavored", "type", "esque"})
#: Pronouns through which a later clause refers back to its sentence's opening subject.
_BACK_PRONOUNS = frozenset({"it", "its", "they", "their", "them", "itself", "它", "其", "它们"})
#: Punctuation after which a sentence has turned to another statement (its opening subject no longer governs).
_TURNS = frozenset({";", "；", ":", "："})
#: Pronouns that, right after such a turn, take the sentence's opening subject back ("...; it uses ...").
_TURN_PRONOUNS = frozenset({"it", "they", "它", "它们"})
#: Conjunctions that open a later part of a clause with a topic of its own (", and with Pre-LN ...", "，而 Pre-LN ...").
_PART_CONJUNCTIONS = frozenset({"and", "but", "while", "whereas", "而", "但", "但是", "然而"})
#: Words that open the subject of a clause after a conjunction (", and its gradient ...", ", but the growth ...").
_OWN_SUBJECT_OPENERS = frozenset({"its", "their", "it", "they", "the", "this", "that", "these", "those"})
#: Sources precise enough to charge a mistake.
EXPLICIT = frozenset({"clause", "label", "contrasted", "pronoun"})
#: The two placements: a claim set against one of them is about the other.
_OTHER_PLACEMENT = {"pre": "post", "post": "pre"}
#: Words that set two sides against each other ("versus", "vs", "against", "compared with", "whereas").
_SET_AGAINST = frozenset(stem(w) for w in ("versus", "vs", "against", "compared", "whereas"))
_VS = frozenset(stem(w) for w in ("versus", "vs"))
#: Verbs of beating: a name after one is what the subject beats ("Mix-LN outperforms both Pre-LN and Post-LN").
_BEATS = frozenset(stem(w) for w in ("outperform", "outperforms", "outperformed", "outperforming", "beat", "beats",
                                     "surpass", "surpasses", "surpassed", "outdo", "outdoes", "outdid"))
#: Comparison words that may open a sentence with their object ("Unlike Gemma 2, OLMo 2 has no input norm").
_FRONTED_CONTRAST = frozenset(stem(w) for w in ("unlike", "compared", "versus", "vs", "contrary"))
#: Words that may stand inside a formula's opening ("O(d sqrt(ln d / L))", "\Theta(d\sqrt{\ln d})").
_MATHS_WORDS = frozenset({"sqrt", "ln", "log", "theta", "frac", "mathcal", "mathrm", "left", "right", "big", "exp"})

_CONTRAST_BEFORE = Cues(
    en=("than", "unlike", "vs", "versus", "compared", "compare", "like", "besides", "beside", "against",
        # the object of a comparison or a change is not the subject ("it outperforms Pre-LN")
        "outperform", "outperforms", "outperformed", "beat", "beats", "surpass", "surpasses", "exceed", "exceeds",
        "replaced", "replaces", "replace", "extends", "modifies", "matched", "matches", "below", "above",
        # what is avoided is not the subject ("it avoids Post-LN's failure mode")
        "avoid", "avoids", "avoided", "avoiding", "sidestep", "sidesteps", "sidestepped", "escapes", "escaped"),
    # ("relative to Pre-LN"; not "relative" alone: "Relatives: OLMo 2 ...", "Pre-LN's relative update")
    pairs=("rather than", "instead of", "as opposed", "in contrast", "different from", "contrary to", "as in", "relative to",
           # "it doesn't depend on warm-up the way Post-LN does": the manner compared with
           "the way", "such as", "similar to", "opposite of", "switched from", "switch from", "switches from", "moved from",
           "changed from", "away from", "departs from", "based on", "builds on", "build on",
           "extension of", "modification of", "variant of", "same as", "comparable to", "on par", "as good",
           "as well", "matched the", "matches the", "match the", "start from", "starts from", "start with",
           "starts with", "starting from", "begin with", "you take", "we take", "take the", "taking",
           # "its advantage over Pre-LN", "preferred over Post-LN": what it is weighed against
           "advantage over", "advantages over", "gain over", "gains over", "improvement over", "edge over",
           "benefit over", "preferred over", "chosen over", "favoured over", "favored over", "wins over",
           # "the only difference from Pre-LN is a second LN": what it is set against
           "difference from", "differs from", "differ from", "deviation from",
           # "which is what separates it from Post-LN": what it is told apart from
           "separates it from", "separate it from", "distinguishes it from", "distinguish it from", "sets it apart from",
           "set it apart from",
           # "OLMo 2 goes the other way from Pre-LN: it ...": the direction it turns away from
           "way from", "opposite to", "opposite from", "departure from"),
    zh=("比", "较", "同于", "像", "比起", "相对于", "相较于", "有别于", "不同于", "对比", "区别于", "类似", "优于", "胜过",
        "超过", "好于", "强于", "不如", "低于", "高于", "从", "取代", "替代", "代替",
        # "Pre-LN 相比 Post-LN 有几个优势": the name right after 相比 is what the subject is weighed against
        "相比", "相较"),
)
_FAR_CONTRAST = Cues(zh=("相比", "相较", "比起", "相对于", "相较于", "不同于", "区别于",
                         # "不如 L 层的 Post-LN 模型", "比收敛后的 Post-LN 低": the partner after its own modifier
                         "比", "不如", "优于", "好于", "强于", "低于", "高于", "胜过"))
_CONTRAST_AFTER = Cues(zh=("相比", "相较", "对比", "那样", "之外", "基础上", "之上", "的基础"))
#: Cues that make the name after them a partner but do not turn a comma part they open into a comparison
#: phrase: "like"/"such as" give examples, and a part opening "matched Post-LN with warm-up", "gains over
#: Post-LN" or, after an aside, "takes the same view" is the claim's own predicate.
_NOT_PART_OPENERS = frozenset({"like", "besid", "such", "as", "similar", "match", "below", "above", "advantag", "gain",
                               "improvement", "edge", "benefit", "preferr", "chosen", "favour", "favor", "win", "take",
                               "tak"})
_PARTNER_BEFORE = ("和", "与", "跟", "同")
#: Degree words between a comparison partner and its likeness word ("和 Post-LN 完全不同", "跟 Pre-LN 很像").
_DEGREE_ZH = ("完全", "截然", "非常", "有所", "根本", "并不", "很", "不太", "略有", "都", "也")
#: "Post-LN > Pre-LN", "Pre-LN ≈ Post-LN": the name after a comparison sign is the yardstick.
_COMPARISON_SIGNS = frozenset({">", "<", "≈", "~"})
_PARTNER_AFTER = ("比", "较", "一样", "相同", "类似", "不同", "相比", "差不多", "相当", "持平", "接近", "一致", "打平", "同形", "同构",
                  "相似", "相近", "相仿")
_COPULAS = COPULAS | {"be", "becom", "becomes"}
_FILLERS = frozenset({"a", "an", "just", "basically", "simply", "really", "essentially", "still", "the", "only"})
_ZH_COPULA = Cues(zh=("是", "就是", "即", "等于", "相当于", "其实是", "本质上是"))
_COORDINATORS = frozenset({"and", "&", "+", ",", "和", "与", "及", "跟", "以及", "/", "or", "或"})
#: "and so", "and thus", "and hence" before a verb carry a verb phrase on.
_SO_ADVERBS = frozenset(stem(w) for w in ("so", "thus", "hence", "therefore"))
#: Words after such an adverb that open a clause of its own rather than a verb phrase.
_NOT_A_VERB_AFTER_SO = frozenset(stem(w) for w in (
    *NOUN_PHRASE_OPENERS, "it", "this", "that", "these", "those", "they", "we", "you", "i", "he", "she", "there", "each",
    "every", "all", "no", "one", "any", "some", "both"))
#: Labels of a list item that name an aspect of something rather than a thing ("Cost:", "代价：", "Downside:").
_ASPECT_LABELS = frozenset({
    "cost", "costs", "price", "the price", "the cost", "downside", "downsides", "the downside", "drawback", "drawbacks",
    "cons", "con", "pros", "pro", "benefit", "benefits", "advantage", "advantages", "disadvantage", "disadvantages",
    "catch", "the catch", "weakness", "weaknesses", "trade-off", "tradeoff", "limitation", "limitations", "caveat",
    "caveats", "代价", "缺点", "优点", "好处", "坏处", "局限", "弊端", "副作用", "不足", "优势", "劣势", "代价是"})
#: Words of an aside that only names something ("(i.e. Post-LN)", "(aka Pre-LN)", "（即 Post-LN）").
_NAMING_WORDS = frozenset({"i", "e", "ie", "aka", "a", "k", "the", "so", "called", "namely", "this", "is", "that",
                           "即", "也", "就", "是", "叫", "称", "为", "所", "谓", "的"})
#: "whereas here ...", "而这里 ...": a sentence's named subject set against the topic itself.
_SET_AGAINST_TOPIC = frozenset({stem("whereas"), stem("while"), "而", "但", "但是"})
_HERE = frozenset({"here", "this", "these", "这里", "这儿", "这种", "这样"})
#: Words that end a comparison whose other side follows them ("better than X", "like X", "比 X"; "as" only after
#: "as" or "same": "as well as X", "the same as X").
_COMPARED_WITH = frozenset({"than", "like", "比"})
#: How many words of its comma part may follow a claim's own words before a bracket that names its subject ("只在输出加
#: norm（OLMo 2）").
_TAG_REACH = 4
#: Words that may stand between the names of a bracket listing examples ("Pre-LN (e.g. GPT-2, LLaMA)", "(如 GPT-2 等)").
_EXAMPLE_WORDS = frozenset({"e", "g", "eg", "i", "ie", "and", "or", "etc", "&", "如", "例如", "比如", "等", "和", "及"})
_NAMERS = frozenset({stem(w) for w in ("named", "called", "known", "dubbed", "termed")} | {"称为", "叫做", "叫", "称", "即", "谓"})
_RELATIVE_OPENERS = frozenset({"which", "that", "what", "也", "就", "即", "所", "称", "叫"})
_RELATIVE = Cues(en=("which", "who", "whose", "where"), zh=("它", "其"))
#: Prepositions that open a relative part with "which"/"whom" ("Unlike Post-LN, for which warm-up is close to mandatory").
#: A relative pronoun right after a noun ("the warm-up that Post-LN needs"), and the openers and copulas of a cleft,
#: which is about the name after its "that" ("it is the warm-up that Post-LN needs").
RELATIVE_NOUN_CLAUSE = frozenset({"that", "which"})
CLEFT_OPENERS = frozenset({"it", "this"})
_CLEFT_COPULAS = frozenset({"is", "was"})
#: Prepositions that may stand before a relative "which" ("for which ...", "the mechanism by which ...").
RELATIVE_PREPOSITIONS = frozenset({"for", "in", "on", "to", "of", "with", "under", "by", "at", "from", "through"})


def _opens_relative(toks: list[Token], k: int) -> bool:
    """A relative word starts at k ("which ...", "where ...", "它 ..."), maybe after its preposition ("for which ...")."""
    if _RELATIVE.at(toks, k):
        return True
    return (toks[k].kind == WORD and toks[k].key in RELATIVE_PREPOSITIONS and k + 1 < len(toks)
            and toks[k + 1].kind == WORD and toks[k + 1].key in ("which", "whom"))


#: "which" that takes the whole clause before it, not the noun it follows ("about the same quality as LayerNorm, which is
#: why LLaMA uses it": why LLaMA uses RMSNorm; "..., which means the gradient at the bottom is ...").
_CLAUSE_WHICH = Cues(pairs=("which is why", "which was why", "which is the reason", "which was the reason", "which explains",
                            "which explained", "which means", "which meant", "which is how", "which was how",
                            "which is what", "which was what", "which in turn", "which leads", "which led"))


#: Relative words that hang a part on a noun (not "which", which often takes the whole clause before it: "...,
#: which is why deep Post-LN explodes").
_NOUN_RELATIVES = frozenset({"who", "whose", "where"})
#: How many words a comma part may hold and still be a noun phrase a "which" after it hangs on.
_SHORT_PART_WORDS = 3


@dataclass(frozen=True)
class Mention:
    """A subject named in the answer, and whether it is only a comparison partner."""

    subject: str
    start: int  # token indices
    end: int
    contrast: bool


@dataclass(frozen=True)
class Attribution:
    """The subject a claim is about, where it was found, and the token where it is named."""

    subject: str | None
    source: str | None
    at: int | None = None
    #: Subjects coordinated with it ("The 2017 Transformer and BERT are Post-LN"): the claim holds for them too.
    also: tuple[str, ...] = ()
    #: Subjects it is said to be like ("Similar to Llama, OLMo 2 switched to RMSNorm", "像 Pre-LN 一样"): the claim is
    #: said of them in passing, enough to earn their point, never to charge them a mistake.
    alike: tuple[str, ...] = ()

    @property
    def explicit(self) -> bool:
        """Named precisely enough (in the claim's clause or its line's label) to charge a mistake."""
        return self.source in EXPLICIT


NOBODY = Attribution(None, None, None)

#: Words that may stand before the name a sentence opens with ("The Post-LN block ...", "In Post-LN, ...").
_SENTENCE_OPENERS = frozenset({"the", "a", "an", "in", "with", "for"})


#: Group nouns that "like"/"such as" give examples of ("models like BERT" names BERT as the subject).
_EXAMPLE_HEADS = frozenset({"model", "llm", "lms", "architectur", "system", "network", "variant", "family", "design",
                            "transformer", "stack", "line", "one", "work", "paper", "method"})
#: Adjectives whose "to" names a yardstick even with a noun between ("comparable performance to Post-LN").
_LIKENESS = frozenset(stem(w) for w in ("comparable", "similar", "equal", "equivalent", "close", "identical",
                                        "inferior", "superior", "analogous", "competitive"))
_DENIED_SUBJECT = Cues(en=("not", "without"),
                       # "BERT does not use RMSNorm but LayerNorm", "BERT 不用 RMSNorm，而是 ...": the name denied as the object
                       # ("GPT-3 is pre-norm without being RMSNorm": the name it goes without)
                       pairs=("not use", "not using", "not used", "doesn't use", "don't use", "didn't use", "never use",
                              "never used", "never uses", "without being", "without using"),
                       zh=("不是", "而非", "并非", "不用", "没用", "没有用", "并不用", "不采用", "没有采用", "不使用", "没有使用"))


#: Verbs of taking something over from a model ("LLaMA kept GPT-2's layout", "copied BERT's recipe").
_REUSE_VERBS = frozenset(stem(w) for w in ("keep", "keeps", "kept", "copy", "copies", "copied", "follow", "follows",
                                           "followed", "adopt", "adopts", "adopted", "inherit", "inherits",
                                           "inherited", "borrow", "borrows", "borrowed", "reuse", "reuses", "reused",
                                           "take", "takes", "took", "retain", "retains", "retained"))
#: Verbs whose object a possessive name may own while another name is their subject ("Sandwich-LN keeps Pre-LN's
#: input norm", "OLMo 2 drops Gemma 2's input norm").
_TAKES_OBJECT = _REUSE_VERBS | frozenset(stem(w) for w in ("drops", "drop", "dropped", "removes", "remove", "removed",
                                                           "replaces", "replace", "replaced", "adds", "add", "added",
                                                           "shares", "share", "shared", "lacks", "lack", "lacked",
                                                           "moves", "move", "moved"))


#: Chinese prepositions that put a possessed name inside a place or object phrase ("在 Pre-LN 的分支末尾", "把 Post-LN 的
#: LN 移到 ..."): the name owns that phrase's noun; the clause's subject is named before it.
_ZH_PLACE_PREPOSITIONS = frozenset({"在", "把", "将", "给", "往", "从", "对", "于", "向"})


def _reused_from(tokens: list[Token], start: int, end: int, text: str) -> bool:
    """"kept GPT-2's layout": the owner of what a verb of taking over takes is where it comes from, not the
    subject (only with the possessive: "Pre-LN keeps the identity path" is Pre-LN's own claim)."""
    if not text or start == 0 or text[tokens[end - 1].end : tokens[end - 1].end + 2] != "'s":
        return False
    j = start - 1
    if tokens[j].key == "the" and j > 0:
        j -= 1
    return tokens[j].kind == WORD and tokens[j].key in _REUSE_VERBS


def _by_contrast(tokens: list[Token], j: int) -> bool:
    """The comparison word ending at j is the adverb "by contrast" ("相比之下", "相较之下", "对比之下"), which weighs the
    clause against what came before and names no partner."""
    return j + 2 < len(tokens) and tokens[j + 1].key == "之" and tokens[j + 2].key == "下"


#: Auxiliaries that stand for the verb before them at the end of "as X does" / "as X did".
_BARE_AUXILIARIES = frozenset(stem(w) for w in ("does", "did", "do", "is", "was", "has", "had", "would", "can", "could"))


#: Words that only join an elliptical subject to what came before ("and Pre-LN, ..., does not", "..., and Pre-LN
#: doesn't"), as token keys ("whereas" is stemmed to "wherea").
ELLIPSIS_JOINERS = frozenset({"and", "but", "while", "wherea", "whereas", "或", "而", "但"})
#: Nouns a placement's name may carry before "plus" / "+" ("the Post-LN stream + ...", "Pre-LN 主干 + ...").
_BASE_NOUNS = frozenset({stem(w) for w in ("stream", "trunk", "backbone", "block", "blocks", "layer", "layers", "path",
                                            "residual")} | {"主干", "残差流", "流", "结构", "架构"})


def _words_before(tokens: list[Token], start: int, text: str, n: int) -> list[int]:
    """The indices of the n tokens before `start`, nearest first, not counting articles and the first halves of
    hyphenated modifiers ("than a well-tuned Post-LN": "than" is 3 counted words back, as in "than tuned Post-LN")."""
    out: list[int] = []
    j, counted = start - 1, 0
    while j >= 0 and counted < n:
        out.append(j)
        t = tokens[j]
        if not (t.kind == WORD and (t.key in ("a", "an", "the") or text[t.end : tokens[j + 1].start] == "-")):
            counted += 1
        j -= 1
    return out


def _ends_line_wanting_partner(tokens: list[Token], j: int) -> bool:
    """Token j, the last of its line, is a comparison word that needs what it compares with ("Pre-LN 比" / "lower
    than" closing a hard-wrapped line): the line goes on into the next one, where the partner stands."""
    t = tokens[j]
    return t.key in _COMPARED_WITH and not (t.key == "比" and j > 0 and tokens[j - 1].key in ("可", "对"))


def _hard_wrap(tokens: list[Token], j: int, text: str, end: int) -> bool:
    """The line break after token j only wraps a sentence ("Pre-LN 比 converged\nPost-LN 低 0.5 BLEU"): one newline
    after a word, and the name after it is no line label (": ..." after it)."""
    gap = text[tokens[j].end : tokens[j + 1].start]
    if tokens[j].kind == PUNCT or gap.count("\n") != 1 or gap.strip(" \t\n"):
        return False
    return end >= len(tokens) or tokens[end].key not in (":", "：")


def _comparison_stops(tokens: list[Token], j: int, text: str, end: int) -> bool:
    """A comparison word before the mention at [.., end) cannot reach over token j: punctuation, or a line break after
    it (unless the line ends in the comparison word itself, or the break only wraps a sentence)."""
    return tokens[j].kind == PUNCT or ("\n" in text[tokens[j].end : tokens[j + 1].start]
                                        and not _ends_line_wanting_partner(tokens, j)
                                        and not _hard_wrap(tokens, j, text, end))


#: Words that make a name before them, joined by a hyphen, a level reached or matched ("Post-LN-level BLEU",
#: "Post-LN-quality results", "Pre-LN-parity").
_LEVEL_WORDS = frozenset({"level", "quality", "parity", "equivalent", "grade"})


def is_contrast(tokens: list[Token], start: int, end: int, text: str = "") -> bool:
    """True when the mention at [start, end) is the thing compared against ("than Post-LN"), or the one set
    aside ("..., not Post-LN", "而非 Post-LN")."""
    if start > 0 and _DENIED_SUBJECT.ends_at(tokens, start - 1) >= 0:
        return True
    sign = start - 2 if start > 1 and tokens[start - 1].key == "=" else start - 1  # ">=" / "<="
    if sign >= 0 and tokens[sign].kind == PUNCT and tokens[sign].key in _COMPARISON_SIGNS:
        return True
    for j in _words_before(tokens, start, text, 3):
        t = tokens[j]
        if _comparison_stops(tokens, j, text, end):
            break  # a comparison word never reaches across punctuation or a line break (one that wraps a sentence aside)
        k = _CONTRAST_BEFORE.ends_at(tokens, j) if t.kind in (WORD, CJK) else -1
        if k >= 0 and t.kind == CJK and _by_contrast(tokens, j):
            break  # "相比之下 Pre-LN 不用 warm-up 也能训": "by contrast" opens the clause; the name after it is its subject
        if k >= 0 and tokens[k].key in ("like", "such") and k > 0 and tokens[k - 1].key in _EXAMPLE_HEADS:
            continue  # "models like BERT", "LLMs such as LLaMA": examples, the subject itself
        if k >= 0 and not (t.key == "比" and k == j and j > 0 and tokens[j - 1].key == "可"):  # 雅可比 is no comparison
            return True
        if t.kind == WORD and t.key == "to" and j >= 2 and tokens[j - 2].kind == WORD and tokens[j - 2].key in _LIKENESS:
            return True  # "comparable performance to Post-LN", "similar results to Pre-LN"
    # "相比原始 Transformer 的 Post-LN": a Chinese comparison word reaches over the noun phrase it opens (up to 的)
    for j in range(start - 1, max(-1, start - 12), -1):
        t = tokens[j]
        if _comparison_stops(tokens, j, text, end):
            break
        if t.kind == CJK and _FAR_CONTRAST.at(tokens, j) and any(tokens[q].key == "的" for q in range(j, start)) and not (
                t.key == "比" and j > 0 and tokens[j - 1].key in ("可", "对")):  # 雅可比, 对比: no comparison word
            return True
    for j in range(end, min(len(tokens), end + 3)):
        cue = _CONTRAST_AFTER.at(tokens, j) if tokens[j].kind == CJK else 0
        # "与 Post-LN 相比，..." sets Post-LN aside; in "Pre-LN 相比 Post-LN ..." a name follows: the partner is that one
        # ("Post-LN 相比之下更难训练": "by comparison", Post-LN is still the subject)
        below = j + cue < len(tokens) and tokens[j + cue].key == "之"
        if cue and not below and not (j + cue < len(tokens) and tokens[j + cue].kind == WORD):
            return True
        if tokens[j].kind == PUNCT:
            break
    if _same_as_before(tokens, start, text):
        return True
    if _as_it_does_for(tokens, start, text):
        return True
    # "..., and it doesn't depend on warm-up as Post-LN does": the name between "as" and its bare auxiliary is the
    # one compared with
    if (start > 0 and tokens[start - 1].key == "as" and end < len(tokens) and tokens[end].key in _BARE_AUXILIARIES
            and (end + 1 >= len(tokens) or tokens[end + 1].kind == PUNCT)):
        return True
    # "gradient flow is Pre-LN-like;": a likeness said of something else ("Pre-LN-like stability", before its
    # noun, still credits Pre-LN with it)
    if (end + 1 < len(tokens) and tokens[end].kind == WORD and tokens[end].key == "like"
            and text[tokens[end - 1].end : tokens[end].start] == "-" and tokens[end + 1].kind == PUNCT):
        return True
    # "Pre-LN reached Post-LN-level BLEU": a name joined to a word of measure is the level another reaches
    if (end < len(tokens) and tokens[end].kind == WORD and tokens[end].key in _LEVEL_WORDS
            and text[tokens[end - 1].end : tokens[end].start] == "-"):
        return True
    if _reused_from(tokens, start, end, text):
        return True
    if _replaced_by(tokens, start, end, text):
        return True
    if _alternative(tokens, start):
        return True
    # "Pre-LN plus a norm on the branch output": the base a variant is described from; also a "+" after a noun of
    # the name ("a Post-LN stream + an unnormalised stream": the second stream is another thing)
    for j in range(end, min(len(tokens), end + 3)):
        if tokens[j].kind == WORD and tokens[j].key in ("plus", "minus"):
            return True
        # (a "+" between words, after a noun of the name: "Pre-LN + final LN" is one setup, "x + F(x)" a formula)
        if tokens[j].key == "+" and j > end and j + 1 < len(tokens) and (
                tokens[j + 1].kind == CJK or tokens[j + 1].kind == WORD and len(tokens[j + 1].key) > 1):
            return True
        if tokens[j].key not in _BASE_NOUNS:
            break
    # "和 Pre-LN 比" / "与 Pre-LN 比": a comparison partner ("和 Post-LN 完全不同": past a degree word)
    if not _partner_word_after(tokens, end, text):
        return False
    # "和 Post-LN 相当", "和带 warm-up 的 Post-LN 相当", "和把整条残差流归一化的 Post-LN 不同": the partner word opens the
    # noun phrase the name ends
    for j in range(start - 1, max(-1, start - 15), -1):
        if tokens[j].kind == PUNCT and tokens[j].key not in "+-/":
            return False
        if tokens[j].key in _PARTNER_BEFORE + ("像",):
            return True
    return False


#: Pronouns that stand for the claim's own subject in "like it does for Pre-LN" / "as they do in BERT".
_STAND_IN_PRONOUNS = frozenset(stem(w) for w in ("it", "they", "this", "that", "one"))


def _as_it_does_for(tokens: list[Token], start: int, text: str) -> bool:
    """"the bound doesn't go down with depth like it does for Pre-LN", "as they do in BERT": the name after "like /
    as" + a stand-in pronoun + a bare auxiliary + a preposition is the one compared with."""
    back = _words_before(tokens, start, text, 4)
    if any(tokens[j].kind != WORD for j in back):
        return False
    words = [tokens[j].key for j in back if tokens[j].key not in ("a", "an", "the")]
    return (len(words) == 4 and words[0] in ("for", "in", "with", "under") and words[1] in _BARE_AUXILIARIES
            and words[2] in _STAND_IN_PRONOUNS and words[3] in ("like", "as", "unlike"))


def _partner_word_after(tokens: list[Token], end: int, text: str) -> bool:
    """A likeness or comparison word follows the name ("和 Post-LN 相当"), maybe past a degree word ("完全不同"), a
    short noun of its ("的做法一样") or its own formula or aside ("的 $LN(x+F(x))$ 不同", "（LN(x + F(x))）不同")."""
    after = _cjk_after(tokens, end, 8)
    if after.startswith("的") and not after.startswith(tuple("的" + w for w in _PARTNER_AFTER)):
        # "的做法一样", "的设计不同": a noun of two or three characters, then the likeness word
        if any(after[k:].startswith(w) for k in (3, 4) for w in _PARTNER_AFTER):
            return True
    if not after.startswith(_PARTNER_AFTER) and (past := _past_formula_or_aside(tokens, end, text)) > end:
        after = _cjk_after(tokens, past, 5)
    after = after[len(next((a for a in _DEGREE_ZH if after.startswith(a)), "")):]
    return after.startswith(_PARTNER_AFTER)


def _cjk_after(tokens: list[Token], end: int, n: int) -> str:
    """The first n Chinese characters right after a mention, past a short Latin tail ("和 Post-LN+warm-up 相当"): ""
    when a comma or a full stop comes first."""
    j = end
    while j < min(len(tokens), end + 6) and tokens[j].kind != CJK:
        if tokens[j].kind == PUNCT and tokens[j].key not in "+-/":
            return ""
        j += 1
    return "".join(t.key for t in tokens[j : j + n] if t.kind == CJK)


#: Punctuation that ends what a name's formula or aside can hold before the words after it.
_PAST_TAIL_STOPS = frozenset({",", "，", "。", ".", ";", "；", ":", "：", "、", "!", "?", "！", "？"})


def _past_formula_or_aside(tokens: list[Token], end: int, text: str) -> int:
    """Where the words resume after a name's own formula or aside ("Post-LN 的 $LN(x+F(x))$ 不同", "Post-LN（LN(x + F(x))）
    不同"): the first Chinese token after "的" + a Latin tail, or after a bracketed aside, within a few tokens; `end` when
    neither follows."""
    if end >= len(tokens):
        return end
    if tokens[end].key == "的":
        j = end + 1
        if j < len(tokens) and tokens[j].kind == CJK:
            return end  # "的做法": a noun, not a formula (see _partner_word_after)
    elif tokens[end].kind == PUNCT and tokens[end].key in ("(", "（"):
        j = end
    else:
        return end
    for k in range(j, min(len(tokens), j + 30)):
        t = tokens[k]
        if t.kind == CJK:
            return k
        line_break = k + 1 < len(tokens) and "\n" in text[t.end : tokens[k + 1].start]
        if (t.kind == PUNCT and t.key in _PAST_TAIL_STOPS) or line_break:
            return end
    return end


#: "a trade-off between LayerNorm and RMSNorm", "either Pre-LN or Post-LN": the names are alternatives weighed, and
#: what the clause says holds for neither alone.
_ALTERNATIVES = frozenset({"between", "either", "whether"})


def _alternative(tokens: list[Token], start: int) -> bool:
    """The name at `start` is one of a pair opened by "between"/"either"/"whether" ("between LayerNorm and RMSNorm")."""
    j = start - 1
    if j >= 0 and tokens[j].kind == WORD and tokens[j].key in _ALTERNATIVES:
        return True
    if j < 0 or tokens[j].key not in ("and", "or"):
        return False
    for k in range(j - 1, max(-1, j - 6), -1):
        if tokens[k].kind == PUNCT and tokens[k].key not in ("-", "/"):
            return False
        if tokens[k].kind == WORD and tokens[k].key in _ALTERNATIVES:
            return True
    return False


#: "把 LayerNorm 换成 RMSNorm": the verbs after which what 把 took is the thing replaced.
_REPLACED_BY = Cues(zh=("换成", "换为", "改成", "改为", "替换成", "替换为", "替换掉", "换掉", "改用"))


def _replaced_by(tokens: list[Token], start: int, end: int, text: str) -> bool:
    """"把 LayerNorm 换成了 RMSNorm", "replaced GPT-2's LayerNorm with RMSNorm": the name taken by 把 (right after it, or
    after a possessive "GPT-2 的") or by "replace ... with" is what is removed, not the subject."""
    if end < len(tokens) and tokens[end].kind == WORD and tokens[end].key in ("with", "by", "for"):
        # "replaced GPT-2's LayerNorm with RMSNorm", "swaps LayerNorm for RMSNorm"
        for j in range(start - 1, max(-1, start - 6), -1):
            if tokens[j].kind == PUNCT:
                break
            if tokens[j].kind == WORD and tokens[j].key.startswith(("replac", "swap")):
                return True
    j = start - 1
    if j >= 1 and tokens[j].key == "的":
        j -= 1
        while j >= 0 and tokens[j].kind != PUNCT and tokens[j].key != "把" and start - j <= 6:
            j -= 1
    if j < 0 or tokens[j].key != "把" or "\n" in text[tokens[j].end : tokens[start].start]:
        return False
    for k in range(end, min(len(tokens), end + 4)):
        if tokens[k].kind == PUNCT:
            return False
        if _REPLACED_BY.at(tokens, k):
            return True
    return False


def _same_as_before(tokens: list[Token], start: int, text: str = "") -> bool:
    """"the same BLEU as (warmed-up) Post-LN", "the same layout as Gemma 2": the mention is the yardstick. A line break
    right after the "as" is a hard wrap ("does the same as" ending a line, "Gemma 2, RMSNorm on both ..." the next); one
    after the words that follow it ends a line of notes that had its yardstick ("... = same shape as sandwich", then
    "Gemma 2   RMSNorm ..." opening the next)."""
    for j in range(start - 1, max(-1, start - 4), -1):
        if tokens[j].kind != WORD or (tokens[j].key != "as" and "\n" in text[tokens[j].end : tokens[j + 1].start]):
            return False
        if tokens[j].key == "as":
            # "the same BLEU (~34) as Post-LN": a bracketed figure between them does not part them
            return any(tokens[k].kind == WORD and tokens[k].key == "same" for k in range(j - 1, max(-1, j - 10), -1)
                       if all(tokens[m].kind == WORD or tokens[m].kind == NUMBER or tokens[m].key in "()~"
                              for m in range(k, j)) and sum(tokens[m].kind == WORD for m in range(k, j)) <= 5)
    return False


def _hybrid_name(tokens: list[Token], start: int, end: int, text: str) -> bool:
    """The mention is the second half of a hybrid's name ("Pre-Post-LN", ResiDual's name for itself; "Post-Pre-LN"):
    the hybrid is neither placement."""
    if start == 0 or tokens[start].key not in ("pre", "post"):
        return False
    before = tokens[start - 1]
    return before.key in ("pre", "post") and before.key != tokens[start].key and text[before.end : tokens[start].start] == "-"


#: Words the identifier of a placement or a norm is made of (`pre_ln`, `post_layer_norm`, `sandwich_norm`, and
#: `J_LN` / `J_RMS`, the Jacobians named after their norm).
_NAME_ID_WORDS = frozenset({"pre", "post", "peri", "sandwich", "ln", "layer", "norm", "layernorm", "rmsnorm", "rms",
                            "normalization", "normalisation", "j"})


def _inside_identifier(tokens: list[Token], start: int, end: int, text: str) -> bool:
    """The mention is part of a code identifier that names a module, not a placement: glued by "_" to a word
    outside the mention (`use_pre_ln_flag`), or spanning one with a word no placement's name has
    (`post_attention_layernorm`, which a gap-tolerant "post layernorm" would read; LLaMA's module of that name is the
    pre-norm of its MLP). A name that is a whole identifier of its own (`pre_ln`, `post_norm`) is still a mention."""
    a, b = tokens[start].start, tokens[end - 1].end
    if (a >= 2 and text[a - 1] == "_" and text[a - 2].isalnum()) or (
            b + 1 < len(text) and text[b] == "_" and text[b + 1].isalnum()):
        return True
    glued = any(text[tokens[i].end : tokens[i + 1].start] == "_" for i in range(start, end - 1))
    return glued and any(tokens[i].kind == WORD and tokens[i].key not in _NAME_ID_WORDS for i in range(start, end))


class Subjects:
    """The subject mentions of one answer, and attribution of claims to them."""

    def __init__(self, lay: Layout, found: list[tuple[str, int, int]], default: str | None = None,
                 others: Iterable[int] = ()) -> None:
        """`found` are the subjects' mentions (subject, first token, end); `others` the first tokens of names of
        methods that are none of the card's subjects: other normalisation methods (QK-Norm, BatchNorm, ...), and the
        placements on a card that does not have them as subjects ("Post-LN" on the Sandwich-LN card)."""
        self.lay = lay
        self._others = sorted(others)
        self._other_blocks = {lay.block_of[a] for a in self._others}
        self.default = Attribution(default, "card") if default else NOBODY
        toks = lay.tokens
        chosen: list[tuple[str, int, int]] = []
        taken: set[int] = set()
        for subject, a, b in sorted(found, key=lambda m: (-(m[2] - m[1]), m[1])):
            if any(i in taken for i in range(a, b)) or _hybrid_name(toks, a, b, lay.text) \
                    or _inside_identifier(toks, a, b, lay.text):
                continue
            chosen.append((subject, a, b))
            taken.update(range(a, b))
        chosen.sort(key=lambda m: m[1])
        self.contrast_parts = self._contrast_parts([(a, b) for _, a, b in chosen])
        self.mentions = [Mention(s, a, b, is_contrast(toks, a, b, lay.text) or lay.part_of[a] in self.contrast_parts)
                         for s, a, b in chosen]
        self.mentions = self._predicate_nominals(self.mentions)
        self.tokens_covered = taken
        self._starts = [m.start for m in self.mentions]
        self._subjects_mentions = [m for m in self.mentions if not m.contrast]
        named_subjects = {m.subject for m in self._subjects_mentions}
        self._sole = next(iter(named_subjects)) if len(named_subjects) == 1 else None  # (see sole_subject)
        self._sentence_subjects: dict[int, set[str]] = {}
        for m in self._subjects_mentions:
            self._sentence_subjects.setdefault(lay.sentence_of[m.start], set()).add(m.subject)
        self._block_first: dict[int, int] | None = None  # block -> its first token (built on first use)
        self._heading_subject = self._heading_subjects()
        self._sibling_cache: dict[int, Mention | None] = {}
        self._closer: list[int] | None = None
        self._part_starts: list[int] | None = None  # first token of each run of one part (built on first use)
        self._has_arrow = lay.arrows_before[-1] > 0
        # names that label what follows them ("Post-norm (original): ..."): never the subject of the words before
        self._labels = {m.start for m in self.mentions if self._labels_what_follows(m, len(toks))}

    def sole_subject(self, before: int) -> str | None:
        """The one subject the whole text names (names in contrast aside), if it is named before token `before`; else
        None (and when the text names none or several). A passage about OLMo 2 alone is about OLMo 2 in every paragraph
        after it is introduced, the card's own subject being named nowhere."""
        if self._sole is None or self._subjects_mentions[0].start >= before:
            return None
        return self._sole

    def _contrast_parts(self, spans: list[tuple[int, int]]) -> set[int]:
        """Comma parts that belong to a comparison phrase: "Unlike BERT, which is Post-LN, ...".

        A part that opens with "unlike"/"compared with"/"不同于" (or ends with "相比"/"不同") is the comparison,
        whatever it names; a relative part right after it ("which is ...", "它是 ...") belongs to it too.
        """
        lay, toks = self.lay, self.lay.tokens
        out: set[int] = set()
        first_of: dict[int, int] = {}
        last_of: dict[int, int] = {}
        for i, t in enumerate(toks):
            if t.kind == PUNCT:
                continue
            first_of.setdefault(lay.part_of[i], i)
            last_of[lay.part_of[i]] = i
        for part, first in first_of.items():
            last = last_of[part]
            n = _CONTRAST_BEFORE.at(toks, first)
            # (a part that goes on after a closed aside does not open with its first word: "DeepNorm (Wang et al.) like
            # Post-LN ...", "Peri-LN（arXiv:2502.02732）和 Sandwich 同一个结构")
            opens = n > 0 and not (toks[first].kind == WORD and toks[first].key in _NOT_PART_OPENERS) and not (
                toks[first].kind == CJK and _by_contrast(toks, first + n - 1)) and not (
                first > 0 and toks[first - 1].kind == PUNCT and toks[first - 1].key == ")")
            closes = toks[last].kind == CJK and _CONTRAST_AFTER.ends_at(toks, last) >= 0
            if not (opens or closes):
                continue
            out.add(part)
            nxt = first_of.get(part + 1)
            if nxt is not None and lay.clause_of[nxt] == lay.clause_of[first] and _opens_relative(toks, nxt):
                out.add(part + 1)
            elif nxt is not None and lay.clause_of[nxt] == lay.clause_of[first]:
                out.update(self._appositive_equation(nxt, spans))
        return out

    def _appositive_equation(self, a: int, names: list[tuple[int, int]]) -> set[int]:
        """The parts from token a to the next comma, when they are an equation set beside the comparison before them
        and the clause goes on after them: "Unlike DeepNet's own choice, alpha = (2N)^(1/4), GLM picked a larger one"
        (the value is DeepNet's). `names` are the spans of the subjects named in the answer."""
        lay, toks = self.lay, self.lay.tokens
        b, words = a, 0
        while b < len(toks) and toks[b].key not in (",", "，") and lay.clause_of[b] == lay.clause_of[a]:
            words += toks[b].kind != PUNCT
            if words > 12:
                return set()  # (no short equation: the walk stops here, whatever the clause's length)
            b += 1
        if not (b < len(toks) and toks[b].key == "," and b + 1 < len(toks) and lay.clause_of[b + 1] == lay.clause_of[a]
                and words > 0 and any(t.kind == PUNCT and t.key == "=" for t in toks[a:b])
                and not any(t.kind == CJK for t in toks[a:b]) and not any(a <= x < b for x, _ in names)):
            return set()
        return {lay.part_of[i] for i in range(a, b)}

    def _predicate_nominals(self, mentions: list[Mention]) -> list[Mention]:
        """"Sandwich-LN is Pre-LN with an extra norm", "RMSNorm is LayerNorm without the mean": the subject named
        after a copula, when another subject opens the same part, describes it and is not the subject."""
        lay, toks = self.lay, self.lay.tokens
        out: list[Mention] = []
        seen: dict[int, set[str]] = {}  # per part: the subjects named so far (not as comparison partners)
        for m in mentions:
            j = m.start - 1
            while j >= 0 and toks[j].key in _FILLERS:
                j -= 1
            copula = j >= 0 and (toks[j].key in _COPULAS or (toks[j].kind == CJK and _ZH_COPULA.ends_at(toks, j) >= 0))
            named = seen.setdefault(lay.part_of[m.start], set())
            earlier = bool(named - {m.subject})
            if copula and not earlier and not named and self._copula_opens_part(j):
                # "Sandwich-LN, roughly speaking, is Pre-LN with a lid": an aside between commas parts the subject
                # from its copula; the subject is the one the clause named before the aside
                earlier = bool(self._named_before_aside(j, seen) - {m.subject})
            out.append(Mention(m.subject, m.start, m.end, True) if copula and earlier and not m.contrast else m)
            if not m.contrast:
                named.add(m.subject)
        return out

    def _copula_opens_part(self, j: int) -> bool:
        """The copula at token j is the first word of its comma part ("..., roughly speaking, is Pre-LN")."""
        lay, toks = self.lay, self.lay.tokens
        k = j - 1
        while k >= 0 and toks[k].key in _FILLERS:
            k -= 1
        return k >= 0 and toks[k].key == "," and lay.part_of[k + 1] == lay.part_of[j]

    def _named_before_aside(self, j: int, seen: dict[int, set[str]]) -> set[str]:
        """The subjects named in the part before a short aside that ends right before the copula at token j: the
        aside ("roughly speaking", "in short", "at its core") is at most four words and names nobody."""
        lay, toks = self.lay, self.lay.tokens
        part = lay.part_of[j]
        aside = [i for i in range(max(0, j - 8), j) if lay.part_of[i] == part - 1]
        if not aside or len([i for i in aside if toks[i].kind != PUNCT]) > 4 or (part - 1) in seen:
            return set()
        if lay.clause_of[aside[0]] != lay.clause_of[j]:
            return set()
        return seen.get(part - 2, set())

    def _heading_subjects(self) -> dict[int, str | None]:
        out: dict[int, str | None] = {}
        named: dict[int, set[str]] = {}
        first_line = {blk: self.lay.line_of[i] for blk, i in self._first_tokens().items()}
        for m in self.mentions:  # "## Post-LN vs Pre-LN" names two subjects, whatever "vs" makes of one
            blk = self.lay.block_of[m.start]
            if self.lay.block_kind[blk] == "item" and self.lay.line_of[m.start] != first_line[blk]:
                # an item heads the items nested under it by its own line, not by the lines under that ("- **Post-Norm**"
                # over "  ![Post-LN vs Pre-LN diagram](...)" and "  - 问题: ...")
                continue
            if self.lay.block_kind[blk] == "heading" or (blk in self.lay.lead_blocks and not m.contrast):
                # a line leading into a list names its subject the way a sentence does: "Pre-LN has several
                # advantages over Post-LN:" leads into Pre-LN's advantages
                named.setdefault(blk, set()).add(m.subject)
        for blk, subjects in named.items():
            if len(subjects) == 1:
                out[blk] = next(iter(subjects))
        kinds = self.lay.block_kind
        for blk in self._other_blocks:
            # "## QK-Normalization" over "Used in Llama 3, PaLM and most 2024+ models": a heading that names another
            # method, and none of the card's subjects, heads text about that method, not about the card's subject
            if kinds[blk] == "heading" and blk not in named:
                out[blk] = None
                named[blk] = set()
        for blk in range(1, len(kinds)):
            # "Post-Norm 的问题\n主要问题\n- ...": a heading that names nobody, right under one that names a subject
            # (nothing between them), is its sub-heading
            if kinds[blk] == "heading" and kinds[blk - 1] == "heading" and blk not in named and blk - 1 in out:
                out[blk] = out[blk - 1]
            # a label item nested under an item that names a subject ("- **Pre-Norm**" over "  - **优势**:")
            elif kinds[blk] == "heading" and blk not in named and self.lay.heading_of[blk] in out:
                out[blk] = out[self.lay.heading_of[blk]]
        # A heading that names nobody under a higher-ranked one that names a subject ("### Pre-LN" over "**Pros:**",
        # "## Post-LN" over "### Problems") is its sub-heading, whatever paragraphs lie between them.
        open_headings: list[tuple[int, int]] = []  # (rank, block), outermost first
        for blk, rank in self._heading_ranks() if out else ():  # (nothing to pass down when no heading names one)
            while open_headings and open_headings[-1][0] >= rank:
                open_headings.pop()
            if blk not in named and blk not in out and open_headings and open_headings[-1][1] in out:
                out[blk] = out[open_headings[-1][1]]
            open_headings.append((rank, blk))
        return out

    def _first_tokens(self) -> dict[int, int]:
        """Block -> its first token (built on first use)."""
        if self._block_first is None:
            self._block_first = {}
            for i, b in enumerate(self.lay.block_of):
                self._block_first.setdefault(b, i)
        return self._block_first

    def _heading_ranks(self) -> list[tuple[int, int]]:
        """Each heading block with its rank, smaller is higher: "#" to "######" 1-6, any other title 7, a bold or
        colon-ended label line 8."""
        lay, toks, text = self.lay, self.lay.tokens, self.lay.text
        out: list[tuple[int, int]] = []
        for blk, first in sorted(self._first_tokens().items()):
            if lay.block_kind[blk] != "heading":
                continue
            tok = toks[first]
            a = text.rfind("\n", 0, tok.start) + 1
            b = text.find("\n", tok.start)
            line = text[a : b if b >= 0 else len(text)].strip()
            hashes = len(line) - len(line.lstrip("#"))
            rank = hashes if 1 <= hashes <= 6 else 8 if line.startswith("**") or line.endswith((":", "：")) else 7
            out.append((blk, rank))
        return out

    def _before(self, k: int) -> Iterator[Mention]:
        """The mentions before the k-th, nearest first (without copying the list: callers usually stop early)."""
        for j in range(k - 1, -1, -1):
            yield self.mentions[j]

    def mention_at(self, start: int) -> Mention | None:
        """The mention that starts at token `start`, if any."""
        k = bisect.bisect_left(self._starts, start)
        return self.mentions[k] if k < len(self.mentions) and self.mentions[k].start == start else None

    def between(self, lo: int, hi: int) -> Mention | None:
        """The first subject mention (not a comparison partner) that starts inside [lo, hi)."""
        k = bisect.bisect_left(self._starts, lo)
        while k < len(self.mentions) and self.mentions[k].start < hi:
            if not self.mentions[k].contrast:
                return self.mentions[k]
            k += 1
        return None

    def mentions_overlapping(self, a: int, b: int) -> list[Mention]:
        """Every mention with a token in [a, b), in order."""
        k = bisect.bisect_left(self._starts, a)
        while k > 0 and self.mentions[k - 1].end > a:
            k -= 1
        out = []
        while k < len(self.mentions) and self.mentions[k].start < b:
            if self.mentions[k].end > a:
                out.append(self.mentions[k])
            k += 1
        return out

    def in_clause(self, clause: int) -> list[Mention]:
        """Every mention in a clause, in order."""
        a, b = self.lay.clause_span[clause]
        k = bisect.bisect_left(self._starts, a)
        out = []
        while k < len(self.mentions) and self.mentions[k].start < b:
            out.append(self.mentions[k])
            k += 1
        return out

    def attribute(self, start: int, end: int) -> Attribution:
        """The subject of a claim whose words span tokens [start, end) (see the module docstring)."""
        found = self._attribute(start, end)
        if found.source in ("sentence", "paragraph", "pronoun"):
            return self._against_the_other(found, start)
        if found.at is None or found.source not in EXPLICIT or found.at < end:
            return found
        # A claim inside a line's label ("**No warmup needed**: Post-Norm's gradients can be very large") is the title
        # of what follows: a name after the label's colon ("- GPT-2: standard LayerNorm") may be what the label is
        # about, which earns credit, but it is not named in the claim, so it never charges a mistake.
        label = self.lay.block_label(start)
        if label is not None and label[0] <= start and end <= label[1] <= found.at:
            return Attribution(found.subject, "clause-after", found.at, found.also)
        return found

    def _against_the_other(self, found: Attribution, start: int) -> Attribution:
        """A placement taken from the sentence or paragraph is explicit when the claim's own clause sets it against
        the other placement ("In Post-LN ... . The output change grows like O(N^2), versus O(log N) for Pre-LN"):
        with only two placements, the side compared with Pre-LN is Post-LN."""
        other = _OTHER_PLACEMENT.get(found.subject or "")
        if other is None:
            return found
        clause = self.lay.clause_of[start]
        named = self.in_clause(clause)
        if any(m.subject == other and self._set_against(m) for m in named) and all(m.contrast for m in named):
            return Attribution(found.subject, "contrasted", found.at, found.also)
        return found

    def _set_against(self, m: Mention) -> bool:
        """The mention is the other side of a two-sided comparison ("versus O(log N) for Pre-LN", "against Pre-LN's
        ...", "compared with Pre-LN"), not the object of "than", "like" or "avoids", which a third subject may own."""
        toks, part = self.lay.tokens, self.lay.part_of[m.start]
        return any(toks[k].key in _SET_AGAINST for k in range(max(0, m.start - 10), m.start)
                   if self.lay.part_of[k] == part)

    def _attribute(self, start: int, end: int) -> Attribution:
        lay = self.lay
        if start >= len(lay.tokens):
            return NOBODY
        part, clause = lay.part_of[start], lay.clause_of[start]
        relative = self._relative_antecedent(start)
        if relative is None:
            # "unlike Post-LN, where warm-up compensates (Xiong report 8.45 BLEU without it)": an aside inside a
            # relative part is about what that part hangs on.
            host = self._aside_host(start)
            relative = self._relative_antecedent(host) if host is not None else None
        if relative is None:
            relative = self._continued_relative(start)
        if relative is not None:
            return Attribution(relative.subject, "clause", relative.start)
        owner = self._owner_right_before(start, end)
        if owner is not None:
            return Attribution(owner.subject, "clause", owner.start)
        # A name in an aside that closed before the claim ("Post-LN (2017/BERT) -> Pre-LN") is an example there,
        # not the claim's subject.
        mentions = [m for m in self.in_clause(clause)
                    if not m.contrast and not (self._has_arrow and (self._aside_before_arrow(m, start)
                                                                    or self._arrow_before(m, end)))
                    and not self._aside_before_to(m, start)]
        inside = [m for m in mentions if start < m.start < end and lay.part_of[m.start] == part]
        if inside and self._possessor_in_object(inside[0], mentions, start):
            inside = []  # "Pre-LN reached the BLEU of a tuned Post-LN": the subject is the one before
        if inside:
            return Attribution(inside[0].subject, "clause", inside[0].start)
        # "O(d sqrt(ln d)) (post-norm), O(d sqrt(ln d / L)) (pre-norm)": a bracket right after the claim that holds
        # nothing but a name labels the claim
        tag = self._bracket_tag(end, mentions)
        if tag is not None:
            return Attribution(tag.subject, "label", tag.start)
        # A name in an aside that closed before the claim and says something of its own ("...随层数按 O(N) 增长（Pre-LN 约
        # O(log N)），没有 warm-up，训练直接崩") belongs to that aside's statement, not to the claim after it.
        earlier = self._earlier_alternatives(start)
        before = [m for m in mentions if m.end <= start
                  and not (lay.aside_of[m.start] >= 0 and lay.aside_of[m.start] != lay.aside_of[start]
                           and self._statement_aside(m))
                  and not any(lo < m.start and m.end <= hi for lo, hi in earlier)]
        if before and self._about_the_rest(start):
            # "two Post-LN classics (2017, BERT), one revival (GLM-130B), and everything else pre-norm": the part is
            # about all but the names before it
            before = [m for m in before if lay.part_of[m.start] == lay.part_of[start]]
        # A name in an aside after the claim ("it usually ends a bit better (DeepNet puts Pre-LN 0.5-1 BLEU
        # behind)") belongs to the aside's own statement, unless the claim sits in that aside too.
        # Nor is a name that labels what follows it ("x + F(LN(x)) Post-norm (original): Norm(x + F(x))", notes
        # flattened onto one line): it is never the subject of the words before it.
        # (only the first such name is ever used: found lazily, so a clause of thousands of names costs one)
        first_after = next((m for m in mentions if m.start >= end
                            and not (lay.aside_of[m.start] != lay.aside_of[start] and self._statement_aside(m))
                            and m.start not in self._labels and not self._in_later_relative(m, part)
                            and not self._opens_later_part(m, part) and not self._relative_on_claim(m, end)
                            and not self._owned_by_pronouns_object(m)
                            and not (self._inside_later_clause(m, part) and self._outside(start).subject != m.subject)),
                           None)
        if not before:
            # "[[Pre Norm]] :<-> x + f(norm(x)) 先残差再 norm [[Post Norm]] :<-> ...": a name labelling the clause from
            # just before its colon comes before one that follows the claim
            inline = self._inline_label(start)
            if inline is not None:
                return Attribution(inline.subject, "label", inline.start)
        if not before:
            asked = self._question_answered(start, end)
            if asked is not None:
                return Attribution(asked.subject, "sentence", asked.start)
        trailing = self._trailing_scope(end, first_after)
        if trailing is not None:
            return Attribution(trailing.subject, "clause", trailing.start)
        # The claim's own comma parts: all those its words span ("BERT and GPT-2 both use Pre-LN" is split at
        # "and", but the claim's words reach from BERT to "use").
        last_part = lay.part_of[max(start, end - 1)]
        # "pre-norm (increasingly RMSNorm) for GPT-style LLMs": an aside right after the claim does not part it from
        # the "for ..." that names its subject
        after_aside = self._past_aside(end)
        if after_aside is not None:
            last_part = max(last_part, lay.part_of[after_aside])
        after = [first_after] if first_after is not None else []
        after_in_parts = [m for m in after if lay.part_of[m.start] <= last_part]
        # (a possessive name after another subject's, "Sandwich-LN keeps Pre-LN's input norm and adds ...", owns an
        # object of that subject's verb)
        before = self._without_possessors(before, start)
        for group, source in (([m for m in reversed(before) if lay.part_of[m.start] == part], "clause"),
                              (self._examples_after(end, mentions), "clause"),
                              (after_in_parts, "clause"), (list(reversed(before)), "clause"), (after, "clause-after")):
            if group and group[0].start >= end and self._compared_after(end, group[0]):
                continue  # "updates amplified O(N) vs O(log N) for Pre-LN": the name after "vs" owns the other side
            if group and group[0].start >= end and self._beaten_after(start, group[0]):
                continue  # "Mix-LN consistently outperforms both Pre-LN and Post-LN": the names after are the beaten
            if group and source == "clause-after" and self._heads_an_ellipsis(group[0]):
                continue  # "that's why it needs warm-up, and Pre-LN doesn't": the later name is the other side
            if group:
                if source == "clause-after":
                    # "In Post-LN ... . Xiong proved the last layer's gradient grows with L, which is why deep
                    # Post-LN explodes": named later in the clause AND by the context before it, the same subject
                    # on both sides is explicit enough.
                    around = self._outside(start)
                    if around.subject == group[0].subject and around.source != "card":
                        source = "clause"
                return Attribution(group[0].subject, source, group[0].start, self._coordinated(group[0]),
                                   self._alike(group[0], start))
        named = self._named_after(start, end)
        if named is not None:
            return Attribution(named.subject, "sentence", named.start)
        paired = self._paired_by_position(start, end)
        if paired is not None:
            return Attribution(paired.subject, "sentence", paired.start)
        return self._outside(start)

    def _heads_an_ellipsis(self, m: Mention) -> bool:
        """The mention opens an elliptical statement after "and"/"but"/"while": only an auxiliary or a denial follows
        it before the part ends ("..., and Pre-LN doesn't", "while Pre-LN does not", "but Post-LN does")."""
        toks = self.lay.tokens
        if m.start == 0 or toks[m.start - 1].kind != WORD or toks[m.start - 1].key not in ELLIPSIS_JOINERS:
            return False
        k = m.end
        while k < len(toks) and toks[k].kind == WORD and (toks[k].key in _BARE_AUXILIARIES or toks[k].key in ("not", "n't")):
            k += 1
        return k > m.end and (k == len(toks) or toks[k].kind == PUNCT)

    def _compared_after(self, end: int, m: Mention) -> bool:
        """A mention after a claim is the far side of a comparison that the claim opens: a comparison word ("vs",
        "versus", "against", "compared") stands between them in the same sentence, and the mention is set against
        ("... vs O(log N) for Pre-LN")."""
        toks, lay = self.lay.tokens, self.lay
        if lay.sentence_of[m.start] != lay.sentence_of[max(0, end - 1)]:
            return False
        return self._set_against(m) and any(toks[k].kind == WORD and toks[k].key in _SET_AGAINST for k in range(end, m.start))

    def _beaten_after(self, start: int, m: Mention) -> bool:
        """A mention after a claim is the object of a verb of beating in the claim's clause ("Mix-LN consistently
        outperforms both Pre-LN and Post-LN"): what is beaten, not who wins."""
        toks, lay = self.lay.tokens, self.lay
        clause = lay.clause_of[start]
        return lay.clause_of[m.start] == clause and any(
            toks[k].kind == WORD and toks[k].key in _BEATS for k in range(start, m.start))

    def _paired_by_position(self, start: int, end: int) -> Mention | None:
        """"Pre-LN vs Post-LN. LN(x + F(x)) vs x + F(LN(x))": a sentence of two things set against each other, naming
        no subject, right after a sentence that sets two names against each other the same way, pairs them by
        position (so a crossed pair credits neither formula). Never explicit: it earns or withholds credit only."""
        lay = self.lay
        sent = lay.sentence_of[start]
        if sent == 0 or lay.sentence_of[max(start, end - 1)] != sent:
            return None
        a, b = lay.sentence_span[sent]
        pa, pb = lay.sentence_span[sent - 1]
        if lay.block_of[pa] != lay.block_of[a] or b - a > 40 or pb - pa > 12:
            return None
        split = self._single_vs(a, b)
        names = self.mentions[bisect.bisect_left(self._starts, pa) : bisect.bisect_left(self._starts, pb)]
        inside = bisect.bisect_left(self._starts, b) - bisect.bisect_left(self._starts, a)
        if split is None or inside or len(names) != 2:
            return None
        named_split = self._single_vs(pa, pb)
        if named_split is None or not names[0].end <= named_split < names[1].start or names[0].subject == names[1].subject:
            return None
        if end <= split:
            return names[0]
        return names[1] if start > split else None

    def _single_vs(self, a: int, b: int) -> int | None:
        """The one "vs"/"versus" token among tokens a..b-1, or None (none, or more than one)."""
        found = [k for k in range(a, b) if self.lay.tokens[k].kind == WORD and self.lay.tokens[k].key in _VS]
        return found[0] if len(found) == 1 else None

    def _without_possessors(self, before: list[Mention], start: int) -> list[Mention]:
        """`before` (names before a claim, in text order) without the possessive names that are the object of a verb
        ("keeps Pre-LN's input norm") after a plain name of another subject: that earlier name is the verb's subject.
        ("..., Post-LN's doesn't depend on L" and "the search for Post-LN with Pre-LN's stability" keep theirs.)"""
        if not before:
            return before
        toks, text = self.lay.tokens, self.lay.text
        owning = [text[toks[m.start].start : toks[m.end - 1].end].endswith(("'s", "\u2019s"))
                  or (m.end < len(toks) and toks[m.end].kind == CJK and toks[m.end].key == "的") for m in before]
        kept = []
        for k, m in enumerate(before):
            # (maybe after an article: "Sandwich-LN takes a Pre-LN block, ..., and adds ...")
            det = self._article_before(m)
            verb = toks[m.start - 1 - det] if m.start - det > 0 else None
            # "Sandwich-LN keeps Pre-LN and adds a norm on the branch output": the name a verb of taking takes is its
            # object, and the verb after "and" is still the first name's
            # (only where that first name is the verb's own subject, in its part: "move the LayerNorm (Pre-LN), or keep
            # Post-LN and control the update size" is said of Post-LN; and not for what stands right after the name, only
            # punctuation between: "takes Pre-LN, x + F(LN(x)), and adds ..." gives Pre-LN its formula)
            # (after an article, the claim only past a coordinator: in "takes a Pre-LN block, x + F(LN(x)), and adds ..."
            # the formula is still the block's)
            if (not owning[k] and verb is not None and verb.kind == WORD and verb.key in _REUSE_VERBS
                    and any(toks[q].kind != PUNCT for q in range(m.end, start))
                    and (not det or any(toks[q].kind == WORD and toks[q].key in _COORDINATED_VERB for q in range(m.end, start)))
                    and any(not owning[j] and before[j].subject != m.subject
                            and self.lay.part_of[before[j].start] == self.lay.part_of[m.start - 1 - det]
                            and self.lay.aside_of[before[j].start] == self.lay.aside_of[m.start - 1 - det] for j in range(k))):
                continue
            # (or a Chinese preposition before "X 的 ...": "Sandwich-LN 就是在 Pre-LN 的分支末尾再加一个 LN")
            if (owning[k] and verb is not None and ((verb.kind == WORD and verb.key in _TAKES_OBJECT)
                                                    or (verb.kind == CJK and verb.key in _ZH_PLACE_PREPOSITIONS))
                    and any(not owning[j] and before[j].subject != m.subject for j in range(k))):
                continue
            # (or a pronoun's, for a claim in a later comma part: "it keeps Pre-LN's input norm and, ..., it also
            # normalises the branch output"; in its own part the name owns what it names: "it retains Pre-LN's better
            # final quality")
            if owning[k] and self.lay.part_of[start] != self.lay.part_of[m.start] and self._owned_by_pronouns_object(m):
                continue
            kept.append(m)
        return kept

    def _article_before(self, m: Mention) -> int:
        """1 when an article stands right before the name, with a word before it ("takes a Pre-LN block"), else 0."""
        toks = self.lay.tokens
        return 1 if m.start > 1 and toks[m.start - 1].kind == WORD and toks[m.start - 1].key in ARTICLES else 0

    def _owned_by_pronouns_object(self, m: Mention) -> bool:
        """A possessive name owns the object of a verb of taking whose subject is a pronoun ("so it keeps Pre-LN's easy
        gradient flow", "..., which keeps Pre-LN's direct gradient path"): the pronoun's referent, not the name, is the
        subject of the sentence's next clause ("...; the difference is that what each sublayer adds has a fixed scale")
        and of the paragraph's next sentences. (Within the object itself the name owns what it names: "it retains
        Pre-LN's better final quality" says Pre-LN's quality is better.)"""
        toks, text = self.lay.tokens, self.lay.text
        if not text[toks[m.start].start : toks[m.end - 1].end].endswith(("'s", "\u2019s")):
            return False
        v = m.start - 1 - self._article_before(m)
        return (v >= 1 and toks[v].kind == WORD and toks[v].key in _TAKES_OBJECT and toks[v - 1].kind == WORD
                and (toks[v - 1].key in _PRONOUN_SUBJECTS or toks[v - 1].key == "which"))

    def _possessor_in_object(self, m: Mention, mentions: list[Mention], start: int) -> bool:
        """The name inside the claim follows "of" ("reached roughly the BLEU of a tuned Post-LN") and the clause
        names another subject before the claim: the name owns the object the subject is compared with, it is not
        the subject ("the gradient of Post-LN grows", with no name before, is Post-LN's claim)."""
        toks = self.lay.tokens
        k = m.start - 1
        while k > start and k >= m.start - 4 and toks[k].kind == WORD and toks[k].key != "of":
            k -= 1
        if not (k > start and toks[k].kind == WORD and toks[k].key == "of"):
            return False
        before = [b for b in mentions if b.end <= start]  # (the clause's names that are no comparison partner)
        return bool(before) and before[-1].subject != m.subject

    def _examples_after(self, end: int, mentions: list[Mention]) -> list[Mention]:
        """The names in a bracket that opens right after the claim (or after a few more words of its comma part) and
        holds nothing but names ("Post-LN (Transformer, BERT), then Pre-LN (GPT-2/3)"): examples of what the claim's
        words name, so its subject, before a name in an earlier comma part. A bracket closed by a colon labels what
        comes after it instead."""
        lay, toks = self.lay, self.lay.tokens
        # the bracket may close a short noun group the claim's words open ("then Pre-LN + final LN (GPT-2/3)")
        k = end
        while k < min(len(toks), end + 6) and not (toks[k].kind == PUNCT and toks[k].key in ("(", "（")):
            if lay.part_of[k] != lay.part_of[end - 1] or toks[k].kind == CJK:
                return []
            k += 1
        if k >= len(toks) or not (toks[k].kind == PUNCT and toks[k].key in ("(", "（")):
            return []
        if any(end <= m.start < k for m in self.mentions):
            return []
        opening = k
        inside = [m for m in mentions if m.start > opening]
        found: list[Mention] = []
        k += 1
        while k < len(toks) and k - opening <= 16:
            tok = toks[k]
            if tok.kind == PUNCT and tok.key in (")", "）"):
                # "this repo (Pre-LN): x + F(LN(x))": a bracket closed by a colon labels what follows
                labels = k + 1 < len(toks) and toks[k + 1].kind == PUNCT and toks[k + 1].key in (":", "：")
                return [] if labels else found
            m = next((m for m in inside if m.start <= k < m.end), None)
            if m is not None:
                if m not in found:
                    found.append(m)
            elif not (tok.kind in (PUNCT, NUMBER) or tok.key in _EXAMPLE_WORDS):
                return []
            k += 1
        return []

    def _bracket_tag(self, end: int, mentions: list[Mention]) -> Mention | None:
        """The mention that fills a bracket opening right at `end` by itself ("... (pre-norm)", "...（Pre-LN）", "...
        [Pre]"), or after a few more words of the claim's comma part ("只在输出加 norm（OLMo 2）", the claim's words being
        "只在输出"), or None."""
        lay, toks = self.lay, self.lay.tokens
        stop = min(len(toks), end + 8)
        while end < stop and toks[end].kind == PUNCT and toks[end].key == ")":
            end += 1  # (the claim's words may stop inside its formula's brackets)
        k, words = end, 0.0
        while k < len(toks) and toks[k].kind in (WORD, CJK) and lay.part_of[k] == lay.part_of[end - 1]:
            words += 0.5 if toks[k].kind == CJK else 1.0  # (a Chinese character counts half a word: "端加一个 norm")
            if words > _TAG_REACH:
                break
            k += 1
        later = k > end and k < len(toks) and toks[k].kind == PUNCT and toks[k].key == "(" and not any(
            end <= m.start < k for m in self.mentions)
        if later:
            end = k
        if end >= len(toks) or not (toks[end].kind == PUNCT and toks[end].key in _TAG_CLOSERS):
            return None
        closer = _TAG_CLOSERS[toks[end].key]
        for m in mentions:
            if m.start == end + 1 and m.end < len(toks) and toks[m.end].kind == PUNCT and toks[m.end].key == closer:
                # (a later bracket closed by a colon labels what follows it: "\text{ours (Pre-LN):} y = ...")
                if later and m.end + 1 < len(toks) and toks[m.end + 1].key in (":", "："):
                    return None
                return m
        return None

    def _past_aside(self, end: int) -> int | None:
        """The first token after a bracketed aside that opens right at `end`, when a topic word ("for", "in") follows
        the bracket at once; None otherwise."""
        toks = self.lay.tokens
        if end >= len(toks) or not (toks[end].kind == PUNCT and toks[end].key == "("):
            return None
        depth, k = 0, end
        while k < len(toks) and k - end <= 12:
            if toks[k].kind == PUNCT and toks[k].key == "(":
                depth += 1
            elif toks[k].kind == PUNCT and toks[k].key == ")":
                depth -= 1
                if depth == 0:
                    after = k + 1
                    return after if after < len(toks) and toks[after].key in _TOPIC_WORDS else None
            k += 1
        return None

    def _owner_right_before(self, start: int, end: int) -> Mention | None:
        """A comparison partner the claim belongs to: its possessive right before it ("as opposed to Pre-LN's
        x + F(LN(x))") or the name it stands beside between commas ("starting from Pre-LN, x + F(LN(x)), and
        ..."). Not "Unlike Post-LN, x + F(LN(x)) keeps ...", where the claim goes on after the comma phrase."""
        toks, text = self.lay.tokens, self.lay.text
        i = bisect.bisect_left(self._starts, start) - 1
        if i < 0:
            return None
        m = self.mentions[i]
        if not m.contrast or m.end > start or self.lay.clause_of[m.start] != self.lay.clause_of[start]:
            return None
        if start == m.end:
            named = text[toks[m.start].start : toks[m.end - 1].end]
            return m if named.endswith(("'s", "\u2019s")) else None
        if self._set_against(m) and self._maths_between(m.end, start) and self._maths_between(start, min(end, start + 3)):
            # "Θ(d√(ln d)) vs Pre-LN: O(d√(ln d/L))": the formula right after the other side's name is its own (not the
            # prose of the main clause after "Compared with Pre-LN, ...")
            return m
        if (toks[m.end].kind == WORD and toks[m.end].key in _FORMULA_HEADS and start > m.end
                and self._maths_between(start, min(end, start + 3))):
            # "Sandwich-LN takes the Pre-LN block x_{l+1} = x_l + F(LN(x_l)) and ...": the partner's block, written out
            lhs = range(m.end + 1, start)
            return m if not lhs or (toks[start - 1].key in ("=", ":") and self._maths_between(m.end + 1, start)
                                    and not any(toks[k].key in (",", ";") or toks[k].key in COPULAS for k in lhs)) else None
        if toks[m.end].key == "的":
            # "和 Pre-LN 的 y = x + F(LN(x)) 相比": the partner's own formula, maybe after its left side
            lhs = range(m.end + 1, start)
            return m if not lhs or (len(lhs) <= 12 and toks[start - 1].key == "=" and not any(
                toks[k].kind == CJK for k in lhs)) else None
        if not (toks[m.end].kind == PUNCT and toks[m.end].key == ","):
            return None
        # the claim may be the right side of an equation that opens there ("Pre-LN, x_{l+1} = x_l + F(LN(x_l)),")
        lhs = range(m.end + 1, start)
        if len(lhs) > 12 or (lhs and (toks[start - 1].key != "=" or any(toks[k].kind == CJK for k in lhs))):
            return None
        closes = end < len(toks) and toks[end].kind == PUNCT and toks[end].key in (",", ".", ";", ")")
        if closes and self._interrupts_a_subject(m):
            return None  # "Post-LN, unlike Pre-LN, renormalises the stream": the aside sits between subject and verb
        if closes and self._fronted_comparison(m) and (toks[end].key != "," or not self._maths_between(start, end)):
            # "OLMo 2: unlike Gemma 2, no input norm at all.", "Compared with Pre-LN, LN stays on the main path, which
            # is why ...": the main clause, not an aside on the partner (a bare formula between commas still is one)
            return None
        return m if closes else None

    def _interrupts_a_subject(self, m: Mention) -> bool:
        """The mention ends a comparison aside that opens right after another name and its comma ("Post-LN, unlike
        Pre-LN, ..."): that name is the sentence's subject, and the aside interrupts it."""
        toks = self.lay.tokens
        k = m.start - 1
        while k > 0 and toks[k].kind == WORD and k > m.start - 3:
            k -= 1  # back over the comparison word(s): "unlike", "compared with"
        if k <= 0 or toks[k].kind != PUNCT or toks[k].key != ",":
            return False
        before = self.mentions_overlapping(k - 1, k)
        return any(b.end == k and not b.contrast and b.subject != m.subject for b in before)

    def _fronted_comparison(self, m: Mention) -> bool:
        """The mention is the object of a comparison word that opens its sentence, or the text after the line's
        label ("Unlike Gemma 2, ...", "- **OLMo 2**: unlike Gemma 2, ..."): what follows its comma is the sentence's
        own statement."""
        lay, toks = self.lay, self.lay.tokens
        first = lay.sentence_span[lay.sentence_of[m.start]][0]
        label = lay.block_label(m.start)
        if label is not None and first <= label[1] <= m.start:
            first = label[1]
        words = [k for k in range(first, m.start) if toks[k].kind in (WORD, CJK)]
        return 0 < len(words) <= 2 and toks[words[0]].key in _FRONTED_CONTRAST

    def _maths_between(self, a: int, b: int) -> bool:
        """Tokens a..b-1 open a formula (brackets, symbols, single letters, "sqrt"/"ln"), maybe after a colon: nothing
        in them says anything of its own."""
        toks = self.lay.tokens
        if not 0 < b - a <= 12:
            return False
        return all(toks[k].kind in (PUNCT, NUMBER) or (toks[k].kind == WORD and (len(toks[k].key) <= 2 or toks[k].key in _MATHS_WORDS))
                   for k in range(a, b))

    def _statement_aside(self, m: Mention) -> bool:
        """The mention sits in a bracketed aside that says something of its own ("(DeepNet puts Pre-LN 0.5-1
        BLEU behind)"), not one that only names what came before it ("after the add (Post-LN)", "(i.e. Pre-LN)")."""
        lay, toks = self.lay, self.lay.tokens
        aside = lay.aside_of[m.start]
        if aside < 0:
            return False
        a, b = m.start, m.end
        while a > 0 and lay.aside_of[a - 1] == aside:
            a -= 1
        while b < len(toks) and lay.aside_of[b] == aside:
            b += 1
        words = [k for k in range(a, b) if toks[k].kind in (WORD, CJK) and not m.start <= k < m.end
                 and toks[k].key not in _NAMING_WORDS]
        return len(words) >= 2

    def _outside(self, start: int) -> Attribution:
        """The subject of a claim at `start` from outside its clause: its line's label, its sentence, its
        paragraph, its heading, or the card's default."""
        lay = self.lay
        inline = self._inline_label(start)
        if inline is not None:
            return Attribution(inline.subject, "label", inline.start)
        label = lay.block_label(start)
        if label is None:
            # a sentence hard-wrapped onto the next line ("- GLM-130B: DeepNorm, with alpha\n  = (2N)^(1/4) ..."):
            # the label of the line it started on still governs it, unless the sentence names another subject
            # after the label ("- Post worse: ...; Pre's stream\n  accumulates so each branch shrinks")
            label = lay.block_label(lay.sentence_span[lay.sentence_of[start]][0])
            if label is not None and any(label[1] <= m.start < start and not m.contrast for m in self.mentions):
                label = None
        if label is not None:
            m = self.between(label[0], label[1])
            # A label governs its own sentence; later sentences on the same line get it as a paragraph subject. A
            # pronoun opening the claim's part takes the nearer subject the sentence names past the label instead
            # ("**Why LLMs chose Pre-LN.** Post-LN's big gradients make training fragile: it needs warm-up").
            if (m is not None and lay.sentence_of[m.start] == lay.sentence_of[start]
                    and not (self._opens_with_back_pronoun(start)
                             and any(not n.contrast and n.subject != m.subject
                                     for n in self.mentions[bisect.bisect_left(self._starts, label[1]):
                                                            bisect.bisect_left(self._starts, start)]))):
                return Attribution(m.subject, "label", m.start)
        sent = lay.sentence_of[start]
        k = bisect.bisect_left(self._starts, start)
        referred = self._pronoun_refers_to_opener(start, k)
        if referred is not None:
            return Attribution(referred.subject, "sentence", referred.start)
        owner = self._owner_before_colon(start, k) or self._cause_pronoun_antecedent(start, k)
        if owner is not None:
            return Attribution(owner.subject, "clause", owner.start)
        in_aside: Mention | None = None
        for m in self._before(k):
            if lay.sentence_of[m.start] != sent:
                break
            if (not m.contrast and not self._object_of_comparison(m) and not self._object_before_colon(m, start)
                    and not self._owned_by_pronouns_object(m)):
                if lay.aside_of[m.start] >= 0 and lay.aside_of[m.start] != lay.aside_of[start] and self._statement_aside(m):
                    # "Pre-LN：稳定（Post-LN 不 warm-up 只有 8.45 BLEU），所以 GPT-2/3 都用": the aside's own statement,
                    # unless the sentence names nothing else before the claim
                    in_aside = in_aside or m
                    continue
                return Attribution(m.subject, "label" if self._topic(m) or self._opens(m, start) else "sentence", m.start)
        if in_aside is not None:
            return Attribution(in_aside.subject, "label" if self._topic(in_aside) or self._opens(in_aside, start)
                               else "sentence", in_aside.start)
        # Earlier sentences of the same paragraph (or list item), nearest first.
        block = lay.block_of[start]
        opener = self._pronoun_opener_antecedent(start, k)
        if opener is not None:
            return Attribution(opener.subject, "pronoun" if self._pronoun_names_it(opener, start) else "paragraph",
                               opener.start)
        for m in self._before(k):
            if lay.block_of[m.start] != block:
                break
            if m.contrast or lay.sentence_of[m.start] == sent or self._owned_by_pronouns_object(m):
                continue  # ("..., which keeps Pre-LN's direct gradient path. It was introduced in CogView": not Pre-LN)
            if self._said_of_a_pronoun(m) and (self._named_earlier_in_block(m, block) or (
                    self._likeness(m) and not self._named_earlier_in_block(m, block, same=True))):
                # "Sandwich-LN ... so it's still kind of Pre-LN in spirit": what "it" (the subject named before, or
                # the card's topic when the paragraph names none: "so it is still a Pre-LN-style identity path") is
                # like, not what the paragraph is about ("Because it was Post-LN." names what "it" was: the topic)
                continue
            named = self._sentence_subjects.get(lay.sentence_of[m.start], set())
            if len(named) == 1 and not self._set_against_the_topic(lay.sentence_of[m.start]):
                return Attribution(m.subject, "paragraph", m.start)
            if self._continued_by_display(lay.sentence_of[m.start], sent) and self._alone_in_last_clause(m):
                # "T5 用简化 LN；LLaMA 用\n$$RMSNorm(a)_i = ...$$\n放在每个 sublayer 的 input 端": the formula carries on the
                # clause left open, and so does what follows it
                return Attribution(m.subject, "paragraph", m.start)
            break  # the previous sentence named several: only a heading or the card's default can say
        carried = self._demonstrative_opener_antecedent(start, k)
        if carried is not None:
            return Attribution(carried.subject, "paragraph", carried.start)
        sibling = self._sibling_item_subject(block)
        if sibling is not None:
            return Attribution(sibling.subject, "heading", sibling.start)
        if self._other_named_before(start, block):
            # "Post-norm puts the leveler after the pedal ... It works, but the unnormalized residual highway lets the
            # signal swell" on the Sandwich-LN card: the paragraph is about a method the card has no subject for
            return NOBODY
        return self._heading_or_default(block)

    def _other_named_before(self, start: int, block: int) -> bool:
        """A method that is none of the card's subjects (another norm, or a placement the card does not have as a
        subject) is named earlier in the claim's paragraph or list item."""
        k = bisect.bisect_left(self._others, start)
        if k == 0 or self.lay.block_of[self._others[k - 1]] != block:
            return False
        # only a name that opens its sentence is what the sentence is about ("that is what separates it from
        # Post-LN. It was introduced in CogView": Post-LN is what it is set against, the paragraph is still Sandwich's)
        a = self._others[k - 1]
        toks = self.lay.tokens
        first = self.lay.sentence_span[self.lay.sentence_of[a]][0]
        return all(toks[i].kind == PUNCT or toks[i].key in _SENTENCE_OPENERS for i in range(first, a))

    def _continued_by_display(self, before: int, sent: int) -> bool:
        """Sentence `before` stops without a full stop ("LLaMA 用", "LLaMA uses"), the sentence after it begins on a
        displayed formula line, and `sent` is that sentence or the one right after it (what carries on below the formula)."""
        lay = self.lay
        a, b = lay.sentence_span[before]
        if b <= a or sent <= before or sent - before > 2:
            return False
        last = lay.tokens[b - 1]
        if last.kind == PUNCT and last.key in (".", "!", "?", ";"):
            return False
        return lay.line_of[lay.sentence_span[before + 1][0]] in lay.display_lines

    def _alone_in_last_clause(self, m: Mention) -> bool:
        """The mention is the only subject named in the last clause of its sentence (what a formula after it carries on)."""
        lay = self.lay
        last_clause = lay.clause_of[lay.sentence_span[lay.sentence_of[m.start]][1] - 1]
        if lay.clause_of[m.start] != last_clause:
            return False
        return all(n.subject == m.subject or n.contrast for n in self.in_clause(last_clause))

    def _sibling_item_subject(self, block: int) -> Mention | None:
        """A list item labelled only by an aspect ("- Pre-LN: stable, no warm-up needed" then "- 代价: the stream keeps
        growing", "- Cost: ...") is about the subject that labels the item right before it in the same list. Like a
        heading, it lends that subject to the item's claims for credit, never for a mistake. (Found once per block.)"""
        if block not in self._sibling_cache:
            self._sibling_cache[block] = self._find_sibling_subject(block)
        return self._sibling_cache[block]

    def _find_sibling_subject(self, block: int) -> Mention | None:
        lay = self.lay
        if block < 1 or lay.block_kind[block] != "item" or lay.block_kind[block - 1] != "item" or (
                lay.heading_of[block] != lay.heading_of[block - 1]):
            return None
        firsts = self._first_tokens()
        label = lay.block_label(firsts[block]) if block in firsts else None
        if label is None or self.between(label[0], label[1]) is not None:
            return None
        toks = lay.tokens
        words = lay.text[toks[label[0]].start : toks[label[1] - 1].end].lower().strip(" *_#")
        if words not in _ASPECT_LABELS:
            return None
        earlier = lay.block_label(firsts[block - 1]) if block - 1 in firsts else None
        return self.between(earlier[0], earlier[1]) if earlier is not None else None

    def _set_against_the_topic(self, sent: int) -> bool:
        """The sentence sets what it names against the topic itself ("in Pre-LN the branch can output anything,
        whereas here every block adds a fixed scale", "Pre-LN 的分支输出没有上界，而这里 ...", "the gradient does not
        shrink with depth, whereas for Pre-LN it does"): the name is the comparison, so it is not what the next
        sentences are about."""
        toks = self.lay.tokens
        a, b = self.lay.sentence_span[sent]
        for k in range(a, b - 1):
            if toks[k].key in _SET_AGAINST_TOPIC:
                nxt = [toks[j].key for j in range(k + 1, min(b, k + 3)) if toks[j].kind != PUNCT]
                if nxt and (nxt[0] in _HERE or (nxt[0] == "in" and nxt[1:2] and nxt[1] in _HERE)):
                    return True
                # "in Pre-LN the branch can add anything, whereas with the second norm every block adds a fixed
                # scale": the contrast names nothing of its own, so it is the topic's side
                if toks[k].kind == WORD and nxt and not nxt[0].endswith("ing") and not any(
                        k < m.start < b and not m.contrast for m in self.mentions_overlapping(k, b)):
                    return True
                # "at init the gradients near the output are big and don't shrink with depth, whereas for Pre-LN it
                # goes down like 1/sqrt(L)": the contrast names the other side, and the part before it, naming no
                # one, is the topic's
                if toks[k].kind == WORD and k > a and not any(
                        not m.contrast for m in self.mentions_overlapping(a, k)) and any(
                        not m.contrast for m in self.mentions_overlapping(k + 1, b)):
                    return True
        return False

    def _named_earlier_in_block(self, m: Mention, block: int, same: bool = False) -> bool:
        """Another subject (with `same`, the mention's own) is named before the mention in the same block (what its
        pronoun may refer to)."""
        k = bisect.bisect_left(self._starts, m.start)
        for other in self._before(k):
            if self.lay.block_of[other.start] != block:
                return False
            if (other.subject == m.subject) == same and not other.contrast:
                return True
        return False

    def _likeness(self, m: Mention) -> bool:
        """The name only qualifies a kind ("a Pre-LN-style path", "Post-LN-like", "Pre-LN 式的结构", "Pre-LN 风格")."""
        toks = self.lay.tokens
        if m.end >= len(toks):
            return False
        t = toks[m.end]
        return (t.kind == WORD and t.key in _LIKENESS_WORDS) or (t.kind == CJK and t.key in ("式", "风", "类"))

    def _said_of_a_pronoun(self, m: Mention) -> bool:
        """The mention is the complement of "it is" / "it's" / "this is" / "它是" (a few hedging words may stand
        between): it says what something else is, so it is not a topic the next sentences carry on."""
        toks = self.lay.tokens
        clause = self.lay.clause_of[m.start]
        for j in range(m.start - 1, max(-1, m.start - 5), -1):
            t = toks[j]
            if self.lay.clause_of[j] != clause or t.kind == PUNCT:
                return False
            if t.kind == WORD and t.key in _PRONOUN_SUBJECTS and self.lay.possessive(j):
                return True
            if (t.kind == WORD and t.key in COPULAS) or (t.kind == CJK and t.key == "是"):
                return j > 0 and toks[j - 1].key in _PRONOUN_SUBJECTS
        return False

    def _demonstrative_opener_antecedent(self, start: int, k: int) -> Mention | None:
        """A paragraph that names no subject and opens with "this"/"这一"/"这种" ("这一看似微小的结构调整，却极大地
        提升了 ... 稳定性"): the demonstrative takes up the paragraph before, when that paragraph names one subject."""
        lay, toks = self.lay, self.lay.tokens
        block = lay.block_of[start]
        if block == 0 or lay.block_kind[block - 1] != "para":
            return None
        first = self._first_tokens()[block]
        opened = bisect.bisect_left(self._starts, first)
        if opened < k:
            return None  # the paragraph names a subject before the claim
        while first < start and toks[first].kind == PUNCT:
            first += 1
        if first >= start or not (toks[first].key in ("this", "these", "such", "此") or (
                toks[first].key == "这" and first + 1 < len(toks) and toks[first + 1].key in ("一", "种", "个", "些", "样"))):
            return None
        prev_first = self._first_tokens().get(block - 1, first)
        before = [m for m in self.mentions[bisect.bisect_left(self._starts, prev_first) : opened] if not m.contrast]
        return before[-1] if before and len({m.subject for m in before}) == 1 else None

    def _opens_with_back_pronoun(self, start: int) -> bool:
        """The comma part of token `start` opens with "it"/"they"/"它" (after "and", "so", "but", ...)."""
        lay, toks = self.lay, self.lay.tokens
        k = lay.part_opening(start)
        while k < start and toks[k].key in _OPENING_WORDS:
            k += 1
        return k <= start and toks[k].key in _TURN_PRONOUNS

    def _pronoun_opener_antecedent(self, start: int, k: int) -> Mention | None:
        """The claim's sentence opens with "It"/"它" and a verb ("It is the default normalisation in LLaMA"):
        the pronoun refers to the nearest earlier sentence of the paragraph that opens with a subject ("RMSNorm
        strips LayerNorm down to ..."), past sentences that name one only inside a phrase ("the re-centering in
        LayerNorm is redundant"). None when the sentence does not open so or no such sentence exists."""
        lay, toks = self.lay, self.lay.tokens
        sent = lay.sentence_of[start]
        first = lay.sentence_span[sent][0]
        while first < start and toks[first].kind == PUNCT:
            first += 1
        first = self._past_likeness_opener(first, start)
        if first >= start or toks[first].key not in _OPENING_PRONOUNS:
            return None
        block = lay.block_of[start]
        for m in self._before(k):
            if lay.block_of[m.start] != block:
                return None
            if m.contrast or lay.sentence_of[m.start] == sent:
                continue
            if self._opens_sentence(m):
                return m
        return None

    def _about_the_rest(self, start: int) -> bool:
        """The claim's comma part opens with words for all the others ("and everything else pre-norm", "the rest use
        RMSNorm", "其余都是 Pre-LN")."""
        lay, toks = self.lay, self.lay.tokens
        k = lay.part_opening(start)
        while k < start and toks[k].key in ("and", "but", "while", "和", "而"):
            k += 1
        words = tuple(toks[j].key for j in range(k, min(start + 1, k + 3)))
        return any(words[: len(w)] == w for w in _THE_REST) or (k < len(toks) and toks[k].kind == CJK
                                                                 and lay.text.startswith(_THE_REST_ZH, toks[k].start))

    def _earlier_alternatives(self, start: int) -> list[tuple[int, int]]:
        """Where the claim stands in the second of two alternatives ("要么在分支输出上再加 norm（Gemma 2、OLMo 2），要么像
        GLM-130B 一样用 DeepNorm", "either add an output norm (Gemma 2, OLMo 2) or, like GLM-130B, use DeepNorm"), the
        spans (after the first opener, up to the last one before the claim) whose names belong to an earlier alternative:
        each alternative has its own subject."""
        lay = self.lay
        first = lay.sentence_span[lay.sentence_of[start]][0]
        zh_marks, either_marks, or_marks = self._alternative_marks

        def within(marks: list[int], lo: int) -> list[int]:
            return marks[bisect.bisect_left(marks, lo) : bisect.bisect_left(marks, start)]

        zh = within(zh_marks, first)
        out = [(zh[0], zh[-1])] if len(zh) >= 2 else []
        either = within(either_marks, first)
        if either:
            ors = within(or_marks, either[0] + 1)
            if ors:
                out.append((either[0], ors[-1]))
        return out

    @cached_property
    def _alternative_marks(self) -> tuple[list[int], list[int], list[int]]:
        """Where 要么, "either" and "or" stand in the answer (found once, read by `_earlier_alternatives` for every
        claim)."""
        toks = self.lay.tokens
        zh = [j for j in range(len(toks) - 1) if toks[j].key == "要" and toks[j + 1].key == "么"]
        return (zh, [j for j, t in enumerate(toks) if t.key == "either"], [j for j, t in enumerate(toks) if t.key == "or"])

    def _question_answered(self, start: int, end: int) -> Mention | None:
        """The claim's sentence answers the question right before it, which names one subject ("So why did everyone
        go Pre-LN? Basically it's stable, you can train it without warm-up"): it opens with "it" (after a filler such
        as "basically" or "well") and names nothing before the claim's end, so "it" is the question's subject. Never
        explicit: it earns credit, it does not charge."""
        lay, toks = self.lay, self.lay.tokens
        sent = lay.sentence_of[start]
        if sent == 0 or lay.sentence_of[max(start, end - 1)] != sent:
            return None
        first = lay.sentence_span[sent][0]
        while first < start and (toks[first].kind == PUNCT or toks[first].key in _ANSWER_OPENERS):
            first += 1
        if first >= end or toks[first].key not in _OPENING_PRONOUNS:
            return None
        a, b = lay.sentence_span[sent - 1]
        if b <= a or lay.block_of[a] != lay.block_of[first] or toks[b - 1].key not in ("?", "？"):
            return None
        if self.mentions_overlapping(first, end):
            return None
        asked = [m for m in self.mentions_overlapping(a, b) if not m.contrast]
        if not asked or len({m.subject for m in asked}) != 1:
            return None
        return asked[0]

    def _past_likeness_opener(self, first: int, start: int) -> int:
        """The token after a short comma part that sets the sentence's subject beside another ("Like LayerNorm's, it
        ...", "Unlike Post-LN, it ..."), or `first` when the sentence does not open so."""
        lay, toks = self.lay, self.lay.tokens
        if first >= start or toks[first].key not in _LIKENESS_OPENERS:
            return first
        k = first + 1
        while k < start and k - first <= _LIKENESS_PART_MAX and lay.part_of[k] == lay.part_of[first]:
            k += 1
        if k >= start or lay.part_of[k] == lay.part_of[first]:
            return first
        while k < start and toks[k].kind == PUNCT:
            k += 1
        return k

    def _pronoun_names_it(self, opener: Mention, start: int) -> bool:
        """The "It" that opens the claim's clause stands for the subject that opens the sentence right before, which
        names no other subject ("RMSNorm drops the mean. It kills both directions."): as plain as naming it again."""
        lay = self.lay
        sent = lay.sentence_of[start]
        if lay.sentence_of[opener.start] != sent - 1:
            return False
        first = lay.sentence_span[sent][0]
        if lay.clause_of[first] != lay.clause_of[start]:
            return False
        a, b = lay.sentence_span[sent - 1]
        k = bisect.bisect_left(self._starts, a)
        while k < len(self.mentions) and self.mentions[k].start < b:
            m = self.mentions[k]
            if m.subject != opener.subject and not m.contrast:
                return False
            k += 1
        return True

    def _opens_sentence(self, m: Mention) -> bool:
        """The mention is its sentence's first words (after an article or list marker): its grammatical subject."""
        lay, toks = self.lay, self.lay.tokens
        first = lay.sentence_span[lay.sentence_of[m.start]][0]
        words = [t for t in toks[first : m.start] if t.kind != PUNCT]
        return not words or (len(words) == 1 and words[0].key in ARTICLES)

    def _inline_label(self, start: int) -> Mention | None:
        """A name followed by a colon earlier in the claim's sentence, after the line's own label ("... [[Pre Norm]]
        :<-> x + f(norm(x)) ... [[Post Norm]] :<-> norm(x + f(x))": notes flattened onto one line): the nearest
        one labels what follows it."""
        lay = self.lay
        sent = lay.sentence_of[start]
        k = bisect.bisect_left(self._starts, start)
        for m in self._before(k):
            if lay.sentence_of[m.start] != sent or m.end > start:
                return None
            if m.contrast:
                continue
            if (not self._labels_what_follows(m, start) or self._object_of_comparison(m)
                    or self._object_before_colon(m, start)):
                return None
            # "... flat in L (Pre-LN: O(d sqrt(ln d / L))) -> big output-side grads": a label inside an aside that has
            # closed labels only the aside (not a name the aside only holds, its colon after it: "this repo (Pre-LN): ...")
            if (lay.aside_of[m.start] >= 0 and lay.aside_of[m.start] != lay.aside_of[start]
                    and self._colon_in_aside(m, start)):
                return None
            label = lay.block_label(start)
            return m if label is None or label[1] <= m.start else None
        return None

    def _object_before_colon(self, m: Mention, start: int) -> bool:
        """The name is the object of a preposition before a colon in a sentence that opens with another subject and a
        copula ("Sandwich-LN is an addition to Pre-LN: x + LN(F(LN(x)))", "Sandwich-LN is less a replacement for
        Pre-LN than an addition to it: x + LN(F(LN(x)))"): what follows the colon describes the sentence's subject,
        not the thing it is set beside."""
        lay, toks = self.lay, self.lay.tokens
        if not (self._labels_what_follows(m, start) or self._colon_closes_predicate(m, start)):
            return False
        k = m.start - 1
        while k >= 0 and toks[k].kind == WORD and toks[k].key in _DETERMINERS_BEFORE_NAMES and m.start - k <= 2:
            k -= 1
        if k < 0 or toks[k].kind != WORD or toks[k].key not in _PREPOSITIONS_BEFORE_OBJECTS:
            return False
        earlier = self._in_sentence_before(lay.sentence_of[m.start], bisect.bisect_left(self._starts, m.start))
        opener = earlier[0] if earlier else None
        return (opener is not None and opener.subject != m.subject and not opener.contrast and self._opens_sentence(opener)
                and opener.end < len(toks) and toks[opener.end].key in _COPULAS)

    def _colon_closes_predicate(self, m: Mention, start: int) -> bool:
        """A colon follows the name within _PREDICATE_TAIL tokens of the same clause, before `start`, with no other
        name between them ("... a replacement for Pre-LN than an addition to it: ...")."""
        lay, toks = self.lay, self.lay.tokens
        clause = lay.clause_of[m.start]
        for j in range(m.end, min(start, m.end + _PREDICATE_TAIL + 1)):
            if toks[j].kind == PUNCT and toks[j].key in _COLONS:
                # (no other name between: the next mention starts at the colon or later)
                k = bisect.bisect_left(self._starts, m.end)
                return j > m.end and (k == len(self._starts) or self._starts[k] >= j)
            if lay.clause_of[j] != clause:
                return False
        return False

    def _object_of_comparison(self, m: Mention) -> bool:
        """The name ends a comparison its clause makes ("Pre-LN trained as well as a warmed-up Post-LN: about 34
        BLEU", "no worse than Post-LN: ..."): the colon after it goes on about the clause, not about the name."""
        lay, toks = self.lay, self.lay.tokens
        k = m.start - 1
        while k >= max(0, m.start - 4) and toks[k].kind != PUNCT and lay.clause_of[k] == lay.clause_of[m.start]:
            if toks[k].key in _COMPARED_WITH or (toks[k].key == "as" and any(
                    toks[j].key in ("as", "same") for j in range(max(0, k - 4), k))):
                return k > lay.clause_span[lay.clause_of[m.start]][0]
            k -= 1
        return False

    def _colon_in_aside(self, m: Mention, limit: int) -> bool:
        """The colon the name labels with (`_label_colon`) is inside the name's own bracketed aside."""
        colon = self._label_colon(m, limit)
        return colon is None or self.lay.aside_of[colon] == self.lay.aside_of[m.start]

    def _labels_what_follows(self, m: Mention, limit: int) -> bool:
        """The name is followed by a colon before token `limit`, past closing brackets ("[[Pre Norm]]:") or a short
        bracketed aside ("Pre-norm (modern): ..."): it labels what comes after the colon."""
        return self._label_colon(m, limit) is not None

    def _label_colon(self, m: Mention, limit: int) -> int | None:
        """The colon of `_labels_what_follows`, or None."""
        toks = self.lay.tokens
        j = m.end
        while j < limit and toks[j].kind == PUNCT and toks[j].key in ("]", ")", "\u3011"):
            j += 1
        if j < limit and toks[j].kind == PUNCT and toks[j].key in ("(", "\uff08"):
            close = next((k for k in range(j + 1, min(limit, j + 9))
                          if toks[k].kind == PUNCT and toks[k].key in (")", "\uff09")), None)
            if close is None:
                return None
            j = close + 1
        if not (j < limit and toks[j].kind == PUNCT and toks[j].key in _COLONS):
            return None
        # a name that closes a quotation ('a misreading that Admin "turns Post-LN into Pre-LN": ...') is quoted, not a
        # label of what follows
        return None if any(ch in _CLOSING_QUOTES for ch in self.lay.text[toks[m.end - 1].end : toks[j].start]) else j

    def _pronoun_refers_to_opener(self, start: int, k: int) -> Mention | None:
        """"Sandwich-LN is less a replacement for Pre-LN than Pre-LN plus one extra norm: instead of x + F(LN(x))
        it computes x + LN(F(LN(x)))": a later clause that refers back with a pronoun is about the sentence's
        subject, not about the names its first clause mentions after the verb (credit only: not explicit)."""
        lay, toks = self.lay, self.lay.tokens
        sent, clause = lay.sentence_of[start], lay.clause_of[start]
        earlier = [m for m in self._in_sentence_before(sent, k) if not m.contrast]
        if len(earlier) < 2 or not self._opens_sentence(earlier[0]):
            return None
        first = earlier[0]
        if any(lay.clause_of[m.start] != lay.clause_of[first.start] for m in earlier) or lay.clause_of[first.start] == clause:
            return None
        if all(m.subject == first.subject for m in earlier):
            return None
        a = lay.clause_span[clause][0]
        return first if any(toks[j].key in _BACK_PRONOUNS for j in range(a, start)) else None

    def _in_sentence_before(self, sent: int, k: int) -> list[Mention]:
        """The mentions of sentence `sent` among the first k (the sentence's mentions only: linear)."""
        lay = self.lay
        lo = bisect.bisect_left(self._starts, lay.sentence_span[sent][0], 0, k)
        return [m for m in self.mentions[lo:k] if lay.sentence_of[m.start] == sent]

    def _cause_pronoun_antecedent(self, start: int, k: int) -> Mention | None:
        """"Large models chose Pre-LN because it reaches better final accuracy than Post-LN": a "because it" clause
        whose sentence has named exactly one subject before it (comparison partners aside) is about that subject."""
        lay, toks = self.lay, self.lay.tokens
        a = lay.clause_span[lay.clause_of[start]][0]
        n = CAUSE.at(toks, a)
        if not n or a + n >= start or toks[a + n].key not in ("it", "它"):
            return None
        sent = lay.sentence_of[start]
        earlier = [m for m in self._in_sentence_before(sent, k) if m.start < a]
        named = [m for m in earlier if not m.contrast]
        return named[0] if len(named) == 1 and len({m.subject for m in earlier}) == 1 else None

    def _owner_before_colon(self, start: int, k: int) -> Mention | None:
        """"Xiong et al. found this makes Post-LN's gradients very uneven: they are largest at the bottom layers": a
        clause that opens with "they"/"it" right after a colon refers to the noun its owner names just before the
        colon ("Post-LN's gradients"), when that owner is the only subject named in the sentence so far."""
        lay, toks = self.lay, self.lay.tokens
        a = lay.clause_span[lay.clause_of[start]][0]
        j, colon = a, a > 0 and toks[a - 1].kind == PUNCT and toks[a - 1].key in (":", "：")
        while j < start and toks[j].kind == PUNCT:
            colon = colon or toks[j].key in (":", "：")
            j += 1
        if not (colon and a > 0 and j < start and toks[j].key in ("they", "it", "它", "它们")):
            return None
        sent = lay.sentence_of[start]
        earlier = self._in_sentence_before(sent, k)
        if len(earlier) == 2 and earlier[1].contrast and self._opens_sentence(earlier[0]) and (
                earlier[0].end < len(toks) and toks[earlier[0].end].key in _COPULAS):
            # "GLM-130B is the Post-LN outlier: it uses DeepNorm": the sentence's subject, described by a predicate
            # that names another, is what "it" takes back
            m = earlier[0]
            return m if lay.clause_of[m.start] == lay.clause_of[a - 1] and a - m.end <= 12 else None
        if len(earlier) != 1 or earlier[0].contrast or lay.clause_of[earlier[0].start] != lay.clause_of[a - 1]:
            return None
        m = earlier[0]
        owned = lay.possessive(m.end - 1) or (
            m.end < len(toks) and toks[m.end].key == "的")
        if not owned and self._opens_sentence(m) and m.end < len(toks) and toks[m.end].key in _COPULAS:
            return m if a - m.end <= 12 else None  # "GLM-130B is an outlier: it uses DeepNorm with ..."
        return m if owned and a - m.end <= 8 else None

    def _opens(self, m: Mention, start: int) -> bool:
        """The mention is the subject of its sentence's first clause ("Post-LN keeps an identity path ..., and its
        final LN divides by a norm that grows") and governs the claim at `start` as a label would: the claim's
        clause refers back to it with a pronoun, and no semicolon or colon comes between (after one, "...;
        x + LN(F(x)) normalises only the branch", the sentence has moved on to another subject)."""
        lay, toks = self.lay, self.lay.tokens
        first = lay.sentence_span[lay.sentence_of[m.start]][0]
        words = _leading(toks, first, m.start, 2, lambda t: t.kind != PUNCT)
        if words and not (len(words) == 1 and words[0].key in _OPENING_WORDS):
            return False
        turns = [j for j in range(m.end, start) if toks[j].kind == PUNCT and toks[j].key in _TURNS]
        if turns:
            # "...; it uses standard LayerNorm": a pronoun right after the turn takes the opener back, when the
            # sentence names no other subject before it
            after = turns[-1] + 1
            if not (after < start and toks[after].key in _TURN_PRONOUNS
                    and all(o.subject == m.subject or o.contrast for o in self.mentions
                            if m.end <= o.start < turns[-1])):
                return False
        # A later clause with a subject of its own ("..., and the final norm scales the top gradients down") is
        # about that; one that refers back with a pronoun ("... while its gradients explode") is about the opener.
        a = lay.clause_span[lay.clause_of[start]][0]
        return any(toks[k].key in _BACK_PRONOUNS for k in range(max(a, m.end), start))

    def _topic(self, m: Mention) -> bool:
        """The mention opens its sentence as a topic ("For Pre-LN, the stream is never renormalised, so each block
        adds to it and S(x) grows", "对于 Pre-LN，..."): it governs every clause of that sentence, like a label."""
        lay, toks = self.lay, self.lay.tokens
        first = lay.sentence_span[lay.sentence_of[m.start]][0]
        lead = _leading(toks, first, m.start, 3, lambda t: t.kind != PUNCT or t.key not in ("-", "*", "("))
        if not lead or len(lead) > 2 or "".join(t.key for t in lead) not in _TOPIC_WORDS:
            return False
        j = m.end
        if j < len(toks) and toks[j].kind == CJK and toks[j].key in ("中", "里", "上"):
            j += 1
        if j < len(toks) and toks[j].kind == WORD and toks[j].key in _TOPIC_NOUN_OPENERS:
            return True  # "For RMSNorm the Jacobian is (1/r)(I - yy^T/d): it ...": the comma left out
        return j < len(toks) and toks[j].kind == PUNCT and toks[j].key in (",", "，")

    def _heading_or_default(self, block: int) -> Attribution:
        heading = self.lay.heading_of[block] if block < len(self.lay.heading_of) else -1
        while heading >= 0 and heading not in self._heading_subject and self.lay.block_kind[heading] != "heading":
            # a line leading into the list names nobody ("LayerNorm is applied after the addition:" under
            # "Post-LN (original)"): the heading above that line says whose items they are
            heading = self.lay.heading_of[heading]
        if heading >= 0 and heading in self._heading_subject:
            subject = self._heading_subject[heading]
            return Attribution(subject, "heading", None) if subject is not None else NOBODY
        return self.default

    def _trailing_scope(self, end: int, after: Mention | None) -> Mention | None:
        """"... and by O(d sqrt(ln d / L)) for Pre-LN": a subject introduced by "for"/"in" right after the claim's
        words (closing brackets between) is that claim's, even when another subject stands earlier in the part. `after`
        is the first name after the claim in its clause."""
        if after is None:
            return None
        toks = self.lay.tokens
        j = end
        while j < len(toks) and toks[j].kind == PUNCT and toks[j].key in (")", "]", "}"):
            j += 1
        if j + 1 < len(toks) and toks[j].kind == WORD and toks[j].key in ("for", "in") and after.start == j + 1:
            return after
        return None

    def _named_after(self, start: int, end: int) -> Mention | None:
        """"... no longer needed with this scheme, which has since been named pre-normalization": a relative clause
        after the claim that names what it was about ("which is called X", "known as X", "即 X", "称为 X"). The
        name is the claim's subject, though not explicit enough to charge a mistake."""
        lay, toks = self.lay, self.lay.tokens
        sent = lay.sentence_of[start]
        for m in reversed(self.mentions[: bisect.bisect_left(self._starts, start)]):
            if lay.sentence_of[m.start] != sent:
                break
            if not m.contrast:
                return None  # named before the claim in its sentence: _outside decides
        k = bisect.bisect_left(self._starts, end)
        for m in self.mentions[k:]:
            if lay.sentence_of[m.start] != sent:
                return None
            if m.contrast:
                continue
            lo = max(end, m.start - 6)
            words = [toks[q] for q in range(lo, m.start) if toks[q].kind in (WORD, CJK)]
            if any(t.key in _NAMERS for t in words[-3:]) and any(t.key in _RELATIVE_OPENERS for t in words):
                return m
        return None

    def _alike(self, m: Mention, start: int) -> tuple[str, ...]:
        """Subjects the sentence of `m` says it is like before the claim at `start`: "like X", "similar to X",
        "像/和/跟 X 一样"."""
        lay, toks = self.lay, self.lay.tokens
        sent = lay.sentence_of[m.start]
        out: list[str] = []
        for n in self.mentions[bisect.bisect_left(self._starts, lay.sentence_span[sent][0]):
                               bisect.bisect_left(self._starts, start)]:
            if n.subject == m.subject or not n.contrast or lay.sentence_of[n.start] != sent:
                continue
            before = [t.key for t in toks[max(0, n.start - 2) : n.start]]
            after = "".join(t.key for t in toks[n.end : n.end + 3] if t.kind == CJK)
            if (before[-1:] == ["like"] or before[-2:] == ["similar", "to"]
                    or (before[-1:] and before[-1] in ("像", "和", "跟", "同") and after.startswith(("一样", "一致")))):
                out.append(n.subject)
        return tuple(dict.fromkeys(out))

    def _coordinated(self, m: Mention) -> tuple[str, ...]:
        """Subjects joined to `m` by "and", "&", "和", "与", "、" or a comma, with nothing else between."""
        toks, text = self.lay.tokens, self.lay.text
        k = bisect.bisect_left(self._starts, m.start)  # mentions are in text order (no list.index: O(n) per call)
        out: list[str] = []
        for step in (-1, 1):
            cur = m
            j = k + step
            while 0 <= j < len(self.mentions):
                nxt = self.mentions[j]
                lo, hi = (nxt.end, cur.start) if step < 0 else (cur.end, nxt.start)
                between = [t for t in toks[lo:hi]]
                gap_ok = hi - lo <= 2 and all(t.key in _COORDINATORS for t in between) and "\n" not in text[
                    toks[lo - 1].end : toks[hi].start]
                if not gap_ok or nxt.contrast:
                    break
                if nxt.subject != m.subject:
                    out.append(nxt.subject)
                cur, j = nxt, j + step
        return tuple(dict.fromkeys(out))

    def _arrow_before(self, m: Mention, end: int) -> bool:
        """`m` is named after an arrow that follows the claim ("old models Post-LN -> GPT-2 on Pre-LN"): the next
        step of a sequence, not what the claim before the arrow is about."""
        return m.start >= end and self.lay.arrows_between(end, m.start)

    def _aside_before_arrow(self, m: Mention, start: int) -> bool:
        """`m` stands inside brackets that close before an arrow that comes before token `start` ("Post-LN
        (2017/BERT) -> Pre-LN ..."): an example in an earlier step of a sequence. ("moving the LayerNorm
        (Pre-LN) can remove the need for it": the aside names the subject, and is kept.)"""
        close = self._aside_close(m, start)
        return close >= 0 and self.lay.arrows_between(close, min(start, close + 200))

    def _aside_before_to(self, m: Mention, start: int) -> bool:
        """The prose form of an arrow: "the field moved from Post-LN (2017, BERT) to Pre-LN (GPT-2/3)". `m` stands
        in brackets that close right before "to", in a clause that says "from" before them: an example of the
        earlier step, not the subject of what comes after "to". Chinese says it with 从 ... 到 ("从 Post-LN（2017、BERT）
        到 Pre-LN")."""
        toks = self.lay.tokens
        close = self._aside_close(m, start)
        if close < 0 or close + 1 >= start or toks[close + 1].key not in ("to", "到"):
            return False
        lo = max(self.lay.clause_span[self.lay.clause_of[m.start]][0], m.start - 16)
        return any(toks[j].kind in (WORD, CJK) and toks[j].key == ("from" if toks[close + 1].key == "to" else "从")
                   for j in range(lo, m.start))

    def _aside_close(self, m: Mention, start: int) -> int:
        """Where the brackets around `m` close, when they close before token `start` (else -1)."""
        if self._closer is None:
            # for each token, where the innermost bracket around it closes (-1: none), in one pass
            toks = self.lay.tokens
            match: dict[int, int] = {}  # opening bracket -> its closing one
            stack: list[int] = []
            for i, t in enumerate(toks):
                if t.kind == PUNCT and t.key == "(":
                    stack.append(i)
                elif t.kind == PUNCT and t.key == ")" and stack:
                    match[stack.pop()] = i
            self._closer = [-1] * len(toks)
            stack = []
            for i, t in enumerate(toks):
                if t.kind == PUNCT and t.key == ")" and stack:
                    stack.pop()
                if stack:
                    self._closer[i] = match.get(stack[-1], -1)
                if t.kind == PUNCT and t.key == "(":
                    stack.append(i)
        close = self._closer[m.start] if m.start < len(self._closer) else -1
        return close if m.end <= start and 0 <= close < start else -1

    def _aside_host(self, start: int) -> int | None:
        """The last token before the opening bracket of the aside that holds `start` (None outside an aside)."""
        lay, toks = self.lay, self.lay.tokens
        first = self._part_first(start)
        if first < 2 or not (toks[first - 1].kind == PUNCT and toks[first - 1].key == "(") and not (
                toks[first].kind == PUNCT and toks[first].key == "("):
            return None
        host = first - 1 if toks[first].key == "(" else first - 2
        if host < 0 or lay.clause_of[host] != lay.clause_of[start]:
            return None
        return host

    def _relative_on_claim(self, m: Mention, end: int) -> bool:
        """The mention opens a relative clause on the claim's last noun ("it tolerates skipping the warm-up that Post-LN
        needs"): the name is that clause's subject, and the noun is the object of the main clause, whose subject the
        claim is said of. Not in a cleft ("it is the warm-up that Post-LN needs"), which is about the name."""
        toks, lay = self.lay.tokens, self.lay
        rel = m.start - 1
        if rel != end or toks[rel].kind != WORD or toks[rel].key not in RELATIVE_NOUN_CLAUSE:
            return False
        opening = self._part_first(m.start)
        if toks[opening].key not in CLEFT_OPENERS or opening + 1 >= len(toks):
            return True
        # ("it's" is one token whose key drops the "'s")
        contracted = lay.text[toks[opening].start : toks[opening].end].endswith(("'s", "\u2019s"))
        return not (contracted or toks[opening + 1].key in _CLEFT_COPULAS)

    def _in_later_relative(self, m: Mention, part: int) -> bool:
        """The mention sits in a relative part after the claim's part ("the name comes from CogView, a 4B model
        trained in FP16, where some Pre-LN activations overflowed"): that part says something of its own about the
        noun it hangs on, so its subject is not the subject of the claim before it."""
        lay = self.lay
        if lay.part_of[m.start] <= part:
            return False
        # any part from the one after the claim's up to the mention's may open the relative ("..., where, in
        # practice, some Pre-LN activations ..."); parts are numbered in text order
        openers = self._relative_openers
        k = bisect.bisect_right(openers, m.start)
        return k > 0 and lay.part_of[openers[k - 1]] > part

    def _part_first(self, i: int) -> int:
        """The first token of the comma part that holds token i (parts are numbered in text order: looked up, not
        walked, so a long part of many formulas costs no more than a short one)."""
        if self._part_starts is None:
            part_of = self.lay.part_of
            self._part_starts = [k for k in range(len(part_of)) if k == 0 or part_of[k] != part_of[k - 1]]
        starts = self._part_starts
        return starts[bisect.bisect_right(starts, i) - 1]

    def _opens_later_part(self, m: Mention, part: int) -> bool:
        """The mention opens a later part of the clause as its topic after a contrast or a topic word (", and with
        Pre-LN you can skip it", ", but for Pre-LN ...", ", whereas Pre-LN ...", "，而 Pre-LN ..."): that part is a claim
        of its own, not the subject of the words before it."""
        if self.lay.part_of[m.start] <= part:
            return False
        first = self._part_first(m.start)
        if first < m.start and self.lay.text[self.lay.tokens[first].start : self.lay.tokens[m.start].start].rstrip().endswith(
                _ZH_WHEN_CLAUSE_ENDS):
            return True  # "…，用 FP16 训练时 Pre-LN 深层的数值越来越大": after a 时-clause the name opens the part's own clause
        # (the name's own determiner may stand before it: ", and with ordinary Pre-LN some values grew ...")
        lead = self._part_lead(m)
        while len(lead) > 2 and lead[-1] in _PLAIN_MODIFIERS:
            lead.pop()
        if not lead or lead[0] not in _PART_CONJUNCTIONS or not all(w in _PART_CONJUNCTIONS or w in _TOPIC_WORDS
                                                                     for w in lead[1:]):
            return False
        # a bare "and" carries the same topic on (", and Pre-LN ends up a little worse" may still be what the
        # claim before it is about); a contrast or a new topic word switches to another subject
        return lead[0] != "and" or len(lead) > 1

    def _part_lead(self, m: Mention) -> list[str]:
        """The keys of the words that stand before the mention in its comma part."""
        toks = self.lay.tokens
        return [toks[k].key for k in range(self._part_first(m.start), m.start) if toks[k].kind != PUNCT]

    def _inside_later_clause(self, m: Mention, part: int) -> bool:
        """The mention stands inside a later part that opens a clause with a subject of its own (", and its gradient
        with respect to the pre-norm vector y is ...", ", but the growth in Pre-LN ..."): it belongs to that clause,
        not to the words before it, unless the context before the claim names the same subject (", and it is the
        reason Pre-LN models need clipping" in a paragraph on Pre-LN)."""
        if self.lay.part_of[m.start] <= part:
            return False
        lead = self._part_lead(m)
        return len(lead) >= 3 and lead[0] in _PART_CONJUNCTIONS and lead[1] in _OWN_SUBJECT_OPENERS

    @cached_property
    def _relative_openers(self) -> list[int]:
        """Tokens of "where"/"who"/"whose" that open a part or follow a stop, in text order (found once)."""
        lay, toks = self.lay, self.lay.tokens
        return [i for i, t in enumerate(toks) if i > 0 and t.kind == WORD and (
                    t.key in _NOUN_RELATIVES or (t.key == "which" and self._after_a_short_part(i)))
                and (lay.part_of[i - 1] != lay.part_of[i] or toks[i - 1].kind == PUNCT)]

    def _after_a_short_part(self, i: int) -> bool:
        """Token i follows a comma that closes a part of a few words only, a noun phrase rather than a clause ("there's
        Mix-LN, which, let me get this right, uses Post-LN early"): a "which" there hangs on that noun (after a whole
        clause, "..., which is why deep Post-LN explodes", it takes the clause)."""
        lay, toks = self.lay, self.lay.tokens
        k = i - 1
        if toks[k].kind != PUNCT or toks[k].key != ",":
            return False
        words = 0
        j = k - 1
        while j >= 0 and lay.part_of[j] == lay.part_of[k - 1] and toks[j].kind != PUNCT:
            words += 1
            if words > _SHORT_PART_WORDS:
                return False
            j -= 1
        return words > 0 and (j < 0 or toks[j].kind == PUNCT)

    def _continued_relative(self, start: int) -> Mention | None:
        """"for Post-LN, where every sublayer ends in an LN and the stream never grows": a part opened by "and"
        right after a relative part carries it on, about the same noun; so does a part that is only a formula."""
        lay, toks = self.lay, self.lay.tokens
        first = self._part_first(start)
        if first == 0:
            return None
        if first >= 2 and self._verb_after_and_so(first, start):
            # "Unlike Pre-LN, whose stream accumulates and so dilutes each new branch, Post-LN ...": the clause cut at
            # "so" goes on with the relative part's verb phrase, about the same noun
            return self._relative_antecedent(first - 2)
        if not (toks[first].kind == WORD and toks[first].key == "and") and not self._formula_part(first):
            return None
        prev = first - 1
        if lay.clause_of[prev] != lay.clause_of[start]:
            return None
        return self._relative_antecedent(prev)

    def _verb_after_and_so(self, first: int, start: int) -> bool:
        """The part at `first` opens "so"/"thus"/"hence" right after an "and", and a verb follows with no subject
        of its own before the claim ("... accumulates and so dilutes ...")."""
        toks = self.lay.tokens
        if not (toks[first].kind == WORD and toks[first].key in _SO_ADVERBS and toks[first - 1].kind == WORD
                and toks[first - 1].key == "and" and first + 1 < len(toks)):
            return False
        nxt = toks[first + 1]
        return (nxt.kind == WORD and nxt.key not in _NOT_A_VERB_AFTER_SO
                and self.between(first, max(start, first + 1)) is None)

    def _formula_part(self, first: int) -> bool:
        """The comma part opened at token `first` holds a formula and nothing else: an appositive restating the part
        before it ("Unlike Pre-LN, which normalises only the input, x + F(LN(x)), Sandwich-LN ...")."""
        starts = self._part_starts or []
        j = bisect.bisect_right(starts, first)
        end = starts[j] if j < len(starts) else len(self.lay.tokens)
        return self._maths_between(first, end) and any(self.lay.tokens[k].key == "(" for k in range(first, end))

    def relative_antecedent(self, start: int) -> Mention | None:
        """The subject a relative part hangs on, when token `start` lies in one ("Pre-LN's, which shrinks ...")."""
        return self._relative_antecedent(start)

    def _relative_antecedent(self, start: int) -> Mention | None:
        """In "X, which is ...", the part after the comma is about X."""
        lay, toks = self.lay, self.lay.tokens
        first = self._part_first(start)
        k = first
        while k < len(toks) and toks[k].kind == PUNCT:
            k += 1
        if k >= len(toks) or not _opens_relative(toks, k) or first == 0 or _CLAUSE_WHICH.at(toks, k):
            return None
        prev = first - 1
        while prev >= 0 and toks[prev].kind == PUNCT:
            prev -= 1
        if prev < 0 or lay.clause_of[prev] != lay.clause_of[start]:
            return None
        # (the name may carry its head noun: "the original Post-LN Transformer, where LN is applied after the add")
        # (and a naming aside: "the original Post-LayerNorm (PostNorm or Post-LN) Transformer, where ...")
        head, nouns = prev, 0
        while head >= 0:
            j = bisect.bisect_right(self._starts, head) - 1
            if j >= 0 and self.mentions[j].end - 1 == head:
                return self.mentions[j]
            if toks[head].kind == PUNCT and toks[head].key == ")":
                opener = next((k for k in range(head - 1, max(-1, head - 12), -1) if toks[k].key == "("), None)
                if opener is None:
                    return None
                head = opener - 1
                continue
            if nouns >= 2 or toks[head].kind != WORD or toks[head].key not in _EXAMPLE_HEADS:
                return None
            head, nouns = head - 1, nouns + 1
        return None


def _leading(toks: list[Token], a: int, b: int, limit: int, keep: Callable[[Token], bool]) -> list[Token]:
    """The first `limit` tokens of toks[a:b] that `keep` accepts (fewer when there are fewer): what opens a
    sentence, found without walking a long one-sentence paste to its end for every mention in it."""
    out: list[Token] = []
    for k in range(a, b):
        if keep(toks[k]):
            out.append(toks[k])
            if len(out) >= limit:
                break
    return out
