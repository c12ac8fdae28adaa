"""lndrill.store: answer history, drafts and the spaced-repetition schedule (headless: never imports textual).

Entry point: `open_store()` returns a `Store`; see `lndrill.store.history.Store` for the calls. Opening
and what a damaged or unavailable file means: `lndrill.store.opening`; answers kept while the history
cannot be written: `lndrill.store.pending`; what `stats` reads: `lndrill.store.summary`.
"""

from lndrill.store.access import memory_store, open_store
from lndrill.store.db import SCHEMA_VERSION, StoreError
from lndrill.store.history import Store
from lndrill.store.pending import KeptAnswer
from lndrill.store.records import Attempt, CardStatus, PointRecord
from lndrill.store.summary import HistorySummary

__all__ = [
    "SCHEMA_VERSION", "Attempt", "CardStatus", "HistorySummary", "KeptAnswer", "PointRecord", "Store", "StoreError",
    "memory_store", "open_store",
]
