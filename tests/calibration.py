"""Read graded answers (ours in tests/answers/, and ../shared/calibration/ when present).

The shared calibration file is not always strict YAML (a `why:` line may contain ': '), so when the
safe loader refuses it we fall back to a small line-based reader of the same layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
OWN_DIR = HERE / "answers"
SHARED_DIR = HERE.parent.parent / "shared" / "calibration"


@dataclass(frozen=True)
class Graded:
    """One graded answer."""

    card: str
    id: str
    grade: float
    text: str
    kind: str  # "", or an adversarial kind: swapped, negated, keywords, offtopic, repeated, junk


def _tolerant(path: Path) -> list[Graded]:
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
    if not SHARED_DIR.is_dir():
        return []
    return [g for p in sorted(SHARED_DIR.glob("*.yaml")) for g in load_graded(p)]


def own_answers() -> list[Graded]:
    """Every answer in tests/answers/."""
    return [g for p in sorted(OWN_DIR.glob("*.yaml")) for g in load_graded(p)]
