"""The app and the history store: drafts autosaved and restored, a corrupt database, an unusable one."""

from __future__ import annotations

from pathlib import Path

from test_tui_app import FORMULAS, settle

from lndrill.tui.app import make_app
from lndrill.tui.screens.card import CardScreen
from lndrill.tui.widgets.answer_area import AnswerArea


async def test_draft_autosaved_and_restored_on_reopen(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        card = app.screen
        card.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        card.query_one("#answer-2", AnswerArea).insert("Pre-LN is stable.")
        await pilot.pause()
        assert app.store.load_draft("pre-vs-post-ln") is None  # not yet: the timer saves every few seconds
        timer = next(t for t in app._timers if t.name == "draft-autosave")
        await timer._tick(next_timer=0, count=1)  # the autosave timer fires
        draft = {"formulas": FORMULAS, "backprop": "", "tradeoffs": "Pre-LN is stable."}
        assert app.store.load_draft("pre-vs-post-ln") == draft
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
        assert app.store.load_draft("pre-vs-post-ln") is None  # cleared on submit
        assert app.store.attempts("pre-vs-post-ln")[0].answers["formulas"] == FORMULAS


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
        assert app.store.path == home / "history.db"
        assert any(p.name.startswith("history.db") and p.name != "history.db" for p in home.iterdir())


async def test_unusable_history_falls_back_to_memory(deck, tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data directory should be")
    monkeypatch.setenv("LNDRILL_HOME", str(blocker))
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert app.store.path is None
        assert any("not saved" in n.message for n in app._notifications)
        app.screen.query_one("#answer-0", AnswerArea).insert(FORMULAS)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert len(app.store.attempts()) == 1  # still works, in memory
