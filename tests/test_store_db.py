"""The database file: WAL, schema version and migrations, corrupt and foreign files, newer schemas."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import GOOD, POOR, T0, scored

from lndrill.store import SCHEMA_VERSION, StoreError, open_store
from lndrill.store.db import APPLICATION_ID, format_time
from lndrill.store.opening import open_database
from lndrill.store.paths import db_path


def _pragma(path: Path, name: str):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def test_fresh_database_is_wal_with_current_schema() -> None:
    store = open_store()
    assert store.notice is None and store.path == db_path()
    assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    store.close()
    assert _pragma(db_path(), "user_version") == SCHEMA_VERSION
    assert _pragma(db_path(), "application_id") == APPLICATION_ID


def test_corrupt_database_is_moved_aside_and_replaced(main_card) -> None:
    path = db_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database\x00\xff" * 200)
    store = open_store()
    assert store.notice is not None and "\n" not in store.notice
    assert "moved it to" in store.notice and "fresh" in store.notice
    moved = list(path.parent.glob("history-corrupt-*.db"))
    assert len(moved) == 1 and moved[0].read_bytes().startswith(b"this is not a database")
    assert str(moved[0]) in store.notice
    store.record_attempt(main_card.id, "drill", {"answer": GOOD}, scored(main_card, GOOD), 3)
    store.close()
    with open_store() as again:
        assert again.notice is None and len(again.attempts()) == 1


def test_truncated_database_is_moved_aside(main_card) -> None:
    with open_store() as store:
        for i in range(50):
            store.record_attempt(main_card.id, "drill", {"answer": POOR * 40 + str(i)}, scored(main_card, POOR), 1)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db_path().read_bytes()
    db_path().write_bytes(data[: len(data) // 3])
    with open_store() as store:
        assert store.notice is not None and store.attempts() == []
    assert len(list(db_path().parent.glob("history-corrupt-*.db"))) == 1


def test_another_programs_sqlite_file_is_moved_aside_not_touched() -> None:
    path = db_path()
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    with open_store() as store:
        assert store.notice is not None
    (moved,) = path.parent.glob("history-corrupt-*.db")
    assert _pragma(moved, "user_version") == 0 and sqlite3.connect(moved).execute("SELECT * FROM notes").fetchall() == []


def test_newer_schema_is_a_clear_one_line_error_and_the_file_is_kept() -> None:
    path = db_path()
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.execute("CREATE TABLE future (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as info:
        open_store()
    msg = str(info.value)
    assert "\n" not in msg and "newer lndrill" in msg and f"v{SCHEMA_VERSION + 5}" in msg
    assert _pragma(path, "user_version") == SCHEMA_VERSION + 5
    assert not list(path.parent.glob("*corrupt*"))
    fallback = open_store(fallback_to_memory=True)
    assert fallback.path is None and "newer lndrill" in fallback.notice and "kept in" in fallback.notice
    assert fallback.kept_in == path.parent  # its answers are kept in the pending directory


def test_unwritable_data_dir_is_a_store_error(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("LNDRILL_HOME", str(blocker / "sub"))
    with pytest.raises(StoreError) as info:
        open_store()
    assert "\n" not in str(info.value)


def _v1_attempt(conn: sqlite3.Connection, card_id: str, text: str, result) -> None:
    """One answer written the way a schema-v1 lndrill wrote it (its columns only)."""
    import json

    cur = conn.execute(
        "INSERT INTO attempts (card_id, mode, started_at, submitted_at, duration_s, score, scorer_score, "
        "result_json) VALUES (?, 'drill', NULL, ?, 20, ?, ?, ?)",
        (card_id, format_time(T0), result.score, result.score, json.dumps(result.to_dict("en"))),
    )
    conn.execute("INSERT INTO attempt_answers (attempt_id, key, position, text) VALUES (?, 'answer', 0, ?)",
                 (cur.lastrowid, text))
    conn.executemany(
        "INSERT INTO attempt_points (attempt_id, section_id, point_id, position, weight, hit, scorer_hit, "
        "overruled) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
        [(cur.lastrowid, s.id, p.id, i, p.weight, int(p.hit), int(p.hit)) for s in result.sections
         for i, p in enumerate(s.points)],
    )


def test_v1_database_is_upgraded_in_place(main_card) -> None:
    path = db_path()
    conn, notice = open_database(path, T0, target=1)
    assert notice is None
    _v1_attempt(conn, main_card.id, POOR, scored(main_card, POOR))
    _v1_attempt(conn, main_card.id, GOOD, scored(main_card, GOOD))
    conn.execute("INSERT INTO drafts (card_id, answers_json, saved_at) VALUES ('rmsnorm', ?, ?)",
                 ('{"definition": "half-typed"}', format_time(T0)))
    conn.close()
    assert _pragma(path, "user_version") == 1

    with open_store(clock=lambda: T0) as store:
        assert store.notice is None
        assert [a.score for a in store.attempts()] == [scored(main_card, POOR).score, scored(main_card, GOOD).score]
        assert store.load_draft("rmsnorm") == {"definition": "half-typed"}
        status = store.card_status([main_card.id])[main_card.id]
        assert status.due is not None and status.due > T0  # the schedule was rebuilt from the attempts
        assert len(store._conn.execute("SELECT * FROM reviews").fetchall()) == 2
    assert _pragma(path, "user_version") == SCHEMA_VERSION
