"""The card browser (issue 10): exact id or title matches first, tag prefixes, a line when nothing matches,
the preview pane from 100 columns, and the cursor kept after leaving a card."""

from __future__ import annotations

import pytest
from helpers import settle, static_text
from textual.widgets import DataTable, Static

from lndrill.tui.app import make_app
from lndrill.tui.screens.browser import BrowserScreen, match_rank
from lndrill.tui.screens.card import CardScreen

pytestmark = pytest.mark.tui


def test_exact_id_ranks_first(deck) -> None:
    rms = deck.get("rmsnorm")
    assert match_rank(rms, "rmsnorm") == 0
    assert match_rank(rms, "tag:no-such") is None


async def test_typing_an_id_then_enter_opens_that_card(deck) -> None:
    app = make_app(deck=deck, start="drill", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(*"rmsnorm")
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        assert browser.visible_ids[0] == "rmsnorm" and len(browser.visible_ids) > 1
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CardScreen) and app.screen.card.id == "rmsnorm"


async def test_tag_prefix_and_the_empty_state(deck) -> None:
    app = make_app(deck=deck, start="drill", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(*"tag:warm")
        await pilot.pause()
        browser = app.screen
        assert browser.visible_ids and all(any(t.startswith("warm") for t in deck.get(c).tags)
                                           for c in browser.visible_ids)
        await pilot.press(*"zzz")
        await pilot.pause()
        assert browser.visible_ids == []
        line = static_text(browser.query_one("#browser-count", Static))
        assert "No card matches 'tag:warmzzz'" in line and "warmup" in line


@pytest.mark.parametrize(("width", "shown"), [(120, True), (80, False)])
async def test_the_preview_pane_shows_the_full_title_and_prompt(deck, width: int, shown: bool) -> None:
    app = make_app(deck=deck, start="drill", lang="en")
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(pilot)
        browser = app.screen
        preview = browser.query_one("#browser-preview")
        assert preview.display is shown
        if shown:
            first = deck.get(browser.visible_ids[0])
            text = static_text(browser.query_one("#browser-preview-text", Static)).replace("\n", " ")
            assert first.title.en in text and " ".join(first.prompt.en.split()[:6]) in " ".join(text.split())


async def test_the_cursor_is_kept_after_leaving_a_card(deck) -> None:
    app = make_app(deck=deck, start="drill", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        browser = app.screen
        await pilot.press("down", "down", "down", "down")
        await pilot.pause()
        table = browser.query_one(DataTable)
        row = table.cursor_row
        assert row > 0
        chosen = browser.visible_ids[row]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.card.id == chosen
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is browser and browser.visible_ids[table.cursor_row] == chosen

