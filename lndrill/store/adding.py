"""Adding the answers kept while the history could not be written (`lndrill.store.pending`) to it.

Each kept answer is added in its own transaction (its words, its result and its review together), then
its file is removed. An answer already in the history (added before its file could be removed) is not
added twice; an unscored copy of it that the history holds (its words were stored, its result not) is
replaced. A file that is not a kept answer is renamed `*.unreadable`, never deleted.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from lndrill.store import pending
from lndrill.store.db import StoreError, read_time
from lndrill.store.faults import one_line, reason

if TYPE_CHECKING:
    from lndrill.store.history import Store


def add_kept(store: Store, home: Path, timeout: float) -> list[str]:
    """Add every answer kept for the data directory `home` to `store`; one-line notices of what was added,
    what could not be, and what still waits. Waits at most `timeout` for another process's lock."""
    files = pending.waiting(home)
    added, notes, added_from = 0, [], set()
    for i, path in enumerate(files):
        try:
            kept = pending.read(path)
        except ValueError as exc:
            notes.append(_set_aside(path, exc))
            continue
        except OSError as exc:
            notes.append(f"lndrill: cannot read the kept answer {path}: {reason(exc)}")
            continue
        try:
            _add_one(store, kept, timeout)
        except StoreError as exc:
            places = ", ".join(sorted({str(f.parent) for f in files[i:]}))
            notes.append(f"{exc}; {len(files) - i} kept answer(s) still wait in {places}")
            break
        except Exception as exc:  # noqa: BLE001 - rolled back; the file stays for the next time
            notes.append(f"lndrill: could not add the kept answer {path} to your history: {one_line(exc)}")
            continue
        added += 1
        added_from.add(str(path.parent))
        try:
            path.unlink()
        except OSError:
            pass  # next time `_has_copy` recognises it as added
    if added:
        notes.insert(0, f"lndrill: added {added} answer(s) to your history that were kept while it could not be "
                        f"written (in {', '.join(sorted(added_from))})")
    return notes


def _set_aside(path: Path, exc: ValueError) -> str:
    bad = path.with_suffix(".unreadable")
    try:
        path.rename(bad)
    except OSError:
        return f"lndrill: {path} is not a kept answer ({one_line(exc)})"
    return f"lndrill: {path} is not a kept answer ({one_line(exc)}); renamed it to {bad.name}"


def _add_one(store: Store, kept: pending.KeptAnswer, timeout: float) -> None:
    with store._write(timeout) as conn:
        if kept.replaces is not None:
            row = conn.execute("SELECT card_id, scored FROM attempts WHERE id = ?", (kept.replaces,)).fetchone()
            if row is not None and row[0] == kept.card_id and row[1] == 0:
                conn.execute("DELETE FROM attempt_answers WHERE attempt_id = ?", (kept.replaces,))
                conn.execute("DELETE FROM attempts WHERE id = ?", (kept.replaces,))
        if _has_copy(conn, kept):
            return
        aid = store._insert_answer(conn, kept.card_id, kept.mode, kept.answers, kept.duration_s,
                                   kept.started_at, kept.submitted_at)
        if kept.result is None:
            return
        draft = conn.execute("SELECT answers_json, saved_at FROM drafts WHERE card_id = ?",
                             (kept.card_id,)).fetchone()
        store._store_rows(conn, aid, kept.card_id, kept.result)
        if draft is not None:  # a draft typed since then is not this answer: keep it
            conn.execute("INSERT INTO drafts (card_id, answers_json, saved_at) VALUES (?, ?, ?)",
                         (kept.card_id, *draft))
        if kept.review:
            # Never before the card's latest review (a later answer may have been added meanwhile).
            row = conn.execute("SELECT updated_at FROM schedule WHERE card_id = ?", (kept.card_id,)).fetchone()
            times = [t for t in (read_time(kept.submitted_at), read_time(row[0]) if row else None) if t]
            store._review_in(conn, kept.card_id, kept.result.score, kept.duration_s,
                             max(times) if times else store._now(None), aid)


def _has_copy(conn: sqlite3.Connection, kept: pending.KeptAnswer) -> bool:
    """Whether the history already holds this kept answer (added before its file could be removed)."""
    for (aid,) in conn.execute(
        "SELECT id FROM attempts WHERE card_id = ? AND submitted_at = ? AND mode = ? AND scored >= ?",
        (kept.card_id, kept.submitted_at, kept.mode, 0 if kept.result is None else 1),
    ).fetchall():
        texts = dict(conn.execute("SELECT key, text FROM attempt_answers WHERE attempt_id = ? ORDER BY position",
                                  (aid,)).fetchall())
        if texts == kept.answers:
            return True
    return False
