"""Pilot tests of the terminal app: real key presses, workers awaited, no sleeps."""

from __future__ import annotations

import pytest
from helpers import BACKPROP, FORMULAS, FakeClock, settle, static_text
from textual.widgets import DataTable, Input, OptionList, Static

from lndrill.tui.app import make_app
from lndrill.tui.screens.browser import BrowserScreen
from lndrill.tui.screens.card import CardScreen
from lndrill.tui.screens.feedback import FeedbackScreen
from lndrill.tui.screens.home import HomeScreen
from lndrill.tui.screens.sim import SimScreen
from lndrill.tui.widgets.answer_area import AnswerArea
from lndrill.tui.widgets.chart_view import ChartView
from lndrill.tui.widgets.sim_panel import SimPanel

pytestmark = pytest.mark.tui

async def test_home_lists_the_screens_and_the_deck(deck) -> None:
    app = make_app(deck=deck, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        menu = app.screen.query_one("#home-menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ids == ["drill", "mock", "sim", "stats"]
        assert not menu.get_option("mock").disabled
        assert f"{len(deck.cards)} cards" in static_text(app.screen.query_one("#home-deck", Static))
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)


async def test_browse_type_submit_score_and_overrule(deck) -> None:
    clock = FakeClock()
    app = make_app(deck=deck, lang="en", clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press(*"vs-post")
        await pilot.pause()
        browser = app.screen
        assert browser.visible_ids == ["pre-vs-post-ln"]
        assert browser.query_one(DataTable).row_count == 1
        await pilot.press("enter")
        await settle(pilot)
        card = app.screen
        assert isinstance(card, CardScreen)
        assert card.focused is card.query_one("#answer-0", AnswerArea)  # type at once
        await pilot.press(*FORMULAS[:9])  # typed key by key ...
        card.query_one("#answer-0", AnswerArea).insert(FORMULAS[9:])  # ... the rest inserted (Pilot keys are slow)
        await pilot.press("tab")
        assert card.focused is card.query_one("#answer-1", AnswerArea)
        card.focused.insert(BACKPROP)
        clock.now += 42.0
        await pilot.press("ctrl+s")
        await settle(pilot)
        feedback = app.screen
        assert isinstance(feedback, FeedbackScreen)
        score = feedback.result.score
        assert 0 < score < 100
        assert f"Score {score}/100" in static_text(feedback.query_one("#fb-score", Static))
        hits = {p.id for s in feedback.result.sections for p in s.points if p.hit}
        assert {"post-formula", "pre-formula", "post-needs-warmup"} <= hits
        # the user's own words that earned a point, offsets into their own answer area
        warmup = next(p for s in feedback.result.sections for p in s.points if p.id == "post-needs-warmup")
        from lndrill.practice.answer import spans_for_area

        (a, b), *_ = spans_for_area(feedback.joined, 1, warmup.spans)
        assert "warm-up" in BACKPROP[a:b]
        submitted = feedback.submission
        assert submitted.answers == {"formulas": FORMULAS, "backprop": BACKPROP, "tradeoffs": ""}
        assert submitted.duration_s == pytest.approx(42.0)
        # stored the moment it was submitted: mode, per-section texts, score, duration
        store = app.practice.store
        (attempt,) = store.attempts("pre-vs-post-ln")
        assert attempt.id == submitted.attempt_id
        assert attempt.mode == "drill" and attempt.score == score
        assert attempt.answers == {"formulas": FORMULAS, "backprop": BACKPROP, "tradeoffs": ""}
        assert attempt.duration_s == pytest.approx(42.0)
        assert store.card_status(["pre-vs-post-ln"])["pre-vs-post-ln"].due is not None  # reviewed
        # overrule the first point (a hit) -> the total drops
        points = feedback.query_one("#fb-points", OptionList)
        assert points.has_focus and points.highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        assert feedback.result.score < score
        assert f"Score {feedback.result.score}/100" in static_text(feedback.query_one("#fb-score", Static))
        (attempt,) = store.attempts("pre-vs-post-ln")
        assert attempt.score == feedback.result.score < score
        assert attempt.overrides == {points.get_option_at_index(0).id: False}
        await pilot.press("o")  # and back
        await pilot.pause()
        assert feedback.result.score == score
        (attempt,) = store.attempts("pre-vs-post-ln")
        assert attempt.score == score and attempt.overrides == {}  # the full set replaces the old one
        # retry: the answer is still there and editable
        await pilot.press("r")
        await pilot.pause()
        assert app.screen is card
        assert card.query_one("#answer-0", AnswerArea).text == FORMULAS
        await pilot.press(*" More.")
        assert card.query_one("#answer-0", AnswerArea).text.endswith("More.")


async def test_model_answer_follow_up_and_next_card(deck, main_card) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        await pilot.press("ctrl+s")
        await settle(pilot)
        feedback = app.screen
        model = feedback.query_one("#fb-model", Static)
        assert model.display  # shown at the end of the feedback; `a` hides it and shows it again
        await pilot.press("a")
        await pilot.pause()
        assert not model.display
        await pilot.press("a")
        await pilot.pause()
        assert model.display
        assert main_card.model_answer.en.strip()[:30] in static_text(model).replace("\n", " ")
        await pilot.press("f")
        await pilot.pause()
        assert feedback.query_one("#fb-follow-up", Static).display
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, CardScreen)
        assert app.screen.card.id != "pre-vs-post-ln"


async def test_switch_language(deck, main_card) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        card = app.screen
        await pilot.press(*"x")
        assert static_text(card.query_one("#card-title", Static)) == main_card.title.en
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert app.lang == "zh"
        assert static_text(card.query_one("#card-title", Static)) == main_card.title.zh
        assert "公式" in static_text(card.query_one("#section-title-0", Static))
        assert card.query_one("#answer-0", AnswerArea).text == "x"  # the answer is kept
        # a Chinese answer scores
        area = app.screen.query_one("#answer-1", AnswerArea)
        area.insert("Post-LN 需要 warm-up，初始化时靠近输出层的梯度很大。")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, FeedbackScreen)
        assert app.screen.result.score > 0


async def test_panel_depth_and_metric_change_the_bars(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(SimPanel)
        assert panel.display  # beside the card at 120 columns
        first = panel.result
        assert first is not None and first.depths == [1, 2, 4, 8, 12, 16, 24, 32, 48]
        panel.focus()
        await pilot.press("left_square_bracket")  # presets in order: ..., 1-24, 1-48 (5), 1-48 (9), 1-48, ...
        await settle(pilot)
        assert panel.result.depths == [1, 6, 12, 24, 48]
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert panel.result.depths == list(range(1, 25))
        before = panel.query_one("#panel-chart", ChartView).plain
        assert "depth 24" in before and "depth 25" not in before
        await pilot.press("m")  # jacobian -> param
        await settle(pilot)
        assert panel.result.metric == "param"
        after = panel.query_one("#panel-chart", ChartView).plain
        assert after != before and "per-layer" in after and "layer 24" in after
        assert not panel.has_class("-busy")
        await pilot.press("2")  # hide Pre-LN
        await settle(pilot)
        assert list(panel.result.values) == ["post"]
        await pilot.press("1")  # the last placement stays
        await settle(pilot)
        assert list(panel.result.values) == ["post"]
        await pilot.click("#knob-width")  # the mouse works too
        await settle(pilot)
        assert panel.result.config.width == 128


async def test_panel_goes_under_the_card_when_narrow(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        card = app.screen
        panel = card.query_one(SimPanel)
        assert not panel.display  # hidden by default below 100 columns
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert panel.display and card.has_class("-narrow")
        assert panel.region.y > card.query_one("#card-left").region.y


async def test_f1_shows_textuals_help_panel_with_the_keys_and_help_of_the_focused_widget(deck) -> None:
    from textual.widgets import HelpPanel, Markdown

    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardScreen)  # a panel beside the card, not a screen over it
        help_text = screen.query_one(HelpPanel).query_one(Markdown)
        assert "ctrl+s" in help_text.source and "Card" in help_text.source  # the screen's HELP
        keys = {binding.key for binding in (b.binding for b in screen.active_bindings.values())}
        assert {"ctrl+s", "ctrl+l", "ctrl+g", "ctrl+n", "f1"} <= keys
        screen.query_one(SimPanel).focus()
        await pilot.pause()
        assert "Simulator panel" in help_text.source  # the focused widget's own HELP
        keys = {binding.key for binding in (b.binding for b in screen.active_bindings.values())}
        assert {"left_square_bracket", "m", "1", "ctrl+s"} <= keys
        await pilot.press("f1")
        await pilot.pause()
        assert not screen.query(HelpPanel)
        screen.query_one("#answer-0", AnswerArea).focus()
        await pilot.press("question_mark")  # in a text field ? is typed, not help
        await pilot.pause()
        assert not screen.query(HelpPanel) and "?" in screen.query_one("#answer-0", AnswerArea).text
    app = make_app(deck=deck, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.query(HelpPanel)


async def test_bad_input_never_crashes(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")  # empty answer
        await pilot.pause()
        assert isinstance(app.screen, CardScreen)
        assert any("empty" in n.message for n in app._notifications)
        area = app.screen.query_one("#answer-2", AnswerArea)
        area.focus()
        from textual import events

        area.post_message(events.Paste("Pre-LN is stable. " * 20_000))  # 360,000 characters
        await pilot.pause()
        assert len(area.text) == 100_000
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, FeedbackScreen)
        app.open_card("no-such-card")
        await pilot.pause()
        assert any("Unknown card" in n.message for n in app._notifications)


async def test_too_small_says_so(deck) -> None:
    for start in ("home", "drill", "sim"):
        app = make_app(start, deck=deck, card_id="pre-vs-post-ln" if start == "drill" else None, lang="en")
        async with app.run_test(size=(40, 12)) as pilot:
            await settle(pilot)
            notice = app.screen.query_one(".too-small", Static)
            assert notice.display and "needs more room" in static_text(notice)
            assert notice.region.width > 0


async def test_sim_screen_article_preset_table(deck) -> None:
    from lndrill.sim import SimConfig

    app = make_app("sim", deck=deck, sim_config=SimConfig(preset="article"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SimScreen)
        assert screen.result.depths == [1, 6, 12, 24]
        table = screen.query_one("#sim-table", DataTable)
        assert table.row_count == 4
        assert len(table.columns) == 5  # depth + (Post, Pre) x (article, jacobian)
        assert screen.query_one("#width", Input).disabled  # the article fixes D = 4
        assert "degenerate" in static_text(screen.query_one("#sim-chart", Static))
        screen.query_one("#metric").value = "stream"
        await settle(pilot)
        assert screen.result.metric == "stream" and screen.result.layers is not None
        screen.query_one("#preset").value = "none"
        await settle(pilot)
        assert not screen.query_one("#width", Input).disabled
        screen.query_one("#width", Input).focus()
        screen.query_one("#width", Input).value = "1"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.has_class("-error")  # one line on screen, no crash


async def test_command_palette_offers_screens(deck) -> None:
    app = make_app(deck=deck, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"simulator")
        from textual.command import CommandList

        for _ in range(200):  # the palette searches asynchronously: wait for its first hit, no fixed delay
            if app.screen.query_one(CommandList).option_count:
                break
            await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SimScreen)


async def test_the_palette_offers_the_current_screens_own_actions(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(SimPanel)
        assert not panel.display
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"toggle simulator")
        from textual.command import CommandList

        for _ in range(200):  # the palette searches asynchronously: wait for its first hit, no fixed delay
            if app.screen.query_one(CommandList).option_count:
                break
            await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CardScreen) and panel.display
