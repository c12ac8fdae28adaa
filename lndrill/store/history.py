"""The history store: submitted answers, drafts, and the spaced-repetition state, in one SQLite file.

Every write is its own short transaction, committed before the call returns, so a process killed at
any moment keeps every answer that was submitted (and the last autosaved draft); a scored answer and
its review are one transaction. Rows that cannot be read (a time or a schedule edited by hand) are
skipped or started again, with a one-line warning, never an exception.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lndrill.scoring.result import ScoreResult
from lndrill.store import adding, db, schedule
from lndrill.store.db import StoreError, format_time, read_time, set_busy_timeout
from lndrill.store.faults import is_busy, is_damage, reason
from lndrill.store.records import Attempt, CardStatus, MistakeRecord, PointRecord, UnscoredAttempt
from lndrill.store.results import ResultRows, result_rows
from lndrill.store.summary import HistorySummary, summarize

Clock = Callable[[], datetime]
Listener = Callable[[str], None]


def _ignore(_message: str) -> None:
    pass


def utc_now() -> datetime:
    """The current time, timezone-aware UTC (the default clock)."""
    return datetime.now(UTC)


class Store:
    """Answer history, drafts and review schedule. Get one with `open_store()`; safe to share across threads."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, notice: str | None = None,
                 clock: Clock = utc_now, *, read_only: bool = False, kept_in: Path | None = None) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self._clock = clock
        #: The database file (None for an in-memory store).
        self.path = path
        #: A one-line message for the user from opening (e.g. a corrupt file was moved aside), or None.
        self.notice = notice
        #: Every one-line message from opening: `notice`, then kept answers added (or that could not be).
        self.notices: list[str] = [notice] if notice else []
        #: Opened for reading only (`lndrill stats`): every write raises StoreError.
        self.read_only = read_only
        #: Set when this store stands in (in memory) for the history of this data directory, which cannot
        #: be written now: answers must also be kept in its pending directory to last.
        self.kept_in = kept_in
        #: Called with a one-line warning when a row cannot be read and is skipped or started again.
        self.on_warning: Listener = _ignore

    # -- plumbing ---------------------------------------------------------------------------------

    def _now(self, now: datetime | None) -> datetime:
        return now if now is not None else self._clock()

    def _read_error(self, exc: sqlite3.Error) -> StoreError:
        where = f" {self.path}" if self.path is not None else ""
        if is_damage(exc):
            return StoreError(f"lndrill: the history database{where} is damaged ({reason(exc)}); the next answer you "
                              "submit moves it aside and starts a fresh one")
        return StoreError(f"lndrill: cannot read the history database{where}: {reason(exc)}")

    def _write_error(self, exc: sqlite3.Error, timeout: float) -> StoreError:
        where = f" {self.path}" if self.path is not None else ""
        why = (f"another process has held it locked for more than {timeout:g} s" if is_busy(exc)
               else reason(exc))
        return StoreError(f"lndrill: cannot save to the history database{where}: {why}")

    @contextmanager
    def _write(self, timeout: float | None = None) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT); StoreError (one line) if it cannot be made.

        `timeout` is how long to wait for another process's lock (default `db.BUSY_TIMEOUT_S`).
        """
        if timeout is None:
            timeout = db.BUSY_TIMEOUT_S
        if self.read_only:
            raise StoreError("lndrill: the history is open for reading only")
        with self._lock:
            try:
                set_busy_timeout(self._conn, timeout)
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._write_error(exc, timeout) from None
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise self._write_error(exc, timeout) from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        try:
            self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise self._read_error(exc) from None

    def close(self) -> None:
        """Close the database (idempotent)."""
        with self._lock:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- answers ----------------------------------------------------------------------------------

    def record_answer(
        self,
        card_id: str,
        mode: str,
        answers: Mapping[str, str],
        duration_s: float,
        started_at: datetime | None = None,
        now: datetime | None = None,
    ) -> int:
        """Store a submitted answer before it is scored, in its own transaction; its attempt id.

        `answers` maps section id (or "answer" for a single text) to the text typed. Until
        `record_result` adds its score the attempt is unscored: kept, but not in `attempts()` or any
        statistics, so the words survive a scorer that fails or a process that is killed while scoring.
        """
        with self._write() as conn:
            return self._insert_answer(conn, card_id, mode, answers, duration_s, started_at, self._now(now))

    def record_result(self, attempt_id: int, result: ScoreResult, overrides: Mapping[str, bool] | None = None,
                      *, review: bool = False, duration_s: float = 0.0, now: datetime | None = None,
                      disputed: Collection[str] = ()) -> None:
        """Add the scorer's result to an attempt stored by `record_answer`, and with `review` the card's
        review (scored `duration_s` seconds, at `now`), all in one transaction.

        `result` is the scorer's verdict; `overrides` maps point ids the user overruled to the verdict
        they chose (points already marked `overruled` in `result` count too); `disputed` holds the ids of
        mistakes the user disputed (stored, not charged). The stored score includes the overrides and
        disputes. The card's draft is cleared in the same transaction.
        """
        rows = result_rows(result, overrides, disputed)
        when = self._now(now)
        with self._write() as conn:
            row = conn.execute("SELECT card_id FROM attempts WHERE id = ?", (attempt_id,)).fetchone()
            if row is None:
                raise ValueError(f"no attempt {attempt_id}")
            self._store_rows(conn, attempt_id, row[0], rows)
            if review:
                self._review_in(conn, row[0], rows.score, duration_s, when, attempt_id)

    def record_attempt(
        self,
        card_id: str,
        mode: str,
        answers: Mapping[str, str],
        result: ScoreResult,
        duration_s: float,
        started_at: datetime | None = None,
        overrides: Mapping[str, bool] | None = None,
        now: datetime | None = None,
        review: bool = False,
        disputed: Collection[str] = (),
    ) -> int:
        """Store an answer and its result (and with `review` the card's review) in one transaction; the
        attempt id. The same as `record_answer` then `record_result`, for an answer already scored.
        """
        rows = result_rows(result, overrides, disputed)
        when = self._now(now)
        with self._write() as conn:
            attempt_id = self._insert_answer(conn, card_id, mode, answers, duration_s, started_at, when)
            self._store_rows(conn, attempt_id, card_id, rows)
            if review:
                self._review_in(conn, card_id, rows.score, duration_s, when, attempt_id)
        return attempt_id

    @staticmethod
    def _insert_answer(conn: sqlite3.Connection, card_id: str, mode: str, answers: Mapping[str, str],
                       duration_s: float, started_at: datetime | str | None, submitted: datetime | str) -> int:
        def text(dt: datetime | str | None) -> str | None:
            return format_time(dt) if isinstance(dt, datetime) else dt

        cur = conn.execute(
            "INSERT INTO attempts (card_id, mode, started_at, submitted_at, duration_s, score, scorer_score, "
            "result_json, scored) VALUES (?, ?, ?, ?, ?, 0, 0, '{}', 0)",
            (card_id, mode, text(started_at), text(submitted), float(max(0.0, duration_s))),
        )
        attempt_id = int(cur.lastrowid or 0)
        conn.executemany(
            "INSERT INTO attempt_answers (attempt_id, key, position, text) VALUES (?, ?, ?, ?)",
            [(attempt_id, key, i, text) for i, (key, text) in enumerate(answers.items())],
        )
        return attempt_id

    @staticmethod
    def _store_rows(conn: sqlite3.Connection, attempt_id: int, card_id: str, rows: ResultRows) -> None:
        conn.execute(
            "UPDATE attempts SET score = ?, scorer_score = ?, result_json = ?, scored = 1 WHERE id = ?",
            (rows.score, rows.scorer_score, rows.result_json, attempt_id),
        )
        positions: dict[str, int] = {}
        values = []
        for sid, pid, weight, hit, scorer_hit, overruled in rows.points:
            position = positions.get(sid, 0)
            positions[sid] = position + 1
            values.append((attempt_id, sid, pid, position, weight, int(hit), int(scorer_hit), int(overruled)))
        conn.executemany(
            "INSERT OR REPLACE INTO attempt_points (attempt_id, section_id, point_id, position, weight, hit, "
            "scorer_hit, overruled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values,
        )
        conn.executemany(
            "INSERT OR REPLACE INTO attempt_mistakes (attempt_id, mistake_id, point_id, penalty, disputed) "
            "VALUES (?, ?, ?, ?, ?)",
            [(attempt_id, mid, pid, penalty, int(disputed)) for mid, pid, penalty, disputed in rows.mistakes],
        )
        conn.execute("DELETE FROM drafts WHERE card_id = ?", (card_id,))

    def unscored_answers(self) -> dict[int, dict[str, str]]:
        """Answers stored by `record_answer` whose result never came (attempt id -> answers)."""
        out: dict[int, dict[str, str]] = {}
        for aid, key, text in self._read(
            "SELECT a.attempt_id, a.key, a.text FROM attempt_answers a JOIN attempts t ON t.id = a.attempt_id "
            "WHERE t.scored = 0 ORDER BY a.attempt_id, a.position",
        ):
            out.setdefault(aid, {})[key] = text
        return out

    def unscored_attempts(self) -> list[UnscoredAttempt]:
        """The answers stored by `record_answer` whose result never came, oldest first (cheap when none)."""
        rows = self._read("SELECT id, card_id, mode, submitted_at, duration_s FROM attempts WHERE scored = 0 "
                          "ORDER BY id")
        answers = self.unscored_answers() if rows else {}
        return [UnscoredAttempt(int(aid), str(cid), str(mode), str(at), float(dur or 0.0), answers.get(aid, {}))
                for aid, cid, mode, at, dur in rows]

    def record_late_result(self, attempt_id: int, result: ScoreResult, *, review: bool = True) -> bool:
        """Score an answer left unscored (its process was killed while scoring), in one transaction.

        False (nothing written) when the attempt is gone or was scored meanwhile (e.g. by the process
        that was still scoring it). With `review`, the card's review is recorded at the answer's own
        time, unless the card was reviewed after it (a later answer already moved the schedule). A draft
        saved after the answer was submitted is kept; the answer's own draft is cleared.
        """
        rows = result_rows(result, None, ())
        with self._write() as conn:
            row = conn.execute("SELECT card_id, submitted_at, duration_s, scored FROM attempts WHERE id = ?",
                               (attempt_id,)).fetchone()
            if row is None or row[3] != 0:
                return False
            card_id, submitted_at, duration_s = row[0], row[1], float(row[2] or 0.0)
            draft = conn.execute("SELECT answers_json, saved_at FROM drafts WHERE card_id = ?", (card_id,)).fetchone()
            self._store_rows(conn, attempt_id, card_id, rows)
            when = read_time(submitted_at)
            if draft is not None and (when is None or (read_time(draft[1]) or when) > when):
                conn.execute("INSERT INTO drafts (card_id, answers_json, saved_at) VALUES (?, ?, ?)", (card_id, *draft))
            if review and when is not None:
                later = conn.execute("SELECT updated_at FROM schedule WHERE card_id = ?", (card_id,)).fetchone()
                last = read_time(later[0]) if later else None
                if last is None or last <= when:
                    self._review_in(conn, card_id, rows.score, duration_s, when, attempt_id)
        return True

    def add_answer(self, attempt_id: int, key: str, text: str) -> None:
        """Add (or replace) one answer text of a stored attempt, e.g. the follow-up typed after submit.

        Runs in its own transaction, like every other write.
        """
        with self._write() as conn:
            row = conn.execute("SELECT COALESCE(MAX(position), -1) FROM attempt_answers WHERE attempt_id = ?",
                               (attempt_id,)).fetchone()
            conn.execute(
                "INSERT INTO attempt_answers (attempt_id, key, position, text) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (attempt_id, key) DO UPDATE SET text = excluded.text",
                (attempt_id, key, int(row[0]) + 1, text),
            )

    def update_overrides(self, attempt_id: int, overrides: Mapping[str, bool], score: int,
                         disputed: Collection[str] | None = None) -> None:
        """Replace an attempt's overrides with `overrides` (point id -> verdict) and, unless `disputed` is
        None, its disputed mistakes with `disputed` (mistake ids), and set its score.

        Points not in `overrides` go back to the scorer's verdict, mistakes not in `disputed` are charged. If the card's latest review came from
        this attempt (see `review(attempt_id=...)`), that review is redone with the new score.
        """
        with self._write() as conn:
            row = conn.execute("SELECT card_id FROM attempts WHERE id = ?", (attempt_id,)).fetchone()
            if row is None:
                raise ValueError(f"no attempt {attempt_id}")
            card_id = row[0]
            points = conn.execute(
                "SELECT section_id, point_id, scorer_hit FROM attempt_points WHERE attempt_id = ?", (attempt_id,)
            ).fetchall()
            unknown = set(overrides) - {p[1] for p in points}
            if unknown:
                raise ValueError(f"attempt {attempt_id} has no point {sorted(unknown)[0]!r}")
            for section_id, point_id, scorer_hit in points:
                if point_id in overrides:
                    hit, overruled = int(bool(overrides[point_id])), 1
                else:
                    hit, overruled = int(scorer_hit), 0
                conn.execute(
                    "UPDATE attempt_points SET hit = ?, overruled = ? WHERE attempt_id = ? AND section_id = ? "
                    "AND point_id = ?", (hit, overruled, attempt_id, section_id, point_id),
                )
            if disputed is not None:
                known = {r[0] for r in conn.execute(
                    "SELECT mistake_id FROM attempt_mistakes WHERE attempt_id = ?", (attempt_id,))}
                unknown = set(disputed) - known
                if unknown:
                    raise ValueError(f"attempt {attempt_id} has no mistake {sorted(unknown)[0]!r}")
                conn.executemany(
                    "UPDATE attempt_mistakes SET disputed = ? WHERE attempt_id = ? AND mistake_id = ?",
                    [(int(m in disputed), attempt_id, m) for m in known],
                )
            conn.execute("UPDATE attempts SET score = ? WHERE id = ?", (int(score), attempt_id))
            last = conn.execute(
                "SELECT id, attempt_id, reviewed_at, before_json, duration_ms FROM reviews WHERE card_id = ? "
                "ORDER BY id DESC LIMIT 1", (card_id,),
            ).fetchone()
            if last is not None and last[1] == attempt_id:
                review_id, _, reviewed_at, before, duration_ms = last
                self._apply_review(conn, card_id, before, int(score), (duration_ms or 0) / 1000,
                                   read_time(reviewed_at) or self._now(None), attempt_id, replace_review=review_id)

    def attempts(self, card_id: str | None = None) -> list[Attempt]:
        """Stored attempts, oldest first (all cards, or one card id).

        Reads every answer's text: for statistics use `summary`. An attempt whose time or score cannot
        be read is left out (with a warning).
        """
        where, params = ("WHERE scored = 1 AND card_id = ?", (card_id,)) if card_id is not None else (
            "WHERE scored = 1", ())
        rows = self._read(
            "SELECT id, card_id, mode, started_at, submitted_at, duration_s, score, scorer_score, result_json "
            f"FROM attempts {where} ORDER BY submitted_at, id", params,
        )
        sub = f"SELECT id FROM attempts {where}"
        answers: dict[int, dict[str, str]] = {}
        for aid, key, text in self._read(
            f"SELECT attempt_id, key, text FROM attempt_answers WHERE attempt_id IN ({sub}) "
            "ORDER BY attempt_id, position", params,
        ):
            answers.setdefault(aid, {})[key] = text
        points: dict[int, list[PointRecord]] = {}
        for aid, sid, pid, weight, hit, scorer_hit, overruled in self._read(
            "SELECT p.attempt_id, p.section_id, p.point_id, p.weight, p.hit, p.scorer_hit, p.overruled "
            f"FROM attempt_points p WHERE p.attempt_id IN ({sub}) ORDER BY p.attempt_id, p.rowid", params,
        ):
            points.setdefault(aid, []).append(
                PointRecord(sid, pid, float(weight), bool(hit), bool(scorer_hit), bool(overruled))
            )
        mistakes: dict[int, list[MistakeRecord]] = {}
        for aid, mid, pid, penalty, disputed in self._read(
            "SELECT m.attempt_id, m.mistake_id, m.point_id, m.penalty, m.disputed "
            f"FROM attempt_mistakes m WHERE m.attempt_id IN ({sub}) ORDER BY m.attempt_id, m.rowid", params,
        ):
            mistakes.setdefault(aid, []).append(MistakeRecord(mid, pid, float(penalty), bool(disputed)))
        out = []
        unreadable = 0
        for aid, cid, mode, started, submitted, duration, score, scorer_score, result_json in rows:
            try:
                result = json.loads(result_json)
            except (TypeError, ValueError):
                result = {}
            when = read_time(submitted)
            try:
                numbers = (float(duration), int(score), int(scorer_score))
            except (TypeError, ValueError):
                when = None
            if when is None:
                unreadable += 1
                continue
            out.append(Attempt(
                id=aid, card_id=cid, mode=mode, started_at=read_time(started), submitted_at=when,
                duration_s=numbers[0], score=numbers[1], scorer_score=numbers[2], answers=answers.get(aid, {}),
                points=tuple(points.get(aid, ())), result=result if isinstance(result, dict) else {},
                mistakes=tuple(mistakes.get(aid, ())),
            ))
        if unreadable:
            self.on_warning(f"lndrill: warning: {unreadable} answer(s) in the history have an unreadable time or "
                            "score and are left out")
        return out

    def summary(self, window: int, trend: int) -> HistorySummary:
        """Totals per card, each card's last `window` answers (their points, not their text) and the last
        `trend` answers overall, aggregated in SQL (see `lndrill.store.summary`)."""
        with self._lock:
            try:
                return summarize(self._conn, window, trend)
            except sqlite3.Error as exc:
                raise self._read_error(exc) from None

    # -- answers kept while the history could not be written ----------------------------------------

    def add_kept(self, home: Path, timeout: float | None = None) -> list[str]:
        """Add every answer kept for the data directory `home` (see `lndrill.store.pending`), each in its
        own transaction, and remove its file; one-line notices of what was added or left waiting.

        Waits at most `timeout` (default `db.DRAFT_BUSY_TIMEOUT_S`) for another process's lock; what is
        left waits for the next open.
        """
        return adding.add_kept(self, home, db.DRAFT_BUSY_TIMEOUT_S if timeout is None else timeout)

    # -- drafts -----------------------------------------------------------------------------------

    def save_draft(self, card_id: str, answers: Mapping[str, str], now: datetime | None = None) -> None:
        """Autosave what is typed so far for a card (an all-blank draft deletes the saved one)."""
        with self._write(db.DRAFT_BUSY_TIMEOUT_S) as conn:
            if any(text.strip() for text in answers.values()):
                conn.execute(
                    "INSERT INTO drafts (card_id, answers_json, saved_at) VALUES (?, ?, ?) ON CONFLICT (card_id) "
                    "DO UPDATE SET answers_json = excluded.answers_json, saved_at = excluded.saved_at",
                    (card_id, json.dumps(dict(answers), ensure_ascii=False), format_time(self._now(now))),
                )
            else:
                conn.execute("DELETE FROM drafts WHERE card_id = ?", (card_id,))

    def load_draft(self, card_id: str) -> dict[str, str] | None:
        """The autosaved draft for a card (section id -> text), or None."""
        rows = self._read("SELECT answers_json FROM drafts WHERE card_id = ?", (card_id,))
        if not rows:
            return None
        try:
            data = json.loads(rows[0][0])
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        return {str(k): str(v) for k, v in data.items()}

    def clear_draft(self, card_id: str) -> None:
        """Forget the autosaved draft for a card."""
        with self._write(db.DRAFT_BUSY_TIMEOUT_S) as conn:
            conn.execute("DELETE FROM drafts WHERE card_id = ?", (card_id,))

    # -- schedule ---------------------------------------------------------------------------------

    def _review_in(self, conn: sqlite3.Connection, card_id: str, score: int, duration_s: float, now: datetime,
                   attempt_id: int | None) -> datetime:
        row = conn.execute("SELECT fsrs_json FROM schedule WHERE card_id = ?", (card_id,)).fetchone()
        return self._apply_review(conn, card_id, row[0] if row else None, int(score), duration_s, now, attempt_id)

    def _apply_review(self, conn: sqlite3.Connection, card_id: str, before: str | None, score: int,
                      duration_s: float, now: datetime, attempt_id: int | None,
                      replace_review: int | None = None) -> datetime:
        try:
            after, rating, duration_ms = schedule.apply_review(card_id, before, score, duration_s, now)
        except Exception:  # noqa: BLE001 - a schedule row that cannot be read starts again, never a crash
            if before is None:
                raise
            self.on_warning(f"lndrill: warning: the review schedule of card {card_id!r} could not be read; "
                            "it starts again from this answer")
            before = None
            after, rating, duration_ms = schedule.apply_review(card_id, None, score, duration_s, now)
        state = schedule.dump_state(after)
        if replace_review is None:
            conn.execute(
                "INSERT INTO reviews (card_id, attempt_id, reviewed_at, score, rating, duration_ms, before_json, "
                "after_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (card_id, attempt_id, format_time(now), score, rating, duration_ms, before, state),
            )
        else:
            conn.execute("UPDATE reviews SET score = ?, rating = ?, after_json = ? WHERE id = ?",
                         (score, rating, state, replace_review))
        conn.execute(
            "INSERT INTO schedule (card_id, fsrs_json, due, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (card_id) "
            "DO UPDATE SET fsrs_json = excluded.fsrs_json, due = excluded.due, updated_at = excluded.updated_at",
            (card_id, state, format_time(after.due), format_time(now)),
        )
        return after.due

    def review(self, card_id: str, score: int, duration_s: float, now: datetime | None = None,
               attempt_id: int | None = None) -> datetime:
        """Record a review of `card_id` scored `score` (0-100) after `duration_s` seconds; the next due time.

        Pass the `attempt_id` from `record_attempt` so that later overrides can redo this review.
        """
        when = self._now(now)
        with self._write() as conn:
            return self._review_in(conn, card_id, score, duration_s, when, attempt_id)

    def card_status(self, card_ids: Iterable[str] | None = None, now: datetime | None = None
                    ) -> dict[str, CardStatus]:
        """Per card id: attempts, best and last score, last answered, next due, retrievability now.

        With `card_ids` None, every card id that has history.
        """
        when = self._now(now)
        agg = {cid: (n, best) for cid, n, best in
               self._read("SELECT card_id, count(*), max(score) FROM attempts WHERE scored = 1 GROUP BY card_id")}
        states = {cid: text for cid, text in self._read("SELECT card_id, fsrs_json FROM schedule")}
        ids = list(dict.fromkeys(card_ids)) if card_ids is not None else sorted(set(agg) | set(states))
        last: dict[str, tuple[Any, Any]] = {}
        for cid in ids:
            if cid in agg:  # an index seek per card (`attempts_for_stats`)
                for score, at in self._read("SELECT score, submitted_at FROM attempts WHERE scored = 1 AND card_id = ? "
                                            "ORDER BY submitted_at DESC, id DESC LIMIT 1", (cid,)):
                    last[cid] = (score, at)
        out: dict[str, CardStatus] = {}
        for cid in ids:
            n, best = agg.get(cid, (0, None))
            last_score, last_at = last.get(cid, (None, None))
            due = r = None
            if cid in states:
                try:
                    state = schedule.load_state(states[cid])
                    due, r = state.due, schedule.retrievability(state, when)
                except Exception:  # noqa: BLE001 - an unreadable schedule row: shown as never scheduled
                    due = r = None
            out[cid] = CardStatus(cid, int(n), best, last_score, read_time(last_at), due, r)
        return out

    def order_for_drill(self, card_ids: Iterable[str], cram: bool = False, now: datetime | None = None
                        ) -> list[str]:
        """Drill order: due cards (most overdue / weakest first), never-seen cards, then the rest.

        With `cram`, the schedule is ignored and the given order is kept.
        """
        ids = list(dict.fromkeys(card_ids))
        when = self._now(now)
        if cram:
            return ids
        return schedule.order_for_drill(ids, self.card_status(ids, when), when)

    def pick_for_mock(self, card_ids: Iterable[str], k: int, tags: Mapping[str, Sequence[str]] | None = None,
                      tag: str | None = None, seed: int | None = None, now: datetime | None = None) -> list[str]:
        """K cards for a mock interview: due and weakest first, then others in a seeded random order.

        `tags` maps card id -> tags and is needed with `tag` (keep only cards with that tag).
        """
        ids = list(dict.fromkeys(card_ids))
        when = self._now(now)
        return schedule.pick_for_mock(ids, self.card_status(ids, when), k, when, tags=tags, tag=tag, seed=seed)
