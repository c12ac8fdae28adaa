"""Calibrate each card's point weights and mistake penalties to the blind graders.

Run: python benchmarks/fit_weights.py [--write] [--card ID ...]

The recognisers decide WHAT an answer says; the weights decide how much each part is worth. The authors'
weights were guesses, and blind graders value some parts differently (a Sandwich-LN formula more, a side
remark less). This script scores every answer of the tuning half (tests/blind/tune) with the current
scorer, then, per card, finds a multiplier for each point weight (between MIN_W and MAX_W times the
author's weight) and one for all of the card's mistake penalties (MIN_PEN to MAX_PEN) that bring

    score = scale(clip(sum of the weights of the points hit - penalties, 0, 100)) + specifics + form   (weights rescaled to 100)
    at most the error cap (ERROR_CAP_*) when the answer was charged a mistake

(scale: the interviewer's scale the scorer reports totals on, lndrill.scoring.result.INTERVIEWER_SCALE)

closest to the graders' grades (least squares, with a ridge pulling every multiplier toward 1, solved by
projected gradient descent). Only the recognisers' hits and charges enter, never the answers' words. Our own
graded answers (tests/answers) join the fit, and those graded 85 or more are held at a score of 80 or more.

It prints a held-out check first: the fit made WITHOUT the newest batches, scored on them (the newest
batches are the least tuned, so this is the honest estimate of what the fit does for unseen text), then the
weights fitted on all of the tuning half. `--write` puts those into lndrill/content (only the numbers after
`weight:` and `penalty:` change; comments and layout stay). The frozen half is never read.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from lndrill.cards.deck import load_deck
from lndrill.cards.schema import Card
from lndrill.scoring.engine import score_answer
from lndrill.scoring.result import (
    ERROR_CAP_BASE,
    ERROR_CAP_SLOPE,
    ERROR_CAP_STEP,
    FORM_FLOOR,
    INTERVIEWER_SCALE,
    NOTES_CUT,
    SPECIFICS_FROM,
    SPOKEN_CUT,
    specifics_adjustment,
)

ROOT = Path(__file__).resolve().parent.parent
TUNE = ROOT / "tests" / "blind" / "tune"
#: Our own graded answers (tests/answers): fitted along with the blind ones, never held out, so the fit keeps
#: what they check (tests/test_scoring_graded.py: an answer graded >= 85 scores >= 80).
OWN = ROOT / "tests" / "answers"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_scorer import spearman  # noqa: E402

#: Bounds on the multipliers: a point keeps at least 60% of its author's weight and gets at most 2x;
#: a card's penalties move between half and double.
MIN_W, MAX_W = 0.6, 2.0
MIN_PEN, MAX_PEN = 0.5, 2.0
#: Ridge on the log-multipliers (squared-error units: grade points squared).
RIDGE = 3.0
_NEXT_ITEM = re.compile(r"^\s*- id:")
#: The guard on our own strong answers: graded >= STRONG must score >= FLOOR (with a point to spare), at GUARD
#: times the cost of an ordinary squared error.
STRONG, FLOOR, GUARD = 85.0, 80.0, 1000.0
#: Points to spare above FLOOR in the fit: the written weights are rounded to whole numbers, which moves a total by
#: a point or two.
MARGIN = 3.0
#: Batches (the letter of an answer id's suffix, "-t03") held out for the check.
HELD_OUT = 2


@dataclass
class CardData:
    card: Card
    ids: list[str]
    batches: list[str]
    hits: np.ndarray  # answers x points, 0/1
    pen: np.ndarray  # answers: charged penalties on the 100-point scale of the current weights
    grades: np.ndarray
    spec: np.ndarray  # answers: the specifics adjustment a complete answer would get (0 for one with a mistake)
    cut: np.ndarray  # answers: what its form would take off a complete answer (`ScoreResult.form`, before the floor)
    nmis: np.ndarray  # answers: the number of mistakes charged (an answer with any is capped, see ERROR_CAP_*)


OWN_BATCH = "own"


def _batch(answer_id: str) -> str:
    m = re.search(r"-([a-z]+)\d\d$", answer_id)
    return m.group(1) if m else "a"


def collect(card_ids: set[str] | None) -> list[CardData]:
    deck = load_deck()
    out = []
    own: dict[str, list[dict]] = {}
    for path in sorted(OWN.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text("utf-8"))
        own.setdefault(doc["card"], []).extend(doc["answers"])
    for path in sorted(TUNE.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text("utf-8"))
        card = deck.get(doc["card"])
        if card is None or (card_ids and card.id not in card_ids):
            continue
        points = [p.id for p in card.points()]
        ids, batches, hits, pen, grades, spec, cut, nmis = [], [], [], [], [], [], [], []
        for a in doc["answers"] + [dict(x, own=True) for x in own.get(card.id, [])]:
            r = score_answer(card, a["text"])
            hit = {p.id: p.hit for s in r.sections for p in s.points}
            ids.append(a["id"])
            batches.append(OWN_BATCH if a.get("own") else _batch(a["id"]))
            hits.append([1.0 if hit[p] else 0.0 for p in points])
            pen.append(100 * r.penalty / r.max if r.max else 0.0)
            grades.append(float(a["grade"]))
            spec.append(0.0 if r.mistakes else float(specifics_adjustment(r.values)))
            cut.append(0.0 if r.mistakes else float(NOTES_CUT * r.written.notes + SPOKEN_CUT * r.written.spoken))
            nmis.append(float(len(r.mistakes)))
        out.append(CardData(card, ids, batches, np.array(hits), np.array(pen), np.array(grades), np.array(spec),
                            np.array(cut), np.array(nmis)))
    return out


def _weights(base: np.ndarray, theta: np.ndarray) -> np.ndarray:
    u = base * np.exp(theta)
    return 100 * u / u.sum()


_XS = np.array([x for x, _ in INTERVIEWER_SCALE], float)
_YS = np.array([y for _, y in INTERVIEWER_SCALE], float)
_SLOPES = np.diff(_YS) / np.diff(_XS)


def _scale(share: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The interviewer's scale at each rubric share (0-100), and its slope there."""
    segment = np.clip(np.searchsorted(_XS, share, side="right") - 1, 0, len(_SLOPES) - 1)
    return np.interp(share, _XS, _YS), _SLOPES[segment]


def _cap(earned: np.ndarray, nmis: np.ndarray) -> np.ndarray:
    """The total's cap for answers with mistakes (`lndrill.scoring.result.error_cap`); +inf for the others."""
    cap = ERROR_CAP_BASE + ERROR_CAP_SLOPE * np.clip(earned, 0, 100) - ERROR_CAP_STEP * (nmis - 1)
    return np.where(nmis > 0, cap, np.inf)


def _adjusted(scaled: np.ndarray, share: np.ndarray, spec: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """The scaled share plus `specifics` and `form` for a complete answer (`ScoreResult.uncapped`)."""
    complete = share >= SPECIFICS_FROM
    total = scaled + np.where(complete, spec, 0.0)
    return total - np.where(complete, np.minimum(cut, np.maximum(0.0, total - FORM_FLOOR)), 0.0)


def predict(hits: np.ndarray, pen: np.ndarray, weights: np.ndarray, k: float, spec: np.ndarray, cut: np.ndarray,
            nmis: np.ndarray) -> np.ndarray:
    earned = hits @ weights
    share = np.clip(earned - k * pen, 0, 100)
    total = np.clip(_adjusted(_scale(share)[0], share, spec, cut), 0, 100)
    return np.minimum(total, np.maximum(_cap(earned, nmis), 0))


def fit(data: CardData, rows: np.ndarray, steps: int = 3000, lr: float = 0.02) -> tuple[np.ndarray, float]:
    """Fitted weights (summing to 100) and penalty multiplier from the answers in `rows` (a boolean mask)."""
    base = np.array([p.weight for p in data.card.points()], float)
    h, p, y, sp, ct, nm = (data.hits[rows], data.pen[rows], data.grades[rows], data.spec[rows], data.cut[rows],
                           data.nmis[rows])
    n = max(len(y), 1)
    # Our own answers graded >= STRONG must keep scoring >= FLOOR (the test suite checks it): a steep extra
    # cost on any shortfall, so the fit bends around them instead of dropping a complete-but-terse answer.
    guard = (np.array([b == OWN_BATCH for b in data.batches])[rows]) & (y >= STRONG)
    theta = np.zeros(len(base))
    t_k = 0.0
    lo, hi = np.log(MIN_W), np.log(MAX_W)
    klo, khi = np.log(MIN_PEN), np.log(MAX_PEN)
    # Adam on the log-multipliers, projected onto the bounds after every step
    m = np.zeros(len(base) + 1)
    v = np.zeros(len(base) + 1)
    for step in range(1, steps + 1):
        w = _weights(base, theta)
        k = float(np.exp(t_k))
        earned = h @ w
        s = earned - k * p
        scaled, slope = _scale(np.clip(s, 0, 100))
        total = _adjusted(scaled, s, sp, ct)  # (the form's floor is taken as fixed in the gradient)
        cap = _cap(earned, nm)
        capped = cap < total  # there the total follows the cap: it moves with the points hit, not the penalties
        e = np.where(capped, cap, total) - y
        short = guard & (s < FLOOR + MARGIN)
        g_pred = (2 * e * slope + GUARD * 2 * (s - FLOOR - MARGIN) * short) * ((s > 0) & (s < 100)) * ~capped / n
        g_w = h.T @ (g_pred + 2 * e * ERROR_CAP_SLOPE * capped / n)
        g_theta = w * (g_w - (g_w @ w) / 100) + 2 * RIDGE * theta
        g_k = float(g_pred @ (-k * p)) + 2 * RIDGE * t_k
        g = np.append(g_theta, g_k)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        d = lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        theta = np.clip(theta - d[:-1], lo, hi)
        t_k = float(np.clip(t_k - d[-1], klo, khi))
    return _weights(base, theta), float(np.exp(t_k))


def _figures(grades: list[float], scores: list[float]) -> str:
    mad = statistics.fmean(abs(a - b) for a, b in zip(grades, scores, strict=True))
    return f"rho {spearman(grades, scores):.3f}  MAD {mad:4.1f}"


def newest_batches(batch_lists: list[list[str]], n: int) -> set[str]:
    """The n batches that joined the tuning half last. Each card's file lists its answers in the order their batches
    joined it (blind_batch.py appends), so that order, not the suffixes' alphabetical one, tells which are newest:
    the suffixes ran a, b, ..., z, za, ..., zz and then xa, xb, ... (`OWN_BATCH` is never one)."""
    places: dict[str, list[float]] = {}
    for batches in batch_lists:
        order = list(dict.fromkeys(b for b in batches if b != OWN_BATCH))
        for i, b in enumerate(order):  # (a batch's place in each card's order, 0 first to 1 last, averaged)
            places.setdefault(b, []).append(i / max(len(order) - 1, 1))
    rank = {b: sum(p) / len(p) for b, p in places.items()}
    return set(sorted(rank, key=lambda b: rank[b])[-n:]) if n > 0 else set()


def held_out_check(cards: list[CardData]) -> None:
    test = newest_batches([c.batches for c in cards], HELD_OUT)
    grades: list[float] = []
    before: list[float] = []
    after: list[float] = []
    for c in cards:
        train = np.array([b not in test for b in c.batches])
        w, k = fit(c, train)
        base = np.array([p.weight for p in c.card.points()], float)
        old = predict(c.hits, c.pen, 100 * base / base.sum(), 1.0, c.spec, c.cut, c.nmis)
        new = predict(c.hits, c.pen, w, k, c.spec, c.cut, c.nmis)
        grades += list(c.grades[~train])
        before += list(np.round(old[~train]))
        after += list(np.round(new[~train]))
    print(f"Held-out check: fitted without blind batches {', '.join(sorted(test))}, scored on their {len(grades)} answers")
    print(f"  author weights: {_figures(grades, before)}")
    print(f"  fitted weights: {_figures(grades, after)}")


def _integers(weights: np.ndarray) -> list[int]:
    """Whole weights, at least 1, summing to 100 (largest remainders get the spare units)."""
    floor = np.maximum(np.floor(weights), 1).astype(int)
    spare = 100 - int(floor.sum())
    order = np.argsort(-(weights - np.floor(weights)))
    for i in order[: max(spare, 0)]:
        floor[i] += 1
    return [int(x) for x in floor]


def write(card: Card, weights: list[int], k: float) -> int:
    """Rewrite the numbers after `weight:` (each point) and `penalty:` (each mistake) in the card's file."""
    path = card.path or ROOT / "lndrill" / "content" / f"{card.id}.yaml"
    lines = path.read_text("utf-8").splitlines(keepends=True)
    old_total = sum(p.weight for p in card.points())
    changed = 0

    def set_number(start: int, key: str, value: int) -> None:
        nonlocal changed
        pat = re.compile(rf"^(\s*{key}:\s*)(\d+(?:\.\d+)?)(.*)$", re.S)
        for i in range(start, len(lines)):
            if i > start and _NEXT_ITEM.match(lines[i]):
                break  # the next point or mistake: this one has no number of its own
            m = pat.match(lines[i])
            if m:
                if m.group(2) != str(value):
                    lines[i] = f"{m.group(1)}{value}{m.group(3)}"
                    changed += 1
                return
        raise SystemExit(f"{path}: no '{key}:' after line {start + 1}")

    for point, w in zip(card.points(), weights, strict=True):
        set_number(point.line - 1, "weight", w)
        for mistake in point.mistakes:
            # the same share of the card's total as before, times the fitted multiplier
            set_number(mistake.line - 1, "penalty", max(1, round(k * mistake.penalty * 100 / old_total)))
    path.write_text("".join(lines), "utf-8")
    return changed


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write the fitted weights and penalties into lndrill/content")
    ap.add_argument("--card", action="append", default=[], metavar="ID", help="only this card (repeatable)")
    args = ap.parse_args(argv)
    cards = collect(set(args.card) or None)
    if not cards:
        raise SystemExit("no tuning answers found for the cards asked for")
    n_own = sum(b == OWN_BATCH for c in cards for b in c.batches)
    print(f"{sum(len(c.ids) for c in cards) - n_own} blind tuning answers and {n_own} of our own, {len(cards)} cards")
    held_out_check(cards)
    print("Fitted on the whole tuning half (author weight -> fitted; penalties x multiplier):")
    for c in cards:
        w, k = fit(c, np.ones(len(c.ids), bool))
        ints = _integers(w)
        pairs = " ".join(f"{p.id}:{p.weight:g}>{x}" for p, x in zip(c.card.points(), ints, strict=True))
        print(f"  {c.card.id:24s} penalties x{k:.2f}  {pairs}")
        if args.write:
            print(f"    {write(c.card, ints, k)} numbers changed")


if __name__ == "__main__":
    main()
