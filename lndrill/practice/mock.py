"""A mock interview without Textual: the options, the picked cards, each question as it went, the
follow-up questions, and the countdown's text and colour.

The clock is injected (monotonic seconds in the app, a fake in tests); nothing here counts ticks.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from lndrill.cards.schema import Card
from lndrill.practice.report import MockQuestion
from lndrill.practice.submission import Submission

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
    #: The interview was ended before every picked card was asked (the report says so).
    ended_early: bool = False
    #: One line when fewer cards could be picked than questions asked for (told at the start and reported).
    notice: str | None = None

    def follow_up(self, index: int, lang: str) -> str | None:
        """The interviewer's follow-up for question `index` (one of the card's, chosen by the seed)."""
        card = self.cards[index]
        if not card.follow_ups:
            return None
        pick = random.Random(f"{self.seed}:{card.id}").randrange(len(card.follow_ups))
        return card.follow_ups[pick].get(lang).strip()

    def answered(self, index: int, answers: dict[str, str], used_s: float, submission: Submission | None) -> None:
        """Question `index` was submitted after `used_s` seconds (`submission` None: not answered or not
        scored)."""
        result = submission.result if submission is not None else None
        self.questions.append(MockQuestion(self.cards[index], result, used_s, answers, self.options.limit_s))
        self.attempt_ids.append(submission.attempt_id if submission is not None else None)

    def followed_up(self, index: int, question: str, text: str) -> None:
        """The follow-up `question` of question `index` was answered with `text` (shown in the report)."""
        q = self.questions[index]
        self.questions[index] = replace(q, answers={**q.answers, f"Follow-up: {question}": text})

    def end_early(self) -> None:
        """The interview ended before every card was asked: the report has only the questions asked (and
        says that it ended early); the cards never asked are neither scored nor counted."""
        if len(self.questions) < len(self.cards):
            self.ended_early = True


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
