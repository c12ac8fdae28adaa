"""Which blind batches fit_weights.py holds out for its check: the ones that joined the tuning half last."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from fit_weights import OWN_BATCH, newest_batches  # noqa: E402


def test_the_newest_batches_are_the_last_to_join_not_the_last_in_the_alphabet() -> None:
    # (suffixes ran a ... z, za ... zz, then xa, xb: "zz" is older than "xb")
    card = ["a", "a", "z", "za", "zz", "zz", "xa", "xb", "xb", OWN_BATCH, OWN_BATCH]
    assert newest_batches([card, card], 2) == {"xa", "xb"}


def test_a_card_missing_the_newest_batch_does_not_make_an_old_one_look_new() -> None:
    full = ["a", "b", "c", "d"]
    short = ["a", "b", "c"]  # (no answers of batch d for this card)
    assert newest_batches([full, short], 1) == {"d"}
    assert newest_batches([full, short], 2) == {"c", "d"}
