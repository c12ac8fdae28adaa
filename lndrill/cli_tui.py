"""CLI entry points that open the terminal app (home, drill, simulator screen).

Placeholder until the Textual app lands: every entry says so in one line.
"""

from __future__ import annotations

import argparse


def add_tui_parsers(sub: argparse._SubParsersAction) -> None:
    """Register the subcommands that open the terminal app (none yet)."""


def run_home(args: argparse.Namespace) -> int:
    """`lndrill` with no subcommand: the home screen (until it exists, the help text)."""
    return -1


def run_sim_screen(args: argparse.Namespace) -> int | None:
    """`lndrill sim` without --plain/--json: the simulator screen; None falls back to the plain chart."""
    return None
