"""`lndrill score`, `--help`, `--version`: what a user sees on the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import DEEPNORM_COMPLETE

from lndrill import __version__
from lndrill.cli import main

ANSWER = "Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)). Post-LN needs warm-up; Pre-LN needs warm-up too."


def test_score_json_from_file(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    f.write_text(ANSWER, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["card"] == "pre-vs-post-ln" and 0 < d["score"] < 100
    assert {s["id"] for s in d["sections"]} == {"formulas", "backprop", "tradeoffs"}
    hit = {p["id"]: p for s in d["sections"] for p in s["points"]}
    assert hit["post-formula"]["hit"] and "LN(x + F(x))" in hit["post-formula"]["evidence"]
    assert [m["id"] for m in d["mistakes"]] == ["pre-needs-warmup"]
    assert d["mistakes"][0]["explanation"]


def test_the_report_says_when_the_score_and_the_rubric_total_differ(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    f.write_text("Post-LN needs warm-up.", encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["points"] == sum(s["score"] for s in d["sections"]) < d["score"]
    assert main(["score", "pre-vs-post-ln", str(f)]) == 0
    assert f"Score {d['score']}/100 (rubric {d['points']})" in capsys.readouterr().out
    assert main(["score", "pre-vs-post-ln", str(f), "--lang", "zh"]) == 0
    assert f"得分 {d['score']}/100（要点合计 {d['points']}）" in capsys.readouterr().out


def test_the_report_shows_and_explains_the_specifics_of_a_complete_answer(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    f.write_text(DEEPNORM_COMPLETE, encoding="utf-8")
    assert main(["score", "deepnorm", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    # terse (few statements): what its values add, its brevity takes back
    assert d["specifics"] == 3 and d["elaboration"] == -4 and d["score"] == 89 and d["points"] == 100
    assert main(["score", "deepnorm", str(f)]) == 0
    out = capsys.readouterr().out
    assert "Score 89/100 (rubric 100, specifics +3, elaboration -4)" in out and "concrete values" in out
    assert main(["score", "deepnorm", str(f), "--lang", "zh"]) == 0
    assert "得分 89/100（要点合计 100，具体数值 +3，展开 -4）" in capsys.readouterr().out


def test_score_human_report_from_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ANSWER.encode())))
    assert main(["score", "pre-vs-post-ln", "-", "--model-answer"]) == 0
    out = capsys.readouterr().out
    assert "Score " in out and "/100" in out
    assert "Mistakes" in out and "Pre-LN needs warm-up" in out
    assert "Model answer" in out
    assert "\x1b[" not in out


def test_score_in_chinese(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    f.write_text("Pre-LN 需要 warm-up。", encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(f), "--lang", "zh"]) == 0
    assert "需要 warm-up 的是 Post-LN" in capsys.readouterr().out


def test_user_text_is_never_rich_markup(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    f.write_text("Pre-LN [bold]w[i][/bold] has an identity path.", encoding="utf-8")
    main(["score", "pre-vs-post-ln", str(f)])
    assert "[bold]w[i][/bold]" in capsys.readouterr().out


def test_unknown_card_exits_2_with_suggestions(capsys) -> None:
    assert main(["score", "pre-vs-postln", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pre-vs-post-ln" in err


def test_missing_answer_file_exits_2(capsys) -> None:
    assert main(["score", "pre-vs-post-ln", "/no/such/file.txt"]) == 2
    assert "not found" in capsys.readouterr().err


@pytest.mark.system
def test_version_and_help_for_every_subcommand() -> None:
    out = subprocess.run([sys.executable, "-m", "lndrill", "--version"], capture_output=True, text=True)
    assert out.stdout.strip() == f"lndrill {__version__}"
    for args in (["--help"], ["score", "--help"], ["cards", "--help"], ["cards", "list", "--help"],
                 ["cards", "check", "--help"], ["sim", "--help"]):
        res = subprocess.run([sys.executable, "-m", "lndrill", *args], capture_output=True, text=True)
        assert res.returncode == 0, args
        assert "usage:" in res.stdout
    top = subprocess.run([sys.executable, "-m", "lndrill", "--help"], capture_output=True, text=True).stdout
    for word in ("score", "cards", "sim"):
        assert word in top


@pytest.mark.system
@pytest.mark.parametrize("payload", [b"", b"\x00\xff\xfe garbage \x01", "中文 only".encode()])
def test_any_bytes_on_stdin_score_without_traceback(payload: bytes) -> None:
    res = subprocess.run([sys.executable, "-m", "lndrill", "score", "pre-vs-post-ln", "--json"],
                         input=payload, capture_output=True)
    assert res.returncode == 0, res.stderr
    assert 0 <= json.loads(res.stdout)["score"] <= 100


def test_the_report_shows_and_explains_the_cap_for_a_wrong_claim(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    # the complete answer with one wrong claim added (beta does not touch queries and keys)
    f.write_text(DEEPNORM_COMPLETE.replace("Q and K are left alone.", "Beta also scales the query and key projections."),
                 encoding="utf-8")
    assert main(["score", "deepnorm", str(f), "--json", "--no-save"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["mistakes"] and d["capped"] > 0 and d["score"] <= 70 < d["points"]
    assert main(["score", "deepnorm", str(f), "--no-save"]) == 0
    out = capsys.readouterr().out
    assert f"capped -{d['capped']})" in out and "fix the mistakes" in " ".join(out.split())


def test_the_report_says_when_an_answer_only_restates_the_question(tmp_path: Path, capsys) -> None:
    f = tmp_path / "a.txt"
    f.write_text("Pre-LN can be trained without any warm-up. Yet almost every big Pre-LN LLM still keeps a warm-up "
                 "phase, and the two facts both hold.", encoding="utf-8")
    assert main(["score", "warmup-for-pre-ln", str(f), "--json", "--no-save"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["given_only"] and d["cap_reason"] == "given" and d["score"] == 10 < d["points"]
    assert main(["score", "warmup-for-pre-ln", str(f), "--no-save"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"capped -{d['capped']})" in out and "the question itself states" in out
    assert "fix the mistakes" not in out
