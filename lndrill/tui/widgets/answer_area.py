"""A multi-line answer area: a TextArea that cuts huge pastes instead of freezing the app."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual import events
from textual.widgets import TextArea

from lndrill.cards.schema import Card
from lndrill.practice.drafts import draft_for_areas
from lndrill.tui.lang import say

#: An answer area keeps at most this many characters; a bigger paste is cut with a notification.
MAX_AREA_CHARS = 100_000


class AnswerArea(TextArea):
    """One section's answer (soft-wrapped, Tab moves on, Chinese input works as in any TextArea)."""

    DEFAULT_CSS = """
    AnswerArea {
        height: 6;
        min-height: 4;
        border: round $panel-lighten-2;
        padding: 0 1;
        &:focus { border: round $primary; }
    }
    """

    def __init__(self, *, id: str | None = None, placeholder: str = "") -> None:  # noqa: A002
        super().__init__("", id=id, soft_wrap=True, tab_behavior="focus", show_line_numbers=False,
                         placeholder=placeholder, classes="answer")

    def on_mount(self) -> None:
        if self.app.is_headless:
            self.cursor_blink = False

    async def _on_paste(self, event: events.Paste) -> None:
        room = MAX_AREA_CHARS - len(self.text)
        text = event.text
        if len(text) > room:
            event.prevent_default()
            lang = str(getattr(self.app, "lang", "en"))
            if room <= 0:
                self.notify(say(lang, f"this answer area is full ({MAX_AREA_CHARS:,} characters)",
                                f"这个回答框已满（{MAX_AREA_CHARS:,} 个字符）"), severity="warning")
                return
            self.notify(say(lang, f"paste cut to {room:,} characters (an area holds {MAX_AREA_CHARS:,})",
                            f"粘贴内容已截到 {room:,} 个字符（一个回答框最多 {MAX_AREA_CHARS:,} 个）"),
                        severity="warning")
            if result := self._replace_via_keyboard(text[:room], *self.selection):
                self.move_cursor(result.end_location)


def fill_from_draft(areas: Sequence[AnswerArea], card: Card, draft: Mapping[str, str] | None) -> bool:
    """Put a saved draft into a card's empty answer areas (one per section); whether anything was put."""
    if not draft or any(a.text for a in areas):
        return False
    for area, text in zip(areas, draft_for_areas(card, draft), strict=False):
        if text:
            area.load_text(text)
            area.refresh(layout=True)  # no line drawn before the text was there may stay on screen
    if areas:
        areas[0].move_cursor(areas[0].document.end)
    return True
