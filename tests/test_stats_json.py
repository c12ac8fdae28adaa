"""`lndrill stats` prints exactly what it printed before `Stats` became a typed record.

tests/fixtures/stats-golden.json and stats-golden.txt are the output of the earlier `lndrill/cli_stats.py`
(the dictionary-based `Store.stats`, commit e224f84) for the fixed history `helpers.write_stats_history`
on the two-card deck in tests/fixtures/stats-deck, at `helpers.STATS_NOW`, with TZ=UTC and 80 columns.
Scores are built by hand, so tuning the scorer or editing the bundled deck never moves these files.
Since then one thing was added on purpose (issue 10): the points overruled and mistakes disputed most,
`"most_overruled"` at the end of the JSON and a "Most overruled" table at the end of the text. And one
number changed on purpose (issue 8): totals are on an interviewer's scale (`scoring.result.INTERVIEWER_SCALE`),
so the hand-built perfect answer reads 90 (95 until `elaboration` came, 93 until the scale's top knot went to 90), the
one-point answer 28, and since the scale bends between 45 and 90 the half answer 48 and the three-quarter one 78; only
those numbers, the averages and trend built on them, and one review date (the rating follows the score) moved.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import timedelta

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


def test_an_answer_whose_scoring_never_finished_changes_no_stats_until_it_is_scored(fixture_history,
                                                                                  capsysbinary) -> None:
    # A card no longer in the deck: it stays unscored (one line says so) and out of the statistics.
    with open_store() as store:
        store.record_answer("gone", "drill", {"answer": "typed, then the process was killed"}, 12.0,
                            now=STATS_NOW - timedelta(minutes=1))
    assert main(["stats", "--json"]) == 0
    out = capsysbinary.readouterr()
    assert out.out == STATS_GOLDEN.read_bytes()
    assert out.err == (b"lndrill: 1 unscored answer(s) in your history are for cards not in this deck (gone); "
                       b"they are kept, unscored\n")
    # A card in the deck: `stats` scores it first (tests/test_rescore.py), and it is counted.
    with open_store() as store:
        store.record_answer("alpha", "drill", {"answer": "typed, then the process was killed"}, 12.0,
                            now=STATS_NOW - timedelta(minutes=1))
    assert main(["stats", "--json"]) == 0
    before = json.loads(STATS_GOLDEN.read_bytes())
    assert json.loads(capsysbinary.readouterr().out)["total_attempts"] == before["total_attempts"] + 1
