"""Simulator configuration: names, validation, preset resolution and a cost guard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from lndrill.sim.cost import estimate
from lndrill.sim.layernorm import DEFAULT_EPS
from lndrill.sim.placements import PLACEMENTS

MODELS: tuple[str, ...] = ("toy", "transformer")
SWEEP_METRICS: tuple[str, ...] = ("article", "jacobian", "last-layer", "update")
LAYER_METRICS: tuple[str, ...] = ("param", "stream")
METRICS: tuple[str, ...] = ("article", "jacobian", "param", "last-layer", "stream", "update")
PRESETS: tuple[str, ...] = ("article", "paper")

#: A run estimated above this many seconds is refused (the CLI promises an answer in about 10 s).
TIME_BUDGET_S = 10.0
#: The largest working set (bytes) a run may allocate.
MEMORY_BUDGET_BYTES = 2_000_000_000
#: Hard limits, checked before the estimate (far beyond any run the budgets allow; they keep the
#: estimate's arithmetic finite and the messages specific).
MAX_DEPTH = 100_000
MAX_WIDTH = 4096
MAX_SEEDS = 10_000
MAX_SEED = 2**63 - 1
MAX_TOKENS = 4096
MAX_VOCAB = 1_000_000

_GENERAL_DEFAULTS: dict[str, Any] = {
    "model": "toy",
    "width": 64,
    "placements": ("post", "pre"),
    "metric": "jacobian",
    "seed": 0,
    "seeds": 1,
    "tokens": 8,
    "vocab": 128,
    "final_ln": False,
    "shared_weights": True,
}
_DEFAULT_SWEEP_DEPTHS: tuple[int, ...] = tuple(range(1, 49))
_DEFAULT_LAYER_DEPTH = 12


#: The default of every SimConfig field a preset can set: None until `__post_init__` puts the preset's
#: value (or the general default) there, so a constructed SimConfig never holds it. Typed `Any` so the
#: fields can be declared with the types they always have once built.
FROM_PRESET: Any = None


class SimConfigError(ValueError):
    """An invalid simulator configuration; the message is one plain line for the user."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. Fields left out take the preset's value, then the general default.

    model: "toy" (the article's tanh residual tower on one vector) or "transformer" (Xiong et al.'s
    uniform-attention + ReLU-FFN stack with a softmax readout). width: D (toy) or d (transformer).
    depths: stack depths to sweep; per-layer metrics ("param", "stream") take exactly one depth.
    seeds: how many random draws, batched; results are the median with min-max spread.
    tokens, vocab: transformer only. final_ln, shared_weights: toy only (a final LN after Pre-LN and
    Sandwich stacks; one W reused by every layer, as in the article, or a W per layer).
    """

    width: int = FROM_PRESET
    depths: tuple[int, ...] = FROM_PRESET
    placements: tuple[str, ...] = FROM_PRESET
    metric: str = FROM_PRESET
    seed: int = FROM_PRESET
    seeds: int = FROM_PRESET
    model: str = FROM_PRESET
    preset: str | None = None
    tokens: int = FROM_PRESET
    vocab: int = FROM_PRESET
    final_ln: bool = FROM_PRESET
    shared_weights: bool = FROM_PRESET
    eps: float = DEFAULT_EPS

    def __post_init__(self) -> None:
        from lndrill.sim.presets import preset_defaults, preset_fixed

        if self.preset is not None and self.preset not in PRESETS:
            raise SimConfigError(f"unknown preset {self.preset!r} (choose from {', '.join(PRESETS)})")
        fixed = preset_fixed(self.preset)
        for name, value in fixed.items():
            given = getattr(self, name)
            if given is not None and given != value:
                raise SimConfigError(
                    f"the {self.preset} preset fixes {name.replace('_', ' ')} = {value!r}; "
                    f"drop that option or the preset"
                )
        defaults = {**_GENERAL_DEFAULTS, **preset_defaults(self.preset), **fixed}
        for f in fields(self):
            if getattr(self, f.name) is None and f.name in defaults:
                object.__setattr__(self, f.name, defaults[f.name])
        if self.depths is None:
            layer_metric = self.metric in LAYER_METRICS
            preset_depths = preset_defaults(self.preset).get("layer_depths" if layer_metric else "sweep_depths")
            if preset_depths is None:
                preset_depths = (_DEFAULT_LAYER_DEPTH,) if layer_metric else _DEFAULT_SWEEP_DEPTHS
            object.__setattr__(self, "depths", tuple(preset_depths))
        object.__setattr__(self, "placements", tuple(self.placements or ()))
        object.__setattr__(self, "depths", tuple(self.depths))
        self._validate()

    # ------------------------------------------------------------------ validation
    def _validate(self) -> None:
        if self.model not in MODELS:
            raise SimConfigError(f"unknown model {self.model!r} (choose from {', '.join(MODELS)})")
        if self.metric not in METRICS:
            raise SimConfigError(f"unknown metric {self.metric!r} (choose from {', '.join(METRICS)})")
        if not self.placements:
            raise SimConfigError("give at least one placement")
        for p in self.placements:
            if p not in PLACEMENTS:
                raise SimConfigError(f"unknown placement {p!r} (choose from {', '.join(PLACEMENTS)})")
        if len(set(self.placements)) != len(self.placements):
            raise SimConfigError("each placement may be given only once")
        _check_int("width", self.width, 2, MAX_WIDTH, "LayerNorm over a single value is always 0")
        _check_int("seeds", self.seeds, 1, MAX_SEEDS)
        _check_int("seed", self.seed, 0, MAX_SEED)
        _check_int("tokens", self.tokens, 1, MAX_TOKENS)
        _check_int("vocab", self.vocab, 2, MAX_VOCAB)
        if not self.depths:
            raise SimConfigError("give at least one depth")
        for depth in self.depths:
            _check_int("depth", depth, 1, MAX_DEPTH)
        if list(self.depths) != sorted(set(self.depths)):
            object.__setattr__(self, "depths", tuple(sorted(set(self.depths))))
        if self.metric in LAYER_METRICS and len(self.depths) != 1:
            raise SimConfigError(
                f"metric {self.metric!r} gives one value per layer of a single stack: "
                f"pass one depth (got {len(self.depths)})"
            )
        if not (isinstance(self.eps, float | int) and self.eps > 0):
            raise SimConfigError(f"eps must be positive (got {self.eps!r})")
        seconds, memory = estimate_cost(self)
        reduce = ("reduce width, depths, seeds, tokens or vocab" if self.model == "transformer"
                  else "reduce width, depths or seeds")
        if memory > MEMORY_BUDGET_BYTES:
            raise SimConfigError(
                f"this run would need about {memory / 1e9:.1f} GB of memory (limit "
                f"{MEMORY_BUDGET_BYTES / 1e9:.0f} GB); {reduce}"
            )
        if seconds > TIME_BUDGET_S:
            raise SimConfigError(
                f"this run would take about {seconds:.0f} s (limit {TIME_BUDGET_S:.0f} s); {reduce}"
            )

    @classmethod
    def from_options(
        cls,
        *,
        preset: str | None = None,
        model: str | None = None,
        metric: str | None = None,
        placements: str | Sequence[str] | None = None,
        depths: str | Sequence[int] | None = None,
        width: str | int | None = None,
        seed: str | int | None = None,
        seeds: str | int | None = None,
        tokens: str | int | None = None,
        vocab: str | int | None = None,
        final_ln: bool = False,
        untied: bool = False,
    ) -> SimConfig:
        """A config from option values as a person gave them: text from a command line or a form
        ("1-48", "post,pre", "64") or values already parsed. None (and False) leave a field to the preset
        or the default. Raises SimConfigError with a one-line message."""
        kwargs: dict[str, Any] = {}
        for name, value in (("preset", preset), ("model", model), ("metric", metric)):
            if value is not None:
                kwargs[name] = value.strip()
        if placements is not None:
            kwargs["placements"] = parse_placements(placements) if isinstance(placements, str) else tuple(placements)
        if depths is not None:
            kwargs["depths"] = parse_depths(depths) if isinstance(depths, str) else tuple(depths)
        for name, number in (("width", width), ("seed", seed), ("seeds", seeds), ("tokens", tokens), ("vocab", vocab)):
            if number is not None:
                kwargs[name] = parse_whole(name, number) if isinstance(number, str) else number
        if final_ln:
            kwargs["final_ln"] = True
        if untied:
            kwargs["shared_weights"] = False
        return cls(**kwargs)

    @property
    def is_layer_metric(self) -> bool:
        """True for metrics that report one value per layer of a single stack."""
        return self.metric in LAYER_METRICS

    @property
    def max_depth(self) -> int:
        """The deepest stack in the sweep."""
        return max(self.depths)


def _check_int(name: str, value: object, minimum: int, maximum: int, why: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimConfigError(f"{name} must be a whole number (got {_clip(repr(value))})")
    if value < minimum:
        reason = f": {why}" if why else ""
        raise SimConfigError(f"{name} must be at least {minimum} (got {value}){reason}")
    if value > maximum:
        raise SimConfigError(f"{name} must be at most {maximum:,} (got {_clip(str(value))})")


def estimate_cost(cfg: SimConfig) -> tuple[float, float]:
    """Estimated (seconds, peak bytes) of a run, counted from every array and pass (`lndrill.sim.cost`)."""
    found = estimate(cfg)
    return found.seconds, found.bytes


def parse_depths(text: str) -> tuple[int, ...]:
    """Parse "1,6,12,24", "1-48" or a mix ("1-4,8") into sorted distinct depths."""
    depths: set[int] = set()
    shown = _clip(text)
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        bounds = part.split("-", 1) if "-" in part[1:] else [part]
        try:
            numbers = [int(b) for b in bounds]
        except ValueError:
            raise SimConfigError(f"cannot read depths {shown!r} (write e.g. 1,6,12,24 or 1-48)") from None
        if len(numbers) == 2:
            lo, hi = numbers
            if hi < lo:
                raise SimConfigError(f"depth range {_clip(part)!r} runs backwards (write {hi}-{lo})")
            if hi > MAX_DEPTH:
                raise SimConfigError(f"depth range {_clip(part)!r} goes past the deepest stack, {MAX_DEPTH:,}")
            depths.update(range(lo, hi + 1))
        else:
            depths.add(numbers[0])
    if not depths:
        raise SimConfigError(f"cannot read depths {shown!r} (write e.g. 1,6,12,24 or 1-48)")
    bad = [x for x in depths if x < 1]
    if bad:
        raise SimConfigError(f"depth must be at least 1 (got {min(bad)})")
    return tuple(sorted(depths))


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def format_depths(depths: Sequence[int]) -> str:
    """Depths written compactly, as parse_depths reads them: runs of three or more as a-b ("1-48"),
    the rest comma-separated ("1,2,4,8")."""
    out: list[str] = []
    ds = sorted(depths)
    i = 0
    while i < len(ds):
        j = i
        while j + 1 < len(ds) and ds[j + 1] == ds[j] + 1:
            j += 1
        out.append(f"{ds[i]}-{ds[j]}" if j - i >= 2 else ",".join(str(d) for d in ds[i:j + 1]))
        i = j + 1
    return ",".join(out)


def parse_placements(text: str) -> tuple[str, ...]:
    """Parse "post,pre" into placement names (unknown names are left for SimConfig to reject)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


def parse_whole(name: str, text: str) -> int:
    """A whole number typed for option `name`; SimConfigError with one line if it is not one."""
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        raise SimConfigError(f"{name} must be a whole number (got {_clip(text)!r})") from None
