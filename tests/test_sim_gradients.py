"""Every placement x metric against central finite differences of an independent plain forward pass."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from lndrill.sim import PLACEMENTS, SimConfig, sweep
from lndrill.sim.sweep import sample_inputs

EPS = 1e-5
REL = 1e-6
DEPTHS = [1, 2, 3]


# ---------------------------------------------------------------- plain reference implementations
def ln(v: np.ndarray) -> np.ndarray:
    c = v - v.mean(axis=-1, keepdims=True)
    return c / np.sqrt((c * c).mean(axis=-1, keepdims=True) + EPS)


def deepnorm_ab(n: int) -> tuple[float, float]:
    return (2 * n) ** 0.25, (8 * n) ** -0.25


def toy_stack(x: np.ndarray, ws: list[np.ndarray], placement: str, final_ln: bool) -> np.ndarray:
    """ws: the matrices actually used by each layer (already beta-scaled for DeepNorm)."""
    alpha = deepnorm_ab(len(ws))[0] if placement == "deepnorm" else 1.0
    v = x
    for w in ws:
        if placement == "post":
            v = ln(v + np.tanh(w @ v))
        elif placement == "pre":
            v = v + np.tanh(w @ ln(v))
        elif placement == "sandwich":
            v = v + ln(np.tanh(w @ ln(v)))
        else:
            v = ln(alpha * v + np.tanh(w @ v))
    if final_ln and placement in ("pre", "sandwich"):
        v = ln(v)
    return v


def transformer_stack(
    x: np.ndarray, layers: list[tuple[np.ndarray, ...]], placement: str, skip_last_ln: bool = False
) -> np.ndarray:
    """layers: (W^V, W^1, W^2) actually used (beta-scaled for DeepNorm); x is (n, d).

    Every placement's stack ends in a LayerNorm; skip_last_ln returns that LayerNorm's input instead.
    """
    last_ln = ln
    blocks = 2 * len(layers)
    alpha = deepnorm_ab(len(layers))[0] if placement == "deepnorm" else 1.0

    def attn(z: np.ndarray, wv: np.ndarray) -> np.ndarray:
        return np.repeat(z.mean(axis=0, keepdims=True) @ wv, z.shape[0], axis=0)

    def ffn(z: np.ndarray, w1: np.ndarray, w2: np.ndarray) -> np.ndarray:
        return np.maximum(z @ w1, 0.0) @ w2

    for wv, w1, w2 in layers:
        for f in (lambda z, wv=wv: attn(z, wv), lambda z, w1=w1, w2=w2: ffn(z, w1, w2)):
            blocks -= 1
            norm = (lambda z: z) if skip_last_ln and blocks == 0 else ln
            if placement == "post":
                x = norm(x + f(x))
            elif placement == "pre":
                x = x + f(ln(x))
            elif placement == "sandwich":
                x = x + ln(f(ln(x)))
            else:
                x = norm(alpha * x + f(x))
    if placement in ("pre", "sandwich"):
        return x if skip_last_ln else last_ln(x)
    return x


def sum_squares_minus_size(u: np.ndarray) -> float:
    """sum(LN(u)^2) minus its constant part (rows x D), written without cancellation:
    each row contributes D var/(var + eps) = D - D eps/(var + eps)."""
    c = u - u.mean(axis=-1, keepdims=True)
    var = (c * c).mean(axis=-1)
    return float(np.sum(-u.shape[-1] * EPS / (var + EPS)))


def cross_entropy(out: np.ndarray, readout: np.ndarray, targets: np.ndarray) -> float:
    logits = out @ readout
    m = logits.max(axis=-1, keepdims=True)
    lse = (m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True)))[:, 0]
    return float(np.mean(lse - logits[np.arange(len(targets)), targets]))


def fd_gradient(f: Callable[[np.ndarray], float], p: np.ndarray, h: float = 1e-3) -> np.ndarray:
    """Central differences with one Richardson step (error O(h^4)), in float64."""
    grad = np.zeros(p.size)
    flat = p.reshape(-1)
    for i in range(p.size):
        def diff(step: float, i: int = i) -> float:
            up, down = flat.copy(), flat.copy()
            up[i] += step
            down[i] -= step
            return (f(up.reshape(p.shape)) - f(down.reshape(p.shape))) / (2 * step)

        grad[i] = (4 * diff(h / 2) - diff(h)) / 3
    return grad.reshape(p.shape)


def fd_jacobian(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray, h: float = 1e-3) -> np.ndarray:
    cols = []
    flat = x.reshape(-1)
    for i in range(x.size):
        def diff(step: float, i: int = i) -> np.ndarray:
            up, down = flat.copy(), flat.copy()
            up[i] += step
            down[i] -= step
            return (f(up.reshape(x.shape)) - f(down.reshape(x.shape))).reshape(-1) / (2 * step)

        cols.append((4 * diff(h / 2) - diff(h)) / 3)
    return np.stack(cols, axis=1)


def assert_rel(actual: float, expected: float, what: str) -> None:
    assert abs(actual - expected) <= REL * abs(expected), f"{what}: {actual!r} vs finite differences {expected!r}"


# ---------------------------------------------------------------- toy model
TOY_VARIANTS = [
    pytest.param(p, shared, final_ln, id=f"{p}-{'shared' if shared else 'untied'}{'-finalLN' if final_ln else ''}")
    for p in PLACEMENTS
    for shared in (True, False)
    for final_ln in ((False, True) if p in ("pre", "sandwich") else (False,))
]


def toy_setup(placement: str, shared: bool, final_ln: bool, metric: str, seed: int, depths: list[int]):
    cfg = SimConfig(model="toy", width=4, depths=depths, placements=(placement,), metric=metric, seed=seed,
                    shared_weights=shared, final_ln=final_ln)
    inputs = sample_inputs(cfg)

    def used_weights(depth: int) -> list[np.ndarray]:
        beta = deepnorm_ab(depth)[1] if placement == "deepnorm" else 1.0
        return [inputs.layer(i)[0] * beta for i in range(depth)]

    return cfg, inputs, used_weights


@pytest.mark.parametrize(("placement", "shared", "final_ln"), TOY_VARIANTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_toy_input_metrics_match_finite_differences(placement: str, shared: bool, final_ln: bool, seed: int):
    cfg, inputs, used = toy_setup(placement, shared, final_ln, "article", seed, DEPTHS)
    result = sweep(cfg)
    x = inputs.x[0]
    for k, depth in enumerate(DEPTHS):
        ws = used(depth)
        jac = fd_jacobian(lambda xx, ws=ws: toy_stack(xx, ws, placement, final_ln), x)
        grad = fd_gradient(lambda xx, ws=ws: float(np.sum(toy_stack(xx, ws, placement, final_ln) ** 2)), x, h=1e-2)
        assert_rel(result.companion.values[placement][k], np.linalg.norm(jac), f"jacobian depth {depth}")
        assert_rel(result.values[placement][k], np.linalg.norm(grad), f"article depth {depth}")


@pytest.mark.parametrize(("placement", "shared", "final_ln"), TOY_VARIANTS)
def test_toy_parameter_metrics_match_finite_differences(placement: str, shared: bool, final_ln: bool):
    depth = 3
    cfg, inputs, used = toy_setup(placement, shared, final_ln, "param", 0, [depth])
    per_layer = sweep(cfg).values[placement]
    last = sweep(SimConfig(model="toy", width=4, depths=DEPTHS, placements=(placement,), metric="last-layer",
                           shared_weights=shared, final_ln=final_ln)).values[placement]
    x, g = inputs.x[0], inputs.probe[0]
    ws = used(depth)
    for layer in range(depth):
        def loss(w: np.ndarray, layer: int = layer) -> float:
            return float(g @ toy_stack(x, ws[:layer] + [w] + ws[layer + 1:], placement, final_ln))

        assert_rel(per_layer[layer], np.linalg.norm(fd_gradient(loss, ws[layer])), f"param layer {layer + 1}")
    for k, d in enumerate(DEPTHS):
        ws_d = used(d)

        def loss_last(w: np.ndarray, ws_d: list[np.ndarray] = ws_d) -> float:
            return float(g @ toy_stack(x, ws_d[:-1] + [w], placement, final_ln))

        assert_rel(last[k], np.linalg.norm(fd_gradient(loss_last, ws_d[-1])), f"last-layer depth {d}")


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_toy_stream_matches_plain_forward(placement: str):
    cfg, inputs, used = toy_setup(placement, False, False, "stream", 3, [4])
    values = sweep(cfg).values[placement]
    ws = used(4)
    alpha = deepnorm_ab(4)[0] if placement == "deepnorm" else 1.0
    v = inputs.x[0]
    for layer, w in enumerate(ws):
        if placement in ("post", "deepnorm"):
            u = alpha * v + np.tanh(w @ v)
            expected, v = u @ u / 4, ln(u)
        else:
            v = toy_stack(v, [w], placement, False) if placement == "pre" else v + ln(np.tanh(w @ ln(v)))
            expected = v @ v / 4
        assert values[layer] == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- transformer model
def transformer_setup(placement: str, metric: str, depths: list[int], seed: int = 0):
    cfg = SimConfig(model="transformer", width=5, tokens=3, vocab=7, depths=depths, placements=(placement,),
                    metric=metric, seed=seed)
    inputs = sample_inputs(cfg)

    def used(depth: int) -> list[tuple[np.ndarray, ...]]:
        beta = deepnorm_ab(depth)[1] if placement == "deepnorm" else 1.0
        return [tuple(m * beta for m in inputs.layer(i)) for i in range(depth)]

    def unbatched(layers: list[tuple[np.ndarray, ...]]) -> list[tuple[np.ndarray, ...]]:
        return [tuple(m[0] for m in lay) for lay in layers]

    return cfg, inputs, lambda depth: unbatched(used(depth))


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_transformer_input_metrics_match_finite_differences(placement: str):
    depths = [1, 2]
    cfg, inputs, used = transformer_setup(placement, "article", depths)
    result = sweep(cfg)
    x = inputs.x[0]
    for k, depth in enumerate(depths):
        layers = used(depth)
        jac = fd_jacobian(lambda xx, layers=layers: transformer_stack(xx, layers, placement), x)
        # sum(S^2) sits near n*d with a gradient of order eps; differencing it minus that constant keeps
        # round-off far below the 1e-6 tolerance.
        grad = fd_gradient(
            lambda xx, layers=layers: sum_squares_minus_size(transformer_stack(xx, layers, placement, True)), x
        )
        assert_rel(result.companion.values[placement][k], np.linalg.norm(jac), f"jacobian depth {depth}")
        assert_rel(result.values[placement][k], np.linalg.norm(grad), f"article depth {depth}")


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_transformer_parameter_metrics_match_finite_differences(placement: str):
    depth = 3
    cfg, inputs, used = transformer_setup(placement, "param", [depth], seed=2)
    per_layer = sweep(cfg).values[placement]
    last = sweep(SimConfig(model="transformer", width=5, tokens=3, vocab=7, depths=DEPTHS, seed=2,
                           placements=(placement,), metric="last-layer")).values[placement]
    x, e, targets = inputs.x[0], inputs.readout[0], inputs.targets[0]

    def w2_grad(layers: list[tuple[np.ndarray, ...]], index: int) -> np.ndarray:
        def loss(w2: np.ndarray) -> float:
            changed = list(layers)
            changed[index] = (layers[index][0], layers[index][1], w2)
            return cross_entropy(transformer_stack(x, changed, placement), e, targets)

        return fd_gradient(loss, layers[index][2])

    layers = used(depth)
    for layer in range(depth):
        assert_rel(per_layer[layer], np.linalg.norm(w2_grad(layers, layer)), f"param layer {layer + 1}")
    for k, d in enumerate(DEPTHS):
        assert_rel(last[k], np.linalg.norm(w2_grad(used(d), d - 1)), f"last-layer depth {d}")


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_transformer_stream_matches_plain_forward(placement: str):
    cfg, inputs, used = transformer_setup(placement, "stream", [3])
    values = sweep(cfg).values[placement]
    layers = used(3)
    x = inputs.x[0]
    alpha = deepnorm_ab(3)[0] if placement == "deepnorm" else 1.0
    for index in range(3):
        if placement in ("post", "deepnorm"):
            # the FFN block's sum before its LayerNorm (x^{post,5}); Post-LN is DeepNorm with alpha = 1
            h = _deep_prefix(x, layers[:index], placement, alpha)
            wv, w1, w2 = layers[index]
            x3 = ln(alpha * h + np.repeat(h.mean(axis=0, keepdims=True) @ wv, h.shape[0], axis=0))
            summed = alpha * x3 + np.maximum(x3 @ w1, 0.0) @ w2
        else:
            summed = _stream_prefix(x, layers[: index + 1], placement)
        expected = np.mean(np.sum(summed**2, axis=-1)) / x.shape[1]
        assert values[index] == pytest.approx(expected, rel=1e-10)


def _deep_prefix(x: np.ndarray, layers: list[tuple[np.ndarray, ...]], placement: str, alpha: float) -> np.ndarray:
    """The stream after some DeepNorm layers, with alpha fixed by the full stack's depth."""
    for wv, w1, w2 in layers:
        x = ln(alpha * x + np.repeat(x.mean(axis=0, keepdims=True) @ wv, x.shape[0], axis=0))
        x = ln(alpha * x + np.maximum(x @ w1, 0.0) @ w2)
    return x


def _stream_prefix(x: np.ndarray, layers: list[tuple[np.ndarray, ...]], placement: str) -> np.ndarray:
    """Pre/Sandwich stream x_l (no final LN)."""
    for wv, w1, w2 in layers:
        def attn(z: np.ndarray, wv: np.ndarray = wv) -> np.ndarray:
            return np.repeat(z.mean(axis=0, keepdims=True) @ wv, z.shape[0], axis=0)

        def ffn(z: np.ndarray, w1: np.ndarray = w1, w2: np.ndarray = w2) -> np.ndarray:
            return np.maximum(z @ w1, 0.0) @ w2

        for f in (attn, ffn):
            x = x + (ln(f(ln(x))) if placement == "sandwich" else f(ln(x)))
    return x
