"""Safe YAML loading that remembers line numbers, so every problem can be reported as path:line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


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


_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when available: ~5x faster


class _LineLoader(_SafeBase):  # type: ignore[valid-type,misc]
    """A safe loader (no arbitrary tags, ever) that records where mappings and sequences start."""

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
                    None, None, f"duplicate key '{key}'", key_node.start_mark
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


class YamlProblem(Exception):
    """A YAML file that cannot be read; carries the 1-based line where the problem is."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


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
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader derives from SafeLoader
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = exc.problem or "cannot construct value"
        if "could not determine a constructor" in problem:
            tag = problem.split("tag", 1)[-1].strip(" '!").replace("tag:yaml.org,2002:", "!")
            problem = f"unsafe or unknown YAML tag '!{tag}' (cards may only use plain YAML)"
        raise YamlProblem(line, problem) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise YamlProblem(line, f"YAML syntax error: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(0, f"YAML error: {exc}") from None
