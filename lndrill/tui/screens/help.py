"""Help: every key of the screen underneath (its bindings, its widgets' and the app's)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

EXTRA_KEYS: dict[str, list[tuple[str, str]]] = {
    "CardScreen": [("tab / shift+tab", "next / previous answer area or control"),
                   ("ctrl+z / ctrl+y", "undo / redo in an answer area")],
    "BrowserScreen": [("up / down", "move in the list"), ("enter", "open the card")],
    "FeedbackScreen": [("up / down", "choose a point"), ("enter", "overrule the chosen point")],
    "MockScreen": [("tab / shift+tab", "next / previous answer area"),
                   ("0:00", "the answer is submitted as typed; the follow-up has its own clock")],
    "MockReportScreen": [("up / down / pgup / pgdn", "scroll the report")],
    "SimScreen": [("tab / shift+tab", "move between controls"), ("enter", "apply a typed value")],
}


def _key_label(key: str) -> str:
    names = {"left_square_bracket": "[", "right_square_bracket": "]", "minus": "-", "plus": "+",
             "equals_sign": "=", "question_mark": "?"}
    return " / ".join(names.get(k.strip(), k.strip()) for k in key.split(","))


def bindings_of(screen: Screen) -> list[tuple[str, str, str]]:
    """(keys, description, where) for the app, the screen and every lndrill widget on it."""
    rows: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    nodes = [screen, *[w for w in screen.walk_children() if type(w).__module__.startswith("lndrill.")],
             screen.app]
    for node in nodes:
        where = "everywhere" if node is screen.app else ("this screen" if node is screen else type(node).__name__)
        for binding in getattr(node, "BINDINGS", []):
            if not isinstance(binding, Binding) or not binding.description:
                continue
            key = (binding.key, binding.action)
            if key in seen:
                continue
            seen.add(key)
            rows.append((_key_label(binding.key), binding.description, where))
    for keys, what in EXTRA_KEYS.get(type(screen).__name__, []):
        rows.append((keys, what, "this screen"))
    rows.append(("ctrl+p", "command palette: screens, actions, theme", "everywhere"))
    return rows


class HelpScreen(ModalScreen[None]):
    """A list of keys; any of escape, q, ? or f1 closes it."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close", id="help.close")]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        table = Table(box=None, expand=True, show_header=True, header_style="bold")
        table.add_column("Keys", no_wrap=True)
        table.add_column("Does")
        table.add_column("Where", style="dim")
        for keys, what, where in bindings_of(self.under):
            table.add_row(Text(keys), Text(what), Text(where))
        with VerticalScroll(id="help-box"):
            yield Static(Text("Keys  (escape closes)", style="bold"), id="help-title")
            yield Static(table, id="help-table")

    def action_close(self) -> None:
        """Close help."""
        self.dismiss(None)
