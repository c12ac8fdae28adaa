"""`lndrill stats` on a large history: 100,000 answers to the bundled deck (issue 11, item 6).

Run: python benchmarks/bench_stats.py [--attempts N]   (prints medians and peaks; target: the statistics
themselves under 1 s on 100k answers, memory that does not grow with the number of answers)

The history is written straight into a fresh database in a temporary directory, shaped like real use:
every answer ~1 KB of text, the scorer's JSON report (~3.5 KB) and one row per rubric point, a review
per answer, the cards answered in random order over a year. Then:

- `Practice.stats()` in this process, as `lndrill stats` calls it (open the history read-only, aggregate
  in SQL, build the records): median of 5 runs; its peak Python memory (tracemalloc) in a separate run;
- `lndrill stats --json` as a subprocess, end to end (Python start, deck load, stats, JSON): median of 3
  runs and its peak RSS, beside the same command on an empty history (the fixed start-up cost).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

from lndrill.cards.deck import load_deck
from lndrill.practice import Practice
from lndrill.scoring.engine import score_answer
from lndrill.store import open_store
from lndrill.store.db import format_time
from lndrill.store.paths import db_path
from lndrill.store.results import result_rows

ANSWER = ("Post-LN: y = LN(x + F(x)); Pre-LN: y = x + F(LN(x)). In Pre-LN the residual path is an identity, "
          "so the gradient reaches early layers unchanged; Post-LN needs warm-up. ") * 6


def build_history(home: Path, n: int, seed: int = 0) -> None:
    """`n` scored, reviewed answers to the bundled deck, in one transaction."""
    deck = load_deck()
    rng = random.Random(seed)
    cards = list(deck.cards.values())
    rows = {c.id: result_rows(score_answer(c, ANSWER)) for c in cards}  # one real result per card
    with open_store(home) as store:  # creates the file with the current schema
        store.record_attempt(cards[0].id, "cli", {"answer": ANSWER}, score_answer(cards[0], ANSWER), 1)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    conn = sqlite3.connect(db_path(home), isolation_level=None)
    conn.execute("BEGIN")
    for i in range(n - 1):
        card = rng.choice(cards)
        r = rows[card.id]
        score = rng.randint(0, 100)
        at = format_time(start + timedelta(seconds=rng.randint(0, 365 * 86400)))
        cur = conn.execute(
            "INSERT INTO attempts (card_id, mode, started_at, submitted_at, duration_s, score, scorer_score, "
            "result_json, scored) VALUES (?, 'drill', NULL, ?, 60, ?, ?, ?, 1)",
            (card.id, at, score, score, r.result_json))
        aid = cur.lastrowid
        conn.execute("INSERT INTO attempt_answers (attempt_id, key, position, text) VALUES (?, 'answer', 0, ?)",
                     (aid, f"{ANSWER} #{i}"))
        positions: dict[str, int] = {}
        points = []
        for sid, pid, weight, _hit, _scorer, _over in r.points:
            positions[sid] = positions.get(sid, -1) + 1
            hit = rng.random() < score / 100
            overruled = int(rng.random() < 0.02)
            points.append((aid, sid, pid, positions[sid], weight, int(hit), int(hit) ^ overruled, overruled))
        conn.executemany("INSERT INTO attempt_points (attempt_id, section_id, point_id, position, weight, hit, "
                         "scorer_hit, overruled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", points)
        conn.execute("INSERT INTO reviews (card_id, attempt_id, reviewed_at, score, rating, duration_ms, "
                     "before_json, after_json) VALUES (?, ?, ?, ?, 3, 60000, NULL, '{}')", (card.id, aid, at, score))
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _stats_once(home: Path) -> int:
    practice = Practice(load_deck(), lambda: open_store(home, read_only=True))
    try:
        stats = practice.stats()
    finally:
        practice.close()
    assert stats is not None
    return stats.total_attempts


def _cli(home: Path) -> tuple[float, int]:
    env = {**os.environ, "LNDRILL_HOME": str(home), "NO_COLOR": "1"}
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "lndrill", "stats", "--json"], capture_output=True, text=True,
                          env=env, check=True)
    elapsed = time.perf_counter() - t0
    return elapsed, json.loads(proc.stdout)["total_attempts"]


def _cli_median(home: Path, repeat: int = 3) -> tuple[float, float, int]:
    times, total = [], 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    for _ in range(repeat):
        elapsed, total = _cli(home)
        times.append(elapsed)
    peak_kb = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return statistics.median(times), peak_kb / 1024, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lndrill-bench-") as tmp:
        empty, home = Path(tmp) / "empty", Path(tmp) / "home"
        t0 = time.perf_counter()
        build_history(home, args.attempts)
        size = db_path(home).stat().st_size / 2**20
        print(f"history: {args.attempts:,} answers, {size:,.0f} MB on disk (built in {time.perf_counter() - t0:.0f} s)")

        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            total = _stats_once(home)
            times.append(time.perf_counter() - t0)
        assert total == args.attempts, total
        tracemalloc.start()
        _stats_once(home)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"Practice.stats() in process:  median {statistics.median(times) * 1000:7.0f} ms   "
              f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})   peak Python memory {peak / 2**20:.1f} MB")

        base, base_rss, _ = _cli_median(empty)
        full, full_rss, total = _cli_median(home)
        assert total == args.attempts
        print(f"`lndrill stats --json`, empty history:   median {base * 1000:7.0f} ms   peak RSS {base_rss:.0f} MB")
        print(f"`lndrill stats --json`, {args.attempts:,} answers: median {full * 1000:7.0f} ms   peak RSS {full_rss:.0f} MB"
              f"   (stats itself: {max(0.0, full - base) * 1000:.0f} ms over start-up)")


if __name__ == "__main__":
    main()
