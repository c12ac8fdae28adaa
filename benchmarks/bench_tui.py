"""Benchmark the terminal app (a plain script: `python benchmarks/bench_tui.py`). Prints medians.

1. Launch: wall time from spawning `python` to the first screen being painted, measured by this
   process around a child that runs the app headless at 120x40 and prints READY from Textual's
   auto-pilot once the screen is up (interpreter start, imports, deck load, CSS, first paint).
   Target <= 1.5 s for the home screen (the history store opens in the background there); the card
   screen (with the simulator panel) and a mock-interview question (store opened, cards picked by the
   scheduler) are shown too.
2. Simulator key press -> bars repainted, at the default configuration (toy, width 64, depths 1-48,
   Post-LN + Pre-LN, jacobian): a seed key (s / S alternately) is pressed on the focused panel with
   Textual's Pilot, then the thread worker is awaited and the screen refreshed. Pilot's own cost per
   key (a key with no binding, measured the same way) is printed separately and subtracted.
   Target <= 50 ms.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = """
import sys
from lndrill.tui.app import make_app

async def ready(pilot):
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    print("READY", flush=True)
    pilot.app.exit()

start = sys.argv[1]
app = make_app(start, card_id="pre-vs-post-ln" if start == "drill" else None, lang="en")
app.run(headless=True, size=(120, 40), auto_pilot=ready)
"""


def launch_time(start: str, repeats: int) -> float:
    env = {**os.environ, "LNDRILL_HOME": tempfile.mkdtemp(prefix="lndrill-bench-")}
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", CHILD, start], stdout=subprocess.PIPE, text=True, env=env)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("READY"):
                times.append(time.perf_counter() - t0)
                break
        proc.wait(timeout=60)
    return statistics.median(times)


async def key_to_bars(repeats: int) -> tuple[float, float]:
    from lndrill.tui.app import make_app
    from lndrill.tui.widgets.sim_panel import SimPanel

    app = make_app("drill", card_id="pre-vs-post-ln", lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        panel = app.screen.query_one(SimPanel)
        panel.focus()
        await pilot.pause()

        async def measure(key: str) -> float:
            t0 = time.perf_counter()
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            return time.perf_counter() - t0

        overhead = [await measure("x") for _ in range(repeats)]  # no binding: Pilot's own cost
        full = []
        for i in range(repeats):
            seed_before = panel.result.config.seed
            full.append(await measure("s" if i % 2 == 0 else "S"))
            assert panel.result.config.seed != seed_before, "the bars did not change"
        assert panel.result.config.width == 64 and panel.result.depths == [1, 2, 4, 8, 12, 16, 24, 32, 48]
    return statistics.median(full), statistics.median(overhead)


def main() -> None:
    print("lndrill TUI benchmark (medians; the machine is shared and noisy)")
    home = launch_time("home", 5)
    print(f"launch to first screen, home (120x40, headless):           {home:.2f} s  (target <= 1.5 s)")
    card = launch_time("drill", 3)
    print(f"launch to a card with the simulator panel drawn:           {card:.2f} s")
    mock = launch_time("mock", 3)
    print(f"launch to the first mock-interview question (store opened): {mock:.2f} s")
    full, overhead = asyncio.run(key_to_bars(21))
    print(f"simulator key -> bars repainted (default config), total:   {full * 1000:.1f} ms")
    print(f"  of which Pilot's own per-key cost (unbound key):         {overhead * 1000:.1f} ms")
    print(f"  key -> bars repainted, Pilot cost subtracted:            {(full - overhead) * 1000:.1f} ms"
          "  (target <= 50 ms)")


if __name__ == "__main__":
    main()
