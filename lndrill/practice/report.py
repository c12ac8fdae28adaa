"""The Markdown report of a finished mock interview: the model of each question as it went, the
rendering, and saving it to disk."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from lndrill.cards.schema import Card
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


def _fenced(text: str) -> list[str]:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text.rstrip("\n"), fence]


def _clock(seconds: float) -> str:
    s = int(round(max(0.0, seconds)))
    return f"{s // 60}:{s % 60:02d}"


def _time_used(q: MockQuestion) -> str:
    used = _clock(q.time_used_s)
    return f"{used} of {_clock(q.time_limit_s)}" if q.time_limit_s else used


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
) -> str:
    """The Markdown report: overall score, weakest topics, then per question the score, time used,
    missed points, mistakes, your answer and the model answer."""
    overall = overall_score(questions)
    lines = [f"# Mock interview, {started_at.astimezone():%Y-%m-%d %H:%M}", ""]
    meta = [f"**Overall score: {overall}/100**", f"{len(questions)} question(s)",
            f"total time {_clock(sum(q.time_used_s for q in questions))}"]
    if tag:
        meta.append(f"tag `{tag}`")
    if seed is not None:
        meta.append(f"seed {seed} (`--seed {seed}` picks the same questions)")
    lines += [" · ".join(meta), ""]

    weak_sections, weak_tags = weakest_topics(questions, lang)
    if weak_sections or weak_tags:
        lines += ["## Weakest topics", ""]
        lines += [f"- {_inline(label)}: {pct}% of points" for label, pct in weak_sections]
        lines += [f"- tag {_inline(t)}: {score}/100" for t, score in weak_tags]
        lines.append("")

    for i, q in enumerate(questions, 1):
        card = q.card
        lines += [f"## {i}. {_inline(card.title.get(lang))} (`{card.id}`)", ""]
        lines += [f"**Score: {q.score}/100** · time used {_time_used(q)}", ""]
        lines += [f"> {_inline(card.prompt.get(lang))}", ""]
        if q.result is None:
            lines += ["Not answered.", ""]
        else:
            missed = [(s, p) for s in q.result.sections for p in s.points if not p.hit]
            lines += ["### Missed points", ""]
            lines += [f"- {_inline(s.title.get(lang))}: {_inline(p.claim.get(lang))}" for s, p in missed] or ["- none"]
            lines.append("")
            lines += ["### Mistakes", ""]
            if q.result.mistakes:
                for m in q.result.mistakes:
                    lines.append(f"- \u201c{_inline(m.evidence)}\u201d: {_inline(m.explanation.get(lang))}")
            else:
                lines.append("- none")
            lines.append("")
            overruled = [p for s in q.result.sections for p in s.points if p.overruled]
            if overruled:
                lines += ["Overruled by you: " + ", ".join(
                    f"{_inline(p.claim.get(lang))} ({'hit' if p.hit else 'missed'})" for p in overruled), ""]
        typed = {k: v for k, v in q.answers.items() if v.strip()}
        if typed:
            lines += ["### Your answer", ""]
            titles = {s.id: s.title.get(lang) for s in card.sections}
            for key, text in typed.items():
                if len(typed) > 1 or key in titles:
                    lines += [f"**{_inline(titles.get(key, key))}**", ""]
                lines += [*_fenced(text), ""]
        lines += ["### Model answer", "", card.model_answer.get(lang).rstrip(), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def report_filename(now: datetime) -> str:
    """`mock-YYYYmmdd-HHMMSS.md` in local time."""
    return f"mock-{now.astimezone():%Y%m%d-%H%M%S}.md"


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def write_mock_report(text: str, data_dir: Path, extra_path: Path | str | None = None,
                      now: datetime | None = None) -> list[Path]:
    """Save the report as `<data_dir>/reports/mock-YYYYmmdd-HHMMSS.md` and, if given, to `extra_path`
    (a file, or a directory to put the same file name in). Returns the paths written.

    Raises OSError if a file cannot be written (the data-dir copy is written first).
    """
    when = now or datetime.now().astimezone()
    name = report_filename(when)
    auto = paths.reports_dir(Path(data_dir)) / name
    n = 2
    while auto.exists():
        auto = auto.with_name(f"{Path(name).stem}-{n}.md")
        n += 1
    _write_atomic(auto, text)
    written = [auto]
    if extra_path is not None:
        target = Path(extra_path).expanduser()
        if target.is_dir() or str(extra_path).endswith(("/", os.sep)):
            target = target / name
        _write_atomic(target, text)
        written.append(target)
    return written


def save_mock_report(text: str, directory: Path | None, extra: Path | None, now: datetime
                     ) -> tuple[list[Path], str | None]:
    """Save the report in the data directory (default `data_dir()`) and to `extra`; the paths written and
    a one-line error. When the data-dir copy fails, the copy to `extra` is still attempted."""
    try:
        return write_mock_report(text, directory or paths.data_dir(), extra_path=extra, now=now), None
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
