"""`lndrill sim`: command-line options, validation and output (--plain bars or --json)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn

from lndrill.sim.config import MODELS, PLACEMENTS, PRESETS, SimConfig, SimConfigError, parse_depths
from lndrill.sim.render import SCALES, SimChart
from lndrill.sim.result import SimResult
from lndrill.sim.sweep import sweep


def _one_line_error(message: str) -> NoReturn:
    print(f"lndrill: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add every `lndrill sim` option to ``parser`` (values are validated later, in ``run``)."""
    # argparse's own errors (a missing option value, say) also become one line, not usage + error.
    parser.error = _one_line_error  # type: ignore[method-assign]
    out = parser.add_argument_group("output")
    out.add_argument("--plain", action="store_true", help="print the bar chart and exit (no colour when piped "
                     "or with NO_COLOR)")
    out.add_argument("--json", action="store_true", help="print the result as JSON and exit")
    out.add_argument("--scale", metavar="log|linear", help="bar scale for --plain (default log: values span "
                     "many orders of magnitude)")
    what = parser.add_argument_group("what to simulate")
    what.add_argument("--preset", metavar="|".join(PRESETS), help="article: the seed article's exact toy "
                      "(D=4, its LCG weights, depths 1,6,12,24), its metric beside the Jacobian; paper: Xiong "
                      "et al.'s transformer (d=64, 8 tokens, vocab 128, 8 seeds), last-layer gradient over "
                      "depths 6-48. Other options override the preset's defaults")
    what.add_argument("--model", metavar="|".join(MODELS), help="toy: the article's tanh residual tower on "
                      "one vector (default); transformer: uniform attention + ReLU FFN + softmax readout")
    what.add_argument("--metric", metavar="NAME", help="article (the article's ||grad_x sum S(x)^2||), jacobian "
                      "(||dS/dx||_F, default), param (per-layer ||dLoss/dW2||, one depth; on the toy the "
                      "layer's W under a random probe loss), last-layer "
                      "(the last layer's ||dLoss/dW2|| per depth), stream (||x_l||^2/d per layer, one depth)")
    what.add_argument("--placements", metavar="LIST", help=f"comma list from {','.join(PLACEMENTS)} "
                      "(default post,pre)")
    what.add_argument("--depths", metavar="LIST", help="depths as 1,6,12,24 or 1-48 (default 1-48; a single "
                      "depth, default 12, for param and stream)")
    what.add_argument("--width", metavar="N", help="vector width D (toy) or d (transformer), at least 2 "
                      "(default 64)")
    what.add_argument("--seed", metavar="S", help="first random seed (default 0)")
    what.add_argument("--seeds", metavar="K", help="number of seeds, batched; shows the median and min-max "
                      "(default 1)")
    what.add_argument("--tokens", metavar="N", help="transformer: tokens per sequence (default 8)")
    what.add_argument("--vocab", metavar="V", help="transformer: readout vocabulary size (default 128)")
    what.add_argument("--final-ln", action="store_true", default=None,
                      help="toy: add a final LayerNorm after Pre-LN and Sandwich stacks (the transformer "
                      "always has one)")
    what.add_argument("--untied", action="store_true", default=None,
                      help="toy: a fresh W per layer instead of one shared W (the article shares one)")


def _int_option(args: argparse.Namespace, name: str) -> int | None:
    text = getattr(args, name, None)
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise SimConfigError(f"--{name} must be a whole number (got {text!r})") from None


def config_from_args(args: argparse.Namespace) -> SimConfig:
    """Build and validate a SimConfig from parsed `lndrill sim` options; raises SimConfigError."""
    kwargs: dict[str, Any] = {}
    for name in ("width", "seed", "seeds", "tokens", "vocab"):
        value = _int_option(args, name)
        if value is not None:
            kwargs[name] = value
    if getattr(args, "depths", None) is not None:
        kwargs["depths"] = parse_depths(args.depths)
    if getattr(args, "placements", None) is not None:
        kwargs["placements"] = tuple(p.strip() for p in args.placements.split(",") if p.strip())
    for name in ("preset", "model", "metric"):
        if getattr(args, name, None) is not None:
            kwargs[name] = args.__dict__[name].strip()
    if getattr(args, "final_ln", None):
        kwargs["final_ln"] = True
    if getattr(args, "untied", None):
        kwargs["shared_weights"] = False
    return SimConfig(**kwargs)


def make_console() -> Any:
    """A Rich console on stdout that emits no ANSI codes when piped or when NO_COLOR is set."""
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR")) or not sys.stdout.isatty()
    return Console(file=sys.stdout, color_system=None if plain else "auto", no_color=plain,
                   highlight=False, markup=False, emoji=False)


def print_plain(result: SimResult, scale: str = "log") -> None:
    """Print the chart (and its notes) to stdout."""
    make_console().print(SimChart(result, scale=scale))


def checked_options(args: argparse.Namespace) -> tuple[SimConfig, str]:
    """The config and bar scale from `lndrill sim` options; raises SimConfigError with one line."""
    scale = (getattr(args, "scale", None) or "log").strip()
    if scale not in SCALES:
        raise SimConfigError(f"unknown scale {scale!r} (choose from {', '.join(SCALES)})")
    return config_from_args(args), scale


def run(args: argparse.Namespace) -> int:
    """Run `lndrill sim` with --plain or --json (or when the output is not a terminal).

    Bad options print one `lndrill: error:` line and return 2.
    """
    try:
        if args.plain and args.json:
            raise SimConfigError("choose one of --plain and --json")
        cfg, scale = checked_options(args)
    except SimConfigError as exc:
        print(f"lndrill: error: {exc}", file=sys.stderr)
        return 2
    result = sweep(cfg)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print_plain(result, scale)
    return 0
