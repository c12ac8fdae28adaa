"""The stats screen: per card attempts, best and last score and next due date; per section and per tag
the average over the last answers; a sparkline of scores over time. All from `Practice.stats()`."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Label, Static

from lndrill.display import block_bar, due_label
from lndrill.practice import Stats
from lndrill.tui.lang import say
from lndrill.tui.messages import OpenCard
from lndrill.tui.screens.base import LndrillScreen

EMPTY = "No answers yet. Press escape, then d to drill or m for a mock interview: every answer lands here."
EMPTY_ZH = "还没有回答。按 escape，再按 d 练习或 m 模拟面试：每次回答都会记在这里。"
#: Average bars are this many cells wide.
BAR_CELLS = 12


class StatsScreen(LndrillScreen[None]):
    """Your history at a glance; r reloads it."""

    HELP = """
    ### Stats

    Per card your answers, best and last score and the next review; per section and per tag the average
    of your last answers, weakest first; a trend of recent scores on a fixed 0-100 scale (as in
    `lndrill stats`); the points you overruled and mistakes you disputed most. In the card table
    `up` / `down` choose a card and `enter` opens it; `tab` moves to the other tables.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 统计

    每张卡片的回答数、最高和上次得分以及下次复习时间；每个部分和每个标签最近几次回答的平均分，最弱的在前；
    最近得分的趋势，固定 0-100 刻度（与 `lndrill stats` 相同）；你最常推翻的要点和最常提出异议的错误。
    在卡片表里 `up` / `down` 选择卡片，`enter` 打开；`tab` 移到其他表格。
    """
    AUTO_FOCUS = "#stats-cards"
    BINDINGS = [
        Binding("escape", "back", "Home", id="stats.back"),
        Binding("r", "reload", "Reload", id="stats.reload"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.stats: Stats | None = None

    def compose_body(self) -> ComposeResult:
        yield Static("", id="stats-bar", classes="bar")
        with VerticalScroll(id="stats-scroll"):
            yield Static("", id="stats-empty")
            yield Label("", id="stats-trend-title", classes="stats-heading")
            yield Static("", id="stats-trend")
            yield Label("", id="stats-cards-title", classes="stats-heading")
            yield DataTable(id="stats-cards", cursor_type="row", zebra_stripes=True)
            yield Label("", id="stats-sections-title", classes="stats-heading")
            yield DataTable(id="stats-sections", zebra_stripes=True, show_cursor=False)
            yield Label("", id="stats-tags-title", classes="stats-heading")
            yield DataTable(id="stats-tags", zebra_stripes=True, show_cursor=False)
            yield Label("", id="stats-overruled-title", classes="stats-heading")
            yield DataTable(id="stats-overruled", zebra_stripes=True, show_cursor=False)
        yield Footer()

    def on_mount(self) -> None:
        self.action_reload()
        self.watch(self.app, "lang", lambda _lang: self._show(), init=False)  # the labels follow the language

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """Focusing the card table keeps the view where it is (at the top: the trend stays on screen)."""
        if widget is not None and widget.id == "stats-cards":
            scroll_visible = False
        super().set_focus(widget, scroll_visible=scroll_visible, from_app_focus=from_app_focus)

    def action_reload(self) -> None:
        """Read the history again."""
        self.stats = self.practice.stats()
        self._show()

    def _show(self) -> None:
        stats = self.stats
        total = stats.total_attempts if stats is not None else 0
        answered = stats.answered if stats is not None else ()
        head = Text(say(self.lang, f" Stats  ·  {total} answer{'' if total == 1 else 's'} to {len(answered)} "
                                   f"card{'' if len(answered) == 1 else 's'}",
                        f" 统计  ·  {len(answered)} 张卡片共 {total} 次回答"), style="bold")
        if stats is not None and stats.first_at is not None:
            head.append(say(self.lang, f" since {stats.first_at.astimezone():%Y-%m-%d}",
                            f"，自 {stats.first_at.astimezone():%Y-%m-%d} 起"))
        self.query_one("#stats-bar", Static).update(head)
        empty = self.query_one("#stats-empty", Static)
        empty.update(Text(say(self.lang, EMPTY, EMPTY_ZH), style="dim"))
        empty.display = total == 0
        for node in self.query(".stats-heading, #stats-trend, DataTable"):
            node.display = total > 0
        if stats is None or not total:
            return
        now = stats.generated_at
        lang = self.lang
        trend = [t.score for t in stats.trend]
        self.query_one("#stats-trend-title", Label).update(say(
            # One line at 80 columns (the scale, 0-100, is stated after the sparkline).
            lang, f"Trend: last {len(trend)} answer{'s' if len(trend) != 1 else ''}, oldest first "
                  f"(lowest {min(trend)}, highest {max(trend)}, latest {trend[-1]})",
            f"趋势：最近 {len(trend)} 次回答，从旧到新（最低 {min(trend)}，最高 {max(trend)}，最近 {trend[-1]}）"))
        spark = Text(stats.sparkline, style="bold")  # a fixed 0-100 scale: 85 and 94 look alike, as they are
        spark.append("  0-100", style="dim")
        self.query_one("#stats-trend", Static).update(spark)
        self.query_one("#stats-cards-title", Label).update(say(lang, "Cards  (enter: open the card)",
                                                               "卡片（enter：打开卡片）"))

        cards = self.query_one("#stats-cards", DataTable)
        cards.clear(columns=True)
        for label, key in ((say(lang, "Card", "卡片"), "card"), (say(lang, "Answers", "回答数"), "n"),
                           (say(lang, "Best", "最高"), "best"), (say(lang, "Last", "上次"), "last"),
                           (say(lang, "Next due", "下次到期"), "due")):
            cards.add_column(label, key=key)
        for c in sorted(answered, key=lambda c: (c.due is None, c.due or now, c.card_id)):
            name = Text(c.card_id)
            if not c.in_deck:
                name.append(say(lang, " (not in deck)", "（不在题库中）"), style="dim")
            when = due_label(c.due, now, answered=True, lang=lang)
            if c.due is not None:
                when.append(f"  {c.due.astimezone():%Y-%m-%d %H:%M}", style="dim")
            cards.add_row(name, Text(str(c.attempts), justify="right"), Text(str(c.best), justify="right"),
                          Text(str(c.last), justify="right"), when, key=c.card_id)

        window = stats.window
        self.query_one("#stats-sections-title", Label).update(say(
            lang, f"Sections: average of your last {window} answers to each card, weakest first",
            f"各部分：每张卡片最近 {window} 次回答的平均分，最弱的在前"))
        sections = self.query_one("#stats-sections", DataTable)
        sections.clear(columns=True)
        sections.add_column(say(lang, "Card", "卡片"), key="card")
        sections.add_column(say(lang, "Section", "部分"), key="section")
        sections.add_column(say(lang, "Average", "平均"), key="average")
        for s in sorted(stats.sections, key=lambda s: (s.average, s.key)):
            title = self._section_title(s.card_id, s.section_id, s.title)
            sections.add_row(Text(s.card_id), Text(title), Text(f"{block_bar(s.average, width=BAR_CELLS)} "
                                                                f"{s.average:5.1f}"), key=s.key)

        self.query_one("#stats-tags-title", Label).update(say(
            lang, f"Tags: average of your last {window} answers per tag", f"标签：每个标签最近 {window} 次回答的平均分"))
        tags = self.query_one("#stats-tags", DataTable)
        tags.clear(columns=True)
        tags.add_column(say(lang, "Tag", "标签"), key="tag")
        tags.add_column(say(lang, "Average", "平均"), key="average")
        tags.add_column(say(lang, "Answers", "回答数"), key="n")
        for t in sorted(stats.tags, key=lambda t: (t.average, t.tag)):
            tags.add_row(Text(t.tag), Text(f"{block_bar(t.average, width=BAR_CELLS)} {t.average:5.1f}"),
                         Text(str(t.attempts), justify="right"), key=t.tag)

        overruled = self.query_one("#stats-overruled", DataTable)
        overruled.clear(columns=True)
        self.query_one("#stats-overruled-title", Label).update(say(
            lang, "Most overruled: where you disagreed with the scorer", "最常推翻：你不同意评分之处"))
        overruled.add_column(say(lang, "Card", "卡片"), key="card")
        overruled.add_column(say(lang, "Point or mistake", "要点或错误"), key="item")
        overruled.add_column(say(lang, "Overruled", "推翻"), key="n")
        for i, o in enumerate(stats.overrules[:10]):
            kind = say(lang, "mistake", "错误") if o.kind == "mistake" else say(lang, "point", "要点")
            overruled.add_row(Text(o.card_id), Text(f"{o.item_id}  ({kind})"),
                              Text(f"{o.times} / {o.judged}", justify="right"), key=str(i))
        overruled.display = self.query_one("#stats-overruled-title").display = bool(stats.overrules)

    def _section_title(self, card_id: str, section_id: str, title: str) -> str:
        """A section's title in the user's language (the card's own; `title` for a card no longer in the deck)."""
        card = self.practice.deck.cards.get(card_id)
        section = next((x for x in card.sections if x.id == section_id), None) if card is not None else None
        return section.title.get(self.lang) if section is not None else title

    @on(DataTable.RowSelected, "#stats-cards")
    def _open(self, event: DataTable.RowSelected) -> None:
        card_id = event.row_key.value
        if card_id and card_id in self.practice.deck.cards:
            self.app.post_message(OpenCard(card_id))
        elif card_id:
            self.notify(say(self.lang, f"Card '{card_id}' is no longer in the deck.",
                            f"卡片 '{card_id}' 已不在题库中。"), severity="warning")

    def on_screen_resume(self) -> None:
        self.action_reload()  # back from a card: an answer may have been added

    def action_back(self) -> None:
        """Back to the home screen."""
        self.app.pop_screen()
