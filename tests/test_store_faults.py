"""History under faults (issue 11, items 1-5 and 7): a full disk, a read-only directory or file, a lock
held too long, rows that cannot be read. Nothing the user did is lost, nothing healthy is moved aside,
each problem is one line, never a traceback.

Faults are injected, never timed: a file size limit (RLIMIT_FSIZE) in a real subprocess, permissions
(as another user when the tests run as root, since root ignores them), a lock held by another
connection while the wait is made short.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import GOOD, POOR, T0, scored

import lndrill.store.db
from lndrill.cli import main
from lndrill.store import StoreError, open_store, pending
from lndrill.store.db import format_time
from lndrill.store.opening import open_database
from lndrill.store.paths import db_path

NOBODY = 65534


def _seed(card, n: int) -> None:
    """`n` scored and reviewed answers in the history of $LNDRILL_HOME."""
    with open_store() as store:
        for i in range(n):
            store.record_attempt(card.id, "cli", {"answer": f"{POOR} ({i})"}, scored(card, POOR), 1, review=True)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _one_line(proc: subprocess.CompletedProcess) -> str:
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stderr


def _run(*args: str, stdin: str = "", prefix: tuple[str, ...] = (), env: dict[str, str] | None = None,
         preexec: Callable[[], None] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, "-m", "lndrill", *args], input=stdin, capture_output=True,
                          text=True, env=env or os.environ.copy(), timeout=120, preexec_fn=preexec, cwd="/")


def _stats(**kw) -> tuple[dict, str]:
    proc = _run("stats", "--json", **kw)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout), proc.stderr


# ------------------------------------------------------------------------------------- 1. a full disk
@pytest.mark.system
@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="needs resource limits (POSIX)")
def test_a_full_disk_keeps_the_answer_and_never_moves_the_history_aside(main_card) -> None:
    import resource

    _seed(main_card, 3)
    home, before = db_path().parent, _digest(db_path())

    def one_kilobyte() -> None:  # `ulimit -f 1`: every file write past 1 KB fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    proc = _run("score", main_card.id, stdin=GOOD, preexec=one_kilobyte)
    assert proc.returncode == 3 and "Score " in proc.stdout  # scored and shown, not saved
    err = _one_line(proc)
    assert "history database" in err and "kept in" in err and "corrupt" not in err
    assert not list(home.glob("*corrupt*")) and _digest(db_path()) == before  # untouched, where it was
    (kept,) = pending.waiting(home)
    assert pending.read(kept).answers == {"answer": GOOD}

    data, err = _stats()  # the next open adds the kept answer
    assert data["total_attempts"] == 4 and "added 1 answer" in err
    assert pending.waiting(home) == [] and not list(home.glob("*corrupt*"))


# ------------------------------------------------------------------------------------- 2. read-only
@pytest.fixture
def other_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, tuple[str, ...], dict]]:
    """(data dir, command prefix, environment) for running lndrill as a user that file permissions bind:
    the current user, or `nobody` (via setpriv) when the tests run as root."""
    if os.geteuid() != 0:
        home = tmp_path / "home"
        yield home, (), os.environ.copy()
        if home.exists():
            for path in (home, *home.rglob("*")):
                path.chmod(0o700 if path.is_dir() else 0o600)
        return
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, and setpriv is not there to run lndrill as another user")
    base = Path(tempfile.mkdtemp(prefix="lndrill-faults-", dir="/tmp"))
    try:
        base.chmod(0o755)
        (base / "tmp").mkdir()
        os.chown(base / "tmp", NOBODY, NOBODY)
        home = base / "home"
        env = {**os.environ, "LNDRILL_HOME": str(home), "TMPDIR": str(base / "tmp"), "HOME": str(base)}
        monkeypatch.setenv("LNDRILL_HOME", str(home))
        yield home, (setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"), env
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _hand_over(home: Path) -> None:
    """Give the seeded data directory to the user the lndrill processes run as."""
    if os.geteuid() == 0:
        for path in (home, *home.rglob("*")):
            os.chown(path, NOBODY, NOBODY)


@pytest.mark.system
def test_a_read_only_data_directory_keeps_answers_elsewhere_and_stats_still_reads(main_card, other_user) -> None:
    home, prefix, env = other_user
    _seed(main_card, 3)
    _hand_over(home)
    before = _digest(db_path())
    home.chmod(0o555)

    proc = _run("score", main_card.id, stdin=GOOD, prefix=prefix, env=env)
    assert proc.returncode == 3
    err = _one_line(proc)
    assert "read-only" in err and "kept in" in err and "unreadable" not in err and "moved" not in err

    data, err = _stats(prefix=prefix, env=env)  # reading needs no write access
    assert data["total_attempts"] == 3 and "not in the history yet" in err
    assert _digest(db_path()) == before and sorted(p.name for p in home.iterdir()) == ["history.db"]

    home.chmod(0o700)
    data, err = _stats(prefix=prefix, env=env)
    assert data["total_attempts"] == 4 and "added 1 answer" in err


@pytest.mark.system
def test_a_history_made_read_only_then_writable_again_saves_again(main_card, other_user) -> None:
    home, prefix, env = other_user
    _seed(main_card, 3)
    _hand_over(home)
    db_path().chmod(0o444)

    proc = _run("score", main_card.id, stdin=GOOD, prefix=prefix, env=env)
    assert proc.returncode == 3 and "read-only" in _one_line(proc) and "kept in" in proc.stderr
    data, _ = _stats(prefix=prefix, env=env)  # opened with mode=ro: may leave a read-only -shm behind
    assert data["total_attempts"] == 3

    db_path().chmod(0o600)  # the user restores the permissions
    proc = _run("score", main_card.id, stdin=POOR, prefix=prefix, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "added 1 answer" in proc.stderr and "Traceback" not in proc.stderr
    data, _ = _stats(prefix=prefix, env=env)
    assert data["total_attempts"] == 5 and not list(home.glob("*corrupt*"))
    for side in home.glob("history.db*"):
        assert _mode(side) == 0o600, side


# ------------------------------------------------------------------------------------- 3. a held lock
def test_a_lock_held_too_long_keeps_the_answer_and_exits_3(main_card, tmp_path: Path, monkeypatch, capsys) -> None:
    _seed(main_card, 1)
    monkeypatch.setattr(lndrill.store.db, "BUSY_TIMEOUT_S", 0.2)  # the real wait is 15 s
    answer = tmp_path / "answer.txt"
    answer.write_text(GOOD, encoding="utf-8")
    holder = sqlite3.connect(db_path(), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, for longer than lndrill waits
    try:
        assert main(["score", main_card.id, str(answer), "--json"]) == 3
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    out, err = capsys.readouterr()
    assert json.loads(out)["card"] == main_card.id
    assert err.count("\n") == 1 and "locked" in err and "kept in" in err
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total_attempts"] == 2


def test_no_save_and_a_healthy_history_exit_0(main_card, tmp_path: Path, capsys) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(GOOD, encoding="utf-8")
    assert main(["score", main_card.id, str(answer)]) == 0
    assert main(["score", main_card.id, str(answer), "--no-save"]) == 0
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------------------------- 4. one transaction
def test_the_result_and_the_review_are_one_transaction(deck, main_card, monkeypatch) -> None:
    import lndrill.store.schedule
    from lndrill.practice import Practice

    def broken(*_args, **_kw):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("scheduler failed")

    problems: list[str] = []
    with monkeypatch.context() as patch:
        patch.setattr(lndrill.store.schedule, "apply_review", broken)
        practice = Practice(deck, open_store)
        practice.on_problem = problems.append
        sub = practice.submit(main_card, {"answer": GOOD})
        practice.close()
    assert not sub.saved and sub.kept is not None and len(problems) == 1 and "kept in" in problems[0]
    with sqlite3.connect(db_path()) as conn:  # the result went with the review: only the words are stored
        assert conn.execute("SELECT count(*) FROM attempts WHERE scored = 1").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM reviews").fetchone()[0] == 0

    with open_store() as store:  # the kept answer is added whole, replacing the unscored words
        (attempt,) = store.attempts()
        assert attempt.answers == {"answer": GOOD} and store.unscored_answers() == {}
        assert store.card_status([main_card.id])[main_card.id].due is not None
        assert "added 1 answer" in store.notices[0]


# ------------------------------------------------------------------------------------- 5. privacy
def test_the_history_and_kept_answers_are_private(main_card, tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(GOOD, encoding="utf-8")
    assert main(["score", main_card.id, str(answer)]) == 0
    home = db_path().parent
    assert _mode(home) == 0o700
    with open_store():  # open: the -wal and -shm files exist
        for path in home.glob("history.db*"):
            assert _mode(path) == 0o600, path
    db_path().chmod(0o644)  # written by an older lndrill
    open_store().close()
    assert _mode(db_path()) == 0o600
    from lndrill.store import KeptAnswer

    kept = pending.keep(home, KeptAnswer(main_card.id, "cli", {"answer": GOOD}, 0.0, format_time(T0)))
    assert _mode(kept) == 0o600 and _mode(kept.parent) == 0o700


# ------------------------------------------------------------------------------------- 7. bad rows
def test_a_bad_time_row_is_left_out_of_stats_with_one_line(main_card, capsys) -> None:
    _seed(main_card, 2)
    with sqlite3.connect(db_path()) as conn:
        conn.execute("UPDATE attempts SET submitted_at = '2024-13-01' WHERE id = 1")
    for args in (["stats", "--json"], ["stats"]):
        assert main(args) == 0
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "unreadable time" in err and "left out" in err
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total_attempts"] == 1
    with open_store() as store:
        warnings: list[str] = []
        store.on_warning = warnings.append
        assert len(store.attempts()) == 1 and len(warnings) == 1


def test_an_unreadable_schedule_row_starts_again_and_the_answer_is_saved(main_card, tmp_path, capsys) -> None:
    _seed(main_card, 1)
    with sqlite3.connect(db_path()) as conn:
        conn.execute("UPDATE schedule SET fsrs_json = '{}'")
    assert main(["stats", "--json"]) == 0  # shown as not scheduled
    assert json.loads(capsys.readouterr().out)["cards"][main_card.id]["due"] is None
    answer = tmp_path / "answer.txt"
    answer.write_text(GOOD, encoding="utf-8")
    assert main(["score", main_card.id, str(answer)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "could not be read" in err and main_card.id in err
    assert main(["stats", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)["cards"][main_card.id]
    assert card["attempts"] == 2 and card["due"] is not None


def test_an_old_history_with_a_bad_row_is_upgraded_and_keeps_it(main_card, capsys) -> None:
    conn, _ = open_database(db_path(), T0, target=1)
    result = scored(main_card, GOOD)
    for when in (format_time(T0), "yesterday"):
        cur = conn.execute(
            "INSERT INTO attempts (card_id, mode, submitted_at, duration_s, score, scorer_score, result_json) "
            "VALUES (?, 'drill', ?, 20, ?, ?, '{}')", (main_card.id, when, result.score, result.score))
        conn.execute("INSERT INTO attempt_answers (attempt_id, key, position, text) VALUES (?, 'answer', 0, ?)",
                     (cur.lastrowid, GOOD))
    conn.close()
    assert main(["stats", "--json"]) == 0  # read-only: upgraded in memory, the file is not touched
    out, err = capsys.readouterr()
    assert json.loads(out)["total_attempts"] == 1 and "Traceback" not in err
    assert all(line.startswith("lndrill: ") for line in err.splitlines())
    with open_store() as store:  # upgraded for real
        assert store.notice is not None and "1 old answer(s)" in store.notice
        assert store.card_status([main_card.id])[main_card.id].due is not None
    with sqlite3.connect(db_path()) as raw:
        assert raw.execute("SELECT count(*) FROM attempts").fetchone()[0] == 2  # the bad row is kept


def test_a_kept_file_that_is_not_an_answer_is_set_aside_not_deleted(main_card) -> None:
    home = db_path().parent
    (home / "pending").mkdir(parents=True)
    junk = home / "pending" / "answer-junk.json"
    junk.write_text("{not json", encoding="utf-8")
    with open_store() as store:
        assert any("not a kept answer" in n for n in store.notices)
    assert not junk.exists() and (home / "pending" / "answer-junk.unreadable").read_text() == "{not json"


def test_reading_a_missing_history_creates_nothing(capsys) -> None:
    assert main(["stats"]) == 0
    assert "No answers yet" in capsys.readouterr().out
    assert not db_path().parent.exists()


def test_a_newer_history_is_not_moved_and_not_written(main_card) -> None:
    with sqlite3.connect(db_path().parent.mkdir(parents=True) or db_path()) as conn:
        conn.execute(f"PRAGMA application_id = {lndrill.store.db.APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {lndrill.store.db.SCHEMA_VERSION + 1}")
    before = _digest(db_path())
    with pytest.raises(StoreError) as info:
        open_store(read_only=True)
    assert "newer lndrill" in str(info.value) and _digest(db_path()) == before
