"""The simulator's guard against its own cost (a plain script: `python benchmarks/bench_sim_guard.py`).

Draws random configurations the guard accepts (seeded: `--seed S` repeats a draw), runs each, and prints
the guard's estimate beside the measured wall time and peak memory (tracemalloc, which counts NumPy's
arrays; a second run, so tracing does not slow the timed one), with the ratio estimate / measured per
configuration and the median ratio. A ratio at or above 1 means the guard was pessimistic, as it should
be: below 1 for time, a run the guard accepts near its 10 s budget could take longer. Each configuration
runs in a fresh subprocess so one run's memory does not count against the next.

    python benchmarks/bench_sim_guard.py [--count 20] [--seed 0] [--max-estimate 10]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
from typing import Any

from lndrill.sim import SimConfig
from lndrill.sim.config import PLACEMENTS, SimConfigError, estimate_cost, format_depths
from lndrill.sim.cost import BASE_BYTES

_CHILD = r"""
import json, sys, time, tracemalloc
from lndrill.sim import SimConfig, sweep
options = json.loads(sys.argv[1])
cfg = SimConfig.from_options(**options)
start = time.perf_counter()
sweep(cfg)
seconds = time.perf_counter() - start
tracemalloc.start()
sweep(cfg)
_, peak = tracemalloc.get_traced_memory()
print(json.dumps({"seconds": seconds, "peak": peak}))
"""


def _log_uniform(rng: random.Random, lo: float, hi: float) -> int:
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def random_options(rng: random.Random) -> dict[str, Any]:
    """One random configuration, as `SimConfig.from_options` keywords."""
    model = rng.choice(["toy", "toy", "transformer"])
    metric = rng.choice(["jacobian", "article", "last-layer", "param", "stream"])
    placements = rng.sample(list(PLACEMENTS), rng.randint(1, len(PLACEMENTS)))
    if metric in ("param", "stream"):
        depths = str(_log_uniform(rng, 1, 3000 if model == "toy" else 200))
    elif rng.random() < 0.5:
        depths = f"1-{_log_uniform(rng, 1, 400 if model == 'toy' else 48)}"
    else:
        depths = ",".join(str(_log_uniform(rng, 1, 2000 if model == "toy" else 64)) for _ in range(rng.randint(1, 5)))
    options: dict[str, Any] = {
        "model": model, "metric": metric, "placements": ",".join(placements), "depths": depths,
        "width": _log_uniform(rng, 2, 512 if model == "toy" else 128), "seeds": _log_uniform(rng, 1, 256),
    }
    if model == "toy":
        options["untied"] = rng.random() < 0.3
        options["final_ln"] = rng.random() < 0.3
    else:
        options["tokens"] = _log_uniform(rng, 1, 32)
        options["vocab"] = _log_uniform(rng, 2, 200_000)
    return options


def describe(cfg: SimConfig) -> str:
    """A configuration in one short line."""
    bits = [cfg.model, cfg.metric, "+".join(cfg.placements), f"depths {format_depths(cfg.depths)}",
            f"d={cfg.width}", f"seeds={cfg.seeds}"]
    if cfg.model == "transformer":
        bits += [f"n={cfg.tokens}", f"V={cfg.vocab}"]
    elif not cfg.shared_weights:
        bits.append("untied")
    if cfg.final_ln and cfg.model == "toy":
        bits.append("final-ln")
    return " ".join(bits)


def draw(count: int, seed: int, max_estimate: float) -> list[tuple[dict[str, Any], SimConfig, float, float]]:
    """`count` accepted configurations, half of them estimated above a tenth of `max_estimate`, so the
    comparison covers the runs near the budget where the guard matters."""
    rng = random.Random(seed)
    picked: list[tuple[dict[str, Any], SimConfig, float, float]] = []
    while len(picked) < count:
        options = random_options(rng)
        try:
            cfg = SimConfig.from_options(**options)
        except SimConfigError:
            continue
        seconds, memory = estimate_cost(cfg)
        if seconds > max_estimate:
            continue
        heavy = sum(1 for _, _, s, _ in picked if s > max_estimate / 10)
        if seconds <= max_estimate / 10 and len(picked) - heavy >= count // 2:
            continue
        picked.append((options, cfg, seconds, memory))
    return picked


def measure(options: dict[str, Any]) -> dict[str, float]:
    """Run one configuration in a fresh interpreter: wall seconds and peak traced bytes."""
    out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(options)], capture_output=True, text=True,
                         check=True, timeout=600)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description="the simulator guard's estimate vs the real cost")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-estimate", type=float, default=10.0, help="largest estimate to run (seconds)")
    args = parser.parse_args()
    rows = []
    print(f"memory: the estimate includes a fixed {BASE_BYTES / 1e6:.0f} MB allowance for small arrays and objects; "
          "its ratio is given for runs of 10 MB or more\n")
    print(f"{'estimate s':>10} {'real s':>8} {'ratio':>6}   {'estimate MB':>11} {'peak MB':>8} {'ratio':>6}   config")
    for options, cfg, est_s, est_b in draw(args.count, args.seed, args.max_estimate):
        real = measure(options)
        t_ratio = est_s / real["seconds"]
        m_ratio = est_b / real["peak"] if real["peak"] >= 10e6 else None
        rows.append((t_ratio, m_ratio, est_b >= real["peak"]))
        shown = f"{m_ratio:>6.2f}" if m_ratio is not None else f"{'-':>6}"
        print(f"{est_s:>10.3f} {real['seconds']:>8.3f} {t_ratio:>6.2f}   {est_b / 1e6:>11.1f} "
              f"{real['peak'] / 1e6:>8.1f} {shown}   {describe(cfg)}", flush=True)
    times = [r[0] for r in rows]
    memories = [r[1] for r in rows if r[1] is not None]
    print(f"\nmedian ratio estimate/real over {len(rows)} runs: time {statistics.median(times):.2f} "
          f"(min {min(times):.2f}, max {max(times):.2f})")
    if memories:
        print(f"memory, {len(memories)} runs of 10 MB or more: median {statistics.median(memories):.2f} "
              f"(min {min(memories):.2f}, max {max(memories):.2f})")
    print(f"estimate at or above the measured peak in {sum(r[2] for r in rows)} of {len(rows)} runs")


if __name__ == "__main__":
    main()
