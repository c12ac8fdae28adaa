"""What the command line writes, and what happens when it cannot write (issue 11, items 12 and 16):
no terminal control sequence from an answer, a card or a file name ever reaches the terminal; a closed
stdin, a full disk or a closed stdout is one line and a conventional exit status; a reader that went
away (`| head -1`) ends the command quietly with 141, as SIGPIPE would."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lndrill.cli import main
from lndrill.cli.output import BROKEN_PIPE_STATUS

#: Sets the window title, clears the screen, plants a hyperlink; and CSI as one C1 character.
HOSTILE = ("Post-LN: y = LN(x + F(x)) \x1b]0;pwned\x07\x1b[2J\x1b]8;;http://evil.example/\x1b\\here\x1b]8;;\x1b\\ "
           "so Post-LN needs warm-up \x9b31m and \x00NUL\x08.")
CONTROL = ("\x1b", "\x07", "\x00", "\x08", "\x9b")


def clean(text: str) -> bool:
    return not any(c in text for c in CONTROL)


class _Raising(io.StringIO):
    """A stdout whose writes fail with `exc`."""

    def __init__(self, exc: OSError) -> None:
        super().__init__()
        self.exc = exc

    def write(self, text: str) -> int:
        raise self.exc

    def flush(self) -> None:
        raise self.exc


# ---------------------------------------------------------------------------------------------- item 12
def test_score_never_prints_control_characters_from_the_answer(tmp_path: Path, capsys) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text(HOSTILE, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(answer), "--no-save"]) == 0
    out, err = capsys.readouterr()
    assert "“so Post-LN needs warm-up 31m and NUL.”" in out  # the evidence quote, without \x9b, NUL, BS
    assert clean(out) and clean(err)


def test_score_in_a_terminal_keeps_its_colours_but_not_the_answer_s_escapes(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    answer = tmp_path / "a.txt"
    answer.write_text(HOSTILE, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(answer), "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[1m" in out  # Rich's own styling
    assert "\x1b]" not in out and "\x1b[2J" not in out and "\x07" not in out and "\x9b" not in out


def test_score_json_escapes_every_control_character(tmp_path: Path, capsys) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text(HOSTILE, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(answer), "--json", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert clean(out)
    evidence = [p["evidence"] for s in json.loads(out)["sections"] for p in s["points"] if p["evidence"]]
    assert "so Post-LN needs warm-up \x9b31m and \x00NUL\x08." in evidence  # the same text, escaped


def test_an_unknown_card_id_is_echoed_without_its_escapes(capsys) -> None:
    assert main(["score", "\x1b[2Jnope\x1b]0;x\x07"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and clean(err) and err.startswith("lndrill: error: unknown card '[2Jnope]0;x'")


# ---------------------------------------------------------------------------------------------- item 16
def test_a_closed_stdin_is_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["score", "pre-vs-post-ln"]) == 2
    out, err = capsys.readouterr()
    assert err == "lndrill: error: cannot read the answer: standard input is closed (give an answer FILE)\n"


def test_a_full_disk_on_stdout_is_one_line_and_status_1(tmp_path: Path, monkeypatch, capsys) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("Post-LN needs warm-up.", encoding="utf-8")
    for argv in (["score", "pre-vs-post-ln", str(answer), "--no-save"], ["cards", "list", "--json"],
                 ["sim", "--json", "--depths", "1-4"], ["--version"]):
        monkeypatch.setattr(sys, "stdout", _Raising(OSError(28, "No space left on device")))
        assert main(argv) == 1, argv
        err = capsys.readouterr().err
        assert err == "lndrill: error: cannot write to standard output: No space left on device\n", argv


def test_a_broken_pipe_is_quiet_and_status_141(tmp_path: Path, monkeypatch, capsys) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("Post-LN needs warm-up.", encoding="utf-8")
    for argv in (["score", "pre-vs-post-ln", str(answer), "--no-save"], ["sim", "--json"], ["cards", "list"]):
        monkeypatch.setattr(sys, "stdout", _Raising(BrokenPipeError(32, "Broken pipe")))
        assert main(argv) == BROKEN_PIPE_STATUS, argv
        assert capsys.readouterr().err == "", argv


def _lndrill(shell: str, home: Path, unbuffered: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LNDRILL_HOME": str(home), "NO_COLOR": "1", "L": f"{sys.executable} -m lndrill"}
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.system
def test_real_closed_streams_full_disk_and_broken_pipe(tmp_path: Path) -> None:
    home = tmp_path / "home"
    closed_in = _lndrill("$L score pre-vs-post-ln <&-; echo rc=$?", home)
    assert closed_in.stderr == "lndrill: error: cannot read the answer: standard input is closed (give an answer FILE)\n"
    assert closed_in.stdout == "rc=2\n"
    full = _lndrill("echo 'Post-LN needs warm-up.' | $L score pre-vs-post-ln > /dev/full; echo rc=$? >&2", home)
    lines = full.stderr.splitlines()
    assert lines[-2:] == ["lndrill: error: cannot write to standard output: No space left on device", "rc=1"]
    assert "Traceback" not in full.stderr
    closed_out = _lndrill("$L cards list >&-; echo rc=$? >&2", home)
    assert closed_out.stderr.splitlines()[-2:] == [
        "lndrill: error: cannot write to standard output: standard output is closed", "rc=1"]
    # far more output than a pipe holds, so the write after `head` exits must fail (unbuffered too, where
    # Python itself would ignore the short write)
    for unbuffered in (False, True):
        piped = _lndrill("$L sim --json --width 4 --depths 1-2000 | head -1; echo rc=${PIPESTATUS[0]} >&2", home,
                         unbuffered)
        assert piped.stdout == "{\n" and piped.stderr == "rc=141\n", unbuffered
