"""The card browser: every card with title, tags and difficulty, filtered as you type."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Input, Static

from lndrill.cards.schema import Card
from lndrill.display import due_label
from lndrill.store import CardStatus
from lndrill.tui.messages import CardOrderChanged, OpenCard, ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen

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


class BrowserScreen(LndrillScreen[None]):
    """Type to filter; enter or a click opens a card."""

    HELP = """
    ### Card browser

    Type to filter by words (id, title, tags, level) or `tag:warmup`. `enter` opens the highlighted
    card, `down` moves to the list (`up` / `down` there, `enter` or a click opens). Due cards come first;
    Last is your last score, Due when the card is due for review.
    """
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
        self.statuses: dict[str, CardStatus] = {}
        self.order: list[str] = []
        self.due_now = 0

    def compose_body(self) -> ComposeResult:
        yield Input(self.initial_query, placeholder="type to filter: words, or tag:warmup", id="filter",
                    compact=True)
        yield DataTable(id="cards", cursor_type="row", zebra_stripes=True)
        yield Static("", id="browser-count")
        yield Footer()

    def on_mount(self) -> None:
        if self.app.is_headless:
            self.query_one(Input).cursor_blink = False
        self.watch(self.app, "lang", self._fill, init=False)
        self._load_history()
        self._fill()

    def on_screen_resume(self) -> None:
        """Back from a card: scores and due dates may have changed."""
        if self.order:
            self._load_history()
            self._fill()

    def _load_history(self) -> None:
        """Each card's last score and due date, and the drill order (due cards first; the deck order
        with --cram), from the history."""
        cards = self.practice.deck.cards.values()
        ids = [c.id for c in sorted(cards, key=lambda c: (DIFFICULTY_ORDER.get(c.difficulty, 9), c.id))]
        self.statuses = self.practice.card_statuses(ids)
        self.order = self.practice.drill_order(ids)
        now = self.practice.now()
        self.due_now = sum(1 for st in self.statuses.values() if st.is_due(now))

    def _cards(self) -> list[Card]:
        cards = self.practice.deck.cards
        return [cards[cid] for cid in self.order if cid in cards]

    def _fill(self) -> None:
        query = self.query_one(Input).value
        lang = self.lang
        table = self.query_one(DataTable)
        table.clear(columns=True)
        wide = self.size.width >= 110
        tags_w, level_w, last_w, due_w = (30 if wide else 16), 6, 4, 8
        title_w = max(20, self.size.width - tags_w - level_w - last_w - due_w - 14)
        table.add_column("Card", key="title", width=title_w)
        table.add_column("Tags", key="tags", width=tags_w)
        table.add_column("Level", key="level", width=level_w)
        table.add_column("Last", key="last", width=last_w)
        table.add_column("Due", key="due", width=due_w)
        self.visible_ids = []
        total = self._cards()
        now = self.practice.now()
        for card in total:
            if not card_matches(card, query):
                continue
            status = self.statuses.get(card.id)
            title = Text(card.title.get(lang), overflow="ellipsis", no_wrap=True)
            tags = Text(", ".join(card.tags), style="dim", overflow="ellipsis", no_wrap=True)
            last = status.last_score if status is not None else None
            last_text = Text("-" if last is None else str(last), style="dim" if last is None else "",
                             justify="right")
            due = due_label(status.due if status else None, now, answered=bool(status and status.attempts))
            table.add_row(title, tags, Text(card.difficulty), last_text, due, key=card.id)
            self.visible_ids.append(card.id)
        due_note = f"   {self.due_now} due" if self.due_now else ""
        if self.practice.cram:
            due_note = "   cram: schedule ignored"
        self.query_one("#browser-count", Static).update(
            Text(f"{len(self.visible_ids)} of {len(total)} cards{due_note}   enter: open   down: to the list",
                 style="dim"))
        self.app.post_message(CardOrderChanged(list(self.visible_ids)))

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
            self.app.post_message(OpenCard(self.visible_ids[row]))
        else:
            self.notify("No card matches the filter.", severity="warning")

    @on(DataTable.RowSelected, "#cards")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.app.post_message(OpenCard(event.row_key.value))

    def action_to_list(self) -> None:
        """Move from the filter to the list."""
        self.query_one(DataTable).focus()

    def action_back(self) -> None:
        """Back to the home screen."""
        self.app.pop_screen()

    def action_toggle_lang(self) -> None:
        """Switch titles between English and Chinese."""
        self.app.post_message(ToggleLanguage())
