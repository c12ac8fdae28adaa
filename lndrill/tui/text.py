"""Card text on screen: hard line breaks joined so the screen can wrap at its own width, and wrapping that
breaks between Chinese characters."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text


def _cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\u3000" <= ch <= "\u303f"


def _cjk_punctuation(ch: str) -> bool:
    return "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uff0f" or "\uff1a" <= ch <= "\uff20"


def reflow(text: str) -> str:
    """Card text with its hard line breaks joined (a space between words, none between Chinese
    characters); blank lines stay as paragraph breaks."""
    paragraphs = []
    for para in text.strip().split("\n\n"):
        out = ""
        for line in (ln.strip() for ln in para.splitlines()):
            if not line:
                continue
            if out and not (_cjk(out[-1]) and _cjk(line[0])) and not _cjk_punctuation(out[-1]):
                out += " "  # (none after a Chinese comma or full stop either: "、\nMix-LN" is "、Mix-LN")
            out += line
        paragraphs.append(out)
    return "\n\n".join(paragraphs)


#: No line may start with these (closing punctuation) or end with these (opening punctuation).
_NO_BREAK_BEFORE = frozenset("，。、：；！？）」』》】〕,.;:!?)]}”’%…")
_NO_BREAK_AFTER = frozenset("（「『《【〔([{“‘")


def line_breaks(line: str, width: int) -> list[int]:
    """Offsets in `line` (no newlines) where a screen line of `width` cells should start, wrapping at spaces and
    also between Chinese characters (which have no spaces between them); a word longer than a line is folded."""
    out: list[int] = []
    if width < 1:
        return out
    start, col, chance = 0, 0, -1  # chance: the latest offset a line may start at
    for i, ch in enumerate(line):
        if i > start:
            prev = line[i - 1]
            if prev == " " and ch != " ":
                chance = i
            elif (cell_len(prev) == 2 or cell_len(ch) == 2) and ch != " " and ch not in _NO_BREAK_BEFORE and (
                    prev not in _NO_BREAK_AFTER and prev != " "):
                chance = i
        w = cell_len(ch)
        if col + w > width and ch != " ":
            cut = chance if chance > start else i
            out.append(cut)
            start, chance = cut, -1
            col = cell_len(line[cut:i].lstrip(" "))
            if cut == i:
                col = 0
        col += w
    return out


class Wrapped:
    """`text` wrapped at the width it is drawn in, breaking between Chinese characters too (Rich and Textual
    break lines only at spaces, so a Chinese sentence after an English word jumped whole to the next line and
    left a short line behind). `str()` is the plain text."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        lines: list[Text] = []
        for line in self.text.split("\n", allow_blank=True):
            pieces = line.divide(line_breaks(line.plain, width)) if line.plain else [line]
            for k, piece in enumerate(pieces):
                if k:
                    piece = piece[len(piece.plain) - len(piece.plain.lstrip(" ")) :]
                piece.rstrip()
                lines.append(piece)
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "crop"
        yield out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((cell_len(line) for line in self.text.plain.split("\n")), default=0)
        return Measurement(min(8, longest), longest)

    def __str__(self) -> str:
        return self.text.plain
