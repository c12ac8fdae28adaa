"""A real-terminal check: run `lndrill drill` in tmux, type an answer, submit, read `Score` off the pane.

Repeat by hand: `tmux new -x 120 -y 40 'lndrill drill --card pre-vs-post-ln'`, type, press ctrl+s.
Skipped when tmux is not installed. Polls with a timeout (no fixed sleeps); always kills the session.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.system,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

ROOT = Path(__file__).resolve().parent.parent


class Tmux:
    """One detached session on a private tmux server (its own socket, so a user's tmux is untouched)."""

    def __init__(self, tmp: Path, width: int, height: int) -> None:
        self.socket = f"lndrill-test-{os.getpid()}-{width}x{height}"
        self.session = "lndrill"
        self.width, self.height = width, height
        self.env = {**os.environ, "LNDRILL_HOME": str(tmp / "home"), "TERM": "xterm-256color"}
        self.env.pop("NO_COLOR", None)
        self.env.pop("TMUX", None)

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=self.env,
                             timeout=10)
        return out.stdout

    def start(self, command: str) -> None:
        self.run("new-session", "-d", "-s", self.session, "-x", str(self.width), "-y", str(self.height),
                 "-c", str(ROOT), "-e", f"LNDRILL_HOME={self.env['LNDRILL_HOME']}", command)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.session)

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            match = re.search(pattern, text)
            if match:
                return match
            time.sleep(0.1)  # polling interval, not a fixed wait
        raise AssertionError(f"{pattern!r} did not appear within {timeout} s; the pane shows:\n{text}")

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", self.session, *(["-l"] if literal else []), *keys)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, env=self.env, timeout=10)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
def test_type_submit_and_read_the_score_in_tmux(tmp_path: Path, size: tuple[int, int]) -> None:
    tmux = Tmux(tmp_path, *size)
    try:
        tmux.start(f"{sys.executable} -m lndrill drill --card pre-vs-post-ln --lang en")
        tmux.wait_for(r"1\. Formulas")
        tmux.keys("Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)).", literal=True)
        tmux.wait_for(r"F\(LN\(x\)\)\.")  # let the burst land before Tab moves to the next area
        tmux.keys("Tab")
        tmux.keys("Post-LN 需要 warm-up，初始化时梯度很大。", literal=True)
        tmux.wait_for("初始化时梯度很大")
        tmux.keys("C-s")
        match = tmux.wait_for(r"Score (\d+)/100")
        assert 0 < int(match.group(1)) < 100
        tmux.keys("C-q")
    finally:
        tmux.kill()


def test_kill_9_after_submit_keeps_the_answer(tmp_path: Path) -> None:
    """kill -9 the running app after a submit and some typing on the next card: the answer is in
    `lndrill stats --json` afterwards, and the typing is there as the next card's draft."""
    import json
    import signal

    from lndrill.cards.deck import load_deck

    ids = list(load_deck().cards)
    tmux = Tmux(tmp_path, 120, 40)
    try:
        tmux.start(f"exec {sys.executable} -m lndrill drill --card pre-vs-post-ln --lang en")
        tmux.wait_for(r"1\. Formulas")
        tmux.keys("Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)).", literal=True)
        tmux.wait_for(r"F\(LN\(x\)\)\.")
        tmux.keys("C-s")
        tmux.wait_for(r"Score (\d+)/100")
        tmux.keys("n")  # the next card: type, and let the autosave (every 3 s) catch it
        tmux.wait_for(r"1\. ")
        tmux.keys("half an answer", literal=True)
        from lndrill.store import open_store

        deadline = time.monotonic() + 15
        with open_store(tmp_path / "home") as store:
            while not any((store.load_draft(cid) or {}).values() for cid in ids):
                assert time.monotonic() < deadline, "no draft was autosaved"
                time.sleep(0.2)  # polling, not a fixed wait
        pid = int(tmux.run("list-panes", "-t", tmux.session, "-F", "#{pane_pid}").split()[0])
        os.kill(pid, signal.SIGKILL)  # exec: the pane's process is lndrill itself
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # wait until it is gone (no clean shutdown ran)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
    finally:
        tmux.kill()
    out = subprocess.run([sys.executable, "-m", "lndrill", "stats", "--json"], capture_output=True, text=True,
                         env=tmux.env, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    card = json.loads(out.stdout)["cards"]["pre-vs-post-ln"]
    assert card["attempts"] == 1 and card["last"] is not None and card["due"] is not None
    with open_store(tmp_path / "home") as store:  # and the typing up to the last autosave
        drafts = [text for cid in ids for text in (store.load_draft(cid) or {}).values()]
        assert "half an answer" in drafts
