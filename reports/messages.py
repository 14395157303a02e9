"""The words of the text output in English (the default) or Chinese.

`xiangshe --lang zh …` or XIANGSHE_LANG=zh. The text output of every command is translated: the
frame ("error", "rule", the summary lines), the labels, the sentences the program writes (findings,
the scoring audit, the rulebook checks: the lower layers write them as `Message`s of the catalogue
in domain/messages.py, rendered here by their ids) and the usual input errors. What the data says in
English prose (a rule's reading, a reason, a machine's glosses) is not shown under zh (`prose`); the
quotes, the Chinese names, ids and the trace's own words are shown as written. Machine-readable
output (JSON, SARIF, JUnit) is never translated.
"""

from __future__ import annotations

import os
import re
import unicodedata

from xiangshe.domain.messages import Text, render

LANGUAGES = ("en", "zh")
_language: str | None = None

#: English → Chinese, the fixed words of the text output
ZH = {
    "error": "错误",
    "warning": "警告",
    "note": "注",
    "why": "理由",
    "rule": "规则",
    "text": "原文",
    "scoring audit": "计分核查",
    "the scoring audit": "计分核查",
    "readings": "所从之说",
    "scope": "范围",
    "line": "行",
    # explain
    "defined": "定义",
    "status": "状态",
    "kind": "类型",
    "reading": "解读",
    "gloss": "释义",
    "runs": "运行者",
    "initial": "初态",
    "final": "终态",
    "states": "状态",
    "edges": "边",
    "unchanged": "不变",
    "checks": "核查",
    "every instance of": "每一件",
    "every person whose role is": "每一位职事为",
    "every shooter in a pair (耦)": "耦中的每一射者",
    "contested readings": "有争议的读法",
    "default": "默认",
    "this rule": "本规则",
    "not checkable": "无法检查",
    # who reads a contested reading so, where readings.toml says it in English (reports/allreadings.py)
    "the encoder's own": "编者自拟",
    "the text as it stands": "经文如字",
    "金鹗 (unverified)": "金鹗（未核）",
    "the rule holds under every reading of this point": "此规则在此点的各种读法下都成立",
    "passing example": "合规示例",
    "failing example": "违例示例",
    "also failing": "另一违例",
    "no violating example is bundled for this rule": "此规则没有附带违例",
    "no bundled staging triggers the rule and keeps it": "没有所附仪注触发并遵守此规则",
    "none": "无",
    # template fields and person conditions
    "pattern": "模式",
    "first": "先",
    "then": "后",
    "after": "之后",
    "forbid": "禁止",
    "a": "甲",
    "b": "乙",
    "same": "相同",
    "who": "其人",
    "partner": "其耦",
    "n": "数",
    "op": "比较",
    # statuses and template kinds
    "encoded": "已编码",
    "descriptive": "描述",
    "deferred": "暂缓",
    "absence": "禁止",
    "precedence": "先后",
    "response": "应答",
    "unique": "唯一",
    "at_most": "至多",
    "count_before": "计数",
    "absence_between": "间隔禁止",
    "occasion": "场合",
    "occasion_absence": "场合禁止",
    "occasion_kind": "场合之类",
    "alternate": "交替",
    "pair": "配耦",
    "cast_absence": "人员禁止",
    # check-rules
    "quotes": "引文",
    "machines": "状态机",
    "vacuity": "空泛",
    "consistency": "一致",
    "redundancy": "冗余",
    "all": "全部",
    # coverage
    "enacted": "上演",
    "cited": "引用",
    "UNCOVERED": "未涵盖",
    "enforced": "已检",
    "staged": "仅上演",
    "unaccounted": "未涵盖",
    "self-loop": "自环",
    # the scoring audit's checks, by catalogue id
    "the announcement (右贤于左 / 左贤于右 / 左右钧) agrees with the tallies": (
        "所告（右贤于左 / 左贤于右 / 左右钧）与算数相合"
    ),
    "the count announced (chun= 纯, qi= 奇) is the 贤获 under the reading xian-huo; 「左右钧」 has none": (
        "所告之数（chun= 纯，qi= 奇）依 xian-huo 之读即贤获；「左右钧」不告数"
    ),
    "each side counted is laid out in bundles of ten 纯 (缩), the 纯 left over (横) and the 奇 under them, "
    "which together are its tallies": "所数之每一方：十纯为一缩，余纯横于下，奇又缩诸纯下，合之即其算数",
    "no shooter looses more than a set of four arrows (乘矢) in a round": "每番每人所射不过一乘矢（四矢）",
    "no more than 72 tallies released in a round: of 80 (箭筹八十) eight stay in the 中": (
        "每番释算不过七十二：箭筹八十，八算留在中"
    ),
    "no more than eight tallies for one pair in a round: the 中 holds eight": "每番一耦之算不过八：中只容八算",
}


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


def label(word: str, width: int = 8) -> str:
    """A label of `explain` in the language in force, padded to `width` columns and a space (a
    Chinese character takes two columns).

    >>> label("kind") + "|"
    'kind     |'
    """
    shown = t(word)
    columns = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in shown)
    return shown + " " * (max(0, width - columns) + 1)


def zh() -> bool:
    return language() == "zh"


def say(text: str) -> str:
    """A sentence a lower layer wrote, in the language in force: a `Message` of the catalogue
    (domain/messages.py) rendered by its id; any other text as written."""
    return render(text, language())


def headings(crumbs: tuple[str, ...]) -> tuple[str, ...]:
    """The rulebook's headings; under zh without their English."""
    if not zh():
        return crumbs
    return tuple(h for h in map(heading, crumbs) if h)


def heading(text: str) -> str | None:
    """A heading of the rulebook without its English: `E. 第二番射 (Φ23–Φ35)` → `第二番射 (Φ23–Φ35)`,
    `释获 — scoring` → `释获`; None for a heading that is all English. (The rulebook's own words,
    not a sentence of the program: it is cut, not translated.)

    >>> heading("C. 射前 (Φ14–Φ20): 请射 to the 司射's demonstration"), heading("Encoded")
    ('射前 (Φ14–Φ20)', None)
    """
    text = re.sub(r"^[A-Z]\. ", "", text)
    text = re.sub(r"(?:\s+—\s+|:\s+)[^—:]*[A-Za-z]{2,}.*$", "", text)
    return None if re.search(r"[A-Za-z]{2,}", re.sub(r"R\d{3}", "", text)) else text


def source_note(text: str | None) -> str | None:
    """A source of a reading (郑玄注: …): under zh shown only when it has no English in it."""
    if text is None or not zh():
        return text
    return None if re.search(r"[A-Za-z]{2,}", re.sub(r"R\d{3}", "", text)) else text


def round1_line(arrows: int, hits: int) -> str:
    if zh():
        return f"  第一番：{arrows} 矢，唱获 {hits}，不释算（获而未释获）"
    return f"  round 1: {arrows} arrows, {hits} hits called, none tallied (获而未释获)"


def round_line(rnd: int, right: int, right_cq: str, left: int, left_cq: str, arrows: int, score: int) -> str:
    if zh():
        return f"  第 {rnd} 番：右 {right}（{right_cq}），左 {left}（{left_cq}）；{arrows} 矢，{score} 矢得算"
    return f"  round {rnd}: 右 {right} ({right_cq}), 左 {left} ({left_cq}); {arrows} arrows, {score} score"


def at_line(line: int | None) -> str:
    if not line:
        return ""
    return f"（第 {line} 行）" if zh() else f" (line {line})"


def arrow_line(
    mark: str,
    where: str,
    rnd: int,
    shooter: str,
    side: str | None,
    arrow: str | None,
    why: str,
    tallied: int,
    source_line: int,
) -> str:
    if zh():
        return (
            f"  {mark} {where}  第 {rnd} 番 {shooter}（{side}）第 {arrow} 矢："
            f"{say(why)}；释 {tallied} 算  [xiangsheli.txt:{source_line}]"
        )
    tally = f"{tallied} tall{'y' if tallied == 1 else 'ies'}"
    return (
        f"  {mark} {where}  round {rnd} {shooter} ({side}) arrow {arrow}: {why}; {tally}  "
        f"[xiangsheli.txt:{source_line}]"
    )


def when_text(when: str, active: bool) -> str:
    if zh():
        return f"  条件 {when}" + ("" if active else "（未生效）")
    return f"  when {when}" + ("" if active else " (not in force)")


def rules_summary(total: int, counts: dict[str, int]) -> str:
    if zh():
        return f"{total} 条规则：" + "，".join(f"{t(s)} {n}" for s, n in counts.items())
    return f"{total} rules: " + ", ".join(f"{n} {s}" for s, n in counts.items())


def status_text(status: str) -> str:
    """`the rule is deferred: nothing is checked`."""
    return f"此规则为{t(status)}：不作检查" if zh() else f"the rule is {status}: nothing is checked"


def coverage_line(line: int, category: str, text: str, notes: str = "") -> str:
    """A clause of `coverage`: `xiangsheli.txt:3: staged  「…」  quoted by …`."""
    return f"xiangsheli.txt:{line}: {t(category)}  「{text}」" + (f"  {notes}" if notes else "")


def coverage_label(label: str, why_not: str | None = None) -> str:
    """What quotes a clause (`rule ID`, `machine 侯 张侯: …`, `the scoring audit`), and why it does
    not check it (`deferred`, `descriptive`, `self-loop`)."""
    if zh():
        label = (
            "规则 " + label[5:]
            if label.startswith("rule ")
            else "状态机 " + label[8:]
            if label.startswith("machine ")
            else t(label)
        )
        return label + (f"（{t(why_not)}）" if why_not else "")
    return label + (f" ({why_not})" if why_not else "")


def coverage_notes(
    category: str, enforced_by: list[str], quoted: list[str], not_enacted: list[str], descriptive: str | None
) -> str:
    """After a clause: what enforces it, or what quotes it without enforcing it and the
    libretto's reason for not enacting it; a descriptive clause's reason."""

    def some(labels: list[str]) -> str:
        more = len(labels) - 3
        tail = "" if more <= 0 else f" …（+{more}）" if zh() else f" … (+{more})"
        return ("，" if zh() else ", ").join(labels[:3]) + tail

    parts = []
    if enforced_by:
        parts.append(("由 " if zh() else "by ") + some(enforced_by))
    elif quoted:
        parts.append(("引用而不检：" if zh() else "quoted, not enforced, by ") + some(quoted))
    if category in ("staged", "unaccounted") and not_enacted and not zh():  # the reasons are English prose
        some_sets = " in some option sets" if category == "staged" else ""
        parts.append(f"not enacted{some_sets}: " + "; ".join(not_enacted))
    if category == "descriptive" and prose(descriptive):
        parts.append(f"({descriptive})")
    return "  ".join(parts)


def coverage_worklist(totals: dict) -> str:
    n = totals["staged_only"] + totals["unaccounted"]
    if zh():
        return (
            f"未检：规范句 {totals['normative']} 中 {n} 句（{t('staged')} {totals['staged_only']}，"
            f"{t('unaccounted')} {totals['unaccounted']}），依原文之序："
        )
    return (
        f"not enforced: {n} of {totals['normative']} normative clauses ({totals['staged_only']} staged "
        f"only by the libretto, {totals['unaccounted']} unaccounted), in the text's order:"
    )


def coverage_summary(totals: dict) -> str:
    if zh():
        return (
            f"{totals['clauses']} 句：描述 {totals['descriptive']}，规范 {totals['normative']} — "
            f"已检 {totals['enforced']}，仅上演 {totals['staged_only']}，未涵盖 {totals['unaccounted']} — "
            f"规范句已检 {totals['percent_enforced']}%（剧本按 {totals['option_sets']} 组选项演出）"
        )
    return (
        f"{totals['clauses']} clauses: {totals['descriptive']} descriptive, {totals['normative']} "
        f"normative — {totals['enforced']} enforced, {totals['staged_only']} staged only, "
        f"{totals['unaccounted']} unaccounted — {totals['percent_enforced']}% of the normative clauses "
        f"enforced (the libretto performed for {totals['option_sets']} option sets)"
    )


def rulecheck_summary(counts: dict[str, tuple[int, int]], ok: bool) -> str:
    parts = ("；" if zh() else "; ").join(f"{t(c)} {g}/{n}" for c, (g, n) in counts.items())
    if zh():
        return parts + (" — 通过" if ok else " — 未通过")
    return parts + (" — ok" if ok else " — FAILED")


def steps_text(steps: int, shortest: bool = True) -> str:
    if zh():
        return f"{steps} 步" + ("，最短" if shortest else "")
    return f"{steps} step{'s' if steps != 1 else ''}" + (", shortest" if shortest else "")


def no_counterexample(where: str, rule: str, depth: int) -> str:
    if zh():
        return (
            f"{where}: 在此规则及其所牵涉的规则所涉的动作与器物之中，没有至多 {depth} 步的 {rule} 的反例"
            "（有界搜索，并非证明）"
        )
    return (
        f"{where}: no counterexample to {rule} of at most {depth} steps among the acts and objects "
        "it and the rules it triggers involve (a bounded search, not a proof)"
    )


def solver_gave_up(where: str | None, depth: int | None, reason: str) -> str:
    at = f"{where}: " if where else ""
    if zh():
        return at + (f"无定论：求解器在 {depth} 步时放弃（{reason}）" if depth else f"无定论：求解器放弃（{reason}）")
    return at + (
        f"inconclusive: the solver gave up at {depth} steps ({reason})"
        if depth
        else f"inconclusive: the solver gave up ({reason})"
    )


def bundled_counterexample(where: str, source: str) -> str:
    if zh():
        return f"{where}: 仍有一反例：所附违例 {source}，已化简（未证明为最短）"
    return (
        f"{where}: a counterexample all the same: the bundled violating example {source}, minimised "
        "(not shown to be a shortest one)"
    )


def query_holds(depth: int, rules: int) -> str:
    if zh():
        return f"在状态机与 {rules} 条规则所允许的、至多 {depth} 步的每一份仪注上都成立（有界检查，并非证明）"
    return (
        f"holds for every trace of at most {depth} steps that the machines and the {rules} rules "
        "allow (a bounded check, not a proof)"
    )


def wrote_report(path: str, events: int, violations: int) -> str:
    if zh():
        return f"已写出 {path}：{events} 个事件，" + (f"{violations} 处违例" if violations else "无违例")
    return f"wrote {path}: {events} events, " + (
        f"{violations} violation{'s' if violations != 1 else ''}" if violations else "no violations"
    )


def _found(total: int, found: int | None) -> str:
    """What the causes leave out: `; 124 findings, 123 of them following from another`."""
    if found is None or found == total:
        return ""
    if language() == "zh":
        return f"；共 {found} 条发现，其中 {found - total} 条由他者所致"
    return f"; {found} findings, {found - total} of them following from another"


def violations_summary(total: int, bad: int, traces: int, events: int, found: int | None = None) -> str:
    """`1 violation in 1 of 1 trace (22 events)`: `total` counts the causes; `found`, every
    finding, when some follow from another (`; 124 findings, 123 of them following from another`)."""
    if language() == "zh":
        return f"{total} 处违例，共 {traces} 份仪注中 {bad} 份（{events} 个事件）" + _found(total, found)
    return (
        f"{total} violation{'s' if total != 1 else ''} in {bad} of {traces} "
        f"trace{'s' if traces != 1 else ''} ({events} events)" + _found(total, found)
    )


def followers_line(n: int, rules: dict[str, int], first: int | None, last: int | None, shown: bool) -> str:
    """Under a cause: `  and 123 findings that follow from it (qian-yue-yu-xia ×123, lines
    1023–2900; --verbose shows them)`."""
    which = ", ".join(f"{r} ×{k}" for r, k in rules.items())
    if first is not None:
        where = (
            (f"第 {first} 行" if first == last else f"第 {first}–{last} 行")
            if zh()
            else (f"line {first}" if first == last else f"lines {first}–{last}")
        )
        which += ("，" if zh() else ", ") + where
    if zh():
        return f"  另有 {n} 条由此所致（{which}；" + ("均列于下）" if shown else "加 --verbose 列出）")
    return f"  and {n} finding{'s' if n != 1 else ''} that follow{'s' if n == 1 else ''} from it ({which}; " + (
        "shown below)" if shown else "--verbose shows them)"
    )


def follows_line(line: int | None, rule: str) -> str:
    """Under a finding that follows from another, with --verbose: `  follows from line 1021 [rule]`."""
    if zh():
        return f"  由第 {line} 行所致 [{rule}]" if line else f"  由他者所致 [{rule}]"
    return f"  follows from line {line} [{rule}]" if line else f"  follows from [{rule}]"


def ok_summary(traces: int, events: int) -> str:
    """`ok: 1 trace, 3656 events, no violations`."""
    if language() == "zh":
        return f"无违例：{traces} 份仪注，{events} 个事件"
    return f"ok: {traces} trace{'s' if traces != 1 else ''}, {events} events, no violations"


def batch_scope(whole: int, fragments: int, reached: int, total: int) -> str:
    """What a batch covered: `3 whole ceremonies, 12 fragments; 140 of 141 rules with a trigger
    triggered by some staging`."""
    if language() == "zh":
        return f"全礼 {whole} 份，片段 {fragments} 份；有所待而验之规 {total} 条，诸仪注共触及 {reached} 条"
    return (
        f"{whole} whole ceremon{'ies' if whole != 1 else 'y'}, {fragments} fragment"
        f"{'s' if fragments != 1 else ''}; {reached} of {total} rules with a trigger triggered by some staging"
    )


def scope_summary(
    claim: str,
    staged: int,
    span: str,
    throughout: int,
    triggered: int,
    unreached: list[str],
    opened: list[str],
    whole: bool,
    looked: bool = True,
    narrowed: bool = False,
) -> str:
    """What one check covered: `the whole ceremony — 52 phases staged (Φ01–Φ52); rules in force: 86
    hold throughout, 80 of 86 triggered (not triggered: 6: …); nothing left open`. Not `looked`:
    what the machines leave open was not looked at (`scope.open` not applied: --select, --ignore);
    `narrowed`: the rules counted are those a selection applied, not every rule in force."""
    names = ", ".join(unreached[:6]) + (" …" if len(unreached) > 6 else "")
    total = triggered + len(unreached)
    if language() == "zh":
        claim = say(claim)  # a catalogue Message (constraints/scope.py)
        left = (
            ("事毕无遗" if whole else "末无未竟")
            if not opened
            else ("事毕未竟：" if whole else "末有未竟（片段不计为违例）：") + "、".join(opened)
        )
        if not looked:
            left = (
                "末有未竟（片段不计为违例）：" + "、".join(opened) + "；" if opened else ""
            ) + "器物事毕与否：未验（未行 scope.open）"
        return (
            f"{claim} — 已演 {staged} 节"
            + (f"（{span}）" if span else "")
            + ("；所行之规" if narrowed else "；在用之规")
            + f"：{throughout} 条通篇皆验，{total} 条有所待而验者触及 {triggered} 条"
            + (f"（未触及 {len(unreached)} 条：{names}）" if unreached else "")
            + f"；{left}"
        )
    left = (
        ("nothing left open" if whole else "nothing open at its end")
        if not opened
        else ("left open at the end: " if whole else "open at its end (not faults in a fragment): ") + ", ".join(opened)
    )
    if not looked:
        left = (
            "open at its end (not faults in a fragment): " + ", ".join(opened) + "; " if opened else ""
        ) + "what the machines leave open: not looked at (scope.open not applied)"
    return (
        f"{claim} — {staged} phase{'s' if staged != 1 else ''} staged"
        + (f" ({span})" if span else "")
        + ("; rules applied" if narrowed else "; rules in force")
        + f": {throughout} checked throughout, {triggered} of {total} triggered"
        + (f" (not triggered: {len(unreached)}: {names})" if unreached else "")
        + f"; {left}"
    )


def unreadable_summary(unread: int, traces: int, total: int, bad: int, events: int, found: int | None = None) -> str:
    """`bad input: 1 of 3 traces could not be read; the other 2: 1 violation in 1 (3656 events)`."""
    others = traces - unread
    if language() == "zh":
        out = f"输入有误：{traces} 份仪注中 {unread} 份无法读取"
        if others:
            out += (
                f"；其余 {others} 份中 {bad} 份有 {total} 处违例（{events} 个事件）{_found(total, found)}"
                if total
                else f"；其余 {others} 份无违例（{events} 个事件）"
            )
        return out
    out = f"bad input: {unread} of {traces} trace{'s' if traces != 1 else ''} could not be read"
    if others:
        out += (
            f"; the other {others}: {total} violation{'s' if total != 1 else ''} in {bad} "
            f"({events} events){_found(total, found)}"
            if total
            else f"; the other {others}: no violations ({events} events)"
        )
    return out


def input_errors(text: str) -> str:
    """An input error message (`path:line: error: unknown act …`) in the language in force: the
    lower layers' by the ids of their Messages; the user's words, the line quoted and the
    suggestions stay as they are."""
    if language() != "zh":
        return text
    if isinstance(text, Text):
        return text.render("zh")
    return text


def wrote_baseline(path: str, findings: int) -> str:
    if zh():
        return f"已写出 {path}：基线中 {findings} 处发现"
    return f"wrote {path}: {findings} finding{'s' if findings != 1 else ''} in the baseline"
