"""What every `lndrill` command shares: the one error type, a parser whose errors are one line, the
`--content` option, option types, and loading the deck; and, from `lndrill.cli.output`, the console,
plain and JSON output, and messages on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from lndrill.cards.deck import Deck, UnknownCard, UnknownTag, load_deck
from lndrill.cards.schema import Card
from lndrill.cli.output import console, emit, emit_json, tell, warn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["CliError", "Parser", "SubcommandParser", "add_content_option", "card_of", "check_tag", "console",
           "deck_of", "emit", "emit_json", "number_up_to", "one_of", "tell", "warn", "whole_number"]


class CliError(Exception):
    """A mistake on the command line, or an input that cannot be used.

    Printed as one line, `lndrill: error: <message>`, and the command exits with `status` (2 by default).
    """

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors (a missing value, an unknown option, a bad type) raise CliError:
    one line with a pointer to `--help`, never usage text and a traceback."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see `{self.prog} --help`)")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """--help and --version through `emit`, so that output errors are reported, not swallowed."""
        if not message:
            return
        if file is None or file is sys.stderr:
            tell(message.rstrip("\n"))
        else:
            emit(message, end="")


class SubcommandParser(Parser):
    """The parser of a subcommand: an argument it does not know is its error (`lndrill sim --bogus` points
    at `lndrill sim --help`), not passed up to `lndrill`."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def add_content_option(parser: argparse.ArgumentParser) -> None:
    """`--content DIR` (repeatable): more card directories on top of the bundled deck."""
    parser.add_argument(
        "--content", action="append", metavar="DIR", default=[], type=_directory_name,
        help="also load cards from DIR (repeatable; $LNDRILL_CONTENT adds more, separated by ':')",
    )


def _directory_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a directory (got an empty name)")
    return text


def whole_number(minimum: int | None = None) -> Callable[[str], int]:
    """An option type: a whole number, at least `minimum` when given."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise argparse.ArgumentTypeError(f"must be a whole number (got {shown!r})") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum} (got {value})")
        return value

    return parse


def number_up_to(most: float) -> Callable[[str], float]:
    """An option type: a number more than 0 and at most `most`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number (got {text!r})") from None
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {most:g} (got {text})")
        return value

    return parse


def one_of(kind: str, names: Sequence[str]) -> Callable[[str], str]:
    """An option type: one of `names`; anything else is "unknown <kind> 'x' (choose from ...)"."""

    def parse(text: str) -> str:
        value = text.strip()
        if value not in names:
            raise argparse.ArgumentTypeError(f"unknown {kind} {value!r} (choose from {', '.join(names)})")
        return value

    return parse


def deck_of(args: argparse.Namespace, report: bool = True) -> Deck:
    """The bundled deck plus `--content` and $LNDRILL_CONTENT; broken files are skipped with a warning
    each (unless `report` is False: `cards check` lists them itself)."""
    deck = load_deck(args.content)
    if report:
        for broken in sorted({str(p.path) for p in deck.problems}):
            warn(f"skipped {broken} (run `lndrill cards check` for details)")
    return deck


def card_of(deck: Deck, card_id: str) -> Card:
    """The card with this id; CliError with the nearest ids (or where to look) when there is none."""
    try:
        return deck.card(card_id)
    except UnknownCard as exc:
        raise CliError(str(exc) + ("" if exc.suggestions else "; see `lndrill cards list`")) from None


def check_tag(deck: Deck, tag: str | None) -> None:
    """CliError (listing the deck's tags) unless no tag is given or some card has it."""
    if not tag:
        return
    try:
        deck.check_tag(tag)
    except UnknownTag as exc:
        raise CliError(str(exc)) from None
