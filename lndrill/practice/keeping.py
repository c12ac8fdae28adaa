"""Answers the history could not take this session, kept in the pending directory (`lndrill.store.pending`)
until it can: written once when submitted, rewritten when the user overrules a point or answers the
follow-up, so the file always holds what the user did.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from pathlib import Path

from lndrill.practice.mock import FOLLOW_UP_KEY
from lndrill.scoring.result import ScoreResult
from lndrill.store import KeptAnswer, Store, pending
from lndrill.store.faults import one_line, reason
from lndrill.store.paths import data_dir
from lndrill.store.results import result_rows


def home_of(store: Store | None) -> Path:
    """The data directory whose pending directory takes answers the store could not."""
    if store is not None and store.kept_in is not None:
        return store.kept_in
    if store is not None and store.path is not None:
        return store.path.parent
    return data_dir()


class KeptAnswers:
    """The answers kept this session: file -> (record, the scorer's result); attempt id -> file for
    answers also held by a stand-in store in memory (their follow-up goes to the file too)."""

    def __init__(self, tell: Callable[[str], None]) -> None:
        self._tell = tell
        self._records: dict[Path, tuple[KeptAnswer, ScoreResult | None]] = {}
        self._by_attempt: dict[int, Path] = {}

    def keep(self, store: Store | None, answer: KeptAnswer, scored: ScoreResult | None,
             problem: BaseException | None, replaces: int | None = None) -> Path | None:
        """Keep `answer` (scored `scored`, None if the scorer failed); tell `problem` in one line with where
        the answer went, or why it could not be kept. The kept file, or None."""
        record = replace(answer, result=result_rows(scored) if scored is not None else None, replaces=replaces)
        cause = f"{one_line(problem)}; " if problem is not None else ""
        try:
            path = pending.keep(home_of(store), record)
        except OSError as exc:
            if problem is None:  # the history stands in memory for this session
                self._tell(f"lndrill: could not keep your answer ({reason(exc)}): it is in this session only")
            else:
                self._tell(f"{cause}your answer could not be kept either ({reason(exc)}): it is not saved")
            return None
        self._records[path] = (record, scored)
        if problem is not None:
            self._tell(f"{cause}your answer was kept in {path} and is added to your history the next time it "
                       "can be written")
        return path

    def link(self, attempt_id: int, path: Path) -> None:
        """The stand-in store holds the kept answer in `path` as `attempt_id`."""
        self._by_attempt[attempt_id] = path

    def overruled(self, path: Path, overrides: Mapping[str, bool], disputed: Collection[str] = ()) -> None:
        """The user's overrules (points) or disputes (mistakes) of a kept answer changed: rewrite its file."""
        if path in self._records:
            record, scored = self._records[path]
            if scored is not None:
                self._rewrite(path, replace(record, result=result_rows(scored, overrides, disputed)), scored)

    def follow_up(self, attempt_id: int, text: str) -> None:
        """The follow-up answer to a kept answer held in the stand-in store as `attempt_id`."""
        path = self._by_attempt.get(attempt_id)
        if path is not None and path in self._records:
            record, scored = self._records[path]
            self._rewrite(path, pending.with_answers(record, {**record.answers, FOLLOW_UP_KEY: text}), scored)

    def _rewrite(self, path: Path, record: KeptAnswer, scored: ScoreResult | None) -> None:
        try:
            pending.rewrite(path, record)
        except OSError as exc:
            self._tell(f"lndrill: could not update the kept answer {path}: {reason(exc)}")
            return
        self._records[path] = (record, scored)
