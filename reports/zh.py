"""Chinese for the sentences the lower layers write in English: the findings of the rule templates
and the machines, the scoring audit's checks and reasons, the rulebook checks, the notes of
`explain`'s examples, the rulebook's headings. Each table is (pattern, replacement), applied in
order to the whole message; what the user or the rulebook wrote (quoted 「…」 patterns, names,
ids) passes through unchanged. reports/messages.py applies them under `--lang zh`.

A sentence that no pattern matches stays in English: tests/test_lang_zh.py runs every command
under `--lang zh` and fails on any English left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

Table = Sequence[tuple[re.Pattern, str | Callable[[re.Match], str]]]

_KEYS = r"[a-z][a-z.]*(?:=[a-z][a-z.]*)?(?:, [a-z][a-z.]*(?:=[a-z][a-z.]*)?)*"
_Q = r"「[^「」]*」"

#: rule templates (constraints/templates.py) and machine refusals (constraints/check.py)
FINDINGS: Table = [
    (re.compile(rf" with the same ({_KEYS})"), r"（\1 相同）"),
    (re.compile(rf"^no earlier ({_Q})"), r"此前没有\1"),
    (re.compile(rf"^no later ({_Q})"), r"此后没有\1"),
    (re.compile(rf"^({_Q}) is forbidden$"), r"不得有\1"),
    (re.compile(rf"^({_Q}) again(.*) \(first at line (\d+)\)$"), r"\1再次出现\2（首次在第 \3 行）"),
    (re.compile(rf"^more than (\d+) ({_Q})(.*)$"), r"\2多于 \1 次\3"),
    (re.compile(rf"^(\d+) earlier ({_Q})(.*); the text requires (\S+) (\d+)$"), r"此前有 \1 次\2\3；原文要求 \4 \5"),
    (re.compile(rf"^({_Q}) at line (\d+) since ({_Q})(.*)$"), r"自\3以来，第 \2 行有\1\4"),
    (re.compile(rf"^({_Q}) since ({_Q}), before ({_Q}) at line (\d+)(.*)$"), r"\1在\2之后、第 \4 行\3之前\5"),
    (re.compile(rf"^({_Q}) where ({_Q}) was due(.*)$"), r"应有\2处却是\1\3"),
    (
        re.compile(rf"^pair (\S+): (\S+) \((.+?)\) is paired with (\S+), who is not ({_Q})$"),
        r"耦 \1：\2（\3）与 \4 为耦，而 \4 不是\5",
    ),
    (re.compile(rf"^(\S+) is ({_Q})$"), r"\1 是\2"),
    (re.compile(r"^(.+?) cannot (\S+) while (\S+); allowed here: nothing$"), r"\1 在「\3」时不能\2；此时无可行之事"),
    (re.compile(r"^(.+?) cannot (\S+) while (\S+); allowed here: (.+)$"), r"\1 在「\3」时不能\2；此时可行：\4"),
    # the occasion (constraints/templates.py: occasion, occasion_absence, occasion_kind)
    (re.compile(r"the occasion \(line (\d+)\)"), r"场合（第 \1 行）"),
    (re.compile(r"the default occasion"), "默认之场合"),
    (re.compile(r"^(.+?) has (\S+(?: \S+=\S+)*): with (.+?) it must have (.+)$"), r"\1为 \2：既 \3，须 \4"),
    (re.compile(r"^(.+?) has (\S+(?: \S+=\S+)*): it must have (.+)$"), r"\1为 \2：须 \3"),
    (re.compile(rf"^({_Q}) is forbidden where (.+?) \((.+)\)$"), r"\2时不得有\1（\3）"),
    (re.compile(r"^the event names a (\S+), but (.+) has (\S+)$"), r"此事件名\1，而\2为 \3"),
    # what a whole ceremony or a fragment must be (constraints/scope.py)
    (
        re.compile(
            r"^a whole ceremony \(the trace declares no fragment\) stages every phase, but (\d+) of (\d+) "
            r"are missing: (.+) \(first (Φ\d\d) (\S+)\); if it is a part, declare it before its first "
            r"event: fragment (.+)$"
        ),
        r"未声明片段者即为全礼，须演尽诸节：\2 节中缺 \1 节：\3（首缺 \4 \5）；若只是一部分，请在首个事件之前声明：fragment \6",
    ),
    (
        re.compile(r"^at the end of the ceremony (\S+) is (\S+); its part ends (.+)$"),
        lambda m: f"礼毕时 {m.group(1)} 仍为「{m.group(2)}」；其终态为{'或'.join(m.group(3).split(' or '))}",
    ),
    (
        re.compile(r"^(Φ\d\d) is outside the fragment's phases \((.+), line (\d+)\)$"),
        r"\1 不在片段所声明之节内（\2，第 \3 行）",
    ),
    # the scoring audit's checks (constraints/scoring.py)
    (
        re.compile(r"^(\S+) shot (\d+) arrows in round (\d+); a set is 乘矢, four$"),
        r"\1 第 \3 番射了 \2 矢；一乘矢为四",
    ),
    (
        re.compile(r"^(\d+) tallies for pair (\S+) in round (\d+); the 中 holds eight \(鹿中容八算\)$"),
        r"第 \3 番耦 \2 释 \1 算；中只容八算（鹿中容八算）",
    ),
    (
        re.compile(r"^(\d+) tallies released in round (\d+); of 80 \(箭筹八十\) eight stay in the 中$"),
        r"第 \2 番释 \1 算；箭筹八十，八算留在中",
    ),
    (
        re.compile(rf"^announced ({_Q}); the tallies are 右 (\d+), 左 (\d+): ({_Q})(?:, (\S+))?$"),
        lambda m: f"告{m[1]}；算数为右 {m[2]}、左 {m[3]}：当告{m[4]}" + (f"，{m[5]}" if m[5] else ""),
    ),
    # the announced count (N10) and the layout of the count (R131)
    (re.compile(r"^「左右钧」 announced with no count$"), "告「左右钧」，不告数"),
    (
        re.compile(r"^announced (\S+); the tallies are equal \(左右钧\): no 贤获 and no count$"),
        lambda m: f"告{'' if m[1] == 'no count' else m[1]}；左右钧：无贤获，不告数",
    ),
    (
        re.compile(r"^announced (no count|\S+); the 贤获 under xian-huo=(\S+) \((.+): (.+)\) is (\S+)$"),
        lambda m: (
            f"{'未告纯数' if m[1] == 'no count' else '告' + m[1]}；依 xian-huo={m[2]}（"
            f"{'胜负之差，郑注 齊之而取其餘' if m[2] == 'margin' else '胜者之全算'}：{m[4]}），贤获为{m[5]}"
        ),
    ),
    (
        re.compile(r"^(\d+) tallies laid out \(缩/横/奇\) with no side and before any 数获: say side=右 or side=左$"),
        r"\1 处陈算（缩/横/奇）未言左右，又在数获之前：当写 side=右 或 side=左",
    ),
    (re.compile(r"^the (右|左) tallies, (\d+) \((\S+)\), "), r"\1获 \2 算（\3），"),
    (re.compile(r"are laid out with a 横 that does not say how many 纯 \(chun=\): "), "所横未言几纯（chun=）：当为"),
    (re.compile(r"laid out (.+?): a bundle \(缩\) is ten 纯 and holds no 奇; "), r"陈为\1：一缩十纯，不含奇；当为"),
    (
        re.compile(r"laid out (.+?): ten 纯 or more laid crosswise are bundled \(十纯则缩而委之\); "),
        r"陈为\1：横者满十纯则当缩（十纯则缩而委之）；当为",
    ),
    (re.compile(r"laid out (.+?): one 算 is the 奇 \(一算为奇\); "), r"陈为\1：一算为奇；当为"),
    (re.compile(r"laid out (.+?) \((\d+) tall(?:y|ies)\); they are "), r"陈为\1（\2 算）；当为"),
    (re.compile(r"laid out "), "陈为"),
    (re.compile(r"(\d+) 缩 of ten 纯"), r"缩 \1（各十纯）"),
    (re.compile(r"缩 ([\d+]+) 纯"), r"缩 \1 纯"),
    (re.compile(r"(?<=[纯\d]), (?=横|奇)"), "，"),
    (re.compile(r"(?<=[为：])nothing"), "无"),
]

#: where a finding's rule is defined (constraints/check.py), the readings followed (constraints/readings.py)
FRAME: Table = [
    (re.compile(r"  the scoring audit$"), "  计分核查"),
    (re.compile(r"  what a whole ceremony or a fragment must be$"), "  全礼与片段之所须"),
    (re.compile(r" \(not the default\)"), "（非默认）"),
]

#: why an arrow scores or not (constraints/scoring.py)
ARROWS: Table = [
    (re.compile(r"^round 1: 获而未释获 \(hits are called, not tallied\)$"), "第一番：获而未释获（唱获而不释算）"),
    (re.compile(r"^no result is not "), "无结果，非"),
    (re.compile(r"^(\S+) is not "), r"\1 非"),
    (re.compile(r"a hit on the 正 \(中正; 郑注 贯犹中, 不中正不释算\)"), "中正（郑注：贯犹中，不中正不释算）"),
    (re.compile(r"a hit on the 侯 \(中正 or 中侯\)"), "中侯（中正或中侯皆释）"),
    (re.compile(r"^not on the drum beat: "), "不应鼓节："),
    (re.compile(r"^(\S+) on the beat: "), r"\1，应鼓节："),
]

#: the checks of the rulebook (constraints/rulecheck.py)
RULECHECK: Table = [
    (
        re.compile(
            r"^(\d+) rule quotes and (\d+) machine-edge quotes are verbatim and unambiguous in "
            r"xiangsheli\.txt$"
        ),
        r"规则引文 \1 条、状态机边引文 \2 条，皆逐字见于 xiangsheli.txt 且无歧义",
    ),
    (re.compile(r"^(\d+) states, (\d+) edges: all reachable, no trap$"), r"\1 个状态、\2 条边：皆可达，无陷阱"),
    (re.compile(r"^(\d+) states, (\d+) edges: "), r"\1 个状态、\2 条边："),
    (re.compile(r"unreachable: "), "不可达："),
    (re.compile(r"trap states \(no way out, not final\): "), "陷阱状态（无出路，又非终态）："),
    (re.compile(r"^applies to the cast of every staging$"), "适用于每份仪注的人员"),
    (re.compile(r"^triggered in the bundled stagings$"), "在所附仪注中被触发"),
    (re.compile(r"^never triggered in the bundled stagings"), "在所附仪注中从未被触发"),
    (re.compile(r" \(acts never staged: (.+?)\)"), r"（从未上演的动作：\1）"),
    (re.compile(r"; its condition never arises there: no (.+) takes part$"), r"；其条件在那里从不出现：没有 \1 参与"),
    (re.compile(r"^keeps every machine and every rule in force$"), "遵守每个状态机和每条生效的规则"),
    (re.compile(r"^(\d+) violations: (.+)$"), r"\1 处违例：\2"),
    (
        re.compile(r"^z3: the (\d+) encoded rules and every machine hold together on a trace of (\d+) events$"),
        r"z3：\1 条已编码规则与所有状态机可在一份 \2 个事件的仪注上同时成立",
    ),
    (re.compile(r"^z3 gave up: (.*)$"), r"z3 未能得出结论：\1"),
    (
        re.compile(r"^z3: no trace of (\d+) events keeps them all; the rules in conflict: the machines alone$"),
        r"z3：没有 \1 个事件的仪注能同时遵守；冲突者：状态机本身",
    ),
    (
        re.compile(r"^z3: no trace of (\d+) events keeps them all; the rules in conflict: (.*)$"),
        r"z3：没有 \1 个事件的仪注能同时遵守；相冲突的规则：\2",
    ),
    (re.compile(r"^independent: (\S+) breaks it and nothing else$"), r"独立：\1 只违反此条"),
    (
        re.compile(r"^no violating example breaks it alone, and no search was asked for \(--redundancy 0\)$"),
        "没有只违反此条的违例，也未要求搜索（--redundancy 0）",
    ),
    (
        re.compile(
            r"^no counterexample up to (\d+) steps: implied by the machines and the other rules up to "
            r"that length \(not a proof\)$"
        ),
        r"至多 \1 步内无反例：在此长度内为状态机与其他规则所蕴含（并非证明）",
    ),
    (re.compile(r"^inconclusive: (.*)$"), r"无定论：\1"),
    (re.compile(r"^independent: a counterexample of (\d+) steps \(z3\)$"), r"独立：有 \1 步的反例（z3）"),
]

#: what explain's examples show (constraints/explain.py)
NOTES: Table = [
    (re.compile(r"^the trace as a whole breaks the rule$"), "整份仪注违反此规则"),
    (re.compile(r"^the line the rule objects to$"), "规则所指摘的一行"),
    (re.compile(rf"^nothing in the staging is ({_Q}): the rule is kept throughout"), r"仪注中没有\1：规则始终得到遵守"),
    (re.compile(rf"^the first pair with a ({_Q}): pair (\S+)"), r"第一个有\1的耦：\2"),
    (re.compile(rf"^the first event the rule speaks of: ({_Q})"), r"规则所说的第一个事件：\1"),
    (re.compile(r"; the rule is kept"), "；规则得到遵守"),
    (re.compile(r"; this example breaks (\S+), not this rule$"), r"；此例违反的是 \1，而非本规则"),
]


def apply(table: Table, text: str) -> str:
    for pattern, replacement in table:
        text = pattern.sub(replacement, text)
    return text


def heading(text: str) -> str | None:
    """A heading of the rulebook without its English: `E. 第二番射 (Φ23–Φ35)` → `第二番射 (Φ23–Φ35)`,
    `释获 — scoring` → `释获`; None for a heading that is all English.

    >>> heading("C. 射前 (Φ14–Φ20): 请射 to the 司射's demonstration"), heading("Encoded")
    ('射前 (Φ14–Φ20)', None)
    """
    text = re.sub(r"^[A-Z]\. ", "", text)
    text = re.sub(r"(?:\s+—\s+|:\s+)[^—:]*[A-Za-z]{2,}.*$", "", text)
    return None if re.search(r"[A-Za-z]{2,}", re.sub(r"R\d{3}", "", text)) else text
