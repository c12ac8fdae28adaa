"""The navy theme and the placement colours (Post-LN purple, Pre-LN cyan) used everywhere in the app."""

from __future__ import annotations

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
