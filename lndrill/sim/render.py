"""A Rich renderable bar chart of a simulator result (used by `lndrill sim --plain` and the TUI).

Every label is a rich.text.Text, never a markup string, so text from anywhere is shown literally. The
chart's own words (title, row labels, axis line, notes) are English, or Chinese with `lang="zh"` (the
terminal app's Chinese mode); metric, model and placement names stay as they are.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import partial

import numpy as np
from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text

from lndrill.display import eighths_bar, format_value, pad_cells, value_with_spread
from lndrill.sim.metrics import METRIC_LABELS
from lndrill.sim.placements import TABLE, placement
from lndrill.sim.result import SimResult

#: Each placement's named terminal colour: the chart's colours unless a palette is given.
TERMINAL_PALETTE: dict[str, str] = {p.key: p.colour for p in TABLE}
SCALES: tuple[str, ...] = ("log", "linear")

#: The metrics' chart titles in Chinese (the English ones are `METRIC_LABELS`).
METRIC_LABELS_ZH: dict[str, str] = {
    "article": "文章的指标 ||grad_x sum S(x)^2||",
    "jacobian": "输入-输出雅可比 ||dS/dx||_F",
    "param": "逐层 ||dLoss/dW2_l||_F",
    "last-layer": "最后一层 ||dLoss/dW2_L||_F",
    "stream": "残差流 ||x_l||^2 / d",
    "update": "Adam 一步后的输出变化 ||dS||/||S||（每单位 lr）",
}

#: The simulator's notes (lndrill.sim.metrics.notes_for and lndrill.sim.sweep) in Chinese: the English
#: text with {name} for the parts that vary, and its translation. A note not found here (its English
#: changed) is shown in English.
NOTES_ZH: tuple[tuple[str, str], ...] = (
    ("{names}: the article metric is degenerate here. The stack ends in a LayerNorm, so sum(S(x)^2) is close "
     "to D for every input and its gradient is proportional to eps (1e-5; about 470 eps at depth 1 on the "
     "article's toy, smaller deeper), vanishing or not; read the jacobian metric instead.",
     "{names}：文章的指标在这里退化了。堆叠以 LayerNorm 结尾，所以对任何输入 sum(S(x)^2) 都接近 D，"
     "它的梯度与 eps（1e-5）成正比（在文章的玩具模型上深度 1 时约 470 eps，越深越小），与梯度消失与否无关；"
     "请改看 jacobian 指标。"),
    ("{names}: the article metric is 2 J^T S(x), so it scales with the size of the output S(x) itself; its "
     "growth with depth is mostly forward growth of the stream, not healthier gradients. The jacobian metric "
     "measures the gradient path alone.",
     "{names}：文章的指标是 2 J^T S(x)，所以它随输出 S(x) 本身的大小而缩放；它随深度的增长主要是残差流在前向"
     "中的增长，而不是梯度更健康。jacobian 指标只测梯度路径。"),
    ("Post-LN and DeepNorm: after a LayerNorm ||x||^2/d is always 1, so the value shown is the residual sum "
     "just before each layer's last LayerNorm (x^{post,5} in Xiong et al.).",
     "Post-LN 与 DeepNorm：经过 LayerNorm 后 ||x||^2/d 恒为 1，所以这里显示的是每层最后一个 LayerNorm "
     "之前的残差和（Xiong 等文中的 x^{post,5}）。"),
    ("Gradient norms are per sequence (one seed, one batch element); Xiong et al.'s Fig. 3 shows the norm of "
     "the expected, batch-averaged gradient, which is smaller. Compare trends, not values.",
     "梯度范数按单个序列计算（一个种子、一个批元素）；Xiong 等的图 3 画的是期望（批平均）梯度的范数，"
     "会更小。请比较趋势，而不是数值。"),
    ("DeepNorm here: the attention's value and output maps are one matrix W^V, scaled by beta once; DeepNet "
     "scales both v_proj and out_proj by beta, so its attention branch carries beta^2.",
     "这里的 DeepNorm：注意力的 value 映射和输出映射合成一个矩阵 W^V，只乘一次 beta；DeepNet 对 v_proj "
     "和 out_proj 都乘 beta，所以它的注意力分支带 beta^2。"),
    ("update: the relative change of the output S when every weight takes Adam's first step (lr times the "
     "sign of its gradient), to first order and per unit of lr (Liu et al., Admin). Admin's theorem says O(N) "
     "for Post-LN and O(log N) for Pre-LN, for the variance of independent per-weight changes; the sign step "
     "moves every weight with its gradient, so layers' changes add coherently and both slopes come out "
     "steeper. What holds is the gap: the same lr moves a deep Post-LN model much further, which is what "
     "warm-up tames.",
     "update：每个权重走 Adam 的第一步（lr 乘以其梯度的符号）时输出 S 的相对变化，取一阶近似、按每单位 lr "
     "计（Liu 等，Admin）。Admin 的定理针对各权重独立变化的方差，给出 Post-LN 为 O(N)、Pre-LN 为 O(log N)；"
     "符号步让每个权重都顺着自己的梯度走，各层的变化同向叠加，所以两条斜率都更陡。成立的是两者的差距：同样的 "
     "lr 让深的 Post-LN 模型走得远得多，这正是 warm-up 要抑制的。"),
    ("Toy model: the loss is a random probe g^T S(x) with g ~ N(0, I), and layer l's value is the gradient "
     "for the W used at layer l (one shared W: each layer's use counted separately).",
     "玩具模型：loss 是随机探针 g^T S(x)，g ~ N(0, I)；第 l 层的值是第 l 层所用 W 的梯度"
     "（共用一个 W：每层的使用分开计算）。"),
    ("Toy model: the loss is a random probe g^T S(x) with g ~ N(0, I), and layer l's value is the gradient "
     "for the W used at layer l.",
     "玩具模型：loss 是随机探针 g^T S(x)，g ~ N(0, I)；第 l 层的值是第 l 层所用 W 的梯度。"),
    ("Slope of log(update) on log(depth) (1 = linear growth, 0 = flat): {slopes}.",
     "log(update) 对 log(depth) 的斜率（1 = 线性增长，0 = 持平）：{slopes}。"),
    ("Admin's own setting (every weight moves +-lr with a random sign; the theorem bounds the variance, the "
     "square of the change): slope {slopes}. An exact O(log N), the harmonic sum, reads {harmonic} over these "
     "depths.",
     "Admin 自己的设定（每个权重以随机符号移动 ±lr；定理约束的是变化的方差，即变化的平方）：斜率 {slopes}。"
     "精确的 O(log N)（调和级数）在这些深度上的斜率为 {harmonic}。"),
    ("{count} value(s) are not finite numbers: the stack overflowed the float64 range (inf) or the result is "
     "undefined (NaN); the chart shows them as inf or nan, --json as null.",
     "{count} 个值不是有限数：堆叠超出了 float64 的范围（inf），或结果无定义（NaN）；图中显示为 inf 或 nan，"
     "--json 中为 null。"),
)

_SLOT = re.compile(r"\{(\w+)\}")


def _note_pattern(english: str) -> re.Pattern[str]:
    parts = _SLOT.split(english)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts)) + r"\Z",
                      re.S)


_NOTE_PATTERNS = tuple((_note_pattern(en), zh) for en, zh in NOTES_ZH)


def _fill(parts: dict[str, str], slot: re.Match[str]) -> str:
    return parts[slot.group(1)]


def translate_note(note: str, lang: str = "en") -> str:
    """A simulator note in `lang`: in Chinese when `NOTES_ZH` has it, else as it is."""
    if lang != "zh":
        return note
    for pattern, zh in _NOTE_PATTERNS:
        found = pattern.match(note)
        if found:
            return _SLOT.sub(partial(_fill, found.groupdict()), zh)
    return note


def row_label(kind: str, row: int, lang: str = "en") -> str:
    """A chart row's label: "depth 12" / "layer 3", or in Chinese "深度 12" / "第 3 层"."""
    if lang != "zh":
        return f"{kind} {row}"
    return f"深度 {row}" if kind == "depth" else f"第 {row} 层"


def row_kind_name(kind: str, lang: str = "en") -> str:
    """The rows' heading: "depth" / "layer", or "深度" / "层"."""
    return kind if lang != "zh" else {"depth": "深度", "layer": "层"}.get(kind, kind)


class _Scale:
    """Maps values to bar fractions, logarithmically or linearly, over all values shown together."""

    def __init__(self, arrays: list[np.ndarray], kind: str) -> None:
        values = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays]) if arrays else np.zeros(0)
        finite = values[np.isfinite(values)]
        self.kind = kind
        self.top = float(finite.max()) if finite.size else 1.0
        positive = finite[finite > 0]
        if positive.size:
            self.lo = math.floor(math.log10(positive.min()))
            self.hi = math.ceil(math.log10(positive.max()))
            if self.hi <= self.lo:
                self.hi = self.lo + 1
        else:
            self.lo, self.hi = 0, 1

    def fraction(self, value: float) -> float:
        """Share of the bar width for ``value``."""
        if not math.isfinite(value) or value <= 0:
            return 0.0
        if self.kind == "linear":
            return value / self.top if self.top > 0 else 0.0
        return max((math.log10(value) - self.lo) / (self.hi - self.lo), 1 / 64)

    def describe(self, lang: str = "en") -> str:
        """The axis range in words."""
        zh = lang == "zh"
        if self.kind == "linear":
            top = format_value(self.top)
            return f"线性刻度，0 到 {top}" if zh else f"linear scale, 0 to {top}"
        lo, hi = f"1e{self.lo:+03d}", f"1e{self.hi:+03d}"
        return f"对数刻度，{lo} 到 {hi}" if zh else f"log scale, {lo} to {hi}"


class SimChart:
    """Bars per depth (or per layer) and placement, the numbers beside them, and the notes below.

    When the result carries a companion (the Jacobian beside the article's metric), both are drawn
    side by side, each with its own scale. `palette` maps placement -> colour (a Rich colour name or
    hex); the app passes its theme's colours, the command line the named terminal colours. `lang` "zh"
    gives the chart's words in Chinese.
    """

    def __init__(self, result: SimResult, scale: str = "log", width: int | None = None, notes: bool = True,
                 palette: Mapping[str, str] | None = None, lang: str = "en") -> None:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r} (choose from {', '.join(SCALES)})")
        self.result = result
        self.scale = scale
        self.width = width
        self.show_notes = notes
        self.palette = TERMINAL_PALETTE if palette is None else palette
        self.lang = lang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Yield the chart as Text lines fitted to the available width."""
        result = self.result
        width = min(self.width or options.max_width, options.max_width)
        panels = [result] + ([result.companion] if result.companion is not None else [])
        placements = list(result.values)
        scales = [_Scale([p.values[k] for k in placements], self.scale) for p in panels]
        spread = (result.config.seeds or 1) > 1
        numbers = {
            id(panel): {k: [self._number(panel, k, i, spread) for i in range(len(panel.rows))] for k in placements}
            for panel in panels
        }
        lang = self.lang
        row_labels = [row_label(result.row_kind, r, lang) for r in result.rows]
        row_label_w = max(cell_len(label) for label in row_labels)
        place_w = max(len(placement(k).label) for k in placements)
        num_w = [max(len(s) for k in placements for s in numbers[id(p)][k]) for p in panels]
        sep = " │ "
        fixed = row_label_w + 2 + place_w + 2 + sum(n + 1 for n in num_w) + len(sep) * (len(panels) - 1)
        bar_w = max(4, (width - fixed) // len(panels))

        yield self._title(result, lang)
        if len(panels) > 1:
            header = Text(" " * (row_label_w + 2 + place_w + 2))
            for i, panel in enumerate(panels):
                if lang == "zh":
                    name = ("按原文：" if i == 0 else "如实：") + panel.metric
                else:
                    name = ("as published: " if i == 0 else "faithful: ") + panel.metric
                header.append(set_cell_size(name, bar_w + num_w[i] + 1), style="bold")
                if i < len(panels) - 1:
                    header.append(sep)
            yield header
        # The rows are the hot path of the live panel: emit ready-made segments (padded by cells: a Chinese
        # row label's characters are two wide) instead of Text objects that Rich would measure and wrap.
        values = {id(p): {k: np.asarray(p.values[k], dtype=float).tolist() for k in placements} for p in panels}
        styles = {k: console.get_style(self.palette.get(k, "white")) for k in placements}
        newline = Segment.line()
        for index, label_text in enumerate(row_labels):
            for j, key in enumerate(placements):
                label = label_text if j == 0 else ""
                style = styles[key]
                yield Segment(pad_cells(label, row_label_w) + "  ")
                yield Segment(placement(key).label.ljust(place_w), style)
                yield Segment("  ")
                for i, panel in enumerate(panels):
                    yield Segment(eighths_bar(scales[i].fraction(values[id(panel)][key][index]), bar_w), style)
                    yield Segment(" " + numbers[id(panel)][key][index].rjust(num_w[i]))
                    if i < len(panels) - 1:
                        yield Segment(sep)
                yield newline
        if lang == "zh":
            axis = "；".join(f"{p.metric}：{s.describe(lang)}" for p, s in zip(panels, scales, strict=True))
            axis += "（各种子的中位数，方括号内为最小-最大值）" if spread else ""
        else:
            axis = "; ".join(f"{p.metric}: {s.describe()}" for p, s in zip(panels, scales, strict=True))
            axis += " (median over seeds, min-max in brackets)" if spread else ""
        yield Text(axis, style="dim")
        if self.show_notes:
            for note in result.notes:
                yield Text(("注：" if lang == "zh" else "Note: ") + translate_note(note, lang), style="italic")

    @staticmethod
    def _number(panel: SimResult, key: str, index: int, spread: bool) -> str:
        return value_with_spread(float(panel.values[key][index]), panel.spread_at(key, index) if spread else None)

    @staticmethod
    def _title(result: SimResult, lang: str = "en") -> Text:
        cfg = result.config
        if lang == "zh":
            bits = [f"模型 {cfg.model}", f"宽度 {cfg.width}"]
            if cfg.model == "transformer":
                bits += [f"{cfg.tokens} 个词元", f"词表 {cfg.vocab}"]
            if cfg.preset:
                bits.insert(0, f"预设 {cfg.preset}")
            bits.append(f"{cfg.seeds} 个种子，从 {cfg.seed} 起")
            if result.layers is not None:
                bits.append(f"单个深度 {result.depths[0]} 的堆叠")
            title = Text(METRIC_LABELS_ZH.get(result.metric, METRIC_LABELS[result.metric]), style="bold")
            title.append(" （" + "，".join(bits) + "）")
            return title
        bits = [f"model {cfg.model}", f"width {cfg.width}"]
        if cfg.model == "transformer":
            bits += [f"{cfg.tokens} tokens", f"vocab {cfg.vocab}"]
        if cfg.preset:
            bits.insert(0, f"preset {cfg.preset}")
        bits.append(f"{cfg.seeds} seed" + ("s" if (cfg.seeds or 1) > 1 else "") + f" from {cfg.seed}")
        if result.layers is not None:
            bits.append(f"one stack of depth {result.depths[0]}")
        title = Text(METRIC_LABELS[result.metric], style="bold")
        title.append("  (" + ", ".join(bits) + ")")
        return title
