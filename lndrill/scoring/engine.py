"""Score an answer against a card's rubric: deterministic, explainable, bounded in time."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from lndrill.cards.schema import Card
from lndrill.scoring.clauses import (
    _EN_FUNCTION,
    _ZH_FUNCTION,
    Mention,
    Structure,
    _is_neg,
    analyse,
    contrast_mention,
    negation_cues,
    refuting_segments,
)
from lndrill.scoring.formula import find_formulas
from lndrill.scoring.normalize import Prepared, prepare
from lndrill.scoring.phrases import Phrase, TextIndex
from lndrill.scoring.result import MistakeResult, PointResult, ScoreResult, SectionResult
from lndrill.scoring.rubric import Claim, Matcher, Rubric, compile_rubric
from lndrill.scoring.tokens import stem, tokenize

_RUBRICS: WeakKeyDictionary[Card, Rubric] = WeakKeyDictionary()
_FUNCTION_KEYS = _EN_FUNCTION | _ZH_FUNCTION
_ELLIPSIS_KEYS = {stem(w) for w in (
    "does", "do", "did", "not", "is", "are", "can", "cannot", "too", "also", "either", "neither", "nor", "no",
    "so", "as", "well", "same", "the", "one", "other", "hand", "it", "its", "on", "while", "whereas", "but",
    "and", "doesn't", "isn't", "unlike")} | set("不需要用也是则就会没有同样如此并非但而却样与和跟同像")
#: The terms of one claim must lie within this many tokens of its first term.
CO_OCCURRENCE_WINDOW = 30


def rubric_for(card: Card) -> Rubric:
    """The compiled rubric of a card (compiled once, then cached)."""
    try:
        return _RUBRICS[card]
    except (KeyError, TypeError):
        pass
    rubric = compile_rubric(card)
    try:
        _RUBRICS[card] = rubric
    except TypeError:
        pass
    return rubric


@dataclass(frozen=True)
class _Occurrence:
    start: int  # token indices
    end: int
    terms: tuple[tuple[int, int], ...]
    formula: bool
    char_span: tuple[int, int]


class _Answer:
    """Everything derived from one answer text, shared by all points of a card."""

    def __init__(self, rubric: Rubric, text: str | bytes) -> None:
        self.prep: Prepared = prepare(text)
        self.tokens = tokenize(self.prep.text)
        self.index = TextIndex(self.tokens, self.prep.text, rubric.lexicon)
        self.st: Structure = analyse(self.prep.text, self.tokens)
        mentions: list[Mention] = []
        for subject, phrases in rubric.subjects.items():
            for ph in phrases:
                for a, b in self.index.find(ph):
                    mentions.append(Mention(subject, a, b, contrast_mention(self.tokens, a, b)))
        self.st.set_mentions(mentions)
        self.mention_tokens = self.st.mention_tokens()
        self._mention_starts = [m.start for m in self.st.mentions if not m.contrast]
        self._phrase_cache: dict[Phrase, list[tuple[int, int]]] = {}
        self.refuting = refuting_segments(self.tokens, self.st)
        self._claim_cache: dict[int, bool] = {}
        self.covered: set[int] = set(self.mention_tokens)
        for phrase in rubric.phrases:
            for a, b in self.find(phrase):
                self.covered.update(range(a, b))
        self.quoted = self._quoted_tokens()
        starts = [t.start for t in self.tokens]
        self.formulas: list[tuple[str, int, int, int, int]] = []
        for f in find_formulas(self.prep.text):
            a = bisect.bisect_left(starts, f.start)
            b = max(a + 1, bisect.bisect_left(starts, f.end))
            if a >= len(self.tokens):
                continue
            for side in f.sides:
                self.formulas.append((side, a, b, f.start, f.end))

    def claim_like(self, seg: int) -> bool:
        """Does this segment read as a claim? A function word or verb says so; failing that, enough
        ordinary words that are not rubric vocabulary (a bare keyword list has almost none)."""
        if seg in self._claim_cache:
            return self._claim_cache[seg]
        if self.st.segment_list[seg] or self._term_list(seg):
            self._claim_cache[seg] = False
        elif self.st.segment_claim[seg] or self._equation_or_labelled(seg):
            self._claim_cache[seg] = True
        else:
            a, b = self.st.segment_span[seg]
            words = cjk = plain_words = plain_cjk = 0
            for i in range(a, b):
                t = self.tokens[i]
                if t.kind == "w":
                    words += 1
                    plain_words += i not in self.covered
                elif t.kind == "c":
                    cjk += 1
                    plain_cjk += i not in self.covered
            # Chinese packs a claim into few characters ("前置结构训练稳定"); a Chinese keyword list is
            # caught above by its separators, so any Chinese clause that is not a list counts.
            ok = (plain_words >= 3 and plain_words >= 0.5 * max(1, words)) or cjk >= 2
            self._claim_cache[seg] = ok
        return self._claim_cache[seg]

    def _equation_or_labelled(self, seg: int) -> bool:
        """Terse but real claims: an equation ("alpha = (2N)^(1/4)") or a line labelled with a subject
        ("BERT: Post-LN, LayerNorm", "- T5: pre-norm, no bias")."""
        a, b = self.st.segment_span[seg]
        toks = self.tokens
        for i in range(a, b):
            t = toks[i]
            if t.kind == "p" and t.key == "=" and i > a and i + 1 < b:
                return True
            if t.kind == "p" and t.key == ":" and i > a:
                label = [m for m in self.st.mentions if a <= m.start and m.end <= i and not m.contrast]
                if label and i - a <= 4 and i + 1 < b:
                    return True
        return False

    def _term_list(self, seg: int) -> bool:
        """A run of vocabulary terms separated by spaces or commas ("残差 梯度 恒等 warm-up ...")."""
        a, b = self.st.segment_span[seg]
        toks = self.tokens
        if not any(toks[i].kind == "c" for i in range(a, b)):
            return False
        items: list[list[int]] = [[]]
        for i in range(a, b):
            t = toks[i]
            if t.kind == "p":
                if t.key == "," and items[-1]:
                    items.append([])
                continue
            prev = toks[items[-1][-1]] if items[-1] else None
            # In mixed prose spaces sit around English words; only a space between two Chinese
            # characters separates items.
            if (prev is not None and prev.kind == "c" and t.kind == "c" and t.start > prev.end
                    and self.prep.text[prev.end:t.start].isspace()):
                items.append([])
            if t.kind in ("w", "c"):
                items[-1].append(i)
        # Only items with a CJK character or a real word count: math fragments like "o(d" or "l))" don't.
        items = [it for it in items if any(toks[i].kind == "c" or len(toks[i].key) >= 3 for i in it)]
        if len(items) < 6:
            return False
        bare = 0
        for it in items:
            loose = [i for i in it if i not in self.covered]
            if len(loose) < len(it) and len(loose) <= 2 and not any(toks[i].key in _FUNCTION_KEYS for i in loose):
                bare += 1
        return bare >= 0.7 * len(items)

    def _quoted_tokens(self) -> set[int]:
        """Tokens inside quotation marks: a quoted claim is being discussed, not made."""
        text = self.prep.text
        marks = [i for i, ch in enumerate(text) if ch in '"\u300c\u300d']
        out: set[int] = set()
        starts = [t.start for t in self.tokens]
        for a, b in zip(marks[::2], marks[1::2], strict=False):
            if b - a > 400:
                continue
            lo, hi = bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)
            out.update(range(lo, hi))
        return out

    def find(self, phrase: Phrase) -> list[tuple[int, int]]:
        if phrase not in self._phrase_cache:
            self._phrase_cache[phrase] = [
                (a, b) for a, b in self.index.find(phrase)
                if not any(i in self.mention_tokens for i in range(a, b))
            ]
        return self._phrase_cache[phrase]

    def _mention_inside(self, lo: int, hi: int) -> bool:
        """True when a subject is named between two terms: they belong to different claims."""
        k = bisect.bisect_right(self._mention_starts, lo)
        return k < len(self._mention_starts) and self._mention_starts[k] < hi

    def occurrences(self, matcher: Matcher) -> list[_Occurrence]:
        if matcher.formula is not None:
            return [_Occurrence(a, b, ((a, b),), True, (cs, ce))
                    for side, a, b, cs, ce in self.formulas if side == matcher.formula]
        per_group: list[list[tuple[int, int]]] = []
        for group in matcher.groups:
            hits: list[tuple[int, int]] = []
            for ph in group:
                hits.extend(self.find(ph))
            if not hits:
                return []
            per_group.append(sorted(set(hits)))
        # Terms of one claim must share a sentence and sit within a few words of each other; they may
        # not reach across another subject named in a different clause ("Pre-LN ..., Post-LN ...").
        sent_of = self.st.sentence_of
        part_of = self.st.part_of
        out: list[_Occurrence] = []
        by_sent: list[dict[int, list[tuple[int, int]]]] = []
        for hits in per_group[1:]:
            d: dict[int, list[tuple[int, int]]] = {}
            for h in hits:
                d.setdefault(sent_of[h[0]], []).append(h)
            by_sent.append(d)
        seen: dict[int, int] = {}
        for anchor in per_group[0]:
            sent = sent_of[anchor[0]]
            if seen.get(sent, 0) >= 6:
                continue
            terms = [anchor]
            ok = True
            for d in by_sent:
                best = None
                for h in sorted(d.get(sent, ()), key=lambda h: abs(h[0] - anchor[0])):
                    if abs(h[0] - anchor[0]) > CO_OCCURRENCE_WINDOW:
                        break
                    lo, hi = min(h[0], anchor[0]), max(h[1], anchor[1])
                    if part_of[h[0]] != part_of[anchor[0]] and self._mention_inside(lo, hi):
                        continue
                    best = h
                    break
                if best is None:
                    ok = False
                    break
                terms.append(best)
            if not ok:
                continue
            seen[sent] = seen.get(sent, 0) + 1
            a = min(t[0] for t in terms)
            b = max(t[1] for t in terms)
            out.append(_Occurrence(a, b, tuple(terms), False,
                                   (self.tokens[a].start, self.tokens[b - 1].end)))
        return out

    def affirmed(self, occ: _Occurrence) -> bool:
        if occ.formula:
            return True
        skip = {i for a, b in occ.terms for i in range(a, b)}
        cues: set[int] = set()
        last = max(occ.terms)
        for a, b in occ.terms:
            cues |= negation_cues(self.tokens, self.st, a, b, skip, with_post=(a, b) == last)
        # A reported or refuted claim means its opposite, unless the user already negated it
        # ("Post-LN's gradient does not grow (the common claim gets this backwards)").
        refuted = not cues and self.st.segment_of[occ.start] in self.refuting
        return (len(cues) + refuted) % 2 == 0

    def evidence(self, occ: _Occurrence, subject_start: int | None) -> tuple[str, tuple[tuple[int, int], ...]]:
        a, b = occ.char_span
        if subject_start is not None:
            a = min(a, self.tokens[subject_start].start)
        seg_a, seg_b = self.st.segment_span[self.st.segment_of[occ.start]]
        seg_start, seg_end = self.tokens[seg_a].start, self.tokens[seg_b - 1].end
        if seg_end - seg_start <= 160:
            a, b = min(a, seg_start), max(b, seg_end)
        quote = self.prep.quote(a, b)
        spans = tuple(self.prep.span(self.tokens[x].start, self.tokens[y - 1].end) for x, y in occ.terms)
        return quote, spans

    def subject_mention_start(self, occ: _Occurrence, subject: str | None) -> int | None:
        if subject is None:
            return None
        seg = self.st.segment_of[occ.start]
        for m in reversed(self.st.mentions):
            if m.end <= occ.start and m.subject == subject and self.st.segment_of[m.start] == seg:
                return m.start
        return None

    def _subject_fits(self, claim: Claim, subject: str | None, formula: bool, mistake: bool) -> bool:
        if claim.any_subject_but_about:
            return subject is not None and subject != claim.about and subject in claim.rivals
        if claim.about is not None and subject != claim.about:
            # An unattributed formula still shows the structure; it earns the point but cannot be a mistake.
            return formula and subject is None and not mistake
        return True

    def ellipses(self, occ: _Occurrence) -> list[tuple[str, bool, int, int]]:
        """Elliptical follow-ups of a claim: "Post-LN needs warm-up, Pre-LN doesn't" / "Pre-LN 不需要".

        Returns (subject, negated, first token, last token + 1) for each clause after the claim, in the
        same sentence, that names another subject and says nothing but "does (not)/too/不/也".
        """
        if occ.formula:
            return []
        st, toks = self.st, self.tokens
        last = occ.end - 1
        sent, part = st.sentence_of[last], st.part_of[last]
        out: list[tuple[str, bool, int, int]] = []
        i = occ.end
        while i < len(toks) and st.sentence_of[i] == sent and st.part_of[i] <= part + 3:
            p = st.part_of[i]
            j = i
            while j < len(toks) and st.part_of[j] == p and st.sentence_of[j] == sent:
                j += 1
            if p > part:
                found = [m for m in st.mentions if i <= m.start < j]
                rest = [k for k in range(i, j) if toks[k].kind in ("w", "c") and k not in self.mention_tokens]
                if (len(found) == 1 and len(rest) <= 6
                        and all(toks[k].key in _ELLIPSIS_KEYS for k in rest)):
                    negated = sum(1 for k in rest if _is_neg(toks, k)) % 2 == 1
                    if found[0].contrast:
                        # "..., unlike Pre-LN" / "..., 与 Pre-LN 不同": the opposite holds for it
                        if not any(toks[k].key in (stem("unlike"), "不") for k in rest):
                            i = j
                            continue
                        negated = True
                    out.append((found[0].subject, negated, i, j))
            i = j
        return out

    def match_claim(self, claim: Claim, mistake: bool) -> tuple[str, tuple[tuple[int, int], ...]] | None:
        for matcher in claim.matchers:
            for occ in self.occurrences(matcher):
                if not occ.formula and not self.claim_like(self.st.segment_of[occ.start]):
                    continue
                if mistake and occ.start in self.quoted:
                    continue
                subject = self.st.subject_for(occ.start, occ.end)
                affirmed = self.affirmed(occ)
                if self._subject_fits(claim, subject, occ.formula, mistake) and affirmed == claim.affirm:
                    return self.evidence(occ, self.subject_mention_start(occ, subject))
                for other, negated, a, b in self.ellipses(occ):
                    if self._subject_fits(claim, other, False, mistake) and (affirmed != negated) == claim.affirm:
                        quote = self.prep.quote(self.tokens[occ.start].start, self.tokens[b - 1].end)
                        spans = (self.prep.span(self.tokens[a].start, self.tokens[b - 1].end),)
                        return quote, spans
        return None


def score_answer(card: Card, text: str | bytes) -> ScoreResult:
    """Score `text` against `card`: per point hit/miss with evidence, mistakes with explanations.

    Never raises on any input; the total is always in [0, 100]; the empty answer scores 0.
    """
    rubric = rubric_for(card)
    answer = _Answer(rubric, text)
    sections: list[SectionResult] = []
    mistakes: list[MistakeResult] = []
    for section in card.sections:
        points: list[PointResult] = []
        for point in section.points:
            found = answer.match_claim(rubric.point_claims[point.id], mistake=False)
            evidence, spans = found if found else ("", ())
            points.append(PointResult(point.id, point.claim, point.weight, found is not None, evidence, spans))
            for m in point.mistakes:
                bad = answer.match_claim(rubric.mistake_claims[(point.id, m.id)], mistake=True)
                if bad:
                    mistakes.append(MistakeResult(m.id, point.id, m.explanation, m.penalty, bad[0], bad[1]))
        sections.append(SectionResult(section.id, section.title, tuple(points)))
    notes: list[str] = []
    if answer.prep.truncated:
        notes.append("Only the first 60,000 characters of this answer were scored.")
    if answer.prep.dropped_repeats:
        notes.append(f"{answer.prep.dropped_repeats} repeated line(s) were counted once.")
    return ScoreResult(card.id, tuple(sections), tuple(mistakes), tuple(notes))
