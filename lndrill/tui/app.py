"""The lndrill Textual app and its one factory, `make_app`, used by the CLI, the tests and the benchmark."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive

from lndrill.cards.deck import Deck, load_deck
from lndrill.sim import SimConfig
from lndrill.tui.commands import LndrillCommands
from lndrill.tui.lang import default_lang, other_lang
from lndrill.tui.messages import AnswerSubmitted, DraftChanged, PointOverruled
from lndrill.tui.theme import FALLBACK_THEME, NAVY, THEME_NAME

if TYPE_CHECKING:
    from lndrill.scoring.result import ScoreResult
    from lndrill.store import Store
    from lndrill.tui.mock import MockOptions

START_SCREENS = ("home", "drill", "sim", "mock")
#: Drafts are written to the history at most this often (and only when they changed).
DRAFT_SAVE_S = 3.0

WallClock = Callable[[], datetime]


def utc_now() -> datetime:
    """The wall clock for history timestamps and due dates (injectable: tests pass a fixed one)."""
    return datetime.now(UTC)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


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
        now: WallClock = utc_now,
        store: Store | None = None,
        cram: bool = False,
        mock: MockOptions | None = None,
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
        #: Wall clock (UTC datetimes) for history timestamps and due dates.
        self.now = now
        #: `lndrill drill --cram`: the browser keeps the deck order and answers are not reviewed.
        self.cram = cram
        self.mock_options = mock
        self.card_order: list[str] = sorted(deck.cards)
        self.set_reactive(LndrillApp.lang, lang)
        self._store: Store | None = store
        self._store_lock = threading.Lock()
        self._main_thread = threading.get_ident()
        self._notice_shown = False
        #: Draft texts typed since the last autosave, per card id; and what was last saved or restored.
        self._pending_drafts: dict[str, dict[str, str]] = {}
        self._saved_drafts: dict[str, dict[str, str]] = {}
        #: The attempt id of each card's latest submitted answer (overrules update it).
        self.attempt_ids: dict[str, int] = {}
        self._scorer_hits: dict[int, dict[str, bool]] = {}

    def on_mount(self) -> None:
        try:
            self.register_theme(NAVY)
            self.theme = self.requested_theme or THEME_NAME
        except Exception:  # noqa: BLE001 - an unknown or broken theme falls back to Textual's dark one
            self.theme = FALLBACK_THEME
        from lndrill.tui.screens.home import HomeScreen

        self._main_thread = threading.get_ident()
        self.set_interval(DRAFT_SAVE_S, self.flush_drafts, name="draft-autosave")
        self.push_screen(HomeScreen())
        if self._store is not None:
            self._show_store_notice()
        elif self.start in ("home", "sim"):
            self.call_after_refresh(self._open_store_in_background)  # off the path to the first screen
        if self.start == "drill":
            self.open_browser()
            if self.start_card:
                self.open_card(self.start_card)
        elif self.start == "sim":
            self.open_sim(self.sim_config, self.sim_scale)
        elif self.start == "mock":
            self.open_mock(self.mock_options)
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

    def open_mock(self, options: MockOptions | None = None) -> None:
        """Start a mock interview: K cards picked by the scheduler (due and weakest first, then seeded)."""
        from lndrill.store import StoreError
        from lndrill.tui.mock import MockOptions, MockSession, new_seed
        from lndrill.tui.screens.mock import MockScreen

        opts = options or MockOptions()
        seed = opts.seed if opts.seed is not None else new_seed()
        cards = self.deck.cards
        try:
            picked = self.store.pick_for_mock(sorted(cards), opts.questions,
                                              tags={cid: c.tags for cid, c in cards.items()}, tag=opts.tag,
                                              seed=seed, now=self.now())
        except (StoreError, ValueError) as exc:
            self._history_failed(exc)
            return
        if not picked:
            where = f" with tag '{opts.tag}'" if opts.tag else ""
            self.notify(f"No card{where} to ask: nothing to interview on.", severity="warning")
            return
        session = MockSession(opts, [cards[cid] for cid in picked], self.now(), seed)
        self.push_screen(MockScreen(session, 0))

    def open_stats(self) -> None:
        """Open the stats screen (your history)."""
        from lndrill.tui.screens.stats import StatsScreen

        self.push_screen(StatsScreen())

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

    # ------------------------------------------------------------------ history (lndrill.store)
    @property
    def store(self) -> Store:
        """The history store, opened on first use (thread-safe); never raises.

        A corrupt file is moved aside by the store (its one-line notice is shown); a history that
        cannot be opened at all gives an in-memory store and a one-line warning.
        """
        with self._store_lock:  # never wait for the main thread while holding this lock
            if self._store is None:
                self._store = self._open_store()
                if threading.get_ident() == self._main_thread:
                    self.call_later(self._show_store_notice)
            return self._store

    def _open_store(self) -> Store:
        from lndrill.store import memory_store, open_store

        try:
            return open_store(clock=self.now, fallback_to_memory=True)
        except Exception as exc:  # noqa: BLE001 - history must never stop the app
            return memory_store(self.now, notice=f"lndrill: cannot open history: {_one_line(exc)} "
                                                 "(history is not saved this session)")

    @work(thread=True, group="store", exit_on_error=False)
    def _open_store_in_background(self) -> None:
        _ = self.store
        self.call_from_thread(self._show_store_notice)

    def _show_store_notice(self) -> None:
        store = self._store
        if store is not None and store.notice and not self._notice_shown:
            self._notice_shown = True
            self.notify(store.notice, severity="warning", timeout=12)

    def _history_failed(self, exc: Exception) -> None:
        self.notify(_one_line(exc), severity="error", timeout=8)

    def record_answer(self, card_id: str, mode: str, texts: Mapping[str, str], result: ScoreResult,
                      duration: float, review: bool = True) -> int | None:
        """Store a submitted answer at once (its own committed transaction) and review the card.

        Returns the attempt id, or None (with a one-line notification) when history cannot be written.
        """
        from lndrill.store import StoreError

        self._pending_drafts.pop(card_id, None)
        self._saved_drafts.pop(card_id, None)
        now = self.now()
        started = datetime.fromtimestamp(now.timestamp() - max(0.0, duration), tz=now.tzinfo or UTC)
        try:
            attempt = self.store.record_attempt(card_id, mode, dict(texts), result, duration, started_at=started,
                                                now=now)
            if review:
                self.store.review(card_id, result.score, duration, now=now, attempt_id=attempt)
        except (StoreError, ValueError) as exc:
            self._history_failed(exc)
            return None
        self.attempt_ids[card_id] = attempt
        self._scorer_hits[attempt] = {p.id: p.hit for s in result.sections for p in s.points}
        return attempt

    def record_submission(self, message: AnswerSubmitted) -> None:
        """A drill answer was scored: store it at once (the card screen calls this before showing the
        score, then posts the message). Cram answers are stored but do not move the schedule."""
        self.record_answer(message.card_id, "drill", message.texts, message.result, message.duration,
                           review=not self.cram)

    def on_point_overruled(self, message: PointOverruled) -> None:
        """The user overruled a point: store the full set of overrides and the new score."""
        from lndrill.store import StoreError

        attempt = self.attempt_ids.get(message.card_id)
        if attempt is None:
            return
        scorer = self._scorer_hits.get(attempt, {})
        # the full set: points whose verdict now differs from the scorer's (flipping back undoes one)
        overrides = {p.id: p.hit for s in message.result.sections for p in s.points
                     if p.overruled and p.hit != scorer.get(p.id)}
        try:
            self.store.update_overrides(attempt, overrides, message.result.score)
        except (StoreError, ValueError) as exc:
            self._history_failed(exc)

    def on_draft_changed(self, message: DraftChanged) -> None:
        """An answer area changed: remember it; `flush_drafts` saves it within DRAFT_SAVE_S seconds."""
        if self._saved_drafts.get(message.card_id) == message.texts:
            self._pending_drafts.pop(message.card_id, None)
        else:
            self._pending_drafts[message.card_id] = dict(message.texts)

    def flush_drafts(self) -> None:
        """Save the drafts that changed since the last save (the autosave timer calls this)."""
        from lndrill.store import StoreError

        pending, self._pending_drafts = self._pending_drafts, {}
        for card_id, texts in pending.items():
            try:
                self.store.save_draft(card_id, texts, now=self.now())
            except StoreError as exc:
                self._history_failed(exc)
                return
            self._saved_drafts[card_id] = texts

    def load_draft(self, card_id: str) -> dict[str, str] | None:
        """The autosaved draft of a card, if any (remembered as saved, so restoring it saves nothing)."""
        from lndrill.store import StoreError

        try:
            draft = self.store.load_draft(card_id)
        except StoreError as exc:
            self._history_failed(exc)
            return None
        if draft:
            self._saved_drafts[card_id] = dict(draft)
        return draft

    def close_history(self) -> None:
        """Save pending drafts and close the store (the CLI calls this after the app exits)."""
        if self._store is None:
            return
        try:
            self.flush_drafts()
        finally:
            self._store.close()

    async def action_quit(self) -> None:
        """Save pending drafts, then quit."""
        if self._store is not None:
            self.flush_drafts()
        await super().action_quit()


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
    now: WallClock = utc_now,
    store: Store | None = None,
    cram: bool = False,
    mock: MockOptions | None = None,
) -> LndrillApp:
    """The app, starting on `start` ("home", "drill", "sim" or "mock"). Loads the deck unless one is given.

    `clock` (monotonic seconds) times answers and the mock interview's countdown; `now` (UTC datetimes)
    stamps history and decides what is due; `store` replaces the history in `$LNDRILL_HOME` (tests).
    """
    if deck is None:
        deck = load_deck(content)
    return LndrillApp(deck, start=start, card_id=card_id, tag=tag, lang=default_lang(lang),
                      sim_config=sim_config, sim_scale=sim_scale, theme=theme, clock=clock, now=now,
                      store=store, cram=cram, mock=mock)
