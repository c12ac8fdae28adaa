"""Settings that stick: theme, language, the simulator panel's knobs and the mock interview's defaults, in a
small TOML file in the user config directory (platformdirs), or wherever `$LNDRILL_CONFIG` points.

Read with `tomllib`; written by lndrill itself (a fresh temporary file, then renamed). A file that cannot
be read or parsed, or a value of the wrong kind, is one line for the user and the default instead, never
a crash; a file that could not be parsed is never written over (what the user wrote stays theirs). No
Textual here: the app converts these plain values into its own types.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

CONFIG_ENV = "LNDRILL_CONFIG"
CONFIG_NAME = "config.toml"


def config_path() -> Path:
    """`$LNDRILL_CONFIG` if set; else `config.toml` in `$LNDRILL_HOME` if that is set (one directory holds a
    whole separate lndrill: history and settings); else `config.toml` in the per-OS user config directory."""
    override = os.environ.get(CONFIG_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    home = os.environ.get("LNDRILL_HOME", "").strip()
    if home:
        return Path(home).expanduser() / CONFIG_NAME
    from platformdirs import user_config_dir

    return Path(user_config_dir("lndrill", appauthor=False)) / CONFIG_NAME


@dataclass(frozen=True)
class PanelSettings:
    """The simulator panel beside a card (None: the panel's own default)."""

    depths: str | None = None
    width: int | None = None
    metric: str | None = None
    seed: int | None = None
    placements: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MockSettings:
    """The mock interview form's last choice (None: the built-in default)."""

    questions: int | None = None
    minutes: float | None = None
    tag: str | None = None


@dataclass(frozen=True)
class Settings:
    """Everything the config file holds. None means "not set": the built-in default applies."""

    theme: str | None = None
    lang: str | None = None
    panel: PanelSettings = field(default_factory=PanelSettings)
    mock: MockSettings = field(default_factory=MockSettings)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(low: int, high: int) -> Callable[[Any], Any]:
    def check(value: Any) -> int:
        if not _is_int(value) or not low <= value <= high:
            raise ValueError(f"a whole number from {low} to {high}")
        return int(value)
    return check


def _number(low: float, high: float) -> Callable[[Any], Any]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise ValueError(f"a number from {low:g} to {high:g}")
        return float(value)
    return check


def _text(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 200 or any(ord(c) < 32 for c in value):
        raise ValueError("a short line of text")
    return value


def _one_of(*choices: str) -> Callable[[Any], Any]:
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError("one of " + ", ".join(repr(c) for c in choices))
        return str(value)
    return check


def _words(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ValueError("a list of names")
    return tuple(value)


#: Each table's keys and how a value is checked (it raises ValueError naming what it should be).
_TOP: dict[str, Callable[[Any], Any]] = {"theme": _text, "lang": _one_of("en", "zh")}
_PANEL: dict[str, Callable[[Any], Any]] = {"depths": _text, "width": _whole(1, 4096), "metric": _text,
                                           "seed": _whole(0, 2**31 - 1), "placements": _words}
_MOCK: dict[str, Callable[[Any], Any]] = {"questions": _whole(1, 100), "minutes": _number(0.1, 600),
                                          "tag": _text}


@dataclass(frozen=True)
class Loaded:
    """The settings read, the file, the one-line notice for the user (None when all went well), and
    whether lndrill may write the file (not when it could not be parsed)."""

    settings: Settings
    path: Path
    notice: str | None = None
    writable: bool = True


def _table(data: dict[str, Any], checks: dict[str, Callable[[Any], Any]], where: str,
           problems: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, check in checks.items():
        if key not in data:
            continue
        try:
            out[key] = check(data[key])
        except ValueError as exc:
            problems.append(f"{where}{key} should be {exc}")
    return out


def parse_settings(text: str) -> tuple[Settings, list[str]]:
    """Settings from TOML text, and what was wrong in it (values of the wrong kind are left at their
    defaults; unknown keys are ignored so a newer lndrill's file still reads). Raises tomllib.TOMLDecodeError."""
    data = tomllib.loads(text)
    problems: list[str] = []
    top = _table(data, _TOP, "", problems)
    tables = {}
    for name, checks in (("panel", _PANEL), ("mock", _MOCK)):
        raw = data.get(name, {})
        if not isinstance(raw, dict):
            problems.append(f"[{name}] should be a table")
            raw = {}
        tables[name] = _table(raw, checks, f"{name}.", problems)
    mock = tables["mock"]
    if mock.get("tag") == "":
        mock["tag"] = None
    settings = Settings(panel=PanelSettings(**tables["panel"]), mock=MockSettings(**mock), **top)
    return settings, problems


def load_settings(path: Path | None = None) -> Loaded:
    """The settings in `path` (default `config_path()`); a missing file is the defaults, silently."""
    path = path if path is not None else config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Loaded(Settings(), path)
    except OSError as exc:
        return Loaded(Settings(), path, f"lndrill: cannot read the settings in {path} ({exc.strerror or exc}); "
                                        "using the defaults", writable=False)
    try:
        settings, problems = parse_settings(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return Loaded(Settings(), path, f"lndrill: the settings file {path} is not UTF-8 text; using the defaults "
                                        "(the file is left as it is)", writable=False)
    except tomllib.TOMLDecodeError as exc:
        why = " ".join(str(exc).split())
        return Loaded(Settings(), path, f"lndrill: the settings file {path} is not valid TOML ({why}); using the "
                                        "defaults (the file is left as it is)", writable=False)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return Loaded(settings, path, f"lndrill: in the settings file {path}: {problems[0]}{more}; using the "
                                      "default there")
    return Loaded(settings, path)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string: JSON's escapes are TOML's


def render_settings(settings: Settings) -> str:
    """The TOML text of `settings` (values not set are left out)."""
    lines = ["# lndrill settings: written by lndrill when you change them in the app; edit freely.", ""]
    for key in ("theme", "lang"):
        value = getattr(settings, key)
        if value is not None:
            lines.append(f"{key} = {_toml_value(value)}")
    for name in ("panel", "mock"):
        table = getattr(settings, name)
        body = [f"{f.name} = {_toml_value(getattr(table, f.name))}" for f in fields(table)
                if getattr(table, f.name) is not None]
        if body:
            lines += ["", f"[{name}]", *body]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path) -> None:
    """Write `settings` to `path` whole or not at all (a fresh temporary file, then renamed); OSError when
    it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(render_settings(settings))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class SettingsFile:
    """The settings of this session and their file: `update(...)` changes them and writes the file (unless
    it could not be parsed); a failed write is told once through `tell`."""

    def __init__(self, loaded: Loaded, tell: Callable[[str], None] | None = None) -> None:
        self.settings = loaded.settings
        self.path = loaded.path
        self.notice = loaded.notice
        self.writable = loaded.writable
        self.tell: Callable[[str], None] = tell or (lambda _message: None)
        self._failed = False

    @classmethod
    def load(cls, path: Path | None = None) -> SettingsFile:
        """The settings in `path` (default `config_path()`)."""
        return cls(load_settings(path))

    def update(self, **changes: Any) -> None:
        """Change top-level settings (theme, lang, panel, mock) and save."""
        new = replace(self.settings, **changes)
        if new == self.settings:
            return
        self.settings = new
        self.save()

    def save(self) -> None:
        """Write the file now (nothing when it could not be parsed: it stays as the user wrote it)."""
        if not self.writable:
            return
        try:
            save_settings(self.settings, self.path)
        except OSError as exc:
            if not self._failed:
                self._failed = True
                self.tell(f"lndrill: cannot save your settings to {self.path} ({exc.strerror or exc}); they "
                          "last for this session only")
