"""Chinese section titles take two terminal cells per character: the bars after them line up (issue 10)."""

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
