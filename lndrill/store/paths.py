"""Where lndrill keeps its data: the user data directory, or `$LNDRILL_HOME` when set."""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "LNDRILL_HOME"
DB_NAME = "history.db"
REPORTS_DIR = "reports"


def data_dir() -> Path:
    """The data directory: `$LNDRILL_HOME` if set, else the per-OS user data dir (platformdirs)."""
    override = os.environ.get(HOME_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("lndrill", appauthor=False))


def db_path(directory: Path | None = None) -> Path:
    """The history database file inside `directory` (default: `data_dir()`)."""
    return (directory or data_dir()) / DB_NAME


def reports_dir(directory: Path | None = None) -> Path:
    """Where mock-interview reports are saved inside `directory` (default: `data_dir()`)."""
    return (directory or data_dir()) / REPORTS_DIR
