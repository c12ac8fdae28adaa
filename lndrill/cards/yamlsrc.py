"""Safe YAML loading that remembers line numbers, so every problem can be reported as path:line.

Cards are plain YAML, read defensively: no tags beyond the safe ones, no aliases (a few hundred bytes of
nested aliases can expand to gigabytes), no control characters in any string (card text reaches the
terminal), timestamps read as the text they are, and whole numbers kept as written until the card format
says whether it wants text or a number there (`IntText`, settled by `lndrill.cards.scalars`). Whatever
goes wrong while loading is a `YamlProblem`: one line, with the line it happened on.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

#: C0 and C1 control characters and DEL, except tab and newline: never allowed in card text.
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class LineDict(dict):
    """A mapping from YAML that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """The line of `key` if present, else the mapping's own line."""
        return self.key_lines.get(key, self.line)


class LineList(list):
    """A sequence from YAML that knows its own line and each item's line (1-based)."""

    line: int = 0
    item_lines: list[int]


class IntText(str):
    """An unquoted whole number as written (`3`, `0x1F`, or 4,301 digits): text where the card format
    wants text, `number` where it wants a number (None when it is too large to read as one)."""

    number: int | None

    def __new__(cls, text: str, number: int | None) -> IntText:
        self = super().__new__(cls, text)
        self.number = number
        return self


_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when available: ~5x faster


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


class _LineLoader(_SafeBase):  # type: ignore[valid-type,misc]
    """A safe loader (no arbitrary tags, ever) that records where mappings and sequences start."""

    def construct_scalar(self, node: yaml.ScalarNode) -> Any:
        value = super().construct_scalar(node)
        bad = CONTROL_CHARS.search(value) if isinstance(value, str) else None
        if bad is not None:
            raise yaml.constructor.ConstructorError(
                None, None, f"control character U+{ord(bad.group()):04X} in text (cards may not contain "
                            "terminal control characters)", node.start_mark)
        return value

    def construct_int_text(self, node: yaml.ScalarNode) -> IntText:
        text = self.construct_scalar(node)
        try:
            number = self.construct_yaml_int(node)
        except ValueError:  # more digits than Python reads (4,300): a number no card needs
            number = None
        return IntText(text, number)

    def construct_timestamp_text(self, node: yaml.ScalarNode) -> str:
        return str(self.construct_scalar(node))

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> LineDict:
        self.flatten_mapping(node)
        out = LineDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, str | int | float | bool) and key is not None:
                raise yaml.constructor.ConstructorError(
                    None, None, "mapping keys must be plain text", key_node.start_mark
                )
            key = str(key)
            if key in out:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{clip(key)}'", key_node.start_mark
                )
            out[key] = self.construct_object(value_node, deep=True)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out

    def construct_sequence(self, node: yaml.SequenceNode, deep: bool = False) -> LineList:
        out = LineList(self.construct_object(child, deep=True) for child in node.value)
        out.line = node.start_mark.line + 1
        out.item_lines = [child.start_mark.line + 1 for child in node.value]
        return out


_LineLoader.add_constructor("tag:yaml.org,2002:map", _LineLoader.construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:seq", _LineLoader.construct_sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:int", _LineLoader.construct_int_text)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _LineLoader.construct_timestamp_text)


def clip(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters ('...' marks the cut), for quoting a value in a message."""
    return text if len(text) <= limit else text[:limit] + "..."


class YamlProblem(Exception):
    """A YAML file that cannot be read; carries the 1-based line where the problem is (0: the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        message = _one_line(message)
        super().__init__(message)
        self.line = line
        self.message = message


#: What an anchor (`&name`) and an alias (`*name`) look like, to skip the exact check on the (many)
#: cards that have neither; `R&D` or `x * y` only cost that check.
_ANCHOR = re.compile(r"(?:^|[\s\[{,:-])&[^\s\[\]{},]", re.MULTILINE)
_ALIAS = re.compile(r"(?:^|[\s\[{,:-])\*[^\s\[\]{},]", re.MULTILINE)


def _reject_aliases(text: str) -> None:
    """YamlProblem at the first alias (`*name`): nothing a card says needs one, and nested aliases
    expand exponentially (a 489-byte 'billion laughs' file)."""
    if _ANCHOR.search(text) is None or _ALIAS.search(text) is None:  # an alias needs an anchor before it
        return
    for event in yaml.parse(text, Loader=_SafeBase):
        if isinstance(event, yaml.AliasEvent):
            raise YamlProblem(event.start_mark.line + 1 if event.start_mark else 0,
                              f"YAML alias '*{clip(str(event.anchor))}' (aliases are not allowed in cards; "
                              "write the value out)")


def _mark_line(exc: yaml.MarkedYAMLError) -> int:
    mark = exc.problem_mark or exc.context_mark
    return mark.line + 1 if mark else 0


def load_yaml(path: Path) -> Any:
    """Load one YAML document safely with line information; raise `YamlProblem` on any failure."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise YamlProblem(0, f"cannot read file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlProblem(raw.count(b"\n", 0, exc.start) + 1, "file is not valid UTF-8") from None
    try:
        _reject_aliases(text)
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader derives from SafeLoader
    except yaml.constructor.ConstructorError as exc:
        problem = exc.problem or "cannot construct value"
        if "could not determine a constructor" in problem:
            tag = problem.split("tag", 1)[-1].strip(" '!").replace("tag:yaml.org,2002:", "!")
            problem = f"unsafe or unknown YAML tag '!{clip(tag)}' (cards may only use plain YAML)"
        raise YamlProblem(_mark_line(exc), problem) from None
    except yaml.MarkedYAMLError as exc:
        raise YamlProblem(_mark_line(exc), f"YAML syntax error: {exc.problem or exc}") from None
    except yaml.reader.ReaderError as exc:
        # libyaml counts the position in UTF-8 bytes, the pure-Python reader in characters.
        before = raw[: exc.position] if _SafeBase is not yaml.SafeLoader else text[: exc.position].encode()
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
        raise YamlProblem(before.count(b"\n") + 1,
                          f"character U+{char:04X} is not allowed in YAML ({exc.reason})") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(0, f"YAML error: {exc}") from None
    except RecursionError:
        raise YamlProblem(0, "the document is nested too deeply to be a card") from None
    except (ValueError, TypeError, OverflowError) as exc:  # a constructor PyYAML runs after construct_object
        raise YamlProblem(0, f"cannot read this file ({exc})") from None
