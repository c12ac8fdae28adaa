"""Chinese text takes two terminal cells per character: the bars after Chinese section titles and chart
row labels line up (issue 10), and the browser's Chinese due and level words fit their columns at 80x24."""

from __future__ import annotations

import pytest
from helpers import FORMULAS, settle
from rich.cells import cell_len

from lndrill.display import label_width, pad_cells

BAR = "█░"


def _bar_columns(lines: list[str]) -> set[int]:
    cols = set()
    for line in lines:
        first = min((line.index(c) for c in BAR if c in line), default=None)
        if first is not None:
            cols.add(cell_len(line[:first]))
    return cols


def test_pad_cells_counts_cells() -> None:
    assert pad_cells("公式", 6) == "公式  " and cell_len(pad_cells("Formulas", 10)) == 10
    assert label_width(["公式", "Backprop"]) == 8


def test_score_lang_zh_bars_line_up(tmp_path, capsys) -> None:
    from lndrill.cli import main

    answer = tmp_path / "answer.txt"
    answer.write_text(FORMULAS + "\nPost-LN 需要 warm-up。", "utf-8")
    assert main(["score", "pre-vs-post-ln", str(answer), "--lang", "zh", "--no-save"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if any(c in line for c in BAR)]
    assert len(lines) >= 3 and len(_bar_columns(lines)) == 1, lines


@pytest.mark.tui
async def test_feedback_bars_line_up_in_chinese(deck) -> None:
    from helpers import static_text
    from textual.widgets import Static

    from lndrill.tui.app import make_app

    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln", lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-0").insert(FORMULAS)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.pause()
        lines = static_text(app.screen.query_one("#fb-sections", Static)).splitlines()
        assert len(lines) >= 3 and len(_bar_columns(lines)) == 1, lines


def test_chinese_due_words_fit_the_browser_due_column() -> None:
    from datetime import UTC, datetime, timedelta

    from lndrill.display import due_label

    now = datetime(2026, 1, 1, tzinfo=UTC)
    longest = [now + timedelta(minutes=59), now + timedelta(hours=23), now + timedelta(days=999), None]
    assert max(cell_len(due_label(d, now, answered=True, lang="zh").plain) for d in longest) <= 8


def test_simulator_bars_line_up_after_chinese_row_labels() -> None:
    from io import StringIO

    from rich.console import Console

    from lndrill.sim import SimConfig, sweep
    from lndrill.sim.render import SimChart

    eighths = "█▉▊▋▌▍▎▏"
    for config in (SimConfig(width=8, depths=(1, 2, 12)), SimConfig(preset="article")):
        console = Console(file=StringIO(), width=100, color_system=None, record=True)
        console.print(SimChart(sweep(config), lang="zh"))
        rows = [line for line in console.export_text().splitlines() if "Post-LN " in line or "Pre-LN " in line]
        starts = {cell_len(line[:min(line.index(c) for c in eighths if c in line)]) for line in rows}
        assert len(rows) >= 6 and len(starts) == 1, rows
        divider = {cell_len(line[:line.index("│")]) for line in console.export_text().splitlines() if "│" in line}
        assert len(divider) <= 1, divider  # the article's two panels: the header's divider too


@pytest.mark.tui
async def test_chinese_browser_columns_fit_at_80x24(deck) -> None:
    from datetime import UTC, datetime, timedelta

    from helpers import hand_scored
    from textual.widgets import DataTable

    from lndrill.store import open_store
    from lndrill.tui.app import make_app

    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    with open_store() as store:
        for card_id, ago in (("rmsnorm", timedelta(days=60)), ("pre-vs-post-ln", timedelta(minutes=5))):
            card = deck.get(card_id)
            result = hand_scored(card, {p.id for s in card.sections for p in s.points})
            attempt = store.record_attempt(card_id, "drill", {"answer": "x"}, result, 30, now=t0 - ago)
            store.review(card_id, result.score, 30, now=t0 - ago, attempt_id=attempt)
    app = make_app(deck=deck, start="drill", lang="zh", now=lambda: t0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        widths = {str(key.value): col.width for key, col in table.columns.items()}
        assert sum(c.get_render_width(table) for c in table.columns.values()) <= table.size.width
        for column in ("level", "due", "last"):
            cells = [table.get_cell(cid, column).plain for cid in app.screen.visible_ids]
            assert max(cell_len(c) for c in cells) <= widths[column], (column, cells)
            label = table.columns[column].label.plain  # type: ignore[index]
            assert cell_len(label) <= widths[column], label
