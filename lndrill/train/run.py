"""Run a training grid (placements x learning rates x warm-ups x seeds), headless.

`train_events(cfg, cancel)` is a generator: it yields `Progress` events (steps done, steps/s, ETA and the
new curve points) while it trains, and a last `Finished` event holding the `TrainResult` (partial, with
`cancelled` set, when `cancel` was set or the consumer closed the generator early). `train(cfg)` runs it
to the end. A Textual worker can drive the generator in a thread and post each event to the screen.

Runs of one placement train together, batched on a leading axis (see `lndrill.train.model`); a run whose
loss stops being a finite number, or whose recent average climbs past twice the chance level, is marked
diverged at that step, its weights zeroed and its learning rate set to 0: a result, not a crash.
"""

from __future__ import annotations

import math
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from lndrill.sim.placements import BY_KEY
from lndrill.train.model import Model, ModelShape, init_params, layer_of
from lndrill.train.optim import SCHEDULES, Adam, lr_factor
from lndrill.train.task import reverse_batch
from lndrill.train.threads import one_blas_thread

#: Runs estimated over this many seconds need an explicit go-ahead (`--force` on the command line).
FORCE_SECONDS = 120.0
#: Held-out sequences per seed for the final loss and accuracy.
EVAL_BATCH = 256
#: How many recent steps' losses the blow-up test averages.
BLOWUP_WINDOW = 20
DTYPES = ("float32", "float64")


class TrainConfigError(ValueError):
    """An invalid training configuration; the message is one plain line for the user."""


@dataclass(frozen=True)
class TrainConfig:
    """A training grid. Every placement is trained at every learning rate, warm-up and seed.

    depth: layers (each an attention and an FFN block); width: d; heads divide d; vocab, length: the
    reversal task's alphabet and sequence length; batch: sequences per step. lrs: peak learning rates;
    warmups: warm-up steps (0: none); schedule: what follows the warm-up (see `lndrill.train.optim`).
    grad_steps: the steps at which per-layer gradient norms are kept (default: 1, 10, 100, ... and the last).
    """

    placements: tuple[str, ...] = ("post", "pre")
    depth: int = 6
    width: int = 64
    heads: int = 4
    vocab: int = 16
    length: int = 8
    batch: int = 32
    lrs: tuple[float, ...] = (1e-3,)
    warmups: tuple[int, ...] = (0, 400)
    steps: int = 1000
    seed: int = 0
    seeds: int = 1
    schedule: str = "constant"
    dtype: str = "float32"
    curve_points: int = 100
    grad_steps: tuple[int, ...] | None = None
    preset: str | None = None

    def __post_init__(self) -> None:
        self._validate()

    def _validate(self) -> None:
        if not self.placements:
            raise TrainConfigError("give at least one placement")
        for key in self.placements:
            if key not in BY_KEY:
                raise TrainConfigError(f"unknown placement {key!r} (choose from {', '.join(BY_KEY)})")
        for name, value, lo, hi in (("depth", self.depth, 1, 64), ("width", self.width, 4, 1024),
                                    ("heads", self.heads, 1, 64), ("vocab", self.vocab, 2, 4096),
                                    ("length", self.length, 2, 256), ("batch", self.batch, 1, 4096),
                                    ("steps", self.steps, 1, 1_000_000), ("seeds", self.seeds, 1, 64),
                                    ("seed", self.seed, 0, 2**31), ("curve points", self.curve_points, 1, 100_000)):
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise TrainConfigError(f"{name} must be a whole number from {lo} to {hi:,} (got {value!r})")
        if self.width % self.heads:
            raise TrainConfigError(f"heads ({self.heads}) must divide the width ({self.width})")
        if not self.lrs or any(not (math.isfinite(lr) and 0 < lr <= 1) for lr in self.lrs):
            raise TrainConfigError(f"learning rates must be in (0, 1] (got {', '.join(map(str, self.lrs))})")
        if not self.warmups or any(w < 0 or w > 1_000_000 for w in self.warmups):
            raise TrainConfigError("warm-up steps must be whole numbers from 0 to 1,000,000")
        if self.schedule not in SCHEDULES:
            raise TrainConfigError(f"unknown schedule {self.schedule!r} (choose from {', '.join(SCHEDULES)})")
        if self.dtype not in DTYPES:
            raise TrainConfigError(f"unknown dtype {self.dtype!r} (choose from {', '.join(DTYPES)})")

    @property
    def runs_per_placement(self) -> int:
        """Runs batched together for one placement."""
        return len(self.lrs) * len(self.warmups) * self.seeds

    @property
    def total_steps(self) -> int:
        """Optimiser steps over the grid (one step advances every run of a placement)."""
        return self.steps * len(self.placements)

    @property
    def kept_grad_steps(self) -> tuple[int, ...]:
        """The steps whose per-layer gradient norms are kept."""
        if self.grad_steps is not None:
            return tuple(sorted({s for s in self.grad_steps if 1 <= s <= self.steps}))
        marks = {1, self.steps}
        power = 10
        while power < self.steps:
            marks.add(power)
            power *= 10
        return tuple(sorted(marks))

    def shape(self, placement: str) -> ModelShape:
        """The model of one placement."""
        return ModelShape(placement=placement, depth=self.depth, width=self.width, heads=self.heads,
                          vocab=self.vocab, length=self.length)

    def estimated_seconds(self) -> float:
        """A pessimistic estimate of the grid's time, priced from runs on the shared 2-core machine (one
        BLAS thread): matrix products at 40 Gflop/s (20 in float64), each tiny attention product at 0.5 us,
        elementwise work at 8 GB/s, a fixed cost per step and per layer. Times 1.5, it came out 1.5-2.6x the
        real time of the preset and of models up to width 128 (depth 12, 6 runs batched) with another
        process busy on one core. `benchmarks/bench_train.py` prints steps/s."""
        r = self.runs_per_placement
        tokens = r * self.batch * self.length
        d, f, n, v = self.width, 4 * self.width, self.length, self.vocab
        per_layer = 2 * tokens * (4 * d * d + 2 * d * f) + 4 * tokens * n * d
        flops = 3 * (self.depth * per_layer + 2 * tokens * d * v)  # forward + backward
        products = 6 * self.depth * r * self.batch * self.heads
        bytes_per = 4 if self.dtype == "float32" else 8
        elements = 20 * self.depth * tokens * d + 12 * r * self.shape(self.placements[0]).parameter_count()
        rate = 4e10 if self.dtype == "float32" else 2e10
        per_step = 1.5e-3 + 3e-4 * self.depth + flops / rate + products * 0.5e-6 + elements * bytes_per / 8e9
        return 0.3 + 1.5 * self.total_steps * per_step


@dataclass
class RunResult:
    """One run: its setting, its curve (mean training loss over each interval ending at `steps[i]`;
    None after a divergence), the held-out final loss and accuracy, and per-layer gradient norms."""

    placement: str
    lr: float
    warmup: int
    seed: int
    steps: list[int] = field(default_factory=list)
    losses: list[float | None] = field(default_factory=list)
    diverged_at: int | None = None
    final_loss: float | None = None
    final_accuracy: float | None = None
    grad_norms: dict[int, list[float]] = field(default_factory=dict)

    @property
    def diverged(self) -> bool:
        """Whether the run diverged (its final loss is then None)."""
        return self.diverged_at is not None

    @property
    def label(self) -> str:
        """E.g. "Post-LN lr 1e-03 warm-up 0 seed 0"."""
        return f"{BY_KEY[self.placement].label} lr {self.lr:g} warm-up {self.warmup} seed {self.seed}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "placement": self.placement, "lr": self.lr, "warmup": self.warmup, "seed": self.seed,
            "diverged": self.diverged, "diverged_at": self.diverged_at,
            "final_loss": self.final_loss, "final_accuracy": self.final_accuracy,
            "curve": {"steps": list(self.steps), "loss": list(self.losses)},
            "grad_norms": {str(s): v for s, v in self.grad_norms.items()},
        }


@dataclass
class Group:
    """The runs of one (placement, lr, warm-up) over seeds, for summaries."""

    placement: str
    lr: float
    warmup: int
    runs: list[RunResult]

    @property
    def diverged(self) -> int:
        """How many seeds diverged."""
        return sum(r.diverged for r in self.runs)

    @property
    def final_losses(self) -> list[float]:
        """Final losses of the seeds that did not diverge (inf for those that did)."""
        return [r.final_loss if r.final_loss is not None else math.inf for r in self.runs]

    @property
    def median_final_loss(self) -> float:
        """Median over seeds, a diverged seed counting as infinite."""
        return float(np.median(self.final_losses))


@dataclass
class TrainResult:
    """Every run of the grid, with timing."""

    config: TrainConfig
    runs: list[RunResult]
    seconds: float = 0.0
    steps_done: int = 0
    cancelled: bool = False

    def groups(self) -> list[Group]:
        """Runs grouped by (placement, lr, warm-up), in grid order."""
        out: dict[tuple[str, float, int], Group] = {}
        for run in self.runs:
            key = (run.placement, run.lr, run.warmup)
            out.setdefault(key, Group(run.placement, run.lr, run.warmup, [])).runs.append(run)
        return list(out.values())

    def group(self, placement: str, lr: float, warmup: int) -> Group | None:
        """One group, or None."""
        for g in self.groups():
            if (g.placement, g.lr, g.warmup) == (placement, lr, warmup):
                return g
        return None

    @property
    def steps_per_second(self) -> float:
        """Grid steps per second of wall-clock time."""
        return self.steps_done / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the configuration, timing, a summary per group and every run's curve."""
        cfg = self.config
        return {
            "config": {
                "preset": cfg.preset, "placements": list(cfg.placements), "depth": cfg.depth, "width": cfg.width,
                "heads": cfg.heads, "vocab": cfg.vocab, "length": cfg.length, "batch": cfg.batch,
                "lrs": list(cfg.lrs), "warmups": list(cfg.warmups), "steps": cfg.steps, "seed": cfg.seed,
                "seeds": cfg.seeds, "schedule": cfg.schedule, "dtype": cfg.dtype, "task": "reverse",
            },
            "cancelled": self.cancelled, "seconds": round(self.seconds, 3), "steps_done": self.steps_done,
            "steps_per_second": round(self.steps_per_second, 2),
            "summary": [
                {"placement": g.placement, "lr": g.lr, "warmup": g.warmup, "diverged": g.diverged,
                 "seeds": len(g.runs),
                 "median_final_loss": g.median_final_loss if math.isfinite(g.median_final_loss) else None}
                for g in self.groups()
            ],
            "runs": [r.to_dict() for r in self.runs],
        }


@dataclass
class Progress:
    """Sent while training: grid steps done of `total`, the rate, the estimated seconds left, and the
    curve points added since the last event as (run index into `runs`, step, mean loss or None)."""

    done: int
    total: int
    seconds: float
    steps_per_second: float
    eta_seconds: float | None
    placement: str
    points: list[tuple[int, int, float | None]]
    runs: list[RunResult]


@dataclass
class Finished:
    """The last event: the result (partial when cancelled)."""

    result: TrainResult


def _grid(cfg: TrainConfig, placement: str) -> list[RunResult]:
    return [RunResult(placement, lr, warmup, cfg.seed + s)
            for lr in cfg.lrs for warmup in cfg.warmups for s in range(cfg.seeds)]


def train_events(cfg: TrainConfig, cancel: threading.Event | None = None) -> Iterator[Progress | Finished]:
    """Train the grid, yielding progress and, last, the result (see the module's docstring)."""
    runs: list[RunResult] = []
    result = TrainResult(cfg, runs)
    start = time.perf_counter()
    every = max(1, cfg.steps // cfg.curve_points)
    dtype = np.float32 if cfg.dtype == "float32" else np.float64
    kept = set(cfg.kept_grad_steps)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings(), one_blas_thread():
            warnings.simplefilter("ignore", RuntimeWarning)
            for g_index, key in enumerate(cfg.placements):
                group = _grid(cfg, key)
                offset = len(runs)
                runs.extend(group)
                seeds = [r.seed for r in group]
                shape = cfg.shape(key)
                model = Model(shape)
                params = init_params(shape, seeds, dtype)
                adam = Adam(params)
                data = {s: np.random.default_rng([s, 1]) for s in sorted(set(seeds))}
                alive = np.ones(len(group), dtype=bool)
                recent = np.zeros((BLOWUP_WINDOW, len(group)))
                interval = np.zeros(len(group))
                threshold = 2.0 * math.log(cfg.vocab)
                for step in range(1, cfg.steps + 1):
                    if cancel is not None and cancel.is_set():
                        raise _Cancelled
                    tokens, targets = _batch(data, seeds, cfg)
                    loss, grads = model.loss(params, tokens, targets)
                    assert grads is not None
                    recent[step % BLOWUP_WINDOW] = loss
                    interval += loss
                    window = recent.mean(axis=0) if step >= BLOWUP_WINDOW else np.zeros(len(group))
                    bad = alive & (~np.isfinite(loss) | (window > threshold))
                    for i in (int(k) for k in np.flatnonzero(bad)):
                        group[i].diverged_at = step
                        alive[i] = False
                        adam.reset_run(i)
                    if step in kept:
                        norms = _layer_grad_norms(grads, cfg.depth)
                        for i, run in enumerate(group):
                            if alive[i]:
                                run.grad_norms[step] = [float(x) for x in norms[:, i]]
                    lr = np.array([r.lr * lr_factor(step, r.warmup, cfg.schedule) for r in group]) * alive
                    adam.step(grads, lr)
                    points: list[tuple[int, int, float | None]] = []
                    if step % every == 0 or step == cfg.steps:
                        span = (step - 1) % every + 1
                        for i, run in enumerate(group):
                            value = float(interval[i] / span) if alive[i] else None
                            run.steps.append(step)
                            run.losses.append(value)
                            points.append((offset + i, step, value))
                        interval[:] = 0
                        done = g_index * cfg.steps + step
                        result.seconds = time.perf_counter() - start
                        result.steps_done = done
                        rate = done / result.seconds if result.seconds > 0 else 0.0
                        eta = (cfg.total_steps - done) / rate if rate > 0 else None
                        yield Progress(done, cfg.total_steps, result.seconds, rate, eta, key, points, runs)
                _evaluate(model, params, group, alive, cfg)
    except _Cancelled:
        result.cancelled = True
    finally:
        result.seconds = time.perf_counter() - start
    yield Finished(result)


class _Cancelled(Exception):
    """Raised inside the loop when the cancel event is set."""


def _batch(data: dict[int, np.random.Generator], seeds: list[int], cfg: TrainConfig) -> tuple[np.ndarray, np.ndarray]:
    """One batch per run; runs with the same seed see the same data."""
    drawn = {s: reverse_batch(rng, cfg.batch, cfg.length, cfg.vocab) for s, rng in data.items()}
    return np.stack([drawn[s][0] for s in seeds]), np.stack([drawn[s][1] for s in seeds])


def _layer_grad_norms(grads: dict[str, np.ndarray], depth: int) -> np.ndarray:
    """||gradient of layer l's parameters|| per run: (depth, R)."""
    runs = next(iter(grads.values())).shape[0]
    sq = np.zeros((depth, runs))
    for name, g in grads.items():
        layer = layer_of(name)
        if layer is not None:
            sq[layer] += np.einsum("ri,ri->r", g.reshape(runs, -1), g.reshape(runs, -1))
    return np.sqrt(sq)


def _evaluate(model: Model, params: dict[str, np.ndarray], group: list[RunResult], alive: np.ndarray,
              cfg: TrainConfig) -> None:
    """Held-out loss and accuracy per run (the same sequences for every run of a seed)."""
    held = {s: reverse_batch(np.random.default_rng([s, 2]), EVAL_BATCH, cfg.length, cfg.vocab)
            for s in sorted({r.seed for r in group})}
    tokens = np.stack([held[r.seed][0] for r in group])
    targets = np.stack([held[r.seed][1] for r in group])
    loss, accuracy = model.evaluate(params, tokens, targets)
    for i, run in enumerate(group):
        if alive[i] and math.isfinite(float(loss[i])):
            run.final_loss = float(loss[i])
            run.final_accuracy = float(accuracy[i])


def train(cfg: TrainConfig, cancel: threading.Event | None = None) -> TrainResult:
    """Run the whole grid and return the result."""
    for event in train_events(cfg, cancel):
        if isinstance(event, Finished):
            return event.result
    raise AssertionError("train_events ends with Finished")  # pragma: no cover


def with_options(cfg: TrainConfig, **changes: Any) -> TrainConfig:
    """A copy with some fields changed (validated again)."""
    return replace(cfg, **changes)
