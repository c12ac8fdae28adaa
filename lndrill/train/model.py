"""A small Transformer encoder in NumPy with a hand-written backward pass, batched over independent runs.

Every parameter has a leading run axis R: R models (seeds, learning rates, warm-ups of one placement and
shape) train side by side in the same NumPy calls, each on its own batch, and never mix (no operation sums
over R), so R runs cost little more Python than one.

Per layer, two residual blocks, each wrapping a sublayer F by the placement:
  attention  F(z) = concat_h softmax(q_h k_h^T / sqrt(d_h)) v_h  W^O, with [q k v] = z W^QKV (no biases)
  FFN        F(z) = ReLU(z W^1 + b^1) W^2 + b^2 (hidden width 4d)
  post       x <- LN(x + F(x))
  pre        x <- x + F(LN(x))            (a final LN before the readout)
  sandwich   x <- x + LN(F(LN(x)))        (a final LN before the readout)
  deepnorm   x <- LN(alpha x + F(x)), alpha = (2N)^(1/4); W^V, W^O, W^1, W^2 scaled by beta = (8N)^(-1/4)
LayerNorms have a gain and a bias. Input: token embeddings plus learned position embeddings; readout: a
linear map to the vocabulary and softmax cross-entropy, averaged over every position of the batch.

Weights are N(0, 1/fan_in) (embeddings N(0, 1)), biases 0, LN gains 1. Shapes: activations (R, M, d)
with M = batch x length tokens; attention reshapes them to (R, batch, heads, length, d_h).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from lndrill.sim.placements import BY_KEY

Params = dict[str, np.ndarray]

LN_EPS = 1e-5


@dataclass(frozen=True)
class ModelShape:
    """What fixes the parameter shapes and the forward pass (not the optimiser or the data)."""

    placement: str
    depth: int
    width: int
    heads: int
    vocab: int
    length: int

    @property
    def hidden(self) -> int:
        """The FFN's hidden width."""
        return 4 * self.width

    @property
    def deepnorm(self) -> tuple[float, float]:
        """DeepNet's encoder (alpha, beta) for this depth, or (1, 1) for other placements."""
        if BY_KEY[self.placement].deepnorm_scaling:
            return (2.0 * self.depth) ** 0.25, (8.0 * self.depth) ** -0.25
        return 1.0, 1.0

    def ln_names(self, layer: int, block: str) -> list[str]:
        """The LayerNorms of one block: "ln" (after the add, or on the sublayer's input) and, for
        Sandwich, "ln2" on the sublayer's output."""
        names = [f"{layer}.{block}.ln"]
        if BY_KEY[self.placement].norm_branch_output:
            names.append(f"{layer}.{block}.ln2")
        return names

    def parameter_count(self) -> int:
        """Parameters of one model."""
        d, f = self.width, self.hidden
        per_layer = 4 * d * d + 2 * d * f + f + d + 2 * d * len(self.ln_names(0, "attn")) * 2
        final = 2 * d if BY_KEY[self.placement].norm_branch_input else 0
        return (self.vocab + self.length) * d + self.depth * per_layer + final + d * self.vocab + self.vocab


def init_params(shape: ModelShape, seeds: list[int], dtype: Any = np.float32) -> Params:
    """Parameters for one run per seed (the same seed draws the same weights for every placement, before
    DeepNorm's beta scaling)."""
    d, f, v = shape.width, shape.hidden, shape.vocab
    _, beta = shape.deepnorm
    per_run: list[Params] = []
    for seed in seeds:
        rng = np.random.default_rng([seed, 0])
        p: Params = {
            "emb": rng.standard_normal((v, d)),
            "pos": rng.standard_normal((shape.length, d)),
        }
        for layer in range(shape.depth):
            qkv = rng.standard_normal((d, 3 * d)) / np.sqrt(d)
            qkv[:, 2 * d:] *= beta
            p[f"{layer}.attn.qkv"] = qkv
            p[f"{layer}.attn.o"] = rng.standard_normal((d, d)) / np.sqrt(d) * beta
            p[f"{layer}.ffn.w1"] = rng.standard_normal((d, f)) / np.sqrt(d) * beta
            p[f"{layer}.ffn.b1"] = np.zeros((1, f))
            p[f"{layer}.ffn.w2"] = rng.standard_normal((f, d)) / np.sqrt(f) * beta
            p[f"{layer}.ffn.b2"] = np.zeros((1, d))
            for block in ("attn", "ffn"):
                for name in shape.ln_names(layer, block):
                    p[name + ".g"] = np.ones((1, d))
                    p[name + ".b"] = np.zeros((1, d))
        if BY_KEY[shape.placement].norm_branch_input:
            p["final.g"] = np.ones((1, d))
            p["final.b"] = np.zeros((1, d))
        p["out.w"] = rng.standard_normal((d, v)) / np.sqrt(d)
        p["out.b"] = np.zeros((1, v))
        per_run.append(p)
    return {name: np.stack([p[name] for p in per_run]).astype(dtype) for name in per_run[0]}


def layer_of(name: str) -> int | None:
    """The 0-based layer a parameter belongs to (None for embeddings, final LN and readout)."""
    head = name.split(".", 1)[0]
    return int(head) if head.isdigit() else None


# ---------------------------------------------------------------------------------------------- pieces
def _t(a: np.ndarray) -> np.ndarray:
    return a.swapaxes(-1, -2)  # the method: np.swapaxes's dispatch costs more than the view on these sizes


def _mm_t(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """a @ b^T, with b^T made contiguous first: NumPy's batched matmul runs two to five times slower on these
    sizes when its second operand is a transposed view, and the copy costs less than the difference."""
    return np.matmul(a, np.ascontiguousarray(_t(b)), out=out)


class _Buffers:
    """Arrays kept from one step to the next, by name. A step's large temporaries written into them (`out=`)
    reuse the last step's memory: allocated afresh, they made the heap grow and shrink every step, 100-250 page
    faults a step on the xiong preset's model (none now), each costly on the shared virtual machine."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        """The array `name` of this shape and dtype (uninitialised when new)."""
        a = self._arrays.get(name)
        if a is None or a.shape != shape or a.dtype != dtype:
            a = self._arrays[name] = np.empty(shape, dtype=dtype)
        return a


# Sums over a short axis are products with a column of ones: NumPy's reductions over a few contiguous
# elements cost more than a BLAS product on these sizes (the step's time is mostly such small calls).
_ONES: dict[tuple[int, Any, float], np.ndarray] = {}


def _ones(n: int, dtype: Any, value: float = 1.0) -> np.ndarray:
    key = (n, np.dtype(dtype), value)
    if key not in _ONES:
        _ONES[key] = np.full((n, 1), value, dtype=dtype)
    return _ONES[key]


def _last_mean(x: np.ndarray) -> np.ndarray:
    """x.mean(axis=-1, keepdims=True)."""
    return np.matmul(x, _ones(x.shape[-1], x.dtype, 1.0 / x.shape[-1]))


def _last_sum(x: np.ndarray) -> np.ndarray:
    """x.sum(axis=-1, keepdims=True)."""
    return np.matmul(x, _ones(x.shape[-1], x.dtype))


def _token_sum(x: np.ndarray) -> np.ndarray:
    """x.sum(axis=1, keepdims=True) for (R, M, k)."""
    return np.matmul(_t(_ones(x.shape[1], x.dtype)), x)


_LnCache = tuple[np.ndarray, np.ndarray, np.ndarray, _Buffers]  # (xhat, 1 / std, gain, the LN's buffers)


def _ln(x: np.ndarray, g: np.ndarray, b: np.ndarray, buf: _Buffers) -> tuple[np.ndarray, _LnCache]:
    """LN(x) with gain g and bias b, into `buf`'s arrays (the output is overwritten by the next step's
    forward), and the backward's cache."""
    xhat = np.subtract(x, _last_mean(x), out=buf.get("xhat", x.shape, x.dtype))  # x - mean, made xhat below
    out = np.multiply(xhat, xhat, out=buf.get("out", x.shape, x.dtype))  # the output's memory as scratch
    var = _last_mean(out)
    var += LN_EPS
    rstd = np.sqrt(var, out=var)
    np.reciprocal(rstd, out=rstd)
    xhat *= rstd
    np.multiply(xhat, g, out=out)
    out += b
    return out, (xhat, rstd, g, buf)


def _ln_back(dy: np.ndarray, cache: _LnCache) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dgain, dbias); dx is one of the LN's buffers, overwritten by the next backward."""
    xhat, rstd, g, buf = cache
    scratch = np.multiply(dy, xhat, out=buf.get("scratch", dy.shape, dy.dtype))
    dg = _token_sum(scratch)
    db = _token_sum(dy)
    dxhat = np.multiply(dy, g, out=buf.get("dx", dy.shape, dy.dtype))
    proj = np.multiply(xhat, _last_mean(np.multiply(dxhat, xhat, out=scratch)), out=scratch)
    dx = dxhat
    dx -= _last_mean(dxhat)
    dx -= proj
    dx *= rstd
    return dx, dg, db


def _max_over_rows(x: np.ndarray) -> np.ndarray:
    """x.max(axis=-2, keepdims=True), by halving: NumPy's reduction over a short axis costs about six times
    as much as these elementwise maxima of contiguous row blocks on the attention's (..., 8, 8) scores."""
    while x.shape[-2] > 1:
        half = x.shape[-2] // 2
        top = np.maximum(x[..., :half, :], x[..., half:2 * half, :])
        if x.shape[-2] % 2:
            top[..., :1, :] = np.maximum(top[..., :1, :], x[..., 2 * half:, :])
        x = top
    return x


def _row_sum(x: np.ndarray) -> np.ndarray:
    """x.sum(axis=-2, keepdims=True)."""
    return np.matmul(_t(_ones(x.shape[-2], x.dtype)), x)


def _key_sum(pt: np.ndarray) -> np.ndarray:
    """The sums over keys of a key-major (R, B, H, keys, queries) view of a keys-first array, as a (1, R B H
    queries) row that broadcasts over its (keys, R B H queries) matrix. Batched over the (keys, queries) blocks
    as a product with a row of ones, not as one product or reduction over the whole matrix: BLAS's order of
    summation depends on the product's shape (for four keys it pairs them differently), and this is the
    order the results have always had."""
    return _row_sum(pt).reshape(1, -1)


class _Attention:
    """Multi-head self-attention with a fused QKV projection. The attention matrix is kept key-major with the key
    outermost: pt[j, r, b, h, i] = P[i, j] of run r, sequence b, head h. As a (keys, the rest) matrix its softmax
    reduces over rows and broadcasts over long contiguous rows, a few cheap calls (over (..., keys, queries)
    blocks NumPy broadcasts over rows of eight, at three times the cost), while each (r, b, h)'s block is still
    a strided matrix BLAS writes and reads in place."""

    def __init__(self, shape: ModelShape) -> None:
        self.h, self.n, self.d = shape.heads, shape.length, shape.width
        self.dh = self.d // self.h
        self.buf = _Buffers()

    def forward(self, z: np.ndarray, qkv_w: np.ndarray, o_w: np.ndarray) -> np.ndarray:
        r, n, h, dh, buf = z.shape[0], self.n, self.h, self.dh, self.buf
        b = z.shape[1] // n
        self.z, self.qkv_w, self.o_w = z, qkv_w, o_w
        qkv = np.matmul(z, qkv_w, out=buf.get("qkv", (r, b * n, 3 * self.d), z.dtype))
        qkv_parts = qkv.reshape(r, b, n, 3, h, dh).transpose(3, 0, 1, 4, 2, 5)  # (3, R, B, H, n, dh), a view
        self.q, self.k, self.v = qkv_parts[0], qkv_parts[1], qkv_parts[2]
        keys_first = buf.get("pt", (n, r, b, h, n), z.dtype)
        self.pt = keys_first.transpose(1, 2, 3, 0, 4)  # (R, B, H, keys, queries), a view
        self.rows = rows = keys_first.reshape(n, -1)  # (keys, R B H queries), a view
        _mm_t(self.k, self.q, out=self.pt)
        rows *= 1.0 / math.sqrt(dh)
        rows -= np.maximum.reduce(rows, axis=0, keepdims=True)
        np.exp(rows, out=rows)
        rows /= _key_sum(self.pt)
        # P V written straight into the (R, B, n, H, dh) layout the output projection reads: no copy after it. P
        # is copied query-major first: a product whose first operand is a transposed view of these 8 x 8
        # blocks costs about twice one on a contiguous copy, and the copy less than the difference.
        p = buf.get("p", (r, b, h, n, n), z.dtype)
        np.copyto(p, _t(self.pt))
        c = buf.get("c", (r, b, n, h, dh), z.dtype)
        np.matmul(p, self.v, out=c.transpose(0, 1, 3, 2, 4))
        self.c = c.reshape(r, -1, self.d)
        return np.matmul(self.c, o_w, out=buf.get("out", z.shape, z.dtype))

    def backward(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(dz, dW^QKV, dW^O); dz is one of the block's buffers, overwritten by the next backward."""
        r, n, h, dh, buf = g.shape[0], self.n, self.h, self.dh, self.buf
        b = g.shape[1] // n
        d_o = np.matmul(_t(self.c), g)
        dc = _mm_t(g, self.o_w, out=buf.get("dc", g.shape, g.dtype)).reshape(r, b, n, h, dh).transpose(0, 1, 3, 2, 4)
        d_keys_first = buf.get("dpt", (n, r, b, h, n), g.dtype)  # the gradient of pt, laid out like it
        dpt, drows = d_keys_first.transpose(1, 2, 3, 0, 4), d_keys_first.reshape(n, -1)
        _mm_t(self.v, dc, out=dpt)
        # dQ, dK, dV written straight into the (R, B, n, 3, H, dh) layout of the fused QKV projection
        dqkv = buf.get("dqkv", (r, b, n, 3, h, dh), g.dtype)
        parts = dqkv.transpose(3, 0, 1, 4, 2, 5)
        np.matmul(self.pt, dc, out=parts[2])
        # the softmax backward, in place: ds = p * (dp - sum(dp * p)) / sqrt(dh)
        prod = np.multiply(drows, self.rows, out=buf.get("scratch", drows.shape, g.dtype))
        drows -= _key_sum(prod.reshape(d_keys_first.shape).transpose(1, 2, 3, 0, 4))
        drows *= self.rows
        drows *= 1.0 / math.sqrt(dh)
        ds = buf.get("ds", (r, b, h, n, n), g.dtype)  # the score gradient query-major, as P in the forward
        np.copyto(ds, _t(dpt))
        np.matmul(ds, self.k, out=parts[0])
        np.matmul(dpt, self.q, out=parts[1])
        flat = dqkv.reshape(r, -1, 3 * self.d)
        return _mm_t(flat, self.qkv_w, out=buf.get("dz", g.shape, g.dtype)), np.matmul(_t(self.z), flat), d_o


class _FFN:
    def __init__(self) -> None:
        self.buf = _Buffers()

    def forward(self, z: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                b2: np.ndarray) -> np.ndarray:
        self.z, self.w1, self.w2 = z, w1, w2
        hidden = (z.shape[0], z.shape[1], w1.shape[-1])
        pre = np.matmul(z, w1, out=self.buf.get("h", hidden, z.dtype))
        pre += b1
        # ReLU in place through a 0/1 mask of the same dtype: np.maximum and products with a boolean mask cost
        # two to three times as much on these sizes, and the backward reuses the mask.
        self.mask = np.greater(pre, 0, out=self.buf.get("mask", hidden, z.dtype))
        self.h = np.multiply(pre, self.mask, out=pre)
        out = np.matmul(self.h, w2, out=self.buf.get("out", z.shape, z.dtype))
        out += b2
        return out

    def backward(self, g: np.ndarray) -> tuple[np.ndarray, ...]:
        """(dz, dW^1, db^1, dW^2, db^2); dz is one of the block's buffers, overwritten by the next backward."""
        dw2 = np.matmul(_t(self.h), g)
        db2 = _token_sum(g)
        dh = _mm_t(g, self.w2, out=self.buf.get("dh", self.h.shape, g.dtype))
        dh *= self.mask
        dw1 = np.matmul(_t(self.z), dh)
        db1 = _token_sum(dh)
        return _mm_t(dh, self.w1, out=self.buf.get("dz", g.shape, g.dtype)), dw1, db1, dw2, db2


# ---------------------------------------------------------------------------------------------- the model
class Model:
    """Forward and backward passes of one placement's models (one per run, batched)."""

    def __init__(self, shape: ModelShape) -> None:
        self.shape = shape
        self.kind = BY_KEY[shape.placement]
        self.alpha, _ = shape.deepnorm
        # Per block, in order: its kind, the keys of its weights and of its LayerNorms' gain and bias (computed once,
        # not as strings on every step: at the preset's size the step is mostly Python and small NumPy calls).
        self._plan: list[tuple[str, tuple[str, ...], tuple[str, str], tuple[str, str] | None]] = []
        for layer in range(shape.depth):
            for block in ("attn", "ffn"):
                pre = f"{layer}.{block}."
                weights = (pre + "qkv", pre + "o") if block == "attn" else (pre + "w1", pre + "b1", pre + "w2", pre + "b2")
                names = shape.ln_names(layer, block)
                ln1 = (names[0] + ".g", names[0] + ".b")
                ln2 = (names[1] + ".g", names[1] + ".b") if len(names) > 1 else None
                self._plan.append((block, weights, ln1, ln2))
        # Each block's sublayer and LayerNorms keep their large arrays from one call to the next (see _Buffers):
        # what a call returns is fresh, but its caches are overwritten by the next call's forward.
        self._subs: list[_Attention | _FFN] = [_Attention(shape) if block == "attn" else _FFN()
                                               for block, *_ in self._plan]
        self._ln_bufs = [(_Buffers(), _Buffers()) for _ in self._plan]
        self._final_buf = _Buffers()

    def loss(self, params: Params, tokens: np.ndarray, targets: np.ndarray,
             grads: bool = True) -> tuple[np.ndarray, Params | None]:
        """Mean cross-entropy per run (R,) of predicting `targets` (R, B, n) from `tokens` (R, B, n), and
        the gradient of each run's loss with respect to its parameters (None when grads is False)."""
        shape, kind = self.shape, self.kind
        r, batch, n = tokens.shape
        # The embedding as a product with the tokens' one-hot rows (a small matmul, reused by the backward).
        onehot = np.equal(tokens.reshape(r, -1, 1), np.arange(shape.vocab), out=np.empty(
            (r, batch * n, shape.vocab), dtype=params["emb"].dtype), casting="unsafe")
        x = np.matmul(onehot, params["emb"])
        x.reshape(r, batch, n, -1)[...] += params["pos"][:, None]
        tape: list[tuple[int, Any, _LnCache, _LnCache | None]] = []
        for index, (_, weights, ln1, ln2) in enumerate(self._plan):
            sub: Any = self._subs[index]
            buf1, buf2 = self._ln_bufs[index]
            w = [params[k] for k in weights]
            # The residual sums are written into the branch's output (fresh each block, read by nothing else).
            if kind.norm_after_add:
                f_out = sub.forward(x, *w)
                f_out += self.alpha * x if kind.deepnorm_scaling else x
                x, c1 = _ln(f_out, params[ln1[0]], params[ln1[1]], buf1)
                tape.append((index, sub, c1, None))
            else:
                a, c1 = _ln(x, params[ln1[0]], params[ln1[1]], buf1)
                f_out = sub.forward(a, *w)
                c2 = None
                if kind.norm_branch_output and ln2 is not None:
                    f_out, c2 = _ln(f_out, params[ln2[0]], params[ln2[1]], buf2)
                f_out += x
                x = f_out
                tape.append((index, sub, c1, c2))
        cf = None
        if kind.norm_branch_input:
            x, cf = _ln(x, params["final.g"], params["final.b"], self._final_buf)
        # The readout kept vocabulary-major (R, V, tokens), like the attention: the softmax then reduces over rows.
        logits_t = _mm_t(_t(params["out.w"]), x)
        logits_t += _t(params["out.b"])
        logits_t -= _max_over_rows(logits_t)
        flat_t = targets.reshape(r, 1, -1)
        probs_t = np.exp(logits_t)
        lse = np.log(_row_sum(probs_t))
        loss = (lse - np.take_along_axis(logits_t, flat_t, axis=1)).mean(axis=(1, 2))
        self.logits_t = logits_t
        if not grads:
            return loss, None
        # Backward.
        m = logits_t.shape[2]
        probs_t /= np.exp(lse)
        np.put_along_axis(probs_t, flat_t, np.take_along_axis(probs_t, flat_t, axis=1) - 1.0, axis=1)
        probs_t /= m
        dlogits = _t(probs_t)
        g: Params = {"out.w": _mm_t(_t(x), probs_t), "out.b": _t(_last_sum(probs_t))}
        dx = _mm_t(dlogits, params["out.w"])
        if cf is not None:
            dx, g["final.g"], g["final.b"] = _ln_back(dx, cf)
        for index, sub, c1, c2 in reversed(tape):
            block, weights, ln1, ln2 = self._plan[index]
            if kind.norm_after_add:
                du, g[ln1[0]], g[ln1[1]] = _ln_back(dx, c1)
                d_f = du
                d_skip = self.alpha * du if kind.deepnorm_scaling else du
            else:
                d_f = dx
                if c2 is not None and ln2 is not None:
                    d_f, g[ln2[0]], g[ln2[1]] = _ln_back(d_f, c2)
                d_skip = dx
            dz, *dw = sub.backward(d_f)
            for key, value in zip(weights, dw, strict=True):
                g[key] = value
            if not kind.norm_after_add:
                dz, g[ln1[0]], g[ln1[1]] = _ln_back(dz, c1)
            dz += d_skip  # dz is a buffer of this block's, read by nothing else
            dx = dz
        g["emb"] = np.matmul(_t(onehot), dx)
        g["pos"] = dx.reshape(r, batch, n, -1).sum(axis=1)
        return loss, g

    def evaluate(self, params: Params, tokens: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(loss, accuracy) per run, without gradients."""
        loss, _ = self.loss(params, tokens, targets, grads=False)
        right = np.argmax(self.logits_t, axis=1) == targets.reshape(targets.shape[0], -1)
        return loss, right.mean(axis=1)
