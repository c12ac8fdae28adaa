"""The card screen: the prompt, one answer area per section, ctrl+s to score, the simulator beside it."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Label, Static, TextArea

from lndrill.cards.schema import Card
from lndrill.practice import PracticeError
from lndrill.practice.answer import SCORED_CHARS
from lndrill.tui.messages import OpenNextCard, ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.text import reflow
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.answer_area import AnswerArea, fill_from_draft
from lndrill.tui.widgets.sim_panel import SimPanel

#: Below this many columns the simulator panel goes under the card instead of beside it.
WIDE_COLUMNS = 100


class CardScreen(LndrillScreen[None]):
    """Answer one card. The first answer area has focus on open; ctrl+s scores the answer."""

    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (too_small.MIN_WIDTH, "-narrow"), (WIDE_COLUMNS, "-wide")]
    HELP = """
    ### Card

    Answer each section in its own area, in English, Chinese or both; `ctrl+s` scores the whole answer.
    `tab` / `shift+tab` move between the areas and buttons; `ctrl+z` / `ctrl+y` undo and redo.
    What you type is kept as a draft (autosaved) until you submit.
    """
    PALETTE = (
        ("Submit answer", "score the answer (ctrl+s)", "submit"),
        ("Toggle simulator panel", "beside the card (ctrl+g)", "toggle_sim"),
        ("Next card", "skip to the next card (ctrl+n)", "next_card"),
    )
    AUTO_FOCUS = "#answer-0"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="card.submit"),
        Binding("ctrl+l", "toggle_lang", "中文/EN", id="card.lang"),
        Binding("ctrl+g", "toggle_sim", "Simulator", id="card.sim"),
        Binding("ctrl+n", "next_card", "Next card", id="card.next"),
        Binding("escape", "back", "Cards", id="card.back"),
    ]

    def __init__(self, card: Card) -> None:
        super().__init__()
        self.card = card

    def compose_body(self) -> ComposeResult:
        yield Static("", id="card-bar", classes="bar")
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
            yield SimPanel(id="sim-panel")
        yield Footer()

    def on_mount(self) -> None:
        self.stopwatch = self.practice.stopwatch()
        self.stopwatch.start()
        self._show_text(self.lang)
        self.watch(self.app, "lang", self._show_text, init=False)
        self.query_one(SimPanel).display = self.app.size.width >= WIDE_COLUMNS
        self._warm_rubric()
        self.restore_draft()
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
        bar.append(f"  ·  {card.difficulty}  ·  {', '.join(card.tags)}  ·  {'中文' if lang == 'zh' else 'English'}")
        self.query_one("#card-bar", Static).update(bar)
        self.query_one("#card-title", Static).update(Text(card.title.get(lang), style="bold"))
        self.query_one("#card-prompt", Static).update(Text(reflow(card.prompt.get(lang))))
        for i, section in enumerate(card.sections):
            points = len(section.points)
            self.query_one(f"#section-title-{i}", Label).update(
                Text(f"{i + 1}. {section.title.get(lang)}", style="bold").append(
                    f"  ({points} point{'s' if points != 1 else ''})", style="dim"))

    def restore_draft(self) -> None:
        """Put back the autosaved draft of this card (typed before a crash or before leaving the card)."""
        if fill_from_draft(self.areas(), self.card, self.practice.load_draft(self.card.id)):
            self.notify("Restored the draft you had not submitted (autosaved).", title="Draft")

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
        """Score the answer (stored at once, so a kill -9 keeps it) and open the feedback view."""
        from lndrill.tui.screens.feedback import FeedbackScreen

        texts = self.texts()
        if not any(t.strip() for t in texts.values()):
            self.notify("Type an answer first: the answer areas are empty.", severity="warning")
            return
        try:
            submission = self.practice.submit(self.card, texts, mode="drill", duration_s=self.stopwatch.elapsed(),
                                              lang=self.lang)
        except PracticeError as exc:
            self.notify(str(exc), severity="error")
            return
        if submission.joined.truncated:
            self.notify(f"Long answer: only the first {SCORED_CHARS:,} characters are scored.", severity="warning")
        self.app.push_screen(FeedbackScreen(submission), self._after_feedback)

    def _after_feedback(self, choice: str | None) -> None:
        if choice == "next":
            self.action_next_card()
        else:
            self.stopwatch.start()
            self.areas()[0].focus()

    # ------------------------------------------------------------------ actions
    def action_toggle_lang(self) -> None:
        """Switch the card between English and Chinese."""
        self.app.post_message(ToggleLanguage())

    def action_toggle_sim(self) -> None:
        """Show or hide the simulator panel."""
        panel = self.query_one(SimPanel)
        panel.display = not panel.display
        if panel.display and not any(a.has_focus for a in self.areas()):
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
