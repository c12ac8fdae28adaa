"""The notice every screen shows instead of its content when the terminal is too small."""

from __future__ import annotations

from textual.widgets import Static

from lndrill.tui.lang import say

MIN_WIDTH = 60
MIN_HEIGHT = 18
#: Screen breakpoints: below MIN_WIDTH x MIN_HEIGHT the screen gets -too-narrow / -too-short classes.
HORIZONTAL = [(0, "-too-narrow"), (MIN_WIDTH, "-roomy")]
VERTICAL = [(0, "-too-short"), (MIN_HEIGHT, "-tall")]


class TooSmall(Static):
    """'lndrill needs at least 60x18': shown (by the screen's CSS) only while the screen is too small."""

    DEFAULT_CSS = """
    TooSmall {
        display: none;
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-align: center;
        color: $warning;
    }
    """

    def __init__(self) -> None:
        super().__init__(notice("en"), markup=False, classes="too-small")

    def on_mount(self) -> None:
        if hasattr(self.app, "lang"):  # the notice follows the language (outside lndrill's app: English)
            self.watch(self.app, "lang", lambda lang: self.update(notice(lang)))


def notice(lang: str) -> str:
    """What the notice says, in `lang`."""
    return say(lang, f"lndrill needs more room: at least {MIN_WIDTH}x{MIN_HEIGHT} (ctrl+q quits)",
               f"lndrill 需要更大的窗口：至少 {MIN_WIDTH}x{MIN_HEIGHT}（ctrl+q 退出）")
