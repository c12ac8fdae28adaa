"""The card language: the --lang option, else the locale (zh_* means Chinese), else English."""

from __future__ import annotations

import os

LANGS = ("en", "zh")


def default_lang(option: str | None = None, environ: dict[str, str] | None = None) -> str:
    """`option` when it is en or zh; otherwise zh when LC_ALL, LC_MESSAGES or LANG starts with zh; else en."""
    if option is not None and option in LANGS:
        return option
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def other_lang(lang: str) -> str:
    """The other of en/zh."""
    return "en" if lang == "zh" else "zh"
