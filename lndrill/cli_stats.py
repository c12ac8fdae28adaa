"""`lndrill stats`: your answer history per card, section and tag, and a trend, from lndrill.store."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

EMPTY = "No answers yet: score one with `lndrill score CARD_ID FILE`, or open `lndrill` and start a drill."


def add_stats_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill stats`."""
    from lndrill.cli_cards import _add_content_option

    p = sub.add_parser(
        "stats", help="your history: attempts, best and last score, next due date, weakest sections",
        description="Show your answer history: per card the number of attempts, best and last score and "
                    "when it is next due; per section and per tag the average over your last answers; and a "
                    "trend of scores over time.",
    )
    p.add_argument("--json", action="store_true",
                   help='print one JSON object: {"cards": {"<id>": {"attempts", "best", "last", "due"}}, '
                        '"sections", "tags", "trend"}')
    _add_content_option(p)
    p.set_defaults(handler=run_stats)


def _when(due: str | None, now: datetime) -> Text:
    if due is None:
        return Text("-", style="dim")
    at = datetime.fromisoformat(due)
    delta = (at - now).total_seconds()
    if delta <= 0:
        return Text("due now", style="bold yellow")
    if delta < 3600:
        rel = f"in {max(1, round(delta / 60))} min"
    elif delta < 86400:
        rel = f"in {round(delta / 3600)} h"
    else:
        rel = f"in {round(delta / 86400)} days"
    return Text(f"{rel} ({at.astimezone():%Y-%m-%d %H:%M})")


def _bar(value: float, width: int = 10) -> str:
    filled = int(round(width * max(0.0, min(100.0, value)) / 100))
    return "\u2588" * filled + "\u2591" * (width - filled)


def _score_style(score: float | None) -> str:
    if score is None:
        return "dim"
    return "green" if score >= 80 else "yellow" if score >= 50 else "red"


def _table(console: Console, title: str) -> Table:
    console.print()
    console.print(Text(title, style="bold"))
    return Table(box=box.SIMPLE_HEAD, expand=False, pad_edge=False, show_edge=False)


def render_stats(data: dict[str, Any], console: Console, now: datetime) -> None:
    """Print the stats dictionary (from `Store.stats`) for people."""
    trend = data["trend"]
    answered = {cid: c for cid, c in data["cards"].items() if c["attempts"]}
    n, m = data["total_attempts"], len(answered)
    head = Text(f"{n} answer{'' if n == 1 else 's'} to {m} card{'' if m == 1 else 's'}", style="bold")
    if data["first_at"]:
        head.append(f" since {datetime.fromisoformat(data['first_at']).astimezone():%Y-%m-%d}")
    console.print(head)
    spark = Text("Trend ", style="bold")
    spark.append(data["sparkline"], style="cyan")
    shown = "your only answer" if len(trend) == 1 else f"last {len(trend)} answers, oldest to newest"
    spark.append(f"  {shown}, scale 0-100 (latest {trend[-1]['score']})")
    console.print(spark)

    cards = _table(console, "Cards")
    cards.add_column("card", no_wrap=True)
    cards.add_column("answers", justify="right")
    cards.add_column("best", justify="right")
    cards.add_column("last", justify="right")
    cards.add_column("next due", no_wrap=True)
    for cid, c in sorted(answered.items(), key=lambda kv: (kv[1]["due"] or "~", kv[0])):
        name = Text(cid)
        if not c["in_deck"]:
            name.append(" (not in deck)", style="dim")
        cards.add_row(name, Text(str(c["attempts"])), Text(str(c["best"]), style=_score_style(c["best"])),
                      Text(str(c["last"]), style=_score_style(c["last"])), _when(c["due"], now))
    console.print(cards)
    unanswered = len(data["cards"]) - len(answered)
    if unanswered:
        console.print(Text(f"{unanswered} card(s) not answered yet (see `lndrill cards list`)", style="dim"))

    window = data["window"]
    sections = _table(console, f"Sections (average of the last {window} answers to each card)")
    sections.add_column("card", no_wrap=True)
    sections.add_column("section")
    sections.add_column("average", no_wrap=True)
    for s in sorted(data["sections"].values(), key=lambda s: (s["average"], s["card"], s["section"])):
        bar = Text(_bar(s["average"]), style=_score_style(s["average"]))
        bar.append(f" {s['average']:>5.1f}")
        sections.add_row(Text(s["card"]), Text(s["title"]), bar)
    console.print(sections)

    tags = _table(console, f"Tags (average of the last {window} answers per tag)")
    tags.add_column("tag", no_wrap=True)
    tags.add_column("average", no_wrap=True)
    tags.add_column("answers", justify="right")
    for tag, t in sorted(data["tags"].items(), key=lambda kv: (kv[1]["average"], kv[0])):
        bar = Text(_bar(t["average"]), style=_score_style(t["average"]))
        bar.append(f" {t['average']:>5.1f}")
        tags.add_row(Text(tag), bar, Text(str(t["attempts"])))
    console.print(tags)


def run_stats(args: argparse.Namespace) -> int:
    """Print history statistics (or JSON); a one-line notice on stderr if the database had to be replaced."""
    from lndrill.cli_cards import _console, _deck
    from lndrill.store import StoreError, open_store

    deck = _deck(args)
    try:
        store = open_store()
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if store.notice:
        print(store.notice, file=sys.stderr)
    now = datetime.now(UTC)
    try:
        with store:
            data = store.stats(deck, now=now)
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    if not data["total_attempts"]:
        print(EMPTY)
        return 0
    render_stats(data, _console(), now)
    return 0
