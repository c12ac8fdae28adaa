"""A Rich renderable bar chart of a simulator result (used by `lndrill sim --plain` and the TUI).

Every label is a rich.text.Text, never a markup string, so text from anywhere is shown literally.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text

from lndrill.display import eighths_bar, format_value, value_with_spread
from lndrill.sim.metrics import METRIC_LABELS
from lndrill.sim.placements import TABLE, placement
from lndrill.sim.result import SimResult

#: Each placement's named terminal colour: the chart's colours unless a palette is given.
TERMINAL_PALETTE: dict[str, str] = {p.key: p.colour for p in TABLE}
SCALES: tuple[str, ...] = ("log", "linear")


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

    def describe(self) -> str:
        """The axis range in words."""
        if self.kind == "linear":
            return f"linear scale, 0 to {format_value(self.top)}"
        return f"log scale, 1e{self.lo:+03d} to 1e{self.hi:+03d}"


class SimChart:
    """Bars per depth (or per layer) and placement, the numbers beside them, and the notes below.

    When the result carries a companion (the Jacobian beside the article's metric), both are drawn
    side by side, each with its own scale. `palette` maps placement -> colour (a Rich colour name or
    hex); the app passes its theme's colours, the command line the named terminal colours.
    """

    def __init__(self, result: SimResult, scale: str = "log", width: int | None = None, notes: bool = True,
                 palette: Mapping[str, str] | None = None) -> None:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r} (choose from {', '.join(SCALES)})")
        self.result = result
        self.scale = scale
        self.width = width
        self.show_notes = notes
        self.palette = TERMINAL_PALETTE if palette is None else palette

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
        row_label_w = max(len(f"{result.row_kind} {r}") for r in result.rows)
        place_w = max(len(placement(k).label) for k in placements)
        num_w = [max(len(s) for k in placements for s in numbers[id(p)][k]) for p in panels]
        sep = " │ "
        fixed = row_label_w + 2 + place_w + 2 + sum(n + 1 for n in num_w) + len(sep) * (len(panels) - 1)
        bar_w = max(4, (width - fixed) // len(panels))

        yield self._title(result)
        if len(panels) > 1:
            header = Text(" " * (row_label_w + 2 + place_w + 2))
            for i, panel in enumerate(panels):
                name = "as published: " + panel.metric if i == 0 else "faithful: " + panel.metric
                header.append(name[: bar_w + num_w[i] + 1].ljust(bar_w + num_w[i] + 1), style="bold")
                if i < len(panels) - 1:
                    header.append(sep)
            yield header
        # The rows are the hot path of the live panel: emit ready-made segments (every glyph here is
        # one cell wide) instead of Text objects that Rich would measure and wrap line by line.
        values = {id(p): {k: np.asarray(p.values[k], dtype=float).tolist() for k in placements} for p in panels}
        styles = {k: console.get_style(self.palette.get(k, "white")) for k in placements}
        newline = Segment.line()
        for index, row in enumerate(result.rows):
            for j, key in enumerate(placements):
                label = f"{result.row_kind} {row}" if j == 0 else ""
                style = styles[key]
                yield Segment(label.ljust(row_label_w) + "  ")
                yield Segment(placement(key).label.ljust(place_w), style)
                yield Segment("  ")
                for i, panel in enumerate(panels):
                    yield Segment(eighths_bar(scales[i].fraction(values[id(panel)][key][index]), bar_w), style)
                    yield Segment(" " + numbers[id(panel)][key][index].rjust(num_w[i]))
                    if i < len(panels) - 1:
                        yield Segment(sep)
                yield newline
        axis = "; ".join(f"{p.metric}: {s.describe()}" for p, s in zip(panels, scales, strict=True))
        yield Text(axis + (" (median over seeds, min-max in brackets)" if spread else ""), style="dim")
        if self.show_notes:
            for note in result.notes:
                yield Text("Note: " + note, style="italic")

    @staticmethod
    def _number(panel: SimResult, key: str, index: int, spread: bool) -> str:
        return value_with_spread(float(panel.values[key][index]), panel.spread_at(key, index) if spread else None)

    @staticmethod
    def _title(result: SimResult) -> Text:
        cfg = result.config
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
