"""The card browser: every card with title, tags and difficulty, filtered as you type."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from lndrill.cards.schema import Card
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.too_small import TooSmall

DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}


def card_matches(card: Card, query: str) -> bool:
    """True when every word of `query` is in the card (id, titles, tags, difficulty); `tag:T` needs tag T."""
    hay = " ".join([card.id, card.title.en, card.title.zh, " ".join(card.tags), card.difficulty]).lower()
    for word in query.lower().split():
        if word.startswith("tag:"):
            if word[4:] and word[4:] not in card.tags:
                return False
        elif word not in hay:
            return False
    return True


class BrowserScreen(Screen[None]):
    """Type to filter; enter or a click opens a card."""

    HORIZONTAL_BREAKPOINTS = too_small.HORIZONTAL
    VERTICAL_BREAKPOINTS = too_small.VERTICAL
    AUTO_FOCUS = "#filter"
    BINDINGS = [
        Binding("escape", "back", "Home", id="browser.back"),
        Binding("down", "to_list", "Cards", show=False, id="browser.down"),
        Binding("ctrl+l", "toggle_lang", "中文/EN", id="browser.lang"),
    ]

    def __init__(self, query: str = "") -> None:
        super().__init__()
        self.initial_query = query
        self.visible_ids: list[str] = []

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield Input(self.initial_query, placeholder="type to filter: words, or tag:warmup", id="filter",
                    classes="body", compact=True)
        yield DataTable(id="cards", cursor_type="row", zebra_stripes=True, classes="body")
        yield Static("", id="browser-count", classes="body")
        yield Footer(classes="body")

    def on_mount(self) -> None:
        if self.app.is_headless:
            self.query_one(Input).cursor_blink = False
        self.watch(self.app, "lang", lambda _lang: self._fill(), init=False)
        self._fill()

    def _cards(self) -> list[Card]:
        deck = getattr(self.app, "deck", None)
        cards = list(deck.cards.values()) if deck is not None else []
        return sorted(cards, key=lambda c: (DIFFICULTY_ORDER.get(c.difficulty, 9), c.id))

    def _fill(self) -> None:
        query = self.query_one(Input).value
        lang = getattr(self.app, "lang", "en")
        table = self.query_one(DataTable)
        table.clear(columns=True)
        tags_w, level_w = 30, 7
        title_w = max(20, self.size.width - tags_w - level_w - 10)
        table.add_column("Card", key="title", width=title_w)
        table.add_column("Tags", key="tags", width=tags_w)
        table.add_column("Level", key="level", width=level_w)
        self.visible_ids = []
        total = self._cards()
        for card in total:
            if not card_matches(card, query):
                continue
            title = Text(card.title.get(lang), overflow="ellipsis", no_wrap=True)
            tags = Text(", ".join(card.tags), style="dim", overflow="ellipsis", no_wrap=True)
            table.add_row(title, tags, Text(card.difficulty), key=card.id)
            self.visible_ids.append(card.id)
        self.query_one("#browser-count", Static).update(
            Text(f"{len(self.visible_ids)} of {len(total)} cards   enter: open   down: to the list", style="dim"))
        self.app.card_order = list(self.visible_ids)  # type: ignore[attr-defined]

    def on_resize(self) -> None:
        self._fill()

    @on(Input.Changed, "#filter")
    def _filter(self) -> None:
        self._fill()

    @on(Input.Submitted, "#filter")
    def _open_first(self) -> None:
        table = self.query_one(DataTable)
        if self.visible_ids:
            row = table.cursor_row if 0 <= table.cursor_row < len(self.visible_ids) else 0
            self.app.open_card(self.visible_ids[row])  # type: ignore[attr-defined]
        else:
            self.notify("No card matches the filter.", severity="warning")

    @on(DataTable.RowSelected, "#cards")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.app.open_card(event.row_key.value)  # type: ignore[attr-defined]

    def action_to_list(self) -> None:
        """Move from the filter to the list."""
        self.query_one(DataTable).focus()

    def action_back(self) -> None:
        """Back to the home screen."""
        self.app.pop_screen()

    def action_toggle_lang(self) -> None:
        """Switch titles between English and Chinese."""
        self.app.lang = "en" if getattr(self.app, "lang", "en") == "zh" else "zh"  # type: ignore[attr-defined]
