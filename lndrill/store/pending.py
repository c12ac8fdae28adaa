"""Answers kept beside the history while it cannot be written (full disk, read-only, busy, newer schema).

Each kept answer is one small JSON file in `<data dir>/pending/` (0600, written to a temporary name and
renamed, so a file there is always complete), or, when the data directory cannot be written either,
in a private spare directory in the system's temporary directory (`lndrill-<uid>-<hash of the data
dir>`, 0700, used only if it is a real directory owned by the user and closed to others). The next
time the history is opened for writing, every kept answer is added to it (`Store.add_kept`) and its
file removed. When space is short, a smaller record is tried: without the scorer's full report, then
without the per-point rows; the words typed and the score are always in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lndrill.store.db import read_time
from lndrill.store.perms import private_dir
from lndrill.store.results import MistakeRow, PointRow, ResultRows

PENDING_DIR = "pending"
KIND = "lndrill-kept-answer"
VERSION = 1


def pending_dir(home: Path) -> Path:
    """Where kept answers wait, inside the data directory `home`."""
    return home / PENDING_DIR


def spare_dir(home: Path) -> Path:
    """The spare place for answers of the data directory `home` when it cannot be written."""
    uid = os.geteuid() if hasattr(os, "geteuid") else 0
    digest = hashlib.sha256(str(home.absolute()).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"lndrill-{uid}-{digest}"


def _private_spare(directory: Path, create: bool) -> bool:
    """Whether `directory` is safe for answers: a real directory of this user, closed to others."""
    if create:
        try:
            directory.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError:
            return False
    try:
        st = directory.lstat()
    except OSError:
        return False
    mine = not hasattr(os, "geteuid") or st.st_uid == os.geteuid()
    return stat.S_ISDIR(st.st_mode) and mine and not stat.S_IMODE(st.st_mode) & 0o077


def _listed(directory: Path) -> list[Path]:
    try:
        return [p for p in directory.iterdir() if p.suffix == ".json" and not p.name.startswith(".")]
    except OSError:
        return []


def waiting(home: Path) -> list[Path]:
    """The kept answers waiting for `home`, oldest first (empty when there are none or none can be listed)."""
    found = _listed(pending_dir(home))
    spare = spare_dir(home)
    if _private_spare(spare, create=False):
        found += _listed(spare)
    return sorted(found, key=lambda p: p.name)


@dataclass(frozen=True)
class KeptAnswer:
    """An answer that could not be written to the history, with everything needed to add it later.

    `result` is None when the answer was not scored (the scorer failed); `replaces` is the id of an
    unscored copy of the same answer already in the history (its words were stored, its result not).
    """

    card_id: str
    mode: str
    answers: dict[str, str]
    duration_s: float
    submitted_at: str
    started_at: str | None = None
    result: ResultRows | None = None
    review: bool = False
    replaces: int | None = None

    def to_dict(self, detail: int = 2) -> dict[str, Any]:
        """The JSON record; `detail` 2 has everything, 1 leaves out the scorer's report, 0 the point rows."""
        out: dict[str, Any] = {
            "kind": KIND, "version": VERSION, "card": self.card_id, "mode": self.mode, "answers": self.answers,
            "duration_s": self.duration_s, "submitted_at": self.submitted_at, "started_at": self.started_at,
            "review": self.review, "replaces": self.replaces, "result": None,
        }
        if self.result is not None:
            r = self.result
            out["result"] = {"score": r.score, "scorer_score": r.scorer_score,
                             "points": [list(p) for p in r.points] if detail >= 1 else [],
                             "mistakes": [list(m) for m in r.mistakes] if detail >= 1 else [],
                             "report": json.loads(r.result_json) if detail >= 2 else {}}
        return out

    @classmethod
    def from_dict(cls, data: Any) -> KeptAnswer:
        """A kept answer read back; ValueError (one line) when the record is not one."""
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise ValueError("not a kept lndrill answer")
        if data.get("version") != VERSION:
            raise ValueError(f"kept by another lndrill version (record version {data.get('version')!r})")
        answers = data.get("answers")
        if not isinstance(answers, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in answers.items()):
            raise ValueError("its answers are not text")
        card, mode, submitted = data.get("card"), data.get("mode"), data.get("submitted_at")
        if not (isinstance(card, str) and isinstance(mode, str) and read_time(submitted) is not None):
            raise ValueError("its card, mode or time is missing")
        assert isinstance(submitted, str)
        started = data.get("started_at")
        replaces = data.get("replaces")
        return cls(
            card_id=card, mode=mode, answers=dict(answers), duration_s=_number(data.get("duration_s")),
            submitted_at=submitted, started_at=started if isinstance(started, str) else None,
            result=_result(data.get("result")), review=bool(data.get("review")),
            replaces=replaces if isinstance(replaces, int) and not isinstance(replaces, bool) else None,
        )


def can_keep(home: Path) -> bool:
    """Whether answers for `home` can be kept (in its pending directory, or the spare one)."""
    try:
        private_dir(pending_dir(home))
        if os.access(pending_dir(home), os.W_OK | os.X_OK):
            return True
    except OSError:
        pass
    return _private_spare(spare_dir(home), create=True) and os.access(spare_dir(home), os.W_OK | os.X_OK)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("its duration is not a number")
    return max(0.0, float(value))


def _point(row: Any) -> PointRow:
    if not (isinstance(row, list) and len(row) == 6 and isinstance(row[0], str) and isinstance(row[1], str)):
        raise ValueError("a point row is malformed")
    return (row[0], row[1], _number(row[2]), bool(row[3]), bool(row[4]), bool(row[5]))


def _mistake(row: Any) -> MistakeRow:
    if not (isinstance(row, list) and len(row) == 4 and isinstance(row[0], str) and isinstance(row[1], str)):
        raise ValueError("a mistake row is malformed")
    return (row[0], row[1], _number(row[2]), bool(row[3]))


def _result(data: Any) -> ResultRows | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("its result is malformed")
    score, scorer = data.get("score"), data.get("scorer_score")
    if not (isinstance(score, int) and isinstance(scorer, int)) or isinstance(score, bool) or isinstance(scorer, bool):
        raise ValueError("its score is not a whole number")
    points = data.get("points") or []
    if not isinstance(points, list):
        raise ValueError("its points are malformed")
    mistakes = data.get("mistakes") or []
    if not isinstance(mistakes, list):
        raise ValueError("its mistakes are malformed")
    report = data.get("report") or {}
    return ResultRows(int(score), int(scorer), tuple(_point(p) for p in points),
                      json.dumps(report, ensure_ascii=False) if isinstance(report, dict) else "{}",
                      tuple(_mistake(m) for m in mistakes))


def _write_new(directory: Path, name: str, data: bytes) -> Path:
    """Write `data` to `directory/name` completely or not at all (a temporary file, fsync, rename)."""
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".kept-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        target = directory / name
        os.replace(tmp, target)
        return target
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _write_record(directory: Path, name: str, answer: KeptAnswer) -> Path:
    """Write the fullest record of `answer` that fits; OSError when not even the smallest one does."""
    error: OSError | None = None
    for detail in (2, 1, 0):
        text = json.dumps(answer.to_dict(detail), ensure_ascii=False, separators=(",", ":"))
        data = text.encode("utf-8", "replace")  # a lone surrogate (never valid text) becomes '?'
        try:
            return _write_new(directory, name, data)
        except OSError as exc:
            error = exc
    assert error is not None
    raise error


def keep(home: Path, answer: KeptAnswer) -> Path:
    """Keep `answer` for the data directory `home`: in its pending directory, else in the spare one; the
    file written. Raises OSError (the first failure) when neither can take it."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    name = f"answer-{stamp}-{uuid.uuid4().hex[:8]}.json"
    try:
        directory = pending_dir(home)
        private_dir(home)
        private_dir(directory)
        return _write_record(directory, name, answer)
    except OSError as exc:
        first = exc
    spare = spare_dir(home)
    if _private_spare(spare, create=True):
        try:
            return _write_record(spare, name, answer)
        except OSError:
            pass
    raise first


def rewrite(path: Path, answer: KeptAnswer) -> Path:
    """Replace the kept answer in `path` (after an overrule or a follow-up); OSError if it cannot be."""
    return _write_record(path.parent, path.name, answer)


def read(path: Path) -> KeptAnswer:
    """The kept answer in `path`; ValueError when it is not one, OSError when it cannot be read."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    return KeptAnswer.from_dict(data)


def with_answers(answer: KeptAnswer, answers: dict[str, str]) -> KeptAnswer:
    """The same kept answer with other texts (a follow-up typed after it was kept)."""
    return replace(answer, answers=dict(answers))
