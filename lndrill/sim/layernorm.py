"""LayerNorm without affine parameters (gain 1, bias 0) over the last axis, with its derivatives.

Forward: y = (x - mean(x)) / s, s = sqrt(var(x) + eps) (biased variance, as PyTorch).
Jacobian: J = (1/s) (I - 1 1^T / D - y y^T / D); it is symmetric, so the same formula serves the
forward-mode (J @ tangent) and reverse-mode (J^T @ cotangent) products.
"""

from __future__ import annotations

import numpy as np

DEFAULT_EPS = 1e-5


def ln_forward(x: np.ndarray, eps: float = DEFAULT_EPS) -> tuple[np.ndarray, np.ndarray]:
    """Normalise ``x`` over its last axis; return (y, s) where s has the last axis dropped."""
    d = x.shape[-1]
    centred = x - np.add.reduce(x, axis=-1, keepdims=True) / d  # ufunc reduce: no Python-level mean
    s = np.sqrt(np.add.reduce(centred * centred, axis=-1) / d + eps)
    return centred / s[..., None], s


def ln_vjp(cotangent: np.ndarray, y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Back-propagate a cotangent (same shape as y) through LN; y and s come from ``ln_forward``."""
    mean_g = cotangent.mean(axis=-1, keepdims=True)
    mean_gy = np.mean(cotangent * y, axis=-1, keepdims=True)
    return (cotangent - mean_g - y * mean_gy) / s[..., None]


def ln_jvp(tangent: np.ndarray, y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Push tangents through LN. ``tangent`` has shape y.shape + (K,): K directions at once."""
    d = y.shape[-1]
    mean_t = tangent.mean(axis=-2, keepdims=True)
    y_dot_t = np.matmul(y[..., None, :], tangent)  # (..., 1, K)
    return (tangent - mean_t - y[..., :, None] * (y_dot_t / d)) / s[..., None, None]


def grad_sum_squares_of_ln(x: np.ndarray, eps: float = DEFAULT_EPS) -> np.ndarray:
    """Gradient of sum(LN(x)^2) with respect to x, written without cancellation.

    sum(LN(x)^2) = D var / (var + eps), so its gradient is 2 eps (x - mean) / (var + eps)^2: proportional
    to eps (about 470 eps for the article's toy at depth 1, smaller still where the map before it contracts).
    """
    centred = x - x.mean(axis=-1, keepdims=True)
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    return 2.0 * eps * centred / (var + eps) ** 2
