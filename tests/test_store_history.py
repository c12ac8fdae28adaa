"""History: every submitted answer is stored with its sections, points and overrides; drafts round-trip."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from helpers import GOOD, POOR, T0, scored

from lndrill.practice.stats import history_stats
from lndrill.store import StoreError, memory_store, open_store
from lndrill.store.paths import data_dir, db_path


def test_data_dir_follows_lndrill_home(tmp_path: Path) -> None:
    assert data_dir() == tmp_path / "home"
    assert db_path() == tmp_path / "home" / "history.db"


def test_record_attempt_stores_everything(main_card) -> None:
    result = scored(main_card, GOOD)
    answers = {"formulas": "Post-LN: y = LN(x + F(x)).", "backprop": "identity path", "tradeoffs": "warm-up"}
    with open_store() as store:
        aid = store.record_attempt(main_card.id, "drill", answers, result, 42.5,
                                   started_at=T0 - timedelta(seconds=42.5), now=T0)
    with open_store() as store:  # a new connection sees it: it was committed
        (a,) = store.attempts()
    assert a.id == aid and a.card_id == main_card.id and a.mode == "drill"
    assert a.answers == answers and list(a.answers) == ["formulas", "backprop", "tradeoffs"]
    assert a.submitted_at == T0 and a.started_at == T0 - timedelta(seconds=42.5) and a.duration_s == 42.5
    assert a.score == a.scorer_score == result.score
    expected = {(s.id, p.id): p.hit for s in result.sections for p in s.points}
    assert {(p.section_id, p.point_id): p.hit for p in a.points} == expected
    assert not a.overrides
    assert a.result["score"] == result.score and a.result["card"] == main_card.id


def test_overrides_at_submit_and_later_are_stored_and_in_stats(main_card, deck) -> None:
    result = scored(main_card, POOR)
    missed = [p.id for s in result.sections for p in s.points if not p.hit]
    store = memory_store(clock=lambda: T0)
    aid = store.record_attempt(main_card.id, "drill", {"answer": POOR}, result, 5, overrides={missed[0]: True})
    (a,) = store.attempts()
    assert a.overrides == {missed[0]: True}
    assert a.score == result.overrule(missed[0], True).score > result.score == a.scorer_score
    assert history_stats(store, deck.cards, T0).card(main_card.id).overridden_points == 1

    both = result.overrule(missed[0], True).overrule(missed[1], True)
    store.update_overrides(aid, {missed[0]: True, missed[1]: True}, both.score)
    stats = history_stats(store, deck.cards, T0).card(main_card.id)
    assert stats.last == stats.best == both.score and stats.overridden_points == 2

    store.update_overrides(aid, {}, result.score)  # withdrawing every override restores the scorer's verdict
    (a,) = store.attempts()
    assert a.overrides == {} and a.score == result.score
    assert {p.point_id: p.hit for p in a.points} == {p.id: p.hit for s in result.sections for p in s.points}


def test_update_overrides_rejects_unknown_ids(main_card) -> None:
    store = memory_store(clock=lambda: T0)
    aid = store.record_attempt(main_card.id, "drill", {"answer": POOR}, scored(main_card, POOR), 1)
    with pytest.raises(ValueError):
        store.update_overrides(aid, {"no-such-point": True}, 50)
    with pytest.raises(ValueError):
        store.update_overrides(aid + 1, {}, 50)
    assert store.attempts()[0].score == store.attempts()[0].scorer_score  # the failed call changed nothing


def test_drafts_round_trip_and_are_cleared_by_submitting(main_card) -> None:
    with open_store() as store:
        assert store.load_draft(main_card.id) is None
        store.save_draft(main_card.id, {"formulas": "Post-LN: y = LN(x + F(x))", "backprop": "残差恒等"})
        store.save_draft(main_card.id, {"formulas": "Post-LN: y = LN(x + F(x)) and", "backprop": "残差恒等"})
    with open_store() as store:
        assert store.load_draft(main_card.id) == {"formulas": "Post-LN: y = LN(x + F(x)) and", "backprop": "残差恒等"}
        assert store.load_draft("rmsnorm") is None
        store.save_draft("rmsnorm", {"definition": "   "})  # blank: nothing worth offering back
        assert store.load_draft("rmsnorm") is None
        store.record_attempt(main_card.id, "drill", {"formulas": "x"}, scored(main_card, "x"), 1)
        assert store.load_draft(main_card.id) is None
        store.save_draft("rmsnorm", {"definition": "RMSNorm drops the mean"})
        store.clear_draft("rmsnorm")
        assert store.load_draft("rmsnorm") is None


def test_history_keys_on_card_id_so_edited_or_removed_cards_keep_it(main_card, tmp_path: Path) -> None:
    from dataclasses import replace

    from lndrill.cards.schema import Text

    store = memory_store(clock=lambda: T0)
    store.record_attempt(main_card.id, "drill", {"answer": GOOD}, scored(main_card, GOOD), 30)
    edited = replace(main_card, title=Text("Where does LayerNorm go?", "LayerNorm 放哪里？"), model_answer=Text("x", ""))
    stats = history_stats(store, {main_card.id: edited}, T0)
    assert stats.card(main_card.id).attempts == 1
    stats = history_stats(store, {}, T0)  # the card was deleted from the deck: its history is still reported
    assert stats.card(main_card.id).attempts == 1 and not stats.card(main_card.id).in_deck


def test_two_stores_interleave_writes(main_card) -> None:
    a, b = open_store(), open_store()
    result = scored(main_card, POOR)
    for i in range(5):
        a.record_attempt(main_card.id, "drill", {"answer": f"a{i}"}, result, 1)
        b.record_attempt(main_card.id, "mock", {"answer": f"b{i}"}, result, 1)
        b.save_draft(main_card.id, {"answer": f"draft {i}"})
    assert len(a.attempts()) == 10 and a.load_draft(main_card.id) == {"answer": "draft 4"}
    a.close()
    b.close()


def test_closed_store_raises_store_error(main_card) -> None:
    store = open_store()
    store.close()
    with pytest.raises(StoreError):
        store.attempts()
    store.close()  # idempotent


def test_add_answer_appends_a_follow_up_to_a_stored_attempt(tmp_path) -> None:
    from lndrill.cards.deck import load_deck
    from lndrill.scoring.engine import score_answer
    from lndrill.store import open_store

    card = load_deck().get("pre-vs-post-ln")
    with open_store(tmp_path) as store:
        result = score_answer(card, "Post-LN needs warm-up.")
        attempt = store.record_attempt(card.id, "mock", {"formulas": "", "backprop": "Post-LN needs warm-up."},
                                       result, 30.0)
        store.add_answer(attempt, "follow-up", "Theorem 1: flat in L for Post-LN.")
        store.add_answer(attempt, "follow-up", "Theorem 1: Post-LN flat in L; Pre-LN falls like 1/sqrt(L).")
        stored = store.attempts(card.id)[-1]
    assert list(stored.answers)[-1] == "follow-up"
    assert stored.answers["follow-up"].startswith("Theorem 1: Post-LN flat")
