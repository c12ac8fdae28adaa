"""The display helpers shared by the command line and the app: colours, bars, due times, values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from lndrill.display import (
    ScoreColours,
    block_bar,
    due_label,
    due_with_date,
    eighths_bar,
    relative_due,
    score_style,
    value_with_spread,
)

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


def test_score_colours_by_threshold() -> None:
    assert [score_style(s) for s in (None, 0, 49, 50, 79, 80, 100)] == [
        "dim", "red", "red", "yellow", "yellow", "green", "green"]
    assert score_style(90, bold=True) == "bold green"
    theme = ScoreColours(good="#5fd787", fair="", poor="#ff5f6d")
    assert [score_style(s, theme, bold=True) for s in (10, 60, 90)] == ["bold #ff5f6d", "bold", "bold #5fd787"]


def test_block_bar() -> None:
    assert block_bar(50) == "█████░░░░░"
    assert block_bar(16, 40, 20) == "█" * 8 + "░" * 12
    assert block_bar(120) == "█" * 10 and block_bar(-5) == "░" * 10 and block_bar(3, 0, 4) == "░░░░"


def test_eighths_bar() -> None:
    assert eighths_bar(0.5, 4) == "██  " and eighths_bar(0.5, 1) == "▌" and eighths_bar(2, 3) == "███"


def test_relative_due_and_the_two_due_columns() -> None:
    assert relative_due(NOW - timedelta(seconds=1), NOW) is None
    assert relative_due(NOW + timedelta(seconds=20), NOW) == "in 1 min"
    assert relative_due(NOW + timedelta(hours=3), NOW) == "in 3 h"
    assert relative_due(NOW + timedelta(days=4), NOW) == "in 4 days"
    assert relative_due(NOW + timedelta(days=4), NOW, days="d") == "in 4 d"
    assert due_label(None, NOW, answered=False).plain == "new" and due_label(None, NOW, answered=True).plain == "due now"
    assert due_label(NOW + timedelta(days=2), NOW, answered=True).plain == "in 2 d"
    assert due_with_date(None, NOW).plain == "-" and due_with_date(NOW, NOW).plain == "due now"
    assert due_with_date(NOW + timedelta(days=2), NOW).plain.startswith("in 2 days (")


def test_the_app_due_column_in_chinese() -> None:
    assert relative_due(NOW - timedelta(seconds=1), NOW, lang="zh") is None
    assert relative_due(NOW + timedelta(seconds=20), NOW, lang="zh") == "1分钟后"
    assert relative_due(NOW + timedelta(hours=3), NOW, lang="zh") == "3小时后"
    assert relative_due(NOW + timedelta(days=4), NOW, days="d", lang="zh") == "4天后"
    assert due_label(None, NOW, answered=False, lang="zh").plain == "新"
    assert due_label(None, NOW, answered=True, lang="zh").plain == "已到期"
    assert due_label(NOW - timedelta(hours=1), NOW, answered=True, lang="zh").plain == "已到期"
    assert due_label(NOW + timedelta(days=2), NOW, answered=True, lang="zh").plain == "2天后"


def test_value_with_spread() -> None:
    assert value_with_spread(3.52734) == "3.5273"
    assert value_with_spread(2.1e-6, (1e-6, 3e-6)) == "2.1e-06 [1.0e-06-3.0e-06]"
    assert value_with_spread(0.0) == "0"
