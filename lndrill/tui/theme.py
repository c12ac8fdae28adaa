"""The navy theme and the placement colours (Post-LN purple, Pre-LN cyan) used everywhere in the app."""

from __future__ import annotations

from collections.abc import Iterable

from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from textual.theme import Theme

from lndrill.sim.render import PLACEMENT_STYLES

THEME_NAME = "lndrill-navy"
FALLBACK_THEME = "textual-dark"

NAVY = Theme(
    name=THEME_NAME,
    primary="#5fafff",
    secondary="#af87ff",
    accent="#00d7d7",
    foreground="#dfe7f5",
    background="#0b1526",
    surface="#111f36",
    panel="#1a2b47",
    success="#5fd787",
    warning="#ffd75f",
    error="#ff5f6d",
    dark=True,
)

#: Placement colours on dark themes (the article's figures) and the darker variants for light themes.
DARK_COLOURS: dict[str, str] = {"post": "#af87ff", "pre": "#00d7ff", "sandwich": "#5fd787", "deepnorm": "#ffd75f"}
LIGHT_COLOURS: dict[str, str] = {"post": "#6c3fc8", "pre": "#007c99", "sandwich": "#2e7d32", "deepnorm": "#8a6d00"}


def placement_colours(dark: bool) -> dict[str, str]:
    """Placement -> hex colour for a dark or a light theme."""
    return DARK_COLOURS if dark else LIGHT_COLOURS


class Recolour:
    """Draw a Rich renderable with the simulator's placement styles swapped for the theme's colours.

    The core chart (lndrill.sim.render) colours bars with named terminal colours; inside the app the
    same placements get the exact hex colours used by every label and legend, readable on any theme.
    """

    def __init__(self, renderable: RenderableType, dark: bool = True) -> None:
        self.renderable = renderable
        colours = placement_colours(dark)
        self._map: dict[str, Color] = {}
        for key, style_name in PLACEMENT_STYLES.items():
            colour = Style.parse(style_name).color
            if colour is not None:
                self._map[colour.name] = Color.parse(colours[key])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self._swap(console.render(self.renderable, options))

    def _swap(self, segments: Iterable[Segment]) -> Iterable[Segment]:
        for seg in segments:
            style = seg.style
            if style is not None and style.color is not None and style.color.name in self._map:
                style = style + Style(color=self._map[style.color.name])
                seg = Segment(seg.text, style, seg.control)
            yield seg
