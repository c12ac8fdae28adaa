"""Text normalisation that remembers where every character came from.

Answers arrive in English, Chinese, full-width forms, LaTeX and pasted junk. The scorer works on a
normalised copy and maps every span it finds back to the user's original text, so feedback can quote and
highlight the user's own words. Normalising means: NFKC (full-width forms become ASCII), one kind of dash,
quote and multiplication sign, no control characters, LaTeX written out as plain notation
(`\\frac{1}{\\sqrt{L}}` becomes `(1)/(sqrt(L))`, `\\mathbf 1\\mathbf 1^\\top` becomes `1 1^T`, `\\alpha`
becomes `α`), Markdown tables read as sentences, then lower case. A case-preserving copy (`cased`) is kept
alongside, for the few places where case carries meaning (the layer index `l` versus the depth `L`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote, unquote_plus

_INDEX_COMMA = re.compile(r"[_^]\{[^{}\n]{1,20}\}")
#: The colon of a citation identifier ("arXiv:2203.00555", "doi:10.48550/..."): part of the name, not a clause break.
_CITATION_COLON = re.compile(r"\b(?:arxiv|doi|isbn|pmid|issn):(?=\d)", re.IGNORECASE)

#: Answers longer than this (after dropping repeated lines) are scored on their first part only. A full written
#: answer is a few thousand characters; 40,000 (about fifteen pages) keeps any paste within the scorer's one-second
#: budget.
MAX_SCORED_CHARS = 40_000
#: Separates "<column> <row label>" from the cell in a table read as sentences (a colon that always ends a label).
TABLE_COLON = "\u2236"
#: A table's header or row label is repeated for each of its cells; longer ones are cut to this.
MAX_TABLE_LABEL = 120

# The em dash stays: "**GPT-2** — Pre-LN" uses it to end a label, where a minus never would.
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d"), "-")
# ⊙ is the elementwise product answers write in backward formulas ("mean(g ⊙ y)").
_TIMES = dict.fromkeys(map(ord, "\u00d7\u00b7\u22c5\u2219\u2217\u2299"), "*")
# "maps to" is an arrow: "1 ↦ 0" says J 1 = 0.
_ARROWS = dict.fromkeys(map(ord, "\u21a6\u27fc"), "\u2192")
_QUOTES = dict.fromkeys(map(ord, "\u2018\u2019\u201b\u2032"), "'") | dict.fromkeys(
    map(ord, "\u201c\u201d\u201f\u2033"), '"'
)
# Superscript powers stay powers ("x_j²" is x_j^2, not x_j2).
_POWERS = {0x00B2: "^2", 0x00B3: "^3"}
_TRANSLATE = _DASHES | _TIMES | _QUOTES | _ARROWS | _POWERS


@dataclass(frozen=True)
class Prepared:
    """A normalised answer: `text` plus, for each of its characters, the offset in the original."""

    original: str
    text: str
    origin: tuple[int, ...]
    truncated: bool
    dropped_repeats: int
    cased: str = ""

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


#: A line of printable ASCII (and its line break): nothing in it is dropped or folded.
_PLAIN_LINE = re.compile(r"[ -~\n]*\Z")


def _char_ok(ch: str) -> bool:
    if ch in "\n\t":
        return True
    cat = unicodedata.category(ch)
    return not (cat.startswith("C") or cat in ("Zl", "Zp"))


def _fold(ch: str) -> str:
    """Normalise one character: NFKC, dashes/quotes/times folded, accents dropped from Latin letters
    ("ŷ" is y-hat: y), case kept."""
    if ch < "\x80":
        return ch
    ch = ch.translate(_TRANSLATE)
    if ch < "\x80":
        return ch
    out = unicodedata.normalize("NFKC", ch).translate(_TRANSLATE)
    if len(out) == 1 and ("\u00c0" <= out <= "\u024f" or "\u1e00" <= out <= "\u1eff"):
        base = "".join(c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c))
        return base or out
    return out


#: Symbols written out as words, so "√d", "sqrt(d)" and "\sqrt{d}" meet, and "ε" meets "eps".
_SPELLED = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "eps", "ϵ": "eps", "η": "eta",
            "θ": "theta", "λ": "lambda", "μ": "mu", "σ": "sigma", "ω": "omega", "π": "pi", "ρ": "rho",
            "τ": "tau", "φ": "phi", "ψ": "psi", "Θ": "Theta", "Ω": "Omega", "Δ": "Delta",
            "Γ": "Gamma", "Λ": "Lambda", "√": "sqrt", "∑": "sum", "Σ": "sum", "⊤": "T", "≤": "<=", "≥": ">=", "≫": ">>", "≪": "<<",
            "≠": "is not"}  # "instability ≠ a gradient problem" denies


_NOT_EQUAL = re.compile(r"!=|=/=")


def _spell(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Write the symbols in `_SPELLED` as words (a space keeps "αx" from becoming one word)."""
    out: list[str] = []
    out_origin: list[int] = []
    for k, ch in enumerate(text):
        word = _SPELLED.get(ch)
        if word is None:
            out.append(ch)
            out_origin.append(origin[k])
            continue
        if word[0].isalpha() and out and out[-1][-1:].isalnum():
            word = " " + word
        if word[-1].isalpha() and k + 1 < len(text) and text[k + 1].isalnum():
            word += " "
        out.append(word)
        out_origin.extend([origin[k]] * len(word))
    return "".join(out), out_origin


#: Words after which "squared" is an adjective of what follows ("the squared norm", "its squared length").
_NOT_SQUARED = ("the", "a", "an", "its", "their", "our", "his", "her", "is", "are", "be", "of", "and", "or",
                "expected", "mean", "average", "get", "gets", "got")
#: Maths said aloud, written as symbols: "one over sigma" is "1 over sigma", "square root of d" is "sqrt d",
#: "root L" is "sqrt L", "sigma squared" is "sigma^2". ("root cause" and "the root of the problem" stay words.)
_SPOKEN = [
    (re.compile(r"\bone over\b", re.IGNORECASE), "1 over"),
    (re.compile(r"\bsquare[- ]root(?: of)?\b", re.IGNORECASE), "sqrt"),
    (re.compile(r"\broot(?= (?:of )?(?:d|n|l|d_model|two|2|log|ln)\b)(?: of)?", re.IGNORECASE), "sqrt"),
    # (not after a determiner or a verb: "the squared norm" is no "the^2"; not after Chinese: "的 squared norm")
    # (the lookahead first: the lookbehinds are tried only where " squared" follows)
    (re.compile(r"(?= squared\b)" + "".join(rf"(?<!\b{w})" for w in _NOT_SQUARED) + r"(?<=[A-Za-z0-9_)\]}|‖]) squared\b",
                re.IGNORECASE), "^2"),
    # "x 加 LN(F(LN(x)))", "x plus F(LN(x))": a sum said aloud, when a function call follows
    (re.compile(r"(?<=[A-Za-z0-9)\]]) ?(?:加上|加|plus) ?(?=[A-Za-z][A-Za-z0-9_]{0,11}\()", re.IGNORECASE), " + "),
]
_SPOKEN_HINT = re.compile(r"\b(?:one over|root|squared|plus)\b|加", re.IGNORECASE)


#: Numbers said aloud ("four thousand steps", "ten to the minus nine", "seven times ten to the minus four", "to the
#: minus a half", "two N to the one quarter", "zero point nine eight"), written as digits. Only these constructions:
#: "one of the two norms" stays words.
_UNIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
               "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TEN_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_NUMBER_WORD = (r"(?:(?:" + "|".join(_TEN_WORDS) + r")(?:[- ](?:" + "|".join(_UNIT_WORDS[1:10]) + r"))?|"
                + "|".join(_UNIT_WORDS) + r"|\d+(?:\.\d+)?)")
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_FRACTION_WORDS = {"half": "1/2", "quarter": "1/4", "fourth": "1/4", "third": "1/3"}


def _line_wrapped(pattern: str) -> str:
    """A pattern whose word gaps (" ") may also be a hard line wrap ("seven times ten to the\nminus four")."""
    return pattern.replace("[- ]", "\0").replace(" ?", "\1").replace(" ", r"(?:[ \t]+|[ \t]*\n[ \t]*)").replace(
        "\0", "[- ]").replace("\1", "[ \t]?")


#: (The first line only skips, fast, the places where no construction can begin: inside a word, or anywhere but a
#: number word, a digit, "point" or "to the". It changes no match.)
_SPOKEN_NUMBERS = re.compile(r"(?:(?<![A-Za-z0-9_])(?=[0-9zotfsenp])|(?=[ \t]to\b))(?:" + _line_wrapped(
    # "seven times ten to the minus four", "ten to the minus nine"
    rf"\b(?:(?P<mant>{_NUMBER_WORD}) times )?ten to the (?P<esign>minus |negative )?(?P<exp>{_NUMBER_WORD})\b"
    # "to the minus a half", "to the one quarter", "to the minus one point five"
    rf"|(?:\b(?P<fbase>{_NUMBER_WORD}) ?(?P<fsym>[a-z]) | ?)\bto the (?P<fsign>minus |negative )?(?:one[- ]|a )?(?P<frac>half|quarter|fourth|third)\b"
    rf"|(?:\b(?P<pbase>{_NUMBER_WORD}) ?(?P<psym>[a-z]) | ?)\bto the (?P<psign>minus |negative )(?P<pow>{_NUMBER_WORD})(?: point (?P<powdec>{_DIGIT_WORD}(?: {_DIGIT_WORD})*))?\b(?![-/]|\.\d)"
    # "four thousand", "five hundred", "two hundred thousand"
    rf"|\b(?P<many>{_NUMBER_WORD}) (?P<scale>hundred thousand|thousand|hundred)\b"
    # "seven e minus four"
    rf"|\b(?P<emant>{_NUMBER_WORD}) e (?:minus|negative) (?P<eexp>{_NUMBER_WORD})\b"
    # "zero point nine eight", "one point five", "point nine eight"
    rf"|\b(?:(?P<whole>{_NUMBER_WORD}) )?point (?P<dec>{_DIGIT_WORD}(?: {_DIGIT_WORD})*)\b"
    # "thirty-four", "twenty five", "fourteen": a number from eleven up said on its own (a lone "four" stays a word)
    rf"|\b(?P<tens>(?:{'|'.join(_TEN_WORDS)})(?:[- ](?:{'|'.join(_UNIT_WORDS[1:10])}))?|{'|'.join(_UNIT_WORDS[11:])})\b(?![- ](?:{'|'.join(_UNIT_WORDS[1:10])})\b)"
) + ")", re.IGNORECASE)
#: A symbol whose index is said before a spoken value ("beta one point nine" is beta1 = 0.9).
_INDEXED_SYMBOL = re.compile(r"(?:\bbeta|\bβ|\bb)\s*$", re.IGNORECASE)
_SPOKEN_NUMBER_HINT = re.compile(r"\b(?:thousand|hundred|to the|point|minus|" + "|".join(_TEN_WORDS + _UNIT_WORDS[11:])
                                 + r")\b", re.IGNORECASE)


def _number_value(words: str) -> int | float:
    """The value of a number said in words ("seven", "twenty-five") or written in digits."""
    words = words.lower()
    if words[0].isdigit():
        return float(words) if "." in words else int(words)
    value = 0
    for w in re.split(r"[- ]", words):
        value += (_TEN_WORDS.index(w) + 2) * 10 if w in _TEN_WORDS else _UNIT_WORDS.index(w)
    return value


def _digits(words: str) -> str:
    """Digits said one by one ("nine eight") as a string ("98")."""
    return "".join("0" if w in ("zero", "oh") else str(_UNIT_WORDS.index(w)) for w in words.lower().split())


def _spoken_number(m: re.Match[str], before: str) -> str | None:
    """The digits for one `_SPOKEN_NUMBERS` match (`before`: the text before it), or None to leave it as words."""
    if m.group("eexp"):
        return f"{_number_value(m.group('emant'))}e-{_number_value(m.group('eexp'))}"
    if m.group("exp"):
        mant = str(_number_value(m.group("mant"))) if m.group("mant") else "1"
        return f"{mant}e{'-' if m.group('esign') else ''}{_number_value(m.group('exp'))}"
    if m.group("frac"):
        base = f"({_number_value(m.group('fbase'))}{m.group('fsym')})" if m.group("fbase") else ""
        return f"{base}^({'-' if m.group('fsign') else ''}{_FRACTION_WORDS[m.group('frac').lower()]})"
    if m.group("pow"):
        # "eight N to the minus one quarter" is (8N)^(-1/4): the power takes the whole spoken product
        base = f"({_number_value(m.group('pbase'))}{m.group('psym')})" if m.group("pbase") else ""
        dec = f".{_digits(m.group('powdec'))}" if m.group("powdec") else ""
        return f"{base}^(-{_number_value(m.group('pow'))}{dec})"
    if m.group("tens"):
        return str(_number_value(m.group("tens")))
    if m.group("scale"):
        scale = {"hundred": 100, "thousand": 1000, "hundred thousand": 100_000}[" ".join(m.group("scale").lower().split())]
        return str(_number_value(m.group("many")) * scale)
    dec = m.group("dec")
    if m.group("whole") is None and len(dec.split()) < 2:
        return None  # "at that point nine layers ...": one digit word after a bare "point" is no number
    whole = m.group("whole")
    if whole and _INDEXED_SYMBOL.search(before):
        return f"{whole} 0.{_digits(dec)}"  # "beta two point nine eight": beta2 = 0.98, the "two" is its index
    return f"{_number_value(whole) if whole and whole.lower() != 'oh' else 0}.{_digits(dec)}"


def _spoken_numbers(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Write numbers said aloud as digits (`_SPOKEN_NUMBERS`); each new character maps to where its words began."""
    edits = []
    for m in _SPOKEN_NUMBERS.finditer(text):
        digits = _spoken_number(m, text[max(0, m.start() - 12) : m.start()])
        if digits is not None:
            edits.append((m.start(), m.end(), digits, m.start()))
    return _apply_edits(text, origin, edits)


#: Words said again after a spoken hesitation ("kills the, uh, the radial direction", "it's, um, it's", "It doesn't,
#: uh, it doesn't stop the stream"): said once, up to three words (a restarted "it doesn't" denies once, not twice).
#: (Other hesitations stay: they may part clauses, and how often an answer hesitates is part of its form.)
_HESITATION_WORD = re.compile(r"\b(?:um+|uh+|uhm+|erm+)\b", re.IGNORECASE)
_SAID_AGAIN = re.compile(r"\b((?:[A-Za-z]+(?:['\u2019][A-Za-z]+)?\s+){0,2}[A-Za-z]+(?:['\u2019][A-Za-z]+)?)"
                         r"(?:,?\s*\b(?:um+|uh+|uhm+|erm+)\b,?\s*)+(?=\1\b)", re.IGNORECASE)


#: A spoken filler set off by commas ("not, you know, gradients exploding", "it's, like, five-ish", "or, well, Admin
#: says"): it parts a negation from what it denies, so the filler and its commas are read as one space.
_FILLER = re.compile(r",\s*\b(?:you know|i mean|like|um+|uh+|uhm+|erm+|well|so to speak|kind of|sort of)\b\s*,\s*",
                     re.IGNORECASE)


#: A yes/no question said aloud and answered after a comma ("so is it a contradiction, no, not really", "does Pre-LN need
#: it, yes, at high learning rates"): the question's opening words, up to 80 characters of it, and the answer word.
_SPOKEN_QUESTION = re.compile(r"(?:^|(?<=[.!?\n])\s*|\bso\s+)((?:is|does|do|did|are|was|can|should)\s+(?:it|this|that|there|they|we|you|"
                              r"pre-ln|post-ln)\b[^,.?!;:\n]{1,80}),(?=\s*(?:no|yes|nope|yeah|not really)\b(?!\s+matter))",
                              re.IGNORECASE)


def _spoken_questions(text: str) -> str:
    """Close each question said aloud (`_SPOKEN_QUESTION`) with "?" in place of the comma before its answer ("so is it a
    contradiction, no, not really"); one character for one, so the offsets stay."""
    chars = list(text)
    for m in _SPOKEN_QUESTION.finditer(text):
        chars[m.end(1)] = "?"
    return "".join(chars)


#: Words that open a statement of their own after a pause ("it's flat in L, um, actually the one that changes is
#: Pre-LN", "Fixes, uh, there's Mix-LN"): a filler before one of them sits between two statements. ("actually" or
#: "honestly" only before the new statement's subject: "the gradient, um, actually grows" goes on with its verb.)
_NEW_STATEMENT = re.compile(r"(?:(?:actually|honestly)\s+(?:the|it|this)\b"
                            r"|(?:(?:actually|honestly)\s+)?(?:anyway|anyways|okay|ok|people|they|we|i|it's|it\u2019s|that's"
                            r"|that\u2019s|there's|there\u2019s|if|what)\b)", re.IGNORECASE)
#: Words after which a phrase is unfinished ("it's, um, five", "not, you know, exploding", "the, uh, radial direction").
_UNFINISHED = frozenset("""a an the and or but so because if is are was were be been being has have had do does did can could
    will would should may might must not no never of to in on at by for from with into than as like just very really also only even
    still then which that that's it's its it this these those their his her our your my get gets got say says said means equals
    times plus over about kind sort""".split())
#: The last word before a filler's comma.
_LAST_WORD = re.compile(r"([\w'\u2019]+)\W*$")


def _fillers(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Read each comma-bounded filler (`_FILLER`) as a single space, or as one comma where it stands between two
    statements: after a finished phrase and before a word that opens a statement of its own (`_NEW_STATEMENT`)."""
    edits = []
    for m in _FILLER.finditer(text):
        before = _LAST_WORD.search(text[max(0, m.start() - 40) : m.start()])
        word = before.group(1).lower().replace("\u2019", "'") if before is not None else ""
        between = (word != "" and word not in _UNFINISHED and not word.endswith("n't")  # ("It doesn't, um, actually keep")
                   and _NEW_STATEMENT.match(text, m.end()) is not None)
        edits.append((m.start(), m.end(), ", " if between else " ", m.start()))
    return _apply_edits(text, origin, edits)


def _said_again(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Drop a word and the hesitation after it when the word is said again (`_SAID_AGAIN`)."""
    return _apply_edits(text, origin, [(m.start(), m.end(), "", m.start()) for m in _SAID_AGAIN.finditer(text)])


#: Markup of text copied from the web: a Markdown link's target, absolute or relative ("[Admin](https://arxiv.org/abs/
#: 2004.08249)" reads "Admin", as do "[FFN](../../transformers/feed_forward.html)" and "[§3](#method)"), a bare address,
#: an HTML tag or comment. Their letters and digits would read as words and values.
_LINK_TARGET = re.compile(r"(?<=\])\((?:https?://|www\.|\.{0,2}/|#)[^()\s]{0,500}\)"
                          r"|(?<=\])\([\w./-]{1,300}\.(?:html?|md|pdf)(?:#[\w-]*)?\)")
_BARE_URL = re.compile(r"\b(?:https?://|www\.)[^\s()<>\[\]]{1,500}")
#: Tag names of HTML that pages carry; any other "<word ...>" is left alone ("<x and y>" in maths).
_HTML_TAG = "(?:" + "|".join(("p", "br", "hr", "img", "div", "span", "h[1-6]", "i", "b", "em", "strong", "a", "sup", "sub",
                               "code", "pre", "ul", "ol", "li", "table", "thead", "tbody", "tr", "td", "th", "details",
                               "summary", "center", "font", "blockquote", "figure", "figcaption", "math", "svg")) + ")"
_HTML = re.compile(r"<!--.{0,2000}?-->|</?" + _HTML_TAG + r"(?:\s[^<>\n]{0,500})?/?>", re.DOTALL)
#: What shows the answer carries pasted markup: a comment, a closing tag, a tag with attributes.
_PASTED_HTML = re.compile(r"<!--|</" + _HTML_TAG + r">|<" + _HTML_TAG + r"\s+[a-z-]+=")


#: An address that renders a formula from its query (blogs and Zhihu show maths as such images): the formula is the
#: answer's own text. As an image tag, a Markdown link target or a bare address.
_EQUATION_URL = (r"(?:https?:)?//(?:latex\.codecogs\.com/(?:svg|png|gif)\.(?:latex|image)\?|www\.zhihu\.com/equation\?tex="
                 r"|render\.githubusercontent\.com/render/math\?math=)")
_EQUATION = re.compile(r"<img\b[^<>]{0,300}?src=[\"']" + _EQUATION_URL + r"([^\"'<>\n]{1,2000})[\"'][^<>]{0,300}>"
                       r"|(?<=\])\(" + _EQUATION_URL + r"([^\s\n]{1,2000}?)\)(?=\s|$|[^\x00-\x7f]|[,.;:])"
                       r"|" + _EQUATION_URL + r"([^\s\"'<>()\n]{1,2000})")


def _equation_images(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Formulas shown as rendered images (`_EQUATION`) written out as "$...$", the address decoded."""
    edits = []
    for m in _EQUATION.finditer(text):
        query = next(g for g in m.groups() if g is not None)
        tex = unquote_plus(query) if "zhihu" in m.group() else unquote(query)
        edits.append((m.start(), m.end(), f" ${tex}$ ", m.start()))
    return _apply_edits(text, origin, edits)


def _web_markup(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Drop web markup (`_LINK_TARGET`, `_BARE_URL`, `_HTML`); a tag between words leaves a space. A formula shown as
    an image keeps its formula (`_EQUATION`)."""
    if "//" in text and _EQUATION.search(text):
        text, origin = _equation_images(text, origin)
    edits = []
    # a lone "<b>" typed in an answer is text; tags are dropped where the answer shows pasted markup (a closing
    # tag, a tag with attributes, a comment)
    html = _PASTED_HTML.search(text) is not None
    for pattern in (_LINK_TARGET, _BARE_URL, _HTML) if html else (_LINK_TARGET, _BARE_URL):
        for m in pattern.finditer(text):
            edits.append((m.start(), m.end(), " " if pattern is _HTML else "", m.start()))
    return _apply_edits(text, origin, edits)


def _apply_edits(text: str, origin: list[int], edits: list[tuple[int, int, str, int]]) -> tuple[str, list[int]]:
    """Replace text[a:b] by `word` for each edit (a, b, word, at), in order (an edit overlapping one before it is
    dropped; a == b inserts); every character of a word maps to where text[at] came from."""
    if not edits:
        return text, origin
    out: list[str] = []
    out_origin: list[int] = []
    pos = 0
    for a, b, word, at in sorted(edits):
        if a < pos:
            continue
        out.append(text[pos:a])
        out_origin.extend(origin[pos:a])
        out.append(word)
        out_origin.extend([origin[at]] * len(word))
        pos = b
    out.append(text[pos:])
    out_origin.extend(origin[pos:])
    return "".join(out), out_origin


def _spoken_math(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Rewrite maths said in words (`_SPOKEN`); each new character maps to where its words began."""
    for pattern, symbol in _SPOKEN:
        edits = [(m.start(), m.end(), symbol, m.start()) for m in pattern.finditer(text)]
        text, origin = _apply_edits(text, origin, edits)
    return text, origin


#: A Jacobian in index notation, rewritten in the matrix notation the cards use: the Kronecker delta ("delta_ij",
#: "δ_{kj}", the indicator "1_{i=j}", any two different index letters) is the identity; the same name carrying the
#: delta's two indices inside one term ("x_i x_j", "x̂_k x̂_j", "xhat_i (1/N) (1/σ) xhat_j") is the outer product xx^T;
#: a bare "1/N" term beside the delta (also "1/(N σ)", the 1/σ written into it) is the all-ones term 11^T/N; and in
#: the form with the 1/N taken out ("(1/(Nσ)) (N δ_ij − 1 − x̂_i x̂_j)") the bare 1 is 11^T. Only on lines that carry a
#: Kronecker delta.
_KRONECKER = re.compile(r"(?:delta|δ)_(?:\{\s*([a-z])\s*,?\s*([a-z])\s*\}|([a-z])([a-z])(?![a-z0-9]))"
                        r"|(?<![\w.])1_\{\s*([a-z])\s*=\s*([a-z])\s*\}")
_INDEXED = re.compile(r"(?<![\w^\\])([a-z])(\u0302|hat)?_(?:\{\s*([a-z])\s*\}|([a-z])(?![a-z0-9]))")
_INDEX_ONES = re.compile(r"(?<=[-−] )\(*\s*1\s*\)*\s*/\s*\(*\s*([ndhNDH])(?![a-z0-9_])"
                         r"(?:\s*\*?\s*(?:sqrt\([^()\n]{0,40}\)|sigma|σ|s)(?![a-z0-9_(]))?")
#: The bare 1 of "(N δ_ij − 1 − x̂_i x̂_j)", on a line where the dimension multiplies the delta.
_SCALED_ONES = re.compile(r"(?<=[-−] )1(?=\s*[-−)\]])")
_DIMENSION_TIMES_DELTA = re.compile(r"(?<![\w.])[ndhNDH]\s*\*?\s*(?:delta|δ)_|(?<![\w.])[ndhNDH]\s*\*?\s*1_\{")
#: How far the second half of an outer product may stand from the first: indexed names and characters between.
_OUTER_REACH = 6
_OUTER_REACH_CHARS = 120
#: Where a term ends: a sign or separator outside brackets.
_TERM_END = frozenset("+-−=,;")


def _ones_term_end(text: str, start: int, end: int, stop: int) -> int | None:
    """Where a `_INDEX_ONES` term ends once its own brackets are closed, or None when something multiplies it
    ("1/N x_i", "(1/N) Σ_j g_j": no ones term)."""
    depth = text.count("(", start, end) - text.count(")", start, end)
    while depth > 0 and end < stop and text[end] in " )":
        depth -= text[end] == ")"
        end += 1
    k = end
    while k < stop and text[k] in " *·":
        k += 1
    if k < stop and (text[k].isalpha() or text[k] in "(Σ∑"):
        return None
    return end


def _kronecker_indices(line: str) -> tuple[str, str] | None:
    """The two index letters of the line's first Kronecker delta, or None (also for "δ_ii": one letter)."""
    for m in _KRONECKER.finditer(line):
        a, b = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5) if m.group(k))
        if a != b:
            return a, b
    return None


def _outer_products(text: str, start: int, end: int, pair: tuple[str, str]) -> list[tuple[int, int, str, int]]:
    """Edits turning "u_a ... u_b" (one name with the delta's two indices, in either order, inside one term: no sign
    or comma outside brackets between them) into "uu^T ..." in text[start:end]."""
    edits: list[tuple[int, int, str, int]] = []
    found = list(_INDEXED.finditer(text, start, end))
    used: set[int] = set()
    for i, m in enumerate(found):
        index = m.group(3) or m.group(4)
        if i in used or index not in pair:
            continue
        other = pair[1] if index == pair[0] else pair[0]
        depth = 0
        k = m.end()
        for j in range(i + 1, min(len(found), i + 1 + _OUTER_REACH)):
            n = found[j]
            if n.start() - m.end() > _OUTER_REACH_CHARS:
                break
            between = text[k : n.start()]
            if "sum" in between or "Σ" in between or "∑" in between:
                break  # "x_i (1/N) Σ_j g_j x_j": x_j is bound by the sum, no half of an outer product
            stop = False
            for ch in between:
                depth += ch in "([{"
                depth -= ch in ")]}"
                if depth < 0 or (depth == 0 and ch in _TERM_END):
                    stop = True
                    break
            if stop:
                break
            k = n.end()
            if n.group(1, 2) == m.group(1, 2) and (n.group(3) or n.group(4)) == other and j not in used:
                used.update((i, j))
                if not text[m.end() : n.start()].strip(" *·"):  # "x_i x_j", "x_i·x_j": one product
                    edits.append((m.start(), n.end(), f"{m.group(1)}{m.group(1)}^T", m.start()))
                else:
                    edits.append((m.start(), m.end(), f"{m.group(1)}{m.group(1)}^T", m.start()))
                    cut = n.start()
                    while text[cut - 1] == " ":
                        cut -= 1
                    edits.append((cut, n.end(), "", n.start()))
                break
    return edits


def _index_notation(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Rewrite index-notation Jacobians (`_KRONECKER`, `_outer_products`, `_INDEX_ONES`, `_SCALED_ONES`) on the
    lines that have a Kronecker delta; each new character maps to where the rewritten symbol began."""
    edits: list[tuple[int, int, str, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        pair = _kronecker_indices(line.group())
        if pair is None:
            continue
        edits += [(m.start(), m.end(), "I", m.start()) for m in _KRONECKER.finditer(text, *line.span())]
        edits += _outer_products(text, *line.span(), pair)
        for m in _INDEX_ONES.finditer(text, *line.span()):
            end = _ones_term_end(text, m.start(), m.end(), line.end())
            if end is not None:
                edits.append((m.start(), end, f"11^T/{m.group(1)}", m.start()))
        if _DIMENSION_TIMES_DELTA.search(line.group()):
            edits += [(m.start(), m.end(), "11^T", m.start()) for m in _SCALED_ONES.finditer(text, *line.span())]
    return _apply_edits(text, origin, edits)


#: A mean over the index written as a sum: "(1/N) sum_j g_j" is mean(g) and "(1/N) sum_j g_j x_j" is mean(g * x), as
#: the backward formula is written per coordinate ("dL/dx_i = (1/σ)(g_i - (1/N) Σ_j g_j - x̂_i (1/N) Σ_j g_j x̂_j)").
#: Then, on that line, the names the means are of lose their free index ("g_i" -> "g"): the line reads as the vector
#: formula "(1/σ)(g - mean(g) - x * mean(g * x))". A sum of a product of three factors is left alone.
_MEAN_OPEN = re.compile(r"(?:\(\(1\)/\(([ndh])\)\)|\(1/([ndh])\)|(?<![\w)/])1/([ndh])(?![\w(])"
                        # the radial term's coefficient written over the 1/N ("\frac{\hat x_i}{d} \sum_j ...")
                        r"|\(\((?P<coef>[a-z])(?:hat|\u0302)?_\{?[ijklmnpq]\}?\)/\([ndh]\)\))\s*\*?\s*"
                        r"sum_(?:\{\s*([a-z])\s*(?:=\s*1\s*)?\}(?:\^\{?\s*[ndh]\s*\}?)?|([a-z])(?![a-z0-9_]))\s*",
                        re.IGNORECASE)
#: The upstream gradient as a derivative of the loss ("∂L/∂y_j", "\frac{\partial L}{\partial \hat x_j}"): the name g.
_LOSS_DERIVATIVE = re.compile(r"\(\(∂ ?l\)/\(∂ ?[a-z](?:hat|\u0302)?_(?:\{\s*([ijklmnpq])\s*\}|([ijklmnpq]))\)\)"
                              r"|(?<![\w)])∂ ?l ?/ ?∂ ?[a-z](?:hat|\u0302)?_(?:\{\s*([ijklmnpq])\s*\}|([ijklmnpq])(?![a-z0-9_]))",
                              re.IGNORECASE)
_MEAN_NAME = r"(d?[a-z])(?:hat|\u0302)?"
#: What may join the two factors of a product ("g_j x_j", "g_j * x_j", "g_j·x_j").
_FACTOR_JOIN = re.compile(r"\s*[*·]?\s*")
#: (an index is one of the letters indices are written with: "g_x", the gradient with respect to x, keeps its x)
_FREE_INDEXED = re.compile(rf"(?<![\w^\\]){_MEAN_NAME}_(?:\{{\s*([ijklmnpq])\s*\}}|([ijklmnpq])(?![a-z0-9_]))",
                           re.IGNORECASE)


@lru_cache(maxsize=32)
def _indexed_by(index: str) -> re.Pattern[str]:
    """A name carrying `index` as its subscript ("g_j", "dy_{j}", "xhat_j"), not raised to a power ("a_j^2": a mean
    of squares is no mean of a): group 1 is the name."""
    return re.compile(rf"{_MEAN_NAME}_(?:\{{\s*{index}\s*\}}|{index}(?![a-z0-9_]))(?!\s*\^)", re.IGNORECASE)


def _index_means(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Rewrite per-coordinate means (`_MEAN_OPEN` with one or two factors) as mean(...), the loss's derivatives in
    them (`_LOSS_DERIVATIVE`) first read as the upstream gradient g, and drop the free index of the names they are
    of on the same line; each new character maps to where the rewritten symbol began."""
    edits: list[tuple[int, int, str, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        if "sum_" in line.group().lower() and "∂" in line.group():
            edits += [(m.start(), m.end(), f"g_{next(g for g in m.groups() if g)}", m.start())
                      for m in _LOSS_DERIVATIVE.finditer(text, *line.span())]
    text, origin = _apply_edits(text, origin, edits)
    edits = []
    for line in re.finditer(r"[^\n]+", text):
        if "sum_" not in line.group().lower():
            continue
        names: set[str] = set()
        summed: set[str] = set()
        end = line.end()
        for m in _MEAN_OPEN.finditer(text, *line.span()):
            index = (m.group(5) or m.group(6)).lower()
            factor = _indexed_by(index)
            first = factor.match(text, m.end(), end)
            if first is None:
                continue
            args = [first.group(1).lower()]
            b = first.end()
            join = _FACTOR_JOIN.match(text, b, end)
            second = factor.match(text, join.end(), end) if join else None
            if second is not None:
                args.append(second.group(1).lower())
                b = second.end()
                join = _FACTOR_JOIN.match(text, b, end)
                if join and factor.match(text, join.end(), end):
                    continue  # three factors: not a mean of a product of two
            coefficient = f"{m.group('coef')} * " if m.group("coef") else ""
            edits.append((m.start(), b, f"{coefficient}mean({' * '.join(args)})", m.start()))
            names.update(args)
            if m.group("coef"):
                names.add(m.group("coef").lower())
            summed.add(index)
        if not names:
            continue
        for m in _FREE_INDEXED.finditer(text, *line.span()):
            if m.group(1).lower() in names and (m.group(2) or m.group(3)).lower() not in summed:
                edits.append((m.start(), m.end(), m.group(1), m.start()))
    return _apply_edits(text, origin, edits)


#: "GPT-2/3", "Llama-2/3", "llama2/3": two versions of one model in one name, spelled out as two names
#: ("GPT-2/GPT-3") so each is found. Not "sqrt 1/2" (a space) or "d^-1/2" (an exponent).
_VERSION_PAIR = re.compile(r"(?<![\w^])([A-Za-z]{2,}-?)(\d{1,2}(?:\.\d)?)/(\d{1,2}(?:\.\d)?)\b(?![\d(./])")
_SUBSCRIPT_DIGITS = frozenset("₀₁₂₃₄₅₆₇₈₉")
#: The L2 index of a norm ("||x||_2", "‖x‖_{2}"): which norm, not a power (the words would otherwise read "||x||_2"
#: as "||x|| 2", the squared norm). Other indices stay ("||J||_F" is the Frobenius norm a card may name).
_NORM_INDEX = re.compile(r"(?:(?<=\|\|)|(?<=‖))_(?:\{\s*2\s*\}|2)(?![\w{])")
#: Abbreviations spelled with dots inside a word.
_DOTTED_ABBREVIATION = re.compile(r"\b(?:w\.r\.t|a\.k\.a)\.?(?!\w)", re.IGNORECASE)
#: A decimal written without its leading zero (".98", "β2 .999"): the zero put back, so ".98" is the number 0.98.
_BARE_DECIMAL = re.compile(r"(?<![\w.)\]])\.(?=\d)")


#: "... Post-LN needs warm-up, whereas Pre-LN trained fine without it": the "it" of doing without something,
#: and the thing it most often stands for in these answers. Only warm-up: it is named right before, in the
#: same sentence or the one before (no paragraph break, at most _IT_REACH characters back), and nothing else
#: that "it" could be ("the final LN", "eps", ...) is named after it.
_WITHOUT_IT = re.compile(r"(?i)\b(?:without|w/o)\s+(it)\b(?!['’]s)|(?:不用|不加|去掉|没有|不做)(它)")
_WARMUP_NAME = re.compile(r"(?i)warm[- ]?ups?\b|预热")
_OTHER_ANTECEDENT = re.compile(r"(?i)(?<![-\w])(?:final (?:ln|layernorm|norm)|eps(?:ilon)?|bias|mean|clipping|residual|"
                               r"shortcut|norm|ln|layernorm|sgd|adam)\b|偏置|均值|残差|归一化")
_IT_REACH = 240


def _resolve_without_it(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """"without it" -> "without warm-up" where warm-up is the nearest thing named before it (see `_WITHOUT_IT`)."""
    edits: list[tuple[int, int, str, int]] = []
    for m in _WITHOUT_IT.finditer(text):
        grp = 1 if m.group(1) else 2
        start = max(0, m.start() - _IT_REACH)
        before = text[start : m.start()]
        if "\n\n" in before:
            before = before[before.rindex("\n\n") :]
        names = list(_WARMUP_NAME.finditer(before))
        if not names:
            continue
        after_name = before[names[-1].end() :]
        if _OTHER_ANTECEDENT.search(after_name) or len(re.findall(r"[.。!?！？]\s", after_name)) > 1:
            continue
        edits.append((m.start(grp), m.end(grp), "warm-up", m.start(grp)))
    return _apply_edits(text, origin, edits)


def _undot_abbreviations(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """"w.r.t." -> "wrt", "a.k.a." -> "aka": their dots end no sentence ("flat w.r.t. L" is one claim)."""
    return _apply_edits(text, origin, [(m.start(), m.end(), m.group().replace(".", ""), m.start())
                                       for m in _DOTTED_ABBREVIATION.finditer(text)])


#: A Jacobian's subscript naming its variable or the bare normalisation ("J_{norm}", "J_x"): "J_{norm} 1 = 0" says
#: "J 1 = 0". Index subscripts ("J_{ij}") and the names of norms ("J_{LN}" beside "J_{RMS}") stay.
_JACOBIAN_NAME = re.compile(r"(?<![\w\\])J_(?:\{\s*(?:norm|x)\s*\}|(?:norm|x)(?![\w{]))")


def _drop_jacobian_name(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Remove the subscript of each `_JACOBIAN_NAME`."""
    return _apply_edits(text, origin, [(m.start() + 1, m.end(), "", m.start() + 1) for m in _JACOBIAN_NAME.finditer(text)])


def _drop_norm_index(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Remove each `_NORM_INDEX`."""
    return _apply_edits(text, origin, [(m.start(), m.end(), "", m.start()) for m in _NORM_INDEX.finditer(text)])


#: A function's parameters after a semicolon in its call ("G_l(x_l; theta_l)", "F(x;W)"): the call is G_l(x_l).
_CALL_PARAMS = re.compile(r"(?<=[\w}])\s*;\s*(?:\\?theta|θ|\\?phi|φ|\\?Theta|Θ|w|W|params?|parameters)"
                          r"(?:_\{?\w{1,4}\}?)?\s*(?=\))")


def _drop_call_params(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Remove each `_CALL_PARAMS`."""
    return _apply_edits(text, origin, [(m.start(), m.end(), "", m.start()) for m in _CALL_PARAMS.finditer(text)])


#: A thousands separator ("10,000 warm-up steps", "500,000 vs 700,000 updates"): the number is read without its commas,
#: as it is written without them ("10000 steps"). Groups of exactly three digits after one to three, and no decimal or
#: further digit around ("(0.9,0.98)" and "layers 1,2,3" are lists).
_DIGIT_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d]|[.,]\d)")


def _digit_groups(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Drop the commas of each `_DIGIT_GROUPS` number."""
    edits = [(m.start() + k, m.start() + k + 1, "", m.start() + k) for m in _DIGIT_GROUPS.finditer(text)
             for k, ch in enumerate(m.group()) if ch == ","]
    return _apply_edits(text, origin, edits)


def _bare_decimals(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Put a "0" before each `_BARE_DECIMAL`, mapped to its dot."""
    return _apply_edits(text, origin, [(m.start(), m.start(), "0", m.start()) for m in _BARE_DECIMAL.finditer(text)])


def _version_pairs(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Spell out `_VERSION_PAIR`s; the repeated name maps to the slash."""
    return _apply_edits(text, origin, [(m.start(3), m.start(3), m.group(1), m.start(3) - 1)
                                       for m in _VERSION_PAIR.finditer(text)])


#: A hatted variable spelled in ASCII ("yhat", "x_hat", "y-hat"): the same variable as "\hat{y}", which reads "y".
#: Only letters that name vectors here, so "that", "what" and "chat" stay words.
_HAT_WORD = re.compile(r"\b([xyzahuvXYZAHUV])[_-]?hat(?=[tT]?(?![A-Za-z0-9_]))")  # "xhatᵀ" reads "xhatt"
_MATH_NEAR = frozenset("^*/()=+-‖|ᵀ·⊙[]")


#: "sub-layer", "sub layer" and "sublayer" are one word (cards and answers spell it all three ways).
_SUB_COMPOUND = re.compile(r"\b([sS][uU][bB])[- ]((?:[lL]ayer|[bB]lock|[mM]odule)[sS]?)\b")


def _sub_compounds(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """"each sub-layer" -> "each sublayer": a phrase's word inside a longer phrase ("before each sublayer") only
    meets a text word spelled the same way."""
    edits = [(m.start(), m.end(), m.group(1) + m.group(2), m.start()) for m in _SUB_COMPOUND.finditer(text)]
    return _apply_edits(text, origin, edits)


def _hat_words(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """"yhat yhat^T" -> "y y^T", inside formulas only: a hatted name with an operator or bracket within two
    characters of it (a card's phrase "xhat" on its own stays the word "xhat")."""
    edits = []
    for m in _HAT_WORD.finditer(text):
        near = text[max(0, m.start() - 2) : m.start()] + text[m.end() : m.end() + 2]
        if any(c in _MATH_NEAR for c in near) or _HAT_WORD.match(text, m.end() + 1):
            edits.append((m.start(), m.end(), m.group(1), m.start()))
    return _apply_edits(text, origin, edits)


def _lower(text: str) -> str:
    """Lower case, one character for one character (so offsets stay aligned)."""
    out = text.lower()
    if len(out) == len(text):
        return out
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


#: Delimiter lines up to this long are kept when repeated (see _unique_lines).
_SHORT_LINE = 16


def _delimiter_line(key: str) -> bool:
    """A short line that opens or closes what follows ("$$", "```python", "\\end{aligned}", "---"), not text."""
    return len(key) <= _SHORT_LINE and (key[0] in "\\`~" or not any(ch.isalnum() for ch in key))


def _display_line_groups(text: str, lines: list[str]) -> list[int]:
    """For each line, the index of the multi-line display formula (`_display_spans`) it belongs to, or -1."""
    groups = [-1] * len(lines)
    spans = sorted(_display_spans(text))
    if not spans:
        return groups
    k, pos = 0, 0
    for n, line in enumerate(lines):
        end = pos + len(line)
        while k < len(spans) and spans[k][1] <= pos:
            k += 1
        if k < len(spans) and spans[k][0] < end:
            groups[n] = k
        pos = end
    return groups


def _unique_lines(text: str) -> tuple[list[tuple[int, str]], int]:
    """Split into lines keeping each non-blank line's first occurrence (and its original offset).

    A short delimiter line is kept however often it comes: "$$", "```", "\\end{aligned}" or "---" open and close
    what is between them, and a second formula display or code block needs its own. A display formula written over
    several lines is one unit: it is dropped only when the whole of it came before, since its lines ("=\\frac1r",
    "\\left(") are pieces of one formula and the same pieces often recur in the next one (a derivation's steps)."""
    seen: set[str] = set()
    kept: list[tuple[int, str]] = []
    dropped = 0
    pos = 0
    lines = text.splitlines(keepends=True)
    group = _display_line_groups(text, lines) if "$$" in text or "\\" in text else [-1] * len(lines)
    i = 0
    while i < len(lines):
        if group[i] >= 0:
            j = i
            while j < len(lines) and group[j] == group[i]:
                j += 1
            block = lines[i:j]
            key = " ".join("".join(block).split())
            if key in seen:
                dropped += sum(1 for line in block if line.strip())
            else:
                seen.add(key)
                offset = pos
                for line in block:
                    kept.append((offset, line))
                    offset += len(line)
            pos += sum(len(line) for line in block)
            i = j
            continue
        line = lines[i]
        key = " ".join(line.split())
        if key and key in seen and not _delimiter_line(key):
            dropped += 1
        else:
            if key:
                seen.add(key)
            kept.append((pos, line))
        pos += len(line)
        i += 1
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
        if _PLAIN_LINE.match(line):  # printable ASCII: every character stays as it is
            take = min(len(line), MAX_SCORED_CHARS - total)
            out.append(line[:take])
            origin.extend(range(start, start + take))
            total += take
            if take < len(line):
                truncated = True
                break
            continue
        for i, ch in enumerate(line):
            if total >= MAX_SCORED_CHARS:
                truncated = True
                break
            if " " <= ch < "\x7f":
                out.append(ch)
                origin.append(start + i)
                total += 1
                continue
            if not _char_ok(ch):
                continue
            if ch in _SUBSCRIPT_DIGITS and out and out[-1] in ("|", "‖"):
                continue  # "‖x‖₂": the norm's index (L2), not a power; "‖x‖²" stays a square
            folded = " " if ch == "\t" else _fold(ch)
            out.append(folded)
            origin.extend([start + i] * len(folded))
            total += len(folded)
        if truncated:
            break
    text = "".join(out)
    if _CJK_CHAR.search(text):
        text = simplified(text)  # one character for one character: the offsets stay as they are
        if "比" in text:
            text, origin = _apply_edits(text, origin, [(m.end(), m.end(), "更", m.end())
                                                       for m in _BARE_COMPARATIVE.finditer(text)])
        if "规范化" in text or "层归一化" in text or "子模块" in text:
            text, origin = _apply_edits(text, origin, [(m.start(), m.end(), _ZH_TERMS[m.lastgroup or ""], m.start())
                                                       for m in _ZH_TERM.finditer(text)])
    if "://" in text or "www." in text or "<" in text or "](" in text:
        text, origin = _web_markup(text, origin)
    if "\\" in text or "$" in text:
        text, origin = delatex(text, origin)
    if "!=" in text or "=/=" in text:
        # "GLM alpha != DeepNet's (2N)^(1/4)": not equal, as ≠ (then spelled "is not" with it)
        text, origin = _apply_edits(text, origin, [(m.start(), m.end(), "≠", m.start()) for m in _NOT_EQUAL.finditer(text)])
    if any(ch in _SPELLED for ch in text):
        text, origin = _spell(text, origin)
    if _HESITATION_WORD.search(text):
        text, origin = _said_again(text, origin)
    if "," in text and _FILLER.search(text):
        text, origin = _fillers(text, origin)
    if "," in text and _SPOKEN_QUESTION.search(text):
        text = _spoken_questions(text)
    if _SPOKEN_NUMBER_HINT.search(text):
        text, origin = _spoken_numbers(text, origin)
    if _SPOKEN_HINT.search(text):
        text, origin = _spoken_math(text, origin)
    if "_" in text and ("|_" in text or "‖_" in text):
        text, origin = _drop_norm_index(text, origin)
    if "J_" in text:
        text, origin = _drop_jacobian_name(text, origin)
    if "/" in text:
        text, origin = _version_pairs(text, origin)
    if ("sub" in text or "Sub" in text or "SUB" in text) and _SUB_COMPOUND.search(text):
        text, origin = _sub_compounds(text, origin)
    if "hat" in text and _HAT_WORD.search(text):
        text, origin = _hat_words(text, origin)
    if "." in text and _DOTTED_ABBREVIATION.search(text):
        text, origin = _undot_abbreviations(text, origin)
    if ("it" in text or "它" in text) and _WITHOUT_IT.search(text):
        text, origin = _resolve_without_it(text, origin)
    if "." in text and _BARE_DECIMAL.search(text):
        text, origin = _bare_decimals(text, origin)
    if "," in text and _DIGIT_GROUPS.search(text):
        text, origin = _digit_groups(text, origin)
    if "_" in text and ("delta" in text or "δ" in text or "1_{" in text):
        text, origin = _index_notation(text, origin)
    if "sum_" in text or "Sum_" in text:
        text, origin = _index_means(text, origin)
    if ";" in text and _CALL_PARAMS.search(text):
        text, origin = _drop_call_params(text, origin)
    if "*" in text:
        text = _EMPHASIS.sub(_unemphasise, text)
    if ":" in text and _CITATION_COLON.search(text):
        text = _CITATION_COLON.sub(lambda m: m.group()[:-1] + " ", text)  # same length: the offsets stay
    if "," in text and ("_{" in text or "^{" in text):
        # "W^{2,L}": a comma inside a sub- or superscript separates indices, not clauses
        text = _INDEX_COMMA.sub(lambda m: m.group().replace(",", " "), text)
    if "   " in text or "\t" in text:
        text, origin = _aligned_mark_tables_to_pipes(text, origin, original)
    if text.count("|") >= 4:
        text, origin = _tables_to_sentences(text, origin)
    if "   " in text or "\t" in text:
        text, origin = _aligned_rows_to_labels(text, origin, original)
    if "...." in text:
        text, origin = _dot_leaders_to_labels(text, origin)
    if len(text) > MAX_SCORED_CHARS * 2:
        text, origin, truncated = text[: MAX_SCORED_CHARS * 2], origin[: MAX_SCORED_CHARS * 2], True
    return Prepared(original, _lower(text), tuple(origin), truncated, dropped, text)


#: Chinese words read as the deck's own, so every phrase written one way covers the others (phrases are prepared the
#: same way): 层归一化 / 层规范化 (LayerNorm's Chinese names, "再做层归一化") as "layernorm", but not inside 均方根层归一化
#: (RMSNorm's name); 规范化 as 归一化 ("规范化层"); 子模块 (sub-module, "移到子模块的输入端") as 子层.
_ZH_TERM = re.compile(r"(?P<ln>(?<!均方根)层(?:归一化|规范化))|(?P<norm>规范化)|(?P<sub>子模块)")
_ZH_TERMS = {"ln": "layernorm", "norm": "归一化", "sub": "子层"}


_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
#: A Chinese comparison with a bare adjective ("比 Pre-LN 好", "比 Post-LN 低"): the comparative is implied, written
#: out ("比 Pre-LN 更好") so it reads as the comparative words do. Only after a Latin name: "比较好" is "fairly good";
#: not before 大约 / 大概 / 大致 ("about").
_BARE_COMPARATIVE = re.compile(r"比\s*[A-Za-z][\w\-]{0,20}\s*(?=[好高强差低稳快慢大小](?![a-zA-Z约概致于]))")
#: Written Cantonese grammar words read as their Mandarin equivalents, one character for one ("唔係" -> "不是",
#: "冇" -> "没", "嘅" -> "的", "喺" -> "在"), so negations, copulas and particles work as in Mandarin.
_CANTONESE_CHARS = str.maketrans({"唔": "不", "冇": "没", "嘅": "的", "咗": "了", "喺": "在", "佢": "它", "嗰": "那",
                                  "啲": "些", "睇": "看", "嚟": "来", "畀": "给", "攞": "拿", "諗": "想", "嘢": "物",
                                  "咁": "这"})
_CANTONESE_WORDS = re.compile(r"點解|點樣|仲有|仲係|(?<![關联聯體体維维派世])係")
_CANTONESE_WORD_MAP = {"點解": "为何", "點樣": "怎样", "仲有": "还有", "仲係": "还是", "係": "是"}
_CANTONESE_MARK = re.compile(r"[唔冇嘅咗喺佢嗰啲係咁嘢]")


@lru_cache(maxsize=1)
def _to_simplified() -> Callable[[str], str]:
    """OpenCC's Traditional-to-Simplified converter (loaded on first use)."""
    import opencc

    return opencc.OpenCC("t2s").convert


def simplified(text: str) -> str:
    """Traditional Chinese (and written Cantonese) as Simplified Mandarin, character for character, so "層", "歸一化"
    and "冇經過" meet the cards' "层", "归一化" and "没经过". Where the converter would change a line's length (a
    phrase converted as a whole), that line is converted one character at a time instead."""
    if _CANTONESE_MARK.search(text):
        text = _CANTONESE_WORDS.sub(lambda m: _CANTONESE_WORD_MAP[m.group()], text).translate(_CANTONESE_CHARS)
    convert = _to_simplified()
    out = convert(text)
    if len(out) == len(text):
        return out
    lines = []
    for line in text.split("\n"):
        done = convert(line)
        if len(done) != len(line):
            done = "".join(c if len(c := convert(ch)) == 1 else ch for ch in line)
        lines.append(done)
    return "\n".join(lines)


#: One word in Markdown emphasis inside a line ("does *not* grow", "**never**"); in Chinese it sits between characters
#: with no space ("在与残差连接相加**之后**", "移到子层的**输入端**"), so only a Latin letter or a digit next to it (x**2,
#: 2**10: a power) keeps the asterisks.
_EMPHASIS = re.compile(r"(?<![A-Za-z0-9_*])(\*{1,2})([A-Za-z\u4e00-\u9fff'-]{1,24})\1(?![A-Za-z0-9_*])")


def _unemphasise(m: re.Match[str]) -> str:
    """The emphasised word with its asterisks blanked (same length, so offsets hold), unless the word is the
    whole line ("**Backprop**" is a heading, and its asterisks say so)."""
    text, a, b = m.string, m.start(), m.end()
    line_start = text.rfind("\n", 0, a) + 1
    line_end = text.find("\n", b)
    line_end = len(text) if line_end < 0 else line_end
    if not text[line_start:a].strip() and not text[b:line_end].strip(" :：-—"):
        return m.group()
    pad = " " * len(m.group(1))
    return pad + m.group(2) + pad


# ---------------------------------------------------------------------------------------------------
# LaTeX

_WRAPPERS = {"mathrm", "text", "operatorname", "mathcal", "mathbf", "mathit", "textrm", "rm", "mathsf",
             "boldsymbol", "textbf", "textit", "mathtt", "bm", "hat", "bar", "tilde", "vec", "widehat",
             "widetilde", "overline", "mathbb", "emph", "mbox", "textsf", "texttt", "dot", "check", "underline",
             "mathop", "mathnormal", "mathscr", "mathfrak", "pmb", "textnormal", "ensuremath"}
_SYMBOLS = {
    "cdot": "*", "times": "*", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "lambda": "λ", "mu": "μ", "sigma": "σ", "omega": "ω", "theta": "θ", "eta": "η",
    "rho": "ρ", "tau": "τ", "phi": "φ", "psi": "ψ", "pi": "π", "nabla": "∇", "partial": "∂", "infty": "∞",
    "top": "T", "intercal": "T", "approx": "≈", "simeq": "≈", "sim": "~", "propto": "∝", "le": "<=",
    "leq": "<=", "ge": ">=", "geq": ">=", "ll": "<<", "gg": ">>", "neq": "≠", "ne": "≠", "to": "→",
    "rightarrow": "→", "longrightarrow": "→", "Rightarrow": "⇒", "Longrightarrow": "⇒", "iff": "⇔",
    "Leftrightarrow": "⇔", "lt": "<", "gt": ">", "implies": "⇒", "mapsto": "→", "in": "∈", "odot": "⊙",
    "otimes": "⊗", "|": "‖", "lvert": "|", "rvert": "|", "vert": "|", "lVert": "‖", "rVert": "‖", "Vert": "‖",
    "ln": "ln", "log": "log", "exp": "exp", "min": "min", "max": "max", "sum": "sum", "mathbb": "",
    "quad": " ", "qquad": " ", ",": " ", ";": " ", "!": "", ":": " ", " ": " ", "left": "", "right": "",
    "big": "", "Big": "", "bigg": "", "Bigg": "", "bigl": "", "bigr": "", "Bigl": "", "Bigr": "", "biggl": "",
    "biggr": "", "Biggl": "", "Biggr": "", "bigm": "", "Bigm": "", "middle": "", "hline": " ", "toprule": " ",
    "midrule": " ", "bottomrule": " ",
    "displaystyle": "", "textstyle": "", "cdots": "...", "ldots": "...", "dots": "...", "{": "(", "}": ")",
    "langle": "<", "rangle": ">", "prime": "'", "circ": "o", "ast": "*", "star": "*", "div": "/",
    "Theta": "Θ", "Omega": "Ω", "Delta": "Δ", "Sigma": "Σ", "Gamma": "Γ", "Lambda": "Λ", "Phi": "Φ",
}
_COMMAND = re.compile(r"\\([A-Za-z]+|[|,;! {}:])")


class _Latex:
    """A small LaTeX-to-plain rewriter over (character, origin) pairs; braces are matched, not guessed."""

    def __init__(self, text: str, origin: list[int]) -> None:
        self.text = text
        self.origin = origin
        self.out: list[str] = []
        self.out_origin: list[int] = []
        self.budget = 4 * len(text) + 100  # never more work than a few passes over the text

    def emit(self, s: str, at: int) -> None:
        if not s:
            return
        if s[0].isalpha() and self.out and self.out[-1][-1:].isalnum():
            s = " " + s  # "d\sqrt{L}" -> "d sqrt(L)", not "dsqrt(L)"
        self.out.append(s)
        self.out_origin.extend([self.origin[min(at, len(self.origin) - 1)]] * len(s))

    def copy(self, a: int, b: int) -> None:
        self.out.append(self.text[a:b])
        self.out_origin.extend(self.origin[a:b])

    def group(self, i: int) -> tuple[int, int, int] | None:
        """The braced group (or single token) starting at i: (inner start, inner end, next index)."""
        n = len(self.text)
        while i < n and self.text[i] == " ":
            i += 1
        if i >= n:
            return None
        if self.text[i] == "{":
            depth = 0
            for j in range(i, min(n, i + 400)):
                c = self.text[j]
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        return (i + 1, j, j + 1)
            return None
        if self.text[i] == "\\":
            m = _COMMAND.match(self.text, i)
            if m:
                return (i, m.end(), m.end())
        return (i, i + 1, i + 1)

    def run(self, a: int, b: int) -> None:
        i = a
        text = self.text
        while i < b:
            self.budget -= 1
            if self.budget < 0:
                self.copy(i, b)
                return
            c = text[i]
            if c == "$":
                self.emit(" ", i)
                i += 1
                continue
            if c != "\\":
                j = i
                while j < b and text[j] not in "\\$":
                    j += 1
                self.copy(i, j)
                i = j
                continue
            m = _COMMAND.match(text, i)
            if m is None:
                if i + 1 < b and text[i + 1] in "()[]":
                    self.emit(" ", i)  # \( \) \[ \]: math delimiters
                    i += 2
                else:
                    self.copy(i, i + 1)
                    i += 1
                continue
            name = m.group(1)
            j = m.end()
            if name in ("frac", "dfrac", "tfrac", "cfrac"):
                num = self.group(j)
                den = self.group(num[2]) if num else None
                if num and den:
                    self.emit("((", i)
                    self.run(num[0], num[1])
                    self.emit(")/(", num[1])
                    self.run(den[0], den[1])
                    self.emit("))", den[1])
                    i = den[2]
                    continue
            if name == "sqrt":
                k = j
                index = None
                if k < b and text[k] == "[":
                    close = text.find("]", k, min(b, k + 20))
                    if close > 0:
                        index = (k + 1, close)
                        k = close + 1
                arg = self.group(k)
                if arg:
                    if index:
                        self.emit("((", i)
                        self.run(arg[0], arg[1])
                        self.emit(")^(1/", arg[1])
                        self.copy(*index)
                        self.emit("))", arg[1])
                    else:
                        self.emit("sqrt(", i)
                        self.run(arg[0], arg[1])
                        self.emit(")", arg[1])
                    i = arg[2]
                    continue
            if name in ("begin", "end"):
                env = self.group(j)  # "\begin{align}": the environment's name is no word of the answer
                if env and text[env[0] - 1 : env[0]] == "{":
                    self.emit(" ", i)
                    i = env[2]
                    continue
            if name in _WRAPPERS:
                arg = self.group(j)
                if arg:
                    self.run(arg[0], arg[1])
                    i = arg[2]
                    continue
            if name in _SYMBOLS:
                rep = _SYMBOLS[name]
                # a word-like replacement must not glue onto the next letter ("\cdot x" -> "* x")
                self.emit(rep + (" " if rep[-1:].isalpha() and j < b and text[j].isalpha() else ""), i)
                i = j
                continue
            self.emit(name, i)  # an unknown command keeps its name as a word
            i = j


#: A LaTeX table: "\begin{array}{c|cc} a & b \\ c & d \end{array}" (also tabular); the column spec is optional.
_LATEX_TABLE = re.compile(r"\\begin\{(array|tabular\*?|tabularx)\}((?:\s{0,3}\{[^{}\n]{0,40}\})*)(.{0,20000}?)\\end\{\1\}", re.S)
_LATEX_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^{}]{0,20}\})")


def _latex_tables(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Rewrite LaTeX arrays and tabulars as Markdown tables ("| a | b |" rows under a header and a rule), so
    the table reader turns their cells into sentences; rows are split at "\\\\", cells at "&"."""
    out: list[str] = []
    out_origin: list[int] = []
    last = 0
    for m in _LATEX_TABLE.finditer(text):
        rows: list[list[tuple[int, int]]] = []
        body_start = m.start(3)
        body = _LATEX_RULES.sub(lambda r: " " * len(r.group()), m.group(3))
        pos = 0
        for raw in body.split("\\\\"):
            cells: list[tuple[int, int]] = []
            cpos = 0
            for cell in raw.split("&"):
                a = body_start + pos + cpos + (len(cell) - len(cell.lstrip()))
                b = body_start + pos + cpos + len(cell.rstrip())
                cells.append((a, max(a, b)))
                cpos += len(cell) + 1
            pos += len(raw) + 2
            if any(b > a for a, b in cells):
                rows.append(cells)
        if len(rows) < 2:
            continue
        out.append(text[last : m.start()])
        out_origin.extend(origin[last : m.start()])
        at = origin[m.start()]
        for k, cells in enumerate(rows):
            out.append("\n|")
            out_origin.extend([at, at])
            for a, b in cells:
                piece = " " + text[a:b].replace("\n", " ") + " |"
                out.append(piece)
                out_origin.extend([origin[a]] + origin[a:b] + [origin[max(a, b - 1)]] * 2)
            if k == 0:
                rule = "\n|" + "---|" * len(cells)
                out.append(rule)
                out_origin.extend([at] * len(rule))
        out.append("\n")
        out_origin.append(at)
        last = m.end()
    if not out:
        return text, origin
    out.append(text[last:])
    out_origin.extend(origin[last:])
    return "".join(out), out_origin


#: Display maths longer than this is not joined onto one line (a stray "$$" pairing with one far away).
_DISPLAY_JOIN_CHARS = 1500
_DISPLAY_DELIMITERS = (("$$", "$$"), ("\\[", "\\]"), ("\\begin{equation", "\\end{equation"),
                       ("\\begin{align", "\\end{align"), ("\\begin{gather", "\\end{gather"))


def _join_display_maths(text: str) -> str:
    """A displayed formula written over several lines ("$$\n\\left\\|\n\\frac{...}\n\\right\\|_F\n\\leq\nO(d)\n$$")
    is one statement: its line breaks become spaces (same length, so the offset map holds)."""
    if "\n" not in text:
        return text
    chars: list[str] | None = None
    for i, j in _display_spans(text):
        if chars is None:
            chars = list(text)
        for k in range(i, j):
            if chars[k] == "\n":
                chars[k] = " "
    return text if chars is None else "".join(chars)


def _display_spans(text: str) -> Iterator[tuple[int, int]]:
    """The character spans [opening, end of closing) of displayed formulas written over several lines, at most
    `_DISPLAY_JOIN_CHARS` long. One pass per delimiter, each search starting where the last ended: linear in the
    text."""
    for opening, closing in _DISPLAY_DELIMITERS:
        i = text.find(opening)
        while i >= 0:
            j = text.find(closing, i + len(opening))
            if j < 0:
                break
            if j - i <= _DISPLAY_JOIN_CHARS and "\n" in text[i:j]:
                yield i, j + len(closing)
            i = text.find(opening, j + len(closing))


def delatex(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Write LaTeX as plain notation (see the module docstring), keeping the offset map."""
    text = _join_display_maths(text)
    if "\\begin{" in text:
        text, origin = _latex_tables(text, origin)
    rw = _Latex(text, origin)
    rw.run(0, len(text))
    return "".join(rw.out), rw.out_origin


# ---------------------------------------------------------------------------------------------------
# Tables

_YES_CELLS = {"yes", "y", "是", "有", "✓", "✔", "✅", "☑", "√", "需要", "要", "true", "required", "needed"}
_POOR_CELLS = {"poor", "bad", "weak", "worse", "差", "较差", "弱", "不好", "很差"}
_NO_CELLS = {"no", "n", "否", "无", "没有", "✗", "✘", "❌", "❎", "×", "x", "不", "不需要", "false", "-", "none",
             "not needed", "not required", "unnecessary", "不用"}


_MARK_NO = {"✗", "✘", "❌", "❎", "×", "no", "否", "无"}
#: One-word entries that grade rather than name ("optional ✓" under "needs warm-up" is no plain yes).
_HEDGED_CELLS = {"optional", "partly", "partial", "partially", "sometimes", "mostly", "maybe", "usually", "often",
                 "rarely", "可选", "部分", "有时", "一般", "通常", "不一定"}
_MARK_YES = {"✓", "✔", "✅", "☑", "√", "yes", "是", "有"}
#: A cell's grading mark followed only by a bracketed aside ("required ❌ (8.45 BLEU without it)").
_MARK_THEN_ASIDE = re.compile(r" ([✗✘❌❎×✓✔✅☑√]) ?([(（][^()（）]*[)）])$")


#: Column headers that name a symbol whose values the column lists: the lower-case Greek letters as `_spell` writes them
#: out before tables are read ("alpha", "eps", "omega").
_SYMBOL_HEADERS = frozenset(v for k, v in _SPELLED.items() if k.isalpha() and k.islower())


def _label_span(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """A header or row label, capped in length, without a trailing question mark."""
    a, b = span[0], min(span[1], span[0] + MAX_TABLE_LABEL)
    while b > a and text[b - 1] in "?？ ":
        b -= 1
    return a, b


def _cells(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """Cell spans of one table row text[a:b] (outer pipes dropped, cells stripped). In a row spaced like
    "| a | b |", a double bar glued to a word ("||∂L/∂W||_F", "E||x_l||²") is a norm inside a cell, not an empty cell."""
    spaced = " | " in text[a:b]
    norm_bars = {k + d for k in range(a, b - 1) if text[k] == "|" == text[k + 1] and spaced
                 and not (text[k - 1 : k].isspace() and text[k + 2 : k + 3].isspace()) for d in (0, 1)}
    bounds = [a - 1] + [k for k in range(a, b) if text[k] == "|" and k not in norm_bars] + [b]
    cells = []
    for x, y in zip(bounds, bounds[1:], strict=False):
        x += 1
        while x < y and text[x].isspace():
            x += 1
        while y > x and text[y - 1].isspace():
            y -= 1
        cells.append((x, y))
    row = text[a:b]
    if row.lstrip().startswith("|") and len(row) - len(row.lstrip()) < 4:
        cells = cells[1:]  # (a header indented to its columns, "        | Post-LN | Pre-LN", keeps its empty label cell)
    if text[a:b].rstrip().endswith("|"):
        cells = cells[:-1]
    return cells


_GAP = re.compile(r"(?:\t|  )\s*")


def _row_cells(line: str) -> list[tuple[int, int]]:
    """Cells of a line laid out in columns by runs of two or more spaces (or tabs)."""
    cells: list[tuple[int, int]] = []
    pos = len(line) - len(line.lstrip())
    for m in _GAP.finditer(line, pos):
        if m.start() > pos:
            cells.append((pos, m.start()))
        pos = m.end()
    if pos < len(line.rstrip()):
        cells.append((pos, len(line.rstrip())))
    return cells


#: Four or more dots with a space on one side, or eight or more: a leader. A Chinese ellipsis "……" (six dots once
#: normalised, written tight between words: "锦上添花……呃") is a pause, not a leader.
_DOT_LEADER = re.compile(r"(?<=\S)(?:[ \t]+\.{4,}[ \t]*|\.{4,}[ \t]+|\.{8,})(?=[^\s.])")


def _dot_leaders_to_labels(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """"no warm-up ........ 8.45 BLEU": a dot leader joins a label to its value, like a colon."""
    out: list[str] = []
    out_origin: list[int] = []
    pos = 0
    for m in _DOT_LEADER.finditer(text):
        out.append(text[pos : m.start()])
        out_origin.extend(origin[pos : m.start()])
        out.append(TABLE_COLON + " ")
        out_origin.extend([origin[m.start()]] * 2)
        pos = m.end()
    out.append(text[pos:])
    out_origin.extend(origin[pos:])
    return "".join(out), out_origin


#: A pipe between cells: spaced on both sides (not a norm's bars, "||x||", nor an absolute value, "|a|").
_CELL_PIPE = re.compile(r"(?<=\s)\|(?=\s)")


def _typed_gaps_only(cells: list[tuple[int, int]], line_start: int, origin: list[int],
                     original: str) -> list[tuple[int, int]]:
    """Merge the cells whose gap was not typed as spaces: the spaces set around inline maths when its "$...$" was
    read ("而 $\\partial f$ 正好" becomes "而  ∂ f  正好") do not lay a line out in columns."""
    out: list[tuple[int, int]] = []
    for cell in cells:
        if out and not all(original[origin[line_start + j]].isspace() for j in range(out[-1][1], cell[0])):
            out[-1] = (out[-1][0], cell[1])
        else:
            out.append(cell)
    return out


def _line_starts(lines: list[str]) -> list[int]:
    """Where each of the text's lines (split at "\n") starts in it."""
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return starts


def _spaced_cells(lines: list[str], starts: list[int], origin: list[int], original: str) -> list[list[tuple[int, int]]]:
    """Each line's cells laid out by typed runs of spaces (`_row_cells`, `_typed_gaps_only`); none for a line with pipes."""
    return [_typed_gaps_only(_row_cells(line), starts[k], origin, original) if "|" not in line else []
            for k, line in enumerate(lines)]


def _outside_fences(lines: list[str]) -> list[bool]:
    """For each line, whether it stands outside a ``` code fence (a fence line itself is inside)."""
    out: list[bool] = []
    fenced = False
    for line in lines:
        if line.strip().startswith("```"):
            fenced = not fenced
            out.append(False)
        else:
            out.append(not fenced)
    return out


def _aligned_rows_to_labels(text: str, origin: list[int], original: str) -> tuple[str, list[int]]:
    """Rewrite a table laid out with spaces ("BERT      LayerNorm   post" over "LLaMA     RMSNorm     pre") as
    labelled lines ("BERT∶ LayerNorm, post"): two or more consecutive lines of three or more cells each, no pipes,
    outside code fences; or the same rows separated by pipes without a Markdown rule. The row's first cell is its
    label, as a Markdown table's row label is."""
    lines = text.split("\n")
    starts = _line_starts(lines)
    cells = _spaced_cells(lines, starts, origin, original)
    # Rows written with pipes but no |---| rule ("BERT | LN | post"): a Markdown table needs its rule, so these
    # are the same kind of aligned rows; a block of pipe lines with a rule in it is left to the Markdown reader.
    k = 0
    while k < len(lines):
        if len(_CELL_PIPE.findall(lines[k])) < 2:
            k += 1
            continue
        end = k
        while end < len(lines) and len(_CELL_PIPE.findall(lines[end])) >= 2:
            end += 1
        if not any(set(lines[j].strip()) <= set("|-: ") for j in range(k, end)):
            for j in range(k, end):
                cells[j] = [(a, b) for a, b in _cells(lines[j], 0, len(lines[j])) if a < b]
        k = end
    outside = _outside_fences(lines)
    row = [outside[k] and len(cells[k]) >= 3 and len(line) - len(line.lstrip()) < 8 for k, line in enumerate(lines)]
    keep = [row[k] and ((k > 0 and row[k - 1]) or (k + 1 < len(lines) and row[k + 1])) for k in range(len(lines))]
    if not any(keep):
        return text, origin
    out: list[str] = []
    out_origin: list[int] = []
    pos = 0
    for k, line in enumerate(lines):
        if keep[k]:
            first = cells[k][0]
            out.append(line[: first[1]])
            out_origin.extend(origin[pos : pos + first[1]])
            out.append(TABLE_COLON + " ")
            out_origin.extend([origin[pos + first[1] - 1]] * 2)
            for n, (a, b) in enumerate(cells[k][1:]):
                if n:
                    out.append(", ")
                    out_origin.extend([origin[pos + a]] * 2)
                out.append(line[a:b])
                out_origin.extend(origin[pos + a : pos + b])
        else:
            out.append(line)
            out_origin.extend(origin[pos : pos + len(line)])
        if k + 1 < len(lines):
            out.append("\n")
            out_origin.append(origin[pos + len(line)])
        pos += len(line) + 1
    return "".join(out), out_origin


#: Cells that can only be a yes or a no (not "x", "-", "y" or "n", which a column of formulas or values may hold).
_MARK_CELLS = _MARK_YES | _MARK_NO
#: How far left of its header a cell may start and still sit under it (spaces).
_COLUMN_SLACK = 2


def _under_header(header: list[tuple[int, int]], cells: list[tuple[int, int]]) -> list[int] | None:
    """The header column each cell of a row sits under (by where it starts), or None when two cells share one or
    a cell starts left of every column."""
    cols: list[int] = []
    for a, _ in cells:
        j = max((n for n, (h, _) in enumerate(header) if h <= a + _COLUMN_SLACK), default=-1)
        if j < 0 or (cols and j <= cols[-1]):
            return None
        cols.append(j)
    return cols


def _aligned_mark_tables_to_pipes(text: str, origin: list[int], original: str) -> tuple[str, list[int]]:
    """Rewrite a table laid out with spaces whose cells answer with marks under a header ("relatives  in-norm
    out-norm" over "Gemma 2  ✓  ✓" and "OLMo 2  ✗  ✓") as Markdown rows ("| Gemma 2 | ✓ | ✓ |"), so each mark is
    read under its column's header as in a Markdown table. The first of three or more such lines (three or more
    cells each, no pipes, outside code fences) is the header when it holds no mark and a later row does, and every
    row's cells sit under the header's columns; other aligned lines are left to `_aligned_rows_to_labels`."""
    lines = text.split("\n")
    starts = _line_starts(lines)
    outside = _outside_fences(lines)
    cells = [found if outside[k] and len(found) >= 3 and len(lines[k]) - len(lines[k].lstrip()) < 8 else []
             for k, found in enumerate(_spaced_cells(lines, starts, origin, original))]
    rewrite: dict[int, list[tuple[int, int] | None]] = {}
    k = 0
    while k < len(lines):
        end = k
        while end < len(lines) and cells[end]:
            end += 1
        if end - k >= 3:
            header = cells[k]
            if header[0][0] > _COLUMN_SLACK:
                header = [(0, 0), *header]  # a header indented to its columns: the row labels' column has none
            marked = [any(lines[j][a:b].strip().lower() in _MARK_CELLS for a, b in cells[j]) for j in range(k, end)]
            placed = [_under_header(header, cells[j]) for j in range(k + 1, end)]
            if not marked[0] and any(marked[1:]) and all(p is not None for p in placed):
                rewrite[k] = list(header)
                for j, cols in zip(range(k + 1, end), placed, strict=True):
                    row: list[tuple[int, int] | None] = [None] * len(header)
                    for cell, col in zip(cells[j], cols or [], strict=True):
                        row[col] = cell
                    rewrite[j] = row
        k = max(end, k + 1)
    if not rewrite:
        return text, origin
    out: list[str] = []
    out_origin: list[int] = []
    for k, line in enumerate(lines):
        pos = starts[k]
        here = origin[min(pos, len(origin) - 1)] if origin else 0
        if k not in rewrite:
            out.append(line)
            out_origin.extend(origin[pos : pos + len(line)])
        else:
            for slot in rewrite[k]:
                at = origin[pos + slot[0]] if slot is not None and slot[0] < slot[1] else here
                out.append("| ")
                out_origin.extend([at] * 2)
                if slot is not None:
                    out.append(line[slot[0] : slot[1]])
                    out_origin.extend(origin[pos + slot[0] : pos + slot[1]])
                out.append(" ")
                out_origin.append(at)
            out.append("|")
            out_origin.append(here)
        if k + 1 < len(lines):
            out.append("\n")
            out_origin.append(origin[pos + len(line)] if pos + len(line) < len(origin) else here)
    return "".join(out), out_origin


#: A column about where the norm sits, and the bare "Pre"/"Post" its cells say it with ("| BERT | Post |").
_PLACEMENT_HEADER = re.compile(r"placement|position|where|位置|放置|前置还是后置")
#: A column that asks whether a normalisation sits somewhere ("input norm", "post-attn norm", "输出归一化") ...
_NORM_SLOT_HEADER = re.compile(r"(?:input|output|pre|post|before|after|branch|sublayer|attn|attention|ffn|mlp|输入|输出|前|后|分支)"
                               r".{0,12}(?:norm|\bln\b|归一化)|(?:norm|\bln\b|归一化).{0,12}(?:input|output|before|after|"
                               r"输入|输出|前|后)")
#: ... answered by the name of the norm that sits there ("| Gemma 2 | RMSNorm | RMSNorm |"): a yes naming it.
_NORM_NAME_CELL = re.compile(r"(?:layer ?norm|rms ?norm|ln|rms|norm)(?: \(pre\)| \(post\))?")
_BARE_PLACEMENT = re.compile(r"\b(?:pre|post)\b(?![- ]?(?:ln|norm|layer|rms|lm|training|warm))", re.IGNORECASE)


def _tables_to_sentences(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Rewrite Markdown tables as sentences: each cell becomes "<column header> <row label>∶ <cell>."

    An answer laid out as a table (placements as columns, aspects as rows) then reads like prose, and
    every character still maps back to the user's original text. A cell that is only a yes/no mark
    (✓, ✗, 是, 否, No) reads as "yes"/"not" so the row's claim is affirmed or denied for its column.
    """
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    out: list[str] = []
    out_origin: list[int] = []
    size = 0

    def emit(a: int, b: int) -> None:
        nonlocal size
        out.append(text[a:b])
        out_origin.extend(origin[a:b])
        size += b - a

    def emit_sep(sep: str, at: int) -> None:
        nonlocal size
        out.append(sep)
        out_origin.extend([origin[min(at, len(origin) - 1)]] * len(sep))
        size += len(sep)

    def is_rule(k: int) -> bool:
        if k >= len(lines):
            return False
        row = text[lines[k][0] : lines[k][1]].strip()
        # "|---|---|", or an ASCII rule "------+------" under a header "  | Post-LN | Pre-LN"
        return "-" in row and ("|" in row or "+" in row) and set(row) <= set("|-:+ ")

    def piped(k: int) -> int:
        """The number of "|" of a line written as a table row ("| a | b |", or as tables copied from a web page
        come out, with one outer pipe only: "特性 | Post-Norm | Pre-Norm |"), else 0."""
        row = text[lines[k][0] : lines[k][1]].strip() if k < len(lines) else ""
        edged = (row[:1] == "|" and row[-1:] == "|") or ((row[:1] == "|" or row[-1:] == "|") and row.count("|") >= 3)
        return row.count("|") if len(row) > 2 and edged and not is_rule(k) else 0

    def bare_table(k: int) -> bool:
        """Three or more rows of "| a | b |" with the same number of cells and no |---| rule: a table whose
        first row is its header, as quick notes write it."""
        n = piped(k)
        return n >= 3 and piped(k + 1) == n and piped(k + 2) == n and (k == 0 or piped(k - 1) != n)

    header: list[tuple[int, int]] | None = None
    for k, (a, b) in enumerate(lines):
        if size > MAX_SCORED_CHARS * 2:
            break
        row = text[a:b]
        if header is None and not (row.count("|") >= 2 and (is_rule(k + 1) or bare_table(k))):
            emit(a, min(b + 1, len(text)))
            continue
        if is_rule(k):
            continue
        if header is not None and row.count("|") < 2:
            header = None
            emit(a, min(b + 1, len(text)))
            continue
        cells = _cells(text, a, b)
        if header is None:
            header = cells  # a header row is followed by a |---| rule, or starts a table written without one
            continue
        label = cells[0]
        for col in range(1, len(cells)):
            ca, cb = cells[col]
            if ca >= cb:
                continue
            named = col < len(header) and header[col][0] < header[col][1]
            if named and text[header[col][0] : header[col][1]].strip().lower() in _SYMBOL_HEADERS and label[0] < label[1]:
                # "| model | α | β |" over "| enc-only | (2N)^¼ | (8N)^-¼ |": a column named by a symbol holds its values,
                # "enc-only∶ alpha = (2N)^¼."
                emit(*_label_span(text, label))
                emit_sep(TABLE_COLON + " ", ca)
                emit(*_label_span(text, header[col]))
                emit_sep(" = ", ca)
                emit(ca, cb)
                emit_sep(".\n", cb - 1)
                continue
            if named:
                emit(*_label_span(text, header[col]))
                emit_sep(" ", ca)
            if label[0] < label[1]:
                emit(*_label_span(text, label))  # "Needs a final LN?" asks nothing in a table: its cells answer
            emit_sep(TABLE_COLON + " ", ca)
            cell = text[ca:cb].strip().lower().rstrip(".")
            tail: tuple[int, int] | None = None
            graded = _MARK_THEN_ASIDE.search(cell)
            if graded is not None and (lead := cell[: graded.start()].strip()) and (
                    lead.partition(" ")[0] not in _MARK_NO | _MARK_YES):
                # "required ❌ (IWSLT14 w/o: 8.45 BLEU)": the mark grades the entry as it does at the cell's end; the
                # aside after it stays
                raw = text[ca:cb]
                k = raw.rfind(graded.group(1))
                tail = (ca + raw.index(graded.group(2)[0], k), cb)
                cb = ca + len(raw[:k].rstrip())
                cell = lead
            head, _, rest = cell.partition(" ")
            words, _, last = cell.rpartition(" ")
            if (words and " " not in words and last in _MARK_YES and head not in _MARK_NO | _MARK_YES
                    and words not in _HEDGED_CELLS):
                # "| Gemma 2 | RMSNorm ✅ |" under "input norm": the mark answers the column, the word names what is there
                emit_sep("yes (", ca)
                emit(ca, ca + len(words))
                emit_sep(")", ca + len(words) - 1)
                emit_sep(".\n", cb - 1)
                continue
            if words and last in _MARK_NO | _MARK_YES and head not in _MARK_NO | _MARK_YES:
                # "required ✗", "optional at moderate lr ✓": after the cell's words a mark grades the entry (a
                # drawback, a strength); it does not answer yes or no, so the words are read as they are
                cb = ca + len(text[ca:cb].rstrip().rstrip(".").rstrip()) - len(last)
                while cb > ca and text[cb - 1] == " ":
                    cb -= 1
                cell = words
            if cell in _NO_CELLS:
                emit_sep("not", ca)
            elif cell in _POOR_CELLS:
                emit_sep("not ", ca)  # "stability: poor" denies stability
                emit(ca, cb)
            elif cell in _YES_CELLS:
                emit_sep("yes", ca)
            elif rest and head in _MARK_NO:
                emit_sep("not (", ca)  # "✗ last op is already an LN": the mark answers, the rest is the reason
                emit(ca + len(head), cb)
                emit_sep(")", cb - 1)
            elif rest and head in _MARK_YES:
                emit_sep("yes (", ca)
                emit(ca + len(head), cb)
                emit_sep(")", cb - 1)
            elif (col < len(header) and _NORM_NAME_CELL.fullmatch(cell)
                  and _NORM_SLOT_HEADER.search(text[header[col][0] : header[col][1]].lower())):
                emit_sep("yes (", ca)
                emit(ca, cb)
                emit_sep(")", cb - 1)
            elif col < len(header) and _PLACEMENT_HEADER.search(text[header[col][0] : header[col][1]].lower()):
                # "| BERT | Post |" under a "placement" column: the bare "Post" is Post-LN
                at = ca
                for m in _BARE_PLACEMENT.finditer(text, ca, cb):
                    emit(at, m.end())
                    emit_sep("-ln", m.end() - 1)
                    at = m.end()
                emit(at, cb)
            else:
                emit(ca, cb)
            if tail is not None:
                emit_sep(" ", tail[0])
                emit(*tail)
            emit_sep(".\n", cb - 1)
    return "".join(out), out_origin
