"""The training model's hand-written gradients against central finite differences, in float64, for every
placement: every parameter tensor (a sample of its entries) and the whole gradient along a random direction."""

from __future__ import annotations

import numpy as np
import pytest

from lndrill.sim import PLACEMENTS
from lndrill.train.model import Model, ModelShape, init_params
from lndrill.train.task import reverse_batch

REL = 1e-6


def setup(placement: str):
    shape = ModelShape(placement=placement, depth=2, width=8, heads=2, vocab=5, length=4)
    params = init_params(shape, [7, 8], dtype=np.float64)
    rng = np.random.default_rng(3)
    # Move gains and biases off their initial values so their gradients are generic.
    for name, p in params.items():
        if name.endswith((".g", ".b", "b1", "b2")):
            p += 0.3 * rng.standard_normal(p.shape)
    batches = [reverse_batch(rng, 3, shape.length, shape.vocab) for _ in range(2)]
    tokens = np.stack([b[0] for b in batches])
    targets = np.stack([b[1] for b in batches])
    return Model(shape), params, tokens, targets


def total_loss(model: Model, params, tokens, targets) -> float:
    loss, _ = model.loss(params, tokens, targets, grads=False)
    return float(loss.sum())


def central(f, h: float = 1e-5) -> float:
    """d/dh f(h) at 0 with one Richardson step."""
    def diff(s: float) -> float:
        return (f(s) - f(-s)) / (2 * s)

    return (4 * diff(h / 2) - diff(h)) / 3


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_every_parameter_gradient_matches_finite_differences(placement: str):
    model, params, tokens, targets = setup(placement)
    _, grads = model.loss(params, tokens, targets)
    assert grads is not None and grads.keys() == params.keys()
    rng = np.random.default_rng(0)
    worst = 0.0
    for name, p in params.items():
        assert grads[name].shape == p.shape, name
        picks = rng.choice(p.size, size=min(p.size, 6), replace=False)
        got, want = [], []
        for flat in picks:
            index = np.unravel_index(flat, p.shape)
            original = p[index]

            def f(s: float, index=index, original=original, p=p) -> float:
                p[index] = original + s
                try:
                    return total_loss(model, params, tokens, targets)
                finally:
                    p[index] = original

            got.append(grads[name][index])
            want.append(central(f))
        err = np.linalg.norm(np.subtract(got, want)) / np.linalg.norm(want)
        worst = max(worst, err)
        assert err <= REL, f"{placement} {name}: relative error {err:.2e}"
    assert worst <= REL


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_whole_gradient_matches_a_directional_derivative(placement: str):
    model, params, tokens, targets = setup(placement)
    _, grads = model.loss(params, tokens, targets)
    assert grads is not None
    rng = np.random.default_rng(1)
    direction = {k: rng.standard_normal(p.shape) for k, p in params.items()}
    base = {k: p.copy() for k, p in params.items()}

    def f(s: float) -> float:
        moved = {k: base[k] + s * direction[k] for k in base}
        return total_loss(model, moved, tokens, targets)

    want = central(f)
    got = sum(float(np.sum(grads[k] * direction[k])) for k in params)
    assert abs(got - want) <= REL * abs(want), (got, want)


def test_runs_are_independent():
    """Each run's gradient depends on its own parameters and batch only."""
    model, params, tokens, targets = setup("post")
    _, both = model.loss(params, tokens, targets)
    one = {k: p[:1].copy() for k, p in params.items()}
    _, alone = model.loss(one, tokens[:1], targets[:1])
    assert both is not None and alone is not None
    for k in params:
        np.testing.assert_allclose(both[k][:1], alone[k], rtol=1e-12, atol=1e-15)
