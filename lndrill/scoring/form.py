"""How an answer is written, as far as it moves an interviewer's grade of a complete answer.

Blind graders give a complete, correct answer written as explained prose about 94, the same content as terse
notes (list items and table rows with few function words) about 88, and a spoken transcript full of "um" and
"you know" about 84, while the rubric finds every point in all three. `read_form` recognises the last two, and
`ScoreResult.form` takes a few points off a complete answer written that way (see `result.NOTES_CUT`).

Chinese-led answers are never read as terse notes: Chinese prose is naturally denser in content characters,
so the share of function words says little about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lndrill.scoring.lexicon import CJK, WORD, Token
from lndrill.scoring.structure import is_function_token

#: A line that is a list item or a table row.
_NOTE_LINE = re.compile(r"^\s*(?:[-*•·>+]\s+|\d{1,2}[.)、]\s*|\|)")
#: Spoken hesitations: what a transcript has and a written answer does not. Each cue was counted over the blind
#: tuning half and batch 71 (7,462 answers): "hmm", "okay so", "right, so", a bare "yeah,"/"oh,"/"wait,", "let me
#: think" and 对吧 occur in spoken transcripts only (at most 1 other answer each); "kind of", "well,", "I think",
#: "like," and 那个 are common in written answers and are left out. With them 679 of 732 transcripts reach
#: HESITATIONS_FROM (537 before) and no other answer does.
_HESITATION = re.compile(r"\b(?:um+|uh+|uhm+|erm+|hmm+|you know|i mean|so yeah|let me (?:think|see)|(?:okay|ok|right),? so)\b"
                         r"|\b(?:yeah|oh|wait),|嗯|呃|对吧", re.IGNORECASE)

#: At least this share of the non-blank lines are list items or table rows ...
NOTE_LINES_FROM = 0.5
#: ... and fewer than this share of the English words are function words (prose: about 0.4): terse notes.
NOTE_FUNCTION_BELOW = 0.35
#: Read as notes only when English words make up at least this share of the words (a Chinese character counts
#: as 1/1.5 of a word).
ENGLISH_FROM = 0.6
#: This many spoken hesitations make a transcript.
HESITATIONS_FROM = 2


@dataclass(frozen=True)
class Form:
    """What `read_form` found."""

    notes: bool  # mostly list items or table rows, with few function words
    hesitations: int  # spoken hesitations ("um", "uh", "you know", "I mean", 嗯)

    @property
    def spoken(self) -> bool:
        """A spoken transcript: `HESITATIONS_FROM` hesitations or more."""
        return self.hesitations >= HESITATIONS_FROM


def read_form(original: str, tokens: list[Token]) -> Form:
    """The form of an answer: its original text (for its lines) and its normalised tokens (for its words)."""
    lines = [line for line in original.split("\n") if line.strip()]
    note_lines = sum(1 for line in lines if _NOTE_LINE.match(line))
    english = [t for t in tokens if t.kind == WORD and len(t.key) > 1]  # single letters are symbols
    chinese = sum(1 for t in tokens if t.kind == CJK)
    words = len(english) + chinese / 1.5
    notes = bool(
        lines and english
        and note_lines >= NOTE_LINES_FROM * len(lines)
        and len(english) >= ENGLISH_FROM * words
        and sum(1 for t in english if is_function_token(t)) < NOTE_FUNCTION_BELOW * len(english))
    return Form(notes, len(_HESITATION.findall(original)))
