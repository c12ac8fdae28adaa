"""Which answers a scorer change moves: score the tuning half (and any merged blind or real sets) and compare runs.

  python benchmarks/scorer_diff.py save base                      # before the change: every answer's score and mistakes
  python benchmarks/scorer_diff.py save new --sets W/merged.yaml  # after it (a merged batch or real set may be added)
  python benchmarks/scorer_diff.py diff base new                  # the answers whose score or mistakes moved

Runs are kept in the system's temporary directory (scorer_diff_NAME.json). Each run also prints the summary per set
(rho, mean absolute difference, bias, precision of charged mistakes, error-free answers charged, adversarial max,
strong min). Never pass a held-out set you have not scored yet: reading what moved is reading the set.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_scorer import ADVERSARIAL, Graded, _load_set, evaluate, spearman  # noqa: E402


def _run_path(name: str) -> Path:
    return Path(tempfile.gettempdir()) / f"scorer_diff_{name}.json"


def _load_extra(path: Path) -> list[Graded]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = doc["answers"] if isinstance(doc, dict) else doc
    tag = f"{path.parent.name}/{path.stem}"
    return [Graded(a["card"], f"{tag}:{a['id']}", float(a["grade"]), a["text"], a.get("kind") or "",
                   tuple(e["quote"] if isinstance(e, dict) else str(e) for e in a.get("errors") or ()), True)
            for a in items]


def _score(part: list[Graded]) -> list[dict[str, object]]:
    return [{"id": r.g.id, "card": r.g.card, "grade": r.g.grade, "kind": r.g.kind, "score": r.score,
             "mistakes": [m for m, _ in r.fired], "real": [x for _, x in r.fired], "has_errors": bool(r.g.errors)}
            for r in evaluate(part)]


def _summary(name: str, rows: list[dict]) -> str:
    grades = [r["grade"] for r in rows]
    scores = [float(r["score"]) for r in rows]
    fired = [x for r in rows for x in r["real"]]
    clean = [r for r in rows if not r["has_errors"]]
    adv = [r["score"] for r in rows if r["kind"] in ADVERSARIAL]
    strong = [r["score"] for r in rows if r["grade"] >= 85]
    return (f"{name:24s} n={len(rows):5d} rho={spearman(grades, scores):.3f} "
            f"mad={statistics.fmean(abs(a - b) for a, b in zip(grades, scores, strict=True)):.2f} "
            f"bias={statistics.fmean(b - a for a, b in zip(grades, scores, strict=True)):+.2f} "
            f"precision={(sum(fired) / len(fired)) if fired else float('nan'):.3f} ({len(fired)}) "
            f"clean-charged={sum(1 for r in clean if r['mistakes'])}/{len(clean)} "
            f"adv-max={max(adv) if adv else '-'} strong-min={min(strong) if strong else '-'}")


def save(name: str, sets: list[Path], workers: int) -> None:
    graded = list(_load_set("blind", "tune")) + [g for p in sets for g in _load_extra(p)]
    parts = [graded[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        rows = [r for part in pool.map(_score, parts) for r in part]
    _run_path(name).write_text(json.dumps(rows), encoding="utf-8")
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(str(r["id"]).split(":")[0] if ":" in str(r["id"]) else "tuning half", []).append(r)
    for group, members in groups.items():
        print(_summary(group, members))


def diff(old: str, new: str) -> None:
    before = {r["id"]: r for r in json.loads(_run_path(old).read_text(encoding="utf-8"))}
    moved = 0
    for r in json.loads(_run_path(new).read_text(encoding="utf-8")):
        b = before.get(r["id"])
        if b is None or (b["score"] == r["score"] and b["mistakes"] == r["mistakes"]):
            continue
        moved += 1
        print(f"{r['id']:44s} grade {r['grade']:5.1f}  {b['score']:3d} -> {r['score']:3d}  {b['mistakes']} -> {r['mistakes']}")
    print(f"{moved} answers moved")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save", help="score the tuning half (and --sets) and keep the run under NAME")
    s.add_argument("name")
    s.add_argument("--sets", type=Path, nargs="*", default=[], help="merged blind batches or real sets to add")
    s.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    d = sub.add_parser("diff", help="answers whose score or mistakes differ between two saved runs")
    d.add_argument("old")
    d.add_argument("new")
    a = ap.parse_args(argv)
    if a.cmd == "save":
        save(a.name, a.sets, max(1, a.workers))
    else:
        diff(a.old, a.new)


if __name__ == "__main__":
    main()
