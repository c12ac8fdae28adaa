"""What a failing SQLite or file-system call means for the history, and how to say it in one line.

Only damage moves a history file aside: SQLite's CORRUPT or NOTADB, a failed `quick_check`, or a file
that belongs to another program. Everything else (a full disk, an I/O error, a read-only file or
directory, a busy lock, a missing permission) means "history is unavailable now": the file stays
where it is, untouched.
"""

from __future__ import annotations

import errno
import sqlite3

SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26

#: What the user is told for an SQLite result code (the primary code, without its extended bits).
_REASONS = {
    SQLITE_PERM: "permission denied",
    SQLITE_BUSY: "another process is using it",
    SQLITE_LOCKED: "another process is using it",
    SQLITE_READONLY: "it is read-only",
    SQLITE_IOERR: "I/O error",
    SQLITE_FULL: "the disk is full (or a file size limit was reached)",
}

_OS_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EFBIG: "a file size limit was reached",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EEXIST: "a file of that name is in the way",
    errno.ENOTDIR: "a file is in the way (not a directory)",
}


class Damaged(sqlite3.DatabaseError):
    """A readable file that is not a healthy lndrill history (failed check, another program's tables)."""


class NewerSchema(Exception):
    """The file was written by a newer lndrill."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (its type name when it has none)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def primary_code(exc: BaseException) -> int | None:
    """SQLite's primary result code for an sqlite3 error (None when it carries none)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_damage(exc: BaseException) -> bool:
    """Whether `exc` says the file itself is damaged (and only then may it be moved aside)."""
    return isinstance(exc, Damaged) or primary_code(exc) in (SQLITE_CORRUPT, SQLITE_NOTADB)


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` is another process holding the database locked."""
    return primary_code(exc) in (SQLITE_BUSY, SQLITE_LOCKED)


def reason(exc: BaseException) -> str:
    """Why a call failed, in a few words for the user: SQLite's or the OS's message, and what it means."""
    if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error):
        text = _OS_REASONS.get(exc.errno or -1) or exc.strerror or one_line(exc)
        return text
    code = primary_code(exc)
    message = one_line(exc)
    meaning = _REASONS.get(code) if code is not None else None
    if meaning and meaning not in message:
        return f"{message}: {meaning}"
    return message
