"""`lndrill cards list`, `check` and `schema`: the deck, every problem in its card files, and the card
format as a JSON Schema for editors."""

from __future__ import annotations

import argparse

from rich.table import Table
from rich.text import Text

from lndrill.cli.common import add_content_option, console, deck_of, emit, emit_json, tell


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill cards list|check|schema`."""
    p = sub.add_parser("cards", help="list or validate question cards",
                       description="List the deck, or check card files for problems.")
    cs = p.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    lp = cs.add_parser("list", help="list every card", description="List every card with tags and difficulty.")
    lp.add_argument("--json", action="store_true", help="print a JSON list")
    add_content_option(lp)
    lp.set_defaults(run=run_list)
    cp = cs.add_parser("check", help="validate card files (exit 1 on any problem)",
                       description="Validate every card: YAML syntax, fields and types, ids, rubrics that could "
                                   "never be hit, model answers that fail their own rubric. One line per "
                                   "problem as path:line: message; exit status 1 if there is any.")
    add_content_option(cp)
    cp.set_defaults(run=run_check)
    sp = cs.add_parser("schema", help="print the card format as a JSON Schema",
                       description="Print the JSON Schema of a card file (the same as content/card.schema.json), "
                                   "for editors that check YAML against a schema.")
    sp.set_defaults(run=run_schema)


def run_list(args: argparse.Namespace) -> int:
    """Print the deck (a table, or JSON)."""
    deck = deck_of(args)
    cards = sorted(deck.cards.values(), key=lambda c: c.id)
    if args.json:
        emit_json([
            {"id": c.id, "title": {"en": c.title.en, "zh": c.title.zh}, "tags": list(c.tags),
             "difficulty": c.difficulty, "sections": [s.id for s in c.sections], "path": str(c.path)}
            for c in cards
        ])
        return 0
    table = Table(title=f"{len(cards)} cards", title_justify="left", expand=False)
    table.add_column("id", no_wrap=True)
    table.add_column("title")
    table.add_column("tags")
    table.add_column("difficulty")
    for c in cards:
        table.add_row(Text(c.id), Text(c.title.en), Text(", ".join(c.tags)), Text(c.difficulty))
    console().print(table)
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Validate every card; print path:line: message per problem; exit 1 if any is an error."""
    from lndrill.scoring.selfcheck import check_card

    deck = deck_of(args, report=False)
    problems = list(deck.problems)
    cards = list(deck.cards.values())
    for card in cards:
        problems.extend(check_card(card, cards))
    for p in problems:
        emit(str(p))
    n = len(deck.cards)
    errors = [p for p in problems if not p.warning]
    warnings = len(problems) - len(errors)
    tail = f" ({warnings} warning(s))" if warnings else ""
    if errors:
        tell(f"{len(errors)} problem(s){tail}; {n} card(s) loaded cleanly")
        return 1
    tell(f"{n} card(s) OK{tail}")
    return 0


def run_schema(args: argparse.Namespace) -> int:
    """Print the card format's JSON Schema."""
    from lndrill.cards.fileformat import json_schema_text

    emit(json_schema_text(), end="")
    return 0
