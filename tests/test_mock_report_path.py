"""`lndrill mock --report PATH` (issue 11, item 17): the path is checked before the interview starts; a
device, a FIFO or a symlink is never replaced; the temporary file is a fresh name, so a planted symlink
is never followed; when the extra copy fails, the data-directory copy is still written and listed; the
report is readable by its owner only and carries no terminal control characters."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from helpers import T0

from lndrill.cli import main
from lndrill.practice.report import (
    MockQuestion,
    ReportPathError,
    check_report_path,
    render_mock_report,
    report_filename,
    save_mock_report,
    write_mock_report,
)

TEXT = "# Mock interview\n\nreport body\n"


def mock_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["mock", *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert len(err.splitlines()) == 1 and "needs a terminal" not in err
    return err.strip()


def test_a_character_device_is_refused_before_the_interview(capsys) -> None:
    err = mock_error(["--report", "/dev/null"], capsys)
    assert err == "lndrill: error: cannot write the report to /dev/null: it is a character device, not a regular file"


def test_a_fifo_and_a_symlink_are_refused_before_the_interview(tmp_path: Path, capsys) -> None:
    os.mkfifo(tmp_path / "fifo.md")
    assert "it is a FIFO, not a regular file" in mock_error(["--report", str(tmp_path / "fifo.md")], capsys)
    victim = tmp_path / "victim.md"
    victim.write_text("keep me", encoding="utf-8")
    (tmp_path / "link.md").symlink_to(victim)
    assert "it is a symbolic link, not a regular file" in mock_error(["--report", str(tmp_path / "link.md")], capsys)
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_a_path_under_a_file_or_an_empty_name_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert "for the report: Not a directory" in mock_error(["--report", str(tmp_path / "file" / "r.md")], capsys)
    assert "argument --report: needs a file or directory name" in mock_error(["--report", ""], capsys)


def test_good_paths_pass_the_check(tmp_path: Path) -> None:
    check_report_path(tmp_path / "new" / "deeper" / "report.md")  # directories are made when it is saved
    check_report_path(tmp_path)  # a directory: the report's own name inside it
    (tmp_path / "old.md").write_text("x", encoding="utf-8")
    check_report_path(tmp_path / "old.md")  # an existing regular file is replaced


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only directories anyway")
def test_a_directory_lndrill_cannot_write_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(ReportPathError, match="permission denied"):
        check_report_path(locked / "r.md")


def test_a_planted_symlink_at_a_temporary_name_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    for pid in range(os.getpid() - 5, os.getpid() + 5):  # the names the old code used
        (out / f".interview.md.{pid}.tmp").symlink_to(victim)
    paths = write_mock_report(TEXT, tmp_path / "home", out / "interview.md", now=T0)
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert (out / "interview.md").read_text(encoding="utf-8") == TEXT and paths[-1] == out / "interview.md"
    assert not [p for p in out.iterdir() if p.name.startswith(".") and not p.is_symlink()]  # no temp file left


def test_when_the_extra_copy_fails_the_data_directory_copy_is_kept_and_listed(tmp_path: Path) -> None:
    target = tmp_path / "fifo.md"
    os.mkfifo(target)  # appeared after the check: the write refuses it, never blocks on it
    paths, error = save_mock_report(TEXT, tmp_path / "home", target, T0)
    saved = tmp_path / "home" / "reports" / report_filename(T0)
    assert paths == [saved] and saved.read_text(encoding="utf-8") == TEXT
    assert error == f"could not save the report to {target}: cannot write the report to {target}: it is a FIFO, " \
                    "not a regular file"
    assert stat.S_ISFIFO(os.lstat(target).st_mode)


def test_when_the_data_directory_fails_the_extra_copy_is_still_written(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("not a directory", encoding="utf-8")
    paths, error = save_mock_report(TEXT, home, tmp_path / "copy.md", T0)
    assert paths == [tmp_path / "copy.md"] and error is not None
    assert error.startswith("could not save the report in the data directory: ") and "\n" not in error


def test_reports_are_private_and_their_directory_too(tmp_path: Path) -> None:
    paths = write_mock_report(TEXT, tmp_path / "home", tmp_path / "mine.md", now=T0)
    for path in paths:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE((tmp_path / "home" / "reports").stat().st_mode) == 0o700


def test_the_report_carries_no_control_characters(deck) -> None:
    card = deck.get("pre-vs-post-ln")
    answer = "Post-LN needs warm-up \x1b]0;pwned\x07\x1b[2J\x9b31m."
    md = render_mock_report([MockQuestion(card, None, 10, {"answer": answer})], T0)
    assert "Post-LN needs warm-up \\]0;pwned\\[2J31m." in md  # Markdown brackets escaped, controls dropped
    assert not any(c in md for c in ("\x1b", "\x07", "\x9b"))
