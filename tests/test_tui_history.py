"""The app and the history store: drafts autosaved and restored, a corrupt database, an unusable one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FORMULAS, settle, static_text

from lndrill.tui.app import make_app
from lndrill.tui.screens.card import CardScreen
from lndrill.tui.widgets.answer_area import AnswerArea

pytestmark = pytest.mark.tui


async def test_draft_autosaved_and_restored_on_reopen(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        card = app.screen
        card.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        card.query_one("#answer-2", AnswerArea).insert("Pre-LN is stable.")
        await pilot.pause()
        assert app.practice.store.load_draft("pre-vs-post-ln") is None  # not yet: the timer saves every few seconds
        timer = next(t for t in app._timers if t.name == "draft-autosave")
        await timer._tick(next_timer=0, count=1)  # the autosave timer fires
        draft = {"formulas": FORMULAS, "backprop": "", "tradeoffs": "Pre-LN is stable."}
        assert app.practice.store.load_draft("pre-vs-post-ln") == draft
        await pilot.press("escape")  # leave the card without submitting ...
        await pilot.pause()
        app.open_card("pre-vs-post-ln")  # ... and open it again
        await settle(pilot)
        card = app.screen
        assert isinstance(card, CardScreen)
        assert [a.text for a in card.areas()] == [FORMULAS, "", "Pre-LN is stable."]
        assert any("draft" in n.message for n in app._notifications)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.practice.store.load_draft("pre-vs-post-ln") is None  # cleared on submit
        assert app.practice.store.attempts("pre-vs-post-ln")[0].answers["formulas"] == FORMULAS


async def test_corrupt_database_is_moved_aside_with_one_line(deck, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "history.db").write_bytes(b"this is not a database " * 100)
    app = make_app(deck=deck, lang="en")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        notes = [n.message for n in app._notifications]
        assert any("moved it to" in m for m in notes), notes
        assert all("\n" not in m for m in notes)
        assert app.practice.store.path == home / "history.db"
        assert any(p.name.startswith("history.db") and p.name != "history.db" for p in home.iterdir())


async def test_unusable_history_falls_back_to_memory(deck, tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data directory should be")
    monkeypatch.setenv("LNDRILL_HOME", str(blocker))
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert app.practice.store.path is None
        assert any("kept in" in n.message for n in app._notifications)
        app.screen.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert len(app.practice.store.attempts()) == 1  # still works, in memory
    from lndrill.store import pending

    (kept,) = pending.waiting(blocker)  # and the answer outlives the session, in the spare directory
    assert pending.read(kept).answers["formulas"] == FORMULAS


async def test_browser_shows_last_score_and_due_and_puts_due_cards_first(deck) -> None:
    from datetime import UTC, datetime, timedelta

    from textual.widgets import DataTable

    from lndrill.scoring.engine import score_answer
    from lndrill.store import open_store
    from lndrill.tui.screens.browser import BrowserScreen

    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    main, old = deck.get("pre-vs-post-ln"), deck.get("rmsnorm")
    with open_store() as store:
        for card, at in ((old, t0 - timedelta(days=60)), (main, t0 - timedelta(minutes=5))):
            text = card.model_answer.en  # a good answer: the next review is days away
            result = score_answer(card, text)
            attempt = store.record_attempt(card.id, "drill", {"answer": text}, result, 30, now=at)
            store.review(card.id, result.score, 30, now=at, attempt_id=attempt)
        last_main = store.card_status([main.id])[main.id].last_score
    app = make_app(deck=deck, start="drill", lang="en", now=lambda: t0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        ids = browser.visible_ids
        assert ids[0] == old.id  # due (answered 60 days ago) comes first ...
        assert ids[-1] == main.id  # ... the card answered 5 minutes ago comes last
        assert app.card_order == ids  # "next card" follows this order
        table = browser.query_one(DataTable)
        def cell(card_id: str, column: str) -> str:
            return str(table.get_cell(card_id, column).plain)

        assert cell(main.id, "last") == str(last_main) and cell(main.id, "due").startswith("in ")
        assert cell(old.id, "due") == "due now"
        assert cell(ids[1], "last") == "-" and cell(ids[1], "due") == "new"
        assert "1 due" in str(browser.query_one("#browser-count").content)
    cram = make_app(deck=deck, start="drill", lang="en", now=lambda: t0, cram=True)
    async with cram.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert cram.screen.visible_ids[0] != old.id  # --cram: the deck order, schedule ignored


async def test_stats_screen_from_home(deck) -> None:
    from datetime import UTC, datetime, timedelta

    from textual.widgets import DataTable, Static

    from lndrill.practice.stats import sparkline
    from lndrill.scoring.engine import score_answer
    from lndrill.store import open_store
    from lndrill.tui.screens.stats import StatsScreen

    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    app = make_app(deck=deck, lang="en", now=lambda: t0)
    async with app.run_test(size=(80, 24)) as pilot:  # no history yet: says so
        await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert app.screen.query_one("#stats-empty", Static).display
    main = deck.get("pre-vs-post-ln")
    scores = []
    with open_store() as store:
        for i, text in enumerate((FORMULAS, main.model_answer.en)):
            at = t0 - timedelta(days=3 - i)
            result = score_answer(main, text)
            attempt = store.record_attempt(main.id, "drill", {"answer": text}, result, 30, now=at)
            store.review(main.id, result.score, 30, now=at, attempt_id=attempt)
            scores.append(result.score)
    app = make_app(deck=deck, lang="en", now=lambda: t0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_stats()
        await pilot.pause()
        screen = app.screen
        assert not screen.query_one("#stats-empty", Static).display
        # the trend on the fixed 0-100 scale of `lndrill stats`, not rescaled to its own min and max
        assert static_text(screen.query_one("#stats-trend", Static)).startswith(sparkline(scores))
        cards = screen.query_one("#stats-cards", DataTable)
        row = cards.get_row(main.id)
        assert [c.plain for c in row[1:4]] == ["2", str(max(scores)), str(scores[-1])]
        assert row[4].plain.startswith(("in ", "due now"))
        assert screen.query_one("#stats-sections", DataTable).row_count == len(main.sections)
        assert "core" in [r.value for r in screen.query_one("#stats-tags", DataTable).rows]
        assert cards.has_focus
        await pilot.press("enter")  # a row opens its card
        await settle(pilot)
        assert isinstance(app.screen, CardScreen) and app.screen.card.id == main.id


async def test_home_says_how_many_cards_are_due(deck) -> None:
    from datetime import UTC, datetime, timedelta

    from helpers import hand_scored
    from textual.widgets import Static

    from lndrill.store import open_store

    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    main = deck.get("pre-vs-post-ln")
    with open_store() as store:
        at = t0 - timedelta(days=60)
        result = hand_scored(main, {"post-formula"})
        attempt = store.record_attempt(main.id, "drill", {"answer": "x"}, result, 30, now=at)
        store.review(main.id, result.score, 30, now=at, attempt_id=attempt)
    app = make_app(deck=deck, lang="en", now=lambda: t0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause()
        assert "1 due now" in static_text(app.screen.query_one("#home-deck", Static))


async def test_home_counts_new_cards_for_a_new_user(deck) -> None:
    """A first start has nothing due but every card new: the status line says both, not only '0 due now'."""
    from textual.widgets import Static

    app = make_app(deck=deck, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause()
        status = static_text(app.screen.query_one("#home-deck", Static))
        assert f"{len(deck.cards)} new" in status
