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


#: A card's difficulty (the deck's level words), in Chinese.
LEVEL_ZH: dict[str, str] = {"easy": "简单", "medium": "中等", "hard": "困难"}


def level(lang: str, difficulty: str) -> str:
    """A card's difficulty in the user's language: "medium" or, in Chinese mode, "中等"."""
    return say(lang, difficulty, LEVEL_ZH.get(difficulty, difficulty))


#: What the footer and the help panel call each key, in Chinese (keys bound by lndrill, and the command
#: palette's key, which Textual binds on every app; Textual's widgets' own keys stay).
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
    "Sandwich on/off": "Sandwich 显示/隐藏", "DeepNorm on/off": "DeepNorm 显示/隐藏", "palette": "命令",
}

#: The command palette's entries (titles and what they do), in Chinese: the app's (lndrill.tui.commands)
#: and each screen's `PALETTE`. Textual's own entries (theme, keys, quit) stay.
PALETTE_ZH: dict[str, str] = {
    "Home": "主页", "the home screen": "回到主页",
    "Drill: card browser": "练习：卡片列表", "every card, filter by typing": "所有卡片，输入即筛选",
    "Mock interview": "模拟面试",
    "3 timed questions with follow-ups and a report": "3 道限时题，带追问和报告",
    "Simulator": "模拟器", "the gradient simulator, full screen": "梯度模拟器，全屏",
    "Stats": "统计", "your history: scores, due dates, weakest sections, trend": "你的历史：得分、到期日、最弱部分、趋势",
    "Switch language": "切换语言", "cards in English or Chinese": "卡片用英文或中文",
    "Submit answer": "提交回答", "score the answer (ctrl+s)": "为回答评分（ctrl+s）",
    "Toggle simulator panel": "显示/隐藏模拟器面板", "beside the card (ctrl+g)": "在卡片旁边（ctrl+g）",
    "Focus simulator panel": "聚焦模拟器面板",
    "its keys work there; again: back to the answer (f2)": "面板的按键在那里生效；再按：回到回答（f2）",
    "Next card": "下一张卡片", "skip to the next card (ctrl+n)": "跳到下一张卡片（ctrl+n）",
    "Retry": "重答", "back to the answer (r)": "回到回答（r）", "on to the next card (n)": "去下一张卡片（n）",
    "Model answer": "参考答案", "show or hide (a)": "显示或隐藏（a）",
    "Follow-up question": "追问", "show or hide (f)": "显示或隐藏（f）",
    "submit now (ctrl+s)": "现在提交（ctrl+s）", "End interview": "结束面试",
    "submit what is typed and show the report (escape twice)": "提交已输入的内容并显示报告（按两次 escape）",
    "Training": "训练实验",
    "train Post-LN and Pre-LN with and without warm-up, curves live (ctrl+t)":
        "训练有无 warm-up 的 Post-LN 与 Pre-LN，曲线实时更新（ctrl+t）",
    "Cancel training": "取消训练", "stop; the partial curves stay (c)": "停止；已有的曲线保留（c）",
    "Run the training again": "重新训练", "the same grid from the start (f5)": "同一组设置从头再来（f5）",
}


def palette_text(lang: str, text: str) -> str:
    """A command palette title or description in the user's language."""
    return say(lang, text, PALETTE_ZH.get(text, text))


#: Shorter English words for a narrow footer (the Chinese ones are short already), so every key still shows
#: at 80 columns, quit and help (the app's keys, drawn last) included.
BINDING_SHORT_EN: dict[str, str] = {
    "Simulator": "Sim", "Panel focus": "Panel", "Next card": "Next", "Model answer": "Model", "Follow-up": "Follow",
    "Mock interview": "Mock", "Previous metric": "Prev metric", "Skip follow-up": "Skip", "End interview": "End",
}


def translate_bindings(node: Any, lang: str, short: bool = False) -> None:
    """Give `node`'s key bindings (a screen's, the app's) their descriptions in `lang`, so the footer and
    the help panel follow the language; the English ones are kept to switch back. `short`: the words of a
    narrow footer (BINDING_SHORT_EN)."""
    bindings = getattr(node, "_bindings", None)
    if bindings is None:
        return
    original = getattr(node, "_lndrill_bindings_en", None)
    if original is None:
        original = {key: list(items) for key, items in bindings.key_to_bindings.items()}
        node._lndrill_bindings_en = original
    for key, items in original.items():
        bindings.key_to_bindings[key] = [
            replace(b, description=say(lang, BINDING_SHORT_EN.get(b.description, b.description) if short else b.description,
                                        BINDING_ZH.get(b.description, b.description)))
            for b in items]


def translate_help(node: Any, lang: str) -> None:
    """Give `node` (a screen, a widget) the HELP text of `lang` for Textual's help panel: its class's
    `HELP_ZH` in Chinese mode, else its class's HELP (nothing changes for a class without HELP_ZH)."""
    cls = type(node)
    zh = getattr(cls, "HELP_ZH", "")
    if zh:
        node.__dict__["HELP"] = say(lang, cls.HELP, join_cjk_lines(zh))


def _cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\u3000" <= ch <= "\u303f"


def join_cjk_lines(markdown: str) -> str:
    """Markdown with a line that ends in a Chinese character joined to the next line of its paragraph
    (Markdown would put a space between them); headings, list items and blank lines stay."""
    out: list[str] = []
    for line in markdown.split("\n"):
        text = line.strip()
        last = out[-1].strip() if out else ""
        if text and not text.startswith(("#", "- ", "* ")) and last and not last.startswith("#") and _cjk(last[-1]):
            out[-1] = out[-1].rstrip() + text
        else:
            out.append(line)
    return "\n".join(out)
