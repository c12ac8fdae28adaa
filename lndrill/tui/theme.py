"""The navy theme and the placement colours (Post-LN purple, Pre-LN cyan) used everywhere in the app."""

from __future__ import annotations

from textual.color import Color
from textual.theme import Theme

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

#: Placement colours on dark themes (the article's figures) and the darker variants for light themes;
#: the simulator chart, its legends and controls all take them from here (`SimChart(palette=...)`).
DARK_COLOURS: dict[str, str] = {"post": "#af87ff", "pre": "#00d7ff", "sandwich": "#5fd787", "deepnorm": "#ffd75f"}
LIGHT_COLOURS: dict[str, str] = {"post": "#6c3fc8", "pre": "#007c99", "sandwich": "#2e7d32", "deepnorm": "#8a6d00"}


def placement_colours(dark: bool) -> dict[str, str]:
    """Placement -> hex colour for a dark or a light theme."""
    return DARK_COLOURS if dark else LIGHT_COLOURS


def _luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = colour.rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: Text colours (✓ green, ✗ red) keep at least this contrast on the background and on the highlight.
READABLE = 4.5


def readable(colour: str, *backgrounds: str, minimum: float = READABLE) -> str:
    """`colour` made lighter (on dark backgrounds) or darker (on light ones), step by step, until it has
    `minimum` contrast on every one of `backgrounds`; as a hex string."""
    from textual.color import Color as TColor

    try:
        c = TColor.parse(colour)
        grounds = [TColor.parse(b) for b in backgrounds]
    except Exception:  # noqa: BLE001 - a colour Textual cannot parse stays as it is
        return colour
    dark = sum(_luminance(g) for g in grounds) / max(1, len(grounds)) < 0.3
    for _ in range(40):
        if all(contrast(c, g) >= minimum for g in grounds):
            break
        c = c.lighten(0.03) if dark else c.darken(0.03)
    return c.hex
