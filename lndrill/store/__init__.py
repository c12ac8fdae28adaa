"""lndrill.store: answer history, drafts and the spaced-repetition schedule (headless: never imports textual).

Entry point: `open_store()` returns a `Store`; see `lndrill.store.history.Store` for the calls.
"""

from lndrill.store.db import SCHEMA_VERSION, StoreError
from lndrill.store.history import Store, memory_store, open_store
from lndrill.store.records import Attempt, CardStatus, PointRecord

__all__ = [
    "SCHEMA_VERSION", "Attempt", "CardStatus", "PointRecord", "Store", "StoreError", "memory_store", "open_store",
]
