"""A scrollable view of pre-rendered chart lines (Textual's line API: only visible lines are painted)."""

from __future__ import annotations

from rich.segment import Segment
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip


class ChartView(ScrollView):
    """Shows lines of Segments prepared elsewhere (e.g. in a worker thread); no reflow on update."""

    class Resized(Message):
        """The view's size changed: whoever prepares the lines should redo them at the new width."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._strips: list[Strip] = []

    def set_lines(self, lines: list[list[Segment]]) -> None:
        """Replace the lines; repaints without a layout pass unless the line count changes."""
        self._strips = [Strip(segments) for segments in lines]
        width = max((s.cell_length for s in self._strips), default=0)
        self.virtual_size = Size(width, len(self._strips))
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized())

    @property
    def plain(self) -> str:
        """The text shown (for tests)."""
        return "\n".join(s.text.rstrip() for s in self._strips)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = y + scroll_y
        width = self.scrollable_content_region.width
        if index >= len(self._strips):
            return Strip.blank(width, self.rich_style)
        return self._strips[index].crop_extend(scroll_x, scroll_x + width, self.rich_style).apply_style(
            self.rich_style)
