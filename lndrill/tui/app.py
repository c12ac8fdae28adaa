"""The lndrill Textual app and its one factory, `make_app`, used by the CLI, the tests and the benchmark."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.theme import Theme

from lndrill.cards.deck import Deck, UnknownCard, load_deck
from lndrill.practice import MockOptions, Practice, PracticeError, user_history
from lndrill.practice.clock import Monotonic, WallClock, utc_now
from lndrill.settings import Loaded, MockSettings, PanelSettings, SettingsFile, load_settings
from lndrill.tui.commands import NavigationCommands
from lndrill.tui.driver import hangup_safe
from lndrill.tui.lang import default_lang, other_lang, say, translate_bindings, translate_help
from lndrill.tui.messages import CardOrderChanged, Navigate, OpenCard, OpenNextCard, ToggleLanguage
from lndrill.tui.simknobs import PanelKnobs
from lndrill.tui.theme import FALLBACK_THEME, NAVY, THEME_NAME

if TYPE_CHECKING:
    from lndrill.sim import SimConfig
    from lndrill.store import Store
    from lndrill.train.run import TrainConfig

START_SCREENS = ("home", "drill", "sim", "mock")
#: Drafts are written to the history at most this often (and only when they changed).
DRAFT_SAVE_S = 3.0


class LndrillApp(App[int]):
    """Home, card browser, card + feedback, mock interview, simulator, stats; keyboard first. The app
    navigates and holds the language and theme; answers and history are the `Practice` it hands down."""

    CSS_PATH = ["app.tcss"]
    TITLE = "lndrill"
    COMMANDS = App.COMMANDS | {NavigationCommands}
    BINDINGS = [
        Binding("f1", "help", "Help", id="app.help"),
        Binding("question_mark", "help", "Help", show=False, id="app.help_question"),  # in a text field ? is typed
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
    ]

    lang: reactive[str] = reactive("en")
    """Language of card text, claims and explanations: "en" or "zh"."""

    short_footer: bool = False
    """The terminal is narrow: footers use the short English key words (`lang.BINDING_SHORT_EN`)."""

    def __init__(self, practice: Practice, *, start: str = "home", card_id: str | None = None,
                 tag: str | None = None, lang: str = "en", sim_config: SimConfig | None = None,
                 sim_scale: str = "log", mock: MockOptions | None = None, settings: Loaded | None = None,
                 train_config: TrainConfig | None = None) -> None:
        super().__init__()
        #: What the Training view trains (None: the xiong preset); the tests give a tiny seeded grid.
        self.train_config = train_config
        #: The settings that stick (theme, language, the panel's knobs, the mock form), and their file.
        self.settings = SettingsFile(settings if settings is not None else load_settings(),
                                     tell=lambda message: self._tell(message, "warning", 12))
        #: The simulator panel's knobs: every card's panel starts from the last ones set.
        self.panel_knobs = PanelKnobs.from_settings(**vars(self.settings.settings.panel))
        if start not in START_SCREENS:
            raise ValueError(f"unknown start screen {start!r}")
        self.practice = practice
        self.start, self.start_card, self.start_tag, self.mock_options = start, card_id, tag, mock
        self.sim_config, self.sim_scale = sim_config, sim_scale
        #: The browser's order of cards ("next card" follows it).
        self.card_order: list[str] = sorted(practice.deck.cards)
        self.set_reactive(LndrillApp.lang, lang)
        self._main_thread = threading.get_ident()
        practice.on_notice = lambda message: self._tell(message, "warning", 12)
        practice.on_problem = lambda message: self._tell(message, "error", 8)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform, with output to a closed terminal dropped, so the process
        ends when its window is closed while it quits (see `lndrill.tui.driver`)."""
        return hangup_safe(super().get_driver_class())

    def on_mount(self) -> None:
        from lndrill.tui.screens.home import HomeScreen

        try:
            self.register_theme(NAVY)
            self.theme = THEME_NAME
        except Exception:  # noqa: BLE001 - a broken theme falls back to Textual's dark one
            self.theme = FALLBACK_THEME
        chosen = self.settings.settings.theme
        if chosen and chosen != self.theme:
            if chosen in self.available_themes:
                self.theme = chosen
            else:
                self.notify(say(self.lang, f"lndrill: theme {chosen!r} (in {self.settings.path}) is not known; using "
                                           "the default",
                                f"lndrill：主题 {chosen!r}（在 {self.settings.path} 中）未知；使用默认主题"),
                            severity="warning", timeout=12)
        started_with = self.theme

        def theme_changed(theme: Theme) -> None:  # the theme as it was at start is not a choice to save
            if theme.name != started_with or self.settings.settings.theme is not None:
                self.settings.update(theme=theme.name)

        self.theme_changed_signal.subscribe(self, theme_changed)
        if self.settings.notice:
            self.notify(self.settings.notice, severity="warning", timeout=12)
        self._main_thread = threading.get_ident()
        translate_bindings(self, self.lang)
        self.set_interval(DRAFT_SAVE_S, self.practice.flush_drafts, name="draft-autosave")
        self._catch_signals()
        self.push_screen(HomeScreen())
        if self.start in ("home", "sim"):  # open the history off the path to the first screen
            self.call_after_refresh(self.run_worker, self.practice.open_history, thread=True, group="store",
                                    exit_on_error=False)
        # Answers a killed process left unscored: scored after the first paint, off the UI thread.
        self.call_after_refresh(self.run_worker, self._score_left_unscored, thread=True, group="rescore",
                                exit_on_error=False)
        if self.start == "drill":
            self.open_browser()
            if self.start_card:
                self.open_card(self.start_card)
        elif self.start == "sim":
            self.open_sim(self.sim_config, self.sim_scale)
        elif self.start == "mock":
            self.open_mock(self.mock_options)
        broken = len({str(p.path) for p in self.practice.deck.problems})
        if broken:
            self.notify(say(self.lang, f"{broken} card file(s) could not be loaded; run `lndrill cards check`.",
                            f"{broken} 个卡片文件无法加载；请运行 `lndrill cards check`。"), severity="warning")

    def _score_left_unscored(self) -> None:
        """Score the answers a killed process left unscored (worker thread); each problem is one line."""
        try:
            self.practice.score_unscored(self.lang)
        except Exception as exc:  # noqa: BLE001 - never a crash: the answers stay in the history, unscored
            problem = " ".join(str(exc).split())
            self._tell(say(self.lang, f"lndrill: could not score answers left unscored: {problem}",
                           f"lndrill：无法为之前未评分的回答评分：{problem}"), "error", 8)

    def _catch_signals(self) -> None:
        """SIGTERM (kill) and SIGHUP (the terminal window closed) save the drafts and end the app the normal
        way, so the terminal is restored (main screen, no mouse tracking, cursor shown)."""
        self._signals: list[int] = []
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self._on_signal, int(sig))
                self._signals.append(int(sig))
        except (NotImplementedError, RuntimeError, ValueError, AttributeError):  # not POSIX, not the main thread
            pass

    def _on_signal(self, signum: int) -> None:
        try:
            self.practice.flush_drafts()
        finally:
            self.exit(return_code=128 + signum)

    def on_unmount(self) -> None:
        """Give the signals back (the app may run inside a longer process: the tests)."""
        try:
            loop = asyncio.get_running_loop()
            for sig in getattr(self, "_signals", []):
                loop.remove_signal_handler(sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass

    def _tell(self, message: str, severity: SeverityLevel, timeout: float) -> None:
        """A one-line notice or problem from the practice (from any thread)."""
        if threading.get_ident() == self._main_thread:
            self.notify(message, severity=severity, timeout=timeout)
        else:
            self.call_from_thread(self.notify, message, severity=severity, timeout=timeout)

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

        try:
            screen = CardScreen(self.practice.deck.card(card_id))
        except UnknownCard as exc:
            message = str(exc)
            self.notify(message[:1].upper() + message[1:], severity="error")
            return
        except Exception as exc:  # noqa: BLE001
            self.notify(say(self.lang, f"Card '{card_id}' could not be opened: {exc}", f"卡片 '{card_id}' 无法打开：{exc}"),
                        severity="error")
            return
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_mock(self, options: MockOptions | None = None) -> None:
        """Start a mock interview: K cards picked by the scheduler (due and weakest first, then seeded)."""
        from lndrill.tui.screens.mock import MockScreen

        try:
            session = self.practice.start_mock(options or MockOptions())
        except PracticeError as exc:
            self.notify(str(exc), severity="warning")
            return
        if session is not None:
            if session.notice:
                self.notify(session.notice, severity="warning", timeout=8)
            self.push_screen(MockScreen(session, 0))

    def choose_mock(self) -> None:
        """The mock interview form (questions, minutes, tag), the last choice filled in; start on enter."""
        from lndrill.tui.screens.mock_form import MockFormScreen

        deck = self.practice.deck
        tags = {t for c in deck.cards.values() for t in c.tags}

        def chosen(options: MockOptions | None) -> None:
            if options is not None:
                self.remember_mock(options)
                self.open_mock(options)

        self.push_screen(MockFormScreen(self.settings.settings.mock, self.lang, len(deck.cards), tags), chosen)

    def open_stats(self) -> None:
        """Open the stats screen (your history)."""
        from lndrill.tui.screens.stats import StatsScreen

        self.push_screen(StatsScreen())

    def open_sim(self, config: SimConfig | None = None, scale: str = "log") -> None:
        """Open the simulator screen."""
        from lndrill.tui.screens.sim import SimScreen

        self.push_screen(SimScreen(config, scale))

    def open_training(self, config: TrainConfig | None = None) -> None:
        """Open the Training view (the xiong preset unless a config is given here or to `make_app`)."""
        from lndrill.tui.screens.training import TrainingScreen

        self.push_screen(TrainingScreen(config or self.train_config))

    def action_go_home(self) -> None:
        """Back to the home screen."""
        from lndrill.tui.screens.home import HomeScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def action_help(self) -> None:
        """Show or hide Textual's help panel: the keys of the focused widget, its screen and the app, and
        the widget's or screen's HELP text."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    async def action_quit(self) -> None:
        """Save pending drafts, then quit."""
        self.practice.flush_drafts()
        await super().action_quit()

    # ------------------------------------------------------------------ messages from screens
    def on_navigate(self, message: Navigate) -> None:
        places = {"home": self.action_go_home, "browser": self.open_browser, "mock": self.choose_mock,
                  "sim": self.open_sim, "stats": self.open_stats}
        places[message.to]()

    def on_open_card(self, message: OpenCard) -> None:
        self.open_card(message.card_id)

    def on_open_next_card(self, message: OpenNextCard) -> None:
        """The card after the current one in the browser's order (wrapping around), instead of it."""
        order = self.card_order or sorted(self.practice.deck.cards)
        if order:
            i = order.index(message.current) if message.current in order else -1
            self.open_card(order[(i + 1) % len(order)], replace=True)

    def on_card_order_changed(self, message: CardOrderChanged) -> None:
        self.card_order = list(message.card_ids)

    def watch_lang(self, lang: str) -> None:
        """The footer and help panel follow the language: every screen's keys and the app's, and the
        screens' help texts (an open help panel is redrawn)."""
        from textual.widgets import HelpPanel

        translate_bindings(self, lang, self.short_footer)
        for screen in self.screen_stack:
            translate_bindings(screen, lang, self.short_footer)
            translate_help(screen, lang)
        if self.screen_stack:
            fit = getattr(self.screen, "fit_footer", None)
            if fit is not None:
                fit(self.size.width)
            self.screen.refresh_bindings()
            for panel in self.screen.query(HelpPanel):
                panel.update_help(self.screen.focused)

    def on_toggle_language(self, _message: ToggleLanguage) -> None:
        self.lang = other_lang(self.lang)
        self.settings.update(lang=self.lang)

    def remember_panel(self, knobs: PanelKnobs) -> None:
        """The panel's knobs changed: the next card's panel starts from them, and they are saved."""
        self.panel_knobs = knobs
        self.settings.update(panel=PanelSettings(depths=knobs.depths_text, width=knobs.width, metric=knobs.metric,
                                                 seed=knobs.seed, placements=knobs.placements))

    def remember_mock(self, options: MockOptions) -> None:
        """The mock form's choice: offered again next time, and saved."""
        self.settings.update(mock=MockSettings(questions=options.questions, minutes=options.minutes,
                                               tag=options.tag))


def _given(store: Store) -> Callable[[], Store]:
    return lambda: store


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
    clock: Monotonic = time.monotonic,
    now: WallClock = utc_now,
    store: Store | None = None,
    cram: bool = False,
    mock: MockOptions | None = None,
    train_config: TrainConfig | None = None,
) -> LndrillApp:
    """The app, starting on `start` ("home", "drill", "sim" or "mock"). Loads the deck unless one is given.

    `clock` (monotonic seconds) times answers and the mock interview's countdown; `now` (UTC datetimes)
    stamps history and decides what is due; `store` replaces the history in `$LNDRILL_HOME` (tests);
    `train_config` is what the Training view trains (default: the xiong preset).
    """
    deck = deck if deck is not None else load_deck(content)
    practice = Practice(deck, user_history(now) if store is None else _given(store), now=now, clock=clock,
                        cram=cram)
    settings = load_settings()
    if lang is None and settings.settings.lang is not None:  # --lang, else the settings, else the locale
        lang = settings.settings.lang
    return LndrillApp(practice, start=start, card_id=card_id, tag=tag, lang=default_lang(lang),
                      sim_config=sim_config, sim_scale=sim_scale, mock=mock, settings=settings,
                      train_config=train_config)
