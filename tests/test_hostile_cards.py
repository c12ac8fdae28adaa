"""Hostile card files (issue 11, items 8-12): whatever a content directory holds, every command still
runs, each problem is one `path:line: message` (just `path: message` when no line applies), the
good cards still load, and nothing from a card reaches the terminal as a control sequence."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from lndrill.cards import files as card_files
from lndrill.cards.deck import load_deck
from lndrill.cli import main

CARD = """\
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
        weight: {weight}
        claim: {{en: "Post-LN needs warm-up.", zh: "Post-LN 需要 warm-up。"}}
        about: post
        match:
          - concepts: [["@warmup"]]
model_answer: {{en: "Post-LN needs warm-up.", zh: "Post-LN 需要 warm-up。"}}
follow_ups:
  - {{en: "Why?", zh: "为什么？"}}
sources:
  - {{arxiv: "2002.04745", section: {section}, points: [post-warmup]}}
"""

#: 11 levels of nested aliases (489 bytes with its card around it) that reach `sources[].section`.
LAUGHS = "".join(
    [f"l0: &l0 [{', '.join(['lol'] * 9)}]\n"]
    + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 11)]
)

CONTROL_BYTES = ("\x1b", "\x07", "\x00", "\x9b")


def card(card_id: str = "fixture-card", weight: str = "10", section: str = '"3.2"') -> str:
    return CARD.format(id=card_id, weight=weight, section=section)


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_rubric_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cards check` also proves each card's rubric (seconds per card); these tests are about files."""
    import lndrill.scoring.selfcheck as selfcheck

    monkeypatch.setattr(selfcheck, "check_card", lambda card, cards: [])


def check(capsys: pytest.CaptureFixture[str], *dirs: Path) -> tuple[int, list[str], str]:
    """`lndrill cards check --content DIR...`: exit status, stdout lines, stderr."""
    argv = ["cards", "check"]
    for d in dirs:
        argv += ["--content", str(d)]
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def problems_of(directory: Path) -> list[str]:
    return [str(p) for p in load_deck([str(directory)], include_bundled=False).problems]


def no_control(text: str) -> bool:
    return not any(c in text for c in CONTROL_BYTES)


# ---------------------------------------------------------------------------------------------- item 8
def test_a_date_like_id_is_text_and_the_card_loads(tmp_path: Path, capsys) -> None:
    write(tmp_path, "dated.yaml", card("2024-13-01"))
    assert main(["cards", "list", "--json", "--content", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert '"id": "2024-13-01"' in out and "Traceback" not in err


def test_an_impossible_date_as_a_section_is_its_text(tmp_path: Path) -> None:
    write(tmp_path, "dated.yaml", card(section="2020-02-30"))
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert deck.problems == []
    assert deck.cards["fixture-card"].sources[0].section == "2020-02-30"


def test_a_4301_digit_integer_is_text_where_text_is_wanted(tmp_path: Path) -> None:
    digits = "1" * 4301
    write(tmp_path, "long-id.yaml", card(digits))
    write(tmp_path, "long-section.yaml", card("fixture-section", section=digits))
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert deck.problems == []
    assert digits in deck.cards and deck.cards["fixture-section"].sources[0].section == digits


def test_a_4301_digit_weight_is_one_problem_at_its_line(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "heavy.yaml", card(weight="9" * 4301))
    code, out, err = check(capsys, tmp_path)
    assert code == 1
    (line,) = [x for x in out if x.startswith(str(path))]
    assert line.startswith(f"{path}:11: 'weight' in point 'post-warmup' must be a number in (0, 100]")
    assert len(line) < 300 and "Traceback" not in err


def test_whole_numbers_still_count_as_numbers(tmp_path: Path) -> None:
    write(tmp_path, "weights.yaml", card(weight="12"))
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert deck.problems == [] and deck.cards["fixture-card"].sections[0].points[0].weight == 12


def test_a_bad_value_inside_a_constructor_is_one_line(tmp_path: Path) -> None:
    write(tmp_path, "binary.yaml", card(section="!!binary '%%%'"))
    write(tmp_path, "stamp.yaml", card("fixture-stamp", section="!!timestamp 2024-13-01"))
    found = problems_of(tmp_path)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'binary.yaml'}:")
    assert "\n" not in found[0]


# ---------------------------------------------------------------------------------------------- item 9
def test_billion_laughs_is_refused_at_the_first_alias(tmp_path: Path, capsys) -> None:
    text = LAUGHS + card(section="*l10").replace("id: fixture-card", "id: fixture-laughs")
    path = write(tmp_path, "laughs.yaml", text)
    code, out, err = check(capsys, tmp_path)
    assert code == 1
    assert [x for x in out if x.startswith(str(path))] == [
        f"{path}:2: YAML alias '*l0' (aliases are not allowed in cards; write the value out)"]
    assert "Traceback" not in err and "MemoryError" not in err


def test_a_merge_key_alias_is_refused_too(tmp_path: Path) -> None:
    text = card().replace("title: {en: Main, zh: 主要}", "<<: *shared").replace(
        "title: {en: \"A test card\"", "x-shared: &shared {title: {en: Main, zh: 主要}}\ntitle: {en: \"A test card\"")
    write(tmp_path, "merge.yaml", text)
    (problem,) = problems_of(tmp_path)
    assert "aliases are not allowed" in problem


def test_a_document_nested_too_deeply_is_one_line(tmp_path: Path) -> None:
    write(tmp_path, "deep.yaml", card() + "x: " + "[" * 990 + "]" * 990 + "\n")
    write(tmp_path, "deeper.yaml", card("fixture-deeper") + "x: " + "[" * 5000 + "]" * 5000 + "\n")
    found = problems_of(tmp_path)
    assert len(found) == 2 and all("\n" not in p for p in found)


# ---------------------------------------------------------------------------------------------- item 10
@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch):
    """Make directories unreadable: chmod 000, or (as root, who reads them anyway) refuse to list them."""
    made: list[Path] = []
    if os.geteuid() == 0:
        real = card_files.os.scandir

        def scandir(path):  # type: ignore[no-untyped-def]
            if Path(path) in made:
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real(path)

        monkeypatch.setattr(card_files.os, "scandir", scandir)

    def make(path: Path) -> Path:
        made.append(path)
        if os.geteuid() != 0:
            path.chmod(0)
        return path

    yield make
    for path in made:
        path.chmod(0o755)


def test_an_unreadable_content_directory_is_an_error_not_an_empty_deck(tmp_path: Path, capsys, unreadable) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    write(locked, "good.yaml", card())
    unreadable(locked)
    code, out, err = check(capsys, locked)
    assert code == 1
    assert f"{locked}: cannot read directory: Permission denied; its cards were not loaded" in out
    assert "OK" not in err


def test_an_unreadable_subdirectory_is_reported_and_the_rest_loads(tmp_path: Path, unreadable) -> None:
    write(tmp_path, "good.yaml", card())
    sub = tmp_path / "more"
    sub.mkdir()
    write(sub, "other.yaml", card("fixture-other"))
    unreadable(sub)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert set(deck.cards) == {"fixture-card"}
    assert [str(p) for p in deck.problems] == [
        f"{sub}: cannot read directory: Permission denied; its cards were not loaded"]


def test_dangling_symlinks_are_reported(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", card())
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "gone-dir").symlink_to(tmp_path / "no-such-dir")
    found = problems_of(tmp_path)
    assert f"{tmp_path / 'gone.yaml'}: broken symlink (to {tmp_path / 'nowhere.yaml'}); skipped" in found
    assert any(p.startswith(f"{tmp_path / 'gone-dir'}: broken symlink") for p in found)
    assert len(found) == 2


def test_a_content_directory_that_is_a_broken_symlink_or_a_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tmp_path / "missing")
    assert problems_of(tmp_path / "link") == [f"{tmp_path / 'link'}: content directory is a broken symlink"]
    plain = write(tmp_path, "plain.yaml", card())
    assert problems_of(plain)[0].startswith(f"{plain}: not a directory")
    assert problems_of(tmp_path / "absent") == [f"{tmp_path / 'absent'}: content directory not found"]


def test_a_symlink_loop_is_walked_once(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", card())
    (tmp_path / "again").symlink_to(tmp_path)
    deck = load_deck([str(tmp_path)], include_bundled=False)
    assert set(deck.cards) == {"fixture-card"} and deck.problems == []


def test_a_fifo_named_like_a_card_is_skipped_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    assert problems_of(tmp_path) == [f"{tmp_path / 'pipe.yaml'}: not a regular file; skipped"]


def test_a_duplicate_id_says_which_file_was_skipped_and_why(tmp_path: Path) -> None:
    first = write(tmp_path, "a.yaml", card())
    second = write(tmp_path, "b.yaml", card())
    assert problems_of(tmp_path) == [
        f"{second}:1: duplicate card id 'fixture-card': this file was skipped, the card from {first} is used "
        "(card ids are unique across all content directories)"]


def test_an_empty_content_option_is_an_error_not_the_current_directory(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "broken.yaml", "id: [")
    code = main(["cards", "check", "--content", ""])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == "lndrill: error: argument --content: needs a directory (got an empty name) " \
                  "(see `lndrill cards check --help`)\n"


# ---------------------------------------------------------------------------------------------- item 11
def test_a_reader_error_is_one_line_with_its_real_line(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "control.yaml", card().replace("title: {en: Main", "title: {en: Ma\x01in"))
    code, out, err = check(capsys, tmp_path)
    lines = [x for x in out if x.startswith(str(path))]
    assert code == 1
    assert lines == [f"{path}:8: character U+0001 is not allowed in YAML (control characters are not allowed)"]


def test_syntax_errors_are_one_line(tmp_path: Path) -> None:
    write(tmp_path, "syntax.yaml", card().replace("tags: [test]", "tags: [test\n  oops: ]"))
    write(tmp_path, "two.yaml", card("fixture-two") + "---\n" + card("fixture-three"))
    found = problems_of(tmp_path)
    assert len(found) == 2 and all("\n" not in p and ":0:" not in p for p in found)


# ---------------------------------------------------------------------------------------------- item 12
HOSTILE_TITLE = r'"\e]0;pwned\a\e[2J\e]8;;http://evil.example/\e\\click\e]8;;\e\\"'


def test_control_characters_in_card_text_are_refused_at_load(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "title.yaml", card().replace('title: {en: "A test card"', f"title: {{en: {HOSTILE_TITLE}"))
    c1 = write(tmp_path, "c1.yaml", card("fixture-c1").replace('"Why?"', r'"Why\x9b31m?"'))
    assert main(["cards", "list", "--content", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert no_control(out) and no_control(err)
    assert "skipped" in err and "fixture-card" not in out
    assert sorted(problems_of(tmp_path)) == sorted([
        f"{c1}:18: control character U+009B in text (cards may not contain terminal control characters)",
        f"{path}:2: control character U+001B in text (cards may not contain terminal control characters)",
    ])


def test_cards_check_never_echoes_control_characters_from_a_bad_id_or_a_file_name(tmp_path: Path, capsys) -> None:
    write(tmp_path, "id.yaml", card(r'"\e[2J\0bad"'))
    write(tmp_path, "\x1b]0;name\x07.yaml", card("fixture-x").replace("difficulty: easy", "difficulty: 5"))
    code, out, err = check(capsys, tmp_path)
    assert code == 1
    assert no_control("\n".join(out)) and no_control(err)
    assert any("control character U+001B" in x for x in out)
    assert any("]0;name.yaml:5: 'difficulty' must be one of easy, medium, hard" in x for x in out)


def test_a_problem_is_one_line_whatever_the_file_name_or_value_holds(tmp_path: Path, capsys) -> None:
    write(tmp_path, "two\nlines.yaml", card().replace("difficulty: easy", 'difficulty: "easy\\nhard"'))
    code, out, err = check(capsys, tmp_path)
    mine = [x for x in out if str(tmp_path) in x]
    assert code == 1 and mine == [
        f"{tmp_path}/two\\nlines.yaml:5: 'difficulty' must be one of easy, medium, hard, got 'easy\\nhard'"]


def test_long_keys_and_values_are_clipped_in_messages(tmp_path: Path) -> None:
    write(tmp_path, "long.yaml", card().replace("difficulty: easy", f"difficulty: easy\n? {'k' * 100_000}\n: 1"))
    (problem,) = problems_of(tmp_path)
    assert "unknown field 'kkkk" in problem and len(problem) < 400
