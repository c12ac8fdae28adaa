"""The card browser: every card with title, tags and difficulty, filtered as you type."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Footer, Input, Static

from lndrill.cards.schema import Card
from lndrill.display import due_label
from lndrill.store import CardStatus
from lndrill.tui.lang import LEVEL_ZH, level, say
from lndrill.tui.messages import CardOrderChanged, OpenCard, ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.text import Wrapped, reflow

DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}
#: From this many columns a pane beside the list shows the highlighted card's full title and prompt.
PREVIEW_COLUMNS = 100
#: The preview pane's width from 140 columns, and below that (beside a list of card, last score and due).
PREVIEW_WIDTH = 40
PREVIEW_NARROW = 34


def match_rank(card: Card, query: str) -> int | None:
    """How well `card` matches `query` (lower is better), None when it does not: every word must be in
    the card (id, titles, tags, difficulty in English or Chinese), and `tag:T` needs a tag starting with T.
    The whole query equal to the id or a title ranks 0, the id or a title starting with it 1, a word of them
    2, the rest 3.
    """
    hay = " ".join([card.id, card.title.en, card.title.zh, " ".join(card.tags), card.difficulty,
                    LEVEL_ZH.get(card.difficulty, "")]).lower()
    words = query.lower().split()
    for word in words:
        if word.startswith("tag:"):
            if word[4:] and not any(t.lower().startswith(word[4:]) for t in card.tags):
                return None
        elif word not in hay:
            return None
    text = " ".join(w for w in words if not w.startswith("tag:"))
    if not text:
        return 3
    names = [card.id.lower(), card.title.en.lower(), card.title.zh.lower()]
    if text in names:
        return 0
    if any(n.startswith(text) for n in names):
        return 1
    if any(text in n for n in names):
        return 2
    return 3


def card_matches(card: Card, query: str) -> bool:
    """True when every word of `query` is in the card (id, titles, tags, difficulty); `tag:T` needs a tag
    starting with T."""
    return match_rank(card, query) is not None


def _placeholder(lang: str) -> str:
    """The filter box's hint, in the user's language."""
    return say(lang, "type to filter: words, or tag:warmup", "输入以筛选：词语，或 tag:warmup")


class BrowserScreen(LndrillScreen[None]):
    """Type to filter; enter or a click opens a card."""

    HELP = """
    ### Card browser

    Type to filter by words (id, title, tags, level) or `tag:warm` (tags starting with it); an exact id
    or title comes first. `enter` opens the highlighted card, `down` moves to the list (`up` / `down` there, `enter` or a click opens). Due cards come first;
    Last is your last score, Due when the card is due for review.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 卡片列表

    输入词语筛选（id、标题、标签、难度），或输入 `tag:warm`（以它开头的标签）；与 id 或标题完全相同的排在最前。
    `enter` 打开高亮的卡片，`down` 移到列表（在列表里 `up` / `down` 移动，`enter` 或点击打开）。到期的卡片排在前面；
    “上次”是你上次的得分，“到期”是卡片该复习的时间。
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
        yield Input(self.initial_query, placeholder=_placeholder(self.lang), id="filter", compact=True)
        with Horizontal(id="browser-main"):
            yield DataTable(id="cards", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="browser-preview", can_focus=False):
                yield Static("", id="browser-preview-text")
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
        self.query_one(Input).placeholder = _placeholder(lang)
        table = self.query_one(DataTable)
        kept = self._highlighted_id()
        table.clear(columns=True)
        preview = self.size.width >= PREVIEW_COLUMNS
        pane = self.query_one("#browser-preview")
        pane.display = preview
        pane_w = PREVIEW_WIDTH if self.size.width >= 140 else PREVIEW_NARROW
        pane.styles.width = pane_w
        width = self.size.width - (pane_w + 1 if preview else 0)
        wide = width >= 110
        # Beside the pane, a list narrower than 110 columns leaves the tags and the level to the pane
        # (it shows both for the highlighted card), so that most titles fit whole.
        brief = preview and not wide
        tags_w, level_w, last_w, due_w = (30 if wide else 16), 6, 4, 8
        title_w = max(20, width - last_w - due_w - 10 if brief else width - tags_w - level_w - last_w - due_w - 14)
        table.add_column(say(lang, "Card", "卡片"), key="title", width=title_w)
        if not brief:
            table.add_column(say(lang, "Tags", "标签"), key="tags", width=tags_w)
            table.add_column(say(lang, "Level", "难度"), key="level", width=level_w)
        table.add_column(say(lang, "Last", "上次"), key="last", width=last_w)
        table.add_column(say(lang, "Due", "到期"), key="due", width=due_w)
        total = self._cards()
        ranked = []
        for i, card in enumerate(total):
            rank = match_rank(card, query)
            if rank is not None:
                ranked.append((rank, i, card))
        self.visible_ids = []
        now = self.practice.now()
        for _rank, _i, card in sorted(ranked, key=lambda r: (r[0], r[1])):
            status = self.statuses.get(card.id)
            title = Text(card.title.get(lang), overflow="ellipsis", no_wrap=True)
            tags = Text(", ".join(card.tags), style="dim", overflow="ellipsis", no_wrap=True)
            last = status.last_score if status is not None else None
            last_text = Text("-" if last is None else str(last), style="dim" if last is None else "",
                             justify="right")
            due = due_label(status.due if status else None, now, answered=bool(status and status.attempts),
                            lang=lang)
            cells = (title, last_text, due) if brief else (title, tags, Text(level(lang, card.difficulty)),
                                                          last_text, due)
            table.add_row(*cells, key=card.id)
            self.visible_ids.append(card.id)
        if kept in self.visible_ids:
            table.move_cursor(row=self.visible_ids.index(kept), animate=False, scroll=True)
        due_note = say(lang, f"   {self.due_now} due", f"   {self.due_now} 张到期") if self.due_now else ""
        if self.practice.cram:
            due_note = say(lang, "   cram: schedule ignored", "   突击模式：不计复习日程")
        if self.visible_ids:
            line = say(lang, f"{len(self.visible_ids)} of {len(total)} cards{due_note}   enter: open   "
                             "down: to the list",
                       f"{len(self.visible_ids)} / {len(total)} 张卡片{due_note}   enter：打开   down：到列表")
        else:
            known = ", ".join(sorted({t for c in total for t in c.tags}))
            line = say(lang, f"No card matches {query.strip()!r}. Tags: {known}",
                       f"没有卡片匹配 {query.strip()!r}。标签：{known}")
        self.query_one("#browser-count", Static).update(Text(line, style="dim"))
        self._show_preview()
        self.app.post_message(CardOrderChanged(list(self.visible_ids)))

    def _highlighted_id(self) -> str | None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        return self.visible_ids[row] if self.visible_ids and 0 <= row < len(self.visible_ids) else None

    def _show_preview(self) -> None:
        """The highlighted card's full title and prompt in the preview pane (from 100 columns)."""
        box = self.query_one("#browser-preview-text", Static)
        card_id = self._highlighted_id()
        if card_id is None:
            box.update("")
            return
        card = self.practice.deck.cards[card_id]
        text = Text(card.title.get(self.lang), style="bold")
        text.append(f"\n{card.id}  ·  {level(self.lang, card.difficulty)}  ·  {', '.join(card.tags)}\n\n",
                    style="dim")
        text.append(reflow(card.prompt.get(self.lang)))
        box.update(Wrapped(text))

    @on(DataTable.RowHighlighted, "#cards")
    def _row_highlighted(self) -> None:
        self._show_preview()

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
            self.notify(say(self.lang, "No card matches the filter.", "没有卡片匹配筛选条件。"), severity="warning")

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
