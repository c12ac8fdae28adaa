"""Answer structure: blocks, sentences, segments, who each claim is about, and whether it is negated.

* A block ends at a blank line, a heading (`## Formulas`, `公式：`) or a list item.
* A sentence ends at . ! ? 。 (not in "i.e.", "e.g.", "et al.").
* A segment is a part of a sentence between connectives (so, because, while, but, 所以, 而, ...)
  and semicolons: concepts of one claim must co-occur in one segment.
* Attribution: a claim belongs to the nearest placement named before it in its segment, else just
  after it in the segment, else earlier in the sentence, else the last placement named since the
  last heading. Mentions after "than", "unlike", "比", "相比" are comparisons, not subjects.
* Negation: cues ("not", "no", "without", "drop", "不", "无需", "去掉", ...) close to a term, in
  the same comma-delimited part, flip it; "without warm-up ... diverges" flips back.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from lndrill.scoring.tokens import CJK, PUNCT, WORD, Token, stem

_ABBREV = {"i", "e", "g", "al", "vs", "eq", "fig", "sec", "cf", "approx", "resp"}
_EN_CONNECTIVES = {stem(w) for w in (
    "so", "thus", "hence", "therefore", "because", "whereas", "while", "but", "however", "although",
    "though", "meanwhile", "whilst", "consequently", "since", "whereby")}
_ZH_CONNECTIVES = ("所以", "因此", "因而", "于是", "因为", "由于", "但是", "然而", "不过", "从而", "以致",
                   "但", "却", "而")
_ZH_NOT_CONNECTIVE_AFTER_ER = ("且", "言", "已")  # 而且, 而言, 而已

_EN_NEG = {stem(w) for w in (
    "not", "no", "never", "without", "none", "nor", "neither", "cannot", "free", "drop", "dropped", "remove",
    "removes", "removed", "skip", "skipped", "unnecessary", "unneeded", "optional", "dispensable", "rid",
    "lack", "lacks", "less", "hardly", "barely", "eliminate", "eliminates", "eliminated", "omit", "omitted",
    "needless", "nothing", "fewer")}
_ZH_NEG = ("不", "没", "无", "免", "去掉", "去除", "省去", "省掉", "省略", "移除", "取消", "摆脱", "非", "别", "未", "勿",
           "拿掉", "砍掉", "甩掉")
_ZH_NEG_EXCEPT = ("不同", "不断", "不仅", "不少", "不过", "不管", "不久", "无论", "非常", "未来", "不止", "并非",
                  "训不动", "训不起来", "训不稳", "跑不动", "收敛不了", "训不好",
                  "离不开", "少不了", "不可或缺", "必不可少", "不得不", "免不了", "缺一不可")
_EN_POST_NEG = {stem(w) for w in (
    "not", "cannot", "free", "unnecessary", "unneeded", "optional", "dispensable", "needless", "drop", "dropped",
    "remove", "removed", "skip", "skipped", "eliminated", "omitted")}
_EN_NOT_A_CUE_BEFORE = {("no", "matter"), ("not", "only"), ("no", "doubt"), ("not", "just")}
_EN_FAIL = {stem(w) for w in ("diverge", "diverges", "diverged", "unstable", "instability", "fail", "fails",
                               "explode", "explodes", "crash", "crashes", "blow", "nan")}
_ZH_FAIL = ("发散", "崩", "炸", "训飞", "训不动", "训不起来", "训不稳", "跑不动", "收敛不了", "训不好")
# Cues of absence ("without warm-up", "不加 warm-up"): with a failure word nearby they mean "is needed".
_EN_ABSENCE = {stem(w) for w in ("without", "no")}
_ZH_ABSENCE = ("没", "无", "不用", "不加", "不做", "不预", "去掉")
_SCOPE_STOP = {stem(w) for w in ("and", "or", "also", "then", "plus", "which", "that")} | {
    ",", ";", ".", "\n", "(", ")"}
_ZH_SCOPE_STOP = ("和", "并", "且", "同时", "也")
_CONTRAST_BEFORE = {stem(w) for w in ("than", "unlike", "vs", "versus", "compared", "compare", "over", "relative",
                                       "like")}
_ZH_CONTRAST_BEFORE = ("比", "于", "较", "同于", "像")
_ZH_CONTRAST_AFTER = ("相比", "相较", "比较", "不同", "对比")
_EN_FUNCTION = {stem(w) for w in (
    "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "does", "do", "did", "can", "could",
    "will", "would", "should", "may", "might", "must", "need", "needs", "needed", "require", "requires",
    "required", "the", "a", "an", "to", "of", "in", "on", "at", "by", "for", "with", "without", "from", "through",
    "into", "than", "that", "which", "it", "its", "they", "their", "this", "these", "not", "gets", "makes",
    "keeps", "stays", "grows", "passes", "goes", "flows", "reaches", "becomes", "so", "because", "while", "but",
    "and", "or", "if", "when", "where", "there", "uses", "use", "used", "lets", "allows", "after", "before",
    "then", "i", "we", "you", "get", "got", "put", "puts", "applied", "apply", "applies", "since", "though",
    "whereas", "cannot", "computes", "compute", "gives", "give", "trains", "train", "ends", "tends", "try",
    "tries", "choose", "chooses", "pick", "picks", "sets", "set", "takes", "take", "adds", "add", "scales",
    "scale", "multiplies", "divides", "normalizes", "normalises", "removes", "drops", "keeps", "keep", "shrinks",
    "grow", "falls", "decays", "vanishes", "explodes", "diverges", "converges", "stays", "remains",
    "shows", "proves", "proved", "showed", "says", "works", "helps", "leads", "causes", "makes", "adopts",
    "adopted", "follows", "bounds", "controls", "stabilizes", "stabilises", "prevents", "avoids", "fixes",
    "replaces", "skips", "sits", "lies", "goes", "comes", "reads", "measures", "equals", "depends", "more",
    "less", "better", "worse", "easier", "harder", "larger", "smaller", "higher", "lower")}
_ZH_FUNCTION = set("的是要会能可需让使在过就都很更比把被了着对从到为而也才再先后并且将则即因所得地靠用经穿变保没不"
                   "好差高低略稍容易难快慢强弱点最还又已有与及此其它他们该这那给乘取沿加除做放走等也")


_EN_REFUTE = {stem(w) for w in ("myth", "misconception", "wrong", "incorrect", "false", "untrue", "mistaken",
                                 "misleading", "fallacy", "misunderstanding")}
_EN_REFUTE_PAIRS = {("people", "say"), ("often", "said"), ("often", "say"), ("not", "true"), ("commonly", "believ"),
                    ("is", "said"), ("some", "say"), ("some", "claim")}
_ZH_REFUTE = ("错误", "是错的", "不对", "误解", "误区", "说法", "迷思", "谣言", "有人说", "常说", "以为", "并非如此", "不成立",
              "讲反", "说反", "搞反")


_ANAPHORA = {"that", "this", "it", "which"} | set("这此该")


def refuting_segments(tokens: list[Token], st: Structure) -> set[int]:
    """Segments whose claim is reported or refuted ("people say X", "X 这个说法是错的", "X; that is a myth").

    A claim in such a segment means its opposite. When the refuting segment starts with "that"/"这",
    it refutes the segment before it.
    """
    out: set[int] = set()
    for i, t in enumerate(tokens):
        hit = False
        if t.kind == WORD:
            nxt = stem(tokens[i + 1].key) if i + 1 < len(tokens) and tokens[i + 1].kind == WORD else ""
            hit = t.key in _EN_REFUTE or (t.key, nxt) in _EN_REFUTE_PAIRS
        elif t.kind == CJK:
            hit = _cjk_word_at(tokens, i, _ZH_REFUTE) is not None
        if not hit:
            continue
        # "that is not a myth" / "不是误解": the marker itself is negated, nothing is refuted.
        if any(_is_neg(tokens, j) for j in range(max(0, i - 2), i) if st.segment_of[j] == st.segment_of[i]):
            continue
        seg = st.segment_of[i]
        out.add(seg)
        a, _ = st.segment_span[seg]
        first = tokens[a] if a < len(tokens) else None
        while first is not None and first.kind == PUNCT and a + 1 < len(tokens):
            a += 1
            first = tokens[a]
        if first is not None and first.key in _ANAPHORA and seg > 0 and st.sentence_of[a] == st.sentence_of[
                st.segment_span[seg - 1][0]]:
            out.add(seg - 1)
    return out


@dataclass(frozen=True)
class Mention:
    """A placement/subject named in the answer."""

    subject: str
    start: int  # token index
    end: int
    contrast: bool


@dataclass
class Structure:
    """The answer's tokens grouped into sentences and segments, with subject mentions."""

    tokens: list[Token]
    sentence_of: list[int] = field(default_factory=list)
    segment_of: list[int] = field(default_factory=list)
    part_of: list[int] = field(default_factory=list)
    block_of: list[int] = field(default_factory=list)
    heading_block: set[int] = field(default_factory=set)
    segment_span: list[tuple[int, int]] = field(default_factory=list)
    segment_claim: list[bool] = field(default_factory=list)
    segment_list: list[bool] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    _mention_starts: list[int] = field(default_factory=list)

    def set_mentions(self, mentions: list[Mention]) -> None:
        """Install subject mentions (sorted, overlaps resolved: longer first)."""
        chosen: list[Mention] = []
        taken: set[int] = set()
        for m in sorted(mentions, key=lambda m: (-(m.end - m.start), m.start)):
            if any(i in taken for i in range(m.start, m.end)):
                continue
            chosen.append(m)
            taken.update(range(m.start, m.end))
        self.mentions = sorted(chosen, key=lambda m: m.start)
        self._mention_starts = [m.start for m in self.mentions]

    def mention_tokens(self) -> set[int]:
        """Token indices covered by subject mentions."""
        return {i for m in self.mentions for i in range(m.start, m.end)}

    def subject_for(self, start: int, end: int) -> str | None:
        """The subject a claim spanning tokens [start, end) is attributed to (see module docstring)."""
        if not self.mentions or start >= len(self.tokens):
            return self._inherited(start)
        k = bisect.bisect_left(self._mention_starts, start)
        part, seg, sent = self.part_of, self.segment_of, self.sentence_of
        # A placement named between the claim's own terms in one clause ("the converged Post-LN model is
        # better") is what the claim is about.
        for m in self.mentions[k:]:
            if m.start >= end:
                break
            if m.start > start and not m.contrast and part[m.start] == part[start]:
                return m.subject
        # Nearest in the same comma/"and" part (before, then after: "F(LN(x)) is Pre-LN"), then the
        # same segment (before, then after), then earlier in the sentence, then inherited.
        for unit, after in ((part, False), (part, True), (seg, False), (seg, True), (sent, False)):
            found = self._nearest(k, start, end, unit, after)
            if found is not None:
                return found
        return self._inherited(start)

    def _nearest(self, k: int, start: int, end: int, unit: list[int], after: bool) -> str | None:
        """The closest non-comparison mention before (or after) the claim within the same `unit`."""
        here = unit[start]
        candidates = self.mentions[k:] if after else reversed(self.mentions[:k])
        for m in candidates:
            if (m.start < end) if after else (m.end > start):
                continue
            if unit[m.start] != here:
                return None
            if not m.contrast:
                return m.subject
        return None

    def _inherited(self, start: int) -> str | None:
        if start >= len(self.tokens):
            return None
        sent = self.sentence_of[start]
        k = bisect.bisect_left(self._mention_starts, start)
        for m in reversed(self.mentions[:k]):
            if self.sentence_of[m.start] == sent:
                continue
            if self._heading_between(m.start, start):
                return None
            if not m.contrast:
                # A sentence that named two placements ("Pre-LN and Post-LN differ ...") leaves the
                # next sentence's subject open.
                named = {x.subject for x in self.mentions
                         if self.sentence_of[x.start] == self.sentence_of[m.start] and not x.contrast}
                return m.subject if len(named) == 1 else None
        return None

    def _heading_between(self, a: int, b: int) -> bool:
        ba, bb = self.block_of[a], self.block_of[b]
        return any(blk in self.heading_block for blk in range(ba + 1, bb + 1))


_NUMBERED_TITLE = re.compile(r"^(?:[一二三四五六七八九十]+[、.．]|\(?[0-9]{1,2}[.)、]\s*|[0-9]{1,2}\s)")
_ENDS_SENTENCE = re.compile(r"[.!?。！？;；]\s*$")


def _is_heading_line(line_tokens: list[Token], raw_line: str) -> bool:
    stripped = raw_line.strip()
    if stripped.startswith("#"):
        return True
    words = [t for t in line_tokens if t.kind in (WORD, CJK)]
    if stripped.endswith((":", "：")) and 0 < len(words) <= 6:
        return True
    if stripped.startswith("**") and stripped.endswith("**") and len(words) <= 6:
        return True
    # "二、反向传播", "2. Backprop", "(3) Trade-offs": a numbered title line
    if _NUMBERED_TITLE.match(stripped) and 0 < len(words) <= 8 and not _ENDS_SENTENCE.search(stripped):
        return True
    # A short bare title ("Backprop path", "权衡") with no punctuation, digits or formula
    letters = [t for t in line_tokens if t.kind == WORD]
    return (0 < len(words) <= 4 and len(letters) <= 3 and all(t.kind in (WORD, CJK) for t in line_tokens)
            and sum(t.kind == CJK for t in line_tokens) <= 6)


def analyse(text: str, tokens: list[Token]) -> Structure:
    """Split tokens into blocks, sentences, segments and comma parts; mark claim-like segments."""
    st = Structure(tokens)
    n = len(tokens)
    st.sentence_of = [0] * n
    st.segment_of = [0] * n
    st.part_of = [0] * n
    st.block_of = [0] * n
    # Blocks from lines.
    line_starts: list[int] = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            line_starts.append(i + 1)
    lines = [(s, (line_starts[k + 1] - 1) if k + 1 < len(line_starts) else len(text)) for k, s in enumerate(line_starts)]
    tok_line = [bisect.bisect_right(line_starts, t.start) - 1 for t in tokens]
    line_block: list[int] = []
    line_new_sentence: list[bool] = []
    block = 0
    prev_blank = True
    prev_heading = False
    for k, (a, b) in enumerate(lines):
        raw = text[a:b]
        stripped = raw.strip()
        blank = not stripped
        bullet = stripped[:2] in ("- ", "* ", "• ") or (stripped[:1].isdigit() and stripped[1:3] in (". ", ") "))
        heading = not blank and _is_heading_line(_line_tokens(tokens, tok_line, k), raw)
        label = not blank and ":" in stripped[:24] and len(stripped.split(":", 1)[0].split()) <= 3
        new_block = blank or heading or bullet or prev_blank or prev_heading
        if new_block and not blank:
            block += 1
        line_block.append(block)
        line_new_sentence.append(new_block or label)
        if heading:
            st.heading_block.add(block)
        prev_blank, prev_heading = blank, heading
    # Sentences, segments, parts.
    sent = seg = part = 0
    last_line = -1
    for i, tok in enumerate(tokens):
        ln = tok_line[i]
        if ln != last_line:
            if line_new_sentence[ln] and i > 0:
                sent += 1
                seg += 1
                part += 1
            last_line = ln
        st.block_of[i] = line_block[ln]
        if tok.kind == PUNCT and tok.key in ".!?" and _sentence_end(text, tokens, i):
            st.sentence_of[i] = sent
            st.segment_of[i] = seg
            st.part_of[i] = part
            sent += 1
            seg += 1
            part += 1
            continue
        if _is_connective(tokens, i) or (tok.kind == PUNCT and tok.key == ";"):
            seg += 1
            part += 1
        elif tok.kind == PUNCT and tok.key == "," or (tok.kind == WORD and tok.key in ("and", "or")):
            part += 1
        st.sentence_of[i] = sent
        st.segment_of[i] = seg
        st.part_of[i] = part
    # Segment spans and claim-likeness.
    nseg = (st.segment_of[-1] + 1) if n else 0
    spans = [[n, -1] for _ in range(nseg)]
    for i in range(n):
        s = st.segment_of[i]
        spans[s][0] = min(spans[s][0], i)
        spans[s][1] = max(spans[s][1], i + 1)
    st.segment_span = [(a, b) if b >= 0 else (0, 0) for a, b in spans]
    st.segment_claim = [_claim_like(tokens, a, b) and st.block_of[a] not in st.heading_block
                        if b > a else False for a, b in st.segment_span]
    st.segment_list = [_list_like(tokens, a, b) or st.block_of[a] in st.heading_block if b > a else True
                       for a, b in st.segment_span]
    # "..., hence warm-up." / "所以要 warm-up": a consequence clause continues the claim before it.
    st.segment_claim = [c or (b > a and _is_consequence(tokens, a)) for c, (a, b) in
                        zip(st.segment_claim, st.segment_span, strict=True)]
    return st


def _line_tokens(tokens: list[Token], tok_line: list[int], k: int) -> list[Token]:
    lo = bisect.bisect_left(tok_line, k)
    hi = bisect.bisect_right(tok_line, k)
    return tokens[lo:hi]


def _sentence_end(text: str, tokens: list[Token], i: int) -> bool:
    tok = tokens[i]
    if text[tok.start] == "\u3002" or tok.key in "!?":
        return True
    nxt = text[tok.end : tok.end + 1]
    if nxt and not (nxt.isspace() or "\u3400" <= nxt <= "\u9fff"):
        return False
    prev = tokens[i - 1] if i > 0 else None
    if prev is not None and prev.kind == WORD and prev.end == tok.start and prev.key in _ABBREV:
        return False
    return True


_FIRST_CHARS: dict[tuple[str, ...], frozenset[str]] = {}


def _cjk_word_at(tokens: list[Token], i: int, words: tuple[str, ...]) -> str | None:
    """The first of `words` spelled by CJK tokens starting at i, if any."""
    first = _FIRST_CHARS.get(words)
    if first is None:
        first = _FIRST_CHARS[words] = frozenset(w[0] for w in words if w)
    if i >= len(tokens) or tokens[i].key not in first:
        return None
    for w in words:
        if i + len(w) <= len(tokens) and all(
            tokens[i + k].kind == CJK and tokens[i + k].key == ch for k, ch in enumerate(w)
        ):
            return w
    return None


def _is_connective(tokens: list[Token], i: int) -> bool:
    tok = tokens[i]
    if tok.kind == WORD:
        return tok.key in _EN_CONNECTIVES
    if tok.kind != CJK:
        return False
    w = _cjk_word_at(tokens, i, _ZH_CONNECTIVES)
    if w is None:
        return False
    if w == "而":
        nxt = tokens[i + 1].key if i + 1 < len(tokens) else ""
        prv = tokens[i - 1] if i > 0 else None
        if nxt in _ZH_NOT_CONNECTIVE_AFTER_ER:
            return False
        # Only a clause-initial 而 ("..., 而 Pre-LN ...") joins two claims; "随 L 增大而减小" is one claim.
        if prv is not None and not (prv.kind == PUNCT or prv.kind == WORD):
            return False
    if w in ("但", "却") and i > 0 and tokens[i - 1].key in ("不",):
        return False
    return True


_EN_CONSEQUENCE = {stem(w) for w in ("so", "hence", "thus", "therefore", "consequently")}
_ZH_CONSEQUENCE = ("所以", "因此", "因而", "于是", "从而")


def _is_consequence(tokens: list[Token], a: int) -> bool:
    t = tokens[a]
    if t.kind == WORD:
        return t.key in _EN_CONSEQUENCE
    return t.kind == CJK and _cjk_word_at(tokens, a, _ZH_CONSEQUENCE) is not None


def _claim_like(tokens: list[Token], a: int, b: int) -> bool:
    """A segment reads as a claim if it has a function word or verb (a keyword list has none)."""
    content = 0
    function = 0
    for t in tokens[a:b]:
        if t.kind == WORD:
            content += 1
            if t.key in _EN_FUNCTION:
                function += 1
        elif t.kind == CJK:
            content += 1
            if t.key in _ZH_FUNCTION:
                function += 1
    if function == 0:
        return False
    if content >= 10 and function / content < 0.06:
        return False
    return not _list_like(tokens, a, b)


def _list_like(tokens: list[Token], a: int, b: int) -> bool:
    """A list of short comma-separated items ("Post-LN, Pre-LN, warm-up, ..."): most items have no
    function word at all."""
    parts = bare = 0
    has_function = False
    for t in tokens[a:b] + [Token(",", PUNCT, 0, 0)]:
        if t.kind == PUNCT and t.key == ",":
            parts += 1
            bare += 0 if has_function else 1
            has_function = False
        elif (t.kind == WORD and t.key in _EN_FUNCTION) or (t.kind == CJK and t.key in _ZH_FUNCTION):
            has_function = True
    return parts >= 5 and bare >= 0.7 * parts


def negation_cues(tokens: list[Token], st: Structure, start: int, end: int, skip: set[int],
                  window: int = 5, with_post: bool = True) -> set[int]:
    """Token indices of negation cues that govern the term at [start, end).

    Cues before the term count; cues after it count only when `with_post` (the last term of a claim)
    and, in English, only words that negate what precedes them ("is not needed", "can be dropped").
    """
    cues: set[int] = set()
    part = st.part_of[start]
    seg = st.segment_of[start]

    def scan(indices: range, post: bool) -> None:
        steps = 0
        for j in indices:
            t = tokens[j]
            if st.segment_of[j] != seg:
                # "not because X" / "不是因为 X": the negation before the connective denies X
                if not post and _is_cause(tokens, st.segment_span[seg][0]):
                    for k in range(j, max(-1, j - 3), -1):
                        if _is_neg(tokens, k):
                            cues.add(k)
                            break
                return
            if t.kind == PUNCT and t.key in _SCOPE_STOP:
                return
            if t.kind == WORD and t.key in _SCOPE_STOP:
                return
            if t.kind == CJK and _cjk_word_at(tokens, j, _ZH_SCOPE_STOP):
                return
            if j in skip:
                continue
            steps += 1
            if steps > window:
                return
            if _is_neg(tokens, j) and not (post and t.kind == WORD and t.key not in _EN_POST_NEG):
                cues.add(j)

    scan(range(start - 1, -1, -1), post=False)
    if with_post:
        scan(range(end, len(tokens)), post=True)
    del part
    if any(_is_absence(tokens, j) for j in cues):
        # "without warm-up, it diverges" / "it diverges without warm-up": a failure word in the same
        # segment turns the absence into a need.
        a, b = st.segment_span[seg]
        for j in range(max(a, start - 25), min(b, end + 25)):
            t = tokens[j]
            if j in skip or j in cues:
                continue
            if (t.kind == WORD and t.key in _EN_FAIL) or (t.kind == CJK and _cjk_word_at(tokens, j, _ZH_FAIL)):
                cues.add(j)
                break
    return cues


_EN_CAUSE = {stem(w) for w in ("because", "since")}
_ZH_CAUSE = ("因为", "由于")


def _is_cause(tokens: list[Token], a: int) -> bool:
    t = tokens[a]
    if t.kind == WORD:
        return t.key in _EN_CAUSE
    return t.kind == CJK and _cjk_word_at(tokens, a, _ZH_CAUSE) is not None


def _is_absence(tokens: list[Token], j: int) -> bool:
    t = tokens[j]
    if t.kind == WORD:
        return t.key in _EN_ABSENCE
    return t.kind == CJK and _cjk_word_at(tokens, j, _ZH_ABSENCE) is not None


def _is_neg(tokens: list[Token], j: int) -> bool:
    t = tokens[j]
    if t.kind == WORD:
        if t.key not in _EN_NEG:
            return False
        nxt = tokens[j + 1].key if j + 1 < len(tokens) else ""
        return (t.key, nxt) not in _EN_NOT_A_CUE_BEFORE
    if t.kind != CJK or _cjk_word_at(tokens, j, _ZH_NEG) is None:
        return False
    for w in _ZH_NEG_EXCEPT:
        for k in range(len(w)):
            if j - k >= 0 and w[k] == t.key and _cjk_word_at(tokens, j - k, (w,)):
                return False
    return True


def contrast_mention(tokens: list[Token], start: int, end: int) -> bool:
    """True when a subject mention at [start, end) is the thing compared against ("than Post-LN")."""
    for j in range(start - 1, max(-1, start - 3), -1):
        t = tokens[j]
        if t.kind == WORD and t.key in _CONTRAST_BEFORE:
            return True
        if t.kind == CJK:
            for w in _ZH_CONTRAST_BEFORE:
                if j - len(w) + 1 >= 0 and _cjk_word_at(tokens, j - len(w) + 1, (w,)):
                    return True
        if t.kind == PUNCT:
            break
    for j in range(end, min(len(tokens), end + 3)):
        if tokens[j].kind == CJK and _cjk_word_at(tokens, j, _ZH_CONTRAST_AFTER):
            return True
    # "和 Pre-LN 比" / "与 Pre-LN 比": a comparison partner
    before = tokens[start - 1].key if start > 0 else ""
    after = tokens[end].key if end < len(tokens) else ""
    return before in ("和", "与", "跟", "同") and after in ("比", "较")
