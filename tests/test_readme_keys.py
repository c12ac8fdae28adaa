"""README's key table says what the help panel (f1) shows: every key bound on a screen, on the simulator
panel and on the app is in the table's row for that place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.binding import Binding

from lndrill.tui.app import LndrillApp
from lndrill.tui.screens.browser import BrowserScreen
from lndrill.tui.screens.card import CardScreen
from lndrill.tui.screens.feedback import FeedbackScreen
from lndrill.tui.screens.home import HomeScreen
from lndrill.tui.screens.sim import SimScreen
from lndrill.tui.screens.stats import StatsScreen
from lndrill.tui.screens.training import TrainingScreen
from lndrill.tui.widgets.sim_panel import SimPanel

README = Path(__file__).resolve().parent.parent / "README.md"
PLACES = {"everywhere": LndrillApp, "home": HomeScreen, "card browser": BrowserScreen, "card": CardScreen,
          "simulator panel (focused)": SimPanel, "feedback": FeedbackScreen, "simulator screen": SimScreen,
          "stats": StatsScreen, "training": TrainingScreen}
#: How README writes a key Textual names otherwise.
SPELLED = {"escape": "esc", "left_square_bracket": "[", "right_square_bracket": "]", "minus": "-", "plus": "+",
           "equals_sign": "=", "question_mark": "?"}


def _rows() -> dict[str, set[str]]:
    """README's key table: place -> every key written in backticks in its row (`1`-`4` is 1, 2, 3, 4)."""
    text = README.read_text("utf-8")
    table = text[text.index("| Where | Keys |"):]
    rows: dict[str, set[str]] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        where, keys = (cell.strip() for cell in line.strip("|").split("|", 1))
        found = set(re.findall(r"`([^`]+)`", keys))
        for lo, hi in re.findall(r"`(\d)`-`(\d)`", keys):
            found |= {str(d) for d in range(int(lo), int(hi) + 1)}
        rows[where] = {k for item in found for k in item.split("/")}
    return rows


@pytest.mark.parametrize("place", sorted(PLACES))
def test_every_bound_key_is_in_readmes_key_table(place: str) -> None:
    written = _rows()[place]
    bindings = [b for b in PLACES[place].BINDINGS if isinstance(b, Binding)]
    assert bindings
    for binding in bindings:
        keys = [SPELLED.get(k.strip(), k.strip()) for k in binding.key.split(",")]
        assert any(k in written for k in keys), f"{place}: {binding.key} ({binding.description}) is not in README"


def _bound(place: str) -> set[str]:
    keys = set()
    for binding in PLACES[place].BINDINGS:
        if isinstance(binding, Binding):
            keys |= {SPELLED.get(k.strip(), k.strip()) for k in binding.key.split(",")}
    if place == "everywhere":
        keys.add(LndrillApp.COMMAND_PALETTE_BINDING)
    return keys


@pytest.mark.parametrize("place", sorted(PLACES))
def test_every_key_in_readmes_table_is_in_the_help_panel(place: str) -> None:
    """The other way round: a key README gives for a place is bound there, or (a key of a widget: `tab`,
    `enter` in a list, `pageup`) written in the HELP text the help panel shows for that place."""
    help_text = PLACES[place].HELP if place != "everywhere" else ""
    words = set(re.findall(r"`([^`]+)`", help_text or ""))
    written = {k for k in _rows()[place] if not k.startswith("tag:") and " " not in k}
    missing = sorted(k for k in written - _bound(place) if k not in words and k.split("/")[0] not in words)
    assert not missing, f"{place}: README gives {missing}, which neither a binding nor the help text has"
