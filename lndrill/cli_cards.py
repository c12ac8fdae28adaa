"""`lndrill score` and `lndrill cards`: thin CLI layers over lndrill.cards and lndrill.scoring."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from lndrill.cards.deck import Deck, load_deck
from lndrill.cards.schema import Card

if TYPE_CHECKING:
    from lndrill.scoring.result import ScoreResult

#: Answers larger than this are cut before scoring (the scorer only reads the first 60,000 characters).
MAX_ANSWER_BYTES = 4 * 1024 * 1024


def _console(stream=None) -> Console:  # noqa: ANN001
    return Console(file=stream or sys.stdout, highlight=False, soft_wrap=False, emoji=False)


def _add_content_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--content", action="append", metavar="DIR", default=[],
        help="also load cards from DIR (repeatable; $LNDRILL_CONTENT adds more, separated by ':')",
    )


def add_score_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill score`."""
    p = sub.add_parser(
        "score", help="score a typed answer to a card",
        description="Score an answer (from FILE, or stdin with '-' or no FILE) against a card's rubric, "
                    "point by point, and explain what was missed or wrong.",
    )
    p.add_argument("card_id", metavar="CARD_ID", help="the card to answer (see `lndrill cards list`)")
    p.add_argument("file", metavar="FILE", nargs="?", default="-", help="answer file, or '-' for stdin (default)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of claims and explanations")
    p.add_argument("--model-answer", action="store_true", help="also print the card's model answer")
    p.add_argument("--no-save", action="store_true", help="do not record this answer in your history")
    _add_content_option(p)
    p.set_defaults(handler=run_score)


def add_cards_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill cards list|check`."""
    p = sub.add_parser("cards", help="list or validate question cards",
                       description="List the deck, or check card files for problems.")
    cs = p.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    lp = cs.add_parser("list", help="list every card", description="List every card with tags and difficulty.")
    lp.add_argument("--json", action="store_true", help="print a JSON list")
    _add_content_option(lp)
    lp.set_defaults(handler=run_cards_list)
    cp = cs.add_parser("check", help="validate card files (exit 1 on any problem)",
                       description="Validate every card: YAML syntax, fields and types, ids, rubrics that could "
                                   "never be hit, model answers that fail their own rubric. One line per "
                                   "problem as path:line: message; exit status 1 if there is any.")
    _add_content_option(cp)
    cp.set_defaults(handler=run_cards_check)


def _deck(args: argparse.Namespace, report: bool = True) -> Deck:
    deck = load_deck(args.content)
    if report:
        for broken in sorted({str(p.path) for p in deck.problems}):
            print(f"lndrill: warning: skipped {broken} (run `lndrill cards check` for details)", file=sys.stderr)
    return deck


def _read_answer(name: str) -> str:
    from lndrill.cli import UsageError

    if name == "-":
        if sys.stdin.isatty():
            print("Type or paste your answer, then press Ctrl-D:", file=sys.stderr)
        data = sys.stdin.buffer.read(MAX_ANSWER_BYTES)
    else:
        path = Path(name)
        try:
            with path.open("rb") as fh:
                data = fh.read(MAX_ANSWER_BYTES)
        except FileNotFoundError:
            raise UsageError(f"answer file not found: {name}") from None
        except IsADirectoryError:
            raise UsageError(f"answer file is a directory: {name}") from None
        except OSError as exc:
            raise UsageError(f"cannot read answer file {name}: {exc.strerror or exc}") from None
    return data.decode("utf-8", errors="replace")


def _card(deck: Deck, card_id: str) -> Card:
    from lndrill.cli import UsageError

    card = deck.get(card_id)
    if card is None:
        near = deck.nearest(card_id)
        hint = f"; did you mean {', '.join(near)}?" if near else "; see `lndrill cards list`"
        raise UsageError(f"unknown card '{card_id}'{hint}")
    return card


def _bar(value: float, total: float, width: int = 20) -> str:
    filled = int(round(width * value / total)) if total else 0
    return "\u2588" * filled + "\u2591" * (width - filled)


def _save_score(card_id: str, answer: str, result: ScoreResult) -> None:
    """Record a scored answer in the history and the review schedule; on failure, one line on stderr."""
    from lndrill.store import StoreError, open_store

    try:
        with open_store() as store:
            if store.notice:
                print(store.notice, file=sys.stderr)
            attempt_id = store.record_attempt(card_id, "cli", {"answer": answer}, result, 0.0)
            store.review(card_id, result.score, 0.0, attempt_id=attempt_id)
    except StoreError as exc:
        print(f"{exc} (the answer was scored; history not updated)", file=sys.stderr)


def run_score(args: argparse.Namespace) -> int:
    """Score an answer and print the report (or JSON)."""
    from lndrill.scoring.engine import score_answer

    deck = _deck(args)
    card = _card(deck, args.card_id)
    answer = _read_answer(args.file)
    result = score_answer(card, answer)
    if not getattr(args, "no_save", False) and answer.strip():
        _save_score(card.id, answer, result)
    if args.json:
        out = result.to_dict(args.lang)
        if args.model_answer:
            out["model_answer"] = card.model_answer.get(args.lang)
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    lang = args.lang
    con = _console()
    con.print(Text(f"{card.title.get(lang)}  [{card.id}]", style="bold"))
    con.print(Text(f"Score {result.score}/100", style="bold green" if result.score >= 80 else "bold yellow"
                   if result.score >= 50 else "bold red"))
    con.print()
    for s in result.sections:
        line = Text()
        line.append(f"{s.title.get(lang):<16}", style="bold")
        line.append(_bar(s.earned, s.max), style="cyan")
        line.append(f" {result.section_score(s):>3}/{result.section_max(s)}")
        con.print(line)
        for p in s.points:
            row = Text("  ")
            row.append("\u2713 " if p.hit else "\u2717 ", style="green" if p.hit else "red")
            row.append(p.claim.get(lang), style="" if p.hit else "dim")
            con.print(row)
            if p.hit and p.evidence:
                con.print(Text(f"      \u201c{p.evidence}\u201d", style="italic"))
    if result.mistakes:
        con.print()
        con.print(Text(f"Mistakes (-{round(100 * result.penalty / result.max) if result.max else 0} points)",
                       style="bold red"))
        for m in result.mistakes:
            con.print(Text(f"  \u2717 \u201c{m.evidence}\u201d", style="red"))
            con.print(Text(f"      {m.explanation.get(lang)}"))
    for note in result.notes:
        con.print(Text(f"note: {note}", style="dim"))
    if args.model_answer:
        con.print()
        con.print(Text("Model answer", style="bold"))
        con.print(Text(card.model_answer.get(lang).rstrip()))
    else:
        con.print(Text("\n(--model-answer shows the model answer)", style="dim"))
    return 0


def run_cards_list(args: argparse.Namespace) -> int:
    """Print the deck."""
    deck = _deck(args)
    cards = sorted(deck.cards.values(), key=lambda c: c.id)
    if args.json:
        print(json.dumps([
            {"id": c.id, "title": {"en": c.title.en, "zh": c.title.zh}, "tags": list(c.tags),
             "difficulty": c.difficulty, "sections": [s.id for s in c.sections], "path": str(c.path)}
            for c in cards
        ], ensure_ascii=False, indent=2))
        return 0
    table = Table(title=f"{len(cards)} cards", title_justify="left", expand=False)
    table.add_column("id", no_wrap=True)
    table.add_column("title")
    table.add_column("tags")
    table.add_column("difficulty")
    for c in cards:
        table.add_row(Text(c.id), Text(c.title.en), Text(", ".join(c.tags)), Text(c.difficulty))
    _console().print(table)
    return 0


def run_cards_check(args: argparse.Namespace) -> int:
    """Validate every card; print path:line: message per problem; exit 1 if any."""
    from lndrill.scoring.selfcheck import check_card

    deck = _deck(args, report=False)
    problems = list(deck.problems)
    cards = list(deck.cards.values())
    for card in cards:
        problems.extend(check_card(card, cards))
    for p in problems:
        print(p)
    n = len(deck.cards)
    errors = [p for p in problems if not p.warning]
    warnings = len(problems) - len(errors)
    tail = f" ({warnings} warning(s))" if warnings else ""
    if errors:
        print(f"{len(errors)} problem(s){tail}; {n} card(s) loaded cleanly", file=sys.stderr)
        return 1
    print(f"{n} card(s) OK{tail}", file=sys.stderr)
    return 0
