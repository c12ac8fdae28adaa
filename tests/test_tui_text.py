"""Card and feedback text on screen: reflowed card text, and wrapping that breaks between Chinese characters."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from lndrill.tui.text import Wrapped, line_breaks, reflow


def _lines(renderable: object, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().rstrip("\n").split("\n")


ZH = "✓ Pre-LN：x_{l+1} = x_l + F(LN(x_l))（只归一化子层输入，残差相加不经过 LN），最后一个块之后再加一个 final LN。"


def test_a_chinese_sentence_after_an_english_word_fills_the_line() -> None:
    lines = _lines(Wrapped(Text(ZH)), 66)
    # Rich alone moves the whole Chinese run to the next line and leaves "... x_l +" behind
    assert lines[0].startswith("✓ Pre-LN：x_{l+1} = x_l + F(LN(x_l))（只归一化")
    assert all(cell_len(line) <= 66 for line in lines)
    assert "".join(lines).replace(" ", "") == ZH.replace(" ", "")  # nothing lost, nothing added
    assert cell_len(lines[0]) >= 60


def test_no_line_starts_with_closing_or_ends_with_opening_punctuation() -> None:
    for width in range(10, 70):
        lines = _lines(Wrapped(Text(ZH)), width)
        assert all(cell_len(line) <= width for line in lines), width
        assert not any(line[0] in "，。、：；）" for line in lines[1:]), (width, lines)
        assert not any(line.rstrip()[-1] in "（" for line in lines), (width, lines)


def test_english_still_wraps_at_spaces_and_newlines_stay() -> None:
    text = "This is a plain English sentence that wraps at spaces only.\nSecond line."
    assert _lines(Wrapped(Text(text)), 30) == ["This is a plain English", "sentence that wraps at spaces", "only.",
                                               "Second line."]
    assert line_breaks("a" * 25, 10) == [10, 20]  # a word longer than the line is folded


def test_styles_survive_the_wrap() -> None:
    text = Text("✓ ", style="bold green") + Text("归一化" * 20)
    wrapped = next(iter(Wrapped(text).__rich_console__(Console(width=20), Console(width=20).options)))
    assert isinstance(wrapped, Text) and wrapped.spans and wrapped.spans[0].style == "bold green"


def test_reflow_joins_hard_breaks_without_spaces_after_chinese_punctuation() -> None:
    assert reflow("DeepNorm、\nMix-LN 等。\nPre-LN 的公式\nis here") == "DeepNorm、Mix-LN 等。Pre-LN 的公式 is here"
    assert reflow("第一段\n续\n\nsecond\nparagraph") == "第一段续\n\nsecond paragraph"
