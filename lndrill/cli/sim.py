"""`lndrill sim`: the gradient simulator's options, then the chart (--plain), the numbers (--json), or the
simulator screen (in a terminal, without either)."""

from __future__ import annotations

import argparse

from lndrill.cli.common import CliError, console, emit_json, one_of, whole_number
from lndrill.sim.config import (
    METRICS,
    MODELS,
    PLACEMENTS,
    PRESETS,
    SimConfig,
    SimConfigError,
    parse_depths,
    parse_placements,
)
from lndrill.sim.render import SCALES


def _depths(text: str) -> tuple[int, ...]:
    try:
        return parse_depths(text)
    except SimConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register `lndrill sim` and its options (values a SimConfig must check together are checked in `run`)."""
    parser = sub.add_parser(
        "sim",
        help="the gradient simulator (--plain / --json print and exit)",
        description=(
            "Simulate gradient norms per depth for Post-LN, Pre-LN and variants. With --plain or "
            "--json it prints and exits; without either it opens the simulator screen (or prints the "
            "chart when the output is not a terminal)."
        ),
    )
    out = parser.add_argument_group("output")
    out.add_argument("--plain", action="store_true", help="print the bar chart and exit (no colour when piped "
                     "or with NO_COLOR)")
    out.add_argument("--json", action="store_true", help="print the result as JSON and exit")
    out.add_argument("--scale", metavar="log|linear", type=one_of("scale", SCALES), default="log",
                     help="bar scale for --plain (default log: values span many orders of magnitude)")
    what = parser.add_argument_group("what to simulate")
    what.add_argument("--preset", metavar="|".join(PRESETS), type=one_of("preset", PRESETS),
                      help="article: the seed article's exact toy (D=4, its LCG weights, depths 1,6,12,24), its "
                      "metric beside the Jacobian; paper: Xiong et al.'s transformer (d=64, 8 tokens, vocab 128, "
                      "8 seeds), last-layer gradient over depths 6-48. Other options override the preset's "
                      "defaults")
    what.add_argument("--model", metavar="|".join(MODELS), type=one_of("model", MODELS),
                      help="toy: the article's tanh residual tower on one vector (default); transformer: "
                      "uniform attention + ReLU FFN + softmax readout")
    what.add_argument("--metric", metavar="NAME", type=one_of("metric", METRICS),
                      help="article (the article's ||grad_x sum S(x)^2||), jacobian "
                      "(||dS/dx||_F, default), param (per-layer ||dLoss/dW2||, one depth; on the toy the "
                      "layer's W under a random probe loss), last-layer "
                      "(the last layer's ||dLoss/dW2|| per depth), stream (||x_l||^2/d per layer, one depth), update "
                      "(the output's relative change after Adam's first step, per unit of lr, per depth; with 3+ depths "
                      "the notes give its log-log slope and that of Admin's random-sign setting)")
    what.add_argument("--placements", metavar="LIST", type=parse_placements,
                      help=f"comma list from {','.join(PLACEMENTS)} (default post,pre)")
    what.add_argument("--depths", metavar="LIST", type=_depths, help="depths as 1,6,12,24 or 1-48 (default "
                      "1-48; a single depth, default 12, for param and stream)")
    what.add_argument("--width", metavar="N", type=whole_number(), help="vector width D (toy) or d "
                      "(transformer), at least 2 (default 64)")
    what.add_argument("--seed", metavar="S", type=whole_number(), help="first random seed (default 0)")
    what.add_argument("--seeds", metavar="K", type=whole_number(), help="number of seeds, batched; shows the "
                      "median and min-max (default 1)")
    what.add_argument("--tokens", metavar="N", type=whole_number(),
                      help="transformer: tokens per sequence (default 8)")
    what.add_argument("--vocab", metavar="V", type=whole_number(),
                      help="transformer: readout vocabulary size (default 128)")
    what.add_argument("--final-ln", action="store_true",
                      help="toy: add a final LayerNorm after Pre-LN and Sandwich stacks (the transformer "
                      "always has one)")
    what.add_argument("--untied", action="store_true",
                      help="toy: a fresh W per layer instead of one shared W (the article shares one)")
    parser.set_defaults(run=run)


def config_of(args: argparse.Namespace) -> SimConfig:
    """The SimConfig the options describe; CliError with one line when they do not fit together."""
    try:
        return SimConfig.from_options(
            preset=args.preset, model=args.model, metric=args.metric, placements=args.placements,
            depths=args.depths, width=args.width, seed=args.seed, seeds=args.seeds, tokens=args.tokens,
            vocab=args.vocab, final_ln=args.final_ln, untied=args.untied,
        )
    except SimConfigError as exc:
        raise CliError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Print the chart or the JSON; without --plain or --json, open the simulator screen in a terminal."""
    from lndrill.cli.app import interactive, open_sim_screen

    if args.plain and args.json:
        raise CliError("choose one of --plain and --json")
    config = config_of(args)
    if not args.plain and not args.json and interactive():
        return open_sim_screen(config, args.scale)
    from lndrill.sim import sweep
    from lndrill.sim.render import SimChart

    try:
        result = sweep(config)
    except MemoryError:
        raise CliError("the simulation ran out of memory; reduce width, depths, seeds, tokens or vocab") from None
    if args.json:
        emit_json(result.to_dict())
    else:
        console().print(SimChart(result, scale=args.scale))
    return 0
