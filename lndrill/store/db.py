"""The history database: connection settings, schema, migrations, and reading stored times.

SQLite in WAL mode with `synchronous=NORMAL`: every committed transaction survives the process being
killed at any moment (not a power cut). The schema version lives in `PRAGMA user_version`; each
migration runs in its own `BEGIN IMMEDIATE` transaction, so two processes opening an old database
at once upgrade it exactly once. Opening the file (and what to do when it is damaged or unavailable)
is `lndrill.store.opening`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

#: The schema this build writes. Version 1: attempts, answers, per-point results, drafts.
#: Version 2: the spaced-repetition state per card and a log of reviews.
#: Version 3: an answer is stored before it is scored (`attempts.scored` is 0 until its result is in).
#: Version 4: indexes for `stats` (each scored answer's card, time and score; the overruled points), so
#: statistics read neither the answers nor the scorer's reports.
#: Version 5: the mistakes charged to each answer, and whether the user disputed them (a disputed mistake
#: costs nothing; `stats` counts disputes per mistake as it counts overrules per point).
SCHEMA_VERSION = 5
#: The oldest schema whose tables this version reads as they are (later versions only add indexes, and
#: the table of mistakes, which `stats` reads only when it is there): reading commands open such a file
#: in place, an older one is upgraded in a copy in memory.
READABLE_FROM = 3
#: `PRAGMA application_id` of an lndrill history database ("LNDR").
APPLICATION_ID = 0x4C4E4452
#: How long saving an answer waits for another process's transaction before giving up.
BUSY_TIMEOUT_S = 15.0
#: How long an autosaved draft waits (the next autosave tries again, so it gives up sooner).
DRAFT_BUSY_TIMEOUT_S = 2.0


class StoreError(Exception):
    """History is unavailable (newer schema, unwritable directory, busy or failing database).

    `str(exc)` is one line, ready to show the user.
    """


class _NotHistory(sqlite3.DatabaseError):
    """A readable SQLite file that is not an lndrill history database."""


class _NewerSchema(Exception):
    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


#: A migration: its statements, and a backfill run after them that returns how many rows it had to skip.
Migration = tuple[tuple[str, ...], Callable[[sqlite3.Connection], int] | None]


def _backfill_schedule(conn: sqlite3.Connection) -> int:
    """v1 -> v2: replay every recorded attempt through the scheduler, oldest first.

    An attempt whose time, score or duration cannot be read is kept but not replayed; their number.
    """
    from lndrill.store.schedule import apply_review, dump_state

    rows = conn.execute(
        "SELECT id, card_id, submitted_at, duration_s, score FROM attempts ORDER BY submitted_at, id"
    ).fetchall()
    states: dict[str, str] = {}
    skipped = 0
    for attempt_id, card_id, submitted_at, duration_s, score in rows:
        before = states.get(card_id)
        try:
            when = parse_time(submitted_at)
            after, rating, duration_ms = apply_review(str(card_id), before, int(score), float(duration_s or 0), when)
        except Exception:  # noqa: BLE001 - one bad old row must not stop the upgrade
            skipped += 1
            continue
        conn.execute(
            "INSERT INTO reviews (card_id, attempt_id, reviewed_at, score, rating, duration_ms, before_json, "
            "after_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (card_id, attempt_id, submitted_at, score, rating, duration_ms, before, dump_state(after)),
        )
        states[card_id] = dump_state(after)
        conn.execute(
            "INSERT INTO schedule (card_id, fsrs_json, due, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (card_id) DO UPDATE SET fsrs_json = excluded.fsrs_json, due = excluded.due, "
            "updated_at = excluded.updated_at",
            (card_id, dump_state(after), format_time(after.due), submitted_at),
        )
    return skipped


MIGRATIONS: dict[int, Migration] = {
    1: (
        (
            """CREATE TABLE attempts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                card_id TEXT NOT NULL,
                mode TEXT NOT NULL,
                started_at TEXT,
                submitted_at TEXT NOT NULL,
                duration_s REAL NOT NULL DEFAULT 0,
                score INTEGER NOT NULL,
                scorer_score INTEGER NOT NULL,
                result_json TEXT NOT NULL
            )""",
            "CREATE INDEX attempts_by_card ON attempts (card_id, submitted_at)",
            """CREATE TABLE attempt_answers (
                attempt_id INTEGER NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                position INTEGER NOT NULL,
                text TEXT NOT NULL,
                PRIMARY KEY (attempt_id, key)
            )""",
            """CREATE TABLE attempt_points (
                attempt_id INTEGER NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
                section_id TEXT NOT NULL,
                point_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                weight REAL NOT NULL,
                hit INTEGER NOT NULL,
                scorer_hit INTEGER NOT NULL,
                overruled INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (attempt_id, section_id, point_id)
            )""",
            """CREATE TABLE drafts (
                card_id TEXT PRIMARY KEY,
                answers_json TEXT NOT NULL,
                saved_at TEXT NOT NULL
            )""",
        ),
        None,
    ),
    2: (
        (
            """CREATE TABLE schedule (
                card_id TEXT PRIMARY KEY,
                fsrs_json TEXT NOT NULL,
                due TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE reviews (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                card_id TEXT NOT NULL,
                attempt_id INTEGER REFERENCES attempts (id) ON DELETE SET NULL,
                reviewed_at TEXT NOT NULL,
                score INTEGER NOT NULL,
                rating INTEGER NOT NULL,
                duration_ms INTEGER,
                before_json TEXT,
                after_json TEXT NOT NULL
            )""",
            "CREATE INDEX reviews_by_card ON reviews (card_id, id)",
        ),
        _backfill_schedule,
    ),
    3: (
        ("ALTER TABLE attempts ADD COLUMN scored INTEGER NOT NULL DEFAULT 1",),
        None,
    ),
    4: (
        (
            "CREATE INDEX attempts_for_stats ON attempts (scored, card_id, submitted_at, id, score)",
            "CREATE INDEX points_overruled ON attempt_points (attempt_id, point_id) WHERE overruled = 1",
        ),
        None,
    ),
    5: (
        (
            """CREATE TABLE attempt_mistakes (
                attempt_id INTEGER NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
                mistake_id TEXT NOT NULL,
                point_id TEXT NOT NULL,
                penalty REAL NOT NULL,
                disputed INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (attempt_id, mistake_id)
            )""",
            "CREATE INDEX mistakes_disputed ON attempt_mistakes (attempt_id, mistake_id) WHERE disputed = 1",
        ),
        None,
    ),
}


def format_time(dt: datetime) -> str:
    """A datetime as fixed-width ISO 8601 in UTC (sorts as text); naive datetimes are taken as UTC."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    """The timezone-aware UTC datetime stored by `format_time` (ValueError or TypeError if it is not one)."""
    dt = datetime.fromisoformat(text)
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def read_time(text: object) -> datetime | None:
    """A stored time, or None when the row holds something that is not one (never raises)."""
    if not isinstance(text, str):
        return None
    try:
        return parse_time(text)
    except (ValueError, OverflowError):
        return None


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Upgrade the schema step by step up to `target`, each step in its own transaction.

    Returns how many old rows a backfill had to leave as they were (unreadable time or score).
    """
    skipped = 0
    while schema_version(conn) < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = schema_version(conn)  # another process may have migrated while we waited
            if current >= target:
                conn.execute("COMMIT")
                return skipped
            if current == 0:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            statements, backfill = MIGRATIONS[current + 1]
            for sql in statements:
                conn.execute(sql)
            if backfill is not None:
                skipped += backfill(conn)
            conn.execute(f"PRAGMA user_version = {current + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return skipped


def connect(path: Path | str, read_only: bool = False) -> sqlite3.Connection:
    """A raw connection with lndrill's settings (autocommit; callers open transactions explicitly).

    `read_only` opens the file with `mode=ro`: nothing is created, locked for writing or migrated.
    """
    target, uri = str(path), False
    if read_only and target != ":memory:":
        target, uri = Path(path).absolute().as_uri() + "?mode=ro", True
    conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False, uri=uri)
    set_busy_timeout(conn, BUSY_TIMEOUT_S)
    return conn


def set_busy_timeout(conn: sqlite3.Connection, seconds: float) -> None:
    """How long the next statements on `conn` wait for another process's lock."""
    conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
