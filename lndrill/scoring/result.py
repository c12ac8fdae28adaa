"""Score results: what was hit, what was missed, what was wrong, and why."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from lndrill.cards.schema import Text
from lndrill.scoring.form import Form

#: Rubric share -> interviewer's grade, piecewise linear. Interviewers give a complete, correct answer 90-100
#: (rarely 100) and one part done well about 25-35 (the graders' anchors), where the rubric gives 100 and about
#: 10. The ends were fitted by least squares (ridge towards the identity) on blind batches b-s of the tuning half and
#: checked on batches t-x, written and graded later, and on 49 real third-party passages: mean absolute difference
#: 7.71 -> 6.77 and 13.1 -> 12.1. Between 45 and 90 the map was the identity until the graders' own means by rubric
#: share (answers without a mistake, tuning half) showed the bend: share 50-65 graded 46-62 (scored 52-67), share
#: 75-85 graded 82-88 (scored 79-84): a complete answer missing one point is still complete to an interviewer, a half
#: answer is less than half. The knots at 55, 65, 70 and 80 were chosen on batches b-zt and checked on the later ones:
#: rho 0.9345 -> 0.9406 there, MAD 5.46 -> 5.19. The map is monotone, but it sets the rubric's weight against the
#: additive adjustments (specifics, form, elaboration) and the error cap, so it moves rankings a little: tuning half
#: 0.900 -> 0.903, graded >= 85 under 80 31 -> 11; frozen half (1,690, aggregates only) 0.901 -> 0.905, MAD 6.25 ->
#: 6.06. The top was 95 until `elaboration` came: 95 plus up to 3 for specifics and 4 for elaboration held 620 tuning
#: answers at 100, tied; at 93 none is, and the complete answers' bias (+2) is smaller.
#: The top is 90 since the tuning half reached 11,206 answers: blind graders mark a complete answer 90ish whatever the
#: last tenth of the rubric, and tell complete answers apart by how much they explain and cite (`elaboration`,
#: `specifics`), not by that tenth; error-free answers scoring 90-99 were graded 3 points under their scores, 100 six.
#: Chosen on the tuning batches before 126 (top 93 -> 92, 91, 90, 89, 88: rho 0.9037 -> 0.9050 at 90, the best; MAD
#: 4.59 -> 4.06), checked on the six read this session (126 to 136, even): rho 0.9326 -> 0.9436, MAD 4.75 -> 3.70,
#: answers graded >= 85 under 80 unchanged (1).
INTERVIEWER_SCALE: tuple[tuple[float, float], ...] = (
    (0, 0), (5, 6), (10, 14), (20, 25.5), (30, 31.3), (45, 45), (55, 52), (65, 61), (70, 70), (80, 85), (90, 90),
    (100, 90))


#: Specifics: among complete answers, interviewers grade the ones that cite concrete values (constants, step
#: counts, BLEU figures, bounds) higher: on the tuning half, within answers graded >= 85, the count of numbers in
#: the text rank-correlates 0.55 with the grade (the rubric share: 0.29), on every card (0.46-0.79). So an answer
#: that already earns most of the rubric (`SPECIFICS_FROM` points, no mistake) gains SPECIFICS_SLOPE *
#: (ln(1 + values) - SPECIFICS_PIVOT), within [SPECIFICS_MIN, SPECIFICS_MAX]: nothing for 11 values or fewer,
#: +3 for 24 or more. Never a cut: a correct, complete answer in words is not marked down. Fitted on blind
#: batches b-v, checked on w-za (written later): rho 0.830 -> 0.856, MAD 7.24 -> 7.21, strong answers (graded
#: >= 85) scoring under 80: 23 -> 20. (Allowing a cut of 2 for few values gave rho 0.863 but kept 24 of them
#: under 80.) Adversarial and partial answers never reach it.
SPECIFICS_FROM = 70
SPECIFICS_MIN = 0
SPECIFICS_MAX = 3
SPECIFICS_SLOPE = 4.0
SPECIFICS_PIVOT = 2.5


#: A wrong claim caps the total: interviewers grade an answer that states a real error as partial however complete
#: the rest is (the graders' anchor: "good but with a real factual error: 45-69"). On the tuning half, answers
#: charged one mistake whose rubric share before penalties was 80-100 were graded 63-67 while the scorer gave them
#: 74-87 (n = 117); a least-squares fit over answers charged one or two mistakes gives grade ~ 42 + 0.26 * share -
#: 2.6 * mistakes. So with mistakes the total is at most ERROR_CAP_BASE + ERROR_CAP_SLOPE * (share before
#: penalties) - ERROR_CAP_STEP * (mistakes - 1): 59 for a complete answer with one wrong claim, 56 with two.
#: Tuning half: MAD 5.31 -> 4.92, rho 0.885 -> 0.885, bias +1.2 -> +0.6. Never raises a total.
#: The base was 45 until batches zi-zo put answers with one or two real errors at 45-55 (the earlier batches graded
#: such answers about 58) while they scored 64-70: at 40, MAD on batches b-zh 4.91 -> 4.75, zi-zo 5.54 -> 5.19,
#: third-party-style texts (real-tune) 7.53 -> 7.30, rho unchanged on all three (0.908, 0.891, 0.885); 35
#: over-corrects b-zh (5.19).
#: 34 since the tuning half reached 8,164 answers: in every one of the 44 batches written since zc (under the
#: current writers' and graders' briefs, as is the whole frozen half after its first batch), complete answers with
#: one or two real errors were graded 4-13 points under their scores (about -10 in the latest 30), while the 25
#: batches before zc graded them 0-5 over. Chosen on the first half of those 44 batches (the lowest MAD that keeps
#: rho: 40 0.9380 / 4.85, 37 0.9381 / 4.62, 34 0.9382 / 4.42, 31 0.9376 / 4.33), checked on the second half: rho
#: 0.9400 -> 0.9393, MAD 5.28 -> 4.74; the batches before zc 0.9328 / 4.23 -> 0.9293 / 4.74; the whole tuning
#: half 0.9028 / 4.76 -> 0.9021 / 4.64. A complete answer with one wrong claim now scores at most 59.
ERROR_CAP_BASE = 34.0
ERROR_CAP_SLOPE = 0.25
ERROR_CAP_STEP = 3.0


#: What the way a complete answer is written takes off its total (see `lndrill.scoring.form`), never taking it below
#: FORM_FLOOR. Blind graders mark a complete answer written as terse notes, or as a spoken transcript full of
#: hesitations, about 5 points below the same content in explained prose, where the rubric finds every point in all
#: three (tuning half, complete answers without mistakes, grade minus score: prose -0.6, notes -4.9, spoken -5.4).
#: Fitted on blind batches b-zh only, checked on batches zi-zn and 38 (written later): rho 0.835 -> 0.885 and
#: 0.842 -> 0.914, MAD 6.15 -> 5.47 and 6.94 -> 6.12 (b-zh itself 0.881 -> 0.909). The floor keeps answers graded
#: 85 or more from falling under 80 (without it 40 -> 71 of them on b-zh). Real passages never reach it. Like
#: `specifics`, it applies only to a complete answer (`SPECIFICS_FROM` rubric points, no mistake).
NOTES_CUT = 6
SPOKEN_CUT = 6
FORM_FLOOR = 85


#: Elaboration: among complete answers without mistakes, interviewers grade the ones that explain more (say why, give
#: the steps and the consequences) higher than the ones that name the same points in a few sentences. The count of
#: statements (clauses that claim something, bare lists of terms not counted) measures it: on the tuning half, among
#: answers that earn the whole rubric without a mistake, it rank-correlates 0.62 with the grade within one blind batch
#: and card, where the scorer's total (89-98, set by specifics and form alone) says little. A complete answer gains or loses
#: ELABORATION_SLOPE * ln((1 + statements) / (1 + ELABORATION_PIVOT)) within +-ELABORATION_MAX: nothing at 22 statements
#: (the median complete answer), +4 from about 37, -4 at 13 or fewer, a cut never taking the total below FORM_FLOOR.
#: Pivot, slope and bound fitted on blind batches b-zt (5,122 answers), checked on the batches written and graded
#: after them (2,691): rho 0.897 -> 0.925 there, better on each of their 25 batches and each card. As scored (with
#: the top of INTERVIEWER_SCALE at 93): tuning half 0.889 -> 0.900, MAD 5.10 -> 4.89, answers graded >= 85 scoring
#: under 80 37 -> 31; frozen half (1,573 answers nobody has read) 0.870 -> 0.899, MAD 6.38 -> 6.23. Like `specifics`,
#: it applies only to a complete answer (`SPECIFICS_FROM` rubric points, no mistake): more words never make up for a
#: missing point or excuse a wrong one.
ELABORATION_SLOPE = 8.0
ELABORATION_PIVOT = 22
ELABORATION_MAX = 4


#: Filler that joins topics without saying anything about them ("X is fundamentally about the interplay between A, B
#: and C", "sits at the intersection of", "geometry-aware"): an answer that leans on FILLER_LIMIT or more different
#: such phrases reads as a keyword soup, which graders put at 0-19, and scores at most FILLER_CAP. On the tuning half
#: (3,952 answers) two or more of them occur in 22 of the 50 keyword soups (English and Chinese) and in no other
#: answer; one of them alone caps nothing.
FILLER_LIMIT = 2
FILLER_CAP = 15


#: Points the question itself states ("Pre-LN can drop warm-up, so why do Pre-LN LLMs still warm up?" states both
#: that Pre-LN can drop it and that LLMs still use it): an answer that earns only those has restated the question,
#: which graders put at 0-10, and scores at most GIVEN_ONLY_CAP. On the tuning half (3,718 answers) this holds 14
#: answers, 13 of them prompt echoes and keyword soups graded 2-9 that scored 2-28 (one partial graded 31 that adds
#: only "warm-up is a standard trick" drops from 28 to 10); blind batch 32: MAD 7.05 -> 6.8.
GIVEN_ONLY_CAP = 10


#: An answer much of whose text stands in bare lists of terms, with little said about them ("RMSNorm: a_i / RMS(a).
#: LayerNorm: mu, sigma^2, gamma, beta. re-centering, re-scaling, invariance. LLaMA, T5, GPT-2, ..."): a keyword soup,
#: however many correct formulas it lists, which graders put at 0-15. At LIST_SHARE_LIMIT or more of its words in such
#: lists it scores at most LIST_CAP. On the tuning half (6,760 answers) every answer at 0.5 or more (46) is a keyword
#: soup, and no other answer is; at 0.6, 45. The limit was 0.6 until the tuning half reached 8,164 answers: every
#: answer at 0.35 or more (68) is a keyword soup there, the highest other answer is at 0.30 (a medium-error answer
#: graded 60), and soups at 0.42-0.54 with a few sentences among the lists were graded 6.5-9 but scored 28-45. At 0.4
#: four more soups drop to 15 (28-45 before) and nothing else moves.
LIST_SHARE_LIMIT = 0.4
LIST_CAP = 15


#: An answer charged this many different wrong claims is wrong throughout (the graders' anchor for "confidently
#: wrong": 0-19), however many rubric words it also uses, and scores at most WRONG_THROUGHOUT_CAP. On the tuning half
#: (7,462 answers) every answer charged 5 or more is an adversarial one (swapped or wrong throughout; 186 of them,
#: graded 2.5-24), and 7 of those still scored 15-31 (mean grade 9); at 4 the medium-error answers begin (4 of 53,
#: graded 42-55). Batch 73 (read after scoring it): a swapped sandwich-ln answer charged 6, graded 6.5, scored 27.
WRONG_THROUGHOUT_MISTAKES = 5
WRONG_THROUGHOUT_CAP = 12.0


def error_cap(share_before_penalties: float, mistakes: int) -> float | None:
    """The highest total an answer charged `mistakes` wrong claims can get, or None without mistakes."""
    if mistakes <= 0:
        return None
    if mistakes >= WRONG_THROUGHOUT_MISTAKES:
        return WRONG_THROUGHOUT_CAP
    return ERROR_CAP_BASE + ERROR_CAP_SLOPE * share_before_penalties - ERROR_CAP_STEP * (mistakes - 1)


def specifics_adjustment(values: int) -> int:
    """Points added to a complete answer's total for the concrete values it cites (0 to SPECIFICS_MAX)."""
    raw = SPECIFICS_SLOPE * (math.log1p(max(0, values)) - SPECIFICS_PIVOT)
    return int(round(max(SPECIFICS_MIN, min(SPECIFICS_MAX, raw))))


def elaboration_adjustment(statements: int) -> int:
    """Points a complete answer's total moves for how many statements it makes (-ELABORATION_MAX..+ELABORATION_MAX),
    before the `FORM_FLOOR` limit on cuts."""
    raw = ELABORATION_SLOPE * math.log((1 + max(0, statements)) / (1 + ELABORATION_PIVOT))
    return int(round(max(-ELABORATION_MAX, min(ELABORATION_MAX, raw))))


def to_interviewer_scale(share: float) -> float:
    """A rubric share (0-100) on the interviewer's scale (`INTERVIEWER_SCALE`)."""
    for (x0, y0), (x1, y1) in zip(INTERVIEWER_SCALE, INTERVIEWER_SCALE[1:], strict=False):
        if share <= x1:
            return y0 + (y1 - y0) * (max(share, x0) - x0) / (x1 - x0)
    return INTERVIEWER_SCALE[-1][1]


@dataclass(frozen=True)
class PointResult:
    """One rubric point: hit or missed, and the user's words that earned it."""

    id: str
    claim: Text
    weight: float
    hit: bool
    evidence: str = ""
    spans: tuple[tuple[int, int], ...] = ()
    overruled: bool = False
    given: bool = False  # the card's question itself states this point (see GIVEN_ONLY_CAP)


@dataclass(frozen=True)
class SectionResult:
    """Points earned in one section."""

    id: str
    title: Text
    points: tuple[PointResult, ...]

    @property
    def earned(self) -> float:
        """Weight of the points hit."""
        return sum(p.weight for p in self.points if p.hit)

    @property
    def max(self) -> float:
        """Weight of all points."""
        return sum(p.weight for p in self.points)


@dataclass(frozen=True)
class MistakeResult:
    """A wrong claim found in the answer and what it cost."""

    id: str
    point_id: str
    explanation: Text
    penalty: float
    evidence: str = ""
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ScoreResult:
    """The whole score of one answer to one card."""

    card_id: str
    sections: tuple[SectionResult, ...]
    mistakes: tuple[MistakeResult, ...]
    notes: tuple[str, ...] = field(default=())
    values: int = 0  # concrete values (numbers) the answer cites: see `specifics`
    filler: int = 0  # different filler phrases the answer uses: see `FILLER_LIMIT`
    written: Form = field(default=Form(False, 0))  # terse notes, spoken hesitations: see `form`
    listed: float = 0.0  # share of the answer's words in bare lists of terms: see `LIST_SHARE_LIMIT`
    statements: int | None = None  # clauses that claim something (bare lists not counted; None: not counted): see `elaboration`

    @property
    def max(self) -> float:
        """Sum of all point weights."""
        return sum(s.max for s in self.sections)

    @property
    def penalty(self) -> float:
        """Total points lost to mistakes."""
        return sum(m.penalty for m in self.mistakes)

    @property
    def share(self) -> float:
        """Points hit minus mistake penalties, as a percentage of all points (0-100, not rounded)."""
        if self.max <= 0:
            return 0.0
        earned = sum(s.earned for s in self.sections) - self.penalty
        return max(0.0, min(100.0, 100 * earned / self.max))

    @property
    def points(self) -> int:
        """The rubric total 0-100: what the section bars add up to."""
        return int(round(self.share))

    @property
    def _scaled(self) -> int:
        """The rubric share on the interviewer's scale, rounded: what the adjustments below add to."""
        return int(round(to_interviewer_scale(self.share)))

    @property
    def specifics(self) -> int:
        """What the answer's concrete values add to the total (0..+3); 0 unless it earns at least
        `SPECIFICS_FROM` rubric points with no mistake (see `specifics_adjustment`)."""
        if self.mistakes or self.share < SPECIFICS_FROM:
            return 0
        return specifics_adjustment(self.values)

    @property
    def form(self) -> int:
        """What the way a complete answer is written takes off its total (`NOTES_CUT` for terse notes, `SPOKEN_CUT`
        for a spoken transcript, never below `FORM_FLOOR`); 0 unless it earns at least `SPECIFICS_FROM` rubric points
        with no mistake."""
        if self.mistakes or self.share < SPECIFICS_FROM:
            return 0
        cut = (NOTES_CUT if self.written.notes else 0) + (SPOKEN_CUT if self.written.spoken else 0)
        before = self._scaled + self.specifics
        return -min(cut, max(0, before - FORM_FLOOR))

    @property
    def elaboration(self) -> int:
        """What how much a complete answer explains moves its total (`elaboration_adjustment`, at most ELABORATION_MAX
        either way, a cut never below `FORM_FLOOR`); 0 unless it earns at least `SPECIFICS_FROM` rubric points with no mistake, or when its
        statements were not counted (a result built by hand)."""
        if self.mistakes or self.share < SPECIFICS_FROM or self.statements is None:
            return 0
        adj = elaboration_adjustment(self.statements)
        if adj >= 0:
            return adj
        before = self._scaled + self.specifics + self.form
        return -min(-adj, max(0, before - FORM_FLOOR))

    @property
    def earned_share(self) -> float:
        """Points hit as a percentage of all points, before mistake penalties (0-100, not rounded)."""
        if self.max <= 0:
            return 0.0
        return max(0.0, min(100.0, 100 * sum(s.earned for s in self.sections) / self.max))

    @property
    def uncapped(self) -> int:
        """The total before `error_cap`: the rubric share through `to_interviewer_scale`, plus `specifics`, `form` and
        `elaboration`."""
        return max(0, min(100, self._scaled + self.specifics + self.form + self.elaboration))

    @property
    def capped(self) -> int:
        """Points the caps took off the total: the wrong claims' (`error_cap`), the filler's (`FILLER_CAP`) and a
        restated question's (`GIVEN_ONLY_CAP`); 0 when none applies or the total is under them."""
        return self.uncapped - self.score

    @property
    def given_only(self) -> bool:
        """Every point the answer earns is one the question itself states: it restates the question."""
        hit = [p for s in self.sections for p in s.points if p.hit]
        return bool(hit) and all(p.given for p in hit)

    @property
    def filler_capped(self) -> bool:
        """The total was held at `FILLER_CAP` because the answer leans on filler phrases."""
        return self.cap_reason == "filler"

    @property
    def score(self) -> int:
        """The total 0-100 on an interviewer's scale: the rubric share through `to_interviewer_scale`, plus
        `specifics` for a complete answer, at most `error_cap` when the answer states something wrong, at most
        `FILLER_CAP` when it leans on filler phrases, at most `GIVEN_ONLY_CAP` when it only restates the question and at
        most `LIST_CAP` when it is largely bare lists of terms."""
        return self._capped_total()[0]

    @property
    def cap_reason(self) -> str | None:
        """Which cap set the total, when one took something off: "error" (`error_cap`), "given" (`GIVEN_ONLY_CAP`),
        "filler" (`FILLER_CAP`) or "list" (`LIST_CAP`); the last one that lowered it."""
        return self._capped_total()[1]

    def _capped_total(self) -> tuple[int, str | None]:
        total, reason = self.uncapped, None
        cap = error_cap(self.earned_share, len(self.mistakes))
        if cap is not None and total > max(0, int(round(cap))):
            total, reason = max(0, int(round(cap))), "error"
        if self.given_only and total > GIVEN_ONLY_CAP:
            total, reason = GIVEN_ONLY_CAP, "given"
        if self.filler >= FILLER_LIMIT and total > FILLER_CAP:
            total, reason = FILLER_CAP, "filler"
        if self.listed >= LIST_SHARE_LIMIT and total > LIST_CAP:
            total, reason = LIST_CAP, "list"
        return total, reason

    def section_score(self, section: SectionResult) -> int:
        """A section's earned points on the same 0-100 scale as the total."""
        return int(round(100 * section.earned / self.max)) if self.max else 0

    def section_max(self, section: SectionResult) -> int:
        """A section's maximum on the same 0-100 scale as the total."""
        return int(round(100 * section.max / self.max)) if self.max else 0

    def overrule(self, point_id: str, hit: bool) -> ScoreResult:
        """A copy where the user has marked `point_id` as hit or missed (the scorer was wrong)."""
        sections = []
        for s in self.sections:
            pts = tuple(replace(p, hit=hit, overruled=True) if p.id == point_id else p for p in s.points)
            sections.append(replace(s, points=pts))
        return replace(self, sections=tuple(sections))

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """The JSON shape printed by `lndrill score --json`."""
        return {
            "card": self.card_id,
            "score": self.score,
            "points": self.points,
            "specifics": self.specifics,
            "form": self.form,
            "form_reason": [r for r, on in (("notes", self.written.notes), ("spoken", self.written.spoken)) if on and self.form],
            "elaboration": self.elaboration,
            "statements": self.statements,
            "capped": self.capped,
            "filler": self.filler,
            "listed": round(self.listed, 2),
            "given_only": self.given_only,
            "cap_reason": self.cap_reason,
            "sections": [
                {
                    "id": s.id,
                    "title": s.title.get(lang),
                    "score": self.section_score(s),
                    "max": self.section_max(s),
                    "points": [
                        {"id": p.id, "hit": p.hit, "evidence": p.evidence, "claim": p.claim.get(lang),
                         "weight": p.weight, "given": p.given, "spans": [list(x) for x in p.spans]}
                        for p in s.points
                    ],
                }
                for s in self.sections
            ],
            "mistakes": [
                {"id": m.id, "point": m.point_id, "evidence": m.evidence, "explanation": m.explanation.get(lang),
                 "penalty": round(100 * m.penalty / self.max, 1) if self.max else 0,
                 "spans": [list(x) for x in m.spans]}
                for m in self.mistakes
            ],
            "notes": list(self.notes),
        }
