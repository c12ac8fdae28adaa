"""Turn one loaded YAML document into a `Card`, collecting every problem with its line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lndrill.cards.schema import (
    DIFFICULTIES,
    LANGS,
    MISTAKE_KINDS,
    STANCES,
    Card,
    Mistake,
    Point,
    Recogniser,
    Section,
    Source,
    Text,
)
from lndrill.cards.yamlsrc import LineDict, LineList

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ARXIV = re.compile(r"^\d{4}\.\d{4,5}$")
MAX_TEXT = 20_000


@dataclass(frozen=True)
class Problem:
    """One problem in a card file, printed as `path:line: message`."""

    path: Path
    line: int
    message: str
    #: A warning is printed but does not make `cards check` fail.
    warning: bool = False

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {'warning: ' if self.warning else ''}{self.message}"


class _Ctx:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.problems: list[Problem] = []

    def bad(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.path, line, message))


def _line(node: Any, default: int = 1) -> int:
    return getattr(node, "line", default) or default


def _fields(ctx: _Ctx, node: Any, where: str, required: set[str], optional: set[str], line: int) -> LineDict | None:
    if not isinstance(node, LineDict):
        ctx.bad(_line(node, line), f"{where} must be a mapping, not {type(node).__name__}")
        return None
    for key in node:
        if key not in required | optional:
            allowed = ", ".join(sorted(required | optional))
            ctx.bad(node.line_of(key), f"unknown field '{key}' in {where} (allowed: {allowed})")
    for key in sorted(required - set(node)):
        ctx.bad(node.line, f"missing field '{key}' in {where}")
    return node


def _str(ctx: _Ctx, node: LineDict, key: str, where: str) -> str:
    value = node.get(key)
    if value is None:
        return ""
    if not isinstance(value, str) or not value.strip():
        ctx.bad(node.line_of(key), f"'{key}' in {where} must be non-empty text")
        return ""
    if len(value) > MAX_TEXT:
        ctx.bad(node.line_of(key), f"'{key}' in {where} is longer than {MAX_TEXT} characters")
    return value


def _slug(ctx: _Ctx, node: LineDict, key: str, where: str) -> str:
    value = _str(ctx, node, key, where)
    if value and not SLUG.match(value):
        ctx.bad(node.line_of(key), f"'{key}' in {where} must be a slug like 'post-ln-warmup', got '{value}'")
    return value


def _text(ctx: _Ctx, node: LineDict, key: str, where: str) -> Text:
    value = node.get(key)
    line = node.line_of(key)
    if value is None:
        return Text("", "")
    sub = _fields(ctx, value, f"{where}.{key}", set(LANGS), set(), line)
    if sub is None:
        return Text("", "")
    return Text(_str(ctx, sub, "en", f"{where}.{key}"), _str(ctx, sub, "zh", f"{where}.{key}"))


def _weight(ctx: _Ctx, node: LineDict, key: str, where: str, default: float | None = None) -> float:
    value = node.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not (0 < value <= 100):
        ctx.bad(node.line_of(key), f"'{key}' in {where} must be a number in (0, 100]")
        return 1.0
    return float(value)


def _recognisers(ctx: _Ctx, node: LineDict, where: str) -> tuple[Recogniser, ...]:
    value = node.get("match")
    line = node.line_of("match")
    if value is None:
        return ()
    if not isinstance(value, LineList) or not value:
        ctx.bad(line, f"'match' in {where} must be a non-empty list of {{concepts: ...}}, {{formula: ...}} or {{value: ...}}")
        return ()
    out: list[Recogniser] = []
    for item, item_line in zip(value, value.item_lines, strict=True):
        r = _fields(ctx, item, f"{where}.match", set(), {"concepts", "formula", "value"}, item_line)
        if r is None:
            continue
        kinds = [k for k in ("concepts", "formula", "value") if k in r]
        if len(kinds) != 1:
            ctx.bad(r.line, f"each entry of 'match' in {where} needs exactly one of 'concepts', 'formula' or 'value'")
            continue
        if kinds[0] == "formula":
            out.append(Recogniser(formula=_str(ctx, r, "formula", where), line=r.line_of("formula")))
            continue
        if kinds[0] == "value":
            out.append(Recogniser(value=_str(ctx, r, "value", where), line=r.line_of("value")))
            continue
        groups = r["concepts"]
        if not isinstance(groups, list) or not groups:
            ctx.bad(r.line_of("concepts"), f"'concepts' in {where} must be a non-empty list of groups")
            continue
        parsed: list[tuple[str, ...]] = []
        for g in groups:
            alts = [g] if isinstance(g, str) else g
            if not isinstance(alts, list) or not alts or not all(isinstance(a, str) and a.strip() for a in alts):
                ctx.bad(r.line_of("concepts"), f"each concept group in {where} must be a phrase or a list of phrases")
                continue
            parsed.append(tuple(a.strip() for a in alts))
        out.append(Recogniser(concepts=tuple(parsed), line=r.line_of("concepts")))
    return tuple(out)


def _mistake(ctx: _Ctx, node: Any, where: str, line: int, point_weight: float) -> Mistake | None:
    m = _fields(ctx, node, where, {"id", "explanation"}, {"penalty", "when", "about", "stance", "match"}, line)
    if m is None:
        return None
    mid = _slug(ctx, m, "id", where)
    kind = m.get("when")
    if kind is not None and kind not in MISTAKE_KINDS:
        ctx.bad(m.line_of("when"), f"'when' in {where} must be one of {', '.join(MISTAKE_KINDS)}")
        kind = None
    stance = m.get("stance", "affirm")
    if stance not in STANCES:
        ctx.bad(m.line_of("stance"), f"'stance' in {where} must be 'affirm' or 'deny'")
    match = _recognisers(ctx, m, where)
    if kind is None and not match:
        ctx.bad(m.line, f"mistake '{mid}' needs 'when: swapped|negated' or its own 'match'")
    about = m.get("about")
    if about is not None and not isinstance(about, str):
        ctx.bad(m.line_of("about"), f"'about' in {where} must be a subject id")
        about = None
    penalty = _weight(ctx, m, "penalty", where, default=max(1.0, point_weight / 2))
    return Mistake(mid, _text(ctx, m, "explanation", where), penalty, kind, about, stance, match, m.line)


def _point(ctx: _Ctx, node: Any, where: str, line: int) -> Point | None:
    p = _fields(ctx, node, where, {"id", "weight", "claim", "match"}, {"about", "stance", "mistakes"}, line)
    if p is None:
        return None
    pid = _slug(ctx, p, "id", where)
    where = f"point '{pid}'"
    weight = _weight(ctx, p, "weight", where)
    stance = p.get("stance", "affirm")
    if stance not in STANCES:
        ctx.bad(p.line_of("stance"), f"'stance' in {where} must be 'affirm' or 'deny'")
        stance = "affirm"
    about = p.get("about")
    if about is not None and not isinstance(about, str):
        ctx.bad(p.line_of("about"), f"'about' in {where} must be a subject id")
        about = None
    mistakes: list[Mistake] = []
    raw = p.get("mistakes", [])
    if not isinstance(raw, LineList):
        if raw:
            ctx.bad(p.line_of("mistakes"), f"'mistakes' in {where} must be a list")
    else:
        for item, item_line in zip(raw, raw.item_lines, strict=True):
            m = _mistake(ctx, item, f"a mistake of {where}", item_line, weight)
            if m is not None:
                if m.kind == "swapped" and about is None:
                    ctx.bad(m.line, f"mistake '{m.id}' is 'swapped' but {where} has no 'about' subject")
                mistakes.append(m)
    return Point(pid, weight, _text(ctx, p, "claim", where), about, stance, _recognisers(ctx, p, where),
                 tuple(mistakes), p.line)


def _section(ctx: _Ctx, node: Any, line: int) -> Section | None:
    s = _fields(ctx, node, "section", {"id", "title", "points"}, set(), line)
    if s is None:
        return None
    sid = _slug(ctx, s, "id", "section")
    pts = s.get("points")
    points: list[Point] = []
    if not isinstance(pts, LineList) or not pts:
        ctx.bad(s.line_of("points"), f"'points' in section '{sid}' must be a non-empty list")
    else:
        for item, item_line in zip(pts, pts.item_lines, strict=True):
            pt = _point(ctx, item, f"a point of section '{sid}'", item_line)
            if pt is not None:
                points.append(pt)
    return Section(sid, _text(ctx, s, "title", f"section '{sid}'"), tuple(points), s.line)


TOP_REQUIRED = {"id", "title", "prompt", "tags", "difficulty", "sections", "model_answer", "follow_ups", "sources"}
TOP_OPTIONAL = {"subjects", "vocab", "default_subject"}


def parse_card(doc: Any, path: Path) -> tuple[Card | None, list[Problem]]:
    """Build a card from a loaded YAML document; return it (or None) and every problem found."""
    ctx = _Ctx(path)
    top = _fields(ctx, doc, "the card", TOP_REQUIRED, TOP_OPTIONAL, 1)
    if top is None:
        return None, ctx.problems
    cid = _slug(ctx, top, "id", "the card")
    tags = top.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and SLUG.match(t) for t in tags):
        ctx.bad(top.line_of("tags"), "'tags' must be a list of slugs")
        tags = []
    difficulty = top.get("difficulty")
    if "difficulty" in top and difficulty not in DIFFICULTIES:
        ctx.bad(top.line_of("difficulty"), f"'difficulty' must be one of {', '.join(DIFFICULTIES)}")
    subjects = top.get("subjects", ["post", "pre"])
    if not isinstance(subjects, list) or not all(isinstance(s, str) for s in subjects):
        ctx.bad(top.line_of("subjects"), "'subjects' must be a list of subject ids")
        subjects = []
    default_subject = top.get("default_subject")
    if default_subject is not None and (not isinstance(default_subject, str) or default_subject not in subjects):
        ctx.bad(top.line_of("default_subject"), "'default_subject' must be one of the card's subjects")
        default_subject = None
    vocab: dict[str, tuple[str, ...]] = {}
    raw_vocab = top.get("vocab", {})
    if not isinstance(raw_vocab, dict):
        ctx.bad(top.line_of("vocab"), "'vocab' must map names to lists of phrases")
    else:
        for name, phrases in raw_vocab.items():
            if not isinstance(phrases, list) or not all(isinstance(x, str) and x.strip() for x in phrases):
                ctx.bad(raw_vocab.line_of(name) if isinstance(raw_vocab, LineDict) else top.line,
                        f"vocab entry '{name}' must be a list of phrases")
                continue
            vocab[str(name)] = tuple(phrases)
    sections: list[Section] = []
    raw_sections = top.get("sections")
    if not isinstance(raw_sections, LineList) or not raw_sections:
        ctx.bad(top.line_of("sections"), "'sections' must be a non-empty list")
    else:
        for item, item_line in zip(raw_sections, raw_sections.item_lines, strict=True):
            sec = _section(ctx, item, item_line)
            if sec is not None:
                sections.append(sec)
    follow: list[Text] = []
    raw_follow = top.get("follow_ups", [])
    if not isinstance(raw_follow, LineList) or not raw_follow:
        ctx.bad(top.line_of("follow_ups"), "'follow_ups' must be a non-empty list of {en, zh}")
    else:
        for item, item_line in zip(raw_follow, raw_follow.item_lines, strict=True):
            f = _fields(ctx, item, "a follow-up", set(LANGS), set(), item_line)
            if f is not None:
                follow.append(Text(_str(ctx, f, "en", "a follow-up"), _str(ctx, f, "zh", "a follow-up")))
    sources: list[Source] = []
    raw_sources = top.get("sources", [])
    if not isinstance(raw_sources, LineList) or not raw_sources:
        ctx.bad(top.line_of("sources"), "'sources' must be a non-empty list of {arxiv, section}")
    else:
        for item, item_line in zip(raw_sources, raw_sources.item_lines, strict=True):
            s = _fields(ctx, item, "a source", {"arxiv", "section"}, {"note", "points"}, item_line)
            if s is None:
                continue
            arxiv = str(s.get("arxiv", ""))
            if not ARXIV.match(arxiv):
                ctx.bad(s.line_of("arxiv"), f"'arxiv' must look like 2002.04745, got '{arxiv}'")
            backs = s.get("points", [])
            if not isinstance(backs, list) or not all(isinstance(x, str) for x in backs):
                ctx.bad(s.line_of("points"), "'points' of a source must be a list of point ids")
                backs = []
            sources.append(Source(arxiv, str(s.get("section", "")), str(s.get("note", "")), tuple(backs),
                                  s.line))
    point_ids = {p.id for sec in sections for p in sec.points}
    for src in sources:
        for pid in src.points:
            if pid not in point_ids:
                ctx.bad(src.line, f"source {src.arxiv} names point '{pid}', which this card does not have")
    # Unique ids inside the card.
    seen: dict[str, int] = {}
    for sec in sections:
        for ident, line in [(sec.id, sec.line)] + [(p.id, p.line) for p in sec.points] + [
            (m.id, m.line) for p in sec.points for m in p.mistakes
        ]:
            if ident in seen:
                ctx.bad(line, f"id '{ident}' is used twice in this card (first on line {seen[ident]})")
            else:
                seen[ident] = line
    if ctx.problems:
        return None, ctx.problems
    card = Card(
        id=cid,
        title=_text(ctx, top, "title", "the card"),
        prompt=_text(ctx, top, "prompt", "the card"),
        tags=tuple(tags),
        difficulty=str(difficulty),
        subjects=tuple(subjects),
        default_subject=default_subject,
        sections=tuple(sections),
        model_answer=_text(ctx, top, "model_answer", "the card"),
        follow_ups=tuple(follow),
        sources=tuple(sources),
        vocab=vocab,
        path=path,
    )
    return card, ctx.problems
