"""Run a configuration: sample inputs once, run each placement, reduce over seeds."""

from __future__ import annotations

import warnings

import numpy as np

from lndrill.sim.config import SimConfig
from lndrill.sim.metrics import Note, notes_for
from lndrill.sim.placements import placement
from lndrill.sim.presets import article_input, article_weights
from lndrill.sim.result import SimResult
from lndrill.sim.toy import ToyForward, ToyInputs, sample_toy_inputs, toy_forward, toy_layer_gradients
from lndrill.sim.transformer import (
    TransformerForward,
    TransformerInputs,
    sample_transformer_inputs,
    transformer_forward,
    transformer_layer_gradients,
)
from lndrill.sim.update import harmonic_slope, loglog_slope, toy_update, transformer_update

Inputs = ToyInputs | TransformerInputs


def sample_inputs(cfg: SimConfig) -> Inputs:
    """Weights and inputs for every seed of the configuration (shared by all placements)."""
    if cfg.preset == "article":
        probe = np.random.default_rng(0).standard_normal((1, cfg.width))
        return ToyInputs(w=article_weights()[None], x=article_input()[None], probe=probe, shared=True)
    if cfg.model == "toy":
        return sample_toy_inputs(cfg.width, cfg.max_depth, cfg.seed, cfg.seeds, bool(cfg.shared_weights))
    return sample_transformer_inputs(cfg.width, cfg.tokens, cfg.vocab, cfg.max_depth, cfg.seed, cfg.seeds)


def run_placement(cfg: SimConfig, key: str, inputs: Inputs) -> dict[str, np.ndarray]:
    """Per-seed values, (seeds, columns), for the config's metric (and the Jacobian beside "article")."""
    metric = cfg.metric
    final_ln = bool(cfg.final_ln) and placement(key).norm_branch_input
    if metric == "param":
        depth = cfg.max_depth
        if isinstance(inputs, ToyInputs):
            return {metric: toy_layer_gradients(inputs, key, depth, final_ln=final_ln, eps=cfg.eps)}
        return {metric: transformer_layer_gradients(inputs, key, depth, eps=cfg.eps)}

    if metric == "update":
        return {metric: _update_values(cfg, key, inputs)}
    want_jacobian, want_article = metric in ("article", "jacobian"), metric == "article"
    want_last_layer, want_stream = metric == "last-layer", metric == "stream"

    def forward(depth: int, record: list[int], deepnorm_depth: int | None = None) -> ToyForward | TransformerForward:
        if isinstance(inputs, ToyInputs):
            return toy_forward(inputs, key, depth, record, want_jacobian=want_jacobian, want_article=want_article,
                               want_last_layer=want_last_layer, want_stream=want_stream, final_ln=final_ln,
                               deepnorm_depth=deepnorm_depth, eps=cfg.eps)
        return transformer_forward(inputs, key, depth, record, want_jacobian=want_jacobian,
                                   want_article=want_article, want_last_layer=want_last_layer,
                                   want_stream=want_stream, deepnorm_depth=deepnorm_depth, eps=cfg.eps)

    if want_stream:
        stream = forward(cfg.max_depth, []).stream
        assert stream is not None  # asked for with want_stream
        return {metric: stream}
    depths = list(cfg.depths)
    if placement(key).deepnorm_scaling:
        # alpha and beta depend on the stack's depth, so depths are separate stacks, not prefixes.
        runs = [forward(d, [d], deepnorm_depth=d) for d in depths]
    else:
        runs = [forward(max(depths), depths)]
    out: dict[str, np.ndarray] = {}
    names = ("article", "jacobian") if metric == "article" else (metric,)
    for name in names:
        attr = name.replace("-", "_")
        out[name] = np.concatenate([getattr(r, attr) for r in runs], axis=1)
    return out


def _update_values(cfg: SimConfig, key: str, inputs: Inputs,
                   random_steps: np.random.Generator | None = None) -> np.ndarray:
    """Per-seed values of the update metric, (seeds, depths): under Adam's sign step, or with
    `random_steps` under Admin's step of independent random signs."""
    final_ln = bool(cfg.final_ln) and placement(key).norm_branch_input
    if isinstance(inputs, ToyInputs):
        return toy_update(inputs, key, list(cfg.depths), final_ln=final_ln, eps=cfg.eps, random_steps=random_steps)
    return transformer_update(inputs, key, list(cfg.depths), eps=cfg.eps, random_steps=random_steps)


def _update_slope_notes(cfg: SimConfig, inputs: Inputs, values: dict[str, np.ndarray]) -> list[str]:
    """The log-log slopes of the update metric, and of Admin's own quantity (the variance of the change
    under independent random-sign steps) beside an exact O(log N) as a yardstick."""
    depths = list(cfg.depths)

    def shown(series: dict[str, np.ndarray]) -> str:
        slopes = [(placement(key).label, loglog_slope(depths, v)) for key, v in series.items()]
        return ", ".join(f"{label} {slope:.2f}" for label, slope in slopes if slope is not None)

    notes: list[str] = []
    if sign_slopes := shown(values):
        notes.append(Note(f"Slope of log(update) on log(depth) (1 = linear growth, 0 = flat): {sign_slopes}.",
                          f"log(update) 对 log(depth) 的斜率（1 = 线性增长，0 = 持平）：{sign_slopes}。"))
    rng = np.random.default_rng(cfg.seed)
    variance = {key: np.median(_update_values(cfg, key, inputs, rng) ** 2, axis=0) for key in values}
    harmonic = harmonic_slope(depths)
    if (admin_slopes := shown(variance)) and harmonic is not None:
        notes.append(Note(
            f"Admin's own setting (every weight moves +-lr with a random sign; the theorem bounds the variance, "
            f"the square of the change): slope {admin_slopes}. An exact O(log N), the harmonic sum, reads "
            f"{harmonic:.2f} over these depths.",
            f"Admin 自己的设定（每个权重以随机符号移动 ±lr；定理约束的是变化的方差，即变化的平方）：斜率 {admin_slopes}。"
            f"精确的 O(log N)（调和级数）在这些深度上的斜率为 {harmonic:.2f}。",
        ))
    return notes


def _reduce(cfg: SimConfig, metric: str, per_seed: dict[str, np.ndarray], notes: list[str]) -> SimResult:
    values = {p: np.median(a, axis=0) for p, a in per_seed.items()}
    spread = {p: (a.min(axis=0), a.max(axis=0)) for p, a in per_seed.items()}
    depths = list(cfg.depths)
    layers = list(range(1, cfg.max_depth + 1)) if metric in ("param", "stream") else None
    return SimResult(cfg, metric, depths, values, spread, notes, layers)


def sweep(cfg: SimConfig) -> SimResult:
    """Run the configuration and return medians over seeds with min-max spread and notes.

    With the article's metric, the result's ``companion`` holds the input-output Jacobian norm from
    the same pass: the faithful measurement of the same question.
    """
    # Deep or narrow stacks overflow float64 (or divide 0 by 0): such values are inf or NaN, said in a
    # note, never a RuntimeWarning on stderr.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        inputs = sample_inputs(cfg)
        per_metric: dict[str, dict[str, np.ndarray]] = {}
        for key in cfg.placements:
            for name, arr in run_placement(cfg, key, inputs).items():
                per_metric.setdefault(name, {})[key] = arr
        result = _reduce(cfg, cfg.metric, per_metric[cfg.metric], notes_for(cfg))
        if "jacobian" in per_metric and cfg.metric == "article":
            result.companion = _reduce(cfg, "jacobian", per_metric["jacobian"], [])
        if cfg.metric == "update" and len(cfg.depths) >= 3:
            result.notes.extend(_update_slope_notes(cfg, inputs, result.values))
    bad = result.non_finite() + (result.companion.non_finite() if result.companion is not None else 0)
    if bad:
        result.notes.append(Note(
            f"{bad} value(s) are not finite numbers: the stack overflowed the float64 range (inf) or the "
            "result is undefined (NaN); the chart shows them as inf or nan, --json as null.",
            f"{bad} 个值不是有限数：堆叠超出了 float64 的范围（inf），或结果无定义（NaN）；图中显示为 inf 或 nan，"
            "--json 中为 null。",
        ))
    return result
