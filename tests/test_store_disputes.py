"""Disputed mistakes (issue 10): stored with the attempt like point overrules, refunded in the stored score,
kept in a pending file when the history cannot be written, and counted by `stats`."""

from __future__ import annotations

from helpers import FORMULAS, T0, scored

from lndrill.practice import Practice
from lndrill.store import open_store
from lndrill.store.results import result_rows

WITH_MISTAKE = FORMULAS + "\nPost-LN needs warm-up.\nPre-LN needs warm-up too."


def test_result_rows_refund_a_disputed_mistake(main_card) -> None:
    result = scored(main_card, WITH_MISTAKE)
    assert result.mistakes
    mid = result.mistakes[0].id
    rows = result_rows(result, disputed={mid})
    assert rows.score > rows.scorer_score == result.score
    assert [(m[0], m[3]) for m in rows.mistakes] == [(m.id, m.id == mid) for m in result.mistakes]
    assert result_rows(result).mistakes[0][3] is False


def test_disputes_are_stored_replaced_and_counted(main_card, deck) -> None:
    result = scored(main_card, WITH_MISTAKE)
    mid = result.mistakes[0].id
    with open_store() as store:
        aid = store.record_attempt(main_card.id, "drill", {"answer": WITH_MISTAKE}, result, 10.0, now=T0,
                                   disputed={mid})
        (attempt,) = store.attempts()
        assert attempt.disputed == {mid} and attempt.score == result_rows(result, disputed={mid}).score
        assert {m.mistake_id for m in attempt.mistakes} == {m.id for m in result.mistakes}
        store.update_overrides(aid, {}, result.score, disputed=set())
        (attempt,) = store.attempts()
        assert attempt.disputed == set() and attempt.score == result.score
        store.update_overrides(aid, {}, 99, disputed={mid})
        summary = store.summary(10, 10)
        assert summary.overrules == (("mistake", main_card.id, mid, 1, 1),)


def test_a_dispute_of_a_kept_answer_is_kept_with_it_and_added_later(main_card, deck) -> None:
    from lndrill.store import StoreError, pending

    def unusable():  # noqa: ANN202
        raise StoreError("lndrill: cannot save to the history database: the disk is full")

    practice = Practice(deck, unusable, now=lambda: T0)
    sub = practice.submit(main_card, {"answer": WITH_MISTAKE})
    assert sub.kept is not None and sub.scored.mistakes
    mid = sub.scored.mistakes[0].id
    disputed = practice.dispute_mistake(sub, mid)
    assert disputed.result.score > sub.result.score and disputed.overrules.mistakes == {mid}
    record = pending.read(sub.kept)
    assert record.result is not None and record.result.score == disputed.result.score
    assert [m[3] for m in record.result.mistakes if m[0] == mid] == [True]
    with open_store() as store:  # the disk has room again: the answer is added with the dispute
        (attempt,) = store.attempts()
        assert attempt.disputed == {mid} and attempt.score == disputed.result.score
    again = practice.dispute_mistake(disputed, mid)  # charged again
    assert again.result.score == sub.result.score and not again.overrules.mistakes
