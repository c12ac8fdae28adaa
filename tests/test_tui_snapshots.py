"""Snapshot tests (pytest-textual-snapshot) at 120x40 and 80x24: home, a card before answering, the
feedback view for a fixed answer (and at 80x24 scrolled to its end with `end`), the simulator on the
article preset, a mock-interview question.

Stable by construction: fixed terminal size, the navy theme, fixed seeds (the simulator is
deterministic), a fake clock for the countdown, English cards, a one-card deck (so colleagues adding cards do not move the home
screen), no cursor blink in headless runs, workers awaited before the shot.
Accept new ones with `pytest --snapshot-update tests/test_tui_snapshots.py` and look at the SVGs.
"""

from __future__ import annotations

import pytest

from lndrill.sim import SimConfig
from lndrill.tui.app import make_app

pytestmark = pytest.mark.tui


@pytest.fixture(scope="module")
def deck():
    """Only the main card, loaded from its file: other cards being added or edited never move a snapshot."""
    from lndrill.cards.deck import Deck, bundled_content_dir, load_card_file

    card, problems = load_card_file(bundled_content_dir() / "pre-vs-post-ln.yaml")
    assert card is not None, problems
    return Deck(cards={card.id: card})


SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]

FIXED_ANSWER = (
    "Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)).",
    "Post-LN needs warm-up: at init the gradients near the output are large. Pre-LN needs warm-up too.",
    "Pre-LN is stable, so large models use it.",
)


async def _settle(pilot) -> None:  # noqa: ANN001
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, deck, size) -> None:
    assert snap_compare(make_app(deck=deck, lang="en"), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES)
def test_card_before_answering(snap_compare, deck, size) -> None:
    app = make_app("drill", deck=deck, card_id="pre-vs-post-ln", lang="en")
    assert snap_compare(app, terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES)
def test_feedback_for_a_fixed_answer(snap_compare, deck, size) -> None:
    async def answer_and_submit(pilot) -> None:  # noqa: ANN001
        await _settle(pilot)
        for i, text in enumerate(FIXED_ANSWER):
            pilot.app.screen.query_one(f"#answer-{i}").insert(text)
        await pilot.press("ctrl+s")
        await _settle(pilot)

    app = make_app("drill", deck=deck, card_id="pre-vs-post-ln", lang="en")
    assert snap_compare(app, terminal_size=size, run_before=answer_and_submit)


def test_feedback_scrolled_to_the_end_at_80x24(snap_compare, deck) -> None:
    async def submit_and_press_end(pilot) -> None:  # noqa: ANN001
        await _settle(pilot)
        for i, text in enumerate(FIXED_ANSWER):
            pilot.app.screen.query_one(f"#answer-{i}").insert(text)
        await pilot.press("ctrl+s")
        await _settle(pilot)
        await pilot.press("end")
        await _settle(pilot)

    app = make_app("drill", deck=deck, card_id="pre-vs-post-ln", lang="en")
    assert snap_compare(app, terminal_size=(80, 24), run_before=submit_and_press_end)


@pytest.mark.parametrize("size", SIZES)
def test_simulator_article_preset(snap_compare, deck, size) -> None:
    app = make_app("sim", deck=deck, sim_config=SimConfig(preset="article"))
    assert snap_compare(app, terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES)
def test_mock_question_with_the_countdown_in_the_last_minute(snap_compare, deck, size) -> None:
    from lndrill.practice import MockOptions

    now = [1000.0]

    async def type_and_wait(pilot) -> None:  # noqa: ANN001
        await _settle(pilot)
        pilot.app.screen.query_one("#answer-0").insert(FIXED_ANSWER[0])
        now[0] += 4 * 60 + 5  # 0:55 left: the countdown turns amber
        pilot.app.screen.tick()
        await pilot.pause()

    app = make_app("mock", deck=deck, lang="en", clock=lambda: now[0], mock=MockOptions(questions=1, seed=1))
    assert snap_compare(app, terminal_size=size, run_before=type_and_wait)
