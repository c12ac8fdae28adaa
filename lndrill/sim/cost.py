"""What a simulator run will cost, before it runs: seconds and peak bytes, counted from every array it
allocates and every pass it makes (the guard in `SimConfig` refuses a run over its budget).

The count follows the code path by path (sampling the inputs, the forward pass with or without the
input Jacobian's tangents, the backward pass of the per-layer metric, the transformer's softmax
readout) in kinds of work, each priced pessimistically: matrix-product flops, small products in a batch
(each has a fixed overhead), elements read and written (faster while the arrays fit in cache), Gaussian
draws, NumPy calls (Python overhead) and generators (one per seed). Peak memory is the inputs (twice
while they are stacked), plus the largest working set of one placement's pass, plus the per-seed results
kept for the medians, plus a fixed allowance.

`benchmarks/bench_sim_guard.py` prints this estimate beside the measured time and peak memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lndrill.sim.placements import placement

if TYPE_CHECKING:
    from lndrill.sim.config import SimConfig

#: Prices of the kinds of work: fitted on 80 runs of random configurations (benchmarks/bench_sim_guard.py
#: draws them) on a shared 2-core machine, then made about twice as slow (flops four times: OpenBLAS slows
#: sharply when its threads share busy cores), so a run the guard accepts at its budget should finish
#: within it on a machine half as fast or half as free. The benchmark prints estimate / real per run.
FLOP_RATE = 1e10  # matrix-product floating-point operations per second
PRODUCT_S = 1e-7  # fixed cost of one small product inside a batched matmul
ELEMENT_RATE = 2e9  # elements per second read or written by array operations on arrays that fit in cache
STREAM_RATE = 6e8  # the same for arrays larger than CACHE_BYTES (bound by memory bandwidth)
CACHE_BYTES = 1_000_000
NORMAL_RATE = 2.4e7  # Gaussian draws per second
CALL_S = 1.2e-6  # one NumPy call from Python
SEED_S = 3e-5  # creating one seed's generator (and the Python around its draws)
FIXED_S = 0.04  # setting up a run
BYTES = 8  # float64
#: Memory a run uses besides the arrays counted here (small arrays, Python objects): a fixed allowance.
BASE_BYTES = 16_000_000


@dataclass
class Work:
    """Counts of work; `seconds` prices them."""

    flops: float = 0.0
    products: float = 0.0
    elements: float = 0.0
    streamed: float = 0.0
    normals: float = 0.0
    calls: float = 0.0
    seeds: float = 0.0

    def add(self, times: float = 1.0, **counts: float) -> None:
        """Add `counts` (flops=..., elements=...) `times` over."""
        for name, value in counts.items():
            setattr(self, name, getattr(self, name) + times * value)

    def matmul(self, batch: float, m: float, k: float, n: float, times: float = 1.0) -> None:
        """`times` batched products of `batch` (m x k) @ (k x n) matrices: the flops, the fixed cost of
        each product, and reading both operands and writing the result (a matrix-vector product is
        bound by reading the matrix)."""
        touched = batch * (m * k + k * n + m * n)
        self.add(times, flops=2 * batch * m * k * n, products=batch, calls=1)
        self._touch(touched, times)

    def passes(self, size: float, count: float = 1.0, times: float = 1.0) -> None:
        """`count` elementwise operations over arrays of `size` elements, `times` over (each reads its
        input and writes a result)."""
        self.add(times, calls=count)
        self._touch(2 * size * count, times, size)

    def _touch(self, elements: float, times: float, size: float | None = None) -> None:
        big = (size if size is not None else elements) * BYTES > CACHE_BYTES
        self.add(times, **{"streamed" if big else "elements": elements})

    @property
    def seconds(self) -> float:
        """The priced time."""
        return (FIXED_S + self.flops / FLOP_RATE + self.products * PRODUCT_S + self.elements / ELEMENT_RATE
                + self.streamed / STREAM_RATE + self.normals / NORMAL_RATE + self.calls * CALL_S
                + self.seeds * SEED_S)


@dataclass
class Estimate:
    """A run's estimated seconds and peak bytes, with the work and the parts they come from."""

    seconds: float
    bytes: float
    work: Work = field(default_factory=Work)
    parts: dict[str, float] = field(default_factory=dict)


def estimate(cfg: SimConfig) -> Estimate:
    """The estimated time and peak memory of `sweep(cfg)`."""
    work = Work()
    inputs, sampling_peak = _sampling(cfg, work)
    working = 0.0
    # With three or more depths the update metric runs again under Admin's random-sign steps (for the
    # slope note); on the toy those steps are a fresh +-1 matrix per layer and depth.
    admin_rerun = cfg.metric == "update" and len(cfg.depths) >= 3
    for key in cfg.placements:
        for _ in range(2 if admin_rerun else 1):
            working = max(working, _placement(cfg, key, work))
        if admin_rerun and (cfg.model == "toy" or cfg.preset == "article"):
            work.passes(cfg.seeds * cfg.width * cfg.width, count=4, times=sum(cfg.depths))
    # Per-seed values for every placement (two metrics beside the article's), kept until the median,
    # which sorts a copy of one placement's at a time.
    columns = cfg.max_depth if cfg.is_layer_metric else len(cfg.depths)
    arrays = len(cfg.placements) * (2 if cfg.metric == "article" else 1)
    per_seed = cfg.seeds * columns
    results = BYTES * per_seed * (arrays + 1)
    work.passes(per_seed, count=4, times=arrays)  # medians and spreads
    peak = max(sampling_peak, inputs + working) + results + BASE_BYTES
    return Estimate(work.seconds, peak, work, {"inputs_bytes": inputs, "working_bytes": working})


def _layers(cfg: SimConfig, key: str) -> tuple[int, int]:
    """(layers run, depths recorded) for one placement: DeepNorm's constants depend on the depth, so its
    sweep runs one stack per depth."""
    if cfg.metric in ("param", "stream"):
        return cfg.max_depth, 0
    if placement(key).deepnorm_scaling:  # (and the update metric: per depth, a backward and a tangent pass)
        return sum(cfg.depths), len(cfg.depths)
    return cfg.max_depth, len(cfg.depths)


# ---------------------------------------------------------------------------------------------- inputs
def _sampling(cfg: SimConfig, work: Work) -> tuple[float, float]:
    """Count drawing the inputs; return (bytes kept for the run, peak bytes while drawing)."""
    b, d, depth = cfg.seeds, cfg.width, cfg.max_depth
    if cfg.preset == "article":
        work.add(calls=200)
        return BYTES * 3 * d * d, BYTES * 6 * d * d
    if cfg.model == "toy":
        weights = d * d * (1 if cfg.shared_weights else depth)
        per_seed = 2 * d + weights
        work.add(b, seeds=1, normals=per_seed, calls=8)
        work.passes(weights, times=b)  # scaling W
        work.passes(b * per_seed)  # stacking the seeds
        kept = BYTES * b * per_seed
        # Each seed's draw and its scaled copy exist together; then the list of draws and their stack.
        return kept, kept + max(kept, BYTES * 2 * weights)
    n, v = cfg.tokens, cfg.vocab
    weights = 3 * depth * d * d
    per_seed = n * d + d * v + weights
    work.add(b, seeds=1, normals=per_seed, calls=20)
    work.passes(d * v + weights, times=b)  # scaling
    work.passes(n * d, count=8, times=b)  # normalising the input tokens
    work.passes(b * per_seed)  # stacking
    kept = BYTES * b * (per_seed + n)
    return kept, kept + max(kept, BYTES * 2 * max(d * v, weights))


# ---------------------------------------------------------------------------------------------- one placement
def _placement(cfg: SimConfig, key: str, work: Work) -> float:
    """Count one placement's pass; return its working set in bytes (beyond the inputs)."""
    if cfg.model == "toy" or cfg.preset == "article":
        return _toy(cfg, key, work)
    return _transformer(cfg, key, work)


def _toy(cfg: SimConfig, key: str, work: Work) -> float:
    b, d = cfg.seeds, cfg.width
    p = placement(key)
    sandwich = p.norm_branch_output
    final_ln = bool(cfg.final_ln) and p.norm_branch_input
    layers, recorded = _layers(cfg, key)
    untied = not cfg.shared_weights and cfg.preset != "article"
    vectors = BYTES * b * d
    square = b * d * d
    if cfg.metric == "param":  # one forward pass keeping a tape, one backward pass
        work.matmul(b, d, d, 1, times=2 * layers)
        work.passes(b * d, count=35, times=layers)
        return layers * 6 * vectors
    if cfg.metric == "update":  # a forward tape, then per depth a backward pass and one tangent
        walked = sum(cfg.depths)
        work.matmul(b, d, d, 1, times=layers + 3 * walked)
        work.passes(b * d, count=35, times=layers)
        work.passes(b * d, count=60, times=walked)
        shared = 0.0
        if not untied:  # the shared W's summed gradient and its sign, per depth
            work.matmul(b, d, cfg.max_depth, d, times=len(cfg.depths))
            work.passes(square, count=3, times=len(cfg.depths))
            shared = BYTES * (3 * square + 2 * b * d * cfg.max_depth)
        return cfg.max_depth * 7 * vectors + shared + 20 * vectors
    if untied:
        work.passes(square, times=layers)  # each layer's row sums
    if cfg.metric in ("jacobian", "article"):  # the input Jacobian carried through every layer
        work.matmul(b, d, d + 2, d, times=layers)  # J <- M J
        work.matmul(b, 2, d, d, times=2 * layers)  # the two LayerNorm rows
        work.passes(square, count=2, times=layers)  # building M
        work.passes(b * d, count=30, times=layers)
        if sandwich:
            work.matmul(b, 2, d, d, times=layers)
            work.matmul(b, d, 2, d, times=layers)
            work.matmul(b, d, d, 1, times=layers)
            work.passes(square, count=5, times=layers)
        work.passes(square, count=3, times=layers / 32)  # rescaling against overflow
        work.passes(square, count=2, times=recorded)  # the Frobenius norm of a strided J
        work.matmul(b, 1, d * d, 1, times=recorded)
        if final_ln:
            work.matmul(b, 2, d, d, times=recorded)
            work.matmul(b, d, 2, d, times=recorded)
            work.passes(square, times=recorded)
        if cfg.metric == "article":
            work.matmul(b, 1, d, d, times=2 * recorded)
        work.passes(b * d, count=15, times=recorded)
        temporaries = 4 + (2 if sandwich or final_ln else 0)
        return BYTES * b * (3 * (d + 2) * d + temporaries * d * d) + 20 * vectors
    # last-layer, stream: the stack's values only
    work.matmul(b, d, d, 1, times=layers)
    work.passes(b * d, count=20, times=layers)
    work.passes(b * d, count=12, times=recorded)
    return 20 * vectors + (BYTES * square if untied else 0)


def _transformer(cfg: SimConfig, key: str, work: Work) -> float:
    b, d, n, v = cfg.seeds, cfg.width, cfg.tokens, cfg.vocab
    p = placement(key)
    sandwich = p.norm_branch_output
    scaled = p.deepnorm_scaling
    layers, recorded = _layers(cfg, key)
    tokens = b * n * d  # one value per token and feature

    def forward(times: float) -> None:
        """The stack's values: attention (a mean, one product), the FFN (two), two or three LayerNorms."""
        work.matmul(b, 1, d, d, times=times)
        work.matmul(b, n, d, d, times=2 * times)
        work.passes(tokens, count=30 + (10 if sandwich else 0), times=times)
        if scaled:
            work.passes(3 * b * d * d, times=times)  # beta times the layer's weights

    def readout(times: float) -> None:
        """The softmax readout's gradient, and the FFN's weight-gradient norm."""
        work.matmul(b, n, d, v, times=times)
        work.matmul(b, n, v, d, times=times)
        work.passes(b * n * v, count=6, times=times)
        work.matmul(b, n, d, n, times=2 * times)
        work.passes(tokens, count=15, times=times)

    readout_bytes = BYTES * 2 * b * n * v
    forward(layers)
    if cfg.metric == "param":  # forward keeping every block, then backward through all of them
        work.matmul(b, n, d, d, times=2 * layers)
        work.matmul(b, 1, d, d, times=layers)
        work.matmul(b, n, d, n, times=2 * layers)
        work.passes(tokens, count=40, times=layers)
        readout(1)
        tape = layers * (BYTES * 9 * tokens + (BYTES * 3 * b * d * d if scaled else 0))
        return tape + readout_bytes + BYTES * 10 * tokens
    if cfg.metric == "update":  # a forward tape; per depth a backward pass, weight gradients, one tangent
        walked = sum(cfg.depths)
        work.matmul(b, n, d, d, times=9 * walked)
        work.matmul(b, 1, d, d, times=4 * walked)
        work.matmul(b, d, n, d, times=3 * walked)
        work.passes(b * d * d, count=2, times=3 * walked)  # the signs
        work.passes(tokens, count=70, times=walked)
        readout(len(cfg.depths))
        # One stack's tape at a time (DeepNorm's stacks, one per depth, are not kept), and its steps.
        tape = cfg.max_depth * (BYTES * 9 * tokens + (BYTES * 3 * b * d * d if scaled else 0))
        return tape + readout_bytes + BYTES * (cfg.max_depth * 6 * b * d * d + 10 * tokens)
    if cfg.metric in ("jacobian", "article"):  # n*d tangents: the full input Jacobian
        k = n * d
        t = tokens * k
        work.matmul(b, d, d, k, times=layers)  # attention
        work.matmul(b * n, d, d, k, times=2 * layers)  # the FFN
        work.matmul(b * n, 1, d, k, times=2 * layers)  # each LayerNorm's y . t
        work.passes(t, count=16 + (8 if sandwich else 0), times=layers)
        work.passes(t, count=6, times=recorded)
        work.matmul(b, 1, t / b, 1, times=recorded)
        work.passes(k * k + 2 * t)  # the identity the tangents start from
        return BYTES * (7 * t + k * k) + BYTES * 20 * tokens
    if cfg.metric == "last-layer":
        readout(recorded)
        return readout_bytes + BYTES * 12 * tokens
    work.passes(tokens, count=3, times=layers)  # stream
    return BYTES * 12 * tokens
