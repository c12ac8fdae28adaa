"""Finding card files in a content directory, and saying what could not be looked at.

`Path.rglob` skips a directory it cannot read and a symlink that points nowhere without a word, so a
mode-000 content directory looked like an empty deck. This walk reports each: an unreadable directory,
a broken symlink, a path that is not a directory. Hidden files and directories are skipped;
symlinked directories are followed once (a link back up the tree is not walked again).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lndrill.cards.parse import Problem

CARD_SUFFIXES = (".yaml", ".yml")


def _reason(exc: OSError) -> str:
    return exc.strerror or " ".join(str(exc).split()) or type(exc).__name__


def find_card_files(directory: Path) -> tuple[list[Path], list[Problem]]:
    """Card files (`*.yaml`, `*.yml`) under `directory`, sorted, and a problem for each place that
    could not be looked at."""
    problems: list[Problem] = []
    try:
        info = directory.stat()
    except FileNotFoundError:
        broken = directory.is_symlink()
        problems.append(Problem(directory, 0, "content directory is a broken symlink" if broken
                                else "content directory not found"))
        return [], problems
    except OSError as exc:
        problems.append(Problem(directory, 0, f"cannot read content directory: {_reason(exc)}"))
        return [], problems
    if not stat.S_ISDIR(info.st_mode):
        problems.append(Problem(directory, 0, "not a directory (--content and $LNDRILL_CONTENT name directories)"))
        return [], problems
    found: list[Path] = []
    _walk(directory, found, problems, {(info.st_dev, info.st_ino)})
    return sorted(found), problems


def _walk(top: Path, found: list[Path], problems: list[Problem], seen: set[tuple[int, int]]) -> None:
    pending = [top]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name, reverse=True)
        except OSError as exc:
            problems.append(Problem(directory, 0, f"cannot read directory: {_reason(exc)}; its cards were not loaded"))
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                info = os.stat(entry.path)  # follows symlinks
            except FileNotFoundError:
                if entry.is_symlink():
                    problems.append(Problem(path, 0, f"broken symlink (to {_target(path)}); skipped"))
                continue
            except OSError as exc:
                problems.append(Problem(path, 0, f"cannot read: {_reason(exc)}; skipped"))
                continue
            if stat.S_ISDIR(info.st_mode):
                key = (info.st_dev, info.st_ino)
                if key not in seen:
                    seen.add(key)
                    pending.append(path)
            elif path.suffix in CARD_SUFFIXES and stat.S_ISREG(info.st_mode):
                found.append(path)
            elif path.suffix in CARD_SUFFIXES:
                problems.append(Problem(path, 0, "not a regular file; skipped"))


def _target(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"
