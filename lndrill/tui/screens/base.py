"""What every lndrill screen shares: the breakpoints and the too-small notice, typed access to the app's
practice and language, and the screen's own actions in the command palette."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Footer

from lndrill.tui.lang import palette_text, translate_bindings, translate_help
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.too_small import TooSmall

if TYPE_CHECKING:
    from lndrill.practice import Practice
    from lndrill.tui.app import LndrillApp

ResultT = TypeVar("ResultT")

#: Below this width the footer drops the padding around its keys, so that they fit (Chinese labels too).
COMPACT_FOOTER_BELOW = 100
#: Below this many columns the footer's English words are the short ones.
SHORT_FOOTER_BELOW = 90

#: A palette entry of a screen: (title, what it does, the screen action it runs).
PaletteEntry = tuple[str, str, str]


class ScreenCommands(Provider):
    """The current screen's `PALETTE` in the command palette (ctrl+p), in the app's language (a search
    also matches the English title)."""

    def _entries(self) -> list[tuple[str, str, str, str]]:
        """(title, description, English title, action) per entry."""
        screen = self.screen
        if not isinstance(screen, LndrillScreen):
            return []
        lang = screen.lang
        return [(palette_text(lang, title), palette_text(lang, help_text), title, action)
                for title, help_text, action in screen.PALETTE]

    async def discover(self) -> Hits:
        for title, help_text, _english, action in self._entries():
            yield DiscoveryHit(title, partial(self.screen.run_action, action), text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, english, action in self._entries():
            score = matcher.match(f"{title} {help_text}" + (f" {english}" if english != title else ""))
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
    #: HELP in Chinese, shown by the help panel in Chinese mode ("": the English HELP).
    HELP_ZH: ClassVar[str] = ""

    def compose(self) -> ComposeResult:
        translate_bindings(self, self.lang, self.lndrill.short_footer)  # the footer's words follow the language
        translate_help(self, self.lang)  # and so does the help panel's text
        yield TooSmall()
        with ScreenBody():
            yield from self.compose_body()

    def compose_body(self) -> ComposeResult:
        """The screen's widgets."""
        yield from ()

    @on(events.Resize)
    def _compact_footer(self, event: events.Resize) -> None:
        """A narrow terminal gets the compact footer, with short words, so quit and help still show at 80."""
        self.fit_footer(event.size.width)

    def fit_footer(self, width: int) -> None:
        """The footer for a terminal `width` columns wide: compact below COMPACT_FOOTER_BELOW; below
        SHORT_FOOTER_BELOW short English words and, in English, no "^p palette" hint (ctrl+p still opens it)."""
        short = width < SHORT_FOOTER_BELOW
        for footer in self.query(Footer):
            footer.compact = width < COMPACT_FOOTER_BELOW
            footer.show_command_palette = not (short and self.lang == "en")
        if short != self.lndrill.short_footer or short != getattr(self, "_short_footer", False):
            self.lndrill.short_footer = short
            self._short_footer = short
            translate_bindings(self, self.lang, short)
            translate_bindings(self.app, self.lang, short)
            self.refresh_bindings()

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
