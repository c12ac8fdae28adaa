"""`lndrill stats` aggregates in SQL (issue 11, item 6): it never reads an answer's text, and it reports
exactly what the earlier version computed from every stored attempt (kept here as the reference).

How fast it is on 100k answers is benchmarks/bench_stats.py (figures, not a test).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import timedelta

from helpers import T0, hand_scored

from lndrill.cards.schema import Card
from lndrill.practice.stats import LAST_N, TREND_N, history_stats
from lndrill.store import Attempt, Store, memory_store


def _reference(cards: Mapping[str, Card], attempts: Sequence[Attempt], store: Store) -> dict:
    """The stats as the dictionary version computed them from every attempt (commit e224f84)."""
    by_card: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_card.setdefault(a.card_id, []).append(a)
    ids = list(cards) + sorted(set(by_card) - set(cards))
    statuses = store.card_status(ids, T0)
    out_cards = {}
    for cid in ids:
        mine = by_card.get(cid, [])
        out_cards[cid] = {
            "attempts": len(mine), "best": max((a.score for a in mine), default=None),
            "last": mine[-1].score if mine else None,
            "last_at": mine[-1].submitted_at.isoformat(timespec="seconds") if mine else None,
            "due": statuses[cid].due.isoformat(timespec="seconds") if statuses[cid].due else None,
            "overridden_points": sum(len(a.overrides) for a in mine), "in_deck": cid in cards,
        }
    sections = {}
    for cid, mine in by_card.items():
        values: dict[str, list[float]] = {}
        for a in mine[-LAST_N:]:
            for sid, pct in a.section_percent().items():
                values.setdefault(sid, []).append(pct)
        card = cards.get(cid)
        order = [s.id for s in card.sections] if card else sorted(values)
        for sid in order + sorted(set(values) - set(order)):
            if sid in values:
                sections[f"{cid}/{sid}"] = (round(sum(values[sid]) / len(values[sid]), 1), len(values[sid]))
    tags: dict[str, list[int]] = {}
    for a in reversed(attempts):
        card = cards.get(a.card_id)
        for tag in card.tags if card else ():
            bucket = tags.setdefault(tag, [])
            if len(bucket) < LAST_N:
                bucket.append(a.score)
    return {
        "total": len(attempts), "cards": out_cards, "sections": sections,
        "tags": {t: (round(sum(v) / len(v), 1), len(v)) for t, v in sorted(tags.items())},
        "trend": [(a.card_id, a.score) for a in attempts[-TREND_N:]],
        "first_at": attempts[0].submitted_at.isoformat(timespec="seconds") if attempts else None,
    }


def _random_history(deck, seed: int) -> Store:
    """Answers to three deck cards and one that left the deck: ties in time, overrules, reviews or not."""
    rng = random.Random(seed)
    store = memory_store(clock=lambda: T0)
    cards = [deck.get("pre-vs-post-ln"), deck.get("rmsnorm"), deck.get("deepnorm")]
    for i in range(rng.randint(30, 90)):
        card = rng.choice(cards)
        points = [p.id for s in card.sections for p in s.points]
        other = "retired-card" if rng.random() < 0.1 else None
        result = hand_scored(card, rng.sample(points, rng.randint(0, len(points))), other)
        at = T0 - timedelta(hours=rng.randint(0, 60))  # many answers share a time: the id decides
        aid = store.record_attempt(other or card.id, "drill", {"answer": f"text {i}"}, result, 10, now=at,
                                   review=rng.random() < 0.7)
        if rng.random() < 0.2:
            flipped = rng.choice(points)
            hit = not any(p.hit for s in result.sections for p in s.points if p.id == flipped)
            store.update_overrides(aid, {flipped: hit}, result.overrule(flipped, hit).score)
    return store


def _shown(stats) -> dict:
    data = stats.to_dict()
    return {
        "total": data["total_attempts"], "cards": data["cards"],
        "sections": {k: (v["average"], v["attempts"]) for k, v in data["sections"].items()},
        "tags": {t: (v["average"], v["attempts"]) for t, v in data["tags"].items()},
        "trend": [(t["card"], t["score"]) for t in data["trend"]], "first_at": data["first_at"],
    }


def test_sql_stats_equal_the_stats_of_every_attempt(deck) -> None:
    for seed in range(8):
        store = _random_history(deck, seed)
        stats = history_stats(store, deck.cards, T0)
        expected = _reference(deck.cards, store.attempts(), store)
        assert _shown(stats) == expected, seed
        assert list(_shown(stats)["sections"]) == list(expected["sections"]), seed  # the same order too


def test_stats_never_read_an_answer_text(deck) -> None:
    store = _random_history(deck, 1)
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    stats = history_stats(store, deck.cards, T0)
    assert stats.total_attempts > 0 and statements
    assert not [s for s in statements if "attempt_answers" in s or "result_json" in s]
