"""The single `lndrill` entry point: parses arguments and dispatches to subcommands.

The CLI is a thin layer: every subcommand calls into the headless core
(`lndrill.cards`, `lndrill.scoring`, `lndrill.sim`, `lndrill.store`) or starts the TUI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from lndrill import __version__


class UsageError(Exception):
    """A user mistake on the command line: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (`lndrill: error: ...`), exit status 2."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        self.exit(2, f"lndrill: error: {message} (see `{self.prog} --help`)\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lndrill",
        description=(
            "Drill the 'Pre-LN or Post-LN?' interview question: answer question cards, get a "
            "point-by-point score, and watch gradient norms per depth in a live simulator. "
            "Run without a subcommand to open the terminal app."
        ),
    )
    parser.add_argument("--version", action="version", version=f"lndrill {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    from lndrill.cli_cards import add_cards_parser, add_score_parser
    from lndrill.cli_stats import add_stats_parser
    from lndrill.cli_tui import add_tui_parsers

    add_tui_parsers(sub)
    add_score_parser(sub)
    add_cards_parser(sub)
    add_stats_parser(sub)

    sim = sub.add_parser(
        "sim",
        help="the gradient simulator (--plain / --json print and exit)",
        description=(
            "Simulate gradient norms per depth for Post-LN, Pre-LN and variants. With --plain or "
            "--json it prints and exits; without either it opens the simulator screen (or prints the "
            "chart when the output is not a terminal)."
        ),
    )
    try:
        from lndrill.sim.command import add_arguments as add_sim_arguments
    except ImportError:  # pragma: no cover - only while the simulator is being built
        sim.set_defaults(handler=lambda _args: _missing("the simulator is not available in this build"))
    else:
        add_sim_arguments(sim)
        sim.set_defaults(handler=_run_sim)
    return parser


def _missing(what: str) -> int:
    raise UsageError(what)


def _run_sim(args: argparse.Namespace) -> int:
    if not getattr(args, "plain", False) and not getattr(args, "json", False):
        from lndrill.cli_tui import run_sim_screen

        code = run_sim_screen(args)
        if code is not None:
            return code
    from lndrill.sim.command import run

    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the lndrill command line; returns the process exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        from lndrill.cli_tui import run_home

        code = run_home(args)
        if code < 0:
            parser.print_help()
            return 0
        return code
    try:
        return int(handler(args) or 0)
    except UsageError as exc:
        print(f"lndrill: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("lndrill: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
