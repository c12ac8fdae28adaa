"""The simulator screen (issue 10): placement checkboxes that show their state, the chart scrolled by keys."""

from __future__ import annotations

import pytest
from helpers import settle

from lndrill.tui.app import make_app

pytestmark = pytest.mark.tui


async def test_sim_screen_checkboxes_show_their_state_and_the_chart_scrolls_by_key(deck) -> None:
    """Placements show ✓ when on and nothing when off (not an X both ways); pagedown scrolls the chart of
    the default 1-48 depths, whatever control has the focus."""
    from textual.containers import VerticalScroll

    from lndrill.tui.screens.sim import OnOffBox, SimScreen

    app = make_app("sim", deck=deck, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SimScreen)
        boxes = {b.id: b for b in screen.query(OnOffBox)}
        marks = {i: b._button.plain[1] for i, b in boxes.items()}  # noqa: SLF001 - the mark drawn
        assert marks["place-post"] == "✓" and marks["place-sandwich"] == " "
        boxes["place-sandwich"].value = True
        await settle(pilot)
        assert boxes["place-sandwich"]._button.plain[1] == "✓"  # noqa: SLF001
        main = screen.query_one("#sim-main", VerticalScroll)
        assert main.max_scroll_y > 0 and main.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert main.scroll_y > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert main.scroll_y == 0


async def test_f2_moves_to_the_simulator_panel_and_back(deck) -> None:
    from lndrill.tui.screens.card import CardScreen
    from lndrill.tui.widgets.answer_area import AnswerArea
    from lndrill.tui.widgets.sim_panel import SimPanel

    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(80, 24)) as pilot:  # below 100 columns and 36 rows: hidden at first
        await settle(pilot)
        card = app.screen
        assert isinstance(card, CardScreen)
        panel = card.query_one(SimPanel)
        assert not panel.display
        await pilot.press("tab")
        second = card.query_one("#answer-1", AnswerArea)
        assert second.has_focus
        await pilot.press("f2")
        await settle(pilot)
        assert panel.display and panel.has_focus
        await pilot.press("m")  # the panel's keys work there
        await settle(pilot)
        assert panel.knobs.metric != "jacobian"
        assert panel.region.bottom <= card.query_one("#card-main").region.bottom
        assert card.query_one("#card-left").region.height >= 8  # the answer stays in view above it
        await pilot.press("f2")
        await pilot.pause()
        assert second.has_focus  # back where the typing was
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(90, 40)) as pilot:  # under the card, shown when there is room
        await settle(pilot)
        assert app.screen.query_one(SimPanel).display


async def test_the_command_line_config_survives_mounting_and_a_language_switch(deck) -> None:
    """`lndrill sim --metric update --model transformer --depths 1-24` opens the screen on those options, and
    switching to Chinese keeps them (relabelling the preset list once reset every control to its defaults)."""
    from textual.widgets import Input, Select

    from lndrill.sim import SimConfig
    from lndrill.tui.screens.sim import SimScreen

    config = SimConfig(metric="update", model="transformer", depths=tuple(range(1, 25)))
    app = make_app("sim", deck=deck, lang="en", sim_config=config)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SimScreen)

        def shown() -> tuple[object, object, str]:
            return (screen.query_one("#metric", Select).value, screen.query_one("#model", Select).value,
                    screen.query_one("#depths", Input).value)

        assert shown() == ("update", "transformer", "1-24")
        assert screen.config.metric == "update"
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert shown() == ("update", "transformer", "1-24")
        assert screen.config.metric == "update" and screen.config.model == "transformer"
