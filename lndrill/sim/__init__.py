"""lndrill.sim: NumPy gradient simulator (headless core: never imports textual).

    from lndrill.sim import SimConfig, sweep
    result = sweep(SimConfig(preset="article"))
"""

from lndrill.sim.config import METRICS, MODELS, PLACEMENTS, PRESETS, SimConfig, SimConfigError
from lndrill.sim.result import SimResult
from lndrill.sim.sweep import sweep

__all__ = ["METRICS", "MODELS", "PLACEMENTS", "PRESETS", "SimConfig", "SimConfigError", "SimResult", "sweep"]
