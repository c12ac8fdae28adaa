"""Scorer speed: a typical 2 KB answer, a 1 MB paste, and loading the deck.

Run: python benchmarks/bench_score.py   (prints medians; targets: 2 KB <= 20 ms, 1 MB <= 1 s)
"""

from __future__ import annotations

import statistics
import time

from lndrill.cards.deck import load_deck
from lndrill.scoring.engine import rubric_for, score_answer

TYPICAL = (
    "Post-LN: x_{l+1} = LN(x_l + F(x_l)); residual add, then normalise. Pre-LN: x_{l+1} = x_l + F(LN(x_l)).\n"
    "In Post-LN the gradient crosses a LayerNorm Jacobian at every layer; at initialisation the gradient near "
    "the output is large, so a big learning rate diverges and Post-LN needs warm-up, worse when deep.\n"
    "Pre-LN 的残差是恒等通道，梯度直达输入，可以去掉 warm-up，上百层也能稳定训练。\n"
    "Trade-offs: converged Post-LN is slightly better; Pre-LN is stable but its residual stream grows so deep "
    "layers are diluted. LLMs use Pre-LN; DeepNorm and Sandwich-LN try to get both.\n"
)


def _median_ms(fn, repeat: int) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print the benchmark figures."""
    deck_ms = _median_ms(lambda: load_deck(), 5)
    deck = load_deck()
    card = deck.get("pre-vs-post-ln")
    assert card is not None
    compile_ms = _median_ms(lambda: rubric_for(card), 1)
    text2k = (TYPICAL * 3)[:2048]
    typical_ms = _median_ms(lambda: score_answer(card, text2k), 30)
    rng_words = "residual gradient warm-up Post-LN Pre-LN 梯度 恒等 identity layer norm jacobian ".split()
    big = "".join(f"{rng_words[i % len(rng_words)]} answer line {i} says something about LayerNorm.\n"
                  for i in range(16000))
    big = (big * 2)[: 1_000_000]
    big_ms = _median_ms(lambda: score_answer(card, big), 3)
    print(f"deck load ({len(deck.cards)} cards):        median {deck_ms:8.1f} ms")
    print(f"rubric compile (pre-vs-post-ln): {compile_ms:8.1f} ms (once per card)")
    print(f"score typical 2 KB answer:       median {typical_ms:8.1f} ms   target <= 20 ms")
    print(f"score 1 MB paste:                median {big_ms:8.1f} ms   target <= 1000 ms")


if __name__ == "__main__":
    main()
