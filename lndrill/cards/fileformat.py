"""The card file format, declared once: msgspec structs that validate a loaded YAML document and export
the JSON Schema card authors' editors use (`lndrill cards schema`, `lndrill/content/card.schema.json`).

Every struct forbids unknown fields. A field's constraints (pattern, bounds, lengths) are checked by
msgspec; `must` in a field's metadata is how `cards check` words the problem ("'weight' in point 'x'
must be a number in (0, 100]"). What a type cannot say (exactly one kind of recogniser, ids unique in a
card, a source naming an existing point) is checked in `lndrill.cards.parse` after the types pass.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

#: Card text longer than this is refused (no card needs it; it keeps the scorer's input bounded).
MAX_TEXT = 20_000
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"  # lndrill.cards.parse names parts by an id of this form
ARXIV_PATTERN = r"^\d{4}\.\d{4,5}$"
SCHEMA_ID = "card.schema.json"


def _must(rule: str, description: str = "", **constraints: Any) -> Meta:
    """Constraints, the JSON Schema description and how a problem is worded (`'<field>' must <rule>`)."""
    return Meta(**constraints, description=description or None, extra={"must": rule})


Slug = Annotated[str, _must("be a slug like 'post-ln-warmup'", "a-z, 0-9 and single dashes",
                            pattern=SLUG_PATTERN)]
Phrase = Annotated[str, _must("be a non-empty phrase", pattern=r"\S")]
PlainText = Annotated[str, _must(f"be non-empty text (at most {MAX_TEXT:,} characters)", pattern=r"\S",
                                 max_length=MAX_TEXT)]
Weight = Annotated[float, _must("be a number in (0, 100]", gt=0, le=100)]
Stance = Annotated[Literal["affirm", "deny"], _must(
    "be 'affirm' or 'deny'", "affirm (default): hit when the user says it is so; deny: when the user says it is NOT so")]


class _Strict(Struct, forbid_unknown_fields=True, frozen=True):
    """Base of every struct of the format: unknown fields are problems."""


class BilingualText(_Strict, frozen=True, kw_only=True):
    """The same text in English and Chinese."""

    en: PlainText
    zh: PlainText


SubjectId = Annotated[str, _must("be a subject id", "a subject id of the card, e.g. post or pre")]


class Recogniser(_Strict, frozen=True, kw_only=True):
    """One way a point is recognised: exactly one of `concepts`, `formula` or `value`."""

    concepts: Annotated[
        tuple[Phrase | Annotated[tuple[Phrase, ...], Meta(min_length=1)], ...],
        _must("be a non-empty list of groups, each a phrase or a list of phrases",
              "groups that must all occur in one clause; each group lists alternative phrases "
              "('@name' is a vocabulary reference)", min_length=1),
    ] | None = None
    formula: Annotated[PlainText, Meta(description="an equation matched by structure, e.g. 'LN(x + F(x))'")] | None = None
    value: Annotated[PlainText, Meta(description="a value bound to a symbol, e.g. 'alpha = (2N)^(1/4)'")] | None = None
    unless: Annotated[
        tuple[Phrase, ...],
        _must("be a non-empty list of phrases",
              "with `concepts`: phrases that, anywhere in the sentence up to the match, cancel it (\"squared\" "
              "before \"norm grows linearly\"; \"RMSNorm\" before \"rank D-1\")", min_length=1),
    ] | None = None
    unless_context: Annotated[
        tuple[Phrase, ...],
        _must("be a non-empty list of phrases",
              "with `concepts`: phrases that cancel the match from the text it stands under: earlier in its paragraph "
              "or list item, or in that item's label or the heading above it (\"GLM-130B\" as the label of an item "
              "that gives its own alpha)", min_length=1),
    ] | None = None
    unless_within: Annotated[
        tuple[Phrase, ...],
        _must("be a non-empty list of phrases",
              "with `concepts`: phrases that cancel the match when they stand between its first and last term "
              "(LayerNorm's all-ones term inside \"(1/r)(I - 11^T/D - yy^T/D)\"), not elsewhere in its sentence",
              min_length=1),
    ] | None = None
    said_of: Annotated[SubjectId, Meta(
        description="with `concepts`, in a point's match only: the subject these words are said of when it is not the "
                    "point's own, as in a comparison read the other way round (\"Pre-LN ends slightly worse than "
                    "Post-LN\" states Post-LN's \"ends better\")")] | None = None


Recognisers = Annotated[tuple[Recogniser, ...], _must(
    "be a non-empty list of {concepts: ...}, {formula: ...} or {value: ...}",
    "alternative recognisers: any one matching counts", min_length=1)]


class Mistake(_Strict, frozen=True, kw_only=True):
    """A wrong claim that costs points: the point's claim swapped or negated (`when`), or its own
    `about`/`stance`/`match`. Needs `when` or `match`."""

    id: Slug
    explanation: Annotated[BilingualText, Meta(description="why the claim is wrong, shown to the user")]
    penalty: Annotated[Weight, Meta(description="points lost (default: half the point's weight, at least 1)")] | None = None
    when: Annotated[Literal["swapped", "negated"], _must(
        "be one of swapped, negated",
        "swapped: the point's claim said about another subject; negated: the point's claim denied")] | None = None
    about: SubjectId | None = None
    stance: Stance = "affirm"
    match: Recognisers | None = None


class Point(_Strict, frozen=True, kw_only=True):
    """One claim of the model answer, with its weight, how it is recognised and its mistakes."""

    id: Annotated[Slug, Meta(description="unique within the card (sections, points and mistakes share ids)")]
    weight: Annotated[Weight, Meta(description="key claims 8-14, minor ones 2-5; a card adds up to about 100")]
    claim: Annotated[BilingualText, Meta(description="the claim in one sentence, shown as feedback")]
    about: Annotated[SubjectId, Meta(description="the claim counts only when said about this subject")] | None = None
    stance: Stance = "affirm"
    match: Recognisers
    mistakes: Annotated[tuple[Mistake, ...], _must("be a list of mistakes")] = ()


class Section(_Strict, frozen=True, kw_only=True):
    """An ordered part of the answer."""

    id: Slug
    title: BilingualText
    points: Annotated[tuple[Point, ...], _must("be a non-empty list", min_length=1)]


class Source(_Strict, frozen=True, kw_only=True):
    """Where the card's facts come from."""

    arxiv: Annotated[str, _must("look like 2002.04745 (quoted)", "an arXiv id, quoted: \"2002.04745\"",
                                pattern=ARXIV_PATTERN)]
    section: Annotated[str, _must("be text", "the section that backs the claims, e.g. '§3.3 Theorem 1'")]
    note: Annotated[str, _must("be text")] = ""
    points: Annotated[tuple[str, ...], _must("be a list of point ids", "the points this source backs")] = ()


class CardFile(_Strict, frozen=True, kw_only=True):
    """A question card: one YAML document, `<id>.yaml` (see lndrill/content/README.md)."""

    id: Annotated[Slug, Meta(description="the same as the file name; unique in the deck")]
    title: Annotated[BilingualText, Meta(description="a short title")]
    prompt: Annotated[BilingualText, Meta(description="the question as an interviewer asks it")]
    tags: Annotated[tuple[Slug, ...], _must("be a list of slugs", "for filtering")]
    difficulty: Annotated[Literal["easy", "medium", "hard"], _must("be one of easy, medium, hard")]
    subjects: Annotated[tuple[str, ...], _must(
        "be a list of subject ids",
        "the subject ids attribution cares about; [] for a card about one thing")] = ("post", "pre")
    default_subject: Annotated[str, Meta(
        description="the subject the question is about: an unattributed claim counts for it (points only)"
    )] | None = None
    vocab: Annotated[dict[str, tuple[Phrase, ...]], _must(
        "map names to lists of phrases", "card-only phrase lists, used as '@name'; can define subjects")] = {}
    sections: Annotated[tuple[Section, ...], _must("be a non-empty list", min_length=1)]
    model_answer: Annotated[BilingualText, Meta(description="a complete answer in prose that hits every point")]
    follow_ups: Annotated[tuple[BilingualText, ...], _must("be a non-empty list of {en, zh}", min_length=1)]
    sources: Annotated[tuple[Source, ...], _must("be a non-empty list of {arxiv, section}", min_length=1)]


def convert(doc: Any) -> CardFile:
    """The document as a CardFile; raises msgspec.ValidationError (see `lndrill.cards.explain` for every
    problem with its place)."""
    return msgspec.convert(doc, CardFile, strict=True)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a card file (draft 2020-12), for editors: what msgspec derives from the
    structs, plus the rules a struct cannot state (one kind per recogniser, `unless` only with `concepts`;
    a mistake needs `when` or `match`)."""
    schema = msgspec.json.schema(CardFile)
    defs = schema["$defs"]
    defs["Recogniser"].update(oneOf=[{"required": [k]} for k in ("concepts", "formula", "value")],
                              dependentRequired={"unless": ["concepts"], "unless_context": ["concepts"],
                                                 "unless_within": ["concepts"]})
    defs["Mistake"]["anyOf"] = [{"required": ["when"]}, {"required": ["match"]}]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "lndrill question card", **schema}


def json_schema_text() -> str:
    """The schema as the text of `lndrill/content/card.schema.json` (stable key order, ends in a newline)."""
    return json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n"
