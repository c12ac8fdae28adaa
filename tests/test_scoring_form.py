"""How an answer is written moves a complete answer's total a little, as it moves a grader's (lndrill.scoring.form)."""

from __future__ import annotations

import json
from dataclasses import replace

from helpers import hand_scored

from lndrill.cli import main
from lndrill.scoring.engine import score_answer
from lndrill.scoring.form import Form, read_form
from lndrill.scoring.lexicon import tokenize
from lndrill.scoring.normalize import prepare
from lndrill.scoring.result import FORM_FLOOR, NOTES_CUT, SPOKEN_CUT

NOTES = """- Post-LN: LN(x + F(x)), norm after residual add
- Pre-LN: x + F(LN(x)), norm on branch input
- Post-LN: large output-side grads at init -> warm-up needed
- Pre-LN: identity path -> stable, no warm-up
- trade-off: Post-LN better final quality; Pre-LN deep layers diluted
"""
PROSE = """Post-LN normalises after the residual add, LN(x + F(x)), while Pre-LN normalises only the input of each
branch, x + F(LN(x)). Because every Post-LN layer puts a LayerNorm on the main path, its gradients near the output
are large at initialisation, so it needs warm-up; Pre-LN keeps an identity path and trains stably without it.
"""


def _form(text: str) -> Form:
    prep = prepare(text)
    return read_form(prep.original, tokenize(prep.text, prep.cased))


def test_terse_notes_and_spoken_hesitations_are_recognised() -> None:
    assert _form(NOTES).notes
    assert not _form(PROSE).notes
    assert not _form(PROSE).spoken
    spoken = "Um, so Post-LN, you know, normalises after the add, and uh Pre-LN normalises the branch input."
    assert _form(spoken).spoken
    assert not _form("I mean it.").spoken  # one is a turn of phrase, not a transcript
    # a transcript marks its pauses in other ways too: "hmm", "okay so", a bare "yeah," or "wait,", 对吧
    assert _form("Okay so Post-LN puts the norm after the add, and hmm, Pre-LN puts it on the branch input.").spoken
    assert _form("Right, so it's LN of x plus F of x, yeah, and Pre-LN is x plus F of LN of x.").spoken
    assert _form("Post-LN 是先加再归一化，对吧？嗯，Pre-LN 是先归一化子层输入。").spoken
    assert not _form("Pre-LN is stable; okay, so is Post-LN with warm-up. Yeahs and ohs do not count.").spoken
    # Chinese notes are not judged by their share of function words
    assert not _form("- Post-LN：LN(x + F(x))，残差相加后归一化\n- Pre-LN：x + F(LN(x))，恒等路径，训练稳定\n").notes


def test_form_takes_points_off_a_complete_answer_only_and_never_below_the_floor(deck) -> None:
    card = deck.get("pre-vs-post-ln")
    points = [p.id for s in card.sections for p in s.points]
    complete = hand_scored(card, points)
    assert complete.form == 0
    notes = replace(complete, written=Form(True, 0))
    both = replace(complete, written=Form(True, 3))
    assert notes.form == -min(NOTES_CUT, complete.score - FORM_FLOOR) and notes.score == complete.score + notes.form
    assert both.score == max(FORM_FLOOR, complete.score - NOTES_CUT - SPOKEN_CUT)
    partial = replace(hand_scored(card, points[:3]), written=Form(True, 3))
    assert partial.form == 0


def test_a_spoken_version_of_a_complete_answer_scores_a_little_lower_and_says_why(deck, tmp_path, capsys) -> None:
    card = deck.get("pre-vs-post-ln")
    written = card.model_answer.get("en")
    spoken = "Um, okay. " + written.replace(". ", ", you know. ", 2)
    a, b = score_answer(card, written), score_answer(card, spoken)
    assert a.points == b.points and not b.mistakes
    # lower by at most the spoken cut, never below the floor (how much it explains still counts on top)
    assert FORM_FLOOR <= b.score < a.score and a.score - b.score <= SPOKEN_CUT and b.form < 0
    f = tmp_path / "spoken.txt"
    f.write_text(spoken, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(f), "--no-save", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["form"] == b.form and out["form_reason"] == ["spoken"]
    assert main(["score", "pre-vs-post-ln", str(f), "--no-save"]) == 0
    report = capsys.readouterr().out
    assert f"form {b.form:+d}" in report and "spoken hesitations" in report
