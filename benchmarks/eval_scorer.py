"""How well the scorer agrees with blind expert grades.

Run: python benchmarks/eval_scorer.py [--half frozen|tune] [--set blind|real|calibration|own] [--per-answer] [--ci]

Prints, per card and overall: Spearman rho between grades and scores, mean absolute difference,
mistake precision (fired mistakes whose evidence overlaps an error the graders recorded) and the
false-mistake rate (answers with no recorded error that draw any mistake), plus the highest score of an
adversarial answer and the lowest score of an answer graded >= 85. Then the deck's self-consistency: how
many of the deck's own texts (model answers, claims, mistake explanations) draw a mistake on their own card
or on any other card (must be 0).

`--cross` scores every error-free answer of the set (no recorded error, graded >= 70, not adversarial) against every
OTHER card and counts those that draw a mistake there. A correct statement is correct on any card, and no mistake
recogniser was tuned on another card's answers, so this is a precision check on text the recognisers never saw
(`-v` lists the mistakes, on the tuning half only).

`--ci` adds a 90% bootstrap interval to each rho (answers resampled with replacement, 2,000 times, fixed seed): with
13 answers a card, a card's rho moves by about 0.1 from which answers happened to be drawn, so a card at 0.79 and
one at 0.81 cannot be told apart.

The frozen half (tests/blind/frozen) is for reporting only: nobody reads it while changing the scorer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from lndrill.cards.deck import load_deck
from lndrill.scoring.engine import mistakes_in, score_answer

ROOT = Path(__file__).resolve().parent.parent
BLIND = ROOT / "tests" / "blind"
ADVERSARIAL = {"swapped", "wrong", "keywords", "echo", "offtopic", "negated", "repeated", "junk"}


@dataclass(frozen=True)
class Graded:
    card: str
    id: str
    grade: float
    text: str
    kind: str
    errors: tuple[str, ...]
    has_errors: bool  # False when the set does not record errors


def _load_set(name: str, half: str) -> list[Graded]:
    out: list[Graded] = []
    if name == "blind":
        for p in sorted((BLIND / half).glob("*.yaml")):
            doc = yaml.safe_load(p.read_text("utf-8"))
            for a in doc["answers"]:
                out.append(Graded(doc["card"], a["id"], float(a["grade"]), a["text"], a.get("kind") or "",
                                  tuple(e["quote"] for e in a.get("errors") or ()), True))
    elif name == "real":
        path = BLIND / f"real-{half}.yaml"
        if path.exists():
            doc = yaml.safe_load(path.read_text("utf-8"))
            for a in doc["answers"]:
                out.append(Graded(a["card"], a["id"], float(a["grade"]), a["text"], a.get("kind") or "",
                                  tuple(e["quote"] for e in a.get("errors") or ()), True))
    else:
        sys.path.insert(0, str(ROOT / "tests"))
        from calibration import own_answers, shared_answers

        src = shared_answers() if name == "calibration" else own_answers()
        out = [Graded(g.card, g.id, g.grade, g.text, g.kind, (), False) for g in src]
    return out


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman rank correlation (ties get average ranks); nan when either side is constant."""
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def rho_interval(grades: list[float], scores: list[float], *, runs: int = 2000, level: float = 0.90,
                 seed: int = 0) -> tuple[float, float]:
    """A bootstrap interval for Spearman's rho: answers resampled with replacement `runs` times (resamples where
    either side is constant are skipped); the central `level` share of the rhos."""
    rng = random.Random(seed)
    n = len(grades)
    found = []
    for _ in range(runs):
        pick = [rng.randrange(n) for _ in range(n)]
        r = spearman([grades[i] for i in pick], [scores[i] for i in pick])
        if r == r:
            found.append(r)
    if not found:
        return float("nan"), float("nan")
    found.sort()
    cut = (1.0 - level) / 2.0
    return found[int(cut * (len(found) - 1))], found[int((1.0 - cut) * (len(found) - 1))]


def _error_spans(g: Graded) -> list[tuple[int, int]]:
    spans = []
    for q in g.errors:
        start = g.text.find(q)
        while start >= 0:
            spans.append((start, start + len(q)))
            start = g.text.find(q, start + 1)
    return spans


@dataclass
class Row:
    g: Graded
    score: int
    fired: list[tuple[str, bool]]  # (mistake id, real error?)


def evaluate(graded: list[Graded]) -> list[Row]:
    deck = load_deck()
    rows = []
    for g in graded:
        card = deck.get(g.card)
        if card is None:
            print(f"unknown card {g.card} for {g.id}", file=sys.stderr)
            continue
        r = score_answer(card, g.text)
        errs = _error_spans(g)
        fired = []
        for m in r.mistakes:
            real = any(a < eb and ea < b for a, b in m.spans for ea, eb in errs)
            fired.append((m.id, real))
        rows.append(Row(g, r.score, fired))
    return rows


def _summary(rows: list[Row]) -> dict[str, float]:
    grades = [r.g.grade for r in rows]
    scores = [float(r.score) for r in rows]
    fired = [f for r in rows for f in r.fired]
    clean = [r for r in rows if r.g.has_errors and not r.g.errors]
    adv = [r.score for r in rows if r.g.kind in ADVERSARIAL]
    strong = [r.score for r in rows if r.g.grade >= 85]
    return {
        "n": len(rows),
        "rho": spearman(grades, scores) if len(rows) > 2 else float("nan"),
        "mad": statistics.fmean(abs(a - b) for a, b in zip(grades, scores, strict=True)) if rows else float("nan"),
        "bias": statistics.fmean(b - a for a, b in zip(grades, scores, strict=True)) if rows else float("nan"),
        "fired": len(fired),
        "precision": (sum(real for _, real in fired) / len(fired)) if fired else float("nan"),
        "false_rate": (sum(1 for r in clean if r.fired) / len(clean)) if clean else float("nan"),
        "adv_max": max(adv) if adv else float("nan"),
        "strong_min": min(strong) if strong else float("nan"),
    }


def _fmt(s: dict[str, float], rows: list[Row] | None = None) -> str:
    ci = ""
    if rows is not None and len(rows) > 2:
        lo, hi = rho_interval([r.g.grade for r in rows], [float(r.score) for r in rows])
        ci = f" [{lo:5.3f}, {hi:5.3f}]"
    return (f"n={s['n']:3.0f}  rho={s['rho']:5.3f}{ci}  mad={s['mad']:5.1f}  bias={s['bias']:+5.1f}  "
            f"mistakes={s['fired']:3.0f} precision={s['precision']:4.2f}  false-mistake={s['false_rate']:4.2f}  "
            f"adv-max={s['adv_max']:3.0f}  strong-min={s['strong_min']:3.0f}")


def self_consistency(verbose: bool) -> tuple[int, int, int, int]:
    """(own texts drawing a mistake, own texts, model answers drawing a mistake on another card, pairs)."""
    from lndrill.scoring.selfcheck import deck_texts

    deck = load_deck()
    cards = list(deck.cards.values())
    own = own_n = other = other_n = 0
    for c in cards:
        for name, text in deck_texts(c):
            drawn = mistakes_in(c, text)
            own_n += 1
            if drawn:
                own += 1
                if verbose:
                    print(f"  own   {c.id} {name}: {[m.id for m in drawn]}")
            for c2 in cards:
                if c2 is c:
                    continue
                drawn2 = mistakes_in(c2, text)
                other_n += 1
                if drawn2:
                    other += 1
                    if verbose:
                        print(f"  other {c.id} {name} -> {c2.id}: {[m.id for m in drawn2]}")
    return own, own_n, other, other_n


def _cross_one(item: tuple[str, str]) -> list[tuple[str, str]]:
    own, text = item
    return [(card.id, m.id) for card in load_deck().cards.values() if card.id != own
            for m in score_answer(card, text).mistakes]


def cross_card(graded: list[Graded], verbose: bool) -> tuple[int, int, int]:
    """(error-free answers drawing a mistake on another card, error-free answers, card pairs drawing one)."""
    import collections
    import multiprocessing
    import os

    clean = [(g.card, g.text) for g in graded if g.has_errors and not g.errors and g.grade >= 70 and not g.kind]
    with multiprocessing.Pool(max(1, min(4, os.cpu_count() or 1))) as pool:
        found = pool.map(_cross_one, clean, chunksize=16)
    if verbose:
        for (card, mistake), n in collections.Counter(x for f in found for x in f).most_common():
            print(f"    {n:4d}  {card} {mistake}")
    return sum(1 for f in found if f), len(clean), sum(len(f) for f in found)


def main(argv: list[str] | None = None) -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=["frozen", "tune"], default="frozen")
    ap.add_argument("--set", choices=["blind", "real", "calibration", "own"], default="blind", dest="which")
    ap.add_argument("--per-answer", action="store_true", help="one line per answer (tuning half only)")
    ap.add_argument("--no-self", action="store_true", help="skip the self-consistency check")
    ap.add_argument("--ci", action="store_true", help="a 90%% bootstrap interval after each rho")
    ap.add_argument("--cross", action="store_true",
                    help="also score the error-free answers against every other card (a precision check)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the deck texts that draw mistakes")
    ap.add_argument("--card", action="append", default=[], metavar="ID",
                    help="only this card's answers (repeatable); ALL is then over those cards")
    args = ap.parse_args(argv)
    if args.per_answer and args.half == "frozen" and args.which in ("blind", "real"):
        ap.error("--per-answer only on the tuning half: the frozen half is read by nobody")
    graded = _load_set(args.which, args.half)
    if args.card:
        unknown = sorted(set(args.card) - {g.card for g in graded})
        if unknown:
            ap.error(f"no answers for card(s) {', '.join(unknown)} in this set")
        graded = [g for g in graded if g.card in args.card]
    rows = evaluate(graded)
    print(f"{args.which} set, {args.half} half" if args.which in ("blind", "real") else f"{args.which} set")
    for card in sorted({r.g.card for r in rows}):
        sub = [r for r in rows if r.g.card == card]
        print(f"  {card:24s} {_fmt(_summary(sub), sub if args.ci else None)}")
    print(f"  {'ALL':24s} {_fmt(_summary(rows), rows if args.ci else None)}")
    if args.per_answer:
        for r in sorted(rows, key=lambda r: r.score - r.g.grade):
            print(f"    {r.g.id:32s} grade {r.g.grade:5.1f} score {r.score:3d}  {r.g.kind:8s} "
                  f"{' '.join(m + ('' if real else '(FALSE)') for m, real in r.fired)}")
    if args.cross:
        hit, n, pairs = cross_card(graded, args.verbose and args.half == "tune")
        print(f"cross-card: {hit} of {n} error-free answers draw a mistake on another card ({pairs} mistakes)")
    if not args.no_self:
        own, own_n, other, other_n = self_consistency(args.verbose)
        print(f"self-consistency: {own} of {own_n} deck texts draw a mistake on their own card; "
              f"{other} of {other_n} on another card")


if __name__ == "__main__":
    main()
