"""The mock interview with a fake clock: the countdown, auto-submit at 0:00, the follow-up, the report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import BACKPROP, FORMULAS, FakeClock, settle, static_text
from textual.widgets import Input

from lndrill.practice.mock import FOLLOW_UP_KEY, MockOptions, clock_level, clock_text
from lndrill.tui.app import make_app
from lndrill.tui.screens.mock import MockReportScreen, MockScreen
from lndrill.tui.screens.mock_form import MockFormScreen
from lndrill.tui.widgets.answer_area import AnswerArea

T0 = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def test_clock_text_and_colours() -> None:
    assert clock_text(300) == "05:00" and clock_text(299.2) == "05:00" and clock_text(0.4) == "00:01"
    assert clock_text(0) == "00:00" and clock_text(-3) == "00:00"
    assert [clock_level(s) for s in (61, 60, 11, 10, 0)] == ["ok", "warn", "warn", "danger", "danger"]


@pytest.mark.tui
async def test_mock_times_out_submits_as_typed_and_writes_the_report(deck, tmp_path: Path) -> None:
    clock = FakeClock()
    report = tmp_path / "out" / "mock.md"
    options = MockOptions(questions=2, minutes=1, seed=7, report=report)
    app = make_app("mock", deck=deck, lang="en", clock=clock, now=lambda: T0, mock=options)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen) and screen.index == 0
        ids = [c.id for c in screen.session.cards]
        tags = {cid: c.tags for cid, c in deck.cards.items()}
        assert ids == app.practice.store.pick_for_mock(sorted(deck.cards), 2, tags=tags, seed=7, now=T0)  # seeded
        assert not screen.query("SimPanel")  # no simulator in an interview
        clock_box = screen.query_one("#mock-clock")
        assert static_text(clock_box).strip() == "01:00"
        first = screen.card
        typed = FORMULAS + "\nPost-LN needs warm-up"
        screen.query_one("#answer-0", AnswerArea).insert(typed)
        await pilot.press(*" ok")  # real key presses too
        typed += " ok"
        clock.now += 45
        screen.tick()
        assert static_text(clock_box).strip() == "00:15" and clock_box.has_class("-warn")
        clock.now += 10
        screen.tick()
        assert clock_box.has_class("-danger")
        assert app.practice.store.attempts() == []
        clock.now += 6  # past 0:00: the next tick submits exactly what was typed
        # (the interval timer itself, not a direct call; then the scoring worker: poll, a loaded machine is slow)
        for _ in range(150):
            await pilot.pause(0.1)
            if screen.phase == "follow-up":
                break
        await settle(pilot)
        (attempt,) = app.practice.store.attempts(first.id)
        assert attempt.mode == "mock" and attempt.duration_s == pytest.approx(60.0)
        assert attempt.answers[first.sections[0].id] == typed
        assert any("Time is up" in n.message for n in app._notifications)
        # the interviewer's follow-up, with its own clock
        assert screen.phase == "follow-up" and screen.query_one("#mock-follow").display
        follow = screen.session.follow_up(0, "en")
        assert follow and follow in static_text(screen.query_one("#mock-follow-text"))
        assert static_text(clock_box).strip() == "01:30"
        assert screen.focused is screen.query_one("#follow-answer")
        screen.query_one("#follow-answer", AnswerArea).insert("Because the gradients are large.")
        clock.now += 91
        screen.tick()
        (attempt,) = app.practice.store.attempts(first.id)
        assert attempt.answers[FOLLOW_UP_KEY] == "Because the gradients are large."
        await settle(pilot)
        # question 2: answered and submitted early with ctrl+s, follow-up skipped with ctrl+n
        second = app.screen
        assert isinstance(second, MockScreen) and second.index == 1 and second.card.id == ids[1]
        second.query_one("#answer-0", AnswerArea).insert(BACKPROP)
        clock.now += 20
        await pilot.press("ctrl+s")
        await pilot.pause()
        if second.phase == "follow-up":
            await pilot.press("ctrl+n")
        await settle(pilot)
        assert isinstance(app.screen, MockReportScreen)
        assert app.practice.store.attempts(ids[1])[0].duration_s == pytest.approx(20.0)
        text = report.read_text(encoding="utf-8")
        assert text == app.screen.text
        q1 = attempt.score
        assert "Overall score" in text and f"**Score: {q1}/100** · time used 1:00 of 1:00" in text
        assert "time used 0:20 of 1:00" in text
        assert "### Missed points" in text and "### Model answer" in text
        assert first.model_answer.en.strip().splitlines()[0] in text
        assert "Post-LN needs warm-up ok" in text and "Because the gradients are large." in text
        assert "seed 7" in text
        auto = list((tmp_path / "home" / "reports").glob("mock-*.md"))
        assert len(auto) == 1 and auto[0].read_text(encoding="utf-8") == text
        saved = static_text(app.screen.query_one("#report-saved"))
        assert "mock.md" in saved
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"


@pytest.mark.tui
async def test_mock_from_home_with_an_empty_answer_and_ending_early(deck) -> None:
    clock = FakeClock()
    app = make_app(deck=deck, lang="en", clock=clock, now=lambda: T0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, MockFormScreen)  # the form: 3 questions, 5 minutes, any tag
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen)
        assert len(screen.session.cards) == 3 and screen.session.options.limit_s == 300
        assert static_text(screen.query_one("#mock-clock")).strip() == "05:00"
        clock.now += 301  # nothing typed: not answered, nothing stored
        screen.tick()
        assert app.practice.store.attempts() == []
        assert screen.session.questions[0].result is None
        await pilot.press("escape", "escape")  # end early: the report
        await settle(pilot)
        report = app.screen
        assert isinstance(report, MockReportScreen)
        assert len(report.session.questions) == 1  # only the question asked; the two never asked are not
        assert report.text.count("Not answered.") == 1 and "Overall score: 0/100" in report.text
        assert "ended early: 1 of 3 questions asked" in report.text
        assert "Weakest topics" not in report.text or all(
            tag in report.session.cards[0].tags for tag in
            [line.split("tag ", 1)[1].split(":")[0] for line in report.text.splitlines() if line.startswith("- tag ")])


def test_mock_cli_errors_are_one_line(capsys) -> None:
    from lndrill.cli import main

    assert main(["mock", "--tag", "no-such-tag"]) == 2
    assert main(["mock", "--questions", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "no card has tag" in err[0] and "--questions" in err[1]


@pytest.mark.tui
async def test_the_mock_form_checks_its_values_and_remembers_the_last_choice(deck) -> None:
    from lndrill.settings import load_settings

    app = make_app(deck=deck, lang="en", now=lambda: T0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MockFormScreen)
        form.query_one("#mock-questions", Input).value = "0"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form and "1 to 100" in static_text(form.query_one("#mock-form-error"))
        form.query_one("#mock-questions", Input).value = "2"
        form.query_one("#mock-minutes", Input).value = "1.5"
        form.query_one("#mock-tag", Input).value = "warm"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form and "No card has tag 'warm'" in static_text(form.query_one("#mock-form-error"))
        form.query_one("#mock-tag", Input).value = "warmup"
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen)
        assert screen.session.options.questions == 2 and screen.session.options.limit_s == 90
        assert all("warmup" in c.tags for c in screen.session.cards)
    saved = load_settings().settings.mock
    assert (saved.questions, saved.minutes, saved.tag) == (2, 1.5, "warmup")
    app = make_app(deck=deck, lang="en", now=lambda: T0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        form = app.screen
        assert [form.query_one(f"#mock-{k}", Input).value for k in ("questions", "minutes", "tag")] == [
            "2", "1.5", "warmup"]


@pytest.mark.tui
async def test_a_mock_answer_is_scored_in_a_worker_and_ending_waits_for_it(deck, monkeypatch) -> None:
    import threading

    import lndrill.scoring.engine as engine

    release = threading.Event()
    real = engine.score_answer

    def slow(card, text):  # noqa: ANN001, ANN202
        assert release.wait(30)
        return real(card, text)

    monkeypatch.setattr(engine, "score_answer", slow)
    clock = FakeClock()
    app = make_app("mock", deck=deck, lang="en", clock=clock, now=lambda: T0,
                   mock=MockOptions(questions=2, seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen)
        screen.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.phase == "scoring" and "scoring" in static_text(screen.query_one("#mock-scoring"))
        clock.now += 30
        screen.tick()  # the clock still runs: the UI thread is free
        await pilot.press("escape", "escape")  # end while scoring: the report waits for the result
        await pilot.pause()
        assert app.screen is screen
        release.set()
        await settle(pilot)
        await pilot.pause()
        report = app.screen
        assert isinstance(report, MockReportScreen)
        assert len(report.session.questions) == 1 and report.session.questions[0].result is not None
        assert "ended early: 1 of 2 questions asked" in report.text
        assert app.practice.store.attempts()[0].answers[screen.card.sections[0].id] == FORMULAS
