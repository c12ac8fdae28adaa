"""Command palette (ctrl+p): the screens, the cards, and the current screen's actions."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from lndrill.tui.messages import Navigate, OpenCard, ToggleLanguage

if TYPE_CHECKING:
    from lndrill.tui.app import LndrillApp


class LndrillCommands(Provider):
    """Screens (home, cards, simulator), 'Open card: ...' for every card, and screen actions."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        from lndrill.tui.screens.card import CardScreen
        from lndrill.tui.screens.feedback import FeedbackScreen
        from lndrill.tui.screens.mock import MockScreen

        app = cast("LndrillApp", self.app)  # this provider is registered on LndrillApp only
        go = app.post_message
        cmds: list[tuple[str, str, Callable[[], object]]] = [
            ("Home", "the home screen", partial(go, Navigate("home"))),
            ("Drill: card browser", "every card, filter by typing", partial(go, Navigate("browser"))),
            ("Mock interview", "3 timed questions with follow-ups and a report", partial(go, Navigate("mock"))),
            ("Simulator", "the gradient simulator, full screen", partial(go, Navigate("sim"))),
            ("Stats", "your history: scores, due dates, weakest sections, trend", partial(go, Navigate("stats"))),
            ("Switch language", "cards in English or Chinese", partial(go, ToggleLanguage())),
            ("Help: keys", "every key of this screen", app.action_help),
        ]
        screen = self.screen
        if isinstance(screen, CardScreen):
            cmds += [
                ("Submit answer", "score the answer (ctrl+s)", screen.action_submit),
                ("Toggle simulator panel", "beside the card (ctrl+g)", screen.action_toggle_sim),
                ("Next card", "skip to the next card (ctrl+n)", screen.action_next_card),
            ]
        elif isinstance(screen, MockScreen):
            cmds += [
                ("Submit answer", "submit now (ctrl+s)", screen.action_submit),
                ("End interview", "submit what is typed and show the report (escape twice)", screen.action_end),
            ]
        elif isinstance(screen, FeedbackScreen):
            cmds += [
                ("Retry", "back to the answer (r)", screen.action_retry),
                ("Next card", "on to the next card (n)", screen.action_next),
                ("Model answer", "show or hide (a)", screen.action_model_answer),
                ("Follow-up question", "show or hide (f)", screen.action_follow_up),
            ]
        for card in app.practice.deck.cards.values():
            cmds.append((f"Open card: {card.title.get(app.lang)}", card.id, partial(go, OpenCard(card.id))))
        return cmds

    async def discover(self) -> Hits:
        for title, help_text, command in self._commands():
            if not title.startswith("Open card"):
                yield DiscoveryHit(title, command, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, command in self._commands():
            score = matcher.match(f"{title} {help_text}")
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, text=title, help=help_text)
