"""The article's toy residual tower on one D-vector, with analytic derivatives.

Layer (sublayer F(v) = tanh(W v), LN without affine):
  post      v <- LN(v + F(v))
  pre       v <- v + F(LN(v))               (optional final LN on the output)
  sandwich  v <- v + LN(F(LN(v)))           (optional final LN on the output)
  deepnorm  v <- LN(alpha v + tanh(beta W v)), alpha = (2N)^(1/4), beta = (8N)^(-1/4)

Forward mode carries the input Jacobian J = dv/dx through the stack, one D x D matmul per layer
(J_{l+1} = M_l J_l, where M_l is built from W and rank-2 LayerNorm corrections), so every depth of a
sweep comes out of a single pass. The rank-2 corrections are folded into that one matmul by augmenting
M with two columns and J with two rows. A per-seed log-scale keeps contracting (Post-LN) Jacobians
from underflowing.

Reverse mode handles the parameter metrics, defined on the toy with a random probe loss
loss = g^T S(x) (g ~ N(0, I)): the gradient for the W used by layer l is (delta_l * tanh') a_l^T,
where a_l is the sublayer input (for DeepNorm the parameter is the beta-scaled matrix, as DeepNet
initialises it, so no extra beta factor). With a shared W, "layer l's gradient" is the contribution of its use
at layer l (the full gradient of the shared W is their sum).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lndrill.sim.layernorm import grad_sum_squares_of_ln, ln_forward, ln_vjp
from lndrill.sim.placements import BY_KEY


@dataclass(frozen=True)
class ToyInputs:
    """Weights, input and probe for a batch of seeds.

    w: (B or 1, D, D) when shared, else (B, L, D, D). x, probe: (B, D).
    """

    w: np.ndarray
    x: np.ndarray
    probe: np.ndarray
    shared: bool

    def layer(self, index: int) -> np.ndarray:
        """The (B or 1, D, D) weight used by layer ``index`` (0-based)."""
        return self.w if self.shared else self.w[:, index]


def sample_toy_inputs(width: int, depth: int, seed: int, seeds: int, shared: bool) -> ToyInputs:
    """Draw W ~ N(0, 1/D), x ~ N(0, I), probe g ~ N(0, I); seed index i uses default_rng(seed + i).

    Draws are nested: the first L layers of a deeper stack use the same weights as a depth-L stack.
    """
    xs, probes, ws = [], [], []
    scale = 1.0 / np.sqrt(width)
    for i in range(seeds):
        rng = np.random.default_rng(seed + i)
        xs.append(rng.standard_normal(width))
        probes.append(rng.standard_normal(width))
        shape = (width, width) if shared else (depth, width, width)
        ws.append(rng.standard_normal(shape) * scale)
    return ToyInputs(w=np.stack(ws), x=np.stack(xs), probe=np.stack(probes), shared=shared)


def deepnorm_constants(depth: int) -> tuple[float, float]:
    """DeepNet encoder-only (alpha, beta) for an N-layer stack: ((2N)^(1/4), (8N)^(-1/4))."""
    return (2.0 * depth) ** 0.25, (8.0 * depth) ** -0.25


def _matvec(w: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.matmul(w, v[..., None])[..., 0]


def _vecmat(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.matmul(v[..., None, :], w)[..., 0, :]


def _sq_norm(v: np.ndarray) -> np.ndarray:
    return np.matmul(v[:, None, :], v[:, :, None])[:, 0, 0]


def _frobenius(m: np.ndarray) -> np.ndarray:
    """||m_b||_F for a (B, D, D) stack, as a BLAS dot product (no temporary)."""
    flat = m.reshape(m.shape[0], 1, -1)
    return np.sqrt(np.matmul(flat, flat.transpose(0, 2, 1))[:, 0, 0])


@dataclass
class ToyForward:
    """Per-seed results of one forward pass; columns follow the recorded depths (or layers for stream)."""

    jacobian: np.ndarray | None
    article: np.ndarray | None
    last_layer: np.ndarray | None
    stream: np.ndarray | None


def toy_forward(
    inputs: ToyInputs,
    placement: str,
    depth: int,
    record: list[int],
    *,
    want_jacobian: bool = False,
    want_article: bool = False,
    want_last_layer: bool = False,
    want_stream: bool = False,
    final_ln: bool = False,
    deepnorm_depth: int | None = None,
    eps: float = 1e-5,
) -> ToyForward:
    """Run ``depth`` layers once and record metrics after each depth in ``record``.

    want_jacobian: ||dS/dx||_F. want_article: the article's ||grad_x sum(S^2)|| (it also needs J).
    want_last_layer: ||d(g^T S)/dW_L||_F for the last layer of each recorded depth.
    want_stream: ||v_l||^2 / D after every layer (for post/deepnorm: the sum before the layer's LN).
    deepnorm_depth: N used for DeepNorm's alpha and beta (defaults to ``depth``).
    """
    x = inputs.x
    batch, d = x.shape
    kind = BY_KEY[placement]
    alpha, beta = deepnorm_constants(deepnorm_depth or depth) if kind.deepnorm_scaling else (1.0, 1.0)
    slot = {L: k for k, L in enumerate(record)}
    n_rec = len(record)
    want_jacobian = want_jacobian or want_article
    # A metric not asked for gets a buffer with no columns (never written) and is returned as None.
    jac = np.zeros((batch, n_rec if want_jacobian else 0))
    art = np.zeros((batch, n_rec if want_article else 0))
    last = np.zeros((batch, n_rec if want_last_layer else 0))
    stream = np.zeros((batch, depth if want_stream else 0))

    v = x.copy()
    if want_jacobian:
        j_aug = np.zeros((batch, d + 2, d))
        j_next = np.zeros((batch, d + 2, d))
        j_aug[:, :d, :] = np.eye(d)
        m_aug = np.zeros((batch, d, d + 2))
        m_diag = m_aug.reshape(batch, -1)[:, :: d + 3]  # view of the diagonal of the D x D block
        q_rows = np.zeros((batch, 2, d))
        log_scale = np.zeros(batch)
    shared_w = inputs.layer(0) if inputs.shared else None
    shared_rowsum = shared_w.sum(axis=2) if shared_w is not None else None
    ones = np.ones((batch, d))

    for layer in range(depth):
        w = inputs.layer(layer)
        rowsum = shared_rowsum if shared_rowsum is not None else w.sum(axis=2)
        here = layer + 1
        recording = here in slot
        if kind.norm_after_add:
            a = v
            t = np.tanh(beta * _matvec(w, v) if beta != 1.0 else _matvec(w, v))
            h = 1.0 - t * t
            u = alpha * v + t if alpha != 1.0 else v + t
            y, s = ln_forward(u, eps)
            if want_stream:
                stream[:, layer] = _sq_norm(u) / d
            if want_jacobian:
                j = j_aug[:, :d, :]
                bh = beta * h
                # B = alpha I + diag(beta h) W; J_new = (1/s) P(u) B J, P(u) = I - 11^T/D - yy^T/D.
                np.multiply(bh[:, :, None], w, out=m_aug[:, :, :d])
                m_diag += alpha
                m_aug[:, :, d] = -1.0
                m_aug[:, :, d + 1] = -y
                q_rows[:, 0, :] = bh
                q_rows[:, 1, :] = y * bh
                q_rows = np.matmul(q_rows, w)
                q_rows[:, 0, :] += alpha
                q_rows[:, 1, :] += alpha * y
                q_rows /= d
                if recording and want_article:
                    # article metric: grad_x = J_prev^T B^T g_u with g_u = grad of ||LN(u)||^2.
                    g_u = grad_sum_squares_of_ln(u, eps)
                    r = alpha * g_u + _vecmat(g_u * bh, w)
                    grad = _vecmat(r, j)
                    art[:, slot[here]] = np.sqrt(_sq_norm(grad)) * np.exp(log_scale)
                np.matmul(q_rows, j, out=j_aug[:, d:, :])
                np.matmul(m_aug, j_aug, out=j_next[:, :d, :])
                j_aug, j_next = j_next, j_aug
                log_scale -= np.log(s)
                if here % 32 == 0:  # keep the stored (unscaled) Jacobian far from overflow
                    peak = np.abs(j_aug[:, :d, :]).max(axis=(1, 2))
                    j_aug[:, :d, :] /= peak[:, None, None]
                    log_scale += np.log(peak)
            if want_last_layer and recording:
                q = ln_vjp(inputs.probe, y, s) * h
                last[:, slot[here]] = np.sqrt(_sq_norm(q) * _sq_norm(a))
            v = y
        else:  # pre, sandwich
            a, s1 = ln_forward(v, eps)
            z = _matvec(w, a)
            t = np.tanh(z)
            h = 1.0 - t * t
            if kind.norm_branch_output:
                o, s2 = ln_forward(t, eps)
            else:
                o, s2 = t, None
            if want_jacobian:
                j = j_aug[:, :d, :]
                # J_new = J + c G P(v) J with G = diag(h) W (pre) or P(t) diag(h) W (sandwich).
                if not kind.norm_branch_output:
                    c = h / s1[:, None]
                    np.multiply(c[:, :, None], w, out=m_aug[:, :, :d])
                    g_one = c * rowsum
                    g_a = c * z
                else:
                    g = h[:, :, None] * w
                    lrows = np.stack([h, o * h], axis=1)
                    lrows = np.matmul(lrows, w) / d
                    g -= np.matmul(np.stack([ones, o], axis=2), lrows)
                    inv = 1.0 / (s1 * s2)
                    np.multiply(g, inv[:, None, None], out=m_aug[:, :, :d])
                    g_one = m_aug[:, :, :d].sum(axis=2)
                    g_a = _matvec(m_aug[:, :, :d], a)
                m_diag += 1.0
                m_aug[:, :, d] = -g_one
                m_aug[:, :, d + 1] = -g_a
                q_rows[:, 0, :] = 1.0 / d
                q_rows[:, 1, :] = a / d
                np.matmul(q_rows, j, out=j_aug[:, d:, :])
                np.matmul(m_aug, j_aug, out=j_next[:, :d, :])
                j_aug, j_next = j_next, j_aug
            a_sq = _sq_norm(a) if want_last_layer and recording else None
            v = v + o
            if want_stream:
                stream[:, layer] = _sq_norm(v) / d
            if recording and (want_jacobian or want_last_layer):
                if final_ln:
                    yf, sf = ln_forward(v, eps)
                    delta = ln_vjp(inputs.probe, yf, sf)
                else:
                    delta = inputs.probe
                if want_last_layer:
                    if s2 is not None:  # the branch output is normalised (Sandwich)
                        delta = ln_vjp(delta, o, s2)
                    last[:, slot[here]] = np.sqrt(_sq_norm(delta * h) * a_sq)
                if want_jacobian:
                    j = j_aug[:, :d, :]
                    if final_ln:
                        pj = j - np.matmul(
                            np.stack([ones, yf], axis=2), np.matmul(np.stack([ones, yf], axis=1) / d, j)
                        )
                        jac[:, slot[here]] = _frobenius(pj) / sf
                    if want_article:
                        r = grad_sum_squares_of_ln(v, eps) if final_ln else 2.0 * v
                        art[:, slot[here]] = np.sqrt(_sq_norm(_vecmat(r, j)))
        if want_jacobian and recording and not (final_ln and kind.norm_branch_input):
            j = j_aug[:, :d, :]
            jac[:, slot[here]] = _frobenius(j) * np.exp(log_scale)
    return ToyForward(jacobian=jac if want_jacobian else None, article=art if want_article else None,
                      last_layer=last if want_last_layer else None, stream=stream if want_stream else None)


def toy_layer_gradients(
    inputs: ToyInputs, placement: str, depth: int, *, final_ln: bool = False, eps: float = 1e-5
) -> np.ndarray:
    """Per-layer ||d(g^T S)/dW_l||_F for l = 1..depth, by one forward and one backward pass; (B, depth)."""
    x = inputs.x
    batch, d = x.shape
    kind = BY_KEY[placement]
    alpha, beta = deepnorm_constants(depth) if kind.deepnorm_scaling else (1.0, 1.0)
    Tape = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]
    tape: list[Tape] = []
    v = x.copy()
    for layer in range(depth):
        w = inputs.layer(layer)
        if kind.norm_after_add:
            t = np.tanh(beta * _matvec(w, v))
            y, s = ln_forward(alpha * v + t, eps)
            tape.append((v, 1.0 - t * t, y, s, None, None))
            v = y
        else:
            a, s1 = ln_forward(v, eps)
            t = np.tanh(_matvec(w, a))
            s2: np.ndarray | None = None
            if kind.norm_branch_output:
                o, s2 = ln_forward(t, eps)
            else:
                o = t
            tape.append((a, 1.0 - t * t, a, s1, o, s2))
            v = v + o
    delta = inputs.probe
    if final_ln and kind.norm_branch_input:
        yf, sf = ln_forward(v, eps)
        delta = ln_vjp(delta, yf, sf)
    norms = np.zeros((batch, depth))
    for layer in range(depth - 1, -1, -1):
        w = inputs.layer(layer)
        branch_in, h, y, s, branch_out, s2 = tape[layer]
        if kind.norm_after_add:
            d_u = ln_vjp(delta, y, s)
            q = d_u * h
            norms[:, layer] = np.sqrt(_sq_norm(q) * _sq_norm(branch_in))
            delta = alpha * d_u + beta * _vecmat(q, w)
        else:
            d_t = ln_vjp(delta, branch_out, s2) if branch_out is not None and s2 is not None else delta
            q = d_t * h
            norms[:, layer] = np.sqrt(_sq_norm(q) * _sq_norm(branch_in))
            delta = delta + ln_vjp(_vecmat(q, w), y, s)
    return norms
