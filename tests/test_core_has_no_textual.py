"""The headless core (cards, scoring, sim, train, store, practice, and the display helpers) must never import
textual."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import lndrill

CORE = ("cards", "scoring", "sim", "train", "store", "practice")
PKG = Path(lndrill.__file__).resolve().parent


def _core_files() -> list[Path]:
    return [p for name in CORE for p in sorted((PKG / name).rglob("*.py"))] + [PKG / "display.py"]


def test_no_core_module_mentions_textual_in_an_import() -> None:
    offenders = []
    for path in _core_files():
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "textual" or n.startswith("textual.") for n in names):
                offenders.append(f"{path.relative_to(PKG)}:{node.lineno}")
    assert offenders == []


@pytest.mark.system
def test_importing_every_core_module_does_not_load_textual() -> None:
    modules = sorted(
        "lndrill." + ".".join(p.relative_to(PKG).with_suffix("").parts)
        for p in _core_files()
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m.removesuffix('.__init__'))\n"
        "print('textual' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
