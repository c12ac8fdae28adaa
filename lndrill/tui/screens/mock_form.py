"""The mock interview form (home `m`): how many questions, minutes per question, an optional tag; the last
choice is offered again (it is kept in the settings file)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from lndrill.practice.mock import DEFAULT_MINUTES, DEFAULT_QUESTIONS, MockOptions
from lndrill.settings import MockSettings
from lndrill.tui.lang import say


def options_from(questions: str, minutes: str, tag: str, cards: int, tags: set[str], lang: str = "en"
                 ) -> tuple[MockOptions | None, str | None]:
    """The options typed in the form, or a one-line reason why they cannot be used (in `lang`)."""
    bad_questions = say(lang, "Questions: a whole number from 1 to 100.", "题数：1 到 100 的整数。")
    bad_minutes = say(lang, "Minutes: a number from 0.5 to 120.", "分钟数：0.5 到 120 之间的数。")
    try:
        k = int(questions.strip())
    except ValueError:
        return None, bad_questions
    if not 1 <= k <= 100:
        return None, bad_questions
    try:
        m = float(minutes.strip())
    except ValueError:
        return None, bad_minutes
    if not 0.5 <= m <= 120:
        return None, bad_minutes
    t = tag.strip().removeprefix("tag:") or None
    if t is not None and t not in tags:
        close = sorted(x for x in tags if x.startswith(t[:3]))[:3]
        hint = say(lang, f" (did you mean {', '.join(close)}?)", f"（是不是 {', '.join(close)}？）") if close else ""
        return None, say(lang, f"No card has tag '{t}'{hint}.", f"没有卡片带标签 '{t}'{hint}。")
    return MockOptions(questions=k, minutes=m, tag=t), None


class MockFormScreen(ModalScreen[MockOptions | None]):
    """Dismisses with the options to start with, or None (escape)."""

    DEFAULT_CSS = """
    MockFormScreen { align: center middle; }
    MockFormScreen > Vertical { width: 60; max-width: 100%; height: auto; border: round $primary;
                                background: $surface; padding: 0 1; }
    MockFormScreen Label { margin: 1 0 0 0; color: $accent; }
    MockFormScreen Input { width: 1fr; }
    MockFormScreen #mock-form-error { color: $error; height: auto; }
    MockFormScreen #mock-form-buttons { height: 1; margin: 1 0 0 0; }
    MockFormScreen #mock-form-buttons Button { margin-right: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="mock_form.cancel")]

    def __init__(self, last: MockSettings, lang: str, cards: int, tags: set[str]) -> None:
        super().__init__()
        self.last, self.lang, self.cards, self.tags = last, lang, cards, tags

    def compose(self) -> ComposeResult:
        lang, last = self.lang, self.last
        minutes = last.minutes if last.minutes is not None else DEFAULT_MINUTES
        with Vertical():
            yield Static(Text(say(lang, "Mock interview", "模拟面试"), style="bold"))
            yield Label(say(lang, f"Questions (1-100; the deck has {self.cards} cards)",
                            f"题数（1-100；题库共 {self.cards} 张卡片）"))
            yield Input(str(last.questions or DEFAULT_QUESTIONS), id="mock-questions", type="integer")
            yield Label(say(lang, "Minutes per question", "每题分钟数"))
            yield Input(f"{minutes:g}", id="mock-minutes", type="number")
            yield Label(say(lang, "Tag (empty: any card)", "标签（留空：任意卡片）"))
            yield Input(last.tag or "", id="mock-tag", placeholder=", ".join(sorted(self.tags))[:50])
            yield Static("", id="mock-form-error")
            with Horizontal(id="mock-form-buttons"):
                yield Button(say(lang, "Start  enter", "开始  enter"), id="mock-start", variant="primary",
                             compact=True)
                yield Button(say(lang, "Cancel  esc", "取消  esc"), id="mock-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#mock-questions", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#mock-start")
    def start(self) -> None:
        """Start with what the form says (or say in one line what is wrong)."""
        options, error = options_from(self.query_one("#mock-questions", Input).value,
                                      self.query_one("#mock-minutes", Input).value,
                                      self.query_one("#mock-tag", Input).value, self.cards, self.tags,
                                      self.lang)
        if options is None:
            self.query_one("#mock-form-error", Static).update(Text(error or ""))
            return
        self.dismiss(options)

    @on(Button.Pressed, "#mock-cancel")
    def action_cancel(self) -> None:
        """Back without starting."""
        self.dismiss(None)
