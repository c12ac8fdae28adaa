"""The card screen: the prompt, one answer area per section, ctrl+s to score, the simulator beside it."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Label, Static, TextArea

from lndrill.cards.schema import Card
from lndrill.practice import PracticeError, Submission
from lndrill.practice.answer import SCORED_CHARS
from lndrill.tui.lang import level, say
from lndrill.tui.messages import OpenNextCard, ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.text import Wrapped, reflow
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.answer_area import AnswerArea, fill_from_draft
from lndrill.tui.widgets.sim_panel import SimPanel

#: Below this many columns the simulator panel goes under the card instead of beside it.
WIDE_COLUMNS = 100
#: Under the card, the panel is shown at first only when there are this many rows (else `ctrl+g` / `f2`).
TALL_ROWS = 36


class CardScreen(LndrillScreen[None]):
    """Answer one card. The first answer area has focus on open; ctrl+s scores the answer."""

    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (too_small.MIN_WIDTH, "-narrow"), (WIDE_COLUMNS, "-wide")]
    HELP = """
    ### Card

    Answer each section in its own area, in English, Chinese or both; `ctrl+s` scores the whole answer.
    `tab` / `shift+tab` move between the areas and buttons; `ctrl+z` / `ctrl+y` undo and redo.
    `f2` moves to the simulator panel (its keys then work) and back to your answer.
    What you type is kept as a draft (autosaved) until you submit.
    On the warm-up cards (post-ln-warmup, warmup-for-pre-ln, admin-amplification) `ctrl+t` runs the
    experiment: the Training view trains Post-LN and Pre-LN with and without warm-up.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 卡片

    每个部分在自己的回答框里作答，可以用英文、中文或两者；`ctrl+s` 为整份回答评分。
    `tab` / `shift+tab` 在回答框和按钮之间移动；`ctrl+z` / `ctrl+y` 撤销和重做。
    `f2` 移到模拟器面板（面板的按键随即生效），再按一次回到你的回答。
    输入的内容会作为草稿自动保存，直到你提交。
    在 warm-up 相关的卡片上（post-ln-warmup、warmup-for-pre-ln、admin-amplification），`ctrl+t` 运行实验：
    训练实验视图会训练有无 warm-up 的 Post-LN 和 Pre-LN。
    """
    PALETTE = (
        ("Submit answer", "score the answer (ctrl+s)", "submit"),
        ("Toggle simulator panel", "beside the card (ctrl+g)", "toggle_sim"),
        ("Focus simulator panel", "its keys work there; again: back to the answer (f2)", "focus_sim"),
        ("Next card", "skip to the next card (ctrl+n)", "next_card"),
    )
    AUTO_FOCUS = "#answer-0"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="card.submit"),
        Binding("ctrl+l", "toggle_lang", "中文/EN", id="card.lang"),
        Binding("ctrl+g", "toggle_sim", "Simulator", id="card.sim"),
        Binding("f2", "focus_sim", "Panel focus", id="card.sim_focus"),
        Binding("ctrl+n", "next_card", "Next card", id="card.next"),
        Binding("ctrl+t", "experiment", "Experiment", id="card.experiment"),
        Binding("escape", "back", "Cards", id="card.back"),
    ]

    def __init__(self, card: Card) -> None:
        super().__init__()
        self.card = card

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="card-top", classes="bar"):
            yield Static("", id="card-bar")
            yield Static("", id="card-status")
        with Container(id="card-main"):
            with VerticalScroll(id="card-left"):
                yield Static("", id="card-title")
                yield Static("", id="card-prompt")
                for i, _section in enumerate(self.card.sections):
                    yield Label("", id=f"section-title-{i}", classes="section-title")
                    yield AnswerArea(id=f"answer-{i}")
                with Horizontal(id="card-actions"):
                    yield Button("Submit  ctrl+s", id="submit", variant="primary", compact=True)
                    yield Button("中文/EN  ctrl+l", id="lang", compact=True)
                    yield Button("Simulator  ctrl+g", id="toggle-sim", compact=True)
            yield SimPanel(self.lndrill.panel_knobs, id="sim-panel")
        yield Footer()

    def on_mount(self) -> None:
        self.stopwatch = self.practice.stopwatch()
        self.stopwatch.start()
        self._show_text(self.lang)
        self.watch(self.app, "lang", self._show_text, init=False)
        panel = self.query_one(SimPanel)
        size = self.app.size
        panel.display = size.width >= WIDE_COLUMNS or size.height >= TALL_ROWS
        self.watch(panel, "knobs", self.lndrill.remember_panel, init=False)
        self._warm_rubric()
        # The draft goes in once the areas have their width, so it is wrapped (and drawn) once, at that width.
        self.call_after_refresh(self.restore_draft)
        # Focusing the first area scrolls it into view; keep the prompt above it on screen too.
        self.call_after_refresh(lambda: self.query_one("#card-left").scroll_home(animate=False))

    @work(thread=True, group="rubric", exit_on_error=False)
    def _warm_rubric(self) -> None:
        """Compile the card's rubric in the background so the first ctrl+s is fast."""
        from lndrill.scoring.engine import rubric_for

        rubric_for(self.card)

    def _show_text(self, lang: str) -> None:
        card = self.card
        bar = Text(f" {card.id}", style="bold")
        bar.append(f"  ·  {level(lang, card.difficulty)}  ·  {', '.join(card.tags)}  ·  {say(lang, 'English', '中文')}")
        self.query_one("#card-bar", Static).update(bar)
        self.query_one("#card-title", Static).update(Text(card.title.get(lang), style="bold"))
        self.query_one("#card-prompt", Static).update(Wrapped(Text(reflow(card.prompt.get(lang)))))
        total = sum(section.max_score for section in card.sections) or 1.0
        for i, section in enumerate(card.sections):
            points = len(section.points)
            worth = round(100 * section.max_score / total)
            label = say(lang, f"  ({points} point{'s' if points != 1 else ''} to make, worth {worth} of 100)",
                        f"  （{points} 个要点，占 {worth}/100 分）")
            self.query_one(f"#section-title-{i}", Label).update(
                Text(f"{i + 1}. {section.title.get(lang)}", style="bold").append(label, style="dim"))
        self._show_submit_label()
        self.query_one("#lang", Button).label = say(lang, "中文  ctrl+l", "English  ctrl+l")
        self.query_one("#toggle-sim", Button).label = say(lang, "Simulator  ctrl+g", "模拟器  ctrl+g")

    def _show_submit_label(self) -> None:
        lang = self.lang
        self.query_one("#submit", Button).label = (say(lang, "Scoring...", "评分中...") if self.scoring else
                                                   say(lang, "Submit  ctrl+s", "提交  ctrl+s"))

    def restore_draft(self) -> None:
        """Put back the autosaved draft of this card (typed before a crash or before leaving the card)."""
        if fill_from_draft(self.areas(), self.card, self.practice.load_draft(self.card.id)):
            self.notify(say(self.lang, "Restored the draft you had not submitted (autosaved).",
                            "已恢复你未提交的草稿（自动保存）。"), title=say(self.lang, "Draft", "草稿"))

    # ------------------------------------------------------------------ answer
    def areas(self) -> list[AnswerArea]:
        """The answer areas in section order."""
        return [self.query_one(f"#answer-{i}", AnswerArea) for i in range(len(self.card.sections))]

    def texts(self) -> dict[str, str]:
        """Section id -> the text of its answer area, in section order."""
        return {s.id: a.text for s, a in zip(self.card.sections, self.areas(), strict=True)}

    @on(TextArea.Changed, ".answer")
    def _answer_changed(self, event: TextArea.Changed) -> None:
        self.practice.draft_changed(self.card.id, self.texts())

    def action_submit(self) -> None:
        """Store the answer at once (a kill -9 keeps it), score it in a thread worker ("scoring..." shows
        and every key still answers), then open the feedback view."""
        if self.scoring:
            self.notify(say(self.lang, "Still scoring your answer...", "正在评分..."))
            return
        texts = self.texts()
        if not any(t.strip() for t in texts.values()):
            self.notify(say(self.lang, "Type an answer first: the answer areas are empty.",
                            "请先作答：回答框都是空的。"), severity="warning")
            return
        self._set_scoring(True)
        self._score(texts, self.stopwatch.elapsed(), self.lang)

    @property
    def scoring(self) -> bool:
        """Whether a submitted answer is being scored."""
        return self.has_class("-scoring")

    def _set_scoring(self, on: bool) -> None:
        self.set_class(on, "-scoring")
        for area in self.areas():
            area.read_only = on  # what is scored is what is shown
        button = self.query_one("#submit", Button)
        button.disabled = on
        self._show_submit_label()
        self.query_one("#card-status", Static).update(
            Text(say(self.lang, "Scoring... (your answer is saved)", "评分中...（回答已保存）"), style="bold")
            if on else "")

    @work(thread=True, group="score", exit_on_error=False)
    def _score(self, texts: dict[str, str], duration: float, lang: str) -> None:
        """Store, then score, off the UI thread; the result goes back to the UI thread."""
        try:
            submission = self.practice.submit(self.card, texts, mode="drill", duration_s=duration, lang=lang)
        except PracticeError as exc:
            self.app.call_from_thread(self._scored, None, str(exc))
        except Exception as exc:  # noqa: BLE001 - one line for the user, never a crash
            self.app.call_from_thread(self._scored, None, say(lang, f"Could not score this answer: {exc}",
                                                               f"无法为这次回答评分：{exc}"))
        else:
            self.app.call_from_thread(self._scored, submission, None)

    def _scored(self, submission: Submission | None, error: str | None) -> None:
        from lndrill.tui.screens.feedback import FeedbackScreen

        if not self.is_attached:
            return
        self._set_scoring(False)
        if submission is None:
            self.notify(error or say(self.lang, "Could not score this answer.", "无法为这次回答评分。"),
                        severity="error")
            return
        if submission.joined.truncated:
            self.notify(say(self.lang, f"Long answer: only the first {SCORED_CHARS:,} characters are scored.",
                            f"回答太长：只对前 {SCORED_CHARS:,} 个字符评分。"), severity="warning")
        if self.app.screen is self:
            self.app.push_screen(FeedbackScreen(submission), self._after_feedback)
        else:  # the user went elsewhere while it was scored: it is saved; say so
            self.notify(say(self.lang, f"{self.card.id}: scored {submission.result.score}/100 (saved).",
                            f"{self.card.id}：得分 {submission.result.score}/100（已保存）。"))

    def _after_feedback(self, choice: str | None) -> None:
        if choice == "next":
            self.action_next_card()
        else:
            self.stopwatch.start()
            self.areas()[0].focus()

    # ------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """"Run the experiment" (ctrl+t) only on the warm-up cards."""
        if action == "experiment":
            from lndrill.tui.screens.training import EXPERIMENT_CARDS

            return self.card.id in EXPERIMENT_CARDS
        return True

    def action_experiment(self) -> None:
        """Run the experiment: the Training view (Post-LN and Pre-LN, with and without warm-up)."""
        self.practice.flush_drafts()
        self.lndrill.open_training()

    def action_toggle_lang(self) -> None:
        """Switch the card between English and Chinese."""
        self.app.post_message(ToggleLanguage())

    def action_toggle_sim(self) -> None:
        """Show or hide the simulator panel."""
        panel = self.query_one(SimPanel)
        panel.display = not panel.display
        if panel.display and not any(a.has_focus for a in self.areas()):
            panel.focus()

    def action_focus_sim(self) -> None:
        """Move the focus to the simulator panel (shown if hidden), or back to the answer area you left."""
        panel = self.query_one(SimPanel)
        if panel.has_focus_within:
            area = getattr(self, "_left_area", None)
            (area if area is not None and area.is_attached else self.areas()[0]).focus()
            return
        focused = self.focused
        self._left_area = focused if isinstance(focused, AnswerArea) else None
        panel.display = True
        panel.focus()

    def action_next_card(self) -> None:
        """Open the next card of the browser's list (or the deck)."""
        self.app.post_message(OpenNextCard(self.card.id))

    def action_back(self) -> None:
        """Back to the card browser (what is typed stays as the card's draft)."""
        self.practice.flush_drafts()
        self.app.pop_screen()

    @on(Button.Pressed, "#submit")
    def _submit_pressed(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#lang")
    def _lang_pressed(self) -> None:
        self.action_toggle_lang()

    @on(Button.Pressed, "#toggle-sim")
    def _sim_pressed(self) -> None:
        self.action_toggle_sim()
