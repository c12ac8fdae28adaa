"""The `update` metric: how much one Adam-sized first step changes the stack's output (Liu et al., Admin,
arXiv:2004.08249, Theorems 1-2).

Adam's first step moves every parameter by lr times the sign of its gradient (m_1 / sqrt(v_1) = g / |g|),
whatever the gradient's size. The metric is the first-order relative change of the output S under that
step, per unit of learning rate:

    update = || dS/dtheta . (-sign(grad_theta Loss)) ||_F / ||S||_F      (per seed; times lr for a step lr)

so a step of lr changes the output by about lr * update of its size. Admin shows this grows like O(N)
with depth for Post-LN (every layer's change passes through all later LayerNorms undamped) and like
O(log N) for Pre-LN (each layer's change is diluted by the growing residual stream).

Each depth is its own stack: the gradient, hence the step, of a depth-L stack depends on L. A prefix of
the deepest stack's forward pass is the depth-L stack (DeepNorm's alpha and beta change with depth, so
it runs each depth separately), then per depth one backward pass gives the step and one forward-mode
pass (one tangent) gives its effect: about sum(depths) layer passes each way.

Admin's theorem itself is about a different step: every weight moves by +-lr independently of its gradient,
and it bounds the variance (the square) of the output's change. With `random_steps` (a generator) the
step's signs are drawn at random instead, which is that setting; `admin_variance` squares it.

Toy: loss = g^T S(x) with the probe g, parameters the layers' W (one shared W, or one per layer; for
DeepNorm the beta-scaled matrix the layer uses). Transformer: the cross-entropy loss of the other
metrics, parameters every layer's W^V, W^1 and W^2 (the readout E is not part of S and does not move it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lndrill.sim.layernorm import ln_forward, ln_vjp
from lndrill.sim.placements import BY_KEY
from lndrill.sim.toy import ToyInputs, deepnorm_constants
from lndrill.sim.transformer import Block, TransformerInputs, _blocks_for_layer, readout_cotangent


def _norm(v: np.ndarray) -> np.ndarray:
    """Frobenius norm per seed (the first axis)."""
    flat = v.reshape(v.shape[0], -1)
    return np.sqrt(np.einsum("bi,bi->b", flat, flat))


def _matvec(w: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.matmul(w, v[..., None])[..., 0]


def _vecmat(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.matmul(v[..., None, :], w)[..., 0, :]


# ---------------------------------------------------------------------------------------------- toy
class _ToyLayer:
    """One toy layer's forward values, kept for the backward pass and the tangent."""

    __slots__ = ("w", "a", "h", "y", "s", "o", "s2")

    def __init__(self, w: np.ndarray, a: np.ndarray, h: np.ndarray, y: np.ndarray, s: np.ndarray,
                 o: np.ndarray | None, s2: np.ndarray | None) -> None:
        # w: the matrix the layer uses (beta-scaled for DeepNorm); a: the sublayer's input; h: tanh';
        # y, s: the LayerNorm after the add (post) or on the sublayer's input (pre: y is then a);
        # o, s2: Sandwich's LayerNorm on the sublayer's output.
        self.w, self.a, self.h, self.y, self.s, self.o, self.s2 = w, a, h, y, s, o, s2


def _toy_stack(inputs: ToyInputs, placement: str, depth: int, alpha: float, beta: float,
               eps: float) -> tuple[list[_ToyLayer], list[np.ndarray]]:
    """Run `depth` layers; the tape and the stream after each layer."""
    kind = BY_KEY[placement]
    v = inputs.x.copy()
    tape: list[_ToyLayer] = []
    stream: list[np.ndarray] = []
    for layer in range(depth):
        w = inputs.layer(layer)
        if beta != 1.0:
            w = w * beta
        if kind.norm_after_add:
            t = np.tanh(_matvec(w, v))
            y, s = ln_forward(alpha * v + t, eps)
            tape.append(_ToyLayer(w, v, 1.0 - t * t, y, s, None, None))
            v = y
        else:
            a, s1 = ln_forward(v, eps)
            t = np.tanh(_matvec(w, a))
            o, s2 = ln_forward(t, eps) if kind.norm_branch_output else (t, None)
            tape.append(_ToyLayer(w, a, 1.0 - t * t, a, s1, o if s2 is not None else None, s2))
            v = v + o
        stream.append(v)
    return tape, stream


def _random_signs(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Independent +-1 entries: Admin's step, whose direction ignores the gradient."""
    return rng.integers(0, 2, size=shape).astype(float) * 2.0 - 1.0


def _toy_depth(inputs: ToyInputs, placement: str, tape: list[_ToyLayer], v: np.ndarray, alpha: float,
               final_ln: bool, eps: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """The update metric of the stack `tape` (whose output before any final LN is v); per seed (B,)."""
    kind = BY_KEY[placement]
    out, sf = ln_forward(v, eps) if final_ln else (v, None)
    # Backward: the gradient of g^T S for every layer's W is the outer product q_l a_l^T.
    delta = inputs.probe if sf is None else ln_vjp(inputs.probe, out, sf)
    qs: list[np.ndarray] = [np.empty(0)] * len(tape)
    for index in range(len(tape) - 1, -1, -1):
        lay = tape[index]
        if kind.norm_after_add:
            d_u = ln_vjp(delta, lay.y, lay.s)
            q = d_u * lay.h
            delta = (alpha * d_u if alpha != 1.0 else d_u) + _vecmat(q, lay.w)
        else:
            d_t = ln_vjp(delta, lay.o, lay.s2) if lay.o is not None and lay.s2 is not None else delta
            q = d_t * lay.h
            delta = delta + ln_vjp(_vecmat(q, lay.w), lay.y, lay.s)
        qs[index] = q
    # The step: -sign of the gradient. Per layer, sign(q a^T) = sign(q) sign(a)^T, so the step applied to
    # the layer's own input a is -sign(q) * sum|a|; a shared W sums the layers' gradients first.
    shared_step = None
    batch, width = v.shape
    if rng is not None and inputs.shared:
        shared_step = _random_signs(rng, (batch, width, width))
    elif inputs.shared:
        grads = np.matmul(np.stack(qs, axis=2), np.stack([lay.a for lay in tape], axis=1))  # (B, D, D)
        shared_step = -np.sign(grads)

    def moved_by(lay: _ToyLayer, q: np.ndarray) -> np.ndarray:
        if shared_step is not None:
            return _matvec(shared_step, lay.a)
        if rng is not None:
            return _matvec(_random_signs(rng, (batch, width, width)), lay.a)
        return -np.sign(q) * np.abs(lay.a).sum(axis=-1, keepdims=True)

    # Forward mode: one tangent through the stack.
    t = np.zeros_like(v)
    for lay, q in zip(tape, qs, strict=True):
        if kind.norm_after_add:
            moved = moved_by(lay, q)
            t_u = (alpha * t if alpha != 1.0 else t) + lay.h * (_matvec(lay.w, t) + moved)
            t = ln_vjp(t_u, lay.y, lay.s)  # LayerNorm's Jacobian is symmetric
        else:
            t_a = ln_vjp(t, lay.y, lay.s)
            moved = moved_by(lay, q)
            t_o = lay.h * (_matvec(lay.w, t_a) + moved)
            if lay.o is not None and lay.s2 is not None:
                t_o = ln_vjp(t_o, lay.o, lay.s2)
            t = t + t_o
    if sf is not None:
        t = ln_vjp(t, out, sf)
    return _norm(t) / _norm(out)


def toy_update(inputs: ToyInputs, placement: str, depths: list[int], *, final_ln: bool = False,
               eps: float = 1e-5, random_steps: np.random.Generator | None = None) -> np.ndarray:
    """The update metric of the toy for each depth: (B, len(depths)); with `random_steps`, under Admin's
    step of independent random signs."""
    kind = BY_KEY[placement]
    final = final_ln and kind.norm_branch_input
    out = np.zeros((inputs.x.shape[0], len(depths)))
    if kind.deepnorm_scaling:
        for k, depth in enumerate(depths):
            alpha, beta = deepnorm_constants(depth)
            tape, stream = _toy_stack(inputs, placement, depth, alpha, beta, eps)
            out[:, k] = _toy_depth(inputs, placement, tape, stream[-1], alpha, final, eps, random_steps)
        return out
    tape, stream = _toy_stack(inputs, placement, max(depths), 1.0, 1.0, eps)
    for k, depth in enumerate(depths):
        out[:, k] = _toy_depth(inputs, placement, tape[:depth], stream[depth - 1], 1.0, final, eps, random_steps)
    return out


# ---------------------------------------------------------------------------------------------- transformer
def _transformer_stack(inputs: TransformerInputs, placement: str, depth: int, alpha: float, beta: float,
                       eps: float) -> tuple[list[Block[Any]], list[np.ndarray]]:
    """Run `depth` layers; the blocks (two per layer, holding their forward values) and the stream."""
    blocks: list[Block[Any]] = []
    stream: list[np.ndarray] = []
    x = inputs.x.copy()
    for layer in range(depth):
        for block in _blocks_for_layer(inputs, layer, placement, alpha, beta, eps):
            x = block.forward(x)
            blocks.append(block)
        stream.append(x)
    return blocks, stream


def _transformer_depth(inputs: TransformerInputs, placement: str, blocks: list[Block[Any]], x: np.ndarray,
                       eps: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """The update metric of the stack `blocks` (whose last block's output is x); per seed (B,)."""
    final = BY_KEY[placement].norm_branch_input
    out, sf = ln_forward(x, eps) if final else (x, None)
    g = readout_cotangent(out, inputs)
    if sf is not None:
        g = ln_vjp(g, out, sf)
    steps: list[tuple[np.ndarray, ...]] = [()] * len(blocks)
    for index in range(len(blocks) - 1, -1, -1):
        block = blocks[index]
        g_branch = block.branch_cotangent(g)
        grads = block.f.weight_grads(g_branch)
        steps[index] = tuple(-np.sign(grad) if rng is None else _random_signs(rng, grad.shape) for grad in grads)
        g = block.vjp(g, g_branch)
    t = np.zeros_like(x)
    for block, step in zip(blocks, steps, strict=True):
        t = block.tangent(t, step)
    if sf is not None:
        t = ln_vjp(t, out, sf)
    return _norm(t) / _norm(out)


def transformer_update(inputs: TransformerInputs, placement: str, depths: list[int], *,
                       eps: float = 1e-5, random_steps: np.random.Generator | None = None) -> np.ndarray:
    """The update metric of the transformer for each depth: (B, len(depths)); with `random_steps`, under
    Admin's step of independent random signs."""
    kind = BY_KEY[placement]
    out = np.zeros((inputs.x.shape[0], len(depths)))
    if kind.deepnorm_scaling:
        for k, depth in enumerate(depths):
            alpha, beta = deepnorm_constants(depth)
            blocks, stream = _transformer_stack(inputs, placement, depth, alpha, beta, eps)
            out[:, k] = _transformer_depth(inputs, placement, blocks, stream[-1], eps, random_steps)
        return out
    blocks, stream = _transformer_stack(inputs, placement, max(depths), 1.0, 1.0, eps)
    for k, depth in enumerate(depths):
        out[:, k] = _transformer_depth(inputs, placement, blocks[: 2 * depth], stream[depth - 1], eps, random_steps)
    return out


def loglog_slope(depths: list[int], values: np.ndarray) -> float | None:
    """The least-squares slope of log(value) on log(depth) over the finite positive values (None with
    fewer than two such depths): about 1 for linear growth, about 0 for logarithmic growth."""
    d = np.asarray(depths, dtype=float)
    v = np.asarray(values, dtype=float)
    keep = np.isfinite(v) & (v > 0)
    if np.count_nonzero(keep) < 2 or np.ptp(d[keep]) == 0:
        return None
    slope, _ = np.polyfit(np.log(d[keep]), np.log(v[keep]), 1)
    return float(slope)


def harmonic_slope(depths: list[int]) -> float | None:
    """The log-log slope that an exact O(log N) law, H_N = 1 + 1/2 + ... + 1/N (the sum Admin's Pre-LN bound
    is made of), reads over these depths: a yardstick for the measured Pre-LN slope."""
    harmonic = np.cumsum(1.0 / np.arange(1, max(depths) + 1))
    return loglog_slope(depths, harmonic[np.asarray(depths) - 1])
