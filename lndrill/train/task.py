"""The synthetic task: reverse a short sequence over a small vocabulary.

Position i of the output must name the token at position n - 1 - i of the input, so every position needs
information from another one: no per-token map solves it, attention must route it (with the learned
position embeddings telling positions apart). Chance level is ln(vocab) nats per token.
"""

from __future__ import annotations

import numpy as np


def reverse_batch(rng: np.random.Generator, batch: int, length: int, vocab: int) -> tuple[np.ndarray, np.ndarray]:
    """(tokens, targets), each (batch, length) integers in [0, vocab)."""
    tokens = rng.integers(0, vocab, size=(batch, length))
    return tokens, tokens[:, ::-1].copy()
