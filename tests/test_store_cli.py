"""`lndrill stats` and the history side of `lndrill score`: what a user sees on the command line."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import GOOD, POOR

from lndrill.cli import main
from lndrill.store import SCHEMA_VERSION, open_store
from lndrill.store.db import APPLICATION_ID
from lndrill.store.paths import db_path


def _answer(tmp_path: Path, text: str, name: str = "a.txt") -> str:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return str(f)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lndrill", *args], capture_output=True, text=True,
                          env=os.environ.copy(), timeout=120)


def test_empty_history_is_a_friendly_one_liner(capsys) -> None:
    assert main(["stats"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and "No answers yet" in out and err == ""
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total_attempts"] == 0
    assert data["cards"]["pre-vs-post-ln"] == data["cards"]["pre-vs-post-ln"] | {"attempts": 0, "best": None,
                                                                                  "last": None, "due": None}


def test_score_records_history_and_stats_reports_it(tmp_path: Path, capsys, main_card) -> None:
    assert main(["score", main_card.id, _answer(tmp_path, POOR), "--json"]) == 0
    poor = json.loads(capsys.readouterr().out)["score"]
    assert main(["score", main_card.id, _answer(tmp_path, GOOD)]) == 0
    capsys.readouterr()
    assert main(["score", main_card.id, _answer(tmp_path, GOOD), "--no-save"]) == 0
    capsys.readouterr()

    with open_store() as store:
        attempts = store.attempts(main_card.id)
    assert [a.mode for a in attempts] == ["cli", "cli"] and attempts[0].answers == {"answer": POOR}
    assert attempts[0].duration_s == 0 and attempts[0].score == poor

    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    card = data["cards"][main_card.id]
    assert card["attempts"] == 2 and card["last"] == attempts[1].score == card["best"] > poor
    assert card["due"] and card["due"].endswith("+00:00")
    assert set(data["sections"]) == {f"{main_card.id}/{s}" for s in ("formulas", "backprop", "tradeoffs")}
    assert set(data["tags"]) == set(main_card.tags) and data["tags"]["core"]["attempts"] == 2
    assert [t["score"] for t in data["trend"]] == [poor, card["last"]] and len(data["sparkline"]) == 2

    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    for words in ("2 answers to 1 card", "Trend", main_card.id, "Formulas", "Backprop path", "core"):
        assert words in out
    assert any(ch in out for ch in "▁▂▃▄▅▆▇█") and "\x1b[" not in out


def test_blank_answers_are_not_recorded(tmp_path: Path, capsys, main_card) -> None:
    assert main(["score", main_card.id, _answer(tmp_path, "  \n")]) == 0
    with open_store() as store:
        assert store.attempts() == []


@pytest.mark.system
def test_stats_on_a_corrupt_database_says_one_line_and_starts_fresh() -> None:
    path = db_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(os.urandom(8192))
    proc = _run("stats")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("\n") == 1 and "moved it to" in proc.stderr and "Traceback" not in proc.stderr
    assert "No answers yet" in proc.stdout
    assert len(list(path.parent.glob("history-corrupt-*.db"))) == 1
    proc = _run("stats", "--json")
    assert proc.returncode == 0 and proc.stderr == "" and json.loads(proc.stdout)["total_attempts"] == 0


def _newer_schema_db() -> None:
    path = db_path()
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()


def test_stats_on_a_newer_schema_is_one_line(capsys) -> None:
    _newer_schema_db()
    assert main(["stats"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "newer lndrill" in err


@pytest.mark.system
def test_score_still_works_when_history_cannot_be_opened(tmp_path: Path, main_card) -> None:
    _newer_schema_db()
    proc = _run("score", main_card.id, _answer(tmp_path, GOOD), "--json")
    assert proc.returncode == 3 and json.loads(proc.stdout)["card"] == main_card.id  # 3: scored, not saved
    assert proc.stderr.count("\n") == 1 and "newer lndrill" in proc.stderr and "kept in" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(list((db_path().parent / "pending").glob("*.json"))) == 1
