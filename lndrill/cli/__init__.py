"""The single `lndrill` entry point: one parser, one error type, a module per command.

`lndrill` alone opens the terminal app; `drill`, `mock` and `sim` (in a terminal) open it on their screen
(`lndrill.cli.app`); `score`, `cards` and `stats` print (`lndrill.cli.score`, `.cards`, `.stats`); `sim`
prints with --plain or --json (`lndrill.cli.sim`); `train` trains and prints (`lndrill.cli.train`). Every
command is a thin layer over lndrill.practice, lndrill.cards, lndrill.scoring, lndrill.sim and
lndrill.train. A mistake on the command line is one line on stderr, `lndrill: error: ...`, and exit status
2 (CliError). Output that cannot be written is one line and status
1 (a full disk, a closed stdout) or, when the reader went away (`| head -1`), nothing and status 141, as
a process ended by SIGPIPE; running out of memory is one line and status 1 (2 for the simulator, whose
options decide its size); no input or fault ever shows a traceback.
"""

from __future__ import annotations

import argparse
import os
import traceback
from collections.abc import Sequence

from lndrill import __version__
from lndrill.cli import app, cards, score, sim, stats, train
from lndrill.cli.common import CliError, Parser, SubcommandParser
from lndrill.cli.output import (
    BROKEN_PIPE_STATUS,
    OutputError,
    emit,
    flush_stdout,
    prepare_streams,
    silence_stdout,
    tell,
)

#: Set to show the traceback of an unexpected error (it is one line otherwise).
DEBUG_ENV = "LNDRILL_DEBUG"


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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=SubcommandParser)
    app.add_parsers(sub)
    score.add_parser(sub)
    cards.add_parser(sub)
    stats.add_parser(sub)
    sim.add_parser(sub)
    train.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the lndrill command line; returns the process exit status."""
    restore_streams = prepare_streams()
    try:
        try:
            code = _run(argv)
        except SystemExit as exc:  # --help and --version print, then exit
            code = exc.code if isinstance(exc.code, int) else 0
        flush_stdout()
        return code
    except CliError as exc:
        tell(f"lndrill: error: {exc}")
        return exc.status
    except KeyboardInterrupt:
        tell("lndrill: interrupted")
        return 130
    except BrokenPipeError:
        silence_stdout()
        return BROKEN_PIPE_STATUS
    except OutputError as exc:
        silence_stdout()
        tell(f"lndrill: error: {exc}")
        return 1
    except MemoryError:
        tell("lndrill: error: out of memory")
        return 1
    except OSError as exc:  # a file or device failed where no command expected it to
        where = f" ({exc.filename})" if exc.filename else ""
        tell(f"lndrill: error: {exc.strerror or ' '.join(str(exc).split())}{where}")
        return 1
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        detail = " ".join(str(exc).split())[:300]
        tell(f"lndrill: error: unexpected {type(exc).__name__}{': ' + detail if detail else ''} "
             f"(set {DEBUG_ENV}=1 to see where)")
        return 1
    finally:
        restore_streams()


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        code = app.run_home()
        if code is None:
            emit(parser.format_help(), end="")
            return 0
        return code
    return int(args.run(args) or 0)
