"""CLI entry points that open the terminal app: `lndrill` (home), `lndrill drill`, `lndrill sim`."""

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
    """Register `lndrill drill` (`lndrill sim` is registered by the CLI with the simulator's options)."""
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


def run_sim_screen(args: argparse.Namespace) -> int | None:
    """`lndrill sim` without --plain/--json: the simulator screen; None falls back to the plain chart."""
    if not _interactive():
        return None
    from lndrill.sim.command import config_from_args
    from lndrill.sim.config import SimConfigError
    from lndrill.sim.render import SCALES

    scale = (getattr(args, "scale", None) or "log").strip()
    try:
        if scale not in SCALES:
            raise SimConfigError(f"unknown scale {scale!r} (choose from {', '.join(SCALES)})")
        config = config_from_args(args)
    except SimConfigError as exc:
        print(f"lndrill: error: {exc}", file=sys.stderr)
        return 2
    from lndrill.tui.app import make_app

    return _run(make_app("sim", sim_config=config, sim_scale=scale))
