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

    def step(self, grads: dict[str, np.ndarray], lr: np.ndarray) -> None:
        """One update of every parameter in place; lr is (R,)."""
        self.t += 1
        runs = self.flat.shape[0]
        g = np.concatenate([grads[k].reshape(runs, -1) for k in self.names], axis=1)
        self.m *= BETA1
        self.m += (1.0 - BETA1) * g
        g *= g
        self.v *= BETA2
        self.v += (1.0 - BETA2) * g
        c1 = 1.0 / (1.0 - BETA1 ** self.t)
        c2 = 1.0 / (1.0 - BETA2 ** self.t)
        denom = np.sqrt(self.v * c2)
        denom += ADAM_EPS
        update = self.m / denom
        update *= (lr * c1).astype(self.flat.dtype)[:, None]
        self.flat -= update

    def reset_run(self, run: int) -> None:
        """Zero one run's parameters and moments (a diverged run: it then stays finite and costs nothing)."""
        self.flat[run] = 0
        self.m[run] = 0
        self.v[run] = 0
