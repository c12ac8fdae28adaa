"""Issue 10, the "Broken" items, with Textual's Pilot: the feedback scrolled by keys with the chosen item in
view, a disputed mistake refunded and stored (and counted in stats), scoring in a worker while the app still
answers keys, SIGTERM saving the draft, and a restored draft drawn once."""

from __future__ import annotations

import collections
import os
import signal
import threading

import pytest
from helpers import FORMULAS, settle, static_text
from textual.widgets import OptionList, Static

from lndrill.tui.app import make_app
from lndrill.tui.screens.card import CardScreen
from lndrill.tui.screens.feedback import MISTAKE, FeedbackScreen
from lndrill.tui.widgets.answer_area import AnswerArea

pytestmark = pytest.mark.tui

CARD = "pre-vs-post-ln"
#: Earns some points and draws one mistake ("Pre-LN needs warm-up too").
WITH_MISTAKE = "Post-LN needs warm-up: at init the gradients near the output are large.\nPre-LN needs warm-up too."


async def _feedback(pilot, app) -> FeedbackScreen:  # noqa: ANN001
    card = app.screen
    assert isinstance(card, CardScreen)
    card.query_one("#answer-0", AnswerArea).insert(FORMULAS)
    card.query_one("#answer-1", AnswerArea).insert(WITH_MISTAKE)
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.pause()
    feedback = app.screen
    assert isinstance(feedback, FeedbackScreen)
    return feedback


def _window(feedback: FeedbackScreen):  # noqa: ANN202
    scroll = feedback.query_one("#feedback")
    return scroll.scrollable_content_region.at_offset(scroll.scroll_offset)


async def test_feedback_keys_keep_the_chosen_item_in_view_at_80x24(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        feedback = await _feedback(pilot, app)
        scroll = feedback.query_one("#feedback")
        points = feedback.query_one("#fb-points", OptionList)
        assert scroll.scroll_y == 0  # opens at the top: the overrule hint is on screen
        assert scroll.max_scroll_y > 0
        assert not points.show_vertical_scrollbar  # one scrollbar: the feedback's
        for _ in range(points.option_count - 1):
            await pilot.press("down")
            await pilot.pause()
            assert feedback.highlighted_in_view(), points.highlighted
        assert points.highlighted == points.option_count - 1
        assert scroll.scroll_y > 0
        await pilot.press("home")
        await pilot.pause()
        assert scroll.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        await pilot.pause()
        assert scroll.scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        await pilot.pause()
        model = feedback.query_one("#fb-model", Static)  # the end: the model answer, from its first line
        assert model.display and scroll.region.y <= model.region.y <= scroll.region.y + 1  # (its top margin)
        assert scroll.scroll_y > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert scroll.scroll_y < scroll.max_scroll_y
        # `o` never changes an item the user cannot see: out of view, it scrolls to it first
        await pilot.press("end")
        await pilot.pause()
        await pilot.pause()
        score = feedback.result.score
        if not feedback.highlighted_in_view():
            await pilot.press("o")
            await pilot.pause()
            assert feedback.result.score == score and feedback.highlighted_in_view()


async def test_a_and_f_scroll_to_what_they_open(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        feedback = await _feedback(pilot, app)
        scroll = feedback.query_one("#feedback")
        follow = feedback.query_one("#fb-follow-up", Static)
        assert not follow.display
        await pilot.press("f")
        await pilot.pause()
        await pilot.pause()
        assert follow.display
        assert scroll.region.y <= follow.region.y < scroll.region.bottom  # its top is on screen
        model = feedback.query_one("#fb-model", Static)
        await pilot.press("a")  # shown at first: hides; again: shows and scrolls to it
        await pilot.pause()
        assert not model.display
        await pilot.press("a")
        await pilot.pause()
        await pilot.pause()
        assert model.display and scroll.region.y <= model.region.y < scroll.region.bottom


async def test_a_disputed_mistake_refunds_its_penalty_is_stored_and_counted(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        feedback = await _feedback(pilot, app)
        mistakes = feedback.submission.scored.mistakes
        assert mistakes, "the answer should draw a mistake"
        points = feedback.query_one("#fb-points", OptionList)
        index = points.get_option_index(MISTAKE + mistakes[0].id)
        score = feedback.result.score
        for _ in range(index):
            await pilot.press("down")
        await pilot.pause()
        assert points.highlighted == index and feedback.highlighted_in_view()
        await pilot.press("o")
        await pilot.pause()
        refunded = feedback.result.score
        assert refunded > score and not feedback.result.mistakes
        assert f"Score {refunded}/100" in static_text(feedback.query_one("#fb-score", Static))
        assert "disputed by you" in str(points.get_option_at_index(index).prompt)
        (attempt,) = app.practice.store.attempts(CARD)
        assert attempt.score == refunded and attempt.disputed == {mistakes[0].id}
        assert attempt.scorer_score == score
        stats = app.practice.stats()
        assert stats is not None
        assert [(o.kind, o.card_id, o.item_id, o.times) for o in stats.overrules] == [
            ("mistake", CARD, mistakes[0].id, 1)]
        assert stats.to_dict()["most_overruled"][0]["id"] == mistakes[0].id
        await pilot.press("enter")  # and charged again
        await pilot.pause()
        assert feedback.result.score == score
        (attempt,) = app.practice.store.attempts(CARD)
        assert attempt.score == score and attempt.disputed == set()


async def test_scoring_runs_in_a_worker_and_the_answer_is_stored_first(deck, monkeypatch) -> None:
    import lndrill.scoring.engine as engine

    release = threading.Event()
    real = engine.score_answer

    def slow(card, text):  # noqa: ANN001, ANN202
        assert release.wait(30), "the test never released the scorer"
        return real(card, text)

    monkeypatch.setattr(engine, "score_answer", slow)
    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        card = app.screen
        card.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        await pilot.press("ctrl+s")
        for _ in range(500):  # polling: no cost when fast, room on a loaded machine
            await pilot.pause(0.02)
            if app.practice.store.unscored_answers():
                break
        # stored before it is scored: a kill -9 now keeps it (committed to the history file, unscored;
        # read here through a connection of its own, as the next run would)
        from lndrill.store import open_store

        with open_store(read_only=True) as other:
            assert list(other.unscored_answers().values()) == [
                {"formulas": FORMULAS, "backprop": "", "tradeoffs": ""}]
        assert card.scoring and "Scoring" in static_text(card.query_one("#card-status", Static))
        assert card.query_one("#answer-0", AnswerArea).read_only
        await pilot.press("f1")  # the app still answers keys
        await pilot.pause()
        assert app.screen.query("HelpPanel")
        await pilot.press("f1")
        await pilot.pause()
        release.set()
        await settle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, FeedbackScreen)
        assert not card.scoring and not card.query_one("#answer-0", AnswerArea).read_only
        assert app.practice.store.unscored_answers() == {}
        assert app.practice.store.attempts(CARD)[0].answers["formulas"] == FORMULAS


async def test_sigterm_saves_the_draft_and_ends_the_app(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-0", AnswerArea).insert("typed a second ago")
        await pilot.pause()
        assert app.practice.store.load_draft(CARD) is None  # the 3 s autosave has not run
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(500):  # polling: no cost when fast, room on a loaded machine
            await pilot.pause(0.02)
            if app._exit:  # noqa: SLF001
                break
        assert app.return_code == 128 + signal.SIGTERM
    assert app.practice.store.load_draft(CARD) == {"formulas": "typed a second ago", "backprop": "", "tradeoffs": ""}
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # given back when the app ended


@pytest.mark.parametrize("card_id", ["sandwich-ln", "layernorm-jacobian"])
@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_a_restored_draft_shows_each_word_once(deck, card_id: str, size: tuple[int, int]) -> None:
    card = deck.get(card_id)
    words = " ".join(f"w{i:02d}" for i in range(90))
    draft = {s.id: f"s{j} {words}" for j, s in enumerate(card.sections)}
    app = make_app(deck=deck, start="drill", card_id=card_id, lang="en")
    async with app.run_test(size=size) as pilot:
        app.practice.store.save_draft(card_id, draft)
    app = make_app(deck=deck, start="drill", card_id=card_id, lang="en")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardScreen)
        assert [a.text for a in screen.areas()] == list(draft.values())
        for area in screen.areas():
            shown = " ".join("".join(s.text for s in area.render_line(y)) for y in range(area.size.height)).split()
            twice = [w for w, n in collections.Counter(shown).items() if n > 1]
            assert not twice, (area.id, shown)


async def test_the_highlighted_item_is_readable_in_every_built_in_theme(deck) -> None:
    from textual.color import Color

    from lndrill.tui.theme import contrast

    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        feedback = await _feedback(pilot, app)
        points = feedback.query_one("#fb-points", OptionList)
        low = []
        for name in sorted(app.available_themes):
            if name.startswith("ansi"):  # the terminal's own colours: nothing to measure
                continue
            app.theme = name
            await pilot.pause()
            style = points.get_component_rich_style("option-list--option-highlighted")
            ground = Color.from_rich_color(style.bgcolor)
            good, bad = (Color.parse(c) for c in feedback._colours())  # noqa: SLF001
            ratios = (contrast(good, ground), contrast(bad, ground), contrast(Color.from_rich_color(style.color),
                                                                              ground))
            if min(ratios) < 3.0:  # was 1.05 (green on light blue) before
                low.append((name, [round(r, 2) for r in ratios]))
        assert not low


async def test_labels_follow_the_language(deck) -> None:
    """In 中文 mode the labels the user reads are Chinese: home, the browser, the card, the feedback."""
    from textual.widgets import Button, DataTable, Label

    app = make_app(deck=deck, lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        home = app.screen
        menu = home.query_one("#home-menu", OptionList)
        assert "练习" in str(menu.get_option_at_index(0).prompt) and "模拟面试" in str(menu.get_option_at_index(1).prompt)
        assert "题库" in static_text(home.query_one("#home-deck", Static))
        await pilot.press("d")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        # beside the preview pane at 120 columns: card, last, due (the pane shows tags and level)
        assert [str(c.label) for c in table.columns.values()] == ["卡片", "上次", "到期"]
        app.open_card(CARD)
        await settle(pilot)
        card = app.screen
        assert "个要点" in str(card.query_one("#section-title-0", Label).content)
        assert str(card.query_one("#submit", Button).label).startswith("提交")
        from textual.widgets._footer import FooterKey

        footer = [k.description for k in card.query(FooterKey)]
        assert "提交" in footer and "下一张" in footer and "退出" in footer, footer  # the footer too
        card.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.pause()
        feedback = app.screen
        assert isinstance(feedback, FeedbackScreen)
        assert static_text(feedback.query_one("#fb-score", Static)).strip().startswith("得分")
        assert "要点与错误" in str(feedback.query_one("#fb-points-heading", Label).content)
        assert "你的回答" in str(feedback.query_one("#fb-answer-heading", Label).content)
        await pilot.press("ctrl+l")  # and back to English at once
        await pilot.pause()
        await pilot.pause()
        assert static_text(feedback.query_one("#fb-score", Static)).strip().startswith("Score")
        footer = [k.description for k in feedback.query(FooterKey)]
        assert "Retry" in footer and "Overrule" in footer, footer
        # The simulator panel, the simulator screen's controls and the browser's filter hint too (live).
        from textual.widgets import Input

        from lndrill.tui.messages import ToggleLanguage
        from lndrill.tui.widgets.sim_panel import SimPanel

        await pilot.press("ctrl+l")  # 中文 again
        await pilot.pause()
        assert app.lang == "zh"
        panel = card.query_one(SimPanel)
        assert "模拟器" in static_text(panel.query_one("#panel-title", Static))
        assert str(panel.query_one("#knob-depth", Button).label).startswith("深度")
        assert str(panel.query_one("#knob-seed", Button).label).startswith("种子")
        app.open_sim()
        await settle(pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        sim = app.screen
        labels = [str(w.content) for w in sim.query("#sim-controls > Label").results(Label)]
        assert labels == ["预设", "模型", "指标", "放置方式", "深度", "宽度", "种子", "种子数", "刻度"], labels
        assert sim.query_one("#depths", Input).placeholder.startswith("1-48 或")
        assert static_text(sim.query_one("#sim-explain", Static)).startswith("测量的是：")
        app.post_message(ToggleLanguage())
        await pilot.pause()
        await pilot.pause()
        labels = [str(w.content) for w in sim.query("#sim-controls > Label").results(Label)]
        assert labels[:3] == ["Preset", "Model", "Metric"] and "Seeds" in labels
        assert static_text(sim.query_one("#sim-explain", Static)).startswith("What this measures: ")
        app.post_message(ToggleLanguage())
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        app.open_browser()
        await settle(pilot)
        assert app.screen.query_one("#filter", Input).placeholder.startswith("输入以筛选")
        app.post_message(ToggleLanguage())
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one("#filter", Input).placeholder.startswith("type to filter")
        app.post_message(ToggleLanguage())  # and Stats: its heading, titles and columns
        await pilot.pause()
        app.open_stats()
        await settle(pilot)
        stats = app.screen
        assert static_text(stats.query_one("#stats-bar", Static)).strip().startswith("统计")
        assert [str(c.label) for c in stats.query_one("#stats-cards", DataTable).columns.values()] == [
            "卡片", "回答数", "最高", "上次", "下次到期"]
        assert str(stats.query_one("#stats-sections-title", Label).content).startswith("各部分")
        app.post_message(ToggleLanguage())
        await pilot.pause()
        await pilot.pause()
        assert static_text(stats.query_one("#stats-bar", Static)).strip().startswith("Stats")
