"""The home screen: Drill, Mock interview, Simulator, Stats, and the deck's size."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from lndrill.tui.messages import Destination, Navigate
from lndrill.tui.screens.base import LndrillScreen


def _entry(title: str, key: str, line: str, dim: bool = False) -> Text:
    text = Text()
    text.append(title, style="bold dim" if dim else "bold")
    text.append(f"  ({key})", style="dim")
    text.append("\n  " + line, style="dim" if dim else "")
    return text


class HomeScreen(LndrillScreen[None]):
    """Pick what to do."""

    HELP = """
    ### Home

    `up` / `down` and `enter` (or a click) pick what to do; the letters open it at once.
    `ctrl+p` opens the command palette: every screen, every card by title, themes and the keys.
    """
    AUTO_FOCUS = "#home-menu"
    BINDINGS = [
        Binding("d", "drill", "Drill", id="home.drill"),
        Binding("m", "mock", "Mock interview", id="home.mock"),
        Binding("s", "sim", "Simulator", id="home.sim"),
        Binding("t", "stats", "Stats", id="home.stats"),
    ]

    def compose_body(self) -> ComposeResult:
        deck = self.practice.deck
        n = len(deck.cards)
        title = Text("lndrill", style="bold")
        title.append("\nPre-LN or Post-LN: where does LayerNorm go, and why does it matter?")
        yield Static(title, id="home-title")
        yield OptionList(
            Option(_entry("Drill", "d", f"Answer question cards and get scored point by point ({n} card{'s' if n != 1 else ''})."),
                   id="drill"),
            Option(_entry("Mock interview", "m", "Timed questions, the interviewer's follow-ups, then a report."),
                   id="mock"),
            Option(_entry("Simulator", "s", "Gradient norms per depth: Post-LN vs Pre-LN, live."), id="sim"),
            Option(_entry("Stats", "t", "Your history: scores per card, section and tag; due dates."),
                   id="stats"),
            id="home-menu",
        )
        problems = len({str(p.path) for p in deck.problems})
        status = f"Deck: {n} card{'s' if n != 1 else ''}"
        if problems:
            status += f" ({problems} broken file{'s' if problems != 1 else ''} skipped: lndrill cards check)"
        yield Static(Text(status, style="dim"), id="home-deck")
        yield Footer()

    @on(OptionList.OptionSelected, "#home-menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        places: dict[str | None, Destination] = {"drill": "browser", "mock": "mock", "sim": "sim", "stats": "stats"}
        self.app.post_message(Navigate(places[event.option.id]))

    def action_drill(self) -> None:
        """Open the card browser."""
        self.app.post_message(Navigate("browser"))

    def action_mock(self) -> None:
        """Start a mock interview (3 questions, 5 minutes each)."""
        self.app.post_message(Navigate("mock"))

    def action_stats(self) -> None:
        """Open the stats screen."""
        self.app.post_message(Navigate("stats"))

    def action_sim(self) -> None:
        """Open the simulator screen."""
        self.app.post_message(Navigate("sim"))
