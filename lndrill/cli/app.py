"""The commands that open the terminal app: `lndrill` (home), `lndrill drill`, `lndrill mock`, and
`lndrill sim` in a terminal. Textual is imported only when the app really starts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from lndrill.cli.common import (
    CliError,
    add_content_option,
    card_of,
    check_tag,
    deck_of,
    number_up_to,
    whole_number,
)

if TYPE_CHECKING:
    from lndrill.sim import SimConfig
    from lndrill.tui.app import LndrillApp


def interactive() -> bool:
    """The app needs a terminal on both ends; piped, the commands print instead."""
    try:
        return sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, OSError, ValueError):  # a closed or odd stream is no terminal
        return False


def run_app(app: LndrillApp) -> int:
    """Run the app, then save any draft typed since the last autosave and close the history. Ended by
    SIGTERM or SIGHUP (drafts saved, terminal restored), the exit status is 128 + the signal's number."""
    try:
        result = app.run()
        return app.return_code if app.return_code else (result or 0)
    finally:
        app.practice.close()


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill drill` and `lndrill mock` (`lndrill sim` lives with the simulator's options)."""
    p = sub.add_parser(
        "drill", help="answer question cards in the terminal app",
        description="Open the card browser (due cards first; or one card with --card), answer section by "
                    "section, press ctrl+s for a point-by-point score. Every answer is saved to your history.",
    )
    p.add_argument("--card", metavar="ID", help="open this card directly (see `lndrill cards list`)")
    p.add_argument("--tag", metavar="T", help="list only cards with this tag")
    p.add_argument("--cram", action="store_true",
                   help="ignore the review schedule: cards in deck order, answers do not move due dates")
    p.add_argument("--lang", choices=("en", "zh"), help="card language (default: from the locale)")
    add_content_option(p)
    p.set_defaults(run=run_drill)

    m = sub.add_parser(
        "mock", help="a timed mock interview with follow-ups and a report",
        description="A mock interview: K cards (due and weakest first according to your history, then "
                    "others in a seeded order), each with a visible countdown; ctrl+s submits early and at "
                    "0:00 the answer is submitted as typed. The interviewer's follow-up comes after each "
                    "answer. The report (scores, missed points, mistakes, model answers, weakest topics) is "
                    "saved as Markdown in the data directory, and to FILE with --report.",
    )
    m.add_argument("--questions", type=whole_number(minimum=1), default=3, metavar="K",
                   help="how many questions (default 3)")
    m.add_argument("--minutes", type=number_up_to(600), default=5.0, metavar="M",
                   help="minutes per question (default 5, at most 600)")
    m.add_argument("--tag", metavar="T", help="ask only cards with this tag")
    m.add_argument("--seed", type=whole_number(), metavar="S",
                   help="pick the same questions again (given the same history)")
    m.add_argument("--report", type=_report_path, metavar="FILE",
                   help="also save the report to FILE (a directory works too; not a device, FIFO or symlink)")
    m.add_argument("--lang", choices=("en", "zh"), help="card language (default: from the locale)")
    add_content_option(m)
    m.set_defaults(run=run_mock)


def _report_path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a file or directory name")
    return Path(text)


def run_home() -> int | None:
    """`lndrill` with no subcommand: the home screen; None (print the help) when not in a terminal."""
    if not interactive():
        return None
    from lndrill.tui.app import make_app

    return run_app(make_app("home"))


def run_drill(args: argparse.Namespace) -> int:
    """`lndrill drill`: the card browser, or the card given by --card."""
    deck = deck_of(args, report=False)
    if args.card:
        card_of(deck, args.card)
    check_tag(deck, args.tag)
    if not interactive():
        raise CliError("`lndrill drill` needs a terminal (use `lndrill score` in scripts)")
    from lndrill.tui.app import make_app

    return run_app(make_app("drill", deck=deck, card_id=args.card, tag=args.tag, lang=args.lang, cram=args.cram))


def run_mock(args: argparse.Namespace) -> int:
    """`lndrill mock`: a timed mock interview, then the report."""
    from lndrill.practice import MockOptions
    from lndrill.practice.report import ReportPathError, check_report_path

    deck = deck_of(args, report=False)
    if not deck.cards:
        raise CliError("no cards to ask (see `lndrill cards check`)")
    check_tag(deck, args.tag)
    if args.report is not None:
        try:
            check_report_path(args.report)  # before the interview, not after 15 minutes of answers
        except ReportPathError as exc:
            raise CliError(str(exc)) from None
    if not interactive():
        raise CliError("`lndrill mock` needs a terminal")
    from lndrill.tui.app import make_app

    options = MockOptions(questions=args.questions, minutes=args.minutes, tag=args.tag, seed=args.seed,
                          report=args.report)
    return run_app(make_app("mock", deck=deck, lang=args.lang, mock=options))


def open_sim_screen(config: SimConfig, scale: str) -> int:
    """`lndrill sim` in a terminal without --plain or --json: the simulator screen."""
    from lndrill.tui.app import make_app

    return run_app(make_app("sim", sim_config=config, sim_scale=scale))
