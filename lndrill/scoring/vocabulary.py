"""The shared vocabulary (subjects, short names, concepts and other methods) that card rubrics refer to, from vocab.yaml."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml


@lru_cache(maxsize=1)
def _raw_vocabulary() -> dict[str, Any]:
    """vocab.yaml as loaded, read and parsed once (it takes tens of milliseconds)."""
    raw = yaml.safe_load(resources.files("lndrill.scoring").joinpath("vocab.yaml").read_text("utf-8"))
    return raw if isinstance(raw, dict) else {}


@lru_cache(maxsize=1)
def short_names() -> dict[str, tuple[str, ...]]:
    """Case-sensitive short names of subjects ("Post", "Pre"), from vocab.yaml."""
    raw = _raw_vocabulary()
    return {str(k): tuple(str(p) for p in v) for k, v in (raw.get("short_names") or {}).items()}


@lru_cache(maxsize=1)
def shared_vocabulary() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(subjects, concepts): phrase lists from lndrill/scoring/vocab.yaml."""
    raw = _raw_vocabulary()
    subjects = {str(k): tuple(str(p) for p in v) for k, v in raw["subjects"].items()}
    concepts = {str(k): tuple(str(p) for p in v) for k, v in raw["concepts"].items()}
    return subjects, concepts


@lru_cache(maxsize=1)
def other_methods() -> tuple[str, ...]:
    """Names of normalisation layers and initialisation schemes no card has as a subject, from vocab.yaml."""
    return tuple(str(p) for p in _raw_vocabulary().get("other_methods") or ())
