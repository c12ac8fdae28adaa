"""Card text on screen: hard line breaks joined so the screen can wrap at its own width."""

from __future__ import annotations


def _cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\u3000" <= ch <= "\u303f"


def reflow(text: str) -> str:
    """Card text with its hard line breaks joined (a space between words, none between Chinese
    characters); blank lines stay as paragraph breaks."""
    paragraphs = []
    for para in text.strip().split("\n\n"):
        out = ""
        for line in (ln.strip() for ln in para.splitlines()):
            if not line:
                continue
            if out and not (_cjk(out[-1]) and _cjk(line[0])):
                out += " "
            out += line
        paragraphs.append(out)
    return "\n\n".join(paragraphs)
