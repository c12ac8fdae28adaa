"""`lndrill stats` prints exactly what it printed before `Stats` became a typed record.

tests/fixtures/stats-golden.json and stats-golden.txt are the output of the earlier `lndrill/cli_stats.py`
(the dictionary-based `Store.stats`, commit e224f84) for the fixed history `helpers.write_stats_history`
on the two-card deck in tests/fixtures/stats-deck, at `helpers.STATS_NOW`, with TZ=UTC and 80 columns.
Scores are built by hand, so tuning the scorer or editing the bundled deck never moves these files.
Since then one thing was added on purpose (issue 10): the points overruled and mistakes disputed most,
`"most_overruled"` at the end of the JSON and a "Most overruled" table at the end of the text.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from helpers import STATS_DECK_DIR, STATS_GOLDEN, STATS_NOW, write_stats_history

import lndrill.cards.deck
import lndrill.cli.stats
from lndrill.cards.deck import load_deck
from lndrill.cli import main
from lndrill.store import open_store


@pytest.fixture
def fixture_history(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only the stats deck (as if it were the bundled one), its history, a fixed clock, UTC, 80 columns."""
    monkeypatch.setattr(lndrill.cards.deck, "bundled_content_dir", lambda: STATS_DECK_DIR)
    monkeypatch.setattr(lndrill.cli.stats, "utc_now", lambda: STATS_NOW)
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("COLUMNS", "80")
    time.tzset()
    deck = load_deck()
    assert list(deck.cards) == ["alpha", "beta"] and not deck.problems
    with open_store() as store:
        write_stats_history(store, deck.cards)
    yield
    monkeypatch.undo()
    time.tzset()


def test_stats_json_is_byte_identical_to_the_dictionary_version(fixture_history, capsysbinary) -> None:
    assert main(["stats", "--json"]) == 0
    out = capsysbinary.readouterr()
    assert out.err == b""
    assert out.out == STATS_GOLDEN.read_bytes()


def test_stats_for_people_is_unchanged(fixture_history, capsys) -> None:
    assert main(["stats"]) == 0
    assert capsys.readouterr().out == STATS_GOLDEN.with_suffix(".txt").read_text("utf-8")


def test_an_answer_whose_scoring_never_finished_changes_no_stats(fixture_history, capsysbinary) -> None:
    with open_store() as store:
        store.record_answer("alpha", "drill", {"answer": "typed, then the scorer crashed"}, 12.0, now=STATS_NOW)
        assert list(store.unscored_answers().values()) == [{"answer": "typed, then the scorer crashed"}]
    assert main(["stats", "--json"]) == 0
    assert capsysbinary.readouterr().out == STATS_GOLDEN.read_bytes()
