"""The package's import graph: no cycle anywhere, and each layer imports only what it may.

Every `import` and `from ... import` counts, at module level or inside a function (a lazy import is
still a dependency); only imports under `if TYPE_CHECKING:` are left out, as they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import lndrill

PKG = Path(lndrill.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = ("lndrill", *path.relative_to(PKG).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[str]:
    """Every module name imported in `tree` (outside `if TYPE_CHECKING:` blocks)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:  # `from pkg import submodule` imports the submodule, else pkg itself
                sub = f"{node.module}.{alias.name}"
                found.append(sub if sub in MODULES else node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def graph() -> dict[str, set[str]]:
    """lndrill module -> the lndrill modules it imports."""
    edges: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {t for t in _imports(ast.parse(path.read_text("utf-8"))) if t in MODULES and t != name}
        edges[name] = targets
    return edges


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := walk(start)):
            return found
    return None


def _all_imports(prefix: str) -> dict[str, set[str]]:
    """For every module under `prefix`: every module it imports (inside the package or not)."""
    return {name: set(_imports(ast.parse(path.read_text("utf-8"))))
            for name, path in MODULES.items() if name == prefix or name.startswith(prefix + ".")}


def test_the_package_has_no_import_cycle() -> None:
    assert _cycle(graph()) is None, " -> ".join(_cycle(graph()) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_simulator_imports_neither_argparse_nor_sys_nor_the_rest_of_the_house() -> None:
    for name, imported in _all_imports("lndrill.sim").items():
        assert not {"argparse", "sys"} & imported, name
        outside = {m for m in imported if m.startswith("lndrill.") and not m.startswith("lndrill.sim")}
        assert outside <= {"lndrill.display"}, (name, outside)


def test_the_training_lab_imports_neither_argparse_nor_sys_nor_the_rest_of_the_house() -> None:
    for name, imported in _all_imports("lndrill.train").items():
        assert not {"argparse", "sys"} & imported, name
        outside = {m for m in imported if m.startswith("lndrill.") and not m.startswith("lndrill.train")}
        assert {m.rsplit(".", 1)[0] if m.startswith("lndrill.sim.") else m for m in outside} <= {
            "lndrill.sim", "lndrill.display"}, (name, outside)


def test_the_layers_import_downwards_only() -> None:
    """cli and tui > practice > store > scoring > cards (sim and display stand apart)."""
    order = ["lndrill.cards", "lndrill.scoring", "lndrill.store", "lndrill.practice"]
    for rank, layer in enumerate(order):
        higher = order[rank + 1:] + ["lndrill.cli", "lndrill.tui"]
        for name, imported in _all_imports(layer).items():
            up = {m for m in imported if any(m == h or m.startswith(h + ".") for h in higher)}
            assert not up, (name, up)


def test_only_the_practice_records_answers() -> None:
    """One function records an answer (`Practice.submit`), for the app and for `lndrill score` alike."""
    callers = set()
    for name, path in MODULES.items():
        if name.startswith("lndrill.store"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in {"record_answer", "record_result", "record_attempt", "review"}):
                callers.add(name)
    assert callers == {"lndrill.practice.service"}
