"""Opening the history file: for writing (creating or upgrading it) or for reading only.

A damaged file (SQLite's CORRUPT or NOTADB, a failed `quick_check`, another program's database) is
moved aside with a timestamp and a fresh one is created; the caller gets a one-line notice. Anything
else that goes wrong (a full disk, an I/O error, a read-only file or directory, a lock held too long,
a newer schema) raises StoreError with one line and leaves the file exactly where it is.

Reading commands open the file with `mode=ro`: nothing is created, locked for writing or upgraded, so
they also work on a read-only file or directory. A schema older than `READABLE_FROM` is upgraded in a
copy in memory; a newer one up to this version is read as it is (later versions only add indexes).
Readers skip `quick_check` (it reads the whole file): a damaged page still fails as CORRUPT when read.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from datetime import datetime
from pathlib import Path

from lndrill.store import db, perms
from lndrill.store.db import (
    APPLICATION_ID,
    READABLE_FROM,
    SCHEMA_VERSION,
    StoreError,
    connect,
    migrate,
    schema_version,
)
from lndrill.store.faults import (
    SQLITE_CANTOPEN,
    SQLITE_READONLY,
    Damaged,
    NewerSchema,
    is_busy,
    is_damage,
    primary_code,
    reason,
)

Opened = tuple[sqlite3.Connection, str | None]


def _inspect(conn: sqlite3.Connection, target: int) -> int:
    """The schema version of an lndrill history; Damaged for another program's file, NewerSchema."""
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])  # garbage fails here (NOTADB)
    version = schema_version(conn)
    if app_id not in (0, APPLICATION_ID):
        raise Damaged(f"application id {app_id:#x}")
    if version > target:
        raise NewerSchema(version)
    if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise Damaged("tables from another program")
    return version


def _quick_check(conn: sqlite3.Connection) -> None:
    check = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
    if check != ["ok"]:
        raise Damaged(f"integrity check failed: {check[0]}")


def _migrated_note(skipped: int) -> str | None:
    if not skipped:
        return None
    return (f"lndrill: upgraded the history; {skipped} old answer(s) with an unreadable time or score are kept "
            "but were not scheduled for review")


def _open_checked(path: Path, target: int) -> Opened:
    conn = connect(path)
    try:
        _inspect(conn, target)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"lndrill: cannot use WAL mode for the history database {path} (got {mode})")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        _quick_check(conn)
        return conn, _migrated_note(migrate(conn, target))
    except BaseException:
        conn.close()
        raise


def move_aside(path: Path, now: datetime) -> Path:
    """Rename `path` (and its -wal/-shm files) to `<stem>-corrupt-<timestamp><suffix>`; the new path."""
    stamp = now.astimezone().strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        target = path.with_name(f"{path.stem}-corrupt-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not target.exists():
            break
        n += 1
    path.rename(target)
    for side in perms.side_files(path):
        if side.exists():
            side.rename(target.with_name(target.name + side.name[len(path.name):]))
    return target


def unavailable(path: Path, exc: BaseException, doing: str = "use") -> StoreError:
    """The one-line StoreError for a history that cannot be used now (the file is left as it is)."""
    why = reason(exc)
    if is_busy(exc):
        why = f"another process has held it locked for more than {db.BUSY_TIMEOUT_S:g} s"
    return StoreError(f"lndrill: cannot {doing} the history database {path}: {why}")


def newer(path: Path, version: int, target: int) -> StoreError:
    return StoreError(
        f"lndrill: the history database {path} was written by a newer lndrill (schema v{version}; "
        f"this version reads up to v{target}); upgrade lndrill to use it"
    )


def open_database(path: Path, now: datetime, target: int = SCHEMA_VERSION) -> Opened:
    """Open (creating or upgrading) the history database at `path` for reading and writing.

    Returns the connection and a one-line notice for the user, or None. A damaged file is moved aside
    (`history-corrupt-YYYYmmdd-HHMMSS.db`) and a fresh database is created. Raises StoreError (one line)
    when history cannot be written now: a newer lndrill's file, a read-only or full disk, an I/O error,
    a lock held by another process; the file is then left untouched.
    """
    try:
        perms.private_dir(path.parent)
    except OSError as exc:
        raise StoreError(f"lndrill: cannot create the data directory {path.parent}: {reason(exc)}") from None
    problem = perms.write_problem(path)
    if problem:
        raise StoreError(f"lndrill: cannot save to the history database: {problem}")
    try:
        perms.create_private(path)
        perms.tighten(path)
        for side in perms.side_files(path):
            perms.tighten(side)
        return _open_checked(path, target)
    except NewerSchema as exc:
        raise newer(path, exc.version, target) from None
    except (sqlite3.Error, OSError) as exc:
        if not is_damage(exc):
            raise unavailable(path, exc) from None
        damage = reason(exc)
    try:
        moved = move_aside(path, now)
    except OSError as exc:
        raise StoreError(
            f"lndrill: the history database {path} is damaged ({damage}) and could not be moved aside: {reason(exc)}"
        ) from None
    try:
        perms.create_private(path)
        conn, _ = _open_checked(path, target)
    except (sqlite3.Error, OSError, NewerSchema) as exc:
        raise StoreError(
            f"lndrill: the history database was damaged ({damage}); moved it to {moved}, but could not start a "
            f"fresh one: {reason(exc)}"
        ) from None
    return conn, f"lndrill: the history database was damaged ({damage}); moved it to {moved} and started a fresh one"


def empty_database(target: int = SCHEMA_VERSION) -> sqlite3.Connection:
    """A new history in memory (no file is created)."""
    conn = connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn, target)
    return conn


def _to_memory(source: sqlite3.Connection, version: int, target: int) -> Opened:
    """A copy of `source` in memory, upgraded to `target` there (the file is not touched)."""
    mem = connect(":memory:")
    try:
        source.backup(mem)
        mem.execute("PRAGMA foreign_keys = ON")
        note = _migrated_note(migrate(mem, target)) if version < target else None
    except BaseException:
        mem.close()
        raise
    return mem, note


def copy_to_memory(conn: sqlite3.Connection) -> sqlite3.Connection:
    """A copy in memory of the (already upgraded) database on `conn`, which is closed."""
    if any(row[1] == "main" and not row[2] for row in conn.execute("PRAGMA database_list").fetchall()):
        return conn  # already in memory
    try:
        mem, _ = _to_memory(conn, SCHEMA_VERSION, SCHEMA_VERSION)
    finally:
        conn.close()
    return mem


def _read_checked(conn: sqlite3.Connection, target: int) -> Opened:
    """A read-only connection checked for reading (no `quick_check`: it reads the whole file, and a damaged
    page still fails as CORRUPT when it is read); a schema too old to read in place is upgraded in memory."""
    try:
        version = _inspect(conn, target)
        if version < min(READABLE_FROM, target):
            mem = _to_memory(conn, version, target)
            conn.close()
            return mem
        return conn, None
    except BaseException:
        conn.close()
        raise


def _copy_and_read(path: Path, target: int) -> Opened:
    """Read a WAL database that cannot be opened in place (its directory is read-only and its -shm is
    missing): copy it and its -wal to a private temporary directory, and load the copy into memory."""
    with tempfile.TemporaryDirectory(prefix="lndrill-read-") as tmp:
        copy = Path(tmp) / path.name
        shutil.copyfile(path, copy)
        wal = perms.side_files(path)[0]
        if wal.exists():
            shutil.copyfile(wal, perms.side_files(copy)[0])
        conn = connect(copy)
        try:
            version = _inspect(conn, target)
            return _to_memory(conn, version, target)
        finally:
            conn.close()


def open_reader(path: Path, now: datetime, target: int = SCHEMA_VERSION) -> Opened:
    """Open the history at `path` for reading only: the connection (to the file, or to a copy of it in
    memory) and a one-line notice or None.

    A missing file reads as an empty history; nothing is created. A damaged file is handed to
    `open_database` (moved aside, if the directory allows it). Raises StoreError (one line) when the
    history cannot be read.
    """
    if not path.exists():
        return empty_database(target), None
    try:
        try:
            return _read_checked(connect(path, read_only=True), target)
        except sqlite3.Error as exc:
            if primary_code(exc) not in (SQLITE_READONLY, SQLITE_CANTOPEN) or not os.access(path, os.R_OK):
                raise
            return _copy_and_read(path, target)
    except NewerSchema as exc:
        raise newer(path, exc.version, target) from None
    except (sqlite3.Error, OSError) as exc:
        if not is_damage(exc):
            raise unavailable(path, exc, "read") from None
        try:
            return open_database(path, now, target)
        except StoreError:
            raise StoreError(f"lndrill: cannot read the history database {path}: {reason(exc)}") from None
