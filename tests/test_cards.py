"""The deck and the card format: loading, validation with path:line, and the bundled cards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lndrill.cards.deck import load_deck
from lndrill.cards.schema import Card
from lndrill.cli import main
from lndrill.scoring.engine import rubric_for, score_answer
from lndrill.scoring.selfcheck import check_card

REQUIRED = {"pre-vs-post-ln", "post-ln-warmup", "xiong-theorem", "pre-ln-final-norm", "pre-ln-effective-depth",
            "deepnorm", "sandwich-ln", "rmsnorm", "layernorm-jacobian", "toy-metric-artifact"}

GOOD = """\
id: {id}
title: {{en: "A test card", zh: "测试卡片"}}
prompt: {{en: "Which placement needs warm-up?", zh: "哪种摆法需要 warm-up？"}}
tags: [test]
difficulty: easy
sections:
  - id: main
    title: {{en: Main, zh: 主要}}
    points:
      - id: post-warmup
        weight: 10
        claim: {{en: "Post-LN needs warm-up.", zh: "Post-LN 需要 warm-up。"}}
        about: post
        match:
          - concepts: [["@warmup"]]
model_answer: {{en: "Post-LN needs warm-up.", zh: "Post-LN 需要 warm-up。"}}
follow_ups:
  - {{en: "Why?", zh: "为什么？"}}
sources:
  - {{arxiv: "2002.04745", section: "3.2", points: [post-warmup]}}
"""


def _write(d: Path, name: str, text: str) -> Path:
    p = d / name
    p.write_text(text, encoding="utf-8")
    return p


def test_bundled_deck_is_complete_bilingual_and_sourced(deck) -> None:
    assert deck.problems == []
    assert len(deck.cards) >= 12
    assert REQUIRED <= set(deck.cards)
    for card in deck.cards.values():
        for text in (card.title, card.prompt, card.model_answer, *card.follow_ups):
            assert text.en.strip() and text.zh.strip(), card.id
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text.zh), card.id
        assert card.sources, card.id
        for s in card.sections:
            for p in s.points:
                assert p.claim.en and p.claim.zh, (card.id, p.id)
                for m in p.mistakes:
                    assert m.explanation.en and m.explanation.zh, (card.id, m.id)


def test_main_card_has_the_three_sections_in_order(main_card) -> None:
    assert [s.id for s in main_card.sections] == ["formulas", "backprop", "tradeoffs"]


@pytest.mark.parametrize("card_id", sorted(REQUIRED))
def test_every_required_card_passes_its_own_check(deck, card_id: str) -> None:
    card = deck.get(card_id)
    assert card is not None
    assert [str(p) for p in check_card(card)] == []


def test_model_answers_score_high_in_both_languages(deck) -> None:
    for card in deck.cards.values():
        for lang in ("en", "zh"):
            assert score_answer(card, card.model_answer.get(lang)).score >= 80, (card.id, lang)


def test_broken_cards_are_each_named_once_with_a_line_and_good_ones_still_load(tmp_path: Path) -> None:
    _write(tmp_path, "good.yaml", GOOD.format(id="fixture-good"))
    _write(tmp_path, "syntax.yaml", GOOD.format(id="fixture-syntax").replace("tags: [test]", "tags: [test\n  oops: ]"))
    _write(tmp_path, "unknown.yaml", GOOD.format(id="fixture-unknown").replace("difficulty: easy",
                                                                                "difficulty: easy\ncolour: blue"))
    _write(tmp_path, "missing.yaml", GOOD.format(id="fixture-missing").replace("difficulty: easy\n", ""))
    _write(tmp_path, "wrongtype.yaml", GOOD.format(id="fixture-wrongtype").replace("weight: 10", "weight: heavy"))
    _write(tmp_path, "unsafe.yaml", "!!python/object/apply:os.system ['echo hacked']\n")
    _write(tmp_path, "zz-dup.yaml", GOOD.format(id="fixture-good"))
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert set(deck.cards) == {"fixture-good"}
    by_file: dict[str, list] = {}
    for p in deck.problems:
        by_file.setdefault(p.path.name, []).append(p)
    assert set(by_file) == {"syntax.yaml", "unknown.yaml", "missing.yaml", "wrongtype.yaml", "unsafe.yaml", "zz-dup.yaml"}
    assert all(len(v) == 1 for v in by_file.values()), by_file
    unknown = by_file["unknown.yaml"][0]
    assert unknown.line == 6 and "colour" in unknown.message
    assert "difficulty" in by_file["missing.yaml"][0].message
    assert "weight" in by_file["wrongtype.yaml"][0].message and by_file["wrongtype.yaml"][0].line == 11
    assert "unsafe" in by_file["unsafe.yaml"][0].message
    assert "duplicate card id" in by_file["zz-dup.yaml"][0].message
    assert by_file["syntax.yaml"][0].line >= 4


def test_cards_check_prints_path_line_message_and_exits_1(tmp_path: Path, capsys) -> None:
    _write(tmp_path, "good.yaml", GOOD.format(id="fixture-good"))
    bad = GOOD.format(id="fixture-unhittable").replace('[["@warmup"]]', '[["@no-such-vocab"]]')
    _write(tmp_path, "unhittable.yaml", bad)
    nohit = GOOD.format(id="fixture-nohit").replace('[["@warmup"]]', '[["...", "!!"]]')
    _write(tmp_path, "nohit.yaml", nohit)
    _write(tmp_path, "unknown.yaml", GOOD.format(id="fixture-unknown").replace("tags: [test]", "tags: [test]\nfoo: 1"))
    code = main(["cards", "check", "--content", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert any(line.startswith(f"{tmp_path / 'unknown.yaml'}:5: unknown field 'foo'") for line in out), out
    assert any("unhittable.yaml:" in line and "no-such-vocab" in line for line in out), out
    assert any("nohit.yaml:" in line and "never be hit" in line for line in out), out
    assert not any("good.yaml" in line for line in out)


def test_a_point_without_a_source_is_a_warning_not_a_failure(tmp_path: Path, capsys) -> None:
    _write(tmp_path, "unsourced.yaml", GOOD.format(id="fixture-unsourced").replace(", points: [post-warmup]", ""))
    code = main(["cards", "check", "--content", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert any("unsourced.yaml:10: warning: point 'post-warmup' has no source" in line for line in out), out


def test_cards_check_passes_on_the_bundled_deck(capsys) -> None:
    assert main(["cards", "check"]) == 0


def test_cards_list_json_and_extra_dirs(tmp_path: Path, capsys, monkeypatch) -> None:
    _write(tmp_path, "good.yaml", GOOD.format(id="fixture-good"))
    monkeypatch.setenv("LNDRILL_CONTENT", str(tmp_path))
    assert main(["cards", "list", "--json"]) == 0
    ids = {c["id"] for c in json.loads(capsys.readouterr().out)}
    assert "fixture-good" in ids and "pre-vs-post-ln" in ids


def test_the_annotated_example_in_the_card_guide_is_a_valid_card(tmp_path: Path, capsys) -> None:
    guide = (Path(__file__).resolve().parent.parent / "lndrill" / "content" / "README.md").read_text("utf-8")
    start = guide.index("```yaml\n# One card per file") + len("```yaml\n")
    example = guide[start : guide.index("\n```", start)]
    _write(tmp_path, "batchnorm-vs-layernorm.yaml", example)
    code = main(["cards", "check", "--content", str(tmp_path)])
    out = [line for line in capsys.readouterr().out.splitlines() if "batchnorm-vs-layernorm" in line]
    assert code == 0 and out == []


def test_cards_check_flags_one_character_phrases_and_nested_vocab(tmp_path: Path, capsys) -> None:
    card = GOOD.format(id="fixture-loose").replace('[["@warmup"]]', '[["(d)"]]\n          - concepts: [["@outer"]]')
    card = card.replace("sections:", 'vocab:\n  outer: ["@warmup", warm-up]\nsections:')
    _write(tmp_path, "loose.yaml", card)
    code = main(["cards", "check", "--content", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "is the single character 'd' in a one-group recogniser" in out
    assert "vocabulary '@outer' lists '@warmup'" in out


# ---------------------------------------------------------------------------------------------- the format
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "lndrill" / "content" / "card.schema.json"


def test_the_committed_json_schema_is_the_one_the_format_declares() -> None:
    from lndrill.cards.fileformat import json_schema_text

    assert SCHEMA_FILE.read_text("utf-8") == json_schema_text(), (
        "lndrill/content/card.schema.json is stale: run `lndrill cards schema > lndrill/content/card.schema.json`")


def test_cards_schema_prints_the_schema(capsys) -> None:
    assert main(["cards", "schema"]) == 0
    assert capsys.readouterr().out == SCHEMA_FILE.read_text("utf-8")


def test_the_json_schema_accepts_every_bundled_card_and_rejects_what_the_loader_rejects() -> None:
    import jsonschema
    import yaml

    schema = json.loads(SCHEMA_FILE.read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    content = SCHEMA_FILE.parent
    for path in sorted(content.glob("*.yaml")):
        assert list(validator.iter_errors(yaml.safe_load(path.read_text("utf-8")))) == [], path.name
    good = yaml.safe_load(GOOD.format(id="fixture-good"))
    assert list(validator.iter_errors(good)) == []
    for broken in (GOOD.format(id="x").replace("difficulty: easy", "difficulty: easy\ncolour: blue"),
                   GOOD.format(id="x").replace("weight: 10", "weight: 0"),
                   GOOD.format(id="x").replace('arxiv: "2002.04745"', "arxiv: 2002.04745"),
                   GOOD.format(id="x").replace('- concepts: [["@warmup"]]', '- {concepts: [w], formula: "LN(x)"}'),
                   GOOD.format(id="Not_A_Slug")):
        assert list(validator.iter_errors(yaml.safe_load(broken))), broken


def test_every_problem_of_a_file_is_named_at_its_line(tmp_path: Path) -> None:
    text = (GOOD.format(id="fixture-many").replace("weight: 10", "weight: heavy")
            .replace("difficulty: easy", "difficulty: easy\nfoo: 1").replace("tags: [test]", "tags: [Test]")
            .replace('claim: {en: "Post-LN needs warm-up.", zh: "Post-LN 需要 warm-up。"}',
                     'claim: {en: "Post-LN needs warm-up."}'))
    _write(tmp_path, "many.yaml", text)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert deck.cards == {}
    assert sorted((p.line, p.message) for p in deck.problems) == [
        (4, "'tags' must be a list of slugs, got 'Test'"),
        (6, "unknown field 'foo' in the card (allowed: default_subject, difficulty, follow_ups, id, "
            "model_answer, prompt, sections, sources, subjects, tags, title, vocab)"),
        (12, "'weight' in point 'post-warmup' must be a number in (0, 100], got 'heavy'"),
        (13, "missing field 'zh' in claim of point 'post-warmup'"),
    ]


def test_rules_across_fields_keep_their_lines(tmp_path: Path) -> None:
    text = GOOD.format(id="fixture-rules").replace("points: [post-warmup]", "points: [post-warmup, nope]").replace(
        '          - concepts: [["@warmup"]]\n',
        '          - concepts: [["@warmup"]]\n            formula: "LN(x + F(x))"\n'
        "        mistakes:\n          - id: main\n            explanation: {en: a, zh: b}\n")
    _write(tmp_path, "rules.yaml", text)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert sorted((p.line, p.message) for p in deck.problems) == [
        (15, "'match' entry 1 of point 'post-warmup' needs exactly one of 'concepts', 'formula' or 'value'"),
        (18, "id 'main' is used twice in this card (first on line 7)"),
        (18, "mistake 'main' needs 'when: swapped|negated' or its own 'match'"),
        (24, "source 2002.04745 names point 'nope', which this card does not have"),
    ]


def _cancel_fixture(tmp_path: Path, field: str, message: str) -> Card:
    """A card whose point's recogniser cancels on "adam" through `field`, checked by the loader (the same field on a
    formula recogniser is a problem with a line), loaded from tmp_path."""
    card_id = "fixture-" + field.replace("_", "-")
    good = GOOD.format(id=card_id).replace('          - concepts: [["@warmup"]]\n',
                                                      f'          - concepts: [["@warmup"]]\n            {field}: [adam]\n')
    bad = GOOD.format(id=f"{card_id}-bad").replace('          - concepts: [["@warmup"]]\n',
                                                         f'          - formula: "x + F(LN(x))"\n            {field}: [adam]\n')
    _write(tmp_path, "good.yaml", good)
    _write(tmp_path, "bad.yaml", bad)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert [p.message for p in deck.problems if p.path.name == "good.yaml"] == []
    assert any(message in p.message and p.line > 0 for p in deck.problems if p.path.name == "bad.yaml")
    return deck.cards[card_id]


def _hits(card: Card, text: str) -> set[str]:
    return {p.id for s in score_answer(card, text).sections for p in s.points if p.hit}


def test_unless_cancels_a_match_and_goes_only_with_concepts(tmp_path) -> None:
    card = _cancel_fixture(tmp_path, "unless", "'unless' only goes with 'concepts'")
    assert _hits(card, "Post-LN needs warm-up to train.") == {"post-warmup"}
    assert _hits(card, "With Adam, Post-LN needs warm-up.") == set()  # "adam" stands before the match in its sentence
    assert _hits(card, "Post-LN needs warm-up. Adam is the optimiser.") == {"post-warmup"}  # another sentence cancels nothing


def test_said_of_reads_a_comparison_the_other_way_round_and_names_whom_a_mistakes_words_are_wrong_of(tmp_path) -> None:
    converse = ('          - concepts: [["@warmup"]]\n'
                '          - concepts: [["can skip warm-up", "可以不用 warm-up"]]\n            said_of: {subject}\n')
    # the card asks which placement needs warm-up: "Pre-LN can skip warm-up" says Post-LN is the one that needs it
    good = GOOD.format(id="fixture-said-of").replace('          - concepts: [["@warmup"]]\n', converse.format(subject="pre"))
    unknown = GOOD.format(id="fixture-said-of-unknown").replace('          - concepts: [["@warmup"]]\n',
                                                               converse.format(subject="nobody"))
    in_mistake = GOOD.format(id="fixture-said-of-mistake").replace(
        '          - concepts: [["@warmup"]]\n',
        '          - concepts: [["@warmup"]]\n        mistakes:\n          - id: pre-warmup\n'
        '            explanation: {en: a, zh: b}\n            match:\n'
        '              - concepts: [["@warmup"]]\n                said_of: pre\n')
    for name, text in (("good.yaml", good), ("unknown.yaml", unknown), ("mistake.yaml", in_mistake)):
        _write(tmp_path, name, text)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert [p.message for p in deck.problems if p.path.name == "good.yaml"] == []
    assert any("'said_of: nobody' is not one of the card's subjects" in message and line > 0
               for line, message in rubric_for(deck.cards["fixture-said-of-unknown"]).problems)
    assert [p.message for p in deck.problems if p.path.name == "mistake.yaml"] == []
    # in a mistake: the words are wrong only of `said_of`; a clause naming another subject is not charged
    wrong = deck.cards["fixture-said-of-mistake"]
    assert [m.id for m in score_answer(wrong, "Pre-LN relies on warm-up.").mistakes] == ["pre-warmup"]
    assert [m.id for m in score_answer(wrong, "Post-LN relies on warm-up.").mistakes] == []
    card = deck.cards["fixture-said-of"]
    hit = {p.id for s in score_answer(card, "Pre-LN can skip warm-up.").sections for p in s.points if p.hit}
    assert hit == {"post-warmup"}
    hit = {p.id for s in score_answer(card, "Post-LN can skip warm-up.").sections for p in s.points if p.hit}
    assert hit == set()


def test_unless_context_cancels_a_match_from_the_item_or_heading_it_stands_under(tmp_path) -> None:
    card = _cancel_fixture(tmp_path, "unless_context", "only goes with 'concepts'")
    assert _hits(card, "Post-LN needs warm-up to train.") == {"post-warmup"}
    assert _hits(card, "- **Adam**: the optimiser. Post-LN needs warm-up with it.") == set()  # the item's label
    assert _hits(card, "## Adam\n\nPost-LN needs warm-up.") == set()  # the heading above the paragraph
    assert _hits(card, "Adam is the optimiser. Post-LN needs warm-up.") == set()  # earlier in the same paragraph
    assert _hits(card, "Post-LN needs warm-up. Adam is the optimiser.") == {"post-warmup"}  # only what comes before
    assert _hits(card, "Adam is the optimiser.\n\nPost-LN needs warm-up.") == {"post-warmup"}  # another paragraph


def test_unless_within_cancels_a_match_only_from_between_its_terms(tmp_path) -> None:
    _cancel_fixture(tmp_path, "unless_within", "'unless_within' only goes with 'concepts'")
    two_terms = GOOD.format(id="fixture-within").replace(
        '          - concepts: [["@warmup"]]\n',
        '          - concepts: [["@warmup"], [steps]]\n            unless_within: [adam]\n')
    _write(tmp_path, "within.yaml", two_terms)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert [p.message for p in deck.problems if p.path.name == "within.yaml"] == []
    card = deck.cards["fixture-within"]
    assert _hits(card, "Post-LN needs warm-up for 4000 steps.") == {"post-warmup"}
    assert _hits(card, "Post-LN needs warm-up with Adam for 4000 steps.") == set()  # between the two terms
    assert _hits(card, "With Adam, Post-LN needs warm-up for 4000 steps.") == {"post-warmup"}  # before them: kept
    assert _hits(card, "Post-LN needs warm-up for 4000 steps with Adam.") == {"post-warmup"}  # after them: kept
