"""Benchmark the gradient simulator (a plain script: `python benchmarks/bench_sim.py`).

Prints medians of repeated runs and ratios to a matmul floor measured in the same process, the sweep
and its floor timed alternately so both see the same load. The machine may be noisy (shared cores,
multithreaded BLAS), so treat differences of a few tens of percent between runs as noise.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

import numpy as np

from lndrill.sim import SimConfig, sweep


def median_time(fn: Callable[[], object], repeats: int, warmup: int = 2) -> float:
    """Median wall time of ``fn`` in seconds over ``repeats`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def matmul_floor_fn(batch: int, d: int, layers: int, placements: int) -> Callable[[], None]:
    """One (batch of) D x D @ D x D product per layer per placement: the sweep's lower bound."""
    shape = (batch, d, d) if batch > 1 else (d, d)
    a = np.random.default_rng(0).standard_normal(shape)
    b = np.random.default_rng(1).standard_normal(shape)
    out = np.empty(shape)
    count = layers * placements

    def products() -> None:
        for _ in range(count):
            np.matmul(a, b, out=out)

    return products


def interleaved_ratio(work: Callable[[], object], floor: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Median times of ``work`` and ``floor``, measured alternately so both see the same machine noise."""
    work()
    floor()
    t_work, t_floor = [], []
    for _ in range(rounds):
        for fn, bucket in ((work, t_work), (floor, t_floor)):
            start = time.perf_counter()
            fn()
            bucket.append(time.perf_counter() - start)
    return statistics.median(t_work), statistics.median(t_floor)


def torch_live_sweep(width: int, depth: int) -> Callable[[], object] | None:
    """The live sweep written plainly with torch autograd (Jacobian per depth), or None without torch."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_default_dtype(torch.float64)
    gen = torch.Generator().manual_seed(0)
    w = torch.randn(width, width, generator=gen) / width**0.5
    x = torch.randn(width, generator=gen)

    def ln(v: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.layer_norm(v, (width,), eps=1e-5)

    def run() -> list[float]:
        norms = []
        for placement in ("post", "pre"):
            for d in range(1, depth + 1):
                def stack(inp: torch.Tensor, d: int = d, placement: str = placement) -> torch.Tensor:
                    v = inp
                    for _ in range(d):
                        v = ln(v + torch.tanh(w @ v)) if placement == "post" else v + torch.tanh(w @ ln(v))
                    return v

                norms.append(float(torch.linalg.norm(torch.autograd.functional.jacobian(stack, x))))
        return norms

    return run


def main() -> None:
    """Run every measurement once and print medians and ratios."""
    print("lndrill sim benchmark (medians; the machine is shared and noisy: expect tens of percent run to run)")
    results: dict[str, float] = {}

    live = SimConfig(width=64, depths=list(range(1, 49)), placements=("post", "pre"), metric="jacobian")
    t_live = median_time(lambda: sweep(live), repeats=40)
    results["live_ms"] = t_live * 1e3
    print(f"live sweep  width 64, depths 1-48, post+pre, jacobian: {t_live * 1e3:7.2f} ms  (target <= 16 ms)")

    wide = SimConfig(width=256, depths=list(range(1, 201)), placements=("post", "pre"), metric="jacobian")
    t_wide, f_wide = interleaved_ratio(lambda: sweep(wide), matmul_floor_fn(1, 256, 200, 2), rounds=9)
    results["wide_ratio"] = t_wide / f_wide
    print(f"wide sweep  width 256, depths 1-200, post+pre:        {t_wide * 1e3:7.1f} ms, "
          f"matmul floor {f_wide * 1e3:6.1f} ms, ratio {t_wide / f_wide:4.2f}x  (target <= 2.5x)")

    seeds = SimConfig(width=64, depths=list(range(1, 49)), placements=("post", "pre"), metric="jacobian",
                      seeds=32)
    t_seeds, f_seeds = interleaved_ratio(lambda: sweep(seeds), matmul_floor_fn(32, 64, 48, 2), rounds=15)
    results["seeds_ratio"] = t_seeds / f_seeds
    print(f"32 seeds    width 64, depths 1-48, batched:           {t_seeds * 1e3:7.1f} ms, "
          f"matmul floor {f_seeds * 1e3:6.1f} ms, ratio {t_seeds / f_seeds:4.2f}x  (target <= 3x)")

    def paper_end_to_end() -> None:
        for metric in ("last-layer", "stream", "param"):
            json.dumps(sweep(SimConfig(preset="paper", metric=metric)).to_dict())

    t_paper = median_time(paper_end_to_end, repeats=5, warmup=1)
    results["paper_s"] = t_paper
    print(f"paper preset end to end (last-layer 6-48, stream and param at 12; 8 seeds; to JSON): "
          f"{t_paper:5.2f} s  (target <= 1 s)")

    torch_run = torch_live_sweep(64, 48)
    if torch_run is None:
        print("torch autograd comparison: skipped (torch is not installed)")
    else:
        t_torch = median_time(torch_run, repeats=3, warmup=1)
        print(f"torch autograd live sweep: {t_torch * 1e3:.1f} ms, {t_torch / t_live:.0f}x the NumPy sweep")


if __name__ == "__main__":
    main()
