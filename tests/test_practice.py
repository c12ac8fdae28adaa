"""The headless practice layer: submitting (words stored before scoring), overruling, drafts, review
order, mock interviews and stats, all without Textual and with fixed clocks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers import FORMULAS, GOOD, POOR, T0, FakeClock

from lndrill.practice import MockOptions, Practice, PracticeError
from lndrill.practice.answer import join_answer, spans_for_area
from lndrill.practice.drafts import DraftBuffer, draft_for_areas
from lndrill.store import Store, StoreError, memory_store


def _practice(deck, store: Store | None = None, **kw) -> tuple[Practice, Store, list[str]]:
    store = store or memory_store(clock=lambda: T0)
    practice = Practice(deck, lambda: store, now=lambda: T0, **kw)
    problems: list[str] = []
    practice.on_problem = problems.append
    return practice, store, problems


def test_join_answer_heads_each_section_or_keeps_one_text_as_typed(main_card) -> None:
    areas = {"formulas": "y = LN(x + F(x))", "backprop": "", "tradeoffs": "warm-up"}
    joined = join_answer(main_card, areas, "en")
    assert joined.text.startswith("## Formulas\ny = LN(x + F(x))\n\n## ")
    start = joined.text.index("warm-up")
    assert spans_for_area(joined, 2, [(start, start + 4)]) == [(0, 4)]
    assert join_answer(main_card, {"answer": GOOD}).text == GOOD  # `lndrill score`: exactly as typed
    assert not joined.truncated and join_answer(main_card, {"answer": "x" * 60_001}).truncated


def test_submit_stores_the_words_then_the_result_and_the_review(deck, main_card) -> None:
    practice, store, problems = _practice(deck)
    sub = practice.submit(main_card, {"answer": GOOD}, mode="cli")
    (attempt,) = store.attempts()
    assert attempt.id == sub.attempt_id and attempt.mode == "cli" and attempt.answers == {"answer": GOOD}
    assert attempt.score == sub.result.score == sub.scored.score and attempt.started_at is None
    assert store.card_status([main_card.id])[main_card.id].due is not None
    assert store.unscored_answers() == {} and problems == []


def test_a_failing_scorer_keeps_the_words(deck, main_card, monkeypatch) -> None:
    import lndrill.scoring.engine

    def broken(card, text):  # noqa: ANN001, ANN202
        raise RuntimeError("scorer\nexploded")

    monkeypatch.setattr(lndrill.scoring.engine, "score_answer", broken)
    practice, store, _ = _practice(deck)
    with pytest.raises(PracticeError, match="Could not score this answer: scorer exploded"):
        practice.submit(main_card, {"answer": GOOD}, duration_s=12.0)
    assert list(store.unscored_answers().values()) == [{"answer": GOOD}]
    assert store.attempts() == []  # not scored: in no statistics


def test_blank_or_unsaved_answers_are_scored_but_not_recorded(deck, main_card) -> None:
    practice, store, _ = _practice(deck)
    assert practice.submit(main_card, {"answer": "  \n"}).attempt_id is None
    assert practice.submit(main_card, {"answer": GOOD}, save=False).attempt_id is None
    assert store.attempts() == [] and store.unscored_answers() == {}


def test_timed_answers_record_when_they_started(deck, main_card) -> None:
    practice, store, _ = _practice(deck)
    practice.submit(main_card, {"answer": GOOD}, duration_s=42.5)
    (attempt,) = store.attempts()
    assert attempt.started_at == T0 - timedelta(seconds=42.5) and attempt.duration_s == 42.5


def test_cram_answers_are_stored_without_moving_the_schedule(deck, main_card) -> None:
    practice, store, _ = _practice(deck, cram=True)
    practice.submit(main_card, {"answer": GOOD}, mode="drill")
    assert len(store.attempts()) == 1 and store.card_status([main_card.id])[main_card.id].due is None
    practice.submit(main_card, {"answer": GOOD}, mode="mock")  # a mock interview is always reviewed
    assert store.card_status([main_card.id])[main_card.id].due is not None


def test_overrules_are_stored_as_the_full_set_and_can_be_taken_back(deck, main_card) -> None:
    practice, store, _ = _practice(deck)
    sub = practice.submit(main_card, {"answer": POOR})
    missed = next(p.id for s in sub.scored.sections for p in s.points if not p.hit)
    flipped = practice.overrule_point(sub, missed)
    assert flipped.overrules.points == {missed: True} and flipped.result.score > sub.result.score
    assert flipped.scored is sub.scored  # the scorer's verdict is kept as it was
    (attempt,) = store.attempts()
    assert attempt.overrides == {missed: True} and attempt.score == flipped.result.score
    back = practice.overrule_point(flipped, missed)
    assert back.overrules.points == {} and back.result == sub.result
    (attempt,) = store.attempts()
    assert attempt.overrides == {} and attempt.score == sub.result.score


def test_a_disputed_mistake_is_not_charged(deck, main_card) -> None:
    from dataclasses import replace

    from lndrill.practice import Overrules

    practice, _, _ = _practice(deck)
    sub = practice.submit(main_card, {"answer": FORMULAS + " Pre-LN needs warm-up too."}, save=False)
    assert sub.scored.mistakes
    disputed = replace(sub, overrules=Overrules(mistakes=frozenset(m.id for m in sub.scored.mistakes)))
    assert disputed.result.mistakes == () and disputed.result.score >= sub.result.score


def test_history_problems_are_one_line_and_never_stop_practice(deck, main_card) -> None:
    def unusable() -> Store:
        raise StoreError("lndrill: the history database is busy")

    practice = Practice(deck, unusable, now=lambda: T0)
    problems: list[str] = []
    practice.on_problem = problems.append
    sub = practice.submit(main_card, {"answer": GOOD})
    assert sub.attempt_id is None and sub.result.score > 0 and not sub.saved
    (problem,) = problems
    assert problem.startswith("lndrill: the history database is busy; your answer was kept in ")
    assert sub.kept is not None and str(sub.kept) in problem and sub.kept.is_file()
    assert practice.stats() is None and practice.card_statuses([main_card.id]) == {}
    practice.close()  # nothing to close


def test_the_store_notice_is_told_once(deck) -> None:
    store = memory_store(clock=lambda: T0, notice="lndrill: moved it aside")
    practice = Practice(deck, lambda: store, now=lambda: T0)
    notices: list[str] = []
    practice.on_notice = notices.append
    practice.open_history()
    practice.card_statuses(list(deck.cards))
    assert notices == ["lndrill: moved it aside"]


def test_drafts_are_saved_when_changed_and_forgotten_on_submit(deck, main_card) -> None:
    practice, store, _ = _practice(deck)
    texts = {"formulas": FORMULAS, "backprop": "", "tradeoffs": ""}
    practice.draft_changed(main_card.id, texts)
    assert store.load_draft(main_card.id) is None  # only when flushed
    practice.flush_drafts()
    assert store.load_draft(main_card.id) == texts
    assert practice.load_draft(main_card.id) == texts
    practice.draft_changed(main_card.id, texts)  # unchanged since saved: nothing pending
    assert practice._drafts.pending == {}
    practice.submit(main_card, texts)
    assert store.load_draft(main_card.id) is None


def test_draft_buffer_and_areas() -> None:
    buffer = DraftBuffer()
    buffer.changed("c", {"a": "x"})
    assert buffer.take() == {"c": {"a": "x"}} and buffer.take() == {}
    buffer.mark_saved("c", {"a": "x"})
    buffer.changed("c", {"a": "x"})
    assert buffer.pending == {}


def test_a_draft_under_a_removed_section_goes_to_the_last_area(main_card) -> None:
    texts = draft_for_areas(main_card, {"formulas": "f", "gone": "kept", "tradeoffs": "t"})
    assert texts == ["f", "", "t\n\nkept"]


def test_mock_interview_picks_answers_and_reports(deck, tmp_path) -> None:
    clock = FakeClock()
    practice, store, _ = _practice(deck, clock=clock)
    session = practice.start_mock(MockOptions(questions=2, minutes=1, seed=3, report=tmp_path / "r.md"))
    assert session is not None and len(session.cards) == 2 and session.seed == 3
    first = session.cards[0]
    sub = practice.submit(first, {first.sections[0].id: GOOD}, mode="mock", duration_s=30)
    session.answered(0, {first.sections[0].id: GOOD}, 30, sub)
    practice.add_follow_up(sub.attempt_id, "because")
    session.followed_up(0, session.follow_up(0, "en") or "", "because")
    session.end_early()
    assert [q.result is None for q in session.questions] == [False] and session.ended_early
    report = practice.finish_mock(session, "en")
    assert report.error is None and (tmp_path / "r.md").read_text("utf-8") == report.text
    assert store.attempts()[0].answers["follow-up"] == "because"
    assert "ended early: 1 of 2 questions asked" in report.text and "because" in report.text
    assert "Not answered." not in report.text and f"`{session.cards[1].id}`" not in report.text  # never asked
    assert f"Overall score: {sub.result.score}/100" in report.text


def test_a_mock_with_fewer_cards_than_asked_says_so(deck) -> None:
    practice, _store, _ = _practice(deck)
    session = practice.start_mock(MockOptions(questions=99, seed=1))
    assert session is not None and len(session.cards) == len(deck.cards) < 99
    assert session.notice == f"Only {len(deck.cards)} cards: this interview has {len(deck.cards)} questions, not 99."


def test_a_mock_with_no_matching_card_says_so(deck) -> None:
    practice, _, _ = _practice(deck)
    with pytest.raises(PracticeError, match="No card with tag 'nope'"):
        practice.start_mock(MockOptions(tag="nope"))


def test_stats_are_typed(deck, main_card) -> None:
    practice, _, _ = _practice(deck)
    practice.submit(main_card, {"answer": GOOD})
    stats = practice.stats()
    assert stats is not None and stats.total_attempts == 1 and stats.first_at == T0
    card = stats.card(main_card.id)
    assert card.attempts == 1 and card.last_at == T0 and card.due is not None and card.due > T0
    assert stats.to_dict()["cards"][main_card.id]["last_at"] == T0.isoformat(timespec="seconds")


def test_a_draft_that_could_not_be_saved_is_saved_at_the_next_autosave(deck, main_card, monkeypatch) -> None:
    practice, store, problems = _practice(deck)
    real = store.save_draft
    calls = []

    def busy_once(card_id, texts, now=None):  # noqa: ANN001, ANN202
        calls.append(card_id)
        if len(calls) == 1:
            raise StoreError("lndrill: cannot save to the history database: it is busy")
        return real(card_id, texts, now=now)

    monkeypatch.setattr(store, "save_draft", busy_once)
    practice.draft_changed(main_card.id, {"formulas": "half-typed"})
    practice.flush_drafts()
    assert problems == ["lndrill: cannot save to the history database: it is busy"]
    assert store.load_draft(main_card.id) is None
    practice.flush_drafts()  # nothing typed since: the same draft is tried again
    assert store.load_draft(main_card.id) == {"formulas": "half-typed"}


def test_an_overrule_of_a_kept_answer_is_kept_with_it(deck, main_card) -> None:
    from lndrill.store import open_store, pending

    def unusable() -> Store:
        raise StoreError("lndrill: cannot save to the history database: the disk is full")

    practice = Practice(deck, unusable, now=lambda: T0)
    sub = practice.submit(main_card, {"answer": POOR})
    missed = next(p.id for s in sub.scored.sections for p in s.points if not p.hit)
    flipped = practice.overrule_point(sub, missed)
    assert sub.kept is not None and pending.read(sub.kept).result.score == flipped.result.score
    with open_store() as store:  # the disk has room again: the answer is added with the overrule
        (attempt,) = store.attempts()
        assert attempt.overrides == {missed: True} and attempt.score == flipped.result.score
