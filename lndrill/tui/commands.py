"""Command palette (ctrl+p), app-wide part: the screens, the language, and every card by title. Each
screen adds its own actions (`LndrillScreen.PALETTE`); Textual adds the theme, the keys panel and quit."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from lndrill.tui.lang import palette_text, say
from lndrill.tui.messages import Navigate, OpenCard, ToggleLanguage

if TYPE_CHECKING:
    from lndrill.tui.app import LndrillApp

#: The English title of every "open a card" entry starts with this.
OPEN_CARD = "Open card:"


class NavigationCommands(Provider):
    """Screens (home, cards, mock, simulator, stats), the language, and 'Open card: ...' for every card;
    titles and descriptions in the app's language (a search also matches the English title)."""

    def _commands(self) -> list[tuple[str, str, str, Callable[[], object]]]:
        """(title, description, English title, command) per entry."""
        app = cast("LndrillApp", self.app)  # this provider is registered on LndrillApp only
        go = app.post_message
        lang = app.lang
        screens: list[tuple[str, str, Callable[[], object]]] = [
            ("Home", "the home screen", partial(go, Navigate("home"))),
            ("Drill: card browser", "every card, filter by typing", partial(go, Navigate("browser"))),
            ("Mock interview", "3 timed questions with follow-ups and a report", partial(go, Navigate("mock"))),
            ("Simulator", "the gradient simulator, full screen", partial(go, Navigate("sim"))),
            ("Stats", "your history: scores, due dates, weakest sections, trend", partial(go, Navigate("stats"))),
            ("Switch language", "cards in English or Chinese", partial(go, ToggleLanguage())),
        ]
        cmds = [(palette_text(lang, title), palette_text(lang, help_text), title, command)
                for title, help_text, command in screens]
        for card in app.practice.deck.cards.values():
            cmds.append((say(lang, "Open card: ", "打开卡片：") + card.title.get(lang), card.id,
                         f"{OPEN_CARD} {card.title.en}", partial(go, OpenCard(card.id))))
        return cmds

    async def discover(self) -> Hits:
        for title, help_text, english, command in self._commands():
            if not english.startswith(OPEN_CARD):
                yield DiscoveryHit(title, command, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, english, command in self._commands():
            score = matcher.match(f"{title} {help_text}" + (f" {english}" if english != title else ""))
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, text=title, help=help_text)
