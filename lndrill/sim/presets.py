"""Named configurations: the seed article's toy experiment and Xiong et al.'s analysed transformer."""

from __future__ import annotations

from typing import Any

import numpy as np

ARTICLE_WIDTH = 4
ARTICLE_DEPTHS: tuple[int, ...] = (1, 6, 12, 24)
ARTICLE_INPUT: tuple[float, ...] = (0.5, -0.3, 0.8, 0.1)
ARTICLE_LCG_STATE = 7

PAPER_SWEEP_DEPTHS: tuple[int, ...] = tuple(range(6, 49))
PAPER_LAYER_DEPTH = 12

_FIXED: dict[str | None, dict[str, Any]] = {
    None: {},
    "article": {"model": "toy", "width": ARTICLE_WIDTH, "shared_weights": True, "seeds": 1, "seed": 0},
    "paper": {"model": "transformer"},
}
_DEFAULTS: dict[str | None, dict[str, Any]] = {
    None: {},
    "article": {"metric": "article", "final_ln": False, "sweep_depths": ARTICLE_DEPTHS,
                "layer_depths": (ARTICLE_DEPTHS[-1],)},
    "paper": {"metric": "last-layer", "width": 64, "tokens": 8, "vocab": 128, "seeds": 8,
              "sweep_depths": PAPER_SWEEP_DEPTHS, "layer_depths": (PAPER_LAYER_DEPTH,)},
}


def preset_fixed(name: str | None) -> dict[str, Any]:
    """Config fields the preset pins down (giving a different value is an error)."""
    return dict(_FIXED.get(name, {}))


def preset_defaults(name: str | None) -> dict[str, Any]:
    """Config fields the preset suggests (explicit values win), plus its default depths."""
    return dict(_DEFAULTS.get(name, {}))


def article_lcg(count: int, state: int = ARTICLE_LCG_STATE) -> np.ndarray:
    """The article's generator: s <- (s * 1103515245 + 12345) mod 2^31, value s / 2^31 - 0.5.

    The article ran it in JavaScript, where s * 1103515245 is an IEEE double product that exceeds
    2^53 and is rounded before the modulo. Python floats follow the same IEEE rules, so this
    reproduces the article's W bit for bit; exact integer arithmetic gives a different W and does
    not reproduce the printed table.
    """
    s = float(state)
    out = np.empty(count)
    for i in range(count):
        s = (s * 1103515245.0 + 12345.0) % 2147483648.0
        out[i] = s / 2147483648.0 - 0.5
    return out


def article_weights() -> np.ndarray:
    """The article's shared D x D matrix, filled row by row from its generator."""
    return article_lcg(ARTICLE_WIDTH * ARTICLE_WIDTH).reshape(ARTICLE_WIDTH, ARTICLE_WIDTH)


def article_input() -> np.ndarray:
    """The article's input vector x."""
    return np.array(ARTICLE_INPUT, dtype=np.float64)
