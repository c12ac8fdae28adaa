"""`lndrill stats`: placeholder until history lands."""

from __future__ import annotations

import argparse


def add_stats_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill stats` (not yet)."""
