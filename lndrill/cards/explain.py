"""Every place a document breaks the card format, found by walking it beside the format's msgspec types.

msgspec stops at the first problem and names it by a path string; `cards check` wants every problem at
its line. So when `fileformat.convert` fails, this walks the document with `msgspec.inspect.type_info`
(the same declaration, nothing restated) and returns each problem with its location: the keys and
indexes from the top of the document down to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec.inspect as mi

#: Where something is in a document: the keys and indexes from the top down to it.
Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Issue:
    """One problem: where (`loc`), which struct field it belongs to (`field`, a prefix of loc), and
    what: "not-mapping", "unknown", "missing" or "invalid" (with the field's `must` rule)."""

    loc: Loc
    field: Loc
    kind: str
    must: str = ""
    value: Any = None
    allowed: tuple[str, ...] = ()


@cache
def type_info(tp: Any) -> mi.Type:
    """msgspec's description of a type (cached: it is built once per process, and only on a problem)."""
    return mi.type_info(tp)


def issues(doc: Any, tp: Any) -> list[Issue]:
    """Every problem of `doc` against type `tp`, in document order, at most one per field."""
    out: list[Issue] = []
    _walk(doc, type_info(tp), (), (), "", out)
    seen: set[tuple[Loc, str]] = set()
    unique = []
    for issue in out:
        key = (issue.field if issue.kind == "invalid" else issue.loc, issue.kind)
        if key not in seen:
            seen.add(key)
            unique.append(issue)
    return unique


def _rule(t: mi.Type) -> str:
    """How to word a value that is not of type `t`, when its field gives no `must`."""
    if isinstance(t, mi.LiteralType):
        return "be one of " + ", ".join(str(v) for v in t.values)
    names = {mi.StrType: "be text", mi.FloatType: "be a number", mi.IntType: "be a whole number",
             mi.BoolType: "be true or false", mi.NoneType: "be empty"}
    return names.get(type(t), "have the right form")


def _walk(value: Any, t: mi.Type, loc: Loc, field: Loc, must: str, out: list[Issue]) -> None:
    if isinstance(t, mi.Metadata):
        rule = (t.extra or {}).get("must", "")
        _walk(value, t.type, loc, field, must or rule, out)
        return
    if isinstance(t, mi.AnyType):
        return
    if isinstance(t, mi.UnionType):
        if not any(_fits(value, alt) for alt in t.types):
            rules = [r for r in (_first_rule(alt) for alt in t.types) if r]
            out.append(Issue(loc, field, "invalid", must or (rules[0] if rules else _rule(t.types[0])), value))
        return
    if isinstance(t, mi.StructType):
        _walk_struct(value, t, loc, out)
        return
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        if not isinstance(value, list) or not _length_ok(value, t):
            out.append(Issue(loc, field, "invalid", must or "be a list", value))
            return
        for i, item in enumerate(value):
            _walk(item, t.item_type, (*loc, i), field, must, out)
        return
    if isinstance(t, mi.DictType):
        if not isinstance(value, dict) or not _length_ok(value, t):
            out.append(Issue(loc, field, "invalid", must or "be a mapping", value))
            return
        for key, item in value.items():
            _walk(key, t.key_type, (*loc, str(key)), field, must, out)
            _walk(item, t.value_type, (*loc, str(key)), field, must, out)
        return
    if not _scalar_ok(value, t):
        out.append(Issue(loc, field, "invalid", must or _rule(t), value))


def _walk_struct(value: Any, t: mi.StructType, loc: Loc, out: list[Issue]) -> None:
    if not isinstance(value, dict):
        out.append(Issue(loc, loc, "not-mapping", value=value))
        return
    fields = {f.encode_name: f for f in t.fields}
    allowed = tuple(sorted(fields))
    for key in value:
        if key not in fields:
            out.append(Issue((*loc, str(key)), loc, "unknown", allowed=allowed))
    for f in t.fields:
        if f.required and f.encode_name not in value:
            out.append(Issue((*loc, f.encode_name), loc, "missing"))
    for key, item in value.items():
        if key in fields:
            _walk(item, fields[key].type, (*loc, key), (*loc, key), "", out)


def _first_rule(t: mi.Type) -> str:
    while isinstance(t, mi.Metadata):
        if (t.extra or {}).get("must"):
            return str((t.extra or {})["must"])
        t = t.type
    return ""


def _fits(value: Any, t: mi.Type) -> bool:
    found: list[Issue] = []
    _walk(value, t, (), (), "", found)
    return not found


def _length_ok(value: Any, t: Any) -> bool:
    n = len(value)
    return (t.min_length is None or n >= t.min_length) and (t.max_length is None or n <= t.max_length)


def _scalar_ok(value: Any, t: mi.Type) -> bool:
    if isinstance(t, mi.NoneType):
        return value is None
    if isinstance(t, mi.LiteralType):
        return any(value == v and type(value) is type(v) for v in t.values)
    if isinstance(t, mi.BoolType):
        return isinstance(value, bool)
    if isinstance(t, mi.StrType):
        return (isinstance(value, str) and _length_ok(value, t)
                and (t.pattern is None or re.search(t.pattern, value) is not None))
    if isinstance(t, mi.IntType | mi.FloatType):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if isinstance(t, mi.IntType) and not isinstance(value, int):
            return False
        return ((t.gt is None or value > t.gt) and (t.ge is None or value >= t.ge)
                and (t.lt is None or value < t.lt) and (t.le is None or value <= t.le))
    return True
