"""A Rich renderable of a training result: loss curves as a line chart in the terminal, then a table of
final losses, divergences and per-layer gradient norms (used by `lndrill train --plain`).

Rich, not textual-plotext: the chart is a grid of characters, which Rich already prints everywhere the
other commands print (colour dropped when piped or with NO_COLOR, so each curve also has its own marker),
with no new dependency and no Textual below the terminal app; a TUI view can reuse the same renderable.
"""

from __future__ import annotations

import math

import numpy as np
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from lndrill.display import format_value
from lndrill.sim.placements import BY_KEY
from lndrill.train.run import Group, TrainResult

MARKERS = "*o+x#@%&=~"
CHART_HEIGHT = 14


def median_curve(group: Group) -> tuple[list[int], list[float | None]]:
    """The median over seeds of a group's curve at each recorded step (None where half or more of the
    seeds had diverged by then)."""
    steps = group.runs[0].steps
    out: list[float | None] = []
    for k in range(len(steps)):
        values: list[float] = []
        for r in group.runs:
            v = r.losses[k] if k < len(r.losses) else None
            values.append(v if v is not None else math.inf)
        m = float(np.median(values))
        out.append(m if math.isfinite(m) else None)
    return list(steps), out


def group_label(group: Group, lrs: int, lang: str = "en") -> str:
    """E.g. "Post-LN, warm-up 0" (with the lr when the grid has several); "Post-LN，warm-up 0" in Chinese."""
    sep = "，" if lang == "zh" else ", "
    text = f"{BY_KEY[group.placement].label}{sep}warm-up {group.warmup}"
    return text + (f"{sep}lr {group.lr:g}" if lrs > 1 else "")


class LossChart:
    """Median loss curves per (placement, lr, warm-up) on a log axis, with a legend. `palette` (placement ->
    colour) replaces the placements' named colours (the app passes its theme's own); `lang` "zh" gives the
    title, the axis and the legend in Chinese."""

    def __init__(self, result: TrainResult, height: int = CHART_HEIGHT,
                 palette: dict[str, str] | None = None, lang: str = "en") -> None:
        self.result, self.height, self.palette, self.lang = result, height, palette, lang

    def _colour(self, key: str) -> str:
        return (self.palette or {}).get(key) or BY_KEY[key].colour

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        result = self.result
        groups = result.groups()
        curves = [median_curve(g) for g in groups]
        values = [v for _, c in curves for v in c if v is not None and v > 0]
        width = max(20, min(options.max_width, 100) - 10)
        cfg = result.config
        zh = self.lang == "zh"
        if zh:
            title = (f"训练 loss（nats/词元，对数刻度），反转 {cfg.length} 个词元（词表 {cfg.vocab}）；"
                     f"深度 {cfg.depth}，宽度 {cfg.width}，{cfg.seeds} 个种子，显示中位数")
        else:
            title = (f"training loss (nats/token, log scale), reversal of {cfg.length} tokens over {cfg.vocab}; "
                     f"depth {cfg.depth}, width {cfg.width}, {cfg.seeds} seed(s), median shown")
        yield Text(title, style="bold")
        if not values:
            yield Text("没有可画的有限 loss（每次运行都发散了，或还没有运行）" if zh else
                       "no finite loss to draw (every run diverged or none ran)")
            return
        lo, hi = math.log10(min(values)), math.log10(max(values))
        if hi - lo < 1e-9:
            lo, hi = lo - 0.5, hi + 0.5
        last = max(cfg.steps, 1)
        grid: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(self.height)]
        # Drawn last to first, so where curves overlap the first setting's marker shows.
        for index, (group, (steps, curve)) in reversed(list(enumerate(zip(groups, curves, strict=True)))):
            marker = MARKERS[index % len(MARKERS)]
            colour = self._colour(group.placement)
            for step, value in zip(steps, curve, strict=True):
                if value is None or value <= 0:
                    continue
                col = min(width - 1, round((step / last) * (width - 1)))
                y_at = round((hi - math.log10(value)) / (hi - lo) * (self.height - 1))
                grid[y_at][col] = (marker, colour)
        for y, row in enumerate(grid):
            label = ""
            if y in (0, self.height // 2, self.height - 1):
                label = format_value(10 ** (hi - y / (self.height - 1) * (hi - lo)))
            line = Text(f"{label:>8} |")
            for ch, style in row:
                line.append(ch, style=style or None)
            yield line
        yield Text(" " * 9 + "+" + "-" * width)
        first, end = ("第 0 步", f"第 {cfg.steps} 步") if zh else ("step 0", f"step {cfg.steps}")
        yield Text(" " * 10 + first + " " * max(1, width - cell_len(first) - cell_len(end)) + end)
        lrs = len(cfg.lrs)
        for index, group in enumerate(groups):
            legend = Text("  ")
            legend.append(MARKERS[index % len(MARKERS)], style=self._colour(group.placement))
            legend.append(f" {group_label(group, lrs, self.lang)}")
            yield legend


def _short(value: float) -> str:
    """Two significant digits: 0.67, 4.4e-05, 2.8."""
    if not math.isfinite(value):
        return str(value)
    return f"{value:.2g}" if 1e-3 <= abs(value) < 1e4 or value == 0 else f"{value:.1e}"


class TrainTable:
    """Final loss (median, min-max over seeds), accuracy, divergences, and per-layer gradient norms."""

    def __init__(self, result: TrainResult) -> None:
        self.result = result

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        result = self.result
        lrs = len(result.config.lrs)
        yield Text("")
        yield Text("final held-out loss: median [min, max] over seeds; accuracy; divergences", style="bold")
        width = max(len(group_label(g, lrs)) for g in result.groups())
        for group in result.groups():
            finals = [r.final_loss for r in group.runs if r.final_loss is not None]
            accs = [r.final_accuracy for r in group.runs if r.final_accuracy is not None]
            line = Text(f"  {group_label(group, lrs):<{width}}", style=BY_KEY[group.placement].colour)
            if finals:
                line.append(f" {_short(float(np.median(finals)))} [{_short(min(finals))}, {_short(max(finals))}]")
                line.append(f"  accuracy {float(np.median(accs)):.0%}")
            else:
                line.append(" no finite final loss")
            if group.diverged:
                steps = ", ".join(str(r.diverged_at) for r in group.runs if r.diverged_at is not None)
                line.append(f"  DIVERGED {group.diverged}/{len(group.runs)} (at step {steps})", style="bold")
            yield line
        yield Text("")
        yield Text("per-layer gradient norm ||dLoss/dtheta_l||, layer 1 .. L, first seed", style="bold")
        for group in result.groups():
            run = group.runs[0]
            yield Text(f"  {group_label(group, lrs)}", style=BY_KEY[group.placement].colour)
            for step, norms in sorted(run.grad_norms.items()):
                yield Text(f"    step {step:>6}: " + " ".join(f"{_short(n):>7}" for n in norms))
        yield Text("")
        timing = f"{result.steps_done} steps in {result.seconds:.1f} s ({result.steps_per_second:.1f} steps/s)"
        if result.cancelled:
            timing += "; cancelled before the end"
        yield Text(timing)
