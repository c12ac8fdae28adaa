"""Property-based: the scorer never raises and stays in [0, 100] on arbitrary input."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lndrill.scoring.engine import score_answer

_pieces = st.sampled_from([
    "Post-LN", "Pre-LN", "LN(", "x + F(", "))", "warm-up", "不", "需要", "梯度", " not ", "\\mathrm{", "}",
    "=", "\n## ", "，", "。", ".", "without", "identity", "$", "_{", "(", "\x00", "\u200b", "ＬＮ（",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=400))
def test_any_text_scores_in_range(main_card, text: str) -> None:
    r = score_answer(main_card, text)
    assert 0 <= r.score <= 100


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_pieces, max_size=60).map("".join))
def test_answer_shaped_junk_scores_in_range(main_card, text: str) -> None:
    r = score_answer(main_card, text)
    assert 0 <= r.score <= 100
    assert all(p.evidence == "" for s in r.sections for p in s.points if not p.hit)


#: Pieces of answers about who uses what: names in lists, brackets and labels, on any card.
_named_pieces = st.sampled_from([
    "Sandwich-LN", "Peri-LN", "Gemma 2", "OLMo 2", "LLaMA", "BERT", "GPT-2", "DeepNorm", "RMSNorm", "Post-LN", "Pre-LN",
    "norm", " (", ")", "（", "）", "、", ", ", ": ", "：", " also ", "也", " uses ", " is ", " does not ", "不能", "\n- ",
    "x + F(LN(x))", "限制每块写入的量", " bounds what each block adds", "。", ". ",
])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data(), st.lists(_named_pieces, max_size=40).map("".join))
def test_any_card_scores_named_lists_in_range(deck, data, text: str) -> None:
    card = deck.cards[data.draw(st.sampled_from(sorted(deck.cards)))]
    assert 0 <= score_answer(card, text).score <= 100


@pytest.mark.parametrize("text", [
    "Norms on the block output (Sandwich-LN, Peri-LN, Gemma 2, OLMo 2): they limit how much a block adds, nothing more.",
    "块输出上的 norm（Sandwich-LN、Peri-LN、Gemma 2、OLMo 2）：只限制每块加进来的量。",
])
def test_a_bracketed_list_of_models_before_a_label_scores_on_every_card(deck, text: str) -> None:
    """The names stand in a clause of their own before the colon; scoring once raised a ValueError on them."""
    for card in deck.cards.values():
        assert 0 <= score_answer(card, text).score <= 100


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=600))
def test_binary_junk_scores_in_range(main_card, data: bytes) -> None:
    assert 0 <= score_answer(main_card, data).score <= 100


def test_control_characters_and_one_megabyte(main_card) -> None:
    junk = "".join(chr(c) for c in range(0, 32)) * 10
    assert 0 <= score_answer(main_card, junk).score <= 100
    big = ("Pre-LN 的残差是恒等通道。" + "x" * 1000 + "\n") * 1000
    assert len(big.encode()) > 1_000_000
    assert 0 <= score_answer(main_card, big).score <= 100


def _hostile(kind: str, n: int, word: str) -> str:
    """Small versions of inputs that were once quadratic (see benchmarks/bench_score.py)."""
    return {
        "open-sum": "(" + f"{word}+" * n,
        "numbers": "Gradient norms per depth: " + " ".join(str(i) for i in range(n)),
        "long-word": word * n,
        "table": "| | Post-LN | Pre-LN |\n|---|---|---|\n| " + word * n + " | a | b |\n" + "| x | y | z |\n" * n,
        "zh-line": "Pre-LN 的残差是恒等通道，" * n,
        "nested": "(" * n + "LN(x)" + ")" * n,
        "latex": "\\frac{" * n + word + "}" * n,
        "sum-of-norms": "+".join(["LN(x)"] * n),
        "spoken": ("beta two point " + "nine " * 3 + f"{word} to the minus one point five, the, uh, the ") * n,
        "web": ("<!-- [" + word + "](https://x.org/" + "<p ") * n,
        "semicolons": "; ".join([f"Post-LN {word}", "x + F(LN(x))", "there's Pre-LN", "偏小，有效步长就会很大"] * n),
        "spoken-calls": "f of " * n + f"x plus {word} of x, " + "ln of " * n + "x plus the branch",
        "headings": "".join(f"### Post-LN {i}\n- {word} {i}\n- BERT\n" for i in range(n)),
        "displays": "".join(("$$\n", f"{word} =\n", "\\leq\n", "\\[\n", "```\n", "**Pros:**\n")[i % 6] for i in range(n * 3)),
        "equation-images": (f"![a](https://latex.codecogs.com/svg.latex?{word}(" + '<img src="//www.zhihu.com/equation?tex='
                            + f'{word}%28" alt="x"> ') * n,
    }[kind]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["open-sum", "numbers", "long-word", "table", "zh-line", "nested", "latex", "sum-of-norms",
                        "spoken", "web", "semicolons", "spoken-calls", "equation-images", "headings",
                        "displays"]),
       st.integers(min_value=0, max_value=400), st.sampled_from(["x", "ln", "梯度", "warm-up", "α"]))
def test_hostile_shapes_score_in_range(main_card, kind: str, n: int, word: str) -> None:
    r = score_answer(main_card, _hostile(kind, n, word))
    assert 0 <= r.score <= 100
