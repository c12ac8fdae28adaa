"""lndrill.practice: the headless practice workflow between the interfaces (tui, cli) and the history
(store): submitting and overruling answers, drafts, review order, mock interviews and their reports,
statistics. Never imports textual.

    practice = Practice(load_deck(), user_history())
    submission = practice.submit(card, {"answer": text})
"""

from lndrill.practice.mock import MockOptions, MockSession
from lndrill.practice.service import MockReport, Practice, PracticeError, user_history
from lndrill.practice.stats import Stats
from lndrill.practice.submission import Overrules, Submission

__all__ = [
    "MockOptions", "MockReport", "MockSession", "Overrules", "Practice", "PracticeError", "Stats", "Submission",
    "user_history",
]
