"""Speed of the training lab on the xiong preset's model: steps per second, and how a step compares with
its matmul floor (the same matrix products alone, on arrays of the same shapes, timed back to back).

    .venv/bin/python benchmarks/bench_train.py [--steps 100] [--placement post] [--runs R]

With torch importable (it is never a dependency; e.g. a separate venv with `pip install torch` and
`PYTHONPATH=. /path/to/venv/bin/python benchmarks/bench_train.py`), the same training written plainly in
torch (nn.Linear, F.layer_norm, softmax attention, torch.optim.Adam with betas 0.9/0.98) is timed too.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

import numpy as np

from lndrill.train.model import Model, ModelShape, init_params
from lndrill.train.optim import Adam
from lndrill.train.presets import PRESETS
from lndrill.train.task import reverse_batch
from lndrill.train.threads import one_blas_thread


def _seconds_per_call(one: Callable[[], None], steps: int) -> float:
    """Mean seconds per call of `one` over `steps` calls, after three warm-up calls."""
    for _ in range(3):
        one()
    start = time.perf_counter()
    for _ in range(steps):
        one()
    return (time.perf_counter() - start) / steps


def step_time(shape: ModelShape, runs: int, batch: int, steps: int) -> float:
    """Seconds per training step (forward, backward, Adam) of `runs` batched models."""
    return _seconds_per_call(make_step(shape, runs, batch), steps)


def make_step(shape: ModelShape, runs: int, batch: int) -> Callable[[], None]:
    """One training step (forward, backward, Adam) of `runs` batched models, as a call."""
    params = init_params(shape, list(range(runs)))
    model, adam = Model(shape), Adam(params)
    rng = np.random.default_rng(0)
    lr = np.full(runs, 1e-3)

    def one() -> None:
        data = [reverse_batch(rng, batch, shape.length, shape.vocab) for _ in range(runs)]
        tokens, targets = np.stack([d[0] for d in data]), np.stack([d[1] for d in data])
        _, grads = model.loss(params, tokens, targets)
        assert grads is not None
        adam.step(grads, lr)

    return one


def matmul_floor(shape: ModelShape, runs: int, batch: int, repeats: int) -> float:
    """Seconds for one step's matrix products alone (forward and backward), float32."""
    return _seconds_per_call(make_floor(shape, runs, batch), repeats)


def make_floor(shape: ModelShape, runs: int, batch: int) -> Callable[[], None]:
    """One step's matrix products alone (forward and backward), float32, on arrays of the step's shapes."""
    r, m, d, f, n, v = runs, batch * shape.length, shape.width, shape.hidden, shape.length, shape.vocab
    h, dh = shape.heads, shape.width // shape.heads
    rng = np.random.default_rng(0)
    pairs: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for _ in range(shape.depth):
        # forward: qkv, scores, P v, W^O, W^1, W^2
        fwd = [((r, m, d), (r, d, 3 * d)), ((r, batch, h, n, dh), (r, batch, h, dh, n)),
               ((r, batch, h, n, n), (r, batch, h, n, dh)), ((r, m, d), (r, d, d)),
               ((r, m, d), (r, d, f)), ((r, m, f), (r, f, d))]
        # backward: two products per forward product (input and weight cotangents)
        bwd = [((r, m, 3 * d), (r, 3 * d, d)), ((r, d, m), (r, m, 3 * d)),
               ((r, batch, h, n, n), (r, batch, h, n, dh)), ((r, batch, h, n, n), (r, batch, h, n, dh)),
               ((r, batch, h, n, dh), (r, batch, h, dh, n)), ((r, batch, h, n, n), (r, batch, h, n, dh)),
               ((r, m, d), (r, d, d)), ((r, d, m), (r, m, d)),
               ((r, m, f), (r, f, d)), ((r, d, m), (r, m, f)),
               ((r, m, d), (r, d, f)), ((r, f, m), (r, m, d))]
        pairs += fwd + bwd
    pairs += [((r, m, d), (r, d, v)), ((r, d, m), (r, m, v)), ((r, m, v), (r, v, d))]
    arrays = [(rng.standard_normal(a).astype(np.float32), rng.standard_normal(b).astype(np.float32))
              for a, b in pairs]
    def one() -> None:
        for a, b in arrays:
            np.matmul(a, b)

    return one


def torch_step_time(shape: ModelShape, runs: int, batch: int, steps: int) -> float | None:
    """Seconds per step of the same training written plainly in torch, one model per run in a loop
    (None when torch is not importable)."""
    try:
        import torch
        import torch.nn.functional as F  # noqa: N812
    except ImportError:
        return None
    torch.manual_seed(0)
    torch.set_num_threads(1)  # one thread, as the NumPy side (two threads were 100x slower on the busy machine)
    d, f, v, n, h = shape.width, shape.hidden, shape.vocab, shape.length, shape.heads
    post = shape.placement == "post"

    class Layer(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.qkv = torch.nn.Linear(d, 3 * d, bias=False)
            self.o = torch.nn.Linear(d, d, bias=False)
            self.w1, self.w2 = torch.nn.Linear(d, f), torch.nn.Linear(f, d)
            self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)

        def attn(self, z: torch.Tensor) -> torch.Tensor:
            b = z.shape[0]
            q, k, val = self.qkv(z).view(b, n, 3, h, d // h).permute(2, 0, 3, 1, 4)
            p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // h), dim=-1)
            return self.o((p @ val).transpose(1, 2).reshape(b, n, d))

        def ffn(self, z: torch.Tensor) -> torch.Tensor:
            return self.w2(F.relu(self.w1(z)))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            if post:
                x = self.ln1(x + self.attn(x))
                return self.ln2(x + self.ffn(x))
            x = x + self.attn(self.ln1(x))
            return x + self.ffn(self.ln2(x))

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb, self.pos = torch.nn.Embedding(v, d), torch.nn.Parameter(torch.randn(n, d))
            self.layers = torch.nn.ModuleList([Layer() for _ in range(shape.depth)])
            self.final = torch.nn.LayerNorm(d) if not post else torch.nn.Identity()
            self.out = torch.nn.Linear(d, v)

        def forward(self, t: torch.Tensor) -> torch.Tensor:
            x = self.emb(t) + self.pos
            for layer in self.layers:
                x = layer(x)
            return self.out(self.final(x))

    nets = [Net() for _ in range(runs)]
    opts = [torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9) for net in nets]
    rng = np.random.default_rng(0)

    def one() -> None:
        for net, opt in zip(nets, opts, strict=True):
            tokens, targets = reverse_batch(rng, batch, n, v)
            logits = net(torch.from_numpy(tokens))
            loss = F.cross_entropy(logits.reshape(-1, v), torch.from_numpy(targets).reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()

    return _seconds_per_call(one, steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100, help="steps timed per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of step and floor timings")
    parser.add_argument("--placement", default="post")
    parser.add_argument("--runs", type=int, default=None, help="batched runs (default: the preset's per placement)")
    parser.add_argument("--width", type=int, default=None, help="override the preset's width (heads kept)")
    parser.add_argument("--batch", type=int, default=None, help="override the preset's batch")
    args = parser.parse_args()
    p = PRESETS["xiong"]
    runs = args.runs or len(p["lrs"]) * len(p["warmups"]) * p["seeds"]
    shape = ModelShape(placement=args.placement, depth=p["depth"], width=args.width or p["width"],
                       heads=p["heads"], vocab=16, length=8)
    batch = args.batch or p["batch"]
    print(f"{'xiong preset' if args.width is None and args.batch is None else 'modified'} model: {args.placement}, depth {shape.depth}, width {shape.width}, {shape.heads} heads, "
          f"batch {batch} x {shape.length} tokens, {runs} runs batched, float32")
    steps_s, floors_s = [], []
    with one_blas_thread():  # as `lndrill train` runs
        step_call, floor_call = make_step(shape, runs, batch), make_floor(shape, runs, batch)
        # Interleaved rounds: a busy machine slows both sides of a round alike, so the per-round ratio is
        # steadier than either time; the figures are medians over the rounds.
        for _ in range(args.rounds):
            steps_s.append(_seconds_per_call(step_call, args.steps))
            floors_s.append(_seconds_per_call(floor_call, args.steps))
    step, floor = statistics.median(steps_s), statistics.median(floors_s)
    ratios = sorted(a / b for a, b in zip(steps_s, floors_s, strict=True))
    print(f"numpy: {1 / step:8.1f} steps/s (median {step * 1e3:.2f} ms per step of {runs} runs over {args.rounds} "
          f"rounds, range {min(steps_s) * 1e3:.2f}-{max(steps_s) * 1e3:.2f}; {runs / step:.0f} run-steps/s)")
    print(f"matmul floor: median {floor * 1e3:.2f} ms per step; step / floor = {statistics.median(ratios):.2f}x "
          f"(median of the rounds' ratios, range {ratios[0]:.2f}-{ratios[-1]:.2f})")
    torch_step = torch_step_time(shape, runs, batch, max(10, args.steps // 2))
    if torch_step is None:
        print("torch: not importable, comparison skipped")
    else:
        import torch

        print(f"torch {torch.__version__} ({torch.get_num_threads()} thread): {1 / torch_step:8.1f} steps/s "
              f"({torch_step * 1e3:.2f} ms per step of {runs} runs, one model at a time); "
              f"numpy / torch time = {step / torch_step:.2f}x")


if __name__ == "__main__":
    main()
