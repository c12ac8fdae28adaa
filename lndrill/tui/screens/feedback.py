"""The feedback view: Score NN/100, a bar per section, every point hit or missed with the user's own
words highlighted in place, mistakes in red, the model answer and follow-up on a key, overruling."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from lndrill.display import ScoreColours, block_bar, printable, printable_in_place, score_style
from lndrill.practice import Submission
from lndrill.practice.answer import spans_for_area
from lndrill.scoring.result import PointResult, ScoreResult
from lndrill.tui.messages import ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen

BAR_CELLS = 24


class FeedbackScreen(LndrillScreen[str]):
    """Dismisses with "retry" (back to the editable answer) or "next" (the next card)."""

    HELP = """
    ### Feedback

    Every point, hit (✓, with your words quoted) or missed (✗); your answer below with the words that
    earned points underlined and mistakes in red. `up` / `down` choose a point and mark its words in
    your answer; `enter` or `o` overrules the scorer on it (the total updates and is saved).
    """
    PALETTE = (
        ("Retry", "back to the answer (r)", "retry"),
        ("Next card", "on to the next card (n)", "next"),
        ("Model answer", "show or hide (a)", "model_answer"),
        ("Follow-up question", "show or hide (f)", "follow_up"),
    )
    AUTO_FOCUS = "#fb-points"
    BINDINGS = [
        Binding("r,escape", "retry", "Retry", id="feedback.retry"),
        Binding("n", "next", "Next card", id="feedback.next"),
        Binding("o", "overrule", "Overrule point", id="feedback.overrule"),
        Binding("a", "model_answer", "Model answer", id="feedback.model"),
        Binding("f", "follow_up", "Follow-up", id="feedback.follow_up"),
        Binding("ctrl+l", "toggle_lang", "中文/EN", id="feedback.lang"),
    ]

    def __init__(self, submission: Submission) -> None:
        super().__init__()
        self.submission = submission
        self.card = submission.card
        self.joined = submission.joined
        self.texts = list(submission.answers.values())
        self._point_ids: list[str] = []

    @property
    def result(self) -> ScoreResult:
        """The score shown: the scorer's, with the user's overrules."""
        return self.submission.result

    def compose_body(self) -> ComposeResult:
        yield Static("", id="fb-score")
        yield Static("", id="fb-sections")
        with VerticalScroll(id="feedback"):
            yield Label("Points  (enter or o: overrule the scorer)", classes="fb-heading")
            yield OptionList(id="fb-points")
            yield Static("", id="fb-mistakes")
            yield Label("Your answer", classes="fb-heading")
            yield Static("", id="fb-answer")
            yield Static("", id="fb-model", classes="fb-extra")
            yield Static("", id="fb-follow-up", classes="fb-extra")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#fb-model").display = False
        self.query_one("#fb-follow-up").display = False
        self.watch(self.app, "lang", self._show, init=False)
        self._show()

    # ------------------------------------------------------------------ drawing
    def _colours(self) -> tuple[str, str]:
        theme = self.app.current_theme
        return theme.success or "green", theme.error or "red"

    def _points(self) -> list[PointResult]:
        return [p for s in self.result.sections for p in s.points]

    def _show(self) -> None:
        lang, result = self.lang, self.result
        good, bad = self._colours()
        score = result.score
        style = score_style(score, ScoreColours(good=good, fair="", poor=bad), bold=True)
        self.query_one("#fb-score", Static).update(Text(f"Score {score}/100", style=style, justify="center"))
        lines = Text()
        width = max(len(s.title.get(lang)) for s in result.sections) + 2
        for s in result.sections:
            lines.append(s.title.get(lang).ljust(width), style="bold")
            lines.append(block_bar(s.earned, s.max, BAR_CELLS), style=good)
            lines.append(f" {result.section_score(s):>3}/{result.section_max(s)}\n")
        if result.mistakes:
            lost = round(100 * result.penalty / result.max) if result.max else 0
            lines.append(f"Mistakes  -{lost}", style=f"bold {bad}")
        self.query_one("#fb-sections", Static).update(lines)
        self._show_points()
        mistakes = Text()
        for m in result.mistakes:
            mistakes.append(f"✗ “{printable(m.evidence)}”\n", style=f"bold {bad}")
            mistakes.append(f"  {m.explanation.get(lang)}\n", style=bad)
        box = self.query_one("#fb-mistakes", Static)
        box.update(mistakes)
        box.display = bool(result.mistakes)
        self._show_answer()
        model = Text("Model answer\n", style="bold")
        model.append(self.card.model_answer.get(lang).rstrip())
        self.query_one("#fb-model", Static).update(model)
        follow = Text("Interviewer's follow-up\n", style="bold")
        for f in self.card.follow_ups:
            follow.append(f"› {f.get(lang).strip()}\n")
        if not self.card.follow_ups:
            follow.append("(this card has no follow-up question)", style="dim")
        self.query_one("#fb-follow-up", Static).update(follow)

    def _show_points(self) -> None:
        lang = self.lang
        good, bad = self._colours()
        options = self.query_one("#fb-points", OptionList)
        keep = options.highlighted
        options.clear_options()
        self._point_ids = []
        items: list[Option] = []
        for p in self._points():
            prompt = Text()
            prompt.append("✓ " if p.hit else "✗ ", style=f"bold {good}" if p.hit else f"bold {bad}")
            prompt.append(p.claim.get(lang), style="" if p.hit else "dim")
            if p.overruled:
                prompt.append("  (overruled by you)", style="italic")
            if p.hit and p.evidence and not p.overruled:
                prompt.append(f"\n   “{printable(p.evidence)}”", style=f"italic {good}")
            items.append(Option(prompt, id=p.id))
            self._point_ids.append(p.id)
        options.add_options(items)
        if items:
            options.highlighted = min(keep if keep is not None else 0, len(items) - 1)

    def _show_answer(self, focus_point: str | None = None) -> None:
        good, bad = self._colours()
        out = Text()
        focus = next((p for p in self._points() if p.id == focus_point), None)
        for i, section in enumerate(self.card.sections):
            out.append(section.title.get(self.lang) + "\n", style="bold")
            body = Text(printable_in_place(self.texts[i]) if i < len(self.texts) else "")
            if not body.plain.strip():
                out.append("(empty)\n\n", style="dim")
                continue
            for p in self._points():
                if p.hit and not p.overruled:
                    for a, b in spans_for_area(self.joined, i, p.spans):
                        body.stylize(f"underline {good}", a, b)
            for m in self.result.mistakes:
                for a, b in spans_for_area(self.joined, i, m.spans):
                    body.stylize(f"bold underline {bad}", a, b)
            if focus is not None:
                for a, b in spans_for_area(self.joined, i, focus.spans):
                    body.stylize("reverse", a, b)
            out.append_text(body)
            out.append("\n\n")
        self.query_one("#fb-answer", Static).update(out)

    @on(OptionList.OptionHighlighted, "#fb-points")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_answer(event.option.id)

    # ------------------------------------------------------------------ actions
    @on(OptionList.OptionSelected, "#fb-points")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.overrule(event.option.id)

    def overrule(self, point_id: str) -> None:
        """Flip one point between hit and missed; the total updates (and is stored at once)."""
        if not any(p.id == point_id for p in self._points()):
            return
        self.submission = self.practice.overrule_point(self.submission, point_id)
        self._show()
        self._show_answer(point_id)

    def action_overrule(self) -> None:
        """Overrule the highlighted point."""
        options = self.query_one("#fb-points", OptionList)
        if options.highlighted is not None and options.highlighted < len(self._point_ids):
            self.overrule(self._point_ids[options.highlighted])

    def action_model_answer(self) -> None:
        """Show or hide the model answer."""
        box = self.query_one("#fb-model", Static)
        box.display = not box.display
        if box.display:
            self.query_one("#feedback").scroll_to_widget(box)

    def action_follow_up(self) -> None:
        """Show or hide the interviewer's follow-up question."""
        box = self.query_one("#fb-follow-up", Static)
        box.display = not box.display
        if box.display:
            self.query_one("#feedback").scroll_to_widget(box)

    def action_toggle_lang(self) -> None:
        """Switch between English and Chinese."""
        self.app.post_message(ToggleLanguage())

    def action_retry(self) -> None:
        """Back to the card; the answer stays editable."""
        self.dismiss("retry")

    def action_next(self) -> None:
        """On to the next card."""
        self.dismiss("next")
