"""Shared fixtures: keep every test away from the developer's own data and content.

Helpers shared by several test modules live in tests/helpers.py (`from helpers import ...`; pytest puts
this directory on sys.path). Markers: `tui` (Textual pilot and snapshot tests), `system` (subprocesses,
tmux, kill -9); the fast inner loop is `pytest -m "not tui and not system"`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LNDRILL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LNDRILL_CONFIG", str(tmp_path / "config" / "config.toml"))
    # Answers kept outside an unwritable data directory go to the temporary directory: the test's own.
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.delenv("LNDRILL_CONTENT", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture(scope="session")
def deck():
    """The bundled deck."""
    from lndrill.cards.deck import load_deck

    return load_deck()


@pytest.fixture(scope="session")
def main_card(deck):
    """The article's question card."""
    return deck.get("pre-vs-post-ln")
