"""Metric labels, and the plain-language notes attached to results (each in English and Chinese)."""

from __future__ import annotations

from lndrill.sim.config import SimConfig
from lndrill.sim.placements import placement


class Note(str):
    """A note: the string is its English text, and `zh` carries the same note in Chinese (the terminal
    app's Chinese mode). Anything that takes a string (JSON, the plain chart) sees the English."""

    zh: str

    def __new__(cls, en: str, zh: str) -> Note:
        note = super().__new__(cls, en)
        note.zh = zh
        return note


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
            names = _names(cfg, flat)
            notes.append(Note(
                f"{names}: the article metric is degenerate here. The stack ends in a LayerNorm, "
                "so sum(S(x)^2) is close to D for every input and its gradient is proportional to eps (1e-5; "
                "about 470 eps at depth 1 on the article's toy, smaller deeper), vanishing or not; read the "
                "jacobian metric instead.",
                f"{names}：文章的指标在这里退化了。堆叠以 LayerNorm 结尾，所以对任何输入 sum(S(x)^2) 都接近 D，"
                "它的梯度与 eps（1e-5）成正比（在文章的玩具模型上深度 1 时约 470 eps，越深越小），与梯度消失与否无关；"
                "请改看 jacobian 指标。",
            ))
        growing = [p for p in placements if not ends_in_layernorm(cfg, p)]
        if growing:
            names = _names(cfg, growing)
            notes.append(Note(
                f"{names}: the article metric is 2 J^T S(x), so it scales with the size of "
                "the output S(x) itself; its growth with depth is mostly forward growth of the stream, not "
                "healthier gradients. The jacobian metric measures the gradient path alone.",
                f"{names}：文章的指标是 2 J^T S(x)，所以它随输出 S(x) 本身的大小而缩放；它随深度的增长主要是残差流在前向"
                "中的增长，而不是梯度更健康。jacobian 指标只测梯度路径。",
            ))
    if cfg.metric == "stream" and any(placement(p).norm_after_add for p in placements):
        notes.append(Note(
            "Post-LN and DeepNorm: after a LayerNorm ||x||^2/d is always 1, so the value shown is the "
            "residual sum just before each layer's last LayerNorm (x^{post,5} in Xiong et al.).",
            "Post-LN 与 DeepNorm：经过 LayerNorm 后 ||x||^2/d 恒为 1，所以这里显示的是每层最后一个 LayerNorm "
            "之前的残差和（Xiong 等文中的 x^{post,5}）。",
        ))
    if cfg.model == "transformer" and cfg.metric in ("param", "last-layer"):
        notes.append(Note(
            "Gradient norms are per sequence (one seed, one batch element); Xiong et al.'s Fig. 3 shows the "
            "norm of the expected, batch-averaged gradient, which is smaller. Compare trends, not values.",
            "梯度范数按单个序列计算（一个种子、一个批元素）；Xiong 等的图 3 画的是期望（批平均）梯度的范数，"
            "会更小。请比较趋势，而不是数值。",
        ))
    if cfg.model == "transformer" and any(placement(p).deepnorm_scaling for p in placements):
        notes.append(Note(
            "DeepNorm here: the attention's value and output maps are one matrix W^V, scaled by beta once; "
            "DeepNet scales both v_proj and out_proj by beta, so its attention branch carries beta^2.",
            "这里的 DeepNorm：注意力的 value 映射和输出映射合成一个矩阵 W^V，只乘一次 beta；DeepNet 对 v_proj "
            "和 out_proj 都乘 beta，所以它的注意力分支带 beta^2。",
        ))
    if cfg.metric == "update":
        notes.append(Note(
            "update: the relative change of the output S when every weight takes Adam's first step (lr times "
            "the sign of its gradient), to first order and per unit of lr (Liu et al., Admin). Admin's theorem "
            "says O(N) for Post-LN and O(log N) for Pre-LN, for the variance of independent per-weight changes; "
            "the sign step moves every weight with its gradient, so layers' changes add coherently and both "
            "slopes come out steeper. What holds is the gap: the same lr moves a deep Post-LN model much "
            "further, which is what warm-up tames.",
            "update：每个权重走 Adam 的第一步（lr 乘以其梯度的符号）时输出 S 的相对变化，取一阶近似、按每单位 lr "
            "计（Liu 等，Admin）。Admin 的定理针对各权重独立变化的方差，给出 Post-LN 为 O(N)、Pre-LN 为 O(log N)；"
            "符号步让每个权重都顺着自己的梯度走，各层的变化同向叠加，所以两条斜率都更陡。成立的是两者的差距：同样的 "
            "lr 让深的 Post-LN 模型走得远得多，这正是 warm-up 要抑制的。",
        ))
    if cfg.model == "toy" and cfg.metric in ("param", "last-layer", "update"):
        shared = bool(cfg.shared_weights)
        notes.append(Note(
            "Toy model: the loss is a random probe g^T S(x) with g ~ N(0, I), and layer l's value is the "
            "gradient for the W used at layer l"
            + (" (one shared W: each layer's use counted separately)." if shared else "."),
            "玩具模型：loss 是随机探针 g^T S(x)，g ~ N(0, I)；第 l 层的值是第 l 层所用 W 的梯度"
            + ("（共用一个 W：每层的使用分开计算）。" if shared else "。"),
        ))
    return notes
