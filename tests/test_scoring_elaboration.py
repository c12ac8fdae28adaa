"""How much a complete answer explains moves its total a little, as it moves a grader's (`ScoreResult.elaboration`)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import hand_scored

from lndrill.cards.deck import Deck
from lndrill.cli import main
from lndrill.scoring.engine import score_answer
from lndrill.scoring.form import Form
from lndrill.scoring.result import (
    ELABORATION_MAX,
    ELABORATION_PIVOT,
    FORM_FLOOR,
    NOTES_CUT,
    elaboration_adjustment,
)

#: True statements that explain the pre-vs-post-ln model answer's points further (the reasons and consequences).
EXPLAINED = (
    "Why does this matter? Because the placement decides what the backward pass has to go through. "
    "In Post-LN the LayerNorm sits on the main path, so every layer's gradient is rescaled by its Jacobian on the "
    "way down. That rescaling compounds with depth, and it is why the top layers see large updates at the start. "
    "In Pre-LN the sum x + F(LN(x)) leaves an identity path from the output back to the embeddings. "
    "The gradient can reach the first layer without touching a single norm. "
    "That is why Pre-LN trains at a higher learning rate from step one. "
    "It also explains why the warm-up can usually be dropped or kept very short. "
    "The price is that later layers add less and less to a residual stream that keeps growing. "
    "Some deep layers then behave almost like identities, which wastes capacity. "
    "Post-LN keeps every layer's contribution normalised, so when it trains it often ends a little better. "
    "In practice large language models chose Pre-LN or its RMSNorm variant for stability. "
    "Translation models at moderate depth kept Post-LN for its final quality. "
    "Methods such as DeepNorm try to get both by scaling the residual before the norm. "
    "So the short answer is a trade-off between stability and final quality.")

#: Every point of pre-vs-post-ln named in a few statements.
TERSE = ("Post-LN: x_{l+1} = LN(x_l + F(x_l)). Pre-LN: x_{l+1} = x_l + F(LN(x_l)), plus a final LN. "
         "Post-LN's gradient crosses an LN Jacobian at every layer; near the output it is large at init "
         "(Xiong 2020), so Post-LN needs warm-up. Pre-LN keeps an identity residual path, so it trains stably "
         "without warm-up. Post-LN ends slightly better; Pre-LN's deep layers are diluted. LLMs use Pre-LN.")


@pytest.fixture
def card(deck: Deck):
    return deck.get("pre-vs-post-ln")


def test_the_same_points_explained_at_length_score_higher_than_named_tersely(card) -> None:
    model = card.model_answer.get("en")
    terse, plain, explained = (score_answer(card, t) for t in (TERSE, model, model + "\n\n" + EXPLAINED))
    for r in (terse, plain, explained):
        assert r.points >= 90 and not r.mistakes
    assert terse.statements is not None and explained.statements is not None
    assert terse.statements < plain.statements < explained.statements
    assert terse.elaboration < 0 < explained.elaboration == ELABORATION_MAX
    assert terse.score < plain.score < explained.score


def test_the_adjustment_is_nothing_at_the_pivot_and_bounded_either_way() -> None:
    assert elaboration_adjustment(ELABORATION_PIVOT) == 0
    steps = [elaboration_adjustment(n) for n in range(0, 200)]
    assert steps == sorted(steps)  # more statements never score lower
    assert min(steps) == -ELABORATION_MAX and max(steps) == ELABORATION_MAX


def test_elaboration_moves_only_complete_answers_without_mistakes(card) -> None:
    # a partial answer however long: what it explains is no substitute for the points it misses
    partial = score_answer(card, "Post-LN computes LN(x + F(x)): it adds the residual and then normalises. " * 1
                           + EXPLAINED.replace("Post-LN", "the older placement").replace("Pre-LN", "the newer one"))
    assert partial.points < 70 and partial.elaboration == 0
    # a complete, long answer that also states something wrong
    wrong = score_answer(card, card.model_answer.get("en") + "\n\n" + EXPLAINED + " Pre-LN computes LN(x + F(x)).")
    assert wrong.mistakes and wrong.elaboration == 0
    # a result built by hand, whose statements were never counted
    points = [p.id for s in card.sections for p in s.points]
    assert hand_scored(card, points).elaboration == 0


def test_a_cut_for_few_statements_never_takes_a_complete_answer_below_the_floor(card) -> None:
    points = [p.id for s in card.sections for p in s.points]
    complete = hand_scored(card, points)
    few = replace(complete, statements=3)
    assert few.elaboration == -ELABORATION_MAX and few.score == complete.score - ELABORATION_MAX
    notes = replace(few, written=Form(True, 0))  # terse notes already cost up to NOTES_CUT
    assert notes.form == -min(NOTES_CUT, complete.score - FORM_FLOOR)
    assert notes.score == max(FORM_FLOOR, complete.score - NOTES_CUT - ELABORATION_MAX)
    many = replace(complete, statements=80)
    assert many.elaboration == ELABORATION_MAX and many.score == complete.score + ELABORATION_MAX


def test_the_report_and_json_say_what_elaboration_did(card, tmp_path: Path, capsys) -> None:
    f = tmp_path / "long.txt"
    f.write_text(card.model_answer.get("en") + "\n\n" + EXPLAINED, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(f), "--no-save", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["elaboration"] == ELABORATION_MAX and out["statements"] >= 37
    assert main(["score", "pre-vs-post-ln", str(f), "--no-save"]) == 0
    report = capsys.readouterr().out
    assert f"elaboration +{ELABORATION_MAX}" in report and "explains its points at length" in report
    f.write_text(TERSE, encoding="utf-8")
    assert main(["score", "pre-vs-post-ln", str(f), "--no-save", "--lang", "zh"]) == 0
    report = capsys.readouterr().out
    assert "展开 -" in report and "原因和后果" in report
