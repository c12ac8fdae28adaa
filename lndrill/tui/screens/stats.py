"""The stats screen: per card attempts, best and last score and next due date; per section and per tag
the average over the last answers; a sparkline of scores over time. All from `Store.stats(deck)`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Sparkline, Static

from lndrill.store.records import CardStatus
from lndrill.tui.screens.browser import due_label
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.too_small import TooSmall

EMPTY = "No answers yet. Press escape, then d to drill or m for a mock interview: every answer lands here."


def _bar(value: float, width: int = 12) -> str:
    filled = int(round(width * max(0.0, min(100.0, value)) / 100))
    return "█" * filled + "░" * (width - filled)


class StatsScreen(Screen[None]):
    """Your history at a glance; r reloads it."""

    HORIZONTAL_BREAKPOINTS = too_small.HORIZONTAL
    VERTICAL_BREAKPOINTS = too_small.VERTICAL
    AUTO_FOCUS = "#stats-scroll"
    BINDINGS = [
        Binding("escape", "back", "Home", id="stats.back"),
        Binding("r", "reload", "Reload", id="stats.reload"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield Static("", id="stats-bar", classes="body bar")
        with VerticalScroll(id="stats-scroll", classes="body"):
            yield Static("", id="stats-empty")
            yield Label("", id="stats-trend-title", classes="stats-heading")
            yield Sparkline([], id="stats-trend", summary_function=max)
            yield Label("Cards", classes="stats-heading")
            yield DataTable(id="stats-cards", cursor_type="row", zebra_stripes=True, show_cursor=False)
            yield Label("", id="stats-sections-title", classes="stats-heading")
            yield DataTable(id="stats-sections", zebra_stripes=True, show_cursor=False)
            yield Label("", id="stats-tags-title", classes="stats-heading")
            yield DataTable(id="stats-tags", zebra_stripes=True, show_cursor=False)
        yield Footer(classes="body")

    def on_mount(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        """Read the history again."""
        from lndrill.store import StoreError

        app = self.app
        now: datetime = app.now()  # type: ignore[attr-defined]
        try:
            self.data = app.store.stats(app.deck, now=now)  # type: ignore[attr-defined]
        except StoreError as exc:
            self.notify(str(exc), severity="error")
            self.data = {}
        self._show(now)

    def _show(self, now: datetime) -> None:
        data = self.data
        total = int(data.get("total_attempts") or 0)
        answered = {cid: c for cid, c in data.get("cards", {}).items() if c["attempts"]}
        head = Text(f" Stats  ·  {total} answer{'' if total == 1 else 's'} to {len(answered)} "
                    f"card{'' if len(answered) == 1 else 's'}", style="bold")
        if data.get("first_at"):
            head.append(f" since {datetime.fromisoformat(data['first_at']).astimezone():%Y-%m-%d}")
        self.query_one("#stats-bar", Static).update(head)
        empty = self.query_one("#stats-empty", Static)
        empty.update(Text(EMPTY, style="dim"))
        empty.display = total == 0
        for node in self.query(".stats-heading, Sparkline, DataTable"):
            node.display = total > 0
        if not total:
            return
        trend = [float(t["score"]) for t in data["trend"]]
        self.query_one("#stats-trend-title", Label).update(
            f"Trend: your last {len(trend)} answer{'s' if len(trend) != 1 else ''}, oldest to newest "
            f"(lowest {int(min(trend))}, highest {int(max(trend))}, latest {int(trend[-1])})")
        self.query_one("#stats-trend", Sparkline).data = trend  # a plain list (never a NumPy array)

        cards = self.query_one("#stats-cards", DataTable)
        cards.clear(columns=True)
        for label, key in (("Card", "card"), ("Answers", "n"), ("Best", "best"), ("Last", "last"),
                           ("Next due", "due")):
            cards.add_column(label, key=key)
        for cid, c in sorted(answered.items(), key=lambda kv: (kv[1]["due"] or "~", kv[0])):
            name = Text(cid)
            if not c["in_deck"]:
                name.append(" (not in deck)", style="dim")
            due = datetime.fromisoformat(c["due"]) if c["due"] else None
            when = due_label(CardStatus(cid, c["attempts"], due=due), now)
            if due is not None:
                when.append(f"  {due.astimezone():%Y-%m-%d %H:%M}", style="dim")
            cards.add_row(name, Text(str(c["attempts"]), justify="right"), Text(str(c["best"]), justify="right"),
                          Text(str(c["last"]), justify="right"), when, key=cid)

        window = data.get("window", 10)
        self.query_one("#stats-sections-title", Label).update(
            f"Sections: average of your last {window} answers to each card, weakest first")
        sections = self.query_one("#stats-sections", DataTable)
        sections.clear(columns=True)
        sections.add_column("Card", key="card")
        sections.add_column("Section", key="section")
        sections.add_column("Average", key="average")
        for key, s in sorted(data["sections"].items(), key=lambda kv: (kv[1]["average"], kv[0])):
            sections.add_row(Text(s["card"]), Text(s["title"]), Text(f"{_bar(s['average'])} {s['average']:5.1f}"),
                             key=key)

        self.query_one("#stats-tags-title", Label).update(f"Tags: average of your last {window} answers per tag")
        tags = self.query_one("#stats-tags", DataTable)
        tags.clear(columns=True)
        tags.add_column("Tag", key="tag")
        tags.add_column("Average", key="average")
        tags.add_column("Answers", key="n")
        for tag, t in sorted(data["tags"].items(), key=lambda kv: (kv[1]["average"], kv[0])):
            tags.add_row(Text(tag), Text(f"{_bar(t['average'])} {t['average']:5.1f}"),
                         Text(str(t["attempts"]), justify="right"), key=tag)

    def action_back(self) -> None:
        """Back to the home screen."""
        self.app.pop_screen()
