"""The Markdown report of a finished mock interview: the model of each question as it went, the
rendering, and saving it to disk (checked before the interview starts, written through a fresh
temporary file, never over a device, a FIFO or a symlink)."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from lndrill.cards.schema import Card
from lndrill.display import printable
from lndrill.scoring.result import ScoreResult
from lndrill.store import paths

#: How many weakest sections and tags the report lists.
WEAKEST_N = 3


@dataclass(frozen=True)
class MockQuestion:
    """One question of a mock interview as it went: the card, what was typed, the score and the time."""

    card: Card
    result: ScoreResult | None
    time_used_s: float
    answers: Mapping[str, str] = field(default_factory=dict)
    time_limit_s: float | None = None

    @property
    def score(self) -> int:
        """The question's score (0 when it was not answered)."""
        return self.result.score if self.result is not None else 0


def _inline(text: str) -> str:
    """Text safe inside a Markdown paragraph or list item: one line, markup characters escaped."""
    flat = " ".join(text.split())
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", flat)


def _quoted(text: str) -> list[str]:
    """An answer as a Markdown block quote that wraps (a code block would be one long line): each line
    kept as typed (a hard break), markup characters escaped, leading spaces kept as no-break spaces."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        body = line.rstrip()
        indent = len(body) - len(body.lstrip(" "))
        escaped = "\u00a0" * indent + re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", body.lstrip(" "))
        out.append(f"> {escaped}\\" if escaped else ">")
    while out and out[-1] == ">":
        out.pop()
    # No hard break at the end of a paragraph (before a blank line or the end): it would show as a "\".
    return [line.removesuffix("\\") if i + 1 == len(out) or out[i + 1] == ">" else line
            for i, line in enumerate(out)]


def _clock(seconds: float) -> str:
    s = int(round(max(0.0, seconds)))
    return f"{s // 60}:{s % 60:02d}"


def _say(lang: str, en: str, zh: str) -> str:
    """A report label in the report's language."""
    return zh if lang == "zh" else en


def _time_used(q: MockQuestion, lang: str = "en") -> str:
    used = _clock(q.time_used_s)
    if not q.time_limit_s:
        return used
    return _say(lang, f"{used} of {_clock(q.time_limit_s)}", f"{used} / {_clock(q.time_limit_s)}")


def overall_score(questions: Sequence[MockQuestion]) -> int:
    """The mock interview's score: the mean of the question scores (unanswered questions count 0)."""
    if not questions:
        return 0
    return int(round(sum(q.score for q in questions) / len(questions)))


def weakest_topics(questions: Sequence[MockQuestion], lang: str = "en", n: int = WEAKEST_N
                   ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The `n` weakest sections ("card-id / Section title", percent of its points hit) and tags (mean score)."""
    sections: list[tuple[str, int]] = []
    tags: dict[str, list[int]] = {}
    for q in questions:
        for tag in q.card.tags:
            tags.setdefault(tag, []).append(q.score)
        if q.result is None:
            continue
        for s in q.result.sections:
            if s.max > 0:
                label = f"{q.card.id} / {s.title.get(lang)}"
                sections.append((label, int(round(100 * s.earned / s.max))))
    weak_sections = sorted(sections, key=lambda x: x[1])[:n]
    weak_tags = sorted(((t, int(round(sum(v) / len(v)))) for t, v in tags.items()), key=lambda x: (x[1], x[0]))[:n]
    return weak_sections, weak_tags


def render_mock_report(
    questions: Sequence[MockQuestion],
    started_at: datetime,
    lang: str = "en",
    seed: int | None = None,
    tag: str | None = None,
    planned: int | None = None,
    notice: str | None = None,
) -> str:
    """The Markdown report: overall score, weakest topics, then per question the score, time used,
    missed points, mistakes, your answer and the model answer. Only the questions asked are reported;
    `planned` (how many were picked) says when the interview ended early, `notice` when fewer cards
    than asked for could be picked."""
    overall = overall_score(questions)
    lines = [_say(lang, "# Mock interview, ", "# 模拟面试，") + f"{started_at.astimezone():%Y-%m-%d %H:%M}", ""]
    asked = _say(lang, f"{len(questions)} question(s)", f"{len(questions)} 道题")
    if planned is not None and len(questions) < planned:
        asked = _say(lang, f"ended early: {len(questions)} of {planned} questions asked",
                     f"提前结束：{planned} 道题答了 {len(questions)} 道")
    total = _clock(sum(q.time_used_s for q in questions))
    meta = [_say(lang, f"**Overall score: {overall}/100**", f"**总分：{overall}/100**"),
            asked, _say(lang, f"total time {total}", f"总用时 {total}")]
    if tag:
        meta.append(_say(lang, f"tag `{tag}`", f"标签 `{tag}`"))
    if seed is not None:
        meta.append(_say(lang, f"seed {seed} (`--seed {seed}` picks the same questions)",
                         f"种子 {seed}（`--seed {seed}` 抽到同样的题）"))
    lines += [" · ".join(meta), ""]
    if notice:
        lines += [_inline(notice), ""]

    weak_sections, weak_tags = weakest_topics(questions, lang)
    if weak_sections or weak_tags:
        lines += [_say(lang, "## Weakest topics", "## 最弱的部分"), ""]
        lines += [_say(lang, f"- {_inline(label)}: {pct}% of points", f"- {_inline(label)}：得到 {pct}% 的分")
                  for label, pct in weak_sections]
        lines += [_say(lang, f"- tag {_inline(t)}: {score}/100", f"- 标签 {_inline(t)}：{score}/100") for t, score in weak_tags]
        lines.append("")

    for i, q in enumerate(questions, 1):
        card = q.card
        lines += [f"## {i}. {_inline(card.title.get(lang))} (`{card.id}`)", ""]
        lines += [_say(lang, f"**Score: {q.score}/100** · time used {_time_used(q, lang)}",
                       f"**得分：{q.score}/100** · 用时 {_time_used(q, lang)}"), ""]
        lines += [f"> {_inline(card.prompt.get(lang))}", ""]
        if q.result is None:
            lines += [_say(lang, "Not answered.", "未作答。"), ""]
        else:
            missed = [(s, p) for s in q.result.sections for p in s.points if not p.hit]
            none = _say(lang, "- none", "- 无")
            lines += [_say(lang, "### Missed points", "### 漏掉的要点"), ""]
            lines += [f"- {_inline(s.title.get(lang))}{_say(lang, ': ', '：')}{_inline(p.claim.get(lang))}"
                      for s, p in missed] or [none]
            lines.append("")
            lines += [_say(lang, "### Mistakes", "### 错误"), ""]
            if q.result.mistakes:
                for m in q.result.mistakes:
                    lines.append(f"- \u201c{_inline(m.evidence)}\u201d{_say(lang, ': ', '：')}{_inline(m.explanation.get(lang))}")
            else:
                lines.append(none)
            lines.append("")
            overruled = [p for s in q.result.sections for p in s.points if p.overruled]
            if overruled:
                lines += [_say(lang, "Overruled by you: ", "你推翻的评分：") + _say(lang, ", ", "；").join(
                    f"{_inline(p.claim.get(lang))} ({_say(lang, 'hit' if p.hit else 'missed', '算得分' if p.hit else '算漏掉')})"
                    for p in overruled), ""]
        typed = {k: v for k, v in q.answers.items() if v.strip()}
        if typed:
            lines += [_say(lang, "### Your answer", "### 你的回答"), ""]
            titles = {s.id: s.title.get(lang) for s in card.sections}
            for key, text in typed.items():
                if len(typed) > 1 or key in titles:
                    lines += [f"**{_inline(titles.get(key, key))}**", ""]
                lines += [*_quoted(text), ""]
        lines += [_say(lang, "### Model answer", "### 参考答案"), "", card.model_answer.get(lang).rstrip(), ""]
    # The report is read in terminals (`cat`) as well as editors: no control character from an answer.
    return printable("\n".join(lines).rstrip("\n") + "\n")


def report_filename(now: datetime) -> str:
    """`mock-YYYYmmdd-HHMMSS.md` in local time."""
    return f"mock-{now.astimezone():%Y%m%d-%H%M%S}.md"


class ReportPathError(ValueError):
    """`--report PATH` names something a report cannot be written to; `str(exc)` is one line."""


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _refuse_non_regular(path: Path) -> None:
    """ReportPathError unless `path` is missing or a regular file (a symlink, a device, a FIFO are refused:
    a report replaces the file, and must never replace /dev/null or what a planted link points to)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ReportPathError(f"cannot use {path} for the report: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise ReportPathError(f"cannot write the report to {path}: it is {_kind(mode)}, not a regular file")


def report_target(extra_path: Path | str, name: str) -> Path:
    """Where `--report PATH` puts a report called `name`: PATH itself, or `name` inside it when PATH is a
    directory (or ends in '/')."""
    target = Path(extra_path).expanduser()
    if str(extra_path).endswith(("/", os.sep)) or (target.is_dir() and not target.is_symlink()):
        return target / name
    return target


def check_report_path(extra_path: Path | str) -> None:
    """Before a mock interview starts: ReportPathError (one line) unless a report can be written to
    `--report PATH` (a regular file or a directory, in a directory lndrill may write to)."""
    text = str(extra_path)
    if not text.strip():
        raise ReportPathError("--report needs a file or directory name")
    target = report_target(text, "report.md")
    _refuse_non_regular(target)
    existing = target.parent
    while not os.path.lexists(existing) and existing.parent != existing:  # directories still to be made
        existing = existing.parent
    if not existing.is_dir():
        raise ReportPathError(f"cannot write the report under {existing}: it is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ReportPathError(f"cannot write the report in {existing}: permission denied")


def _write_atomic(path: Path, text: str, private_dir: bool = False) -> None:
    """Write `path` whole or not at all: a fresh temporary file (mkstemp: never a name someone planted)
    in the same directory, then renamed over it. The file is readable by its owner only."""
    if private_dir:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_non_regular(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def write_mock_report(text: str, data_dir: Path | None, extra_path: Path | str | None = None,
                      now: datetime | None = None) -> list[Path]:
    """Save the report as `<data_dir>/reports/mock-YYYYmmdd-HHMMSS.md` and, if given, to `extra_path`
    (a file, or a directory to put the same file name in). Returns the paths written.

    Raises OSError (or ReportPathError) for the first copy that cannot be written; the other is still
    written.
    """
    written, failed = _save(text, data_dir, extra_path, now or datetime.now().astimezone())
    if failed:
        raise failed[0][1]
    return written


def _save(text: str, data_dir: Path | None, extra_path: Path | str | None, now: datetime
          ) -> tuple[list[Path], list[tuple[str, Exception]]]:
    """Write both copies; the paths written, and for each copy that failed where it went and why."""
    name = report_filename(now)
    written: list[Path] = []
    failed: list[tuple[str, Exception]] = []
    try:
        auto = paths.reports_dir(Path(data_dir) if data_dir is not None else None) / name
        n = 2
        while os.path.lexists(auto):
            auto = auto.with_name(f"{Path(name).stem}-{n}.md")
            n += 1
        _write_atomic(auto, text, private_dir=True)
        written.append(auto)
    except (OSError, ValueError) as exc:
        failed.append(("in the data directory", exc))
    if extra_path is not None:
        try:
            target = report_target(extra_path, name)
            _write_atomic(target, text)
            written.append(target)
        except (OSError, ValueError) as exc:
            failed.append((f"to {extra_path}", exc))
    return written, failed


def save_mock_report(text: str, directory: Path | None, extra: Path | None, now: datetime
                     ) -> tuple[list[Path], str | None]:
    """Save the report in the data directory (default `data_dir()`) and to `extra`; the paths written and
    a one-line error naming each copy that could not be written (the other copy is still written)."""
    written, failed = _save(text, directory, extra, now)
    errors = [f"could not save the report {where}: {_one_line(exc)}" for where, exc in failed]
    return written, "; ".join(errors) or None
