"""Helpers shared by the tests (this is not a test module: tests import from here, never from each other).

pytest puts this directory on `sys.path` (rootdir-relative "prepend" import mode, no `__init__.py`), so a
test module imports these with `from helpers import ...`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from lndrill.cards.schema import Card
    from lndrill.scoring.result import ScoreResult
    from lndrill.store import Store

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------- answers
#: A fixed moment for history tests.
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

GOOD = ("Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x)). In Pre-LN the residual path is an identity, "
        "so the gradient reaches early layers unchanged; in Post-LN every gradient passes through LN. "
        "Post-LN needs warm-up; Pre-LN usually does not. Post-LN often reaches better final quality.")
POOR = "LayerNorm normalises activations."

#: Answers typed into the main card's sections in the app tests.
FORMULAS = "Post-LN: y = LN(x + F(x)). Pre-LN: y = x + F(LN(x))."
BACKPROP = "Post-LN needs warm-up: at init the gradients near the output are large."
#: A complete DeepNorm answer that cites many concrete values and makes no mistake (specifics, error cap tests).
DEEPNORM_COMPLETE = (
    "DeepNorm: x_{l+1} = LN(alpha x_l + G(x_l)), alpha = (2N)^(1/4), beta = (8N)^(-1/4) for encoder-only with N "
    "layers; decoder-only uses M: (2M)^(1/4), (8M)^(-1/4). Beta scales the FFN, value and output projections at "
    "init; Q and K are left alone. It is Post-LN with an up-weighted residual, so the model update stays bounded "
    "(O(1)) at any depth: Post-LN quality with Pre-LN-like stability. DeepNet trained 1000 layers (500+500), "
    "beating a 48-layer model by 5 BLEU on OPUS-100 (7482 directions); GLM-130B uses DeepNorm with "
    "alpha = (2N)^(1/2).")


def scored(card: Card, text: str) -> ScoreResult:
    """The scorer's result for `text` on `card`."""
    from lndrill.scoring.engine import score_answer

    return score_answer(card, text)


def hand_scored(card: Card, hits: Iterable[str], card_id: str | None = None) -> ScoreResult:
    """A result built by hand (no scorer): the points in `hits` hit, every other point missed, no mistakes.

    Tests whose expected output must not move when the scorer is tuned use this instead of `scored`.
    """
    from lndrill.scoring.result import PointResult, ScoreResult, SectionResult

    hit = set(hits)
    sections = tuple(
        SectionResult(s.id, s.title, tuple(PointResult(p.id, p.claim, p.weight, p.id in hit) for p in s.points))
        for s in card.sections
    )
    return ScoreResult(card_id or card.id, sections, ())


# ---------------------------------------------------------------------------------------------- the app
class FakeClock:
    """A monotonic clock the test moves by hand (`clock.now += 42`)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def settle(pilot: Any) -> None:
    """Let pushed screens mount, wait for their workers (simulator runs), then let the results paint."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def static_text(widget: Any) -> str:
    """The plain text a Static shows (Rich renderables rendered at the widget's width)."""
    from rich.console import Console

    content = widget.content
    if isinstance(content, str):
        return content
    console = Console(file=io.StringIO(), width=max(widget.size.width, 40), record=True, color_system=None)
    console.print(content, soft_wrap=True)
    return console.export_text().rstrip("\n")


# ---------------------------------------------------------------------------------------------- stats
#: Two small cards of our own (tests/fixtures/stats-deck), so the stats golden file never moves with
#: the bundled deck; and the moment the golden output was taken.
STATS_DECK_DIR = HERE / "fixtures" / "stats-deck"
STATS_GOLDEN = HERE / "fixtures" / "stats-golden.json"
STATS_NOW = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)


def write_stats_history(store: Store, cards: dict[str, Card]) -> None:
    """A fixed history on the stats deck: reviews, an overruled point, a cram answer (no review), a card
    that has left the deck, and non-ASCII titles. Scores are built by hand, never by the scorer."""
    alpha, beta = cards["alpha"], cards["beta"]
    now = STATS_NOW
    plan: list[tuple[Card, str | None, set[str], timedelta, bool]] = [
        (alpha, None, {"post-formula"}, timedelta(days=10), True),
        (alpha, None, {"post-formula", "pre-formula", "warmup"}, timedelta(days=9), True),
        (beta, None, {"no-mean"}, timedelta(days=5), True),
        (alpha, "retired-card", {"warmup"}, timedelta(days=3), True),
        (beta, None, set(), timedelta(days=2), False),
        (alpha, None, {"post-formula", "pre-formula", "warmup"}, timedelta(hours=1), True),
    ]
    for i, (card, other_id, hits, ago, review) in enumerate(plan):
        result = hand_scored(card, hits, other_id)
        card_id = other_id or card.id
        at = now - ago
        attempt = store.record_attempt(card_id, "drill", {"answer": f"answer {i}"}, result, 30.0 + i,
                                       started_at=at - timedelta(seconds=30 + i), now=at)
        if review:
            store.review(card_id, result.score, 30.0 + i, now=at, attempt_id=attempt)
        if i == 1:  # the user overrules one point of the perfect answer
            store.update_overrides(attempt, {"warmup": False}, result.overrule("warmup", False).score)


# ---------------------------------------------------------------------------------------------- graded answers
OWN_ANSWERS_DIR = HERE / "answers"
SHARED_CALIBRATION_DIR = HERE.parent.parent / "shared" / "calibration"


@dataclass(frozen=True)
class Graded:
    """One graded answer."""

    card: str
    id: str
    grade: float
    text: str
    kind: str  # "", or an adversarial kind: swapped, negated, keywords, offtopic, repeated, junk


def _tolerant(path: Path) -> list[Graded]:
    """The shared calibration file is not always strict YAML (a `why:` line may contain ': '): a small
    line-based reader of the same layout."""
    lines = path.read_text("utf-8").splitlines()
    card = ""
    out: list[Graded] = []
    cur: dict[str, str] = {}
    text_lines: list[str] | None = None

    def flush() -> None:
        if cur.get("id") and text_lines is not None:
            body = "\n".join(x[6:] if x.startswith("      ") else x.strip() for x in text_lines).strip() + "\n"
            out.append(Graded(card, cur["id"], float(cur.get("grade", 0)), body, cur.get("kind", "")))

    for line in lines:
        m = re.match(r"^card:\s*(\S+)", line)
        if m:
            card = m.group(1)
            continue
        m = re.match(r"^  - id:\s*(\S+)", line)
        if m:
            flush()
            cur, text_lines = {"id": m.group(1)}, None
            continue
        if text_lines is not None:
            if line.startswith("      ") or not line.strip():
                text_lines.append(line)
                continue
            flush()
            text_lines = None
        m = re.match(r"^    (grade|kind):\s*(.+)$", line)
        if m:
            cur[m.group(1)] = m.group(2).strip()
        elif re.match(r"^    text:\s*\|", line):
            text_lines = []
    flush()
    return out


def load_graded(path: Path) -> list[Graded]:
    """Graded answers from one file (strict YAML first, tolerant reader second)."""
    try:
        doc = yaml.safe_load(path.read_text("utf-8"))
        return [Graded(doc["card"], str(a["id"]), float(a["grade"]), a["text"], a.get("kind", "") or "")
                for a in doc["answers"]]
    except yaml.YAMLError:
        return _tolerant(path)


def shared_answers() -> list[Graded]:
    """Every answer in ../shared/calibration (empty when that folder is absent)."""
    if not SHARED_CALIBRATION_DIR.is_dir():
        return []
    return [g for p in sorted(SHARED_CALIBRATION_DIR.glob("*.yaml")) for g in load_graded(p)]


def own_answers() -> list[Graded]:
    """Every answer in tests/answers/."""
    return [g for p in sorted(OWN_ANSWERS_DIR.glob("*.yaml")) for g in load_graded(p)]
