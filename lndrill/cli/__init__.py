"""The single `lndrill` entry point: one parser, one error type, a module per command.

`lndrill` alone opens the terminal app; `drill`, `mock` and `sim` (in a terminal) open it on their screen
(`lndrill.cli.app`); `score`, `cards` and `stats` print (`lndrill.cli.score`, `.cards`, `.stats`); `sim`
prints with --plain or --json (`lndrill.cli.sim`). Every command is a thin layer over lndrill.practice,
lndrill.cards, lndrill.scoring and lndrill.sim. A mistake on the command line is one line on stderr,
`lndrill: error: ...`, and exit status 2 (CliError).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lndrill import __version__
from lndrill.cli import app, cards, score, sim, stats
from lndrill.cli.common import CliError, Parser


def build_parser() -> argparse.ArgumentParser:
    """The `lndrill` parser with every subcommand; each sets `run` to the function that runs it."""
    parser = Parser(
        prog="lndrill",
        description=(
            "Drill the 'Pre-LN or Post-LN?' interview question: answer question cards, get a "
            "point-by-point score, and watch gradient norms per depth in a live simulator. "
            "Run without a subcommand to open the terminal app."
        ),
    )
    parser.add_argument("--version", action="version", version=f"lndrill {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    app.add_parsers(sub)
    score.add_parser(sub)
    cards.add_parser(sub)
    stats.add_parser(sub)
    sim.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the lndrill command line; returns the process exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            code = app.run_home()
            if code is None:
                parser.print_help()
                return 0
            return code
        return int(args.run(args) or 0)
    except CliError as exc:
        print(f"lndrill: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        print("lndrill: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
