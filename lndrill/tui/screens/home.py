"""The home screen: Drill, Mock interview, Simulator, Stats, and the deck's size."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from lndrill.tui.lang import say
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
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 主页

    `up` / `down` 和 `enter`（或点击）选择要做的事；按对应字母直接打开。
    `ctrl+p` 打开命令面板：所有界面、按标题列出的所有卡片、主题和按键。
    """
    AUTO_FOCUS = "#home-menu"
    BINDINGS = [
        Binding("d", "drill", "Drill", id="home.drill"),
        Binding("m", "mock", "Mock interview", id="home.mock"),
        Binding("s", "sim", "Simulator", id="home.sim"),
        Binding("t", "stats", "Stats", id="home.stats"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("", id="home-title")
        yield OptionList(id="home-menu")
        yield Static("", id="home-deck")
        yield Footer()

    def on_mount(self) -> None:
        self._due: int | None = None
        self._fresh = 0  # cards never answered nor scheduled
        self._show_text(self.lang)
        self.watch(self.app, "lang", self._show_text, init=False)
        self.count_due()

    def on_screen_resume(self) -> None:
        self.count_due()  # an answer given since may have changed what is due

    @work(thread=True, exclusive=True, group="home-due", exit_on_error=False)
    def count_due(self) -> None:
        """How many cards are due for review now (off the UI thread: it may open the history)."""
        practice = self.practice
        statuses = practice.card_statuses(practice.deck.cards)
        now = practice.now()
        due = sum(1 for st in statuses.values() if st.due is not None and st.due <= now)
        fresh = sum(1 for cid in practice.deck.cards if cid not in statuses or not statuses[cid].seen)
        self.app.call_from_thread(self._set_due, due if statuses else None, fresh)

    def _set_due(self, due: int | None, fresh: int = 0) -> None:
        self._due, self._fresh = due, fresh
        self._show_text(self.lang)

    def _show_text(self, lang: str) -> None:
        deck = self.practice.deck
        n = len(deck.cards)
        title = Text("lndrill", style="bold")
        title.append("\n" + say(lang, "Pre-LN or Post-LN: where does LayerNorm go, and why does it matter?",
                                "Pre-LN 还是 Post-LN：LayerNorm 放在哪里，为什么重要？"))
        self.query_one("#home-title", Static).update(title)
        due = self._due
        drill = say(lang, f"Answer question cards and get scored point by point ({n} card{'s' if n != 1 else ''}).",
                    f"回答题卡，逐点评分（共 {n} 张）。")
        if due:
            drill += say(lang, f" {due} due for review.", f" {due} 张待复习。")
        menu = self.query_one("#home-menu", OptionList)
        keep = menu.highlighted
        menu.clear_options()
        menu.add_options([
            Option(_entry(say(lang, "Drill", "练习"), "d", drill), id="drill"),
            Option(_entry(say(lang, "Mock interview", "模拟面试"), "m",
                          say(lang, "Timed questions, the interviewer's follow-ups, then a report.",
                              "限时答题、面试官追问，最后出报告。")), id="mock"),
            Option(_entry(say(lang, "Simulator", "模拟器"), "s",
                          say(lang, "Gradient norms per depth: Post-LN vs Pre-LN, live.",
                              "各深度的梯度范数：Post-LN 对比 Pre-LN，实时计算。")), id="sim"),
            Option(_entry(say(lang, "Stats", "统计"), "t",
                          say(lang, "Your history: scores per card, section and tag; due dates.",
                              "你的历史：按卡片、部分和标签的得分；复习日期。")), id="stats"),
        ])
        menu.highlighted = keep if keep is not None else 0
        problems = len({str(p.path) for p in deck.problems})
        status = say(lang, f"Deck: {n} card{'s' if n != 1 else ''}", f"题库：{n} 张卡片")
        if due is not None:
            status += say(lang, f" · {due} due now", f" · {due} 张到期")
        if self._fresh:  # a new user's cards are all new, none due: say so rather than only "0 due now"
            status += say(lang, f" · {self._fresh} new", f" · {self._fresh} 张新卡")
        if problems:
            status += say(lang, f" ({problems} broken file{'s' if problems != 1 else ''} skipped: lndrill cards check)",
                          f"（跳过 {problems} 个损坏的文件：lndrill cards check）")
        self.query_one("#home-deck", Static).update(Text(status, style="dim"))

    @on(OptionList.OptionSelected, "#home-menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        places: dict[str | None, Destination] = {"drill": "browser", "mock": "mock", "sim": "sim", "stats": "stats"}
        self.app.post_message(Navigate(places[event.option.id]))

    def action_drill(self) -> None:
        """Open the card browser."""
        self.app.post_message(Navigate("browser"))

    def action_mock(self) -> None:
        """Start a mock interview: a small form (questions, minutes, tag) with your last choice."""
        self.app.post_message(Navigate("mock"))

    def action_stats(self) -> None:
        """Open the stats screen."""
        self.app.post_message(Navigate("stats"))

    def action_sim(self) -> None:
        """Open the simulator screen."""
        self.app.post_message(Navigate("sim"))
