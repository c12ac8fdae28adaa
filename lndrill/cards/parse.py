"""Turn one loaded YAML document into a `Card`: first the card format's types (`fileformat`, checked by
msgspec), then the rules that span fields (unique ids, sources naming real points, ...). Every problem
is reported with its line, as `path:line: message`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lndrill.cards.schema import Card, Mistake, Point, Recogniser, Section, Source, Text
from lndrill.cards.yamlsrc import IntText, LineDict, LineList, clip

if TYPE_CHECKING:
    from lndrill.cards import fileformat
    from lndrill.cards.explain import Issue, Loc
#: The pattern of an id (the card format's Slug), for naming a part by its id in a message.
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Problem:
    """One problem in a card file, printed as `path:line: message`."""

    path: Path
    line: int
    message: str
    #: A warning is printed but does not make `cards check` fail.
    warning: bool = False

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line > 0 else str(self.path)
        text = f"{where}: {'warning: ' if self.warning else ''}{self.message}"
        # One line, whatever a file name or a quoted value holds.
        return text.replace("\r", "\\r").replace("\n", "\\n")


def parse_card(doc: Any, path: Path) -> tuple[Card | None, list[Problem]]:
    """Build a card from a loaded YAML document; return it (or None) and every problem found."""
    import msgspec  # here, not at the top: `lndrill --help` and friends never load a card

    from lndrill.cards import fileformat
    from lndrill.cards.scalars import settle

    try:
        doc = settle(doc, fileformat.CardFile)
        try:
            raw = fileformat.convert(doc)
        except msgspec.ValidationError as exc:
            from lndrill.cards.explain import issues

            found = [Problem(path, line_at(doc, i.loc), message(i, doc)) for i in issues(doc, fileformat.CardFile)]
            return None, found or [Problem(path, 1, f"not a valid card: {clip(str(exc), 200)}")]
        return _Builder(doc, path).card(raw)
    except RecursionError:
        return None, [Problem(path, 1, "the card is nested too deeply to be read")]


# ---------------------------------------------------------------------------------------------- places
def _node(doc: Any, loc: Loc) -> Any:
    node = doc
    for step in loc:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return None
    return node


def line_at(doc: Any, loc: Loc) -> int:
    """The line of what `loc` names: a key's line in its mapping, an item's line in its list; for
    something missing, the line of the mapping that should hold it."""
    node, line = doc, getattr(doc, "line", 1) or 1
    for step in loc:
        if isinstance(node, LineDict) and isinstance(step, str):
            if step not in node:
                return node.line or line
            line, node = node.line_of(step), node[step]
        elif isinstance(node, LineList) and isinstance(step, int) and step < len(node):
            line, node = node.item_lines[step], node[step]
        else:
            break
    return line


def _ident(doc: Any, loc: Loc) -> str | None:
    node = _node(doc, loc)
    ident = node.get("id") if isinstance(node, dict) else None
    return ident if isinstance(ident, str) and _SLUG.match(ident) else None


#: What an item of each list is called.
_ITEMS = {"sections": "section", "points": "point", "mistakes": "mistake", "match": "'match' entry",
          "follow_ups": "follow-up", "sources": "source"}


def where(doc: Any, loc: Loc) -> str:
    """A person's name for the mapping at `loc`: "the card", "section 'formulas'", "point 'post-warmup'",
    "'match' entry 2 of point 'x'", "claim of point 'x'"."""
    if not loc:
        return "the card"
    last = loc[-1]
    if isinstance(last, str):
        return f"{clip(last)} of {where(doc, loc[:-1])}"
    item = _ITEMS.get(str(loc[-2]) if len(loc) > 1 else "", "item")
    ident = _ident(doc, loc)
    if ident is not None and item in ("section", "point", "mistake"):
        return f"{item} '{clip(ident)}'"
    outer = f" of {where(doc, loc[:-2])}" if len(loc) > 2 else ""
    return f"{item} {last + 1}{outer}"


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, IntText):
        return f"the number {clip(value)}"
    if isinstance(value, int | float):
        return f"the number {clip(str(value))}"
    if isinstance(value, str):
        return f"'{clip(value)}'"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else type(value).__name__


def message(issue: Issue, doc: Any) -> str:
    """The one-line message for a problem found by `explain.issues`."""
    if issue.kind == "not-mapping":
        return f"{where(doc, issue.loc)} must be a mapping, not {_shown(issue.value)}"
    if issue.kind == "unknown":
        return (f"unknown field '{clip(str(issue.loc[-1]))}' in {where(doc, issue.field)} "
                f"(allowed: {', '.join(issue.allowed)})")
    if issue.kind == "missing":
        return f"missing field '{issue.loc[-1]}' in {where(doc, issue.field)}"
    key, owner = issue.field[-1], issue.field[:-1]
    inside = f" in {where(doc, owner)}" if owner else ""
    got = "" if isinstance(issue.value, list | dict) and issue.loc == issue.field else f", got {_shown(issue.value)}"
    return f"'{key}'{inside} must {issue.must}{got}"


# ---------------------------------------------------------------------------------------------- the card
class _Builder:
    """A `Card` from a document whose types are right, checking the rules that span fields."""

    def __init__(self, doc: Any, path: Path) -> None:
        self.doc, self.path = doc, path
        self.problems: list[Problem] = []

    def bad(self, loc: Loc, message: str) -> None:
        self.problems.append(Problem(self.path, line_at(self.doc, loc), message))

    def line(self, loc: Loc) -> int:
        node = _node(self.doc, loc)
        return node.line if isinstance(node, LineDict) else line_at(self.doc, loc)

    def card(self, raw: fileformat.CardFile) -> tuple[Card | None, list[Problem]]:
        subjects = raw.subjects
        if raw.default_subject is not None and raw.default_subject not in subjects:
            self.bad(("default_subject",), "'default_subject' must be one of the card's subjects")
        sections = tuple(self.section(s, ("sections", i)) for i, s in enumerate(raw.sections))
        sources = tuple(Source(s.arxiv, s.section, s.note, s.points, self.line(("sources", i)))
                        for i, s in enumerate(raw.sources))
        point_ids = {p.id for sec in sections for p in sec.points}
        for i, src in enumerate(sources):
            for pid in src.points:
                if pid not in point_ids:
                    self.bad(("sources", i), f"source {src.arxiv} names point '{clip(pid)}', which this card does not have")
        seen: dict[str, int] = {}  # sections, points and mistakes share one namespace of ids
        for sec in sections:
            for ident, line in [(sec.id, sec.line)] + [(p.id, p.line) for p in sec.points] + [
                (m.id, m.line) for p in sec.points for m in p.mistakes
            ]:
                if ident in seen:
                    self.problems.append(Problem(self.path, line, f"id '{clip(ident)}' is used twice in this card "
                                                                  f"(first on line {seen[ident]})"))
                else:
                    seen[ident] = line
        if self.problems:
            return None, self.problems
        return Card(
            id=raw.id, title=_text(raw.title), prompt=_text(raw.prompt), tags=raw.tags, difficulty=raw.difficulty,
            subjects=subjects, default_subject=raw.default_subject, sections=sections,
            model_answer=_text(raw.model_answer), follow_ups=tuple(_text(f) for f in raw.follow_ups),
            sources=sources, vocab=dict(raw.vocab), path=self.path,
        ), []

    def section(self, raw: fileformat.Section, loc: Loc) -> Section:
        points = tuple(self.point(p, (*loc, "points", i)) for i, p in enumerate(raw.points))
        return Section(raw.id, _text(raw.title), points, self.line(loc))

    def point(self, raw: fileformat.Point, loc: Loc) -> Point:
        mistakes = []
        for i, m in enumerate(raw.mistakes):
            mistake = self.mistake(m, (*loc, "mistakes", i), raw.weight)
            if mistake.kind == "swapped" and raw.about is None:
                self.bad((*loc, "mistakes", i), f"mistake '{clip(m.id)}' is 'swapped' but point '{clip(raw.id)}' has no "
                                                "'about' subject")
            mistakes.append(mistake)
        return Point(raw.id, raw.weight, _text(raw.claim), raw.about, raw.stance,
                     self.recognisers(raw.match, (*loc, "match")), tuple(mistakes), self.line(loc))

    def mistake(self, raw: fileformat.Mistake, loc: Loc, point_weight: float) -> Mistake:
        if raw.when is None and not raw.match:
            self.bad(loc, f"mistake '{clip(raw.id)}' needs 'when: swapped|negated' or its own 'match'")
        penalty = raw.penalty if raw.penalty is not None else max(1.0, point_weight / 2)
        return Mistake(raw.id, _text(raw.explanation), penalty, raw.when, raw.about, raw.stance,
                       self.recognisers(raw.match or (), (*loc, "match")), self.line(loc))

    def recognisers(self, raw: tuple[fileformat.Recogniser, ...], loc: Loc) -> tuple[Recogniser, ...]:
        out = []
        for i, r in enumerate(raw):
            here = (*loc, i)
            kinds = [k for k in ("concepts", "formula", "value") if getattr(r, k) is not None]
            if len(kinds) != 1:
                self.bad(here, f"{where(self.doc, here)} needs exactly one of 'concepts', 'formula' or 'value'")
                continue
            line = line_at(self.doc, (*here, kinds[0]))
            unlesses = {"unless": r.unless, "unless_context": r.unless_context, "unless_within": r.unless_within}
            if r.concepts is None and any(v is not None for v in unlesses.values()):
                field = next(k for k, v in unlesses.items() if v is not None)
                self.bad(here, f"{where(self.doc, here)}: '{field}' only goes with 'concepts'")
                continue
            if r.said_of is not None and r.concepts is None:
                self.bad(here, f"{where(self.doc, here)}: 'said_of' only goes with 'concepts'")
                continue
            if r.concepts is not None:
                groups = tuple((g,) if isinstance(g, str) else g for g in r.concepts)
                out.append(Recogniser(concepts=tuple(tuple(a.strip() for a in g) for g in groups), line=line,
                                      unless=tuple(a.strip() for a in r.unless or ()),
                                      unless_context=tuple(a.strip() for a in r.unless_context or ()),
                                      unless_within=tuple(a.strip() for a in r.unless_within or ()), said_of=r.said_of))
            elif r.formula is not None:
                out.append(Recogniser(formula=r.formula, line=line))
            else:
                out.append(Recogniser(value=r.value, line=line))
        return tuple(out)


def _text(raw: fileformat.BilingualText) -> Text:
    return Text(raw.en, raw.zh)
