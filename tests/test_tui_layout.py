"""Layout leftovers of issue 10: a mistake's explanation hangs under its line when it wraps, the Stats trend
title is one line at 80 columns, and the browser's title column is wide enough beside the preview pane."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from helpers import hand_scored, settle
from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, Label, OptionList

from lndrill.store import open_store
from lndrill.tui.app import make_app
from lndrill.tui.screens.feedback import HANG, MISTAKE, FeedbackScreen, Hanging
from lndrill.tui.widgets.answer_area import AnswerArea

pytestmark = pytest.mark.tui

CARD = "pre-vs-post-ln"
SWAPPED = "Post-LN: y = x + F(LN(x)). Pre-LN: y = LN(x + F(x))."


def _lines(renderable: object, width: int) -> list[str]:
    console = Console(width=width, color_system=None, legacy_windows=False)
    return ["".join(s.text for s in line).rstrip() for line in console.render_lines(renderable, pad=False)]


def test_the_explanation_hangs_on_every_line_it_wraps_to() -> None:
    head = Text("! Mistake -10: “Pre-LN: y = LN(x + F(x)).”")
    body = Text("LN(x + F(x)) is Post-LN; Pre-LN is x + F(LN(x)). The formulas are swapped.")
    lines = _lines(Hanging(head, body), 40)
    assert lines[0] == "! Mistake -10: “Pre-LN: y = LN(x +"  # the line itself wraps as before
    explanation = lines[lines.index(next(x for x in lines if x.startswith("   LN("))):]
    assert len(explanation) >= 2 and all(x.startswith(" " * HANG) and x[HANG] != " " for x in explanation)
    assert " ".join(x.strip() for x in explanation) == body.plain
    assert str(Hanging(head, body)) == f"{head.plain}\n   {body.plain}"


async def test_a_charged_mistake_wraps_with_a_hanging_indent_at_80x24(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id=CARD, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-0", AnswerArea).insert(SWAPPED)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.pause()
        feedback = app.screen
        assert isinstance(feedback, FeedbackScreen)
        options = feedback.query_one("#fb-points", OptionList)
        mistakes = [options.get_option_at_index(i) for i in range(options.option_count)
                    if (options.get_option_at_index(i).id or "").startswith(MISTAKE)]
        assert mistakes
        width = options.scrollable_content_region.width
        wrapped = 0
        for option in mistakes:
            prompt = option.prompt
            assert isinstance(prompt, Hanging)
            lines = _lines(prompt, width)
            head = len(_lines(prompt.head, width))
            assert all(x.startswith(" " * HANG) and x[HANG] != " " for x in lines[head:]), lines
            wrapped += len(lines) - head > 1
        assert wrapped, "no explanation wraps at 80x24: the check above proved nothing"


async def test_the_trend_title_is_one_line_at_80_columns(deck) -> None:
    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    main = deck.get(CARD)
    every = {p.id for s in main.sections for p in s.points}
    with open_store() as store:
        for i in range(45):  # the most the trend shows (40), each score 100: the longest title
            store.record_attempt(CARD, "drill", {"answer": "x"}, hand_scored(main, every), 30,
                                 now=t0 - timedelta(hours=50 - i))
    for lang, start in (("en", "Trend: last 40 answers"), ("zh", "趋势：最近 40 次回答")):
        app = make_app(deck=deck, lang=lang, now=lambda: t0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.open_stats()
            await pilot.pause()
            title = app.screen.query_one("#stats-trend-title", Label)
            assert str(title.content).startswith(start)
            assert title.size.height == 1 and title.size.width <= 80, (lang, title.size)


async def test_the_title_column_beside_the_preview_pane_at_120x40(deck) -> None:
    app = make_app(deck=deck, start="drill", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        browser = app.screen
        assert browser.query_one("#browser-preview").display
        table = browser.query_one(DataTable)
        widths = {str(key.value): col.width for key, col in table.columns.items()}
        assert list(widths) == ["title", "last", "due"]  # the pane shows the tags and the level
        assert widths["title"] >= 60, widths  # was 31 beside a 40-column pane, with tags and level
        assert sum(c.get_render_width(table) for c in table.columns.values()) <= table.size.width
        fits = sum(len(deck.get(cid).title.en) <= widths["title"] for cid in browser.visible_ids)
        assert fits >= len(browser.visible_ids) // 2, fits
    app = make_app(deck=deck, start="drill", lang="en")
    async with app.run_test(size=(80, 24)) as pilot:  # no pane: every column, as before
        await settle(pilot)
        assert [str(k.value) for k in app.screen.query_one(DataTable).columns] == [
            "title", "tags", "level", "last", "due"]
