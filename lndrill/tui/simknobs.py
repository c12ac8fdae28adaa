"""The simulator panel's knobs as plain data, and how they become a SimConfig (no Textual here).

The panel beside a card offers a few stepped choices per knob (depth range, width, metric, seed,
placements) so a key or a click changes one thing and the bars update at once. The full simulator
screen builds its SimConfig from free-form controls instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lndrill.sim.config import LAYER_METRICS, METRICS, PLACEMENTS, SimConfig, parse_depths

#: Depth choices for the panel, as `--depths` strings. The default spans 1-48 on a roughly logarithmic
#: grid, so both placements' trends fit beside a card without scrolling (one sweep computes them all).
#: In order: deepest stack first by its top, then the sparser grid before the denser one.
DEPTH_CHOICES: tuple[str, ...] = ("1-12", "1-24", "1,6,12,24,48", "1,2,4,8,12,16,24,32,48", "1-48", "1-96")
WIDTH_CHOICES: tuple[int, ...] = (4, 8, 16, 32, 64, 128, 256)
METRIC_CHOICES: tuple[str, ...] = METRICS

#: What each metric measures, in a sentence or two (shown on the simulator screen).
METRIC_EXPLANATIONS: dict[str, str] = {
    "article": "The seed article's number: the gradient of sum(S(x)^2) with respect to the input, i.e. "
               "2 J^T S(x). It mixes the gradient path with the size of the output, and is degenerate "
               "when the stack ends in a LayerNorm.",
    "jacobian": "The Frobenius norm of the whole stack's input-output Jacobian dS/dx: how strongly a change "
                "at the input reaches the output, i.e. how much gradient flows back along every path.",
    "param": "For one stack: the gradient norm of each layer's weight matrix. Post-LN's is largest near "
             "the output at initialisation (Xiong et al.), which is why it needs warm-up.",
    "last-layer": "The gradient norm of the last layer's weights, per stack depth. Post-LN's stays large "
                  "as depth grows; Pre-LN's shrinks like 1/sqrt(L).",
    "stream": "For one stack: the mean squared size of the residual stream before each layer. Pre-LN's "
              "grows with depth, so later layers change it relatively less.",
    "update": "How much the output changes (relative, per unit of learning rate) when every weight takes Adam's first step, lr times the sign of its gradient (Liu et al., Admin): far more for deep Post-LN than for Pre-LN.",
}

#: The same explanations in Chinese (中文 mode).
METRIC_EXPLANATIONS_ZH: dict[str, str] = {
    "article": "种子文章里的数：sum(S(x)^2) 对输入的梯度，即 2 J^T S(x)。它把梯度路径和输出大小混在一起，"
               "堆叠以 LayerNorm 结尾时会退化。",
    "jacobian": "整个堆叠的输入-输出雅可比 dS/dx 的 Frobenius 范数：输入的变化有多强地到达输出，"
                "也就是沿所有路径回流的梯度有多大。",
    "param": "单个堆叠：每层权重矩阵的梯度范数。初始化时 Post-LN 在靠近输出处最大（Xiong 等），"
             "所以它需要 warm-up。",
    "last-layer": "最后一层权重的梯度范数，按堆叠深度。Post-LN 随深度增长仍然很大；Pre-LN 按 1/sqrt(L) 缩小。",
    "stream": "单个堆叠：每层之前残差流的均方大小。Pre-LN 的随深度增长，所以后面的层相对改变它更少。",
    "update": "每个权重走 Adam 的第一步（lr 乘以梯度符号）时输出的相对变化（每单位学习率；Liu 等，Admin）："
              "深的 Post-LN 远大于 Pre-LN。",
}


@dataclass(frozen=True)
class PanelKnobs:
    """One panel setting: indices into the choice tuples, a seed and the placements shown."""

    depth_index: int = DEPTH_CHOICES.index("1,2,4,8,12,16,24,32,48")
    width_index: int = WIDTH_CHOICES.index(64)
    metric: str = "jacobian"
    seed: int = 0
    placements: tuple[str, ...] = ("post", "pre")

    @property
    def depths_text(self) -> str:
        """The depth choice as a `--depths` string."""
        return DEPTH_CHOICES[self.depth_index]

    @property
    def depths_label(self) -> str:
        """The depth choice as short button text: a range as it is ("1-24"), a grid as its span and how
        many depths it has ("1-48 (9)")."""
        text = self.depths_text
        if "," not in text:
            return text
        values = parse_depths(text)
        return f"{min(values)}-{max(values)} ({len(values)})"

    @classmethod
    def from_settings(cls, depths: str | None = None, width: int | None = None, metric: str | None = None,
                      seed: int | None = None, placements: tuple[str, ...] | None = None) -> PanelKnobs:
        """Knobs from the settings file; a value the panel does not offer keeps the default."""
        knobs = cls()
        if depths in DEPTH_CHOICES:
            knobs = replace(knobs, depth_index=DEPTH_CHOICES.index(depths))
        if width in WIDTH_CHOICES:
            knobs = replace(knobs, width_index=WIDTH_CHOICES.index(width))
        if metric in METRIC_CHOICES:
            knobs = replace(knobs, metric=metric)
        if seed is not None and seed >= 0:
            knobs = replace(knobs, seed=seed)
        shown = tuple(p for p in PLACEMENTS if p in (placements or ()))
        if shown:
            knobs = replace(knobs, placements=shown)
        return knobs

    @property
    def width(self) -> int:
        """The vector width D."""
        return WIDTH_CHOICES[self.width_index]

    def to_config(self) -> SimConfig:
        """The toy-model SimConfig; per-layer metrics use one stack as deep as the range's top."""
        depths = parse_depths(self.depths_text)
        if self.metric in LAYER_METRICS:
            depths = (max(depths),)
        return SimConfig(width=self.width, depths=depths, metric=self.metric, seed=self.seed,
                         placements=tuple(p for p in PLACEMENTS if p in self.placements))

    # Each step returns a new PanelKnobs (or the same one when already at the end).
    def step_depth(self, delta: int) -> PanelKnobs:
        """Next or previous depth choice (clamped)."""
        return replace(self, depth_index=min(max(self.depth_index + delta, 0), len(DEPTH_CHOICES) - 1))

    def step_width(self, delta: int) -> PanelKnobs:
        """Next or previous width (clamped)."""
        return replace(self, width_index=min(max(self.width_index + delta, 0), len(WIDTH_CHOICES) - 1))

    def step_metric(self, delta: int = 1) -> PanelKnobs:
        """Next or previous metric (wraps)."""
        i = METRIC_CHOICES.index(self.metric)
        return replace(self, metric=METRIC_CHOICES[(i + delta) % len(METRIC_CHOICES)])

    def step_seed(self, delta: int) -> PanelKnobs:
        """Next or previous seed (not below 0)."""
        return replace(self, seed=max(0, self.seed + delta))

    def toggle_placement(self, placement: str) -> PanelKnobs:
        """Show or hide a placement; the last one shown cannot be hidden (returns self)."""
        if placement in self.placements:
            if len(self.placements) == 1:
                return self
            return replace(self, placements=tuple(p for p in self.placements if p != placement))
        return replace(self, placements=tuple(p for p in PLACEMENTS if p in self.placements or p == placement))
