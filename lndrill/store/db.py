"""The history database: connection settings, schema, migrations, and what to do with a broken file.

SQLite in WAL mode with `synchronous=NORMAL`: every committed transaction survives the process being
killed at any moment (not a power cut). The schema version lives in `PRAGMA user_version`; each
migration runs in its own `BEGIN IMMEDIATE` transaction, so two processes opening an old database
at once upgrade it exactly once. A file that is not a readable lndrill database is moved aside with
a timestamp and a fresh one is created; the caller gets a one-line notice to show the user.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

#: The schema this build writes. Version 1: attempts, answers, per-point results, drafts.
#: Version 2: the spaced-repetition state per card and a log of reviews.
#: Version 3: an answer is stored before it is scored (`attempts.scored` is 0 until its result is in).
SCHEMA_VERSION = 3
#: `PRAGMA application_id` of an lndrill history database ("LNDR").
APPLICATION_ID = 0x4C4E4452
#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_S = 2.0


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


Migration = tuple[tuple[str, ...], Callable[[sqlite3.Connection], None] | None]


def _backfill_schedule(conn: sqlite3.Connection) -> None:
    """v1 -> v2: replay every recorded attempt through the scheduler, oldest first."""
    from lndrill.store.schedule import apply_review, dump_state

    rows = conn.execute(
        "SELECT id, card_id, submitted_at, duration_s, score FROM attempts ORDER BY submitted_at, id"
    ).fetchall()
    states: dict[str, str] = {}
    for attempt_id, card_id, submitted_at, duration_s, score in rows:
        when = parse_time(submitted_at)
        before = states.get(card_id)
        after, rating, duration_ms = apply_review(card_id, before, score, duration_s, when)
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
}


def format_time(dt: datetime) -> str:
    """A datetime as fixed-width ISO 8601 in UTC (sorts as text); naive datetimes are taken as UTC."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    """The timezone-aware UTC datetime stored by `format_time`."""
    dt = datetime.fromisoformat(text)
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Upgrade the schema step by step up to `target`, each step in its own transaction."""
    while schema_version(conn) < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = schema_version(conn)  # another process may have migrated while we waited
            if current >= target:
                conn.execute("COMMIT")
                return
            if current == 0:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            statements, backfill = MIGRATIONS[current + 1]
            for sql in statements:
                conn.execute(sql)
            if backfill is not None:
                backfill(conn)
            conn.execute(f"PRAGMA user_version = {current + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def connect(path: Path | str) -> sqlite3.Connection:
    """A raw connection with lndrill's settings (autocommit; callers open transactions explicitly)."""
    conn = sqlite3.connect(
        str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return conn


def _open_checked(path: Path, target: int) -> sqlite3.Connection:
    conn = connect(path)
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])  # garbage fails here
        version = schema_version(conn)
        if app_id not in (0, APPLICATION_ID):
            raise _NotHistory(f"application id {app_id:#x}")
        if version > target:
            raise _NewerSchema(version)
        if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise _NotHistory("tables from another program")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"lndrill: cannot use WAL mode for the history database {path} (got {mode})")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        check = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        if check != ["ok"]:
            raise sqlite3.DatabaseError(f"integrity check failed: {check[0]}")
        migrate(conn, target)
        return conn
    except BaseException:
        conn.close()
        raise


def _is_busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _move_aside(path: Path, now: datetime) -> Path:
    """Rename `path` (and its -wal/-shm files) to `<stem>-corrupt-<timestamp><suffix>`; the new path."""
    stamp = now.astimezone().strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        target = path.with_name(f"{path.stem}-corrupt-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not target.exists():
            break
        n += 1
    path.rename(target)
    for extra in ("-wal", "-shm"):
        side = path.with_name(path.name + extra)
        if side.exists():
            side.rename(target.with_name(target.name + extra))
    return target


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def open_database(path: Path, now: datetime, target: int = SCHEMA_VERSION) -> tuple[sqlite3.Connection, str | None]:
    """Open (creating or upgrading) the history database at `path`.

    Returns the connection and a one-line notice for the user, or None. A file that cannot be read as an
    lndrill history database is moved aside (`history-corrupt-YYYYmmdd-HHMMSS.db`) and a fresh database
    is created. Raises StoreError (one-line message) when history cannot be used at all: the file comes
    from a newer lndrill, the directory is not writable, or another process holds the database locked.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"lndrill: cannot create the data directory {path.parent}: {exc.strerror or exc}") from None
    try:
        return _open_checked(path, target), None
    except _NewerSchema as exc:
        raise StoreError(
            f"lndrill: the history database {path} was written by a newer lndrill (schema v{exc.version}; "
            f"this version reads up to v{target}); upgrade lndrill to use it"
        ) from None
    except sqlite3.OperationalError as exc:
        if _is_busy(exc) or not path.is_file():
            raise StoreError(f"lndrill: cannot open the history database {path}: {_one_line(exc)}") from None
        reason = _one_line(exc)
    except sqlite3.DatabaseError as exc:
        reason = _one_line(exc)
    try:
        moved = _move_aside(path, now)
    except OSError as exc:
        raise StoreError(
            f"lndrill: the history database {path} is unreadable ({reason}) and could not be moved aside: "
            f"{exc.strerror or exc}"
        ) from None
    try:
        conn = _open_checked(path, target)
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"lndrill: cannot create a fresh history database {path}: {_one_line(exc)}") from None
    notice = f"lndrill: the history database was unreadable ({reason}); moved it to {moved} and started a fresh one"
    return conn, notice
