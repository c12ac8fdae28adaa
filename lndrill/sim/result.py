"""The simulator's result object."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lndrill.sim.config import SimConfig
from lndrill.sim.metrics import METRIC_LABELS


@dataclass
class SimResult:
    """Medians over seeds per placement, aligned with ``depths`` (sweeps) or ``layers`` (per-layer).

    spread maps placement -> (min, max) over seeds. companion, when present, is the faithful
    measurement computed in the same pass (the Jacobian beside the article's metric).
    """

    config: SimConfig
    metric: str
    depths: list[int]
    values: dict[str, np.ndarray]
    spread: dict[str, tuple[np.ndarray, np.ndarray]]
    notes: list[str] = field(default_factory=list)
    layers: list[int] | None = None
    companion: SimResult | None = None

    @property
    def rows(self) -> list[int]:
        """The row labels of the chart: layer indices for per-layer metrics, depths otherwise."""
        return self.layers if self.layers is not None else self.depths

    @property
    def row_kind(self) -> str:
        """"layer" or "depth"."""
        return "layer" if self.layers is not None else "depth"

    def spread_at(self, key: str, index: int) -> tuple[float, float]:
        """The min and max over seeds of placement `key` at row `index`."""
        lo, hi = self.spread[key]
        return float(lo[index]), float(hi[index])

    def non_finite(self) -> int:
        """How many medians and spread bounds are inf or NaN."""
        arrays = [*self.values.values(), *(a for pair in self.spread.values() for a in pair)]
        return int(sum(np.count_nonzero(~np.isfinite(np.asarray(a, dtype=float))) for a in arrays))

    @property
    def label(self) -> str:
        """A short human description of the metric."""
        return METRIC_LABELS[self.metric]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: metric, depths (or depth and layers), values, spread, notes, config; values
        that are not finite are None (null), as a note says."""
        cfg = self.config
        out: dict[str, Any] = {"metric": self.metric, "label": self.label}
        if self.layers is not None:
            out["depth"] = self.depths[0]
            out["layers"] = list(self.layers)
        else:
            out["depths"] = list(self.depths)
        out["values"] = {p: _numbers(arr) for p, arr in self.values.items()}
        out["spread"] = {p: {"min": _numbers(lo), "max": _numbers(hi)} for p, (lo, hi) in self.spread.items()}
        out["notes"] = list(self.notes)
        out["config"] = {
            "model": cfg.model,
            "preset": cfg.preset,
            "width": cfg.width,
            "seed": cfg.seed,
            "seeds": cfg.seeds,
            "placements": list(cfg.placements or ()),
        }
        if cfg.model == "transformer":
            out["config"].update(tokens=cfg.tokens, vocab=cfg.vocab)
        else:
            out["config"].update(final_ln=cfg.final_ln, shared_weights=cfg.shared_weights)
        if self.companion is not None:
            out["companion"] = self.companion.to_dict()
            out["companion"].pop("config", None)
        return out


def _numbers(values: np.ndarray) -> list[float | None]:
    """Values for JSON: inf and NaN (which JSON cannot hold) become None."""
    return [float(v) if math.isfinite(v) else None for v in np.asarray(values, dtype=float).tolist()]
