"""`lndrill train`: the training lab. Trains a grid of small Transformers (placements x learning rates x
warm-ups x seeds) on a synthetic task, shows progress on stderr, then the loss curves and a table
(--plain, also without either flag) or every curve as JSON (--json)."""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from lndrill.cli.common import CliError, console, emit_json, one_of, tell, whole_number
from lndrill.sim.config import SimConfigError, parse_placements
from lndrill.train.optim import SCHEDULES
from lndrill.train.presets import NOTES, PRESETS
from lndrill.train.run import FORCE_SECONDS, Finished, Progress, TrainConfig, TrainConfigError, train_events


def _placements(text: str) -> tuple[str, ...]:
    try:
        return parse_placements(text)
    except SimConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _list_of(kind: str, convert: Any, example: str) -> Any:
    def parse(text: str) -> tuple[Any, ...]:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            raise argparse.ArgumentTypeError(f"needs at least one {kind}")
        try:
            return tuple(convert(p) for p in parts)
        except ValueError:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise argparse.ArgumentTypeError(f"cannot read {kind}s {shown!r} (write e.g. {example})") from None

    return parse


def _whole(text: str) -> int:
    value = float(text)
    if not value.is_integer():
        raise ValueError(text)
    return int(value)


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill train` and its options."""
    parser = sub.add_parser(
        "train",
        help="the training lab: train small Transformers with and without warm-up (--plain / --json)",
        description=(
            "Train small NumPy Transformers (real attention, FFN, embeddings, softmax readout) with Adam on "
            "a sequence-reversal task, for each placement, learning rate, warm-up and seed; progress on "
            "stderr, then loss curves, final losses, divergences and per-layer gradient norms."
        ),
    )
    out = parser.add_argument_group("output")
    out.add_argument("--plain", action="store_true", help="print the chart and table (the default)")
    out.add_argument("--json", action="store_true", help="print every curve and result as JSON")
    out.add_argument("--force", action="store_true",
                     help=f"run even when the estimate is over {FORCE_SECONDS:.0f} s")
    what = parser.add_argument_group("what to train (options override the preset)")
    what.add_argument("--preset", metavar="|".join(PRESETS), type=one_of("preset", tuple(PRESETS)),
                      help="xiong: Post-LN and Pre-LN with and without warm-up at lr 1e-2, depth 6, width 16, 600 "
                      "steps, 3 seeds (Xiong et al., Fig. 1; about 15 s)")
    what.add_argument("--placements", metavar="LIST", type=_placements, help="comma list from post,pre,"
                      "sandwich,deepnorm (default post,pre)")
    what.add_argument("--depth", metavar="N", type=whole_number(), help="layers (default 6)")
    what.add_argument("--width", metavar="N", type=whole_number(), help="model width d (default 64)")
    what.add_argument("--heads", metavar="N", type=whole_number(), help="attention heads, dividing d (default 4)")
    what.add_argument("--lr", metavar="LIST", type=_list_of("learning rate", float, "1e-3,3e-3"),
                      help="peak learning rates, comma list (default 1e-3)")
    what.add_argument("--warmup", metavar="LIST", type=_list_of("warm-up", _whole, "0,4000"),
                      help="warm-up steps, comma list; 0 is none (default 0,400)")
    what.add_argument("--schedule", metavar="|".join(SCHEDULES), type=one_of("schedule", SCHEDULES),
                      help="after the warm-up: constant (default) or inverse-sqrt decay")
    what.add_argument("--steps", metavar="N", type=whole_number(), help="optimiser steps per run (default 1000)")
    what.add_argument("--seeds", metavar="K", type=whole_number(), help="seeds per setting (default 1)")
    what.add_argument("--seed", metavar="S", type=whole_number(), help="first seed (default 0)")
    what.add_argument("--batch", metavar="N", type=whole_number(), help="sequences per step (default 32)")
    what.add_argument("--length", metavar="N", type=whole_number(), help="sequence length (default 8)")
    what.add_argument("--vocab", metavar="V", type=whole_number(), help="vocabulary size (default 16)")
    what.add_argument("--grad-steps", metavar="LIST", type=_list_of("step", _whole, "1,50,600"),
                      help="steps at which to show per-layer gradient norms (default 1, 10, 100, ... and the last)")
    what.add_argument("--float64", action="store_true", help="train in float64 (default float32)")
    parser.set_defaults(run=run)


_FIELDS = {"placements": "placements", "depth": "depth", "width": "width", "heads": "heads", "lr": "lrs",
           "warmup": "warmups", "schedule": "schedule", "steps": "steps", "seeds": "seeds", "seed": "seed",
           "batch": "batch", "length": "length", "vocab": "vocab", "grad_steps": "grad_steps"}


def config_of(args: argparse.Namespace) -> TrainConfig:
    """The TrainConfig the options describe; CliError with one line when they do not fit together."""
    values: dict[str, Any] = dict(PRESETS[args.preset]) if args.preset else {}
    for option, name in _FIELDS.items():
        given = getattr(args, option)
        if given is not None:
            values[name] = given
    if args.float64:
        values["dtype"] = "float64"
    try:
        return TrainConfig(preset=args.preset, **values)
    except TrainConfigError as exc:
        raise CliError(str(exc)) from None


def _progress_line(event: Progress) -> str:
    eta = f"{event.eta_seconds:.0f} s" if event.eta_seconds is not None else "?"
    return (f"lndrill: train: {event.done}/{event.total} steps ({event.done / event.total:.0%}), "
            f"{event.steps_per_second:.1f} steps/s, ETA {eta}")


def run(args: argparse.Namespace) -> int:
    """Train, with progress on stderr; print the chart and table, or the JSON."""
    if args.plain and args.json:
        raise CliError("choose one of --plain and --json")
    cfg = config_of(args)
    seconds = cfg.estimated_seconds()
    if seconds > FORCE_SECONDS and not args.force:
        raise CliError(f"this run would take about {seconds:.0f} s (over {FORCE_SECONDS:.0f} s); pass --force "
                       "to run it, or reduce steps, depth, width, seeds, learning rates or warm-ups")
    cancel = threading.Event()
    result = None
    events = train_events(cfg, cancel)
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as Bar

        columns = (TextColumn("training"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                   TextColumn("ETA"), TimeRemainingColumn())
        with Bar(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("train", total=cfg.total_steps, rate="")
            for event in events:
                if isinstance(event, Progress):
                    bar.update(task, completed=event.done, rate=f"{event.steps_per_second:.1f} steps/s")
                elif isinstance(event, Finished):
                    result = event.result
    else:
        shown = -1
        for event in events:
            if isinstance(event, Progress):
                tenth = 10 * event.done // event.total
                if tenth > shown:
                    shown = tenth
                    tell(_progress_line(event))
            elif isinstance(event, Finished):
                result = event.result
    assert result is not None  # train_events always ends with Finished
    if args.json:
        out = result.to_dict()
        if cfg.preset and NOTES.get(cfg.preset):
            out["note"] = NOTES[cfg.preset]
        emit_json(out)
        return 0
    from lndrill.train.render import LossChart, TrainTable

    con = console()
    con.print(LossChart(result))
    con.print(TrainTable(result))
    if cfg.preset and NOTES.get(cfg.preset):
        from rich.text import Text

        con.print(Text("Note: " + NOTES[cfg.preset]))
    return 0
