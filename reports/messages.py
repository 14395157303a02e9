"""The fixed words of the text output in English (the default) or Chinese.

`xiangshe --lang zh …` or XIANGSHE_LANG=zh. Only the frame is translated: "error", "why", "rule",
"text", the summary lines, the usual input errors. The rulebook (rule messages, readings) and the
quotes are shown as written; machine-readable output (JSON, SARIF, JUnit) is never translated.
"""

from __future__ import annotations

import os
import re

LANGUAGES = ("en", "zh")
_language: str | None = None

#: English → Chinese, the fixed words of the text output
ZH = {
    "error": "错误",
    "why": "理由",
    "rule": "规则",
    "text": "原文",
    "scoring audit": "计分核查",
    "readings": "所从之说",
}

#: the frame of input errors (exit 2): (pattern, replacement), applied in order
_INPUT_ERRORS = [
    (re.compile(r"^(\S.*?): error: ", re.M), r"\1: 错误: "),
    (re.compile(r"^error: ", re.M), "错误: "),
    (re.compile(r"\bunknown (person|act|object|place|role|rank|phase|key) "),
     lambda m: "未知的" + {"person": "人物", "act": "动作", "object": "器物", "place": "位置",
                         "role": "职事", "rank": "爵等", "phase": "节次", "key": "键"}[m.group(1)] + " "),
    (re.compile(r"\bdid you mean (.*)\?$", re.M), r"是否要写 \1？"),
    (re.compile(r": (\w+) is one of "), r": \1 只能是 "),
    (re.compile(r"\bknown: "), "已知: "),
    (re.compile(r"\bno such file\b"), "没有这个文件"),
    (re.compile(r"\bthe file exists; choose another name or use --force"), "文件已存在；请换一个名字或加 --force"),
    (re.compile(r"\bthe file exists; choose another name"), "文件已存在；请换一个名字"),
]


def set_language(language: str | None) -> None:
    """Choose the language (None: XIANGSHE_LANG, else English)."""
    global _language
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"language {language!r}: one of {', '.join(LANGUAGES)}")
    _language = language


def language() -> str:
    if _language is not None:
        return _language
    env = os.environ.get("XIANGSHE_LANG", "en").strip().lower()[:2]
    return env if env in LANGUAGES else "en"


def t(word: str) -> str:
    """A fixed word in the language in force.

    >>> set_language("zh"); t("why"); set_language(None)
    '理由'
    """
    return ZH.get(word, word) if language() == "zh" else word


def prose(text: str | None) -> str | None:
    """English prose written in the data (a rule's reading, a machine's glosses): shown as written in
    English output; under zh not shown, rather than mixing English into Chinese output (the
    Chinese names, quotes and structure say the same)."""
    return text if language() != "zh" else None


def violations_summary(total: int, bad: int, traces: int, events: int) -> str:
    """`1 violation in 1 of 1 trace (22 events)`."""
    if language() == "zh":
        return f"{total} 处违例，共 {traces} 份仪注中 {bad} 份（{events} 个事件）"
    return (f"{total} violation{'s' if total != 1 else ''} in {bad} of {traces} "
            f"trace{'s' if traces != 1 else ''} ({events} events)")


def ok_summary(traces: int, events: int) -> str:
    """`ok: 1 trace, 3656 events, no violations`."""
    if language() == "zh":
        return f"无违例：{traces} 份仪注，{events} 个事件"
    return f"ok: {traces} trace{'s' if traces != 1 else ''}, {events} events, no violations"


def input_errors(text: str) -> str:
    """The frame of an input error message (`path:line: error: unknown act …`) in the language in
    force; the user's words, the line quoted and the suggestions stay as they are."""
    if language() != "zh":
        return text
    for pattern, replacement in _INPUT_ERRORS:
        text = pattern.sub(replacement, text)
    return text
