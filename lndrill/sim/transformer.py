"""Xiong et al.'s analysed Transformer (arXiv:2002.04745 §3), with analytic derivatives.

n tokens of width d. Each layer has two residual blocks: attention, then FFN.
  attention: uniform (W^Q = W^K = 0), so Attn(z)_i = mean_j(z_j) W^V for every token i
  FFN:       ReLU(z W^1) W^2
All d x d weights N(0, 1/d), zero biases, LN gain 1. Input tokens are LN-normalised Gaussians
(||x_i||^2 = d). Loss: mean over tokens of softmax cross-entropy of S E (E: d x V readout, N(0, 1/d))
against random targets, S the stack's output (after the final LN for Pre-LN and Sandwich).

Blocks wrap a sublayer F according to the placement: post LN(x + F(x)); pre x + F(LN(x));
sandwich x + LN(F(LN(x))); deepnorm LN(alpha x + F(x)) with W^V, W^1, W^2 scaled by beta at init
(gradients are reported for the scaled matrices, the parameters DeepNet trains). DeepNet scales both the
value and the output projection by beta, so its attention branch carries beta^2; this model has a single
W^V standing for both (W^O is folded in, as in Xiong et al.'s analysis) and scales it by beta once.

Forward mode pushes K = n d input tangents (the full input Jacobian) through the stack; reverse mode
back-propagates the loss by hand. Row convention: tokens are rows, a linear map is z @ W.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from lndrill.sim.layernorm import grad_sum_squares_of_ln, ln_forward, ln_jvp, ln_vjp
from lndrill.sim.placements import BY_KEY
from lndrill.sim.toy import deepnorm_constants


@dataclass(frozen=True)
class TransformerInputs:
    """A batch of seeds: x (B, n, d); weights (B, L, 3, d, d) as W^V, W^1, W^2; readout (B, d, V);
    targets (B, n) integer classes."""

    x: np.ndarray
    weights: np.ndarray
    readout: np.ndarray
    targets: np.ndarray

    def layer(self, index: int, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(W^V, W^1, W^2) of layer ``index`` (0-based), each (B, d, d), times ``scale``."""
        w = self.weights[:, index]
        if scale != 1.0:
            w = w * scale
        return w[:, 0], w[:, 1], w[:, 2]


def sample_transformer_inputs(
    width: int, tokens: int, vocab: int, depth: int, seed: int, seeds: int
) -> TransformerInputs:
    """Draw one set of inputs per seed (seed index i uses default_rng(seed + i)); layers are nested."""
    xs, ws, es, ts = [], [], [], []
    scale = 1.0 / np.sqrt(width)
    for i in range(seeds):
        rng = np.random.default_rng(seed + i)
        x, _ = ln_forward(rng.standard_normal((tokens, width)), 0.0)
        xs.append(x)
        es.append(rng.standard_normal((width, vocab)) * scale)
        ts.append(rng.integers(0, vocab, size=tokens))
        ws.append(rng.standard_normal((depth, 3, width, width)) * scale)
    return TransformerInputs(x=np.stack(xs), weights=np.stack(ws), readout=np.stack(es), targets=np.stack(ts))


def _reduce_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum a cotangent over the token axis when the value it belongs to was broadcast over tokens."""
    return g.sum(axis=1, keepdims=True) if shape[1] == 1 and g.shape[1] != 1 else g


def _t(w: np.ndarray) -> np.ndarray:
    """W^T with a token axis inserted, for tangents shaped (B, n, d, K)."""
    return np.swapaxes(w, -1, -2)[:, None]


class Attention:
    """Uniform attention: every token receives mean_j(z_j) W^V; output shape (B, 1, d)."""

    def __init__(self, wv: np.ndarray) -> None:
        self.wv = wv

    def forward(self, z: np.ndarray) -> np.ndarray:
        """Apply the sublayer."""
        self.n = z.shape[1]
        self.mean = z.mean(axis=1, keepdims=True)
        return np.matmul(self.mean, self.wv)

    def jvp(self, tangent: np.ndarray) -> np.ndarray:
        """Push (B, n, d, K) tangents through; returns (B, 1, d, K)."""
        return np.matmul(_t(self.wv), tangent.mean(axis=1, keepdims=True))

    def vjp(self, g: np.ndarray) -> np.ndarray:
        """Cotangent at the input (broadcast over tokens) from the (B, 1, d) output cotangent."""
        return np.matmul(g, np.swapaxes(self.wv, -1, -2)) / self.n

    def weight_grads(self, g: np.ndarray) -> tuple[np.ndarray, ...]:
        """(dLoss/dW^V,) from the (B, 1, d) output cotangent: mean(z)^T g."""
        return (np.matmul(np.swapaxes(self.mean, -1, -2), g),)

    def tangent(self, t: np.ndarray, steps: tuple[np.ndarray, ...]) -> np.ndarray:
        """The output's change for an input change t (B, n, d) and a weight change steps = (dW^V,)."""
        return np.matmul(t.mean(axis=1, keepdims=True), self.wv) + np.matmul(self.mean, steps[0])


class FeedForward:
    """ReLU(z W^1) W^2 applied to every token."""

    def __init__(self, w1: np.ndarray, w2: np.ndarray) -> None:
        self.w1, self.w2 = w1, w2

    def forward(self, z: np.ndarray) -> np.ndarray:
        """Apply the sublayer."""
        self.z = z
        pre = np.matmul(z, self.w1)
        self.mask = pre > 0
        self.hidden = pre * self.mask
        return np.matmul(self.hidden, self.w2)

    def jvp(self, tangent: np.ndarray) -> np.ndarray:
        """Push (B, n, d, K) tangents through."""
        inner = np.matmul(_t(self.w1), tangent) * self.mask[..., None]
        return np.matmul(_t(self.w2), inner)

    def vjp(self, g: np.ndarray) -> np.ndarray:
        """Cotangent at the input from the output cotangent g (B, n, d)."""
        return np.matmul(np.matmul(g, np.swapaxes(self.w2, -1, -2)) * self.mask, np.swapaxes(self.w1, -1, -2))

    def weight_grads(self, g: np.ndarray) -> tuple[np.ndarray, ...]:
        """(dLoss/dW^1, dLoss/dW^2) from the output cotangent g (B, n, d)."""
        g_pre = np.matmul(g, np.swapaxes(self.w2, -1, -2)) * self.mask
        return (np.matmul(np.swapaxes(self.z, -1, -2), g_pre), np.matmul(np.swapaxes(self.hidden, -1, -2), g))

    def tangent(self, t: np.ndarray, steps: tuple[np.ndarray, ...]) -> np.ndarray:
        """The output's change for an input change t (B, n, d) and weight changes steps = (dW^1, dW^2)."""
        inner = (np.matmul(t, self.w1) + np.matmul(self.z, steps[0])) * self.mask
        return np.matmul(inner, self.w2) + np.matmul(self.hidden, steps[1])

    def w2_grad_norm(self, g: np.ndarray) -> np.ndarray:
        """||sum_i hidden_i^T g_i||_F per seed, via token Gram matrices (no d x d product)."""
        gram_h = np.matmul(self.hidden, np.swapaxes(self.hidden, -1, -2))
        gram_g = np.matmul(g, np.swapaxes(g, -1, -2))
        return np.sqrt(np.maximum(np.einsum("bij,bij->b", gram_h, gram_g), 0.0))


Sublayer = TypeVar("Sublayer", Attention, FeedForward)


class Block(Generic[Sublayer]):
    """One residual block: a sublayer wrapped according to the placement."""

    def __init__(self, sublayer: Sublayer, placement: str, alpha: float, eps: float) -> None:
        self.f: Sublayer = sublayer
        self.kind, self.alpha, self.eps = BY_KEY[placement], alpha, eps

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Apply the block; keeps what the derivatives need."""
        p = self.kind
        if p.norm_after_add:
            self.f_out = self.f.forward(x)
            self.u = (self.alpha * x if p.deepnorm_scaling else x) + self.f_out
            self.y, self.s = ln_forward(self.u, self.eps)
            return self.y
        self.a, self.s1 = ln_forward(x, self.eps)
        self.f_out = self.f.forward(self.a)
        if p.norm_branch_output:
            self.o, self.s2 = ln_forward(self.f_out, self.eps)
            return x + self.o
        return x + self.f_out

    @property
    def pre_ln_sum(self) -> np.ndarray:
        """For post/deepnorm: the residual sum before the block's LN (x^{post,5} for the FFN block)."""
        return self.u

    def jvp(self, tangent: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Push tangents through; also returns the tangent of the pre-LN sum for post/deepnorm."""
        p = self.kind
        if p.norm_after_add:
            t_u = (self.alpha * tangent if p.deepnorm_scaling else tangent) + self.f.jvp(tangent)
            return ln_jvp(t_u, self.y, self.s), t_u
        t_f = self.f.jvp(ln_jvp(tangent, self.a, self.s1))
        if p.norm_branch_output:
            t_f = ln_jvp(t_f, self.o, self.s2)
        return tangent + t_f, None

    def branch_cotangent(self, g: np.ndarray) -> np.ndarray:
        """Cotangent at the sublayer's output from the block-output cotangent g."""
        p = self.kind
        if p.norm_after_add:
            return _reduce_to(ln_vjp(g, self.y, self.s), self.f_out.shape)
        g = _reduce_to(g, self.f_out.shape)
        return ln_vjp(g, self.o, self.s2) if p.norm_branch_output else g

    def tangent(self, t: np.ndarray, steps: tuple[np.ndarray, ...]) -> np.ndarray:
        """The block output's change for an input change t (B, n, d) and a change `steps` of the
        sublayer's weights (first order; one direction, where `jvp` pushes many)."""
        p = self.kind
        if p.norm_after_add:
            t_u = (self.alpha * t if p.deepnorm_scaling else t) + self.f.tangent(t, steps)
            return ln_vjp(t_u, self.y, self.s)  # LayerNorm's Jacobian is symmetric
        t_f = self.f.tangent(ln_vjp(t, self.a, self.s1), steps)
        if p.norm_branch_output:
            t_f = ln_vjp(t_f, self.o, self.s2)
        return t + t_f

    def vjp(self, g: np.ndarray, g_branch: np.ndarray) -> np.ndarray:
        """Cotangent at the block input; g_branch is ``branch_cotangent(g)``."""
        p = self.kind
        g_in = self.f.vjp(g_branch)
        if p.norm_after_add:
            g_sum = ln_vjp(g, self.y, self.s)
            return (self.alpha * g_sum if p.deepnorm_scaling else g_sum) + g_in
        return g + ln_vjp(g_in, self.a, self.s1)


def readout_cotangent(out: np.ndarray, inputs: TransformerInputs) -> np.ndarray:
    """d(loss)/d(S): loss = mean over tokens of cross-entropy(S E, targets)."""
    logits = np.matmul(out, inputs.readout)
    logits -= logits.max(axis=-1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(axis=-1, keepdims=True)
    b_idx, t_idx = np.indices(inputs.targets.shape)
    prob[b_idx, t_idx, inputs.targets] -= 1.0
    prob /= out.shape[1]
    return np.matmul(prob, np.swapaxes(inputs.readout, -1, -2))


def _frob(t: np.ndarray) -> np.ndarray:
    flat = t.reshape(t.shape[0], -1)
    return np.sqrt(np.einsum("bi,bi->b", flat, flat))


@dataclass
class TransformerForward:
    """Per-seed results of one pass; columns follow the recorded depths (or layers for stream)."""

    jacobian: np.ndarray | None
    article: np.ndarray | None
    last_layer: np.ndarray | None
    stream: np.ndarray | None


def _blocks_for_layer(
    inputs: TransformerInputs, layer: int, placement: str, alpha: float, beta: float, eps: float
) -> tuple[Block[Attention], Block[FeedForward]]:
    wv, w1, w2 = inputs.layer(layer, beta)
    return (
        Block(Attention(wv), placement, alpha, eps),
        Block(FeedForward(w1, w2), placement, alpha, eps),
    )


def transformer_forward(
    inputs: TransformerInputs,
    placement: str,
    depth: int,
    record: list[int],
    *,
    want_jacobian: bool = False,
    want_article: bool = False,
    want_last_layer: bool = False,
    want_stream: bool = False,
    deepnorm_depth: int | None = None,
    eps: float = 1e-5,
) -> TransformerForward:
    """Run ``depth`` layers once, recording metrics after each depth in ``record``.

    Stream: mean over tokens of ||x_l||^2 / d after each layer; for post/deepnorm the FFN block's sum
    before its LN (Xiong's x^{post,5}), since the LN output itself always has ||x||^2 / d = 1.
    """
    batch, n, d = inputs.x.shape
    kind = BY_KEY[placement]
    alpha, beta = deepnorm_constants(deepnorm_depth or depth) if kind.deepnorm_scaling else (1.0, 1.0)
    final_ln = kind.norm_branch_input
    slot = {L: k for k, L in enumerate(record)}
    want_jacobian = want_jacobian or want_article
    # A metric not asked for gets a buffer with no columns (never written) and is returned as None.
    n_rec = len(record)
    jac = np.zeros((batch, n_rec if want_jacobian else 0))
    art = np.zeros((batch, n_rec if want_article else 0))
    last = np.zeros((batch, n_rec if want_last_layer else 0))
    stream = np.zeros((batch, depth if want_stream else 0))
    x = inputs.x.copy()
    # d(x)/d(input), one tangent column per input entry (none when the Jacobian is not wanted).
    tangent = np.broadcast_to(np.eye(n * d).reshape(n, d, n * d), (batch, n, d, n * d)).copy() \
        if want_jacobian else np.zeros((batch, n, d, 0))
    for layer in range(depth):
        attn, ffn = _blocks_for_layer(inputs, layer, placement, alpha, beta, eps)
        x = ffn.forward(attn.forward(x))
        here = layer + 1
        t_u = None
        if want_jacobian:
            tangent, _ = attn.jvp(tangent)
            tangent, t_u = ffn.jvp(tangent)
        if want_stream:
            summed = ffn.pre_ln_sum if kind.norm_after_add else x
            stream[:, layer] = np.mean(np.sum(summed * summed, axis=-1), axis=-1) / d
        if here not in slot:
            continue
        k = slot[here]
        if final_ln:
            out, sf = ln_forward(x, eps)
        else:
            out = x
        if want_last_layer:
            g = readout_cotangent(out, inputs)
            if final_ln:
                g = ln_vjp(g, out, sf)
            last[:, k] = ffn.f.w2_grad_norm(ffn.branch_cotangent(g))
        if want_jacobian:
            if final_ln:
                u, t_u = x, tangent
                jac[:, k] = _frob(ln_jvp(tangent, out, sf))
            else:
                u = ffn.pre_ln_sum
                jac[:, k] = _frob(tangent)
            if want_article and t_u is not None:  # t_u: the tangent of u, always there on this path
                g_u = grad_sum_squares_of_ln(u, eps)
                art[:, k] = np.sqrt(np.sum(np.einsum("bnd,bndk->bk", g_u, t_u) ** 2, axis=-1))
    return TransformerForward(jacobian=jac if want_jacobian else None, article=art if want_article else None,
                              last_layer=last if want_last_layer else None,
                              stream=stream if want_stream else None)


def transformer_layer_gradients(
    inputs: TransformerInputs, placement: str, depth: int, *, eps: float = 1e-5
) -> np.ndarray:
    """Per-layer ||dLoss/dW^{2,l}||_F for l = 1..depth: one forward and one backward pass; (B, depth)."""
    batch = inputs.x.shape[0]
    kind = BY_KEY[placement]
    alpha, beta = deepnorm_constants(depth) if kind.deepnorm_scaling else (1.0, 1.0)
    blocks: list[Block[Any]] = []
    x = inputs.x.copy()
    for layer in range(depth):
        for block in _blocks_for_layer(inputs, layer, placement, alpha, beta, eps):
            x = block.forward(x)
            blocks.append(block)
    if kind.norm_branch_input:
        out, sf = ln_forward(x, eps)
        g = ln_vjp(readout_cotangent(out, inputs), out, sf)
    else:
        g = readout_cotangent(x, inputs)
    norms = np.zeros((batch, depth))
    for index in range(len(blocks) - 1, -1, -1):
        block = blocks[index]
        g_branch = block.branch_cotangent(g)
        if isinstance(block.f, FeedForward):
            norms[:, index // 2] = block.f.w2_grad_norm(g_branch)
        g = block.vjp(g, g_branch)
    return norms
