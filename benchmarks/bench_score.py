"""Scorer speed and memory: a typical 2 KB answer, hostile inputs up to 4 MB, and loading the deck.

Run: python benchmarks/bench_score.py   (prints medians; targets: 2 KB <= 10 ms, any input <= 4 MB within
1 s and 300 MB, a card's rubric compiled once)

The 2 KB figure is measured twice: on TYPICAL, a dense synthetic answer, and on 300 answers of 1.5-2.5 KB that people
wrote (the blind tuning half), which take about twice as long (more clauses, formulas and named subjects per kilobyte).

The hostile cases are the ones that were slow once: a formula scanner that restarted at every token, typo
deletes of a 1 MB word, a table expanded after the length cap, an ellipsis scan per occurrence, a prefix
phrase scan per token. Peak memory is measured with tracemalloc in a separate run (it slows Python down).
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import yaml

from lndrill.cards.deck import Deck, load_deck
from lndrill.cards.schema import Card
from lndrill.scoring.engine import rubric_for, score_answer

BLIND_TUNE = Path(__file__).resolve().parent.parent / "tests" / "blind" / "tune"

TYPICAL = (
    "Post-LN: x_{l+1} = LN(x_l + F(x_l)); residual add, then normalise. Pre-LN: x_{l+1} = x_l + F(LN(x_l)).\n"
    "In Post-LN the gradient crosses a LayerNorm Jacobian at every layer; at initialisation the gradient near "
    "the output is large, so a big learning rate diverges and Post-LN needs warm-up, worse when deep.\n"
    "Pre-LN 的残差是恒等通道，梯度直达输入，可以去掉 warm-up，上百层也能稳定训练。\n"
    "Trade-offs: converged Post-LN is slightly better; Pre-LN is stable but its residual stream grows so deep "
    "layers are diluted. LLMs use Pre-LN; DeepNorm and Sandwich-LN try to get both.\n"
)


def hostile_inputs() -> dict[str, str]:
    """Inputs that once took seconds or gigabytes (the same cases drive the property tests)."""
    words = "residual gradient warm-up Post-LN Pre-LN 梯度 恒等 identity layer norm jacobian ".split()
    paste = "".join(f"{words[i % len(words)]} answer line {i} says something about LayerNorm.\n" for i in range(16000))
    return {
        "1 MB paste": (paste * 2)[:1_000_000],
        "'(' + 'x+'*3000 (6 KB)": "(" + "x+" * 3000,
        "'(' + 'x+'*6000 (12 KB)": "(" + "x+" * 6000,
        "8500 numbers (64 KB)": "Gradient norms per depth: " + " ".join(f"{i * 0.37:.4f}" for i in range(8500)),
        "one 1 MB word": "a" * 1_000_000,
        "table, 30,000-char row label": ("| | Post-LN | Pre-LN |\n|---|---|---|\n| " + "w" * 30000 + " | a | b |\n"
                                         + "| x | y | z |\n" * 2000),
        "60,000-char Chinese line": ("Pre-LN 的残差是恒等通道，梯度直达输入，不需要预热，Post-LN 需要，" * 2000)[:60000],
        # every line a distinct, hedged claim naming a subject: many frames and mentions, none charged
        "60,000 chars of hedged claims": "".join(f"Maybe Pre-LN needs warm-up in run {i}.\n" for i in range(1700))[:60000],
        "nested parentheses": "(" * 5000 + "LN(x)" + ")" * 5000,
        "20,000 nested calls f(f(...))": "f(" * 20000 + ")" * 20000,
        "30,000 orders of growth O(O(...": "O(" * 30000,
        "3,000 questions answered 'No.'": "Is it Post-LN? No. " * 3000,
        "sum of 3000 LN(x)": "+".join(["LN(x)"] * 3000),
        "LaTeX braces (60 KB)": "\\frac{" * 10000 + "x" + "}" * 10000,
        # numbers said aloud and hesitations (read as digits / said once), unclosed HTML comments and links
        "spoken numbers and hesitations": ("beta one point " + "nine " * 40 + "x to the minus one point five, "
                                           "the, uh, the " + "two thousand " * 10) * 150,
        "web markup, unclosed": ("<!-- " + "[a](https://x.org/" + "<p " * 5) * 2000,
        # one 60 KB sentence of ";"-separated items, each naming a subject: the topic test once walked from the
        # sentence start to every mention (1.1 s)
        "one sentence of 12,000 ';' items": "; ".join(["Post-LN warm-up", "x + F(LN(x))", "identity path", "there's Pre-LN",
                                                       "偏小，有效步长就会很大"] * 2400),
        # a formula said aloud, nested 12,000 deep, and a run of calls that ends in words (the spoken-formula reader
        # once tried every start inside such a run: 8 s at 80 KB)
        "spoken calls, 12,000 deep": "f of " * 12000 + "x plus x, and " + "ln of " * 12000 + "x plus the branch",
        # formulas shown as rendered images (read back as formulas): 20,000 of them in one comma part once spent 0.9 s
        # finding the start of that part for every formula
        "20,000 Zhihu equation images (1 MB)": "https://www.zhihu.com/equation?tex=x%2BF%28LN%28x%29%29 " * 20000,
        # keyword lists whose last item opens a bracket that never closes: the bracketed-item test once walked to the
        # end of the answer for each (0.79 s at 110 KB)
        "2,000 lists ending in an open bracket": "Post-LN, warm-up, Adam, noam, 4000 steps, min(a b c d. " * 2000,
        # short headings over one-name items, all in one long "sentence" of headings: each frame's pronoun test once
        # rescanned every earlier mention (0.91 s at 600 KB)
        "20,000 headings over one-name items": "".join(f"### Post-LN {i}\n- BERT {i}\n" for i in range(20000)),
        # a subject named by its short name and said to be a formula, 3,000 times (about 0.9 s here: the slowest known)
        "3,000 'pre is x + F(LN(x))' notes": "pre is x + F(LN(x)). " * 3000,
        # lower-case "pre" read as a name where it opens a note: testing "first word of its part" once walked back over
        # the whole part for every "pre" (3.5 s for this 60 KB)
        "15,000 lower-case 'pre' words": "pre " * 15000,
        # repeated delimiter lines are kept (each display or code block needs its own "$$" / "```"), and a
        # multi-line display is joined onto one line: a delimiter that never closes must not make that quadratic
        "30,000 '$$' lines and displays": "$$\nx = 1\n" * 15000,
        "20,000 unclosed '\\[' displays": "\\[ x\n" * 20000,
        # index-notation Jacobians and per-coordinate means: a Kronecker line of 10,000 indexed names (each looks ahead
        # for the other half of an outer product), 5,000 loss derivatives inside sums, thousands separators
        "Kronecker line of 10,000 x_i": "J_ij = δ_ij - 1/N - " + "x_i " * 10000 + "x_j / N",
        "5,000 sums of dL/dy_j": "dL/dx_i = (g_i - " + "(1/N) Σ_j ∂L/∂y_j x̂_j - " * 5000 + "x_i)",
        "20,000 thousands separators": "1,000,000 steps, " * 20000,
        "4 MB mixed": ("Post-LN needs warm-up; Pre-LN 的残差是恒等通道 LN(x + F(x)) alpha = (2N)^(1/4)\n" * 60000)[:4_000_000],
    }


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _blind_answers_near_2kb(deck: Deck, n: int = 300) -> list[tuple[Card, str]]:
    """Up to `n` answers of 1.5-2.5 KB from the blind tuning half (a fixed sample): what people really write is slower
    to score than TYPICAL, with more clauses, formulas and subjects per kilobyte."""
    out = []
    for path in sorted(BLIND_TUNE.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        card = deck.get(str(data.get("card", "")))
        if card is None:
            continue
        out += [(card, a["text"]) for a in data.get("answers", []) if 1536 <= len(a["text"].encode("utf-8")) <= 2560]
    random.Random(0).shuffle(out)
    return out[:n]


def _peak_mb(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    """Print the benchmark figures."""
    deck_ms = _median_ms(lambda: load_deck(), 5)
    deck = load_deck()
    card = deck.get("pre-vs-post-ln")
    assert card is not None
    compile_ms = _median_ms(lambda: rubric_for(card), 1)
    text2k = (TYPICAL * 3)[:2048]
    typical_ms = _median_ms(lambda: score_answer(card, text2k), 50)
    print(f"deck load ({len(deck.cards)} cards):          median {deck_ms:8.1f} ms")
    print(f"rubric compile (pre-vs-post-ln):   {compile_ms:8.1f} ms (once per card)")
    print(f"score typical 2 KB answer:         median {typical_ms:8.1f} ms   target <= 10 ms")
    blind = _blind_answers_near_2kb(deck)
    if blind:
        for c, t in blind:  # (each card's rubric compiled first)
            score_answer(c, t)
        times = []
        for c, t in blind:
            t0 = time.perf_counter()
            score_answer(c, t)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(f"score {len(blind)} blind answers of 1.5-2.5 KB: median {statistics.median(times):8.1f} ms   "
              f"90th percentile {times[int(0.9 * len(times))]:.1f} ms (written by people, all 13 cards)")
    worst_ms = worst_mb = 0.0
    for name, text in hostile_inputs().items():
        ms = _median_ms(lambda t=text: score_answer(card, t), 3)
        mb = _peak_mb(lambda t=text: score_answer(card, t))
        worst_ms, worst_mb = max(worst_ms, ms), max(worst_mb, mb)
        print(f"score {name:30s} median {ms:8.1f} ms   peak {mb:6.1f} MB")
    print(f"worst hostile input: {worst_ms:.0f} ms (target <= 1000), {worst_mb:.0f} MB (target <= 300)")


if __name__ == "__main__":
    main()
