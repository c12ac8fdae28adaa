"""Find and load the deck: the bundled cards plus any directories the user adds."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from lndrill.cards.files import find_card_files
from lndrill.cards.parse import Problem, parse_card
from lndrill.cards.schema import Card
from lndrill.cards.yamlsrc import YamlProblem, load_yaml

CONTENT_ENV = "LNDRILL_CONTENT"
MAX_CARD_BYTES = 512 * 1024


def bundled_content_dir() -> Path:
    """The deck shipped with lndrill: the package's `content/` folder, wherever the package is installed."""
    return Path(str(resources.files("lndrill").joinpath("content")))


def content_dirs(extra: list[str] | None = None, include_bundled: bool = True) -> list[Path]:
    """Directories to load: the bundled deck, then $LNDRILL_CONTENT (os.pathsep-separated), then `extra`."""
    dirs: list[Path] = [bundled_content_dir()] if include_bundled else []
    env = os.environ.get(CONTENT_ENV, "")
    dirs += [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]
    dirs += [Path(p).expanduser() for p in (extra or [])]
    return dirs


class UnknownCard(LookupError):
    """No card has this id; `str(exc)` is one line with the nearest ids ("did you mean ...?")."""

    def __init__(self, card_id: str, suggestions: list[str]) -> None:
        super().__init__(card_id)
        self.card_id = card_id
        self.suggestions = suggestions

    def __str__(self) -> str:
        hint = f"; did you mean {', '.join(self.suggestions)}?" if self.suggestions else ""
        return f"unknown card '{self.card_id}'{hint}"


class UnknownTag(LookupError):
    """No card has this tag; `str(exc)` is one line listing the deck's tags."""

    def __init__(self, tag: str, tags: list[str]) -> None:
        super().__init__(tag)
        self.tag = tag
        self.tags = tags

    def __str__(self) -> str:
        return f"no card has tag '{self.tag}' (tags: {', '.join(self.tags)})"


@dataclass
class Deck:
    """Loaded cards by id, plus every problem met while loading (broken files are skipped)."""

    cards: dict[str, Card] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def get(self, card_id: str) -> Card | None:
        """The card with this id, or None."""
        return self.cards.get(card_id)

    def card(self, card_id: str) -> Card:
        """The card with this id; raises UnknownCard (with the nearest ids) when there is none."""
        card = self.cards.get(card_id)
        if card is None:
            raise UnknownCard(card_id, self.nearest(card_id))
        return card

    @property
    def tags(self) -> list[str]:
        """Every tag of the deck, sorted."""
        return sorted({t for c in self.cards.values() for t in c.tags})

    def check_tag(self, tag: str) -> None:
        """Raise UnknownTag unless some card has `tag`."""
        if not any(tag in c.tags for c in self.cards.values()):
            raise UnknownTag(tag, self.tags)

    def nearest(self, card_id: str, n: int = 3) -> list[str]:
        """Up to `n` card ids that look most like `card_id` (for 'did you mean')."""
        import difflib

        ids = list(self.cards)
        close = difflib.get_close_matches(card_id, ids, n=n, cutoff=0.3)
        if len(close) < n:
            close += [i for i in ids if card_id and (card_id in i or i in card_id) and i not in close]
        return close[:n]


def load_card_file(path: Path) -> tuple[Card | None, list[Problem]]:
    """Load one card file, returning the card (or None) and its problems."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, [Problem(path, 0, f"cannot read file: {exc.strerror or exc}")]
    if size > MAX_CARD_BYTES:
        return None, [Problem(path, 1, f"file is larger than {MAX_CARD_BYTES // 1024} KiB; not a card")]
    try:
        doc = load_yaml(path)
    except YamlProblem as exc:
        return None, [Problem(path, exc.line, exc.message)]
    if doc is None:
        return None, [Problem(path, 1, "file is empty")]
    return parse_card(doc, path)


def load_deck(extra: list[str] | None = None, include_bundled: bool = True) -> Deck:
    """Load every card from the content directories; broken files are reported, good ones kept."""
    deck = Deck()
    first_seen: dict[str, Path] = {}
    for directory in content_dirs(extra, include_bundled):
        paths, problems = find_card_files(directory)
        deck.problems.extend(problems)
        for path in paths:
            card, problems = load_card_file(path)
            deck.problems.extend(problems)
            if card is None:
                continue
            if card.id in deck.cards:
                deck.problems.append(Problem(
                    path, 1, f"duplicate card id '{card.id}': this file was skipped, the card from "
                             f"{first_seen[card.id]} is used (card ids are unique across all content directories)"))
                continue
            deck.cards[card.id] = card
            first_seen[card.id] = path
    return deck
