"""The mock interview's state, without Textual: the options, the picked cards, each question as it went,
the countdown text, and saving the report.

The clock is injected (monotonic seconds in the app, a fake in tests); nothing here counts ticks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from lndrill.cards.schema import Card
from lndrill.store.report import MockQuestion

#: Defaults of `lndrill mock`: 3 questions, 5 minutes each; the follow-up gets its own short clock.
DEFAULT_QUESTIONS = 3
DEFAULT_MINUTES = 5.0
FOLLOW_UP_SECONDS = 90.0
#: The countdown turns amber at this many seconds left, and red at DANGER_S.
WARN_S = 60.0
DANGER_S = 10.0
#: The answers key under which a follow-up answer is stored with the question's attempt.
FOLLOW_UP_KEY = "follow-up"


@dataclass(frozen=True)
class MockOptions:
    """`lndrill mock [--questions K] [--minutes M] [--tag T] [--seed S] [--report FILE]`."""

    questions: int = DEFAULT_QUESTIONS
    minutes: float = DEFAULT_MINUTES
    tag: str | None = None
    seed: int | None = None
    report: Path | None = None
    follow_up_seconds: float = FOLLOW_UP_SECONDS

    @property
    def limit_s(self) -> float:
        """Seconds per question."""
        return self.minutes * 60.0


@dataclass
class MockSession:
    """One mock interview: the cards asked (in order), and each question as it went."""

    options: MockOptions
    cards: list[Card]
    started_at: datetime
    seed: int
    questions: list[MockQuestion] = field(default_factory=list)
    attempt_ids: list[int | None] = field(default_factory=list)
    report_paths: list[Path] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Every card has its question recorded."""
        return len(self.questions) >= len(self.cards)

    def follow_up(self, index: int, lang: str) -> str | None:
        """The interviewer's follow-up for question `index` (one of the card's, chosen by the seed)."""
        card = self.cards[index]
        if not card.follow_ups:
            return None
        pick = random.Random(f"{self.seed}:{card.id}").randrange(len(card.follow_ups))
        return card.follow_ups[pick].get(lang).strip()


def new_seed() -> int:
    """A seed for a mock started without `--seed` (printed in the report, so it can be repeated)."""
    return random.SystemRandom().randrange(1, 100_000)


def clock_text(remaining: float) -> str:
    """mm:ss, rounded up (0:00 shows only when time is up)."""
    s = max(0, math.ceil(remaining - 1e-9))
    return f"{s // 60:02d}:{s % 60:02d}"


def clock_level(remaining: float) -> str:
    """"ok", "warn" (at 60 s or less) or "danger" (at 10 s or less)."""
    if remaining <= DANGER_S:
        return "danger"
    if remaining <= WARN_S:
        return "warn"
    return "ok"


def add_answer_text(store, attempt_id: int, key: str, text: str) -> None:  # noqa: ANN001 - a Store
    """Add one more answer text (the follow-up) to a stored attempt, in its own transaction."""
    store.add_answer(attempt_id, key, text)


def save_report(text: str, data_dir: Path | None, extra: Path | None, now: datetime) -> tuple[list[Path], str | None]:
    """Save the report in the data directory (and to `extra`); the paths written and a one-line error."""
    from lndrill.store.paths import data_dir as default_dir
    from lndrill.store.report import report_filename, write_mock_report

    try:
        return write_mock_report(text, data_dir or default_dir(), extra_path=extra, now=now), None
    except OSError as exc:
        error = f"could not save the report: {' '.join(str(exc).split())}"
    if extra is None:
        return [], error
    target = Path(extra).expanduser()
    if target.is_dir():
        target = target / report_filename(now)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        return [], f"could not save the report: {' '.join(str(exc).split())}"
    return [target], error


def answered(questions: Sequence[MockQuestion]) -> int:
    """How many questions got an answer."""
    return sum(1 for q in questions if q.result is not None)
