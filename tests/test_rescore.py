"""Answers left unscored (the process was killed while scoring) are scored at the next start: headless
(`Practice.score_unscored`), by `lndrill stats`, by the app in a worker after its first paint, and after a
real SIGKILL of the app in tmux while a (deliberately blocked) scorer was running."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from datetime import timedelta
from pathlib import Path

import pytest
from helpers import FORMULAS, GOOD, T0, settle

from lndrill.practice import Practice
from lndrill.store import memory_store, open_store

CARD = "pre-vs-post-ln"
AREAS = {"formulas": FORMULAS, "backprop": "", "tradeoffs": ""}


def _practice(deck, store, now=T0):  # noqa: ANN001, ANN202
    practice = Practice(deck, lambda: store, now=lambda: now)
    problems: list[str] = []
    notices: list[str] = []
    practice.on_problem = problems.append
    practice.on_notice = notices.append
    return practice, problems, notices


def test_an_unscored_answer_is_scored_stored_reviewed_and_counted(deck) -> None:
    store = memory_store(clock=lambda: T0)
    earlier = T0 - timedelta(hours=1)
    aid = store.record_answer(CARD, "drill", {"answer": GOOD}, 40.0, now=earlier)  # as a kill -9 leaves it
    store.save_draft(CARD, {"formulas": "typed after the kill"}, now=earlier + timedelta(minutes=5))
    assert store.attempts() == []
    practice, problems, notices = _practice(deck, store)
    assert practice.has_unscored()
    assert practice.score_unscored() == 1
    (attempt,) = store.attempts()
    assert attempt.id == aid and attempt.score > 0 and attempt.points
    assert store.unscored_answers() == {} and problems == []
    assert notices == ["lndrill: scored 1 answer(s) left unscored when lndrill was stopped while scoring"]
    status = store.card_status([CARD])[CARD]
    assert status.due is not None and status.last_score == attempt.score  # reviewed, at the answer's time
    assert store.load_draft(CARD) == {"formulas": "typed after the kill"}  # newer typing is kept
    stats = practice.stats()
    assert stats is not None and stats.total_attempts == 1
    assert practice.score_unscored() == 0 and not practice.has_unscored()  # cheap and idempotent


def test_a_later_review_is_not_redone_by_an_older_answer(deck, main_card) -> None:
    store = memory_store(clock=lambda: T0)
    store.record_answer(CARD, "drill", {"answer": GOOD}, 10.0, now=T0 - timedelta(days=2))
    later, _, _ = _practice(deck, store, now=T0 - timedelta(days=1))
    later._began = "0"  # this older session must not take the unscored answer
    later.submit(main_card, {"answer": GOOD})
    due = store.card_status([CARD])[CARD].due
    practice, problems, _ = _practice(deck, store)
    assert practice.score_unscored() == 1 and problems == []
    assert len(store.attempts()) == 2 and store.card_status([CARD])[CARD].due == due


def test_a_card_no_longer_in_the_deck_stays_unscored_and_is_reported_once(deck) -> None:
    store = memory_store(clock=lambda: T0)
    store.record_answer("gone-card", "drill", {"answer": "words"}, 5.0, now=T0 - timedelta(hours=1))
    store.record_answer(CARD, "drill", {"answer": GOOD}, 5.0, now=T0 - timedelta(hours=1))
    practice, problems, _ = _practice(deck, store)
    assert practice.score_unscored() == 1
    assert practice.score_unscored() == 0
    assert problems == ["lndrill: 1 unscored answer(s) in your history are for cards not in this deck (gone-card); "
                        "they are kept, unscored"]
    assert list(store.unscored_answers().values()) == [{"answer": "words"}]


def test_an_answer_being_scored_in_this_session_is_left_to_submit(deck, main_card, monkeypatch) -> None:
    import lndrill.scoring.engine as engine

    store = memory_store(clock=lambda: T0)
    practice, problems, _ = _practice(deck, store)
    real = engine.score_answer
    seen: list[int] = []

    def reentrant(card, text):  # noqa: ANN001, ANN202 - another worker rescoring while this one scores
        monkeypatch.setattr(engine, "score_answer", real)
        seen.append(practice.score_unscored())
        return real(card, text)

    monkeypatch.setattr(engine, "score_answer", reentrant)
    practice.submit(main_card, {"answer": GOOD})
    assert seen == [0] and len(store.attempts()) == 1 and problems == []


def test_lndrill_stats_scores_and_counts_an_unscored_answer(capsys) -> None:
    from lndrill.cli import main

    with open_store() as store:
        store.record_answer(CARD, "drill", AREAS, 30.0)
        store.record_answer("gone-card", "drill", {"answer": "words"}, 5.0)
    assert main(["stats", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["total_attempts"] == 1
    assert out.err.splitlines() == [
        "lndrill: scored 1 answer(s) left unscored when lndrill was stopped while scoring",
        "lndrill: 1 unscored answer(s) in your history are for cards not in this deck (gone-card); they are kept, "
        "unscored"]
    with open_store(read_only=True) as store:
        assert [a.card_id for a in store.unscored_attempts()] == ["gone-card"]


@pytest.mark.tui
async def test_the_app_scores_it_after_the_first_paint(deck) -> None:
    from lndrill.tui.app import make_app

    with open_store() as store:
        store.record_answer(CARD, "drill", AREAS, 30.0)
    app = make_app(deck=deck, start="home", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        (attempt,) = app.practice.store.attempts(CARD)
        assert attempt.answers == AREAS and attempt.score > 0
        stats = app.practice.stats()
        assert stats is not None and stats.total_attempts == 1


BLOCKED_APP = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import lndrill.scoring.engine as engine

    def blocked(card, text):  # the test's scorer: says it started, then never finishes
        Path(sys.argv[1]).write_text("scoring")
        time.sleep(600)

    engine.score_answer = blocked
    from lndrill.cli import main
    sys.exit(main(["drill", "--card", "pre-vs-post-ln", "--lang", "en"]))
""")


@pytest.mark.system
@pytest.mark.skipif(shutil.which("tmux") is None or not hasattr(signal, "SIGKILL"), reason="needs tmux and SIGKILL")
def test_kill_9_while_scoring_then_the_next_start_scores_it(tmp_path: Path) -> None:
    """The app in tmux, its scorer replaced (in this test's wrapper only) by one that writes a marker and
    blocks: ctrl+s, wait for the marker, SIGKILL the app; the answer is in the history unscored; the next
    `lndrill stats --json` scores and counts it."""
    from test_tui_tmux import Tmux

    script = tmp_path / "blocked_app.py"
    script.write_text(BLOCKED_APP)
    marker = tmp_path / "scoring-started"
    tmux = Tmux(tmp_path, 120, 40)
    try:
        tmux.start("sh")
        tmux.keys(f"{sys.executable} {script} {marker}", "Enter")
        tmux.wait_for(r"1\. Formulas")
        tmux.keys(FORMULAS, literal=True)
        tmux.wait_for(r"F\(LN\(x\)\)\.")
        tmux.keys("C-s")
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert time.monotonic() < deadline, "the scorer never started"
            time.sleep(0.05)
        shell = tmux.run("display", "-p", "-t", tmux.session, "#{pane_pid}").strip()
        children = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True, timeout=10).stdout.split()
        assert len(children) == 1, children
        os.kill(int(children[0]), signal.SIGKILL)
        with open_store(tmp_path / "home", read_only=True) as store:  # lost nothing: stored, unscored
            assert [a.answers for a in store.unscored_attempts()] == [AREAS] and store.attempts() == []
        env = {**os.environ, "LNDRILL_HOME": str(tmp_path / "home")}
        proc = subprocess.run([sys.executable, "-m", "lndrill", "stats", "--json"], capture_output=True, text=True,
                              env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["total_attempts"] == 1
        assert proc.stderr == "lndrill: scored 1 answer(s) left unscored when lndrill was stopped while scoring\n"
    finally:
        tmux.kill()
