"""How numbers look, the same in the command line and the terminal app (Rich only, no Textual).

Score colours by threshold, block and eighth-cell bars, relative due times, and simulator values with
their spread across seeds. Everything returns plain strings or `rich.text.Text` (never markup), so text
from cards and answers is always shown as typed, except terminal control characters: `printable` drops
them from anything shown, so an answer or a file name can never set the window title, clear the screen
or plant a hyperlink.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

if TYPE_CHECKING:
    from lndrill.scoring.result import ScoreResult

#: C0 and C1 control characters and DEL, except tab and newline: what a terminal may act on.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_JSON_RAW_CONTROL = re.compile(r"[\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` without control characters (ESC, BEL, NUL, CSI, ...); tabs and newlines stay."""
    return _CONTROL.sub("", text)


def printable_in_place(text: str) -> str:
    """`text` with each control character shown as U+FFFD, so offsets into it (highlights) still fit."""
    return _CONTROL.sub("\ufffd", text)


def json_printable(text: str) -> str:
    """JSON text with DEL and C1 characters written as \\u escapes (json.dumps escapes C0 itself but
    leaves these raw); the same JSON value, safe to print."""
    return _JSON_RAW_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


#: A score at or above GOOD_FROM is good (green); at or above FAIR_FROM fair (yellow); below, poor (red).
GOOD_FROM = 80
FAIR_FROM = 50


@dataclass(frozen=True)
class ScoreColours:
    """The colour of a good, fair and poor score ("" leaves the text's own colour)."""

    good: str = "green"
    fair: str = "yellow"
    poor: str = "red"


#: Named terminal colours, for the command line.
TERMINAL_COLOURS = ScoreColours()


def score_style(score: float | None, colours: ScoreColours = TERMINAL_COLOURS, bold: bool = False) -> str:
    """The Rich style of a 0-100 score by threshold ("dim" when there is no score)."""
    if score is None:
        return "dim"
    colour = colours.good if score >= GOOD_FROM else colours.fair if score >= FAIR_FROM else colours.poor
    return " ".join(part for part in ("bold" if bold else "", colour) if part)


def score_headline(result: ScoreResult, lang: str = "en") -> str:
    """"Score 48/100" and, when the rubric's own total differs (the score is on an interviewer's scale, see
    `lndrill.scoring.result.INTERVIEWER_SCALE`), what the section bars add up to: "Score 48/100 (rubric 44)";
    with the adjustment for concrete values when there is one: "Score 92/100 (rubric 92, specifics +2)"; with
    what the way a complete answer is written took off: "Score 85/100 (rubric 100, form -5)"; with what how much it
    explains moved: "Score 94/100 (rubric 100, elaboration +4)"; with what a cap
    (for wrong claims, or for filler) took off: "Score 66/100 (rubric 80, capped -14)"."""
    score, points, specifics, form = result.score, result.points, result.specifics, result.form
    elaboration, capped = result.elaboration, result.capped
    head = f"{'得分' if lang == 'zh' else 'Score'} {score}/100"
    if points == score and not specifics and not capped and not form and not elaboration:
        return head
    parts = [f"要点合计 {points}" if lang == "zh" else f"rubric {points}"]
    if specifics:
        parts.append(f"{'具体数值' if lang == 'zh' else 'specifics'} {specifics:+d}")
    if form:
        parts.append(f"{'表达' if lang == 'zh' else 'form'} {form:+d}")
    if elaboration:
        parts.append(f"{'展开' if lang == 'zh' else 'elaboration'} {elaboration:+d}")
    if capped:
        parts.append(f"{'封顶' if lang == 'zh' else 'capped'} -{capped}")
    return head + (f"（{'，'.join(parts)}）" if lang == "zh" else f" ({', '.join(parts)})")


def specifics_note(specifics: int, values: int, lang: str = "en") -> str | None:
    """One line on why a complete answer's total went up for the concrete values it cites, or None."""
    if specifics <= 0:
        return None
    return (f"具体数值 {specifics:+d}：回答给出了 {values} 个具体数值（常数、步数、BLEU、界）。" if lang == "zh"
            else f"Specifics {specifics:+d}: the answer cites {values} concrete values (constants, steps, BLEU, bounds).")


def form_note(form: int, notes: bool, spoken: bool, lang: str = "en") -> str | None:
    """One line on why a complete answer's total went down for the way it is written (`ScoreResult.form`), or None."""
    if form >= 0:
        return None
    if lang == "zh":
        why = "；".join(w for w, on in (("大部分是不成句的要点笔记，面试官要听到用完整的句子讲清“为什么”", notes),
                                      ("口语里的“嗯”“呃”“you know”太多，显得不确定", spoken)) if on)
        return f"表达 {form:+d}：{why}。"
    why = "; ".join(w for w, on in (("mostly terse notes; an interviewer wants the why said in sentences", notes),
                                    ("spoken hesitations (um, uh, you know) make it sound unsure", spoken)) if on)
    return f"Form {form:+d}: {why}."


def elaboration_note(elaboration: int, statements: int | None, lang: str = "en") -> str | None:
    """One line on why a complete answer's total moved for how much it explains (`ScoreResult.elaboration`), or None."""
    if elaboration > 0:
        return (f"展开 {elaboration:+d}：回答用 {statements} 句论述把“为什么”讲透了。" if lang == "zh"
                else f"Elaboration {elaboration:+d}: the answer explains its points at length ({statements} statements).")
    if elaboration < 0:
        return (f"展开 {elaboration:+d}：回答只用了 {statements} 句论述来讲这些要点；面试官希望听到每一点的原因和后果。"
                if lang == "zh" else
                f"Elaboration {elaboration:+d}: the answer makes its points in only {statements} statements; an "
                "interviewer wants each one's reason and consequence spelled out.")
    return None


def capped_note(capped: int, lang: str = "en", reason: str | None = "error") -> str | None:
    """One line on why an answer scores lower than its rubric points (`ScoreResult.cap_reason`), or None: it states
    something wrong ("error"), leans on filler phrases ("filler"), only restates the question ("given") or is mostly
    bare lists of terms ("list")."""
    if capped <= 0:
        return None
    if reason == "given":
        return (f"封顶扣{capped}分：找到的要点都是题目本身已经说出的事实，复述题目最多得 10 分；要解释它为什么成立。"
                if lang == "zh" else
                f"Capped -{capped}: every point found is one the question itself states, and restating the question "
                "earns at most 10; explain why it holds.")
    if reason == "filler":
        return (f"封顶扣{capped}分：回答靠“协同”“内在联系”这类空泛的词把术语串在一起，读起来像关键词堆砌；写清每个机制具体做了什么。"
                if lang == "zh" else
                f"Capped -{capped}: the answer strings terms together with filler ('the interplay between', 'fundamentally "
                "about', 'synergy') and reads as a keyword list; say what each mechanism does.")
    if reason == "list":
        return (f"封顶扣{capped}分：回答很大一部分是一串串术语和公式，很少说明它们之间的关系，读起来像关键词堆砌；用句子讲清楚每一点为什么成立。"
                if lang == "zh" else
                f"Capped -{capped}: much of the answer is bare lists of terms and formulas with little said about them, "
                "which reads as a keyword list; say in sentences why each point holds.")
    return (f"错误封顶扣{capped}分：回答里有错误论断时，其余部分再完整也只按部分正确评分；改正下面列出的错误即可解除封顶。"
            if lang == "zh" else
            f"Capped -{capped}: an answer that states something wrong is graded as partial however complete the rest "
            "is; fix the mistakes listed below to lift the cap.")


def block_bar(value: float, total: float = 100.0, width: int = 10) -> str:
    """`width` cells, the share value/total of them full (█) and the rest light (░)."""
    filled = int(round(width * value / total)) if total else 0
    filled = min(max(filled, 0), width)
    return "█" * filled + "░" * (width - filled)


_EIGHTHS = " ▏▎▍▌▋▊▉"


def pad_cells(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal cells (a Chinese character takes two)."""
    return text + " " * max(0, width - cell_len(text))


def label_width(labels: list[str], minimum: int = 0) -> int:
    """The widest of `labels` in terminal cells (at least `minimum`)."""
    return max([minimum, *(cell_len(t) for t in labels)])


def eighths_bar(fraction: float, width: int) -> str:
    """A bar of `fraction` of `width` cells with eighth-cell resolution, padded to `width`."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = int(round(fraction * width * 8))
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)


def relative_due(due: datetime, now: datetime, days: str = "days", lang: str = "en") -> str | None:
    """'in 12 min', 'in 3 h' or 'in 4 days' (`days` names the unit: "d" in the app); None when due.
    With `lang` "zh": '12分钟后', '3小时后', '4天后' (at most 8 cells up to 999 days)."""
    delta = (due - now).total_seconds()
    if delta <= 0:
        return None
    zh = lang == "zh"
    if delta < 3600:
        n = max(1, round(delta / 60))
        return f"{n}分钟后" if zh else f"in {n} min"
    if delta < 86400:
        n = round(delta / 3600)
        return f"{n}小时后" if zh else f"in {n} h"
    n = round(delta / 86400)
    return f"{n}天后" if zh else f"in {n} {days}"


def due_label(due: datetime | None, now: datetime, answered: bool, lang: str = "en") -> Text:
    """The app's due column: 'due now', 'in 3 h', 'in 4 d', or 'new' for a card never answered; in
    Chinese (`lang` "zh") '已到期', '3小时后', '4天后' or '新'.

    A card answered but never scheduled (answered in cram mode) counts as due.
    """
    zh = lang == "zh"
    due_now = Text("已到期" if zh else "due now", style="bold")
    if due is None:
        return due_now if answered else Text("新" if zh else "new", style="dim")
    when = relative_due(due, now, days="d", lang=lang)
    return due_now if when is None else Text(when)


def due_with_date(due: datetime | None, now: datetime) -> Text:
    """The command line's due column: 'in 4 days (2026-12-03 17:07)' in local time, 'due now' or '-'."""
    if due is None:
        return Text("-", style="dim")
    when = relative_due(due, now)
    if when is None:
        return Text("due now", style="bold yellow")
    return Text(f"{when} ({due.astimezone():%Y-%m-%d %H:%M})")


def format_value(value: float) -> str:
    """Four decimals, or scientific notation (2.1e-06) below 1e-3 so small values never read 0.0000."""
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    if abs(value) < 1e-3:
        return f"{value:.1e}"
    return f"{value:.4f}"


def value_with_spread(value: float, spread: tuple[float, float] | None = None) -> str:
    """A simulator value, with its min-max over seeds in brackets when given: '3.5273 [3.1-3.9]'."""
    text = format_value(value)
    if spread is not None:
        lo, hi = spread
        text += f" [{format_value(lo)}-{format_value(hi)}]"
    return text
