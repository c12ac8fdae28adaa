"""A Rich renderable bar chart of a simulator result (used by `lndrill sim --plain` and the TUI).

Every label is a rich.text.Text, never a markup string, so text from anywhere is shown literally. The
chart's own words (title, row labels, axis line, notes) are English, or Chinese with `lang="zh"` (the
terminal app's Chinese mode); metric, model and placement names stay as they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text

from lndrill.display import eighths_bar, format_value, pad_cells, value_with_spread
from lndrill.sim.metrics import METRIC_LABELS, Note
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

def translate_note(note: str, lang: str = "en") -> str:
    """A simulator note in `lang`: its Chinese text when it is a `Note` that carries one, else as it is."""
    return note.zh if lang == "zh" and isinstance(note, Note) else note


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
