"""CLI entry points that open the terminal app: `lndrill` (home), `lndrill drill`, `lndrill mock`,
`lndrill sim`."""

from __future__ import annotations

import argparse
import sys


def _interactive() -> bool:
    """The app needs a terminal on both ends; piped, the CLI prints instead."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _run(app) -> int:  # noqa: ANN001 - an LndrillApp (imported lazily to keep `lndrill --help` fast)
    """Run the app, then save any draft typed since the last autosave and close the history."""
    try:
        return app.run() or 0
    finally:
        app.close_history()


def add_tui_parsers(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill drill` and `lndrill mock` (`lndrill sim` is registered by the CLI with the
    simulator's options)."""
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
    p.add_argument("--content", action="append", metavar="DIR", default=[],
                   help="also load cards from DIR (repeatable; $LNDRILL_CONTENT adds more)")
    p.set_defaults(handler=run_drill)

    m = sub.add_parser(
        "mock", help="a timed mock interview with follow-ups and a report",
        description="A mock interview: K cards (due and weakest first according to your history, then "
                    "others in a seeded order), each with a visible countdown; ctrl+s submits early and at "
                    "0:00 the answer is submitted as typed. The interviewer's follow-up comes after each "
                    "answer. The report (scores, missed points, mistakes, model answers, weakest topics) is "
                    "saved as Markdown in the data directory, and to FILE with --report.",
    )
    m.add_argument("--questions", type=int, default=3, metavar="K", help="how many questions (default 3)")
    m.add_argument("--minutes", type=float, default=5.0, metavar="M", help="minutes per question (default 5)")
    m.add_argument("--tag", metavar="T", help="ask only cards with this tag")
    m.add_argument("--seed", type=int, metavar="S", help="pick the same questions again (given the same history)")
    m.add_argument("--report", metavar="FILE", help="also save the report to FILE (a directory works too)")
    m.add_argument("--lang", choices=("en", "zh"), help="card language (default: from the locale)")
    m.add_argument("--content", action="append", metavar="DIR", default=[],
                   help="also load cards from DIR (repeatable; $LNDRILL_CONTENT adds more)")
    m.set_defaults(handler=run_mock)


def run_home(args: argparse.Namespace) -> int:
    """`lndrill` with no subcommand: the home screen; -1 (print help) when not in a terminal."""
    if not _interactive():
        return -1
    from lndrill.tui.app import make_app

    return _run(make_app("home"))


def run_drill(args: argparse.Namespace) -> int:
    """`lndrill drill`: the card browser, or the card given by --card."""
    from lndrill.cards.deck import load_deck
    from lndrill.cli import UsageError

    deck = load_deck(args.content)
    if args.card and deck.get(args.card) is None:
        near = deck.nearest(args.card)
        hint = f"; did you mean {', '.join(near)}?" if near else "; see `lndrill cards list`"
        raise UsageError(f"unknown card '{args.card}'{hint}")
    if args.tag and not any(args.tag in c.tags for c in deck.cards.values()):
        tags = sorted({t for c in deck.cards.values() for t in c.tags})
        raise UsageError(f"no card has tag '{args.tag}' (tags: {', '.join(tags)})")
    if not _interactive():
        raise UsageError("`lndrill drill` needs a terminal (use `lndrill score` in scripts)")
    from lndrill.tui.app import make_app

    return _run(make_app("drill", deck=deck, card_id=args.card, tag=args.tag, lang=args.lang, cram=args.cram))


def run_mock(args: argparse.Namespace) -> int:
    """`lndrill mock`: a timed mock interview, then the report."""
    from pathlib import Path

    from lndrill.cards.deck import load_deck
    from lndrill.cli import UsageError

    if args.questions < 1:
        raise UsageError("--questions must be at least 1")
    if not args.minutes > 0 or args.minutes > 600:
        raise UsageError("--minutes must be more than 0 (and at most 600)")
    deck = load_deck(args.content)
    if not deck.cards:
        raise UsageError("no cards to ask (see `lndrill cards check`)")
    if args.tag and not any(args.tag in c.tags for c in deck.cards.values()):
        tags = sorted({t for c in deck.cards.values() for t in c.tags})
        raise UsageError(f"no card has tag '{args.tag}' (tags: {', '.join(tags)})")
    if not _interactive():
        raise UsageError("`lndrill mock` needs a terminal")
    from lndrill.tui.app import make_app
    from lndrill.tui.mock import MockOptions

    options = MockOptions(questions=args.questions, minutes=args.minutes, tag=args.tag, seed=args.seed,
                          report=Path(args.report) if args.report else None)
    return _run(make_app("mock", deck=deck, lang=args.lang, mock=options))


def run_sim_screen(args: argparse.Namespace) -> int | None:
    """`lndrill sim` without --plain/--json: the simulator screen; None falls back to the plain chart."""
    if not _interactive():
        return None
    from lndrill.sim.command import checked_options
    from lndrill.sim.config import SimConfigError

    try:
        config, scale = checked_options(args)
    except SimConfigError as exc:
        print(f"lndrill: error: {exc}", file=sys.stderr)
        return 2
    from lndrill.tui.app import make_app

    return _run(make_app("sim", sim_config=config, sim_scale=scale))
