"""The mock interview: one screen per question with a visible countdown, then the interviewer's
follow-up on a short clock, and at the end the report (also saved as Markdown).

No simulator, as in a real interview. ctrl+s submits early; at 0:00 the answer is submitted exactly as
typed. The remaining time comes from the practice's clock (injectable); the interval timer only redraws.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Label, Markdown, Static, TextArea

from lndrill.practice import MockSession, PracticeError, Submission
from lndrill.practice.mock import clock_level, clock_text
from lndrill.practice.report import overall_score
from lndrill.tui.lang import level, say
from lndrill.tui.messages import Navigate, ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.text import Wrapped, reflow
from lndrill.tui.widgets.answer_area import AnswerArea, fill_from_draft

#: How often the countdown is redrawn (the time itself always comes from the clock).
TICK_S = 0.5
#: Pressing escape twice within this many seconds ends the interview early.
END_CONFIRM_S = 3.0


class MockScreen(LndrillScreen[None]):
    """Question `index` of a mock interview: answer, then the follow-up, then the next question."""

    HELP = """
    ### Mock interview

    Answer as in an interview: no simulator, a countdown (amber at 1:00, red at 0:10). At 0:00 the
    answer is submitted exactly as typed; the interviewer's follow-up comes next with its own short
    clock. `tab` / `shift+tab` move between the answer areas.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 模拟面试

    像真实面试一样作答：没有模拟器，有倒计时（剩 1:00 变琥珀色，剩 0:10 变红）。到 0:00 时回答按原样提交；
    接着是面试官的追问，有它自己的短计时。`tab` / `shift+tab` 在回答框之间移动。
    """
    PALETTE = (
        ("Submit answer", "submit now (ctrl+s)", "submit"),
        ("End interview", "submit what is typed and show the report (escape twice)", "end"),
    )
    AUTO_FOCUS = "#answer-0"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="mock.submit"),
        Binding("ctrl+n", "skip", "Skip follow-up", id="mock.skip"),
        Binding("ctrl+l", "toggle_lang", "中文/EN", id="mock.lang"),
        Binding("escape", "end", "End interview", id="mock.end"),
    ]

    def __init__(self, session: MockSession, index: int) -> None:
        super().__init__()
        self.session = session
        self.index = index
        self.card = session.cards[index]
        #: "question", then "follow-up", then "done".
        self.phase = "question"
        self.started = 0.0
        self.deadline = 0.0
        self._end_armed: float | None = None
        #: The interview is being ended (escape twice): the report follows the answer being scored.
        self._ending = False
        #: (submitted at 0:00, go on afterwards) for the answer being scored.
        self._then: tuple[bool, bool] = (False, True)

    def _now(self) -> float:
        return self.practice.clock()

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="mock-bar", classes="bar"):
            yield Static("", id="mock-head")
            yield Static("", id="mock-scoring")
            yield Static("", id="mock-clock")
        with VerticalScroll(id="mock-main"):
            yield Static("", id="mock-title")
            yield Static("", id="mock-prompt")
            with Vertical(id="mock-answer"):
                for i, _section in enumerate(self.card.sections):
                    yield Label("", id=f"section-title-{i}", classes="section-title")
                    yield AnswerArea(id=f"answer-{i}")
            with Vertical(id="mock-follow"):
                yield Label("", id="mock-follow-title", classes="section-title")
                yield Static("", id="mock-follow-text")
                yield AnswerArea(id="follow-answer")
                yield Static("", id="mock-follow-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#mock-follow").display = False
        self._show_text(self.lang)
        self.watch(self.app, "lang", self._show_text, init=False)
        if fill_from_draft(self.areas(), self.card, self.practice.load_draft(self.card.id)):
            self.notify(say(self.lang, "Restored the draft you had not submitted for this card (autosaved).",
                            "已恢复这张卡片未提交的草稿（自动保存）。"), title=say(self.lang, "Draft", "草稿"))
        self.started = self._now()
        self.deadline = self.started + self.session.options.limit_s
        self.set_interval(TICK_S, self.tick, name="mock-countdown")
        self.tick()
        # Focusing the first area scrolls it into view; keep the question above it on screen too.
        self.call_after_refresh(lambda: self.query_one("#mock-main", VerticalScroll).scroll_home(animate=False))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Skip only during the follow-up."""
        if action == "skip":
            return self.phase == "follow-up"
        return True

    def _show_text(self, lang: str) -> None:
        card, n = self.card, len(self.session.cards)
        head = Text(say(lang, f" Mock interview  ·  question {self.index + 1} of {n}",
                        f" 模拟面试  ·  第 {self.index + 1} / {n} 题"), style="bold")
        head.append(f"  ·  {level(lang, card.difficulty)}  ·  {', '.join(card.tags)}")
        self.query_one("#mock-head", Static).update(head)
        self.query_one("#mock-title", Static).update(Text(card.title.get(lang), style="bold"))
        self.query_one("#mock-prompt", Static).update(Wrapped(Text(reflow(card.prompt.get(lang)))))
        for i, section in enumerate(card.sections):
            self.query_one(f"#section-title-{i}", Label).update(Text(f"{i + 1}. {section.title.get(lang)}",
                                                                     style="bold"))
        follow = self.session.follow_up(self.index, lang)
        self.query_one("#mock-follow-text", Static).update(Text(follow or ""))
        self.query_one("#mock-follow-title", Label).update(say(lang, "The interviewer asks", "面试官追问"))
        self.query_one("#mock-follow-hint", Static).update(Text(say(
            lang, "Optional. ctrl+s: answer and go on   ctrl+n: skip (what you typed is kept)",
            "可选。ctrl+s：作答并继续   ctrl+n：跳过（已输入的内容会保留）"), style="dim"))

    # ------------------------------------------------------------------ the clock
    def remaining(self) -> float:
        """Seconds left on the current clock (question or follow-up)."""
        return self.deadline - self._now()

    def tick(self) -> None:
        """Redraw the countdown; at 0:00 submit what is typed."""
        if self.phase == "done":
            return
        left = self.remaining()
        box = self.query_one("#mock-clock", Static)
        box.update(Text(f" {clock_text(left)} ", style="bold"))
        level = clock_level(left)
        box.set_class(level == "warn", "-warn")
        box.set_class(level == "danger", "-danger")
        if left <= 0:
            if self.phase == "question":
                self.submit_answer(auto=True)
            elif self.phase == "follow-up":
                self.submit_follow_up(auto=True)

    # ------------------------------------------------------------------ answering
    def areas(self) -> list[AnswerArea]:
        """The answer areas in section order."""
        return [self.query_one(f"#answer-{i}", AnswerArea) for i in range(len(self.card.sections))]

    def texts(self) -> dict[str, str]:
        """Section id -> the text typed."""
        return {s.id: a.text for s, a in zip(self.card.sections, self.areas(), strict=True)}

    @on(TextArea.Changed, ".answer")
    def _answer_changed(self, event: TextArea.Changed) -> None:
        if self.phase == "question" and event.text_area.id != "follow-answer":
            self.practice.draft_changed(self.card.id, self.texts())

    def submit_answer(self, auto: bool = False, go_on: bool = True) -> None:
        """Store the answer exactly as typed and score it in a thread worker (the clock and every key
        still answer), then (with `go_on`) the follow-up or the next question."""
        if self.phase != "question":
            return
        self.phase = "scoring"
        used = min(self.session.options.limit_s, max(0.0, self._now() - self.started))
        texts = self.texts()
        self._then = (auto, go_on)
        if any(t.strip() for t in texts.values()):
            for area in self.areas():
                area.read_only = True
            self.query_one("#mock-scoring", Static).update(
                Text(say(self.lang, " scoring... ", " 评分中... "), style="bold"))
            self._score(texts, used, self.lang)
        else:
            self._answered(texts, used, None, None)

    @work(thread=True, group="mock-score", exit_on_error=False)
    def _score(self, texts: dict[str, str], used: float, lang: str) -> None:
        """Store, then score, off the UI thread (`Practice.submit` stores the words first)."""
        try:
            submission = self.practice.submit(self.card, texts, mode="mock", duration_s=used, lang=lang)
        except PracticeError as exc:
            self.app.call_from_thread(self._answered, texts, used, None, str(exc))
        except Exception as exc:  # noqa: BLE001 - one line for the user, never a crash
            self.app.call_from_thread(self._answered, texts, used, None,
                                      say(lang, f"Could not score this answer: {exc}", f"无法为这次回答评分：{exc}"))
        else:
            self.app.call_from_thread(self._answered, texts, used, submission, None)

    def _answered(self, texts: dict[str, str], used: float, submission: Submission | None,
                  error: str | None) -> None:
        """The answer's result is in (or could not be had): on to the follow-up, the next question, or the
        report when the interview is being ended."""
        if error:
            self.notify(error, severity="error")
        if self.is_attached:
            self.query_one("#mock-scoring", Static).update("")
        self.session.answered(self.index, texts, used, submission)
        auto, go_on = self._then
        if auto:
            self.notify(say(self.lang, "Time is up: your answer was submitted as typed.",
                            "时间到：你的回答已按原样提交。"), title="0:00")
        if self._ending:
            self._show_report()
        elif not go_on:
            self.phase = "done"
        elif self.session.follow_up(self.index, self.lang):
            self.start_follow_up()
        else:
            self.next_question()

    def start_follow_up(self) -> None:
        """Show the interviewer's follow-up with its own short clock."""
        self.phase = "follow-up"
        self.refresh_bindings()
        self.query_one("#mock-answer").display = False
        self.query_one("#mock-follow").display = True
        self.started = self._now()
        self.deadline = self.started + self.session.options.follow_up_seconds
        area = self.query_one("#follow-answer", AnswerArea)
        area.focus()
        self.query_one("#mock-main", VerticalScroll).scroll_home(animate=False)
        self.tick()

    def submit_follow_up(self, auto: bool = False, go_on: bool = True) -> None:
        """Keep the follow-up answer (if any) with the question's attempt, then go on."""
        if self.phase != "follow-up":
            return
        self.phase = "scoring"
        text = self.query_one("#follow-answer", AnswerArea).text
        if text.strip():
            self.session.followed_up(self.index, self.session.follow_up(self.index, self.lang) or "", text)
            attempt = self.session.attempt_ids[self.index]
            if attempt is not None:
                self.practice.add_follow_up(attempt, text)
        if auto:
            self.notify(say(self.lang, "Time is up for the follow-up.", "追问的时间到了。"), title="0:00")
        if go_on:
            self.next_question()
        else:
            self.phase = "done"

    def next_question(self) -> None:
        """The next question, or the report after the last one."""
        self.phase = "done"
        while self.app.screen is not self and len(self.app.screen_stack) > 1:  # e.g. the command palette
            self.app.pop_screen()
        if self.index + 1 < len(self.session.cards):
            self.app.switch_screen(MockScreen(self.session, self.index + 1))
        else:
            self.app.switch_screen(MockReportScreen(self.session))

    # ------------------------------------------------------------------ actions
    def action_submit(self) -> None:
        """Submit now (the answer, or the follow-up answer)."""
        if self.phase == "question":
            self.submit_answer()
        elif self.phase == "follow-up":
            self.submit_follow_up()

    def action_skip(self) -> None:
        """Skip the follow-up (anything typed in it is still kept)."""
        if self.phase == "follow-up":
            self.submit_follow_up()

    def action_end(self) -> None:
        """End the interview early (press twice): the answer so far is submitted, then the report."""
        now = self._now()
        if self._end_armed is None or now - self._end_armed > END_CONFIRM_S:
            self._end_armed = now
            self.notify(say(self.lang, "Press escape again to end the interview (what you typed is submitted).",
                            "再按一次 escape 结束面试（已输入的内容会提交）。"))
            return
        self._ending = True
        if self.phase == "question":
            self.submit_answer(go_on=False)  # the report comes when its result is in
            return
        if self.phase == "scoring":
            return  # the report comes when the result being scored is in
        if self.phase == "follow-up":
            self.submit_follow_up(go_on=False)
        self._show_report()

    def _show_report(self) -> None:
        self.phase = "done"
        while self.app.screen is not self and len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        self.session.end_early()
        self.app.switch_screen(MockReportScreen(self.session))

    def action_toggle_lang(self) -> None:
        """Switch the question between English and Chinese."""
        self.app.post_message(ToggleLanguage())


class MockReportScreen(LndrillScreen[None]):
    """Per question the score, time used, missed points, mistakes and the model answer; the overall
    score and the weakest topics. Saved as Markdown when the screen opens."""

    HELP = """
    ### Mock interview report

    Per question the score, time used, missed points, mistakes and the model answer; the overall score
    and your weakest topics. It is saved as Markdown (the path is at the top).
    `up` / `down` / `pgup` / `pgdn` scroll.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 模拟面试报告

    每道题的得分、用时、漏掉的要点、错误和参考答案；总分和你最弱的主题。
    报告另存为 Markdown（路径在顶部）。
    `up` / `down` / `pgup` / `pgdn` 滚动。
    """
    AUTO_FOCUS = "#report-scroll"
    BINDINGS = [Binding("escape,q", "done", "Home", id="report.done")]

    def __init__(self, session: MockSession) -> None:
        super().__init__()
        self.session = session
        self.text = ""

    def compose_body(self) -> ComposeResult:
        yield Static("", id="report-bar", classes="bar")
        yield Static("", id="report-saved")
        with VerticalScroll(id="report-scroll"):
            yield Markdown("", id="report")
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        report = self.practice.finish_mock(s, self.lang)
        self.text, error = report.text, report.error
        overall = overall_score(s.questions)
        asked = len(s.questions)
        bar = Text(say(self.lang, f" Mock interview report  ·  overall {overall}/100  ·  {asked} question(s)",
                       f" 模拟面试报告  ·  总分 {overall}/100  ·  {asked} 题"), style="bold")
        if s.ended_early:
            bar.append(say(self.lang, f"  ·  ended early ({asked} of {len(s.cards)} asked)",
                           f"  ·  提前结束（问了 {len(s.cards)} 题中的 {asked} 题）"))
        self.query_one("#report-bar", Static).update(bar)
        saved = Text(say(self.lang, "Saved: ", "已保存：") + say(self.lang, "  and  ", "  和  ").join(
            str(p) for p in s.report_paths) if s.report_paths else "", style="dim")
        if error:
            saved.append(("   " if s.report_paths else "") + error, style="bold")
            self.notify(error, severity="error")
        self.query_one("#report-saved", Static).update(saved)
        self.query_one("#report", Markdown).update(self.text)

    def action_done(self) -> None:
        """Back to the home screen."""
        self.app.post_message(Navigate("home"))
