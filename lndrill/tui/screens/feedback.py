"""The feedback view: Score NN/100, a bar per section, every point hit or missed and every mistake charged
(each can be overruled), the user's own words highlighted in place, the model answer and follow-up.

One scrolling column: the list of points and mistakes takes its full height (no scrollbar of its own), the
highlighted item is always scrolled into view, and PgUp/PgDn/Home/End scroll the whole feedback."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from lndrill.display import (
    ScoreColours,
    block_bar,
    capped_note,
    elaboration_note,
    form_note,
    label_width,
    pad_cells,
    printable,
    printable_in_place,
    score_headline,
    score_style,
    specifics_note,
)
from lndrill.practice import Submission
from lndrill.practice.answer import spans_for_area
from lndrill.scoring.result import MistakeResult, PointResult, ScoreResult
from lndrill.tui.lang import say
from lndrill.tui.messages import ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.text import Wrapped, reflow
from lndrill.tui.theme import readable
from lndrill.tui.widgets import too_small

BAR_CELLS = 24
SHORT_ROWS = 30
#: The highlighted item's background: the foreground blended this much into the list's (see app.tcss).
HIGHLIGHT_TINT = 0.18
#: Option ids of mistakes start with this (point options are the point ids).
MISTAKE = "mistake:"
#: Cells the second part of an item (a mistake's explanation) is indented by, on every line it wraps to.
HANG = 3


class Hanging:
    """An item's first line(s) and a part under it indented by HANG cells on every line, also where it
    wraps (a hanging indent). `str()` is the plain text, as for a Text prompt."""

    def __init__(self, head: Text, body: Text) -> None:
        self.head = head
        self.body = body

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Wrapped(self.head)
        yield Padding(Wrapped(self.body), (0, 0, 0, HANG), expand=False)

    def __str__(self) -> str:
        return f"{self.head.plain}\n{' ' * HANG}{self.body.plain}"


class FeedbackList(OptionList):
    """The points and mistakes: `up`/`down` move the highlight (the feedback scrolls to keep it in view);
    PgUp/PgDn/Home/End scroll the whole feedback instead of jumping inside the list."""

    def action_page_up(self) -> None:
        """Scroll the feedback up a page."""
        self._feedback().page("up")

    def action_page_down(self) -> None:
        """Scroll the feedback down a page."""
        self._feedback().page("down")

    def action_first(self) -> None:
        """Scroll to the top of the feedback."""
        self._feedback().page("home")

    def action_last(self) -> None:
        """Scroll to the end of the feedback."""
        self._feedback().page("end")

    def _feedback(self) -> FeedbackScreen:
        screen = self.screen
        assert isinstance(screen, FeedbackScreen)
        return screen


class FeedbackScreen(LndrillScreen[str]):
    """Dismisses with "retry" (back to the editable answer) or "next" (the next card)."""

    HELP = """
    ### Feedback

    Every point, hit (✓, with your words quoted) or missed (✗), then every mistake charged; your answer
    below with the words that earned points underlined and mistakes in red, and the model answer.
    `up` / `down` choose a point or mistake (the view follows) and mark its words in your answer;
    `enter` or `o` overrules the scorer on it: a point flips between hit and missed, a mistake is
    disputed (its penalty refunded) or charged again. The total updates and is saved.
    `pageup` / `pagedown` / `home` / `end` scroll the whole feedback.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 反馈

    每个要点，命中（✓，并引用你的原话）或漏掉（✗），然后是每个扣分的错误；下面是你的回答（得分的词语加下划线，
    错误标红）和参考答案。
    `up` / `down` 选择要点或错误（视图跟随），并在你的回答里标出对应的词语；
    `enter` 或 `o` 推翻评分：要点在命中与漏掉之间切换，错误则提出异议（退回扣分）或重新扣分。总分随之更新并保存。
    `pageup` / `pagedown` / `home` / `end` 滚动整个反馈。
    """
    PALETTE = (
        ("Retry", "back to the answer (r)", "retry"),
        ("Next card", "on to the next card (n)", "next"),
        ("Model answer", "show or hide (a)", "model_answer"),
        ("Follow-up question", "show or hide (f)", "follow_up"),
    )
    AUTO_FOCUS = "#fb-points"
    #: Below 30 rows the score is one line instead of a box, so more of the feedback fits.
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (too_small.MIN_HEIGHT, "-short"), (SHORT_ROWS, "-tall")]
    BINDINGS = [
        Binding("r,escape", "retry", "Retry", id="feedback.retry"),
        Binding("n", "next", "Next card", id="feedback.next"),
        Binding("o", "overrule", "Overrule", id="feedback.overrule"),
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
        #: The list's items in order: ("point", point id) or ("mistake", mistake id).
        self._items: list[tuple[str, str]] = []

    @property
    def result(self) -> ScoreResult:
        """The score shown: the scorer's, with the user's overrules."""
        return self.submission.result

    def compose_body(self) -> ComposeResult:
        yield Static("", id="fb-score")
        with VerticalScroll(id="feedback", can_focus=False):
            yield Static("", id="fb-sections")
            yield Label("", id="fb-points-heading", classes="fb-heading")
            yield FeedbackList(id="fb-points")
            yield Label("", id="fb-answer-heading", classes="fb-heading")
            yield Static("", id="fb-answer")
            yield Static("", id="fb-model", classes="fb-extra")
            yield Static("", id="fb-follow-up", classes="fb-extra")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#fb-follow-up").display = False
        self.watch(self.app, "lang", self._show, init=False)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show())
        self._show()
        # Open at the top, with the overrule hint on screen (unless a key already scrolled: a quick `end`
        # is not undone).
        self.call_after_refresh(self._open_at_top)

    _scrolled_by_key = False

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """Focusing the list never scrolls the feedback (Textual would centre the tall list and hide the
        score's hint above it); the view follows the highlighted item instead."""
        if widget is not None and widget.id == "fb-points":
            scroll_visible = False
        super().set_focus(widget, scroll_visible=scroll_visible, from_app_focus=from_app_focus)

    def _open_at_top(self) -> None:
        if not self._scrolled_by_key:
            self.query_one("#feedback", VerticalScroll).scroll_home(animate=False, immediate=True)

    # ------------------------------------------------------------------ drawing
    def _colours(self) -> tuple[str, str]:
        """Green and red made readable in this theme: on the list's background and on the highlight."""
        theme = self.app.current_theme
        variables = self.app.theme_variables
        ground = variables.get("surface", theme.surface or "#000000")
        try:
            mark = Color.parse(ground).blend(Color.parse(variables.get("foreground", "#ffffff")),
                                             HIGHLIGHT_TINT).hex
        except Exception:  # noqa: BLE001 - a theme colour Textual cannot read: no adjustment
            return theme.success or "green", theme.error or "red"
        return (readable(theme.success or "#00aa00", ground, mark),
                readable(theme.error or "#cc0000", ground, mark))

    def _points(self) -> list[PointResult]:
        return [p for s in self.result.sections for p in s.points]

    def _mistakes(self) -> list[tuple[MistakeResult, bool]]:
        """Every mistake the scorer charged, and whether the user disputes it (then it costs nothing)."""
        disputed = self.submission.overrules.mistakes
        return [(m, m.id in disputed) for m in self.submission.scored.mistakes]

    def _show(self) -> None:
        lang, result = self.lang, self.result
        good, bad = self._colours()
        score = result.score
        style = score_style(score, ScoreColours(good=good, fair="", poor=bad), bold=True)
        self.query_one("#fb-score", Static).update(
            Text(score_headline(result, lang), style=style, justify="center"))
        lines = Text()
        width = label_width([s.title.get(lang) for s in result.sections]) + 2
        for s in result.sections:
            lines.append(pad_cells(s.title.get(lang), width), style="bold")
            lines.append(block_bar(s.earned, s.max, BAR_CELLS), style=good)
            lines.append(f" {result.section_score(s):>3}/{result.section_max(s)}\n")
        if result.mistakes:
            lost = round(100 * result.penalty / result.max) if result.max else 0
            lines.append(pad_cells(say(lang, "Mistakes", "错误"), width) + f"-{lost}", style=f"bold {bad}")
        notes = (specifics_note(result.specifics, result.values, lang),
                 form_note(result.form, result.written.notes, result.written.spoken, lang),
                 elaboration_note(result.elaboration, result.statements, lang),
                 capped_note(result.capped, lang, reason=result.cap_reason))
        for note in notes:
            if note:
                lines.append("\n" + note if lines.plain.strip() else note, style="dim")
        self.query_one("#fb-sections", Static).update(lines)
        self.query_one("#fb-points-heading", Label).update(
            say(lang, "Points and mistakes  (enter or o: overrule the scorer)",
                "要点与错误  （enter 或 o：推翻评分）"))
        self.query_one("#fb-answer-heading", Label).update(say(lang, "Your answer", "你的回答"))
        self._show_points()
        self._show_answer(self._highlighted_item())
        model = Text(say(lang, "Model answer", "参考答案") + "\n", style="bold")
        model.append(reflow(self.card.model_answer.get(lang)))
        self.query_one("#fb-model", Static).update(Wrapped(model))
        follow = Text(say(lang, "Interviewer's follow-up", "面试官追问") + "\n", style="bold")
        for f in self.card.follow_ups:
            follow.append(f"› {f.get(lang).strip()}\n")
        if not self.card.follow_ups:
            follow.append(say(lang, "(this card has no follow-up question)", "（这张卡片没有追问）"), style="dim")
        self.query_one("#fb-follow-up", Static).update(Wrapped(follow))

    def _show_points(self) -> None:
        lang = self.lang
        good, bad = self._colours()
        options = self.query_one("#fb-points", OptionList)
        keep = options.highlighted
        self._items = []
        items: list[Option] = []
        for p in self._points():
            prompt = Text()
            prompt.append("✓ " if p.hit else "✗ ", style=f"bold {good}" if p.hit else f"bold {bad}")
            prompt.append(p.claim.get(lang), style="" if p.hit else "dim")
            if p.overruled:
                prompt.append(say(lang, "  (overruled by you)", "  （你已推翻）"), style="italic")
            if p.hit and p.evidence and not p.overruled:
                prompt.append(f"\n   “{printable(p.evidence)}”", style=f"italic {good}")
            items.append(Option(Wrapped(prompt), id=p.id))
            self._items.append(("point", p.id))
        total = self.result.max
        for m, disputed in self._mistakes():
            lost = round(100 * m.penalty / total) if total else 0
            prompt = Text()
            prompt.append(say(lang, f"! Mistake -{lost}: ", f"! 错误 -{lost}："),
                          style="dim" if disputed else f"bold {bad}")
            prompt.append(f"“{printable(m.evidence)}”", style="dim strike" if disputed else f"bold {bad}")
            if disputed:
                prompt.append(say(lang, "  (disputed by you: not charged)", "  （你有异议：不扣分）"), style="italic")
            explanation = Text(m.explanation.get(lang), style="dim" if disputed else "")
            items.append(Option(Hanging(prompt, explanation), id=MISTAKE + m.id))
            self._items.append(("mistake", m.id))
        with self.app.batch_update(), options.prevent(OptionList.OptionHighlighted):
            # Redrawn in place: the same item stays highlighted and the view stays where it is.
            options.clear_options()
            options.add_options(items)
            if items:
                options.highlighted = min(keep if keep is not None else 0, len(items) - 1)

    def _highlighted_item(self) -> tuple[str, str] | None:
        options = self.query_one("#fb-points", OptionList)
        index = options.highlighted
        return self._items[index] if index is not None and index < len(self._items) else None

    def _show_answer(self, focus: tuple[str, str] | None = None) -> None:
        good, bad = self._colours()
        out = Text()
        spans: tuple[tuple[int, int], ...] = ()
        if focus is not None:
            kind, item_id = focus
            found = (next((p for p in self._points() if p.id == item_id), None) if kind == "point" else
                     next((m for m, _ in self._mistakes() if m.id == item_id), None))
            spans = found.spans if found is not None else ()
        for i, section in enumerate(self.card.sections):
            out.append(section.title.get(self.lang) + "\n", style="bold")
            body = Text(printable_in_place(self.texts[i]) if i < len(self.texts) else "")
            if not body.plain.strip():
                out.append(say(self.lang, "(empty)", "（空）") + "\n\n", style="dim")
                continue
            for p in self._points():
                if p.hit and not p.overruled:
                    for a, b in spans_for_area(self.joined, i, p.spans):
                        body.stylize(f"underline {good}", a, b)
            for m in self.result.mistakes:
                for a, b in spans_for_area(self.joined, i, m.spans):
                    body.stylize(f"bold underline {bad}", a, b)
            for a, b in spans_for_area(self.joined, i, spans):
                body.stylize("reverse", a, b)
            out.append_text(body)
            out.append("\n\n")
        self.query_one("#fb-answer", Static).update(out)

    @on(OptionList.OptionHighlighted, "#fb-points")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_answer(self._highlighted_item())
        self.call_after_refresh(self.scroll_to_highlight)

    # ------------------------------------------------------------------ scrolling
    def _option_region(self, index: int) -> Region | None:
        """Where option `index` is in the feedback's scrolled content (None before it is laid out)."""
        options = self.query_one("#fb-points", OptionList)
        try:
            line = options._index_to_line[index]  # noqa: SLF001 - Textual keeps the line map private
            height = options._heights[index]  # noqa: SLF001
        except (KeyError, IndexError):
            return None
        top = options.virtual_region.y + options.styles.gutter.top + line
        return Region(0, top, 1, height)

    def scroll_to_highlight(self) -> None:
        """Scroll the feedback so that the highlighted point or mistake is in view."""
        options = self.query_one("#fb-points", OptionList)
        if options.highlighted is None:
            return
        scroll = self.query_one("#feedback", VerticalScroll)
        if options.highlighted == 0:  # the first item: the heading with the overrule hint too
            scroll.scroll_home(animate=False, immediate=True)
            return
        region = self._option_region(options.highlighted)
        if region is not None:
            scroll.scroll_to_region(region, animate=False, immediate=True, x_axis=False)

    def highlighted_in_view(self) -> bool:
        """Whether the highlighted point or mistake is wholly on screen (overruling acts only then)."""
        options = self.query_one("#fb-points", OptionList)
        if options.highlighted is None:
            return False
        region = self._option_region(options.highlighted)
        scroll = self.query_one("#feedback", VerticalScroll)
        window = scroll.scrollable_content_region.at_offset(scroll.scroll_offset)
        return region is not None and window.y <= region.y and region.bottom <= window.bottom

    def page(self, where: str) -> None:
        """Scroll the whole feedback: "up"/"down" a page, "home"/"end" (the end: the last box, the model
        answer, from its first line); the highlight moves to the first item in view (it stays where it
        is when no item is in view)."""
        scroll = self.query_one("#feedback", VerticalScroll)
        self._scrolled_by_key = True
        if where == "up":
            scroll.scroll_page_up(animate=False)
        elif where == "down":
            scroll.scroll_page_down(animate=False)
        elif where == "home":
            scroll.scroll_home(animate=False, immediate=True)
        else:  # the end: the last box shown, from its first line when it is taller than the view
            last = next((w for w in reversed(list(scroll.children)) if w.display), None)
            if last is not None and last.outer_size.height > scroll.scrollable_content_region.height:
                scroll.scroll_to_widget(last, animate=False, top=True, immediate=True)
            else:
                scroll.scroll_end(animate=False, immediate=True)
        self.call_after_refresh(self._highlight_first_in_view)

    def _highlight_first_in_view(self) -> None:
        options = self.query_one("#fb-points", OptionList)
        scroll = self.query_one("#feedback", VerticalScroll)
        window = scroll.scrollable_content_region.at_offset(scroll.scroll_offset)
        if options.highlighted is not None and self.highlighted_in_view():
            return
        for index in range(options.option_count):
            region = self._option_region(index)
            if region is not None and window.y <= region.y and region.bottom <= window.bottom:
                with options.prevent(OptionList.OptionHighlighted):
                    options.highlighted = index
                self._show_answer(self._highlighted_item())
                return

    # ------------------------------------------------------------------ actions
    @on(OptionList.OptionSelected, "#fb-points")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_overrule()

    def overrule(self, point_id: str) -> None:
        """Flip one point between hit and missed; the total updates (and is stored at once)."""
        if not any(p.id == point_id for p in self._points()):
            return
        self.submission = self.practice.overrule_point(self.submission, point_id)
        self._show()

    def dispute(self, mistake_id: str) -> None:
        """Dispute one mistake (its penalty is refunded) or charge it again; stored at once."""
        if not any(m.id == mistake_id for m, _ in self._mistakes()):
            return
        self.submission = self.practice.dispute_mistake(self.submission, mistake_id)
        self._show()

    def action_overrule(self) -> None:
        """Overrule the scorer on the highlighted point or mistake (when it is out of view, scroll to it
        first: nothing is changed that the user cannot see)."""
        item = self._highlighted_item()
        if item is None:
            return
        if not self.highlighted_in_view():
            self.scroll_to_highlight()
            self.notify(say(self.lang, "Scrolled to the chosen item: press o again to overrule it.",
                            "已滚动到所选条目：再按 o 推翻评分。"))
            return
        kind, item_id = item
        if kind == "point":
            self.overrule(item_id)
        else:
            self.dispute(item_id)

    def _toggle(self, selector: str) -> None:
        box = self.query_one(selector, Static)
        box.display = not box.display
        if box.display:
            scroll = self.query_one("#feedback", VerticalScroll)
            self.call_after_refresh(lambda: scroll.scroll_to_widget(box, animate=False, top=True, immediate=True))

    def action_model_answer(self) -> None:
        """Show or hide the model answer (shown: scrolled to)."""
        self._toggle("#fb-model")

    def action_follow_up(self) -> None:
        """Show or hide the interviewer's follow-up question (shown: scrolled to)."""
        self._toggle("#fb-follow-up")

    def action_toggle_lang(self) -> None:
        """Switch between English and Chinese."""
        self.app.post_message(ToggleLanguage())

    def action_retry(self) -> None:
        """Back to the card; the answer stays editable."""
        self.dismiss("retry")

    def action_next(self) -> None:
        """On to the next card."""
        self.dismiss("next")
