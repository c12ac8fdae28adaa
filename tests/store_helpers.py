"""Helpers shared by the store tests: a fixed clock and scored answers."""

from __future__ import annotations

from datetime import UTC, datetime

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

GOOD = ("Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)). In Pre-LN the residual path is an identity, "
        "so the gradient reaches early layers unchanged; in Post-LN every gradient passes through LN. "
        "Post-LN needs warm-up; Pre-LN usually does not. Post-LN often reaches better final quality.")
POOR = "LayerNorm normalises activations."


def scored(card, text: str):
    """The scorer's result for `text` on `card`."""
    from lndrill.scoring.engine import score_answer

    return score_answer(card, text)
