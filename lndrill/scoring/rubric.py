"""Compile a card's points into matchers: phrases expanded from the vocabulary, formulas parsed,
values bound to their symbols. Anything over the scorer's bounds is reported and left out."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from lndrill.cards.schema import Card, Recogniser
from lndrill.scoring.formula import canonical, parse_binding
from lndrill.scoring.lexicon import (
    CJK,
    MAX_PHRASES_PER_CARD,
    NUMBER,
    WORD,
    Lexicon,
    Phrase,
    cjk_same,
    compile_phrase,
    lexicon_words,
    phrase_problem,
    tokenize,
)
from lndrill.scoring.normalize import prepare
from lndrill.scoring.vocabulary import other_methods, shared_vocabulary


@dataclass(frozen=True)
class Matcher:
    """A compiled recogniser: concept groups of phrases, a canonical formula, or a bound value."""

    groups: tuple[tuple[Phrase, ...], ...] = ()
    formula: str | None = None
    binding: tuple[str, tuple[float, ...]] | None = None
    #: Phrases that cancel a match when they stand in its sentence before its end.
    unless: tuple[Phrase, ...] = ()
    #: A mistake's recogniser: its `unless` phrases also cancel it from the elaboration after a colon that
    #: follows the match ("the norm grows linearly: E||h||^2 <= ..." says the squared norm).
    unless_reads_on: bool = False
    #: Phrases that cancel a match from the text it stands under (earlier in its block, its item's label, the
    #: heading above it).
    unless_context: tuple[Phrase, ...] = ()
    #: Phrases that cancel a match when they stand between its first and last term (not elsewhere in its sentence).
    unless_within: tuple[Phrase, ...] = ()
    #: The subject the words are said of, when it is not the claim's own (see cards.schema.Recogniser.said_of).
    said_of: str | None = None
    #: A formula's named coefficients ("omega" in LN(x + omega*F(x))): the canonical form renames them all alike.
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """What must be said (matchers), about whom (`about`) and with which stance."""

    about: str | None
    affirm: bool
    matchers: tuple[Matcher, ...]
    rivals: tuple[str, ...] = ()
    any_subject_but_about: bool = False


@dataclass
class Rubric:
    """A card ready for scoring, plus any problems found while compiling it (for `cards check`)."""

    subjects: dict[str, tuple[Phrase, ...]]
    lexicon: Lexicon
    point_claims: dict[str, Claim]
    mistake_claims: dict[tuple[str, str], Claim]
    prompt_grams: frozenset[tuple[str, str, str]] = frozenset()
    default_subject: str | None = None
    problems: list[tuple[int, str]] = field(default_factory=list)
    phrases: tuple[Phrase, ...] = ()
    #: Points the card's own question states (found by reading the prompt as an answer; see engine.rubric_for).
    given_points: frozenset[str] = frozenset()
    #: The names of the placements ("pre-layer normalization", "前置层归一化") on a card that does not have them as
    #: subjects: a norm's name inside one of them is part of the placement's name, not a mention of the norm.
    placement_names: tuple[Phrase, ...] = ()
    #: The names of other normalisation layers and initialisation schemes (QK-Norm, BatchNorm, ReZero, ...): a heading
    #: that names one of them and none of the card's subjects, or a sentence that opens with one, heads text about that
    #: method, so the claims under it that name no subject do not fall back to the card's default subject.
    other_method_names: tuple[Phrase, ...] = ()

    def phrases_for(self, keys: set[str]) -> list[Phrase]:
        """The concept phrases that could match a text whose token keys are `keys` (by first unit, and by its later units
        or the compound they make when joined up): any other concept phrase has no match in it."""
        if self._by_first is None:
            self._by_first = {}
            for p in self.phrases:
                first = "" if p.prefix[0] else p.units[0]
                self._by_first.setdefault(first, []).append(p)
                for same in cjk_same(first) if p.kinds[0] == CJK else ():  # "和" also starts at "与"
                    self._by_first.setdefault(same, []).append(p)
                if p.joined:
                    self._by_first.setdefault(p.joined, []).append(p)
        out = list(self._by_first.get("", ()))
        for k in keys & self._by_first.keys():
            out.extend(self._by_first[k])
        return [p for p in dict.fromkeys(out) if (p.joined and p.joined in keys) or p.later_units_in(keys)]

    _by_first: dict[str, list[Phrase]] | None = None

    @cached_property
    def subject_versions(self) -> dict[str, frozenset[str]]:
        """Per subject, the version numbers its names carry ("gpt-2", "gpt 3": {"2", "3"}; "llama": none)."""
        return {subject: frozenset(u for ph in phrases for u, k in zip(ph.units, ph.kinds, strict=True) if k == NUMBER)
                for subject, phrases in self.subjects.items()}


def _with_subject_spellings(phrases: list[str]) -> list[str]:
    """A card's list that names a placement or method by a shared subject's first spelling ("pre-ln") accepts
    every spelling of it ("pre-layernorm", "pre layer normalization", ...), as the subject itself does."""
    shared_subjects, _ = shared_vocabulary()
    have = set(phrases)
    out = list(phrases)
    for spellings in shared_subjects.values():
        if spellings and spellings[0] in have:
            out.extend(p for p in spellings if p not in have)
            have.update(spellings)
    return out


class _Compiler:
    def __init__(self, card: Card) -> None:
        self.card = card
        self.problems: list[tuple[int, str]] = []
        self.count = 0
        self._cache: dict[str, Phrase] = {}
        self._compiled: dict[tuple[object, ...], Phrase] = {}

    def phrase(self, text: str, line: int, where: str) -> Phrase | None:
        if text in self._cache:
            return self._cache[text]
        why = phrase_problem(text)
        if why is not None:
            self.problems.append((line, f"{where}: phrase '{text[:40]}' {why}"))
            return None
        if self.count >= MAX_PHRASES_PER_CARD:
            if self.count == MAX_PHRASES_PER_CARD:
                self.count += 1
                self.problems.append((line, f"{where}: the card has more than {MAX_PHRASES_PER_CARD} phrases; "
                                            "the rest are ignored"))
            return None
        p = compile_phrase(text)
        if p.empty:
            self.problems.append((line, f"{where}: phrase '{text}' has nothing to match"))
            return None
        # Spellings that compile to the same phrase ("grows with depth", "grow with depth") are one phrase: found
        # once per answer, and counted once against the card's limit.
        # (what the matcher reads from the spelling itself stays apart: an equation, a closing bracket)
        key = (p.units, p.kinds, p.prefix, p.joined, p.tight, "=" in text and text.count("(") == text.count(")"),
               text.rstrip().endswith(")"))
        same = self._compiled.get(key)
        if same is not None:
            self._cache[text] = same
            return same
        self.count += 1
        self._compiled[key] = p
        self._cache[text] = p
        return p

    def expand(self, alt: str, line: int) -> list[str]:
        _, concepts = shared_vocabulary()
        if alt.startswith("@"):
            name = alt[1:]
            if name in self.card.vocab:
                nested = [x for x in self.card.vocab[name] if x.startswith("@")]
                if nested:
                    self.problems.append((line, f"vocabulary '@{name}' lists '{nested[0]}': a vocab list holds "
                                                "phrases, not other @names"))
                return _with_subject_spellings([x for x in self.card.vocab[name] if not x.startswith("@")])
            if name in concepts:
                return list(concepts[name])
            self.problems.append((line, f"unknown vocabulary '@{name}' (define it under 'vocab' or use a shared one)"))
            return []
        return [alt]

    def matchers(self, recs: tuple[Recogniser, ...], where: str, charges: bool = False) -> tuple[Matcher, ...]:
        out: list[Matcher] = []
        for r in recs:
            if r.formula is not None:
                canon = canonical(r.formula)
                if canon is None or "(" not in canon:
                    self.problems.append((r.line, f"{where}: formula '{r.formula}' does not parse as a structured formula"))
                    continue
                out.append(Matcher(formula=canon, names=coefficient_names(r.formula)))
                continue
            if r.value is not None:
                bound = parse_binding(r.value)
                if bound is None:
                    self.problems.append((r.line, f"{where}: value '{r.value}' is not 'symbol = value' "
                                                  "(e.g. 'alpha = (2N)^(1/4)')"))
                    continue
                out.append(Matcher(binding=bound))
                continue
            groups: list[tuple[Phrase, ...]] = []
            for g in r.concepts:
                phrases: list[Phrase] = []
                for alt in g:
                    for text in self.expand(alt, r.line):
                        p = self.phrase(text, r.line, where)
                        if p is not None:
                            phrases.append(p)
                if not phrases:
                    self.problems.append((r.line, f"{where}: a concept group has no usable phrase, so the point can never be hit"))
                if len(r.concepts) == 1:
                    for p in phrases:
                        if len(p.units) == 1 and p.kinds[0] != "c" and len(p.units[0]) == 1:
                            # "≈ d" or "~0" leave one letter or digit, which alone matches almost any answer
                            self.problems.append((r.line, f"{where}: phrase '{p.source}' is the single character "
                                                          f"'{p.units[0]}' in a one-group recogniser"))
                    phrases = [p for p in phrases if not (len(p.units) == 1 and p.kinds[0] != "c" and len(p.units[0]) == 1)]
                groups.append(tuple(dict.fromkeys(phrases)))
            unless = [p for alt in r.unless for text in self.expand(alt, r.line)
                      if (p := self.phrase(text, r.line, where)) is not None]
            context = [p for alt in r.unless_context for text in self.expand(alt, r.line)
                       if (p := self.phrase(text, r.line, where)) is not None]
            within = [p for alt in r.unless_within for text in self.expand(alt, r.line)
                      if (p := self.phrase(text, r.line, where)) is not None]
            if r.said_of is not None and r.said_of not in self.card.subjects:
                self.problems.append((r.line, f"{where}: 'said_of: {r.said_of}' is not one of the card's subjects "
                                              f"({', '.join(self.card.subjects)})"))
                continue
            out.append(Matcher(groups=tuple(groups), unless=tuple(dict.fromkeys(unless)), said_of=r.said_of,
                               unless_reads_on=charges and bool(unless), unless_context=tuple(dict.fromkeys(context)),
                               unless_within=tuple(dict.fromkeys(within))))
        return tuple(out)


#: Coefficient names a formula may use; normalisation spells Greek letters this way (ω -> omega).
_COEFFICIENTS = frozenset({"alpha", "beta", "gamma", "delta", "epsilon", "eta", "lambda", "mu", "sigma", "tau", "omega"})


def coefficient_names(formula: str) -> tuple[str, ...]:
    """The named coefficients of a formula, as normalised text spells them ("LN(ω*x + F(x))" -> ("omega",))."""
    return tuple(dict.fromkeys(t.key for t in tokenize(prepare(formula).text) if t.key in _COEFFICIENTS))


def compile_rubric(card: Card) -> Rubric:
    """Compile `card` for scoring. Problems are collected, never raised."""
    comp = _Compiler(card)
    problems = comp.problems
    shared_subjects, _ = shared_vocabulary()
    subjects: dict[str, tuple[Phrase, ...]] = {}
    for s in card.subjects:
        texts = card.vocab.get(s) or shared_subjects.get(s)
        if not texts:
            problems.append((1, f"subject '{s}' has no phrases (add it under 'vocab')"))
            continue
        subjects[s] = tuple(p for t in texts if (p := comp.phrase(t, 1, f"subject '{s}'")) is not None)

    def check_subject(about: str | None, line: int, where: str) -> None:
        if about is not None and about not in card.subjects:
            problems.append((line, f"{where}: 'about: {about}' is not one of the card's subjects ({', '.join(card.subjects)})"))

    point_claims: dict[str, Claim] = {}
    mistake_claims: dict[tuple[str, str], Claim] = {}
    for point in card.points():
        where = f"point '{point.id}'"
        check_subject(point.about, point.line, where)
        matchers = comp.matchers(point.match, where)
        if not matchers:
            problems.append((point.line, f"{where} has no working 'match', so no answer could ever hit it"))
        affirm = point.stance == "affirm"
        rivals = tuple(s for s in card.subjects if s != point.about)
        point_claims[point.id] = Claim(point.about, affirm, matchers)
        # a comparison read the other way round earns the point, but is no wording of its swapped or negated mistake
        plain = tuple(mt for mt in matchers if mt.said_of is None)
        for m in point.mistakes:
            own = comp.matchers(m.match, f"mistake '{m.id}'", charges=True) if m.match else ()
            if m.kind == "swapped":
                claim = Claim(point.about, affirm, own or plain, rivals=rivals, any_subject_but_about=True)
            elif m.kind == "negated":
                claim = Claim(point.about, not affirm, own or plain)
            else:
                check_subject(m.about, m.line, f"mistake '{m.id}'")
                claim = Claim(m.about, m.stance == "affirm", own)
            mistake_claims[(point.id, m.id)] = claim
    concept_phrases: list[Phrase] = []
    for claim in list(point_claims.values()) + list(mistake_claims.values()):
        for mt in claim.matchers:
            for g in mt.groups:
                concept_phrases.extend(g)
    # On a card without the placements as subjects their names still have to be seen, so that the LayerNorm inside
    # "Pre-Layer Normalization" or "前置层归一化" is not read as a mention of LayerNorm.
    placements = tuple(compile_phrase(t) for s in PLACEMENTS if s not in subjects for t in shared_subjects.get(s, ()))
    others = tuple(compile_phrase(t) for t in other_methods())
    all_phrases = [p for ps in subjects.values() for p in ps] + concept_phrases + list(placements) + list(others)
    return Rubric(subjects, Lexicon(lexicon_words(all_phrases)), point_claims, mistake_claims,
                  prompt_grams(card.prompt.en, card.prompt.zh), card.default_subject, problems,
                  phrases=tuple(dict.fromkeys(concept_phrases)), placement_names=placements,
                  other_method_names=others)


#: The shared subjects that name a placement of the norm, not a norm.
PLACEMENTS = ("pre", "post")


def prompt_grams(*prompts: str) -> frozenset[tuple[str, str, str]]:
    """Word trigrams of the question, to recognise an answer that only repeats it."""
    grams: set[tuple[str, str, str]] = set()
    for p in prompts:
        keys = [t.key for t in tokenize(prepare(p).text) if t.kind in (WORD, CJK, NUMBER)]
        grams.update(zip(keys, keys[1:], keys[2:], strict=False))
    return frozenset(grams)
