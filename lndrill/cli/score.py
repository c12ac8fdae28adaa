"""`lndrill score CARD_ID [FILE|-]`: score a typed answer, print the report (or JSON), record it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.text import Text

from lndrill.cards.schema import Card
from lndrill.cli.common import CliError, add_content_option, card_of, console, deck_of, emit_json, tell
from lndrill.display import (
    block_bar,
    capped_note,
    elaboration_note,
    form_note,
    label_width,
    pad_cells,
    score_headline,
    score_style,
    specifics_note,
)
from lndrill.scoring.normalize import MAX_SCORED_CHARS
from lndrill.scoring.result import (
    ELABORATION_MAX,
    ELABORATION_PIVOT,
    FILLER_CAP,
    FORM_FLOOR,
    GIVEN_ONLY_CAP,
    LIST_CAP,
    NOTES_CUT,
    SPOKEN_CUT,
    WRONG_THROUGHOUT_CAP,
    WRONG_THROUGHOUT_MISTAKES,
    ScoreResult,
)

#: Answers larger than this are cut before scoring (the scorer only reads the first MAX_SCORED_CHARS characters).
MAX_ANSWER_BYTES = 4 * 1024 * 1024
#: Exit status when the answer was scored (and printed) but could not be saved to the history.
NOT_SAVED_STATUS = 3
#: Section bars are this many cells wide.
BAR_CELLS = 20


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill score`."""
    p = sub.add_parser(
        "score", help="score a typed answer to a card",
        description="Score an answer (from FILE, or stdin with '-' or no FILE) against a card's rubric, "
                    "point by point, and explain what was missed or wrong. A wrong claim caps the total (at most "
                    f"{WRONG_THROUGHOUT_CAP:.0f} with {WRONG_THROUGHOUT_MISTAKES} or more different wrong claims), and so do "
                    "two or more filler phrases that string terms together ('the interplay between', 'is "
                    f"fundamentally'; at most {FILLER_CAP}), and so does earning only points the question itself "
                    f"states (at most {GIVEN_ONLY_CAP}), and so does being largely bare lists of terms and formulas "
                    f"(at most {LIST_CAP}): the headline shows 'capped -N' with one line on why, --json has "
                    "'capped', 'cap_reason', 'filler', 'listed' and 'given_only'. A complete "
                    f"answer gains up to 3 for the concrete values it cites ('specifics') and loses up to "
                    f"{NOTES_CUT} when it is written as terse notes or up to {SPOKEN_CUT} as a spoken transcript "
                    f"('um', 'you know'), never below {FORM_FLOOR} ('form'; --json: 'form', 'form_reason'), and moves "
                    f"up to {ELABORATION_MAX} either way for how much it explains, counted in statements "
                    f"({ELABORATION_PIVOT} statements move nothing; 'elaboration'; --json: 'elaboration', 'statements'). Only the first "
                    f"{MAX_SCORED_CHARS:,} characters are scored.",
        epilog="Exit status: 0 scored (and saved unless --no-save), 1 the answer could not be scored, 2 a "
               "command-line mistake or an unreadable answer file, 3 scored but not saved in your history "
               "(one line on stderr says why, and where the answer was kept to be added later).",
    )
    p.add_argument("card_id", metavar="CARD_ID", help="the card to answer (see `lndrill cards list`)")
    p.add_argument("file", metavar="FILE", nargs="?", default="-", help="answer file, or '-' for stdin (default)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of claims and explanations")
    p.add_argument("--model-answer", action="store_true", help="also print the card's model answer")
    p.add_argument("--no-save", action="store_true", help="do not record this answer in your history")
    add_content_option(p)
    p.set_defaults(run=run)


def read_answer(name: str) -> str:
    """The answer in file `name`, or on stdin for "-" (invalid UTF-8 is replaced, never an error)."""
    if name == "-":
        data = _read_stdin()
    else:
        try:
            with Path(name).open("rb") as fh:
                data = fh.read(MAX_ANSWER_BYTES)
        except FileNotFoundError:
            raise CliError(f"answer file not found: {name}") from None
        except IsADirectoryError:
            raise CliError(f"answer file is a directory: {name}") from None
        except OSError as exc:
            raise CliError(f"cannot read answer file {name}: {exc.strerror or exc}") from None
    return data.decode("utf-8", errors="replace")


def _read_stdin() -> bytes:
    stdin = sys.stdin
    if stdin is None:
        raise CliError("cannot read the answer: standard input is closed (give an answer FILE)")
    try:
        if stdin.isatty():
            tell("Type or paste your answer, then press Ctrl-D:")
        return stdin.buffer.read(MAX_ANSWER_BYTES)
    except (OSError, ValueError, AttributeError) as exc:
        reason = getattr(exc, "strerror", None) or " ".join(str(exc).split())
        raise CliError(f"cannot read the answer from standard input: {reason}") from None


def run(args: argparse.Namespace) -> int:
    """Score the answer, record it (unless --no-save or blank), print the report or JSON."""
    from lndrill.practice import Practice, PracticeError
    from lndrill.store import open_store

    deck = deck_of(args)
    card = card_of(deck, args.card_id)
    answer = read_answer(args.file)
    practice = Practice(deck, open_store)
    practice.on_notice = tell
    practice.on_problem = tell  # one line: what failed, and where the answer was kept (or that it was not)
    try:
        submission = practice.submit(card, {"answer": answer}, mode="cli", save=not args.no_save)
    except PracticeError as exc:
        raise CliError(str(exc), status=1) from None
    finally:
        practice.close()
    result = submission.result
    unsaved = not args.no_save and any(answer.split()) and not submission.saved
    if args.json:
        out = result.to_dict(args.lang)
        if args.model_answer:
            out["model_answer"] = card.model_answer.get(args.lang)
        emit_json(out)
    else:
        print_report(card, result, args.lang, args.model_answer)
    return NOT_SAVED_STATUS if unsaved else 0


def print_report(card: Card, result: ScoreResult, lang: str, model_answer: bool) -> None:
    """The report for people: the score, a bar per section, each point hit or missed with the words that
    earned it, the mistakes with explanations, and the model answer on request."""
    con = console()
    con.print(Text(f"{card.title.get(lang)}  [{card.id}]", style="bold"))
    con.print(Text(score_headline(result, lang), style=score_style(result.score, bold=True)))
    notes = (specifics_note(result.specifics, result.values, lang),
             form_note(result.form, result.written.notes, result.written.spoken, lang),
             elaboration_note(result.elaboration, result.statements, lang),
             capped_note(result.capped, lang, reason=result.cap_reason))
    for note in notes:
        if note:
            con.print(Text(note, style="dim"))
    con.print()
    width = label_width([s.title.get(lang) for s in result.sections], 15) + 1
    for s in result.sections:
        line = Text()
        line.append(pad_cells(s.title.get(lang), width), style="bold")
        line.append(block_bar(s.earned, s.max, BAR_CELLS), style="cyan")
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
    if model_answer:
        con.print()
        con.print(Text("Model answer", style="bold"))
        con.print(Text(card.model_answer.get(lang).rstrip()))
    else:
        con.print(Text("\n(--model-answer shows the model answer)", style="dim"))
