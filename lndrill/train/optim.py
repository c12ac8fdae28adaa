"""Adam (beta 0.9 / 0.98, eps 1e-9, as in Vaswani et al.'s recipe) and the learning-rate schedules."""

from __future__ import annotations

import math

import numpy as np

BETA1, BETA2, ADAM_EPS = 0.9, 0.98, 1e-9
SCHEDULES = ("constant", "inverse-sqrt")


def lr_factor(step: int, warmup: int, schedule: str) -> float:
    """The multiplier of the peak learning rate at 1-based `step`.

    constant: linear warm-up over `warmup` steps, then 1. inverse-sqrt: linear warm-up, then
    sqrt(warmup / step) (Vaswani et al.); with warmup 0 both are constant (no warm-up, no decay).
    """
    if warmup <= 0:
        return 1.0
    if step <= warmup:
        return step / warmup
    return math.sqrt(warmup / step) if schedule == "inverse-sqrt" else 1.0


class Adam:
    """Adam over a dict of (R, ...) parameters, one learning rate per run (the leading axis).

    On creation it moves every parameter into one (R, P) buffer and puts views of it back in the dict
    (the caller's dict, so the model keeps reading the live values): a step is then a handful of NumPy
    calls over the buffer, not a handful per tensor.
    """

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.names = list(params)
        first = params[self.names[0]]
        runs = first.shape[0]
        sizes = [params[k][0].size for k in self.names]
        self.flat = np.empty((runs, sum(sizes)), dtype=first.dtype)
        offset = 0
        for name, size in zip(self.names, sizes, strict=True):
            view = self.flat[:, offset:offset + size]
            view[...] = params[name].reshape(runs, size)
            params[name] = view.reshape(params[name].shape)
            offset += size
        self.m = np.zeros_like(self.flat)
        self.v = np.zeros_like(self.flat)
        self.t = 0
        self._g: np.ndarray | None = None
        self._tmp: np.ndarray | None = None

    def step(self, grads: dict[str, np.ndarray], lr: np.ndarray) -> None:
        """One update of every parameter in place; lr is (R,). No temporaries beyond two buffers kept across
        steps: at the training lab's sizes a step is mostly the cost of each NumPy call, not of the arithmetic."""
        self.t += 1
        runs = self.flat.shape[0]
        if self._g is None:
            self._g, self._tmp = np.empty_like(self.flat), np.empty_like(self.flat)
        g, tmp = self._g, self._tmp
        np.concatenate([grads[k].reshape(runs, -1) for k in self.names], axis=1, out=g)
        self.m *= BETA1
        self.m += np.multiply(g, 1.0 - BETA1, out=tmp)
        np.multiply(g, g, out=g)
        g *= 1.0 - BETA2
        self.v *= BETA2
        self.v += g
        # lr * c1 * m / (sqrt(v * c2) + eps) == (lr * c1 / sqrt(c2)) * m / (sqrt(v) + eps / sqrt(c2))
        root_c2 = math.sqrt(1.0 - BETA2 ** self.t)
        denom = np.sqrt(self.v, out=tmp)
        denom += ADAM_EPS * root_c2
        np.divide(self.m, denom, out=denom)
        denom *= (lr * (root_c2 / (1.0 - BETA1 ** self.t))).astype(self.flat.dtype)[:, None]
        self.flat -= denom

    def reset_run(self, run: int) -> None:
        """Zero one run's parameters and moments (a diverged run: it then stays finite and costs nothing)."""
        self.flat[run] = 0
        self.m[run] = 0
        self.v[run] = 0
