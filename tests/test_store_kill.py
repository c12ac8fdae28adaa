"""kill -9 at any moment: every submitted answer is still there, and at most the last few seconds of typing
are lost (real subprocesses, real SIGKILL, then `lndrill stats --json` in a fresh process)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import GOOD

pytestmark = [pytest.mark.system, pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")]

WRITER = textwrap.dedent("""
    import sys, time
    from lndrill.cards.deck import load_deck
    from lndrill.scoring.engine import score_answer
    from lndrill.store import open_store

    card = load_deck().get("pre-vs-post-ln")
    store = open_store()
    n = int(sys.argv[1])
    for i in range(n if n else 10**9):
        text = f"{sys.argv[2]} #{i}"
        result = score_answer(card, text)
        aid = store.record_attempt(card.id, "drill", {"formulas": text}, result, 30.0 + i, review=True)
        store.save_draft("rmsnorm", {"definition": f"typing {i}"})
        print("saved", aid, flush=True)
    time.sleep(600)
""")


def _spawn(n: int, text: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(n), text], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())


def _stats() -> dict:
    proc = subprocess.run([sys.executable, "-m", "lndrill", "stats", "--json"], capture_output=True, text=True,
                          env=os.environ.copy(), timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return json.loads(proc.stdout)


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


def test_answer_submitted_before_kill_9_is_in_stats() -> None:
    proc = _spawn(1, GOOD)
    try:
        line = proc.stdout.readline()
        assert line.startswith("saved"), proc.stderr.read()
    finally:
        _kill(proc)
    data = _stats()
    card = data["cards"]["pre-vs-post-ln"]
    assert data["total_attempts"] == 1 and card["attempts"] == 1 and card["due"] is not None

    from lndrill.store import open_store

    with open_store() as store:
        (attempt,) = store.attempts()
        assert attempt.answers == {"formulas": f"{GOOD} #0"} and attempt.duration_s == 30.0
        assert store.load_draft("rmsnorm") == {"definition": "typing 0"}
        assert store.notice is None


def test_kill_9_in_the_middle_of_a_stream_of_submits_loses_nothing_submitted() -> None:
    proc = _spawn(0, "answer")
    saved: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(saved) < 25 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line.startswith("saved"), proc.stderr.read()
            saved.append(int(line.split()[1]))
    finally:
        _kill(proc)  # very likely in the middle of the next transaction
    assert len(saved) == 25
    data = _stats()
    stored = data["cards"]["pre-vs-post-ln"]["attempts"]
    assert stored >= len(saved)  # it may have submitted more after the lines we read, before the kill

    from lndrill.store import open_store

    with open_store() as store:
        ids = [a.id for a in store.attempts()]
        assert set(saved) <= set(ids)
        # The answer, its result and its review are one transaction: no answer is left unscheduled.
        reviewed = {row[0] for row in store._conn.execute("SELECT attempt_id FROM reviews")}
        assert reviewed == set(ids) and store.unscored_answers() == {}
        draft = store.load_draft("rmsnorm")
        assert draft is not None and int(draft["definition"].split()[1]) >= len(saved) - 1


def test_lndrill_score_subprocess_then_stats(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(GOOD, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "lndrill", "score", "pre-vs-post-ln", str(answer), "--json"],
                          capture_output=True, text=True, env=os.environ.copy(), timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    score = json.loads(proc.stdout)["score"]
    card = _stats()["cards"]["pre-vs-post-ln"]
    assert card["attempts"] == 1 and card["last"] == card["best"] == score
