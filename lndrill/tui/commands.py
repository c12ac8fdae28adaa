"""Command palette (ctrl+p): the screens, the cards, and the current screen's actions."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class LndrillCommands(Provider):
    """Screens (home, cards, simulator), 'Open card: ...' for every card, and screen actions."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        app = self.app
        screen = self.screen
        cmds: list[tuple[str, str, Callable[[], object]]] = [
            ("Home", "the home screen", app.action_go_home),  # type: ignore[attr-defined]
            ("Drill: card browser", "every card, filter by typing", app.open_browser),  # type: ignore[attr-defined]
            ("Mock interview", "3 timed questions with follow-ups and a report",
             app.open_mock),  # type: ignore[attr-defined]
            ("Simulator", "the gradient simulator, full screen", app.open_sim),  # type: ignore[attr-defined]
            ("Stats", "your history: scores, due dates, weakest sections, trend",
             app.open_stats),  # type: ignore[attr-defined]
            ("Switch language", "cards in English or Chinese", app.action_toggle_lang),  # type: ignore[attr-defined]
            ("Help: keys", "every key of this screen", app.action_help),  # type: ignore[attr-defined]
        ]
        name = type(screen).__name__
        if name == "CardScreen":
            cmds += [
                ("Submit answer", "score the answer (ctrl+s)", screen.action_submit),  # type: ignore[attr-defined]
                ("Toggle simulator panel", "beside the card (ctrl+g)", screen.action_toggle_sim),  # type: ignore[attr-defined]
                ("Next card", "skip to the next card (ctrl+n)", screen.action_next_card),  # type: ignore[attr-defined]
            ]
        elif name == "MockScreen":
            cmds += [
                ("Submit answer", "submit now (ctrl+s)", screen.action_submit),  # type: ignore[attr-defined]
                ("End interview", "submit what is typed and show the report (escape twice)",
                 screen.action_end),  # type: ignore[attr-defined]
            ]
        elif name == "FeedbackScreen":
            cmds += [
                ("Retry", "back to the answer (r)", screen.action_retry),  # type: ignore[attr-defined]
                ("Next card", "on to the next card (n)", screen.action_next),  # type: ignore[attr-defined]
                ("Model answer", "show or hide (a)", screen.action_model_answer),  # type: ignore[attr-defined]
                ("Follow-up question", "show or hide (f)", screen.action_follow_up),  # type: ignore[attr-defined]
            ]
        deck = getattr(app, "deck", None)
        if deck is not None:
            lang = getattr(app, "lang", "en")
            for card in deck.cards.values():
                cmds.append((f"Open card: {card.title.get(lang)}", card.id,
                             partial(app.open_card, card.id)))  # type: ignore[attr-defined]
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
