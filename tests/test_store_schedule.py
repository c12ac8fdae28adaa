"""Spaced repetition: score -> rating, bad answers come back sooner, drill order, mock picks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fsrs import Rating
from helpers import GOOD, POOR, T0, scored

from lndrill.scoring.result import FORM_FLOOR
from lndrill.store import memory_store
from lndrill.store.schedule import rating_for


@pytest.mark.parametrize(("score", "rating"), [
    (0, Rating.Again), (30, Rating.Again), (49, Rating.Again), (50, Rating.Hard), (69, Rating.Hard),
    (70, Rating.Good), (89, Rating.Good), (90, Rating.Easy), (100, Rating.Easy),
])
def test_score_to_rating(score: int, rating: Rating) -> None:
    assert rating_for(score) == rating


def test_a_missed_answer_is_again_not_hard(main_card) -> None:
    assert rating_for(scored(main_card, "").score) == Rating.Again
    assert rating_for(scored(main_card, POOR).score) == Rating.Again


def test_a_card_answered_badly_is_due_sooner_than_one_answered_well() -> None:
    store = memory_store(clock=lambda: T0)
    bad = store.review("bad", 20, 30)
    good = store.review("good", 95, 30)
    assert T0 < bad < good
    # ... and still after several reviews of each, spaced by their own due times
    for _ in range(4):
        bad = store.review("bad", 20, 30, now=bad)
        good = store.review("good", 95, 30, now=good)
    assert bad < good
    # a card forgotten after being known comes back sooner than if it had been remembered
    store.review("a", 95, 30)
    store.review("b", 95, 30)
    later = T0 + timedelta(days=30)
    assert store.review("a", 10, 30, now=later) < store.review("b", 80, 30, now=later)


def test_review_duration_goes_to_fsrs_in_milliseconds() -> None:
    store = memory_store(clock=lambda: T0)
    store.review("x", 80, 12.5)
    store.review("y", 80, 0)  # unknown duration (the CLI): not claimed as 0 ms
    rows = dict(store._conn.execute("SELECT card_id, duration_ms FROM reviews").fetchall())
    assert rows == {"x": 12500, "y": None}


def test_state_is_persisted_per_card_id_as_fsrs_dict() -> None:
    import json

    from fsrs import Card

    store = memory_store(clock=lambda: T0)
    due = store.review("pre-vs-post-ln", 75, 10)
    (text,) = store._conn.execute("SELECT fsrs_json FROM schedule WHERE card_id = 'pre-vs-post-ln'").fetchone()
    card = Card.from_dict(json.loads(text))
    assert card.due == due and card.due.tzinfo is not None and card.last_review == T0


def test_overrides_redo_the_review_of_that_attempt(main_card) -> None:
    store = memory_store(clock=lambda: T0)
    result = scored(main_card, POOR)
    aid = store.record_attempt(main_card.id, "drill", {"answer": POOR}, result, 10)
    before = store.review(main_card.id, result.score, 10, attempt_id=aid)
    everything = result
    for s in result.sections:
        for p in s.points:
            everything = everything.overrule(p.id, True)
    store.update_overrides(aid, {p.id: True for s in result.sections for p in s.points}, everything.score)
    after = store.card_status([main_card.id])[main_card.id].due
    # every point now hit: a complete answer's total (however short the text, never under FORM_FLOOR)
    assert everything.points == 100 and everything.score >= FORM_FLOOR and after > before
    assert store._conn.execute("SELECT count(*) FROM reviews").fetchone()[0] == 1  # redone, not added


def _history():
    """Cards: 'weak' and 'strong' due now, 'later' due in the future, 'new1'/'new2' never seen."""
    store = memory_store(clock=lambda: T0)
    store.review("weak", 20, 10, now=T0 - timedelta(days=1))
    store.review("strong", 75, 10, now=T0 - timedelta(days=1))
    store.review("later", 100, 10, now=T0 - timedelta(days=1))
    return store


def test_drill_order_due_weakest_first_then_new_then_rest(main_card) -> None:
    store = _history()
    store.record_attempt("weak", "drill", {"answer": "x"}, scored(main_card, POOR), 1, now=T0 - timedelta(days=1))
    ids = ["new1", "later", "strong", "weak", "new2"]
    status = store.card_status(ids)
    assert status["weak"].due <= T0 and status["strong"].due <= T0 and status["later"].due > T0
    assert store.order_for_drill(ids) == ["weak", "strong", "new1", "new2", "later"]
    assert store.order_for_drill(ids, cram=True) == ids


def test_drill_order_prefers_the_most_overdue() -> None:
    store = memory_store(clock=lambda: T0)
    store.review("long-ago", 75, 10, now=T0 - timedelta(days=60))
    store.review("recent", 75, 10, now=T0 - timedelta(days=2))
    assert store.order_for_drill(["recent", "long-ago"]) == ["long-ago", "recent"]


def test_card_status_for_the_browser(main_card) -> None:
    store = memory_store(clock=lambda: T0)
    for text in (POOR, GOOD, POOR):
        aid = store.record_attempt(main_card.id, "drill", {"answer": text}, scored(main_card, text), 5)
        due = store.review(main_card.id, scored(main_card, text).score, 5, attempt_id=aid)
    st = store.card_status([main_card.id, "rmsnorm"])
    assert st[main_card.id].attempts == 3 and st[main_card.id].last_score == scored(main_card, POOR).score
    assert st[main_card.id].best == scored(main_card, GOOD).score and st[main_card.id].due == due
    assert st["rmsnorm"].attempts == 0 and st["rmsnorm"].due is None and st["rmsnorm"].last_score is None


def test_mock_pick_is_reproducible_with_a_seed_and_due_cards_come_first() -> None:
    store = _history()
    ids = ["weak", "strong", "later"] + [f"new{i}" for i in range(10)]
    first = store.pick_for_mock(ids, 6, seed=7)
    assert first == store.pick_for_mock(list(reversed(ids)), 6, seed=7)
    assert first[:2] == ["weak", "strong"] and len(set(first)) == 6
    picks = {tuple(store.pick_for_mock(ids, 6, seed=s)) for s in range(20)}
    assert len(picks) > 5  # the others vary with the seed
    assert sorted(store.pick_for_mock(ids, 100, seed=1)) == sorted(ids)
    assert store.pick_for_mock(ids, 0) == [] and store.pick_for_mock([], 3) == []


def test_mock_pick_by_tag() -> None:
    store = _history()
    tags = {"weak": ("warmup",), "strong": ("backprop",), "later": ("warmup",), "new1": ("warmup", "core")}
    picked = store.pick_for_mock(list(tags), 5, tags=tags, tag="warmup", seed=3)
    assert picked[0] == "weak" and sorted(picked) == ["later", "new1", "weak"]
    assert store.pick_for_mock(list(tags), 5, tags=tags, tag="nope") == []
    with pytest.raises(ValueError):
        store.pick_for_mock(list(tags), 5, tag="warmup")
