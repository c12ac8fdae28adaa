"""The mock-interview report: Markdown with each question's score, time, misses, mistakes, model answer."""

from __future__ import annotations

from pathlib import Path

from helpers import GOOD, T0, scored

from lndrill.practice.report import MockQuestion, overall_score, render_mock_report, write_mock_report
from lndrill.store.paths import data_dir

WRONG = "Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)). Pre-LN needs warm-up too. Use `lr = 1e-3` and *bold* [links]."


def _questions(deck) -> list[MockQuestion]:
    main, rms = deck.get("pre-vs-post-ln"), deck.get("rmsnorm")
    return [
        MockQuestion(main, scored(main, WRONG), 95.4, {"formulas": WRONG, "backprop": "", "tradeoffs": "```x```"},
                     time_limit_s=300),
        MockQuestion(rms, scored(rms, GOOD), 61, {"answer": GOOD}),
        MockQuestion(deck.get("deepnorm"), None, 300, {}, time_limit_s=300),
    ]


def test_report_has_every_part_of_every_question(deck) -> None:
    qs = _questions(deck)
    md = render_mock_report(qs, T0, seed=42, tag="core")
    main_result = qs[0].result
    assert f"**Overall score: {overall_score(qs)}/100**" in md and "seed 42" in md and "tag `core`" in md
    assert overall_score(qs) == round((qs[0].score + qs[1].score + 0) / 3)
    sections = md.split("\n## ")
    first = next(s for s in sections if s.startswith("1. "))
    assert f"**Score: {main_result.score}/100** · time used 1:35 of 5:00" in first
    for s in main_result.sections:
        for p in s.points:
            if not p.hit:
                assert p.claim.en.split()[0] in first
    assert "### Mistakes" in first and "It is Post-LN that needs warm-up" in first
    assert "\u201cPre-LN needs warm-up too.\u201d" in first
    assert "### Model answer" in first and deck.get("pre-vs-post-ln").model_answer.en.strip()[:60] in first
    assert "\\`\\`\\`x\\`\\`\\`" in first and "```" not in first.split("### Model answer")[0]  # quoted, escaped
    assert not any(len(line) > 400 for line in first.splitlines())  # "Your answer" wraps: no code block
    assert "time used 1:01" in md and "Not answered." in md and "(`deepnorm`)" in md
    weakest = md.split("## Weakest topics")[1].split("\n## ")[0]
    assert "- pre-vs-post-ln / " in weakest and "- tag deepnorm: 0/100" in weakest


def test_a_chinese_report_is_chinese_throughout(deck) -> None:
    qs = _questions(deck)
    md = render_mock_report(qs, T0, lang="zh", seed=42, tag="core", planned=4)
    assert md.startswith("# 模拟面试，") and f"**总分：{overall_score(qs)}/100**" in md
    assert "提前结束：4 道题答了 3 道" in md and "种子 42" in md and "标签 `core`" in md
    assert f"**得分：{qs[0].score}/100** · 用时 1:35 / 5:00" in md and "未作答。" in md
    for heading in ("## 最弱的部分", "### 漏掉的要点", "### 错误", "### 你的回答", "### 参考答案"):
        assert heading in md, heading
    assert "需要 warm-up 的是 Post-LN" in md  # the mistake's explanation in Chinese
    english = ("Overall score", "Weakest topics", "Missed points", "Mistakes", "Your answer", "Model answer",
               "time used", "Not answered", "question(s)", "of points")
    assert not [w for w in english if w in md]


def test_report_escapes_markup_in_quoted_user_text(deck) -> None:
    main = deck.get("pre-vs-post-ln")
    result = scored(main, "Pre-LN needs *warm-up* too | <b>")
    md = render_mock_report([MockQuestion(main, result, 10)], T0)
    assert result.mistakes
    mistakes = md.split("### Mistakes")[1].split("###")[0]
    assert "\\*warm-up\\*" in mistakes and "\\|" in mistakes and "\\<b" in mistakes


def test_write_report_to_data_dir_and_user_path(deck, tmp_path: Path) -> None:
    md = render_mock_report(_questions(deck), T0)
    paths = write_mock_report(md, data_dir(), tmp_path / "out" / "interview.md", now=T0)
    assert paths[0].parent == data_dir() / "reports" and paths[0].name.startswith("mock-")
    assert paths[0].name == f"mock-{T0.astimezone():%Y%m%d-%H%M%S}.md"
    assert paths[1] == tmp_path / "out" / "interview.md"
    assert all(p.read_text("utf-8") == md for p in paths)
    again = write_mock_report(md, data_dir(), tmp_path, now=T0)  # same second: no overwrite; a dir target
    assert again[0] != paths[0] and again[1] == tmp_path / paths[0].name
    assert not list((data_dir() / "reports").glob(".*tmp"))
