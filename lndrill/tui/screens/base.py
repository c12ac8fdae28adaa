"""What every lndrill screen shares: the breakpoints and the too-small notice, typed access to the app's
practice and language, and the screen's own actions in the command palette."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from textual.app import ComposeResult
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Container
from textual.screen import Screen

from lndrill.tui.lang import translate_bindings
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.too_small import TooSmall

if TYPE_CHECKING:
    from lndrill.practice import Practice
    from lndrill.tui.app import LndrillApp

ResultT = TypeVar("ResultT")

#: A palette entry of a screen: (title, what it does, the screen action it runs).
PaletteEntry = tuple[str, str, str]


class ScreenCommands(Provider):
    """The current screen's `PALETTE` in the command palette (ctrl+p)."""

    def _entries(self) -> tuple[PaletteEntry, ...]:
        screen = self.screen
        return screen.PALETTE if isinstance(screen, LndrillScreen) else ()

    async def discover(self) -> Hits:
        for title, help_text, action in self._entries():
            yield DiscoveryHit(title, partial(self.screen.run_action, action), text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in self._entries():
            score = matcher.match(f"{title} {help_text}")
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self.screen.run_action, action), text=title,
                          help=help_text)


class ScreenBody(Container):
    """Everything a screen shows; hidden (and the too-small notice shown) while the terminal is too small."""

    DEFAULT_CSS = """
    ScreenBody { width: 1fr; height: 1fr; overflow-y: auto; }
    """


class LndrillScreen(Screen[ResultT]):
    """A screen of the app. Subclasses compose their content in `compose_body`, list their palette
    actions in `PALETTE`, and describe the keys that are no binding in `HELP` (Textual's help panel,
    f1, shows both the bindings and that text)."""

    DEFAULT_CSS = """
    LndrillScreen.-too-narrow, LndrillScreen.-too-short {
        & > ScreenBody { display: none; }
        & > TooSmall { display: block; }
    }
    """
    #: Below MIN_WIDTH x MIN_HEIGHT the screen gets -too-narrow / -too-short and shows only TooSmall.
    HORIZONTAL_BREAKPOINTS = too_small.HORIZONTAL
    VERTICAL_BREAKPOINTS = too_small.VERTICAL
    COMMANDS = {ScreenCommands}
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = ()

    def compose(self) -> ComposeResult:
        translate_bindings(self, self.lang)  # the footer's words follow the language
        yield TooSmall()
        with ScreenBody():
            yield from self.compose_body()

    def compose_body(self) -> ComposeResult:
        """The screen's widgets."""
        yield from ()

    @property
    def lndrill(self) -> LndrillApp:
        """The app (every lndrill screen runs in LndrillApp)."""
        return cast("LndrillApp", self.app)

    @property
    def practice(self) -> Practice:
        """The app's practice: the deck, the history, submitting and overruling answers."""
        return self.lndrill.practice

    @property
    def lang(self) -> str:
        """The language cards are shown in: "en" or "zh"."""
        return self.lndrill.lang
