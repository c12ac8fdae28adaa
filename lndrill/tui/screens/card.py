"""The card screen: the prompt, one answer area per section, ctrl+s to score, the simulator beside it."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static, TextArea

from lndrill.cards.schema import Card
from lndrill.tui.answer import SCORED_CHARS, JoinedAnswer, Stopwatch, join_answer, reflow
from lndrill.tui.lang import other_lang
from lndrill.tui.messages import AnswerSubmitted, DraftChanged
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.answer_area import AnswerArea
from lndrill.tui.widgets.sim_panel import SimPanel
from lndrill.tui.widgets.too_small import TooSmall


def restore_draft(screen: Screen, card: Card, areas: list[AnswerArea]) -> dict[str, str] | None:
    """Fill empty answer areas with the card's autosaved draft; the draft, or None if there was none.

    Text saved under a section id the card no longer has goes to the last area, so nothing is lost.
    """
    load = getattr(screen.app, "load_draft", None)
    draft = load(card.id) if load is not None else None
    if not draft or any(a.text for a in areas):
        return None
    ids = [s.id for s in card.sections]
    extra = [t for k, t in draft.items() if k not in ids and t.strip()]
    for i, sid in enumerate(ids):
        text = draft.get(sid, "")
        if i == len(ids) - 1 and extra:
            text = "\n\n".join(t for t in (text, *extra) if t)
        if text:
            areas[i].load_text(text)
    if areas:
        areas[0].move_cursor(areas[0].document.end)
    return draft


#: Below this many columns the simulator panel goes under the card instead of beside it.
WIDE_COLUMNS = 100


class CardScreen(Screen[None]):
    """Answer one card. The first answer area has focus on open; ctrl+s scores the answer."""

    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (too_small.MIN_WIDTH, "-narrow"), (WIDE_COLUMNS, "-wide")]
    VERTICAL_BREAKPOINTS = too_small.VERTICAL
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
        self.stopwatch = Stopwatch()
        self._joined: JoinedAnswer | None = None

    @property
    def lang(self) -> str:
        """The app's card language."""
        return getattr(self.app, "lang", "en")

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield Static("", id="card-bar", classes="body bar")
        with Container(id="card-main", classes="body"):
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
        yield Footer(classes="body")

    def on_mount(self) -> None:
        clock = getattr(self.app, "clock", None)
        if clock is not None:
            self.stopwatch.clock = clock
        self.stopwatch.start()
        self.watch(self.app, "lang", self._show_text, init=True)
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
        draft = restore_draft(self, self.card, self.areas())
        if draft:
            self.notify("Restored the draft you had not submitted (autosaved).", title="Draft")

    # ------------------------------------------------------------------ answer
    def areas(self) -> list[AnswerArea]:
        """The answer areas in section order."""
        return [self.query_one(f"#answer-{i}", AnswerArea) for i in range(len(self.card.sections))]

    def texts(self) -> list[str]:
        """The text of each answer area, in section order."""
        return [a.text for a in self.areas()]

    @on(TextArea.Changed, ".answer")
    def _answer_changed(self, event: TextArea.Changed) -> None:
        """One place for draft autosave (issue 5): a DraftChanged message to the app."""
        texts = self.texts()
        self.post_message(DraftChanged(self.card.id, {s.id: t for s, t in zip(self.card.sections, texts,
                                                                                strict=True)}))

    def action_submit(self) -> None:
        """Score the answer and open the feedback view."""
        from lndrill.scoring.engine import score_answer
        from lndrill.tui.screens.feedback import FeedbackScreen

        texts = self.texts()
        if not any(t.strip() for t in texts):
            self.notify("Type an answer first: the answer areas are empty.", severity="warning")
            return
        joined = join_answer(self.card, texts, self.lang)
        if len(joined.text) > SCORED_CHARS:
            self.notify(f"Long answer: only the first {SCORED_CHARS:,} characters are scored.", severity="warning")
        try:
            result = score_answer(self.card, joined.text)
        except Exception as exc:  # noqa: BLE001 - never crash on a bad answer
            self.notify(f"Could not score this answer: {exc}", severity="error")
            return
        self._joined = joined
        duration = self.stopwatch.elapsed()
        submitted = AnswerSubmitted(
            self.card.id, {s.id: t for s, t in zip(self.card.sections, texts, strict=True)}, duration,
            result, self.lang)
        record = getattr(self.app, "record_submission", None)
        if record is not None:
            record(submitted)  # stored before anything else happens: a kill -9 now keeps the answer
        self.post_message(submitted)
        self.app.push_screen(FeedbackScreen(self.card, joined, texts, result), self._after_feedback)

    def _after_feedback(self, choice: str | None) -> None:
        if choice == "next":
            self.action_next_card()
        else:
            self.stopwatch.start()
            self.areas()[0].focus()

    # ------------------------------------------------------------------ actions
    def action_toggle_lang(self) -> None:
        """Switch the card between English and Chinese."""
        self.app.lang = other_lang(self.lang)

    def action_toggle_sim(self) -> None:
        """Show or hide the simulator panel."""
        panel = self.query_one(SimPanel)
        panel.display = not panel.display
        if panel.display and not any(a.has_focus for a in self.areas()):
            panel.focus()

    def action_next_card(self) -> None:
        """Open the next card of the browser's list (or the deck)."""
        open_next = getattr(self.app, "open_next_card", None)
        if open_next is not None:
            open_next(self.card.id, replace=True)

    def action_back(self) -> None:
        """Back to the card browser (what is typed stays as the card's draft)."""
        flush = getattr(self.app, "flush_drafts", None)
        if flush is not None:
            flush()
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
