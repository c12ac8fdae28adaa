"""The lndrill Textual app and its one factory, `make_app`, used by the CLI, the tests and the benchmark."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive

from lndrill.cards.deck import Deck, load_deck
from lndrill.sim import SimConfig
from lndrill.tui.commands import LndrillCommands
from lndrill.tui.lang import default_lang, other_lang
from lndrill.tui.messages import AnswerSubmitted, DraftChanged, PointOverruled
from lndrill.tui.theme import FALLBACK_THEME, NAVY, THEME_NAME

START_SCREENS = ("home", "drill", "sim")


class LndrillApp(App[int]):
    """Home, card browser, card + feedback, simulator. Keyboard first; the mouse works too."""

    CSS_PATH = ["app.tcss"]
    TITLE = "lndrill"
    COMMANDS = App.COMMANDS | {LndrillCommands}
    BINDINGS = [
        Binding("f1", "help", "Help", id="app.help"),
        Binding("question_mark", "help", "Help", show=False, id="app.help_question"),
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
    ]

    lang: reactive[str] = reactive("en")
    """Language of card text, claims and explanations: "en" or "zh"."""

    def __init__(
        self,
        deck: Deck,
        *,
        start: str = "home",
        card_id: str | None = None,
        tag: str | None = None,
        lang: str = "en",
        sim_config: SimConfig | None = None,
        sim_scale: str = "log",
        theme: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        if start not in START_SCREENS:
            raise ValueError(f"unknown start screen {start!r}")
        self.deck = deck
        self.start = start
        self.start_card = card_id
        self.start_tag = tag
        self.sim_config = sim_config
        self.sim_scale = sim_scale
        self.requested_theme = theme
        self.clock = clock
        self.card_order: list[str] = sorted(deck.cards)
        self.set_reactive(LndrillApp.lang, lang)

    def on_mount(self) -> None:
        try:
            self.register_theme(NAVY)
            self.theme = self.requested_theme or THEME_NAME
        except Exception:  # noqa: BLE001 - an unknown or broken theme falls back to Textual's dark one
            self.theme = FALLBACK_THEME
        from lndrill.tui.screens.home import HomeScreen

        self.push_screen(HomeScreen())
        if self.start == "drill":
            self.open_browser()
            if self.start_card:
                self.open_card(self.start_card)
        elif self.start == "sim":
            self.open_sim(self.sim_config, self.sim_scale)
        broken = len({str(p.path) for p in self.deck.problems})
        if broken:
            self.notify(f"{broken} card file(s) could not be loaded; run `lndrill cards check`.",
                        severity="warning")

    # ------------------------------------------------------------------ navigation
    def open_browser(self) -> None:
        """Open the card browser (filtered by --tag on first open)."""
        from lndrill.tui.screens.browser import BrowserScreen

        query = f"tag:{self.start_tag} " if self.start_tag else ""
        self.start_tag = None
        self.push_screen(BrowserScreen(query))

    def open_card(self, card_id: str, replace: bool = False) -> None:
        """Open a card; an unknown or broken card is a one-line notification, never a crash."""
        from lndrill.tui.screens.card import CardScreen

        card = self.deck.get(card_id)
        if card is None:
            near = self.deck.nearest(card_id)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            self.notify(f"Unknown card '{card_id}'{hint}", severity="error")
            return
        try:
            screen = CardScreen(card)
        except Exception as exc:  # noqa: BLE001
            self.notify(f"Card '{card_id}' could not be opened: {exc}", severity="error")
            return
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_next_card(self, current: str, replace: bool = True) -> None:
        """Open the card after `current` in the browser's order (wrapping around)."""
        order = self.card_order or sorted(self.deck.cards)
        if not order:
            return
        i = order.index(current) if current in order else -1
        self.open_card(order[(i + 1) % len(order)], replace=replace)

    def open_sim(self, config: SimConfig | None = None, scale: str = "log") -> None:
        """Open the simulator screen."""
        from lndrill.tui.screens.sim import SimScreen

        self.push_screen(SimScreen(config, scale))

    def action_go_home(self) -> None:
        """Back to the home screen."""
        from lndrill.tui.screens.home import HomeScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def action_help(self) -> None:
        """List every key of the current screen."""
        from lndrill.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_toggle_lang(self) -> None:
        """Switch between English and Chinese."""
        self.lang = other_lang(self.lang)

    # ------------------------------------------------------------------ hooks for issue 5 (history)
    def on_answer_submitted(self, message: AnswerSubmitted) -> None:
        """An answer was scored: the place to save history (issue 5). Nothing is stored yet."""

    def on_point_overruled(self, message: PointOverruled) -> None:
        """The user overruled a point: the place to update the saved score (issue 5)."""

    def on_draft_changed(self, message: DraftChanged) -> None:
        """An answer area changed: the place for a debounced draft-autosave timer (issue 5)."""


def make_app(
    start: str = "home",
    *,
    deck: Deck | None = None,
    content: list[str] | None = None,
    card_id: str | None = None,
    tag: str | None = None,
    lang: str | None = None,
    sim_config: SimConfig | None = None,
    sim_scale: str = "log",
    theme: str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> LndrillApp:
    """The app, starting on `start` ("home", "drill" or "sim"). Loads the deck unless one is given."""
    if deck is None:
        deck = load_deck(content)
    return LndrillApp(deck, start=start, card_id=card_id, tag=tag, lang=default_lang(lang),
                      sim_config=sim_config, sim_scale=sim_scale, theme=theme, clock=clock)
