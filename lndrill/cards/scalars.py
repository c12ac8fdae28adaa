"""Unquoted whole numbers, settled by the card format: text where it wants text, a number where it wants one.

YAML reads `section: 3` and `id: 1111…` (4,301 digits) as integers; a card wants text in both places.
The loader keeps every unquoted whole number as `IntText` (its text, and its value when it has one);
`settle` walks a document beside the format's types and replaces it by its value wherever the type
takes no text (a weight, a penalty), in place. What is left is text, and anything that is neither is
reported by the format's own checks (`lndrill.cards.explain`).
"""

from __future__ import annotations

from typing import Any

import msgspec.inspect as mi

from lndrill.cards.explain import type_info
from lndrill.cards.yamlsrc import IntText


def settle(doc: Any, tp: Any) -> Any:
    """`doc` with each `IntText` in a place of type `tp` that takes no text replaced by its number."""
    return _settle(doc, type_info(tp))


def _holds_numbers(t: mi.Type) -> bool:
    """Whether a value of type `t` has any place for a number (most of a card has none: all text)."""
    found = _HOLDS_NUMBERS.get(id(t))
    if found is None:
        _HOLDS_NUMBERS[id(t)] = False  # a recursive type meets itself as "no" while it is being looked at
        inner = t.type if isinstance(t, mi.Metadata) else t
        if isinstance(inner, mi.IntType | mi.FloatType):
            found = True
        elif isinstance(inner, mi.UnionType):
            found = any(_holds_numbers(alt) for alt in inner.types)
        elif isinstance(inner, mi.StructType):
            found = any(_holds_numbers(f.type) for f in inner.fields)
        elif isinstance(inner, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
            found = _holds_numbers(inner.item_type)
        elif isinstance(inner, mi.DictType):
            found = _holds_numbers(inner.value_type)
        elif isinstance(inner, mi.Metadata):
            found = _holds_numbers(inner)
        else:
            found = isinstance(inner, mi.AnyType)
        _HOLDS_NUMBERS[id(t)] = found
    return found


_HOLDS_NUMBERS: dict[int, bool] = {}


def _takes_text(t: mi.Type) -> bool:
    while isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(t, mi.UnionType):
        return any(_takes_text(alt) for alt in t.types)
    if isinstance(t, mi.LiteralType):
        return any(isinstance(v, str) for v in t.values)
    return isinstance(t, mi.StrType | mi.AnyType)


def _settle(value: Any, t: mi.Type) -> Any:
    if not _holds_numbers(t):  # text all the way down: an IntText there stays text
        return value
    while isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(value, IntText):
        return value if _takes_text(t) or value.number is None else value.number
    if isinstance(value, dict):
        if isinstance(t, mi.StructType):
            fields = {f.encode_name: f.type for f in t.fields}
            for key in value:
                if key in fields:
                    value[key] = _settle(value[key], fields[key])
        elif isinstance(t, mi.DictType):
            for key in value:
                value[key] = _settle(value[key], t.value_type)
        elif isinstance(t, mi.UnionType):
            return _settle_union(value, t)
    elif isinstance(value, list):
        if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
            for i, item in enumerate(value):
                value[i] = _settle(item, t.item_type)
        elif isinstance(t, mi.UnionType):
            return _settle_union(value, t)
    return value


def _settle_union(value: Any, t: mi.UnionType) -> Any:
    """A list or mapping where a union is wanted: settle it as the one alternative of its shape."""
    for alt in t.types:
        inner = alt
        while isinstance(inner, mi.Metadata):
            inner = inner.type
        shape = dict if isinstance(inner, mi.StructType | mi.DictType) else list if isinstance(
            inner, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType) else None
        if shape is not None and isinstance(value, shape):
            return _settle(value, inner)
    return value
