"""Opening the history as a `Store`: for writing (adding answers kept while it could not be written), for
reading only (`lndrill stats`), or, when it cannot be written, a stand-in in memory whose answers the
caller keeps in the pending directory.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from lndrill.store import pending
from lndrill.store.db import StoreError
from lndrill.store.history import Clock, Store, utc_now
from lndrill.store.opening import copy_to_memory, empty_database, open_database, open_reader
from lndrill.store.paths import data_dir, db_path


def open_store(directory: Path | None = None, clock: Clock = utc_now, fallback_to_memory: bool = False,
               read_only: bool = False) -> Store:
    """Open the history in `directory` (default `data_dir()`: `$LNDRILL_HOME` or the user data dir).

    A damaged database is moved aside and a fresh one created; `Store.notice` then holds the one-line
    message to show. Answers kept while the history could not be written are added to it (see
    `Store.notices`). Raises StoreError (one line) when history cannot be used, and leaves the file as
    it is, unless `fallback_to_memory`: then a store in memory (a copy of the history when it can be
    read) stands in, whose answers the caller keeps in the pending directory (`Store.kept_in`).

    `read_only` (reading commands): the file is opened with `mode=ro` (a missing file reads as empty),
    unless answers are waiting to be added and the directory is writable.
    """
    home = directory or data_dir()
    path = db_path(home)
    if read_only:
        return _open_for_reading(home, path, clock)
    try:
        conn, notice = open_database(path, clock())
    except StoreError as exc:
        if not fallback_to_memory:
            raise
        return _stand_in(home, path, clock, exc)
    store = Store(conn, path, notice, clock)
    store.notices += store.add_kept(home)
    return store


def _open_for_reading(home: Path, path: Path, clock: Clock) -> Store:
    waiting = pending.waiting(home)
    if waiting and os.access(home, os.W_OK | os.X_OK):
        try:
            conn, notice = open_database(path, clock())
        except StoreError:
            pass
        else:
            store = Store(conn, path, notice, clock)
            store.notices += store.add_kept(home)
            store.read_only = True
            return store
    conn, notice = open_reader(path, clock())
    store = Store(conn, path, notice, clock, read_only=True)
    if waiting:
        places = ", ".join(sorted({str(p.parent) for p in waiting}))
        store.notices.append(f"lndrill: {len(waiting)} answer(s) kept in {places} are not in the history yet "
                             "(they are added when it can be written)")
    return store


def _stand_in(home: Path, path: Path, clock: Clock, exc: StoreError) -> Store:
    """A store in memory for a session whose history cannot be written: a copy of the history when it
    can be read, else empty; its answers are to be kept in the pending directory."""
    try:
        conn, _ = open_reader(path, clock())
        conn = copy_to_memory(conn)
    except (StoreError, sqlite3.Error):
        conn = empty_database()
    if pending.can_keep(home):
        tail = (f"answers this session are kept in {pending.pending_dir(home)} and added to your history when "
                "it can be written")
        return Store(conn, None, f"{exc} ({tail})", clock, kept_in=home)
    return Store(conn, None, f"{exc} (history is not saved this session)", clock)


def memory_store(clock: Clock = utc_now, notice: str | None = None) -> Store:
    """A store in memory only (tests, or when the history file cannot be used)."""
    return Store(empty_database(), None, notice, clock)
