"""The card language: the --lang option, else the locale (zh_* means Chinese), else English."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

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


def say(lang: str, en: str, zh: str) -> str:
    """A label in the user's language: `zh` in Chinese mode, else `en`."""
    return zh if lang == "zh" else en


#: What the footer and the help panel call each key, in Chinese (keys bound by lndrill; Textual's own stay).
BINDING_ZH: dict[str, str] = {
    "Cancel": "取消", "Cards": "卡片", "Drill": "练习", "End interview": "结束面试", "Fewer depths": "减少深度",
    "Follow-up": "追问", "Help": "帮助", "Home": "主页", "Log/linear": "对数/线性", "Metric": "指标",
    "Mock interview": "模拟面试", "Model answer": "参考答案", "More depths": "增加深度", "Narrower": "变窄",
    "Next card": "下一张", "Overrule": "推翻", "Panel focus": "面板", "Quit": "退出", "Reload": "刷新",
    "Retry": "重答", "Run again": "重新运行", "Seed +": "种子 +", "Seed -": "种子 -", "Simulator": "模拟器",
    "Skip follow-up": "跳过追问", "Stats": "统计", "Submit": "提交", "Wider": "变宽",
    "Previous metric": "上一个指标", "Chart down": "图表下移", "Chart up": "图表上移",
    "Training": "训练实验", "Experiment": "做实验", "Back": "返回", "LR": "学习率",
    "Lower rate": "降低学习率", "Warm-up": "warm-up", "Shorter warm-up": "缩短 warm-up",
    "Post-LN on/off": "Post-LN 显示/隐藏", "Pre-LN on/off": "Pre-LN 显示/隐藏",
    "Sandwich on/off": "Sandwich 显示/隐藏", "DeepNorm on/off": "DeepNorm 显示/隐藏",
}


def translate_bindings(node: Any, lang: str) -> None:
    """Give `node`'s key bindings (a screen's, the app's) their descriptions in `lang`, so the footer and
    the help panel follow the language; the English ones are kept to switch back."""
    bindings = getattr(node, "_bindings", None)
    if bindings is None:
        return
    original = getattr(node, "_lndrill_bindings_en", None)
    if original is None:
        original = {key: list(items) for key, items in bindings.key_to_bindings.items()}
        node._lndrill_bindings_en = original
    for key, items in original.items():
        bindings.key_to_bindings[key] = [
            replace(b, description=say(lang, b.description, BINDING_ZH.get(b.description, b.description)))
            for b in items]
