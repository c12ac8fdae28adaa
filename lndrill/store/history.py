"""The history store: submitted answers, drafts, and the spaced-repetition state, in one SQLite file.

Every write is its own short transaction, committed before the call returns, so a process killed at
any moment keeps every answer that was submitted (and the last autosaved draft).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lndrill.scoring.result import ScoreResult
from lndrill.store import schedule
from lndrill.store.db import StoreError, connect, format_time, migrate, open_database, parse_time
from lndrill.store.paths import data_dir, db_path
from lndrill.store.records import Attempt, CardStatus, PointRecord

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time, timezone-aware UTC (the default clock)."""
    return datetime.now(UTC)


class Store:
    """Answer history, drafts and review schedule. Get one with `open_store()`; safe to share across threads."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, notice: str | None = None,
                 clock: Clock = utc_now) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self._clock = clock
        #: The database file (None for an in-memory store).
        self.path = path
        #: A one-line message for the user from opening (e.g. a corrupt file was moved aside), or None.
        self.notice = notice

    # -- plumbing ---------------------------------------------------------------------------------

    def _now(self, now: datetime | None) -> datetime:
        return now if now is not None else self._clock()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"lndrill: cannot write history: {_one_line(exc)}") from None
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"lndrill: cannot write history: {_one_line(exc)}") from None
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
                raise StoreError(f"lndrill: cannot read history: {_one_line(exc)}") from None

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

    def record_result(self, attempt_id: int, result: ScoreResult, overrides: Mapping[str, bool] | None = None
                      ) -> None:
        """Add the scorer's result to an attempt stored by `record_answer` (its own transaction).

        `result` is the scorer's verdict; `overrides` maps point ids the user overruled to the verdict
        they chose (points already marked `overruled` in `result` count too). The stored score includes
        the overrides. The card's draft is cleared in the same transaction.
        """
        with self._write() as conn:
            row = conn.execute("SELECT card_id FROM attempts WHERE id = ?", (attempt_id,)).fetchone()
            if row is None:
                raise ValueError(f"no attempt {attempt_id}")
            self._store_result(conn, attempt_id, row[0], result, overrides)

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
    ) -> int:
        """Store an answer and its result at once, in one transaction; the attempt id.

        The same as `record_answer` then `record_result`, for an answer already scored.
        """
        with self._write() as conn:
            attempt_id = self._insert_answer(conn, card_id, mode, answers, duration_s, started_at, self._now(now))
            self._store_result(conn, attempt_id, card_id, result, overrides)
        return attempt_id

    @staticmethod
    def _insert_answer(conn: sqlite3.Connection, card_id: str, mode: str, answers: Mapping[str, str],
                       duration_s: float, started_at: datetime | None, submitted: datetime) -> int:
        cur = conn.execute(
            "INSERT INTO attempts (card_id, mode, started_at, submitted_at, duration_s, score, scorer_score, "
            "result_json, scored) VALUES (?, ?, ?, ?, ?, 0, 0, '{}', 0)",
            (card_id, mode, format_time(started_at) if started_at else None, format_time(submitted),
             float(max(0.0, duration_s))),
        )
        attempt_id = int(cur.lastrowid or 0)
        conn.executemany(
            "INSERT INTO attempt_answers (attempt_id, key, position, text) VALUES (?, ?, ?, ?)",
            [(attempt_id, key, i, text) for i, (key, text) in enumerate(answers.items())],
        )
        return attempt_id

    @staticmethod
    def _store_result(conn: sqlite3.Connection, attempt_id: int, card_id: str, result: ScoreResult,
                      overrides: Mapping[str, bool] | None) -> None:
        final = result
        for pid, hit in (overrides or {}).items():
            final = final.overrule(pid, hit)
        scorer_hit = {
            (s.id, p.id): (not p.hit if p.overruled else p.hit) for s in result.sections for p in s.points
        }
        conn.execute(
            "UPDATE attempts SET score = ?, scorer_score = ?, result_json = ?, scored = 1 WHERE id = ?",
            (final.score, result.score, json.dumps(result.to_dict("en"), ensure_ascii=False), attempt_id),
        )
        conn.executemany(
            "INSERT OR REPLACE INTO attempt_points (attempt_id, section_id, point_id, position, weight, hit, "
            "scorer_hit, overruled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (attempt_id, s.id, p.id, i, p.weight, int(p.hit), int(scorer_hit[(s.id, p.id)]), int(p.overruled))
                for s in final.sections for i, p in enumerate(s.points)
            ],
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

    def update_overrides(self, attempt_id: int, overrides: Mapping[str, bool], score: int) -> None:
        """Replace an attempt's overrides with `overrides` (point id -> verdict) and set its score.

        Points not in `overrides` go back to the scorer's verdict. If the card's latest review came from
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
            conn.execute("UPDATE attempts SET score = ? WHERE id = ?", (int(score), attempt_id))
            last = conn.execute(
                "SELECT id, attempt_id, reviewed_at, before_json, duration_ms FROM reviews WHERE card_id = ? "
                "ORDER BY id DESC LIMIT 1", (card_id,),
            ).fetchone()
            if last is not None and last[1] == attempt_id:
                review_id, _, reviewed_at, before, duration_ms = last
                self._apply_review(conn, card_id, before, int(score), (duration_ms or 0) / 1000,
                                   parse_time(reviewed_at), attempt_id, replace_review=review_id)

    def attempts(self, card_id: str | None = None) -> list[Attempt]:
        """Stored attempts, oldest first (all cards, or one card id)."""
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
        out = []
        for aid, cid, mode, started, submitted, duration, score, scorer_score, result_json in rows:
            try:
                result = json.loads(result_json)
            except ValueError:
                result = {}
            out.append(Attempt(
                id=aid, card_id=cid, mode=mode, started_at=parse_time(started) if started else None,
                submitted_at=parse_time(submitted), duration_s=float(duration), score=int(score),
                scorer_score=int(scorer_score), answers=answers.get(aid, {}),
                points=tuple(points.get(aid, ())), result=result,
            ))
        return out

    # -- drafts -----------------------------------------------------------------------------------

    def save_draft(self, card_id: str, answers: Mapping[str, str], now: datetime | None = None) -> None:
        """Autosave what is typed so far for a card (an all-blank draft deletes the saved one)."""
        with self._write() as conn:
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
        with self._write() as conn:
            conn.execute("DELETE FROM drafts WHERE card_id = ?", (card_id,))

    # -- schedule ---------------------------------------------------------------------------------

    def _apply_review(self, conn: sqlite3.Connection, card_id: str, before: str | None, score: int,
                      duration_s: float, now: datetime, attempt_id: int | None,
                      replace_review: int | None = None) -> datetime:
        after, rating, duration_ms = schedule.apply_review(card_id, before, score, duration_s, now)
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
            row = conn.execute("SELECT fsrs_json FROM schedule WHERE card_id = ?", (card_id,)).fetchone()
            return self._apply_review(conn, card_id, row[0] if row else None, int(score), duration_s, when,
                                      attempt_id)

    def card_status(self, card_ids: Iterable[str] | None = None, now: datetime | None = None
                    ) -> dict[str, CardStatus]:
        """Per card id: attempts, best and last score, last answered, next due, retrievability now.

        With `card_ids` None, every card id that has history.
        """
        when = self._now(now)
        agg = {cid: (n, best) for cid, n, best in
               self._read("SELECT card_id, count(*), max(score) FROM attempts WHERE scored = 1 GROUP BY card_id")}
        last = {cid: (score, at) for cid, score, at in self._read(
            "SELECT card_id, score, submitted_at FROM (SELECT card_id, score, submitted_at, row_number() OVER "
            "(PARTITION BY card_id ORDER BY submitted_at DESC, id DESC) AS k FROM attempts WHERE scored = 1) "
            "WHERE k = 1")}
        states = {cid: text for cid, text in self._read("SELECT card_id, fsrs_json FROM schedule")}
        ids = list(dict.fromkeys(card_ids)) if card_ids is not None else sorted(set(agg) | set(states))
        out: dict[str, CardStatus] = {}
        for cid in ids:
            n, best = agg.get(cid, (0, None))
            last_score, last_at = last.get(cid, (None, None))
            due = r = None
            if cid in states:
                try:
                    state = schedule.load_state(states[cid])
                except (ValueError, KeyError, TypeError):
                    state = None
                if state is not None:
                    due, r = state.due, schedule.retrievability(state, when)
            out[cid] = CardStatus(cid, int(n), best, last_score, parse_time(last_at) if last_at else None, due, r)
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


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def open_store(directory: Path | None = None, clock: Clock = utc_now, fallback_to_memory: bool = False) -> Store:
    """Open the history in `directory` (default `data_dir()`: `$LNDRILL_HOME` or the user data dir).

    A corrupt or unreadable database is moved aside and a fresh one created; `Store.notice` then holds
    the one-line message to show. Raises StoreError (one line) when history cannot be used, unless
    `fallback_to_memory`, which returns a store that forgets everything on exit (its notice says so).
    """
    path = db_path(directory or data_dir())
    try:
        conn, notice = open_database(path, clock())
    except StoreError as exc:
        if not fallback_to_memory:
            raise
        return memory_store(clock, notice=f"{exc} (history is not saved this session)")
    return Store(conn, path, notice, clock)


def memory_store(clock: Clock = utc_now, notice: str | None = None) -> Store:
    """A store in memory only (tests, or when the history file cannot be used)."""
    conn = connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)
    return Store(conn, None, notice, clock)
