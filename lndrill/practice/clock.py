"""The two clocks of a practice session: monotonic seconds for timing answers, UTC datetimes for history."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from lndrill.store.history import utc_now

#: Seconds that only ever go forward (time.monotonic in the app; a fake in tests).
Monotonic = Callable[[], float]
#: Timezone-aware UTC datetimes for timestamps and due dates (a fixed one in tests).
WallClock = Callable[[], datetime]

__all__ = ["Monotonic", "Stopwatch", "WallClock", "utc_now"]


@dataclass
class Stopwatch:
    """Time spent on an answer, from an injectable monotonic clock."""

    clock: Monotonic = time.monotonic
    started: float | None = None

    def start(self) -> None:
        """Start (or restart) timing now."""
        self.started = self.clock()

    def elapsed(self) -> float:
        """Seconds since start (0 if never started)."""
        return 0.0 if self.started is None else max(0.0, self.clock() - self.started)
