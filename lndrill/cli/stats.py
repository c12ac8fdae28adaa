"""`lndrill stats [--json]`: your answer history per card, section and tag, and a trend."""

from __future__ import annotations

import argparse

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from lndrill.cli.common import add_content_option, console, deck_of, emit, tell
from lndrill.cli.output import emit_json_text
from lndrill.display import block_bar, due_with_date, score_style
from lndrill.practice.clock import utc_now
from lndrill.practice.stats import Stats

EMPTY = "No answers yet: score one with `lndrill score CARD_ID FILE`, or open `lndrill` and start a drill."


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill stats`."""
    p = sub.add_parser(
        "stats", help="your history: attempts, best and last score, next due date, weakest sections",
        description="Show your answer history: per card the number of attempts, best and last score and "
                    "when it is next due; per section and per tag the average over your last answers; and a "
                    "trend of scores over time.",
    )
    p.add_argument("--json", action="store_true",
                   help='print one JSON object: {"cards": {"<id>": {"attempts", "best", "last", "due"}}, '
                        '"sections", "tags", "trend", "most_overruled"}')
    add_content_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print history statistics (or JSON); a one-line notice on stderr if the database had to be replaced,
    exit status 1 with one line if the history cannot be read. The history is opened for reading only
    (it works on a read-only file or directory) and aggregated in SQL."""
    from lndrill.practice import Practice
    from lndrill.store import open_store

    practice = Practice(deck_of(args), lambda: open_store(read_only=True), now=utc_now)
    practice.on_notice = tell
    practice.on_problem = tell
    try:
        if practice.has_unscored():  # answers a killed process left unscored: score them first (writable)
            writer = Practice(practice.deck, open_store, now=utc_now)
            writer.on_notice = tell
            writer.on_problem = tell
            try:
                writer.score_unscored()
            finally:
                writer.close()
        stats = practice.stats()
    finally:
        practice.close()
    if stats is None:
        return 1
    if args.json:
        emit_json_text(stats.to_json())
    elif not stats.total_attempts:
        emit(EMPTY)
    else:
        render_stats(stats, console())
    return 0


def _table(con: Console, title: str) -> Table:
    con.print()
    con.print(Text(title, style="bold"))
    return Table(box=box.SIMPLE_HEAD, expand=False, pad_edge=False, show_edge=False)


def _average(value: float) -> Text:
    bar = Text(block_bar(value), style=score_style(value))
    bar.append(f" {value:>5.1f}")
    return bar


def render_stats(stats: Stats, con: Console) -> None:
    """Print the stats for people: a headline, the trend, then tables of cards, sections and tags."""
    now = stats.generated_at
    answered = stats.answered
    n, m = stats.total_attempts, len(answered)
    head = Text(f"{n} answer{'' if n == 1 else 's'} to {m} card{'' if m == 1 else 's'}", style="bold")
    if stats.first_at is not None:
        head.append(f" since {stats.first_at.astimezone():%Y-%m-%d}")
    con.print(head)
    spark = Text("Trend ", style="bold")
    spark.append(stats.sparkline, style="cyan")
    shown = "your only answer" if len(stats.trend) == 1 else f"last {len(stats.trend)} answers, oldest to newest"
    spark.append(f"  {shown}, scale 0-100 (latest {stats.trend[-1].score})")
    con.print(spark)

    cards = _table(con, "Cards")
    cards.add_column("card", no_wrap=True)
    cards.add_column("answers", justify="right")
    cards.add_column("best", justify="right")
    cards.add_column("last", justify="right")
    cards.add_column("next due", no_wrap=True)
    for c in sorted(answered, key=lambda c: (c.due is None, c.due or now, c.card_id)):
        name = Text(c.card_id)
        if not c.in_deck:
            name.append(" (not in deck)", style="dim")
        cards.add_row(name, Text(str(c.attempts)), Text(str(c.best), style=score_style(c.best)),
                      Text(str(c.last), style=score_style(c.last)), due_with_date(c.due, now))
    con.print(cards)
    unanswered = len(stats.cards) - len(answered)
    if unanswered:
        con.print(Text(f"{unanswered} card(s) not answered yet (see `lndrill cards list`)", style="dim"))

    window = stats.window
    sections = _table(con, f"Sections (average of the last {window} answers to each card)")
    sections.add_column("card", no_wrap=True)
    sections.add_column("section")
    sections.add_column("average", no_wrap=True)
    for s in sorted(stats.sections, key=lambda s: (s.average, s.card_id, s.section_id)):
        sections.add_row(Text(s.card_id), Text(s.title), _average(s.average))
    con.print(sections)

    tags = _table(con, f"Tags (average of the last {window} answers per tag)")
    tags.add_column("tag", no_wrap=True)
    tags.add_column("average", no_wrap=True)
    tags.add_column("answers", justify="right")
    for t in sorted(stats.tags, key=lambda t: (t.average, t.tag)):
        tags.add_row(Text(t.tag), _average(t.average), Text(str(t.attempts)))
    con.print(tags)

    if stats.overrules:
        table = _table(con, "Most overruled (where you disagreed with the scorer)")
        table.add_column("card", no_wrap=True)
        table.add_column("point or mistake", no_wrap=True)
        table.add_column("overruled", justify="right")
        for o in stats.overrules[:10]:
            what = Text(o.item_id)
            what.append("  (mistake disputed)" if o.kind == "mistake" else "  (point)", style="dim")
            table.add_row(Text(o.card_id), what, Text(f"{o.times} of {o.judged}"))
        con.print(table)
