"""`Practice`: the one service between the interfaces (the terminal app, the command line) and the history.

Built once per session from the deck, a store factory and two clocks. It submits answers (the words are
stored before they are scored, then the result and the review in one transaction), records overrules,
keeps drafts, picks and reports mock interviews, and computes statistics. History problems never stop
practice: they are handed to `on_problem` as one line and the step carries on without history; an
answer that cannot be written to the history is kept in the pending directory (`lndrill.store.pending`)
and added the next time it can be. The store's own one-line notices (e.g. a damaged file was moved
aside, kept answers were added) go to `on_notice`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from lndrill.cards.deck import Deck
from lndrill.cards.schema import Card
from lndrill.practice.answer import join_answer
from lndrill.practice.clock import Monotonic, Stopwatch, WallClock, utc_now
from lndrill.practice.drafts import DraftBuffer
from lndrill.practice.keeping import KeptAnswers
from lndrill.practice.mock import FOLLOW_UP_KEY, MockOptions, MockSession, new_seed
from lndrill.practice.report import render_mock_report, save_mock_report
from lndrill.practice.stats import Stats, history_stats
from lndrill.practice.submission import Submission
from lndrill.store import CardStatus, KeptAnswer, Store, StoreError, memory_store, open_store
from lndrill.store.db import format_time

StoreFactory = Callable[[], Store]
Listener = Callable[[str], None]
T = TypeVar("T")


class PracticeError(Exception):
    """A step that cannot go on (the scorer failed, no card to ask); `str(exc)` is one line for the user."""


def one_line(exc: BaseException) -> str:
    """An exception as one line of text."""
    return " ".join(str(exc).split()) or type(exc).__name__


def user_history(now: WallClock = utc_now) -> StoreFactory:
    """A store factory for the app: the user's history, or (with a notice) one in memory; never raises."""

    def open_history() -> Store:
        try:
            return open_store(clock=now, fallback_to_memory=True)
        except Exception as exc:  # noqa: BLE001 - history must never stop the app
            return memory_store(now, notice=f"lndrill: cannot open history: {one_line(exc)} "
                                            "(history is not saved this session)")

    return open_history


def _ignore(_message: str) -> None:
    pass


@dataclass(frozen=True)
class MockReport:
    """A finished mock interview's Markdown report, where it was saved, and a one-line error if a copy
    could not be written."""

    text: str
    paths: list[Path]
    error: str | None


class Practice:
    """Answering, overruling, drafts, review order, mock interviews and stats over one history."""

    def __init__(self, deck: Deck, open_history: StoreFactory, *, now: WallClock = utc_now,
                 clock: Monotonic = time.monotonic, cram: bool = False) -> None:
        self.deck = deck
        #: UTC datetimes for history timestamps and due dates.
        self.now = now
        #: Monotonic seconds for timing answers and the mock interview's countdown.
        self.clock = clock
        #: `lndrill drill --cram`: the deck order, and drill answers do not move due dates.
        self.cram = cram
        #: Called with the store's one-line notice when the history is opened (e.g. moved aside).
        self.on_notice: Listener = _ignore
        #: Called with a one-line message when the history cannot be read or written.
        self.on_problem: Listener = _ignore
        self._open_history = open_history
        self._store: Store | None = None
        self._store_error: StoreError | None = None
        self._lock = threading.Lock()
        self._drafts = DraftBuffer()
        self._last_problem: str | None = None
        #: Answers the history could not take this session, kept in the pending directory.
        self._kept = KeptAnswers(self._problem)
        #: When this session began: `score_unscored` leaves answers submitted since then to `submit`.
        self._began = format_time(now())
        #: Unscored answers already reported as not scorable (each is reported once a session).
        self._unscorable: set[int] = set()
        #: Attempt ids `submit` is scoring now (never scored a second time by `score_unscored`).
        self._scoring: set[int] = set()

    # ------------------------------------------------------------------ history
    @property
    def store(self) -> Store:
        """The history, opened on first use (thread-safe); raises StoreError when it cannot be opened."""
        notices: list[str] = []
        with self._lock:
            if self._store is None and self._store_error is None:
                try:
                    self._store = self._open_history()
                except StoreError as exc:
                    self._store_error = exc
                else:
                    notices = list(self._store.notices)
                    self._store.on_warning = self._warn
            if self._store is None:
                raise StoreError(str(self._store_error))
            store = self._store
        for notice in notices:
            self.on_notice(notice)
        return store

    def _warn(self, message: str) -> None:
        self.on_notice(message)

    def open_history(self) -> None:
        """Open the history now (the app does this in a worker so its first screen is not delayed)."""
        self._history()

    def close(self) -> None:
        """Save pending drafts and close the history (if it was opened)."""
        if self._store is None:
            return
        try:
            self.flush_drafts()
        finally:
            self._store.close()

    def _problem(self, exc: BaseException | str) -> None:
        """Tell a history problem once (the same problem again, e.g. at every autosave, is not repeated)."""
        message = exc if isinstance(exc, str) else one_line(exc)
        if message == self._last_problem:
            return
        self._last_problem = message
        self.on_problem(message)

    def _history(self) -> Store | None:
        try:
            return self.store
        except StoreError as exc:
            self._problem(exc)
            return None

    def _use(self, action: Callable[[Store], T], fallback: T) -> T:
        """`action(store)`, or `fallback` (the problem reported) when history cannot be used."""
        store = self._history()
        if store is None:
            return fallback
        try:
            return action(store)
        except (StoreError, ValueError) as exc:
            self._problem(exc)
            return fallback

    # ------------------------------------------------------------------ answering
    def stopwatch(self) -> Stopwatch:
        """A stopwatch on this session's monotonic clock, started now."""
        watch = Stopwatch(self.clock)
        watch.start()
        return watch

    def submit(self, card: Card, answers: Mapping[str, str], *, mode: str = "drill",
               duration_s: float | None = None, lang: str = "en", save: bool = True) -> Submission:
        """Score an answer and record it: the one way an answer is recorded, from the app and the CLI.

        `answers` maps section id to text (the app's answer areas, in section order) or "answer" to one
        text (`lndrill score`). The words are stored before scoring, in their own transaction, so a
        scorer failure or a kill while scoring keeps them; then the result and the card's review are
        stored together in one transaction. When the history cannot be written, the answer is kept in
        the pending directory instead (one problem line says where). Blank answers and `save=False` are
        scored but not recorded. `duration_s` None: untimed. Raises PracticeError when the scorer fails.
        """
        from lndrill.scoring.engine import score_answer

        texts = dict(answers)
        joined = join_answer(card, texts, lang)
        duration = max(0.0, duration_s or 0.0)
        now = self.now()
        record = save and any(t.strip() for t in texts.values())
        started = (datetime.fromtimestamp(now.timestamp() - duration, tz=now.tzinfo or UTC)
                   if duration_s is not None else None)
        kept = KeptAnswer(card.id, mode, texts, duration, format_time(now),
                          format_time(started) if started else None,
                          review=not (self.cram and mode == "drill"))  # --cram drills leave the schedule alone
        store, problem, attempt_id = None, None, None
        durable = False
        if record:
            self._drafts.forget(card.id)
            store, problem = self._open_for_submit()
            durable = store is not None and store.kept_in is None
            if store is not None:
                try:
                    attempt_id = store.record_answer(card.id, mode, texts, duration, started_at=started, now=now)
                    self._scoring.add(attempt_id)
                except Exception as exc:  # noqa: BLE001 - never lost: kept in the pending directory below
                    problem = exc if isinstance(exc, StoreError) else StoreError(
                        f"lndrill: cannot save to the history: {one_line(exc)}")
        try:
            scored = score_answer(card, joined.text)
        except Exception as exc:  # noqa: BLE001 - the scorer failing is one line for the user, never a crash
            self._scoring.discard(attempt_id or 0)
            if record and (attempt_id is None or not durable):  # else its words are in the history, unscored
                self._kept.keep(store, kept, None, problem)
            raise PracticeError(f"Could not score this answer: {one_line(exc)}") from exc
        saved = False
        if store is not None and attempt_id is not None:
            try:
                store.record_result(attempt_id, scored, review=kept.review, duration_s=duration, now=now)
                saved = durable
            except Exception as exc:  # noqa: BLE001 - rolled back as a whole: the answer is kept instead
                problem = exc if isinstance(exc, StoreError) else StoreError(
                    f"lndrill: cannot save to the history: {one_line(exc)}")
            finally:
                self._scoring.discard(attempt_id)
        kept_path = None
        if saved:
            self._last_problem = None
        elif record:
            # Not in the history: keep it (a durable store may hold its words unscored: replaced when added).
            kept_path = self._kept.keep(store, kept, scored, problem, attempt_id if durable else None)
            if problem is None and attempt_id is not None and kept_path is not None:
                self._kept.link(attempt_id, kept_path)  # in the stand-in store: its follow-up goes to the file
            if problem is not None:
                attempt_id = None
        return Submission(card, texts, joined, scored, attempt_id, duration, saved=saved, kept=kept_path)

    def has_unscored(self) -> bool:
        """Whether the history holds answers left unscored (one cheap query; False when it cannot be read)."""
        return self._use(lambda store: bool(store.unscored_attempts()), False)

    def score_unscored(self, lang: str = "en") -> int:
        """Score the answers a killed process left unscored (their words stored, their result not), with
        the current deck, and store each result (and its review, at the answer's own time); how many.

        Cheap when there are none. Answers submitted in this session are `submit`'s. An answer whose card
        is no longer in the deck (or that the scorer cannot score) stays unscored and is reported once,
        in one line, through `on_problem`; nothing here raises.
        """
        from lndrill.scoring.engine import score_answer

        store = self._history()
        if store is None:
            return 0
        try:
            waiting = [a for a in store.unscored_attempts()
                       if a.submitted_at < self._began and a.id not in self._scoring]
        except (StoreError, ValueError) as exc:
            self._problem(exc)
            return 0
        done = 0
        missing: list[str] = []
        failed: list[str] = []
        for attempt in waiting:
            card = self.deck.cards.get(attempt.card_id)
            texts = {k: v for k, v in attempt.answers.items() if k != FOLLOW_UP_KEY}
            if card is None or not any(t.strip() for t in texts.values()):
                if attempt.id not in self._unscorable:
                    self._unscorable.add(attempt.id)
                    missing.append(attempt.card_id)
                continue
            try:
                scored = score_answer(card, join_answer(card, texts, lang).text)
            except Exception:  # noqa: BLE001 - left unscored, reported below: never a crash
                if attempt.id not in self._unscorable:
                    self._unscorable.add(attempt.id)
                    failed.append(attempt.card_id)
                continue
            try:
                if store.record_late_result(attempt.id, scored, review=not self.cram):
                    done += 1
            except (StoreError, ValueError) as exc:
                self._problem(exc)
                break
        if done:
            self.on_notice(f"lndrill: scored {done} answer(s) left unscored when lndrill was stopped while scoring")
        if missing:
            ids = ", ".join(sorted(set(missing)))
            self._problem(f"lndrill: {len(missing)} unscored answer(s) in your history are for cards not in this "
                          f"deck ({ids}); they are kept, unscored")
        if failed:
            ids = ", ".join(sorted(set(failed)))
            self._problem(f"lndrill: {len(failed)} unscored answer(s) in your history could not be scored ({ids}); "
                          "they are kept, unscored")
        return done

    def _open_for_submit(self) -> tuple[Store | None, StoreError | None]:
        try:
            return self.store, None
        except StoreError as exc:
            return None, exc

    def overrule_point(self, submission: Submission, point_id: str) -> Submission:
        """Flip one point between hit and missed; the stored attempt gets the full set of overrules and
        the new score (and, if it was the card's latest review, that review is redone)."""
        point = next((p for s in submission.result.sections for p in s.points if p.id == point_id), None)
        if point is None:
            return submission
        return self._store_overrules(submission.with_point(point_id, not point.hit))

    def dispute_mistake(self, submission: Submission, mistake_id: str) -> Submission:
        """Dispute one of the scorer's mistakes (its penalty is refunded), or charge it again if it was
        disputed; stored with the attempt like point overrules (and counted in `stats`)."""
        if not any(m.id == mistake_id for m in submission.scored.mistakes):
            return submission
        disputed = mistake_id not in submission.overrules.mistakes
        return self._store_overrules(submission.with_mistake(mistake_id, disputed))

    def _store_overrules(self, updated: Submission) -> Submission:
        attempt_id = updated.attempt_id
        overrules = updated.overrules
        if attempt_id is not None:
            self._use(lambda store: store.update_overrides(attempt_id, overrules.points, updated.result.score,
                                                           disputed=overrules.mistakes), None)
        if updated.kept is not None:
            self._kept.overruled(updated.kept, overrules.points, overrules.mistakes)
        return updated

    def add_follow_up(self, attempt_id: int, text: str) -> None:
        """Keep the answer to the interviewer's follow-up with the question's stored attempt."""
        self._use(lambda store: store.add_answer(attempt_id, FOLLOW_UP_KEY, text), None)
        self._kept.follow_up(attempt_id, text)

    # ------------------------------------------------------------------ drafts
    def draft_changed(self, card_id: str, texts: Mapping[str, str]) -> None:
        """A card's answer areas changed; `flush_drafts` saves them."""
        self._drafts.changed(card_id, texts)

    def flush_drafts(self) -> None:
        """Save the drafts that changed since they were last saved (the app's autosave timer calls this)."""
        waiting = self._drafts.take()
        if not waiting:
            return
        store = self._history()
        if store is None:
            for card_id, typed in waiting.items():
                self._drafts.pending.setdefault(card_id, typed)
            return
        for card_id, texts in waiting.items():
            try:
                store.save_draft(card_id, texts, now=self.now())
            except StoreError as exc:
                self._problem(exc)
                for again, typed in waiting.items():  # try again at the next autosave (newer typing wins)
                    self._drafts.pending.setdefault(again, typed)
                return
            self._drafts.mark_saved(card_id, texts)
            waiting = {k: v for k, v in waiting.items() if k != card_id}

    def load_draft(self, card_id: str) -> dict[str, str] | None:
        """The card's autosaved draft, if any (restoring it saves nothing)."""
        draft = self._use(lambda store: store.load_draft(card_id), None)
        if draft:
            self._drafts.mark_saved(card_id, draft)
        return draft

    # ------------------------------------------------------------------ review order
    def card_statuses(self, card_ids: Iterable[str]) -> dict[str, CardStatus]:
        """Each card's history at a glance (empty when history cannot be read)."""
        ids = list(card_ids)
        return self._use(lambda store: store.card_status(ids, now=self.now()), {})

    def drill_order(self, card_ids: Iterable[str]) -> list[str]:
        """Due cards first, then never-seen cards, then the rest; the given order with --cram."""
        ids = list(card_ids)
        return self._use(lambda store: store.order_for_drill(ids, cram=self.cram, now=self.now()), ids)

    # ------------------------------------------------------------------ mock interviews
    def start_mock(self, options: MockOptions) -> MockSession | None:
        """A mock interview: K cards, due and weakest first, then others in a seeded order.

        None when history cannot be read (reported); PracticeError when no card matches the tag.
        """
        seed = options.seed if options.seed is not None else new_seed()
        cards = self.deck.cards
        tags = {cid: c.tags for cid, c in cards.items()}
        picked = self._use(lambda store: store.pick_for_mock(sorted(cards), options.questions, tags=tags,
                                                             tag=options.tag, seed=seed, now=self.now()), None)
        if picked is None:
            return None
        if not picked:
            where = f" with tag '{options.tag}'" if options.tag else ""
            raise PracticeError(f"No card{where} to ask: nothing to interview on.")
        session = MockSession(options, [cards[cid] for cid in picked], self.now(), seed)
        if len(picked) < options.questions:
            where = f" with tag '{options.tag}'" if options.tag else ""
            n = len(picked)
            session.notice = (f"Only {n} card{'s' if n != 1 else ''}{where}: this interview has {n} "
                              f"question{'s' if n != 1 else ''}, not {options.questions}.")
        return session

    def finish_mock(self, session: MockSession, lang: str) -> MockReport:
        """Render the report and save it in the data directory (next to the history) and to --report."""
        text = render_mock_report(session.questions, session.started_at, lang, seed=session.seed,
                                  tag=session.options.tag, planned=len(session.cards), notice=session.notice)
        store = self._history()
        home = store.path.parent if store is not None and store.path is not None else None
        paths, error = save_mock_report(text, home, session.options.report, self.now())
        session.report_paths = paths
        return MockReport(text, paths, error)

    # ------------------------------------------------------------------ stats
    def stats(self) -> Stats | None:
        """Statistics over the whole history for this deck (None when history cannot be read)."""
        stats = self._use(lambda store: history_stats(store, self.deck.cards, self.now()), None)
        if stats is not None and stats.left_out:
            self.on_notice(f"lndrill: warning: {stats.left_out} answer(s) in the history have an unreadable time "
                           "or score and are left out of these statistics")
        return stats
