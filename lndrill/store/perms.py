"""Private files: the data directory is created 0700, the history and what lndrill writes beside it 0600,
and write access is checked before anything is written.

SQLite creates `-wal` and `-shm` with the mode of the database file, so a history that is 0600 keeps
its side files private too. A side file left read-only (the database was once opened while it was
read-only) is made writable again when the database itself is writable, or named in the error.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lndrill.store.faults import reason

DIR_MODE = 0o700
FILE_MODE = 0o600
SIDE_FILES = ("-wal", "-shm")


def side_files(path: Path) -> list[Path]:
    """The `-wal` and `-shm` files of the database at `path` (whether or not they exist)."""
    return [path.with_name(path.name + extra) for extra in SIDE_FILES]


def private_dir(directory: Path) -> None:
    """Create `directory` (and its parents) if missing; the directory itself 0700. OSError if it cannot."""
    if directory.is_dir():
        return
    directory.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)


def _owned(st: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()


def tighten(path: Path) -> None:
    """Take group and other permissions off a file lndrill owns (a read-only file stays read-only)."""
    try:
        st = path.stat()
        if _owned(st) and stat.S_IMODE(st.st_mode) & 0o077:
            path.chmod(stat.S_IMODE(st.st_mode) & 0o700)
    except OSError:
        pass


def create_private(path: Path) -> None:
    """Create `path` as an empty 0600 file unless it exists (SQLite then uses it as a new database)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def write_problem(path: Path) -> str | None:
    """Why the database at `path` cannot be written now, or None when it can.

    Checks the directory (the database and its side files are created there), the file, and its side
    files; a side file left read-only is made writable again when lndrill owns it.
    """
    directory = path.parent
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"the data directory {directory} is read-only"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"{path} is read-only" if os.access(path, os.R_OK) else f"{path} cannot be read"
    for side in side_files(path):
        if not side.exists() or os.access(side, os.R_OK | os.W_OK):
            continue
        try:
            if not _owned(side.stat()):
                return f"{side} is not writable (it belongs to another user)"
            side.chmod(FILE_MODE)
        except OSError as exc:
            return f"{side} is not writable ({reason(exc)})"
    return None
