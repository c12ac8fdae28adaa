"""Metric labels, and the plain-language notes attached to results."""

from __future__ import annotations

from lndrill.sim.config import SimConfig
from lndrill.sim.placements import placement

METRIC_LABELS: dict[str, str] = {
    "article": "article metric ||grad_x sum S(x)^2||",
    "jacobian": "input-output Jacobian ||dS/dx||_F",
    "param": "per-layer ||dLoss/dW2_l||_F",
    "last-layer": "last-layer ||dLoss/dW2_L||_F",
    "stream": "stream ||x_l||^2 / d",
    "update": "output change after one Adam step ||dS||/||S|| per unit lr",
}


def ends_in_layernorm(cfg: SimConfig, key: str) -> bool:
    """Whether the stack's last operation is a LayerNorm for this placement."""
    if placement(key).norm_after_add:
        return True
    return cfg.model == "transformer" or bool(cfg.final_ln)


def _names(cfg: SimConfig, keys: list[str]) -> str:
    labels = []
    for key in keys:
        p = placement(key)
        label = p.label
        if p.norm_branch_input and ends_in_layernorm(cfg, key):
            label += " (final LN)"
        labels.append(label)
    return ", ".join(labels)


def notes_for(cfg: SimConfig) -> list[str]:
    """Notes a reader needs to interpret this configuration's numbers honestly."""
    notes: list[str] = []
    placements = list(cfg.placements or ())
    if cfg.metric == "article":
        flat = [p for p in placements if ends_in_layernorm(cfg, p)]
        if flat:
            notes.append(
                f"{_names(cfg, flat)}: the article metric is degenerate here. The stack ends in a LayerNorm, "
                "so sum(S(x)^2) is close to D for every input and its gradient is proportional to eps (1e-5; "
                "about 470 eps at depth 1 on the article's toy, smaller deeper), vanishing or not; read the "
                "jacobian metric instead."
            )
        growing = [p for p in placements if not ends_in_layernorm(cfg, p)]
        if growing:
            notes.append(
                f"{_names(cfg, growing)}: the article metric is 2 J^T S(x), so it scales with the size of "
                "the output S(x) itself; its growth with depth is mostly forward growth of the stream, not "
                "healthier gradients. The jacobian metric measures the gradient path alone."
            )
    if cfg.metric == "stream" and any(placement(p).norm_after_add for p in placements):
        notes.append(
            "Post-LN and DeepNorm: after a LayerNorm ||x||^2/d is always 1, so the value shown is the "
            "residual sum just before each layer's last LayerNorm (x^{post,5} in Xiong et al.)."
        )
    if cfg.model == "transformer" and cfg.metric in ("param", "last-layer"):
        notes.append(
            "Gradient norms are per sequence (one seed, one batch element); Xiong et al.'s Fig. 3 shows the "
            "norm of the expected, batch-averaged gradient, which is smaller. Compare trends, not values."
        )
    if cfg.model == "transformer" and any(placement(p).deepnorm_scaling for p in placements):
        notes.append(
            "DeepNorm here: the attention's value and output maps are one matrix W^V, scaled by beta once; "
            "DeepNet scales both v_proj and out_proj by beta, so its attention branch carries beta^2."
        )
    if cfg.metric == "update":
        notes.append(
            "update: the relative change of the output S when every weight takes Adam's first step (lr times "
            "the sign of its gradient), to first order and per unit of lr (Liu et al., Admin). Admin's theorem "
            "says O(N) for Post-LN and O(log N) for Pre-LN, for the variance of independent per-weight changes; "
            "the sign step moves every weight with its gradient, so layers' changes add coherently and both "
            "slopes come out steeper. What holds is the gap: the same lr moves a deep Post-LN model much "
            "further, which is what warm-up tames."
        )
    if cfg.model == "toy" and cfg.metric in ("param", "last-layer", "update"):
        notes.append(
            "Toy model: the loss is a random probe g^T S(x) with g ~ N(0, I), and layer l's value is the "
            "gradient for the W used at layer l"
            + (" (one shared W: each layer's use counted separately)." if cfg.shared_weights else ".")
        )
    return notes
