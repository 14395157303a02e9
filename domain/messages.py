"""The sentences the program writes, by id, in English and Chinese.

Each message has a stable code (`XS104`, shown in docs/messages.md and in SARIF as the message id)
and a dotted name (`absence.forbidden`, what the code that writes it says), an English template and
a Chinese one with the same named parameters. A `Message` is the English text (a `str`, so what
prints or compares the English keeps working) that remembers its id and parameters:
`.render("zh")` is the Chinese. A parameter may itself be a Message or a `Join` of several, rendered
in the same language; what the user or the rulebook wrote (quoted patterns, names, ids) is passed
as a plain string and shown as written.

>>> m = Message("absence.forbidden", pattern="宾 拜")
>>> m, m.code, m.render("zh")
('「宾 拜」 is forbidden', 'XS104', '不得有「宾 拜」')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple


class Entry(NamedTuple):
    code: str
    name: str
    en: str
    zh: str


#: every message: code, name, English, Chinese. A code is never reused or renumbered.
CATALOGUE: tuple[Entry, ...] = (
    # the findings of the rule templates (constraints/templates.py)
    Entry("XS101", "same", " with the same {keys}", "（{keys} 相同）"),
    Entry("XS102", "precedence.no-earlier", "no earlier 「{first}」{same}", "此前没有「{first}」{same}"),
    Entry("XS103", "response.no-later", "no later 「{then}」{same}", "此后没有「{then}」{same}"),
    Entry("XS104", "absence.forbidden", "「{pattern}」 is forbidden", "不得有「{pattern}」"),
    Entry(
        "XS105",
        "unique.again",
        "「{pattern}」 again{same} (first at line {line})",
        "「{pattern}」再次出现{same}（首次在第 {line} 行）",
    ),
    Entry("XS106", "at-most.more", "more than {n} 「{pattern}」{same}", "「{pattern}」多于 {n} 次{same}"),
    Entry(
        "XS107",
        "count-before.count",
        "{have} earlier 「{first}」{same}; the text requires {op} {n}",
        "此前有 {have} 次「{first}」{same}；原文要求 {op} {n}",
    ),
    Entry(
        "XS108",
        "absence-between.since",
        "「{forbid}」 at line {line} since 「{after}」{same}",
        "自「{after}」以来，第 {line} 行有「{forbid}」{same}",
    ),
    Entry(
        "XS109",
        "absence-between.before",
        "「{forbid}」 since 「{after}」, before 「{then}」 at line {line}{same}",
        "「{forbid}」在「{after}」之后、第 {line} 行「{then}」之前{same}",
    ),
    Entry("XS110", "alternate.due", "「{got}」 where 「{want}」 was due{same}", "应有「{want}」处却是「{got}」{same}"),
    Entry(
        "XS111",
        "pair.partner",
        "pair {pair}: {me} ({who}) is paired with {other}, who is not 「{partner}」",
        "耦 {pair}：{me}（{who}）与 {other} 为耦，而 {other} 不是「{partner}」",
    ),
    Entry("XS112", "cast-absence.present", "{person} is 「{who}」", "{person} 是「{who}」"),
    Entry("XS113", "occasion.at-line", "the occasion (line {line})", "场合（第 {line} 行）"),
    Entry("XS114", "occasion.default", "the default occasion", "默认之场合"),
    Entry(
        "XS115",
        "occasion.must-have-given",
        "{occasion} has {have}: with {given} it must have {require}",
        "{occasion}为 {have}：既 {given}，须 {require}",
    ),
    Entry(
        "XS116",
        "occasion.must-have",
        "{occasion} has {have}: it must have {require}",
        "{occasion}为 {have}：须 {require}",
    ),
    Entry(
        "XS117",
        "occasion-absence.forbidden",
        "「{pattern}」 is forbidden where {given} ({occasion})",
        "{given}时不得有「{pattern}」（{occasion}）",
    ),
    Entry(
        "XS118",
        "occasion-kind.names",
        "the event names a {kind}, but {occasion} has {field}={value}",
        "此事件名{kind}，而{occasion}为 {field}={value}",
    ),
    # the machines (constraints/check.py)
    Entry(
        "XS151",
        "machine.refused",
        "{who} cannot {act} while {state}; allowed here: {allowed}",
        "{who} 在「{state}」时不能{act}；此时可行：{allowed}",
    ),
    Entry(
        "XS152",
        "machine.refused-nothing",
        "{who} cannot {act} while {state}; allowed here: nothing",
        "{who} 在「{state}」时不能{act}；此时无可行之事",
    ),
    # what a whole ceremony or a fragment must be (constraints/scope.py)
    Entry(
        "XS201",
        "scope.phases",
        "a whole ceremony (the trace declares no fragment) stages every phase, but {missing} of {required} are "
        "missing: {span} (first {first} {name}); if it is a part, declare it before its first event: fragment{staged}",
        "未声明片段者即为全礼，须演尽诸节：{required} 节中缺 {missing} 节：{span}（首缺 {first} {name}）；"
        "若只是一部分，请在首个事件之前声明：fragment{staged}",
    ),
    Entry(
        "XS202",
        "scope.open",
        "at the end of the ceremony {instance} is {state}; its part ends {final}",
        "礼毕时 {instance} 仍为「{state}」；其终态为{final}",
    ),
    Entry(
        "XS203",
        "scope.outside",
        "{phase} is outside the fragment's phases ({span}, line {line})",
        "{phase} 不在片段所声明之节内（{span}，第 {line} 行）",
    ),
    Entry("XS204", "scope.claim-whole", "the whole ceremony", "全礼"),
    Entry("XS205", "scope.claim-fragment", "a fragment ({span})", "片段（{span}）"),
    Entry("XS206", "scope.claim-fragment-unnamed", "a fragment (its phases not named)", "片段（未言其节）"),
    # the scoring audit's checks (constraints/scoring.py)
    Entry(
        "XS301",
        "audit.arrows",
        "{who} shot {n} arrows in round {round}; a set is 乘矢, four",
        "{who} 第 {round} 番射了 {n} 矢；一乘矢为四",
    ),
    Entry(
        "XS302",
        "audit.pair-tallies",
        "{n} tallies for pair {pair} in round {round}; the 中 holds eight (鹿中容八算)",
        "第 {round} 番耦 {pair} 释 {n} 算；中只容八算（鹿中容八算）",
    ),
    Entry(
        "XS303",
        "audit.round-tallies",
        "{n} tallies released in round {round}; of 80 (箭筹八十) eight stay in the 中",
        "第 {round} 番释 {n} 算；箭筹八十，八算留在中",
    ),
    Entry(
        "XS304",
        "audit.announced",
        "announced 「{words}」; the tallies are 右 {right}, 左 {left}: 「{want}」{due}",
        "告「{words}」；算数为右 {right}、左 {left}：当告「{want}」{due}",
    ),
    Entry("XS305", "audit.due", ", {count}", "，{count}"),
    Entry("XS306", "audit.even", "「左右钧」 announced with no count", "告「左右钧」，不告数"),
    Entry(
        "XS307",
        "audit.even-counted",
        "announced {said}; the tallies are equal (左右钧): no 贤获 and no count",
        "告{said}；左右钧：无贤获，不告数",
    ),
    Entry("XS308", "audit.no-count", "no count", "无数"),
    Entry(
        "XS309",
        "audit.xian-huo-uncounted",
        "announced no count; the 贤获 under xian-huo={reading} ({label}: {basis}) is {want}",
        "未告纯数；依 xian-huo={reading}（{label}：{basis}），贤获为{want}",
    ),
    Entry(
        "XS310",
        "audit.xian-huo",
        "announced {said}; the 贤获 under xian-huo={reading} ({label}: {basis}) is {want}",
        "告{said}；依 xian-huo={reading}（{label}：{basis}），贤获为{want}",
    ),
    Entry("XS311", "audit.xian-huo.margin", "the margin, 郑注 齊之而取其餘", "胜负之差，郑注 齊之而取其餘"),
    Entry("XS312", "audit.xian-huo.whole", "the winner's whole count", "胜者之全算"),
    Entry(
        "XS313",
        "audit.no-side",
        "{n} tallies laid out (缩/横/奇) with no side and before any 数获: say side=右 or side=左",
        "{n} 处陈算（缩/横/奇）未言左右，又在数获之前：当写 side=右 或 side=左",
    ),
    Entry("XS320", "layout.side", "the {side} tallies, {n} ({count}), ", "{side}获 {n} 算（{count}），"),
    Entry(
        "XS321",
        "layout.crosswise-uncounted",
        "{head}are laid out with a 横 that does not say how many 纯 (chun=): {want}",
        "{head}所横未言几纯（chun=）：当为{want}",
    ),
    Entry(
        "XS322",
        "layout.bundle",
        "{head}laid out {got}: a bundle (缩) is ten 纯 and holds no 奇; {want}",
        "{head}陈为{got}：一缩十纯，不含奇；当为{want}",
    ),
    Entry(
        "XS323",
        "layout.crosswise",
        "{head}laid out {got}: ten 纯 or more laid crosswise are bundled (十纯则缩而委之); {want}",
        "{head}陈为{got}：横者满十纯则当缩（十纯则缩而委之）；当为{want}",
    ),
    Entry(
        "XS324",
        "layout.odd",
        "{head}laid out {got}: one 算 is the 奇 (一算为奇); {want}",
        "{head}陈为{got}：一算为奇；当为{want}",
    ),
    Entry("XS325", "layout.ok", "{head}laid out {got}", "{head}陈为{got}"),
    Entry(
        "XS326",
        "layout.wrong",
        "{head}laid out {got} ({total} tallies); they are {want}",
        "{head}陈为{got}（{total} 算）；当为{want}",
    ),
    Entry(
        "XS327",
        "layout.wrong-one",
        "{head}laid out {got} ({total} tally); they are {want}",
        "{head}陈为{got}（{total} 算）；当为{want}",
    ),
    Entry("XS328", "layout.bundles", "{n} 缩 of ten 纯", "缩 {n}（各十纯）"),
    Entry("XS329", "layout.nothing", "nothing", "无"),
    # why an arrow scores or not (constraints/scoring.py)
    Entry(
        "XS351",
        "arrow.round-1",
        "round 1: 获而未释获 (hits are called, not tallied)",
        "第一番：获而未释获（唱获而不释算）",
    ),
    Entry("XS352", "arrow.not-scoring", "{result} is not {label}: 不贯不释", "{result} 非{label}：不贯不释"),
    Entry("XS353", "arrow.no-result", "no result is not {label}: 不贯不释", "无结果，非{label}：不贯不释"),
    Entry(
        "XS354",
        "arrow.zheng",
        "a hit on the 正 (中正; 郑注 贯犹中, 不中正不释算)",
        "中正（郑注：贯犹中，不中正不释算）",
    ),
    Entry("XS355", "arrow.hou", "a hit on the 侯 (中正 or 中侯)", "中侯（中正或中侯皆释）"),
    Entry("XS356", "arrow.off-beat", "not on the drum beat: 不鼓不释", "不应鼓节：不鼓不释"),
    Entry("XS357", "arrow.scores", "{result}: 每一个释一算", "{result}: 每一个释一算"),
    Entry("XS358", "arrow.scores-on-beat", "{result} on the beat: 每一个释一算", "{result}，应鼓节：每一个释一算"),
    # the checks of the rulebook (constraints/rulecheck.py)
    Entry(
        "XS401",
        "rulecheck.quotes",
        "{rules} rule quotes and {edges} machine-edge quotes are verbatim and unambiguous in xiangsheli.txt",
        "规则引文 {rules} 条、状态机边引文 {edges} 条，皆逐字见于 xiangsheli.txt 且无歧义",
    ),
    Entry(
        "XS402",
        "rulecheck.machine",
        "{states} states, {edges} edges: all reachable, no trap",
        "{states} 个状态、{edges} 条边：皆可达，无陷阱",
    ),
    Entry("XS403", "rulecheck.unreachable", "unreachable: {states}", "不可达：{states}"),
    Entry(
        "XS404",
        "rulecheck.traps",
        "trap states (no way out, not final): {states}",
        "陷阱状态（无出路，又非终态）：{states}",
    ),
    Entry("XS405", "rulecheck.cast", "applies to the cast of every staging", "适用于每份仪注的人员"),
    Entry("XS406", "rulecheck.triggered", "triggered in the bundled stagings", "在所附仪注中被触发"),
    Entry(
        "XS407",
        "rulecheck.never-triggered",
        "never triggered in the bundled stagings{unstaged}{absent}",
        "在所附仪注中从未被触发{unstaged}{absent}",
    ),
    Entry("XS408", "rulecheck.unstaged", " (acts never staged: {acts})", "（从未上演的动作：{acts}）"),
    Entry(
        "XS409",
        "rulecheck.absent",
        "; its condition never arises there: no {who} takes part",
        "；其条件在那里从不出现：没有 {who} 参与",
    ),
    Entry("XS410", "rulecheck.held-where", "staging held where {given}", "{given}之仪注"),
    Entry(
        "XS411",
        "rulecheck.allow-listed",
        "allow-listed in {file} but triggered in the bundled stagings: remove the entry",
        "列于 {file} 之许可，却在所附仪注中被触发：请删去此条",
    ),
    Entry("XS412", "rulecheck.not-staged", "not staged: {reason}", "未上演：{reason}"),
    Entry("XS413", "rulecheck.keeps", "keeps every machine and every rule in force", "遵守每个状态机和每条生效的规则"),
    Entry("XS414", "rulecheck.violations", "{n} violations: {rules}", "{n} 处违例：{rules}"),
    Entry(
        "XS415",
        "rulecheck.z3-holds",
        "z3: the {rules} encoded rules and every machine hold together on a trace of {events} events",
        "z3：{rules} 条已编码规则与所有状态机可在一份 {events} 个事件的仪注上同时成立",
    ),
    Entry("XS416", "rulecheck.z3-gave-up", "z3 gave up: {reason}", "z3 未能得出结论：{reason}"),
    Entry(
        "XS417",
        "rulecheck.z3-machines",
        "z3: no trace of {events} events keeps them all; the rules in conflict: the machines alone",
        "z3：没有 {events} 个事件的仪注能同时遵守；冲突者：状态机本身",
    ),
    Entry(
        "XS418",
        "rulecheck.z3-conflict",
        "z3: no trace of {events} events keeps them all; the rules in conflict: {rules}",
        "z3：没有 {events} 个事件的仪注能同时遵守；相冲突的规则：{rules}",
    ),
    Entry("XS419", "rulecheck.witness", "independent: {path} breaks it and nothing else", "独立：{path} 只违反此条"),
    Entry(
        "XS420",
        "rulecheck.no-search",
        "no violating example breaks it alone, and no search was asked for (--redundancy 0)",
        "没有只违反此条的违例，也未要求搜索（--redundancy 0）",
    ),
    Entry(
        "XS421",
        "rulecheck.implied",
        "no counterexample up to {depth} steps: implied by the machines and the other rules up to that length "
        "(not a proof)",
        "至多 {depth} 步内无反例：在此长度内为状态机与其他规则所蕴含（并非证明）",
    ),
    Entry("XS422", "rulecheck.inconclusive", "inconclusive: {reason}", "无定论：{reason}"),
    Entry(
        "XS423",
        "rulecheck.disagree",
        "z3 and the checker disagree on a candidate (a bug to report): {reason}",
        "z3 与检查器对一候选意见不一（此为程序错误，请报告）：{reason}",
    ),
    Entry(
        "XS424",
        "rulecheck.counterexample",
        "independent: a counterexample of {steps} steps (z3)",
        "独立：有 {steps} 步的反例（z3）",
    ),
    Entry(
        "XS425",
        "rulecheck.only",
        "checked {n} named rule(s) only ({ids}), not the rest of the rulebook",
        "只检查了所指名的 {n} 条规则（{ids}），未检查规则集的其余部分",
    ),
    # what explain's examples show (constraints/explain.py)
    Entry("XS501", "example.whole", "the trace as a whole breaks the rule", "整份仪注违反此规则"),
    Entry("XS502", "example.line", "the line the rule objects to", "规则所指摘的一行"),
    Entry(
        "XS503",
        "example.nothing",
        "nothing in the staging is 「{what}」: the rule is kept throughout",
        "仪注中没有「{what}」：规则始终得到遵守",
    ),
    Entry(
        "XS504", "example.first-pair", "the first pair with a 「{who}」: pair {pair}", "第一个有「{who}」的耦：{pair}"
    ),
    Entry(
        "XS505",
        "example.first-event",
        "the first event the rule speaks of: 「{pattern}」",
        "规则所说的第一个事件：「{pattern}」",
    ),
    Entry("XS506", "example.kept", "{note}; the rule is kept", "{note}；规则得到遵守"),
    Entry(
        "XS507",
        "example.breaks-other",
        "{note}; this example breaks {other}, not this rule",
        "{note}；此例违反的是 {other}，而非本规则",
    ),
    # where a finding's rule is defined (constraints/check.py), the readings (constraints/readings.py)
    Entry("XS601", "defined.audit", "{path}  the scoring audit", "{path}  计分核查"),
    Entry("XS602", "defined.scope", "{path}  what a whole ceremony or a fragment must be", "{path}  全礼与片段之所须"),
    Entry("XS603", "reading.not-default", "{point}={value} (not the default)", "{point}={value}（非默认）"),
    # input errors (domain/errors.py, domain/parse.py, domain/sources.py and friends)
    Entry("XS701", "input.error", "{where}: error: {message}", "{where}: 错误: {message}"),
    Entry(
        "XS702",
        "input.more",
        "{path}: … and {n} more errors (the first {shown} are shown)",
        "{path}: … 另有 {n} 处错误（只列出前 {shown} 处）",
    ),
    Entry(
        "XS703",
        "input.more-one",
        "{path}: … and 1 more error (the first {shown} are shown)",
        "{path}: … 另有 1 处错误（只列出前 {shown} 处）",
    ),
    Entry("XS704", "input.did-you-mean", "did you mean {words}?", "是否要写 {words}？"),
    Entry("XS705", "input.known", "known: {words}", "已知: {words}"),
    Entry("XS706", "input.unknown-person", "unknown person {word}", "未知的人物 {word}"),
    Entry("XS707", "input.unknown-act", "unknown act {word}", "未知的动作 {word}"),
    Entry("XS708", "input.unknown-object", "unknown object {word}", "未知的器物 {word}"),
    Entry("XS709", "input.unknown-place", "unknown place {word}", "未知的位置 {word}"),
    Entry("XS710", "input.unknown-role", "unknown role {word}", "未知的职事 {word}"),
    Entry("XS711", "input.unknown-rank", "unknown rank {word}", "未知的爵等 {word}"),
    Entry("XS712", "input.unknown-phase", "unknown phase {word}", "未知的节次 {word}"),
    Entry("XS713", "input.unknown-key", "unknown key {word}", "未知的键 {word}"),
    Entry("XS714", "input.unknown-object-kind", "unknown object kind {word}", "未知的器物类 {word}"),
    Entry("XS715", "input.fragment-phase", "fragment: unknown phase {word}", "fragment: 未知的节次 {word}"),
    Entry("XS716", "input.one-of", "{key}={value}: {key} is one of {allowed}", "{key}={value}: {key} 只能是 {allowed}"),
    Entry("XS717", "input.no-such-file", "no such file", "没有这个文件"),
    Entry(
        "XS718",
        "input.file-type",
        "unknown file type {what}; a staging is {known}",
        "未知的文件类型 {what}；仪注文件是 {known}",
    ),
    Entry(
        "XS719",
        "input.no-stagings",
        "no staging files in this directory ({known}, hidden ones skipped)",
        "这个目录里没有仪注文件（{known}，隐藏文件略过）",
    ),
    Entry(
        "XS720",
        "input.no-subject",
        "no rule, machine or audit check {word}; {hint}",
        "没有规则、状态机或核查项 {word}；{hint}",
    ),
    Entry("XS721", "input.not-an-act", "{act} is not an act on {kind}", "{act} 不是{kind}上的动作"),
    Entry("XS722", "input.acts-on", "acts on {kind}: {acts}; {hint}", "{kind}上的动作：{acts}；{hint}"),
    Entry("XS723", "input.error-bare", "error: {message}", "错误: {message}"),
    Entry("XS724", "input.unknown-rule", "unknown rule {word}", "未知的规则 {word}"),
    # usage errors: how a command was called, the files it writes (domain/files.py, domain/sources.py)
    Entry("XS731", "usage.file-exists", "the file exists; {advice}", "文件已存在；{advice}"),
    Entry("XS732", "usage.advice-force", "choose another name or use --force", "请换一个名字或加 --force"),
    Entry("XS733", "usage.advice", "choose another name", "请换一个名字"),
    Entry("XS734", "usage.cannot-write", "cannot write: {reason}", "无法写入: {reason}"),
    Entry("XS735", "usage.no-directory", "no such directory {path}", "没有这个目录 {path}"),
    Entry(
        "XS736",
        "usage.cannot-mkdir",
        "cannot make the directory for the report: {reason}; choose another place with -o",
        "无法为报告建立目录: {reason}；请用 -o 另选位置",
    ),
    Entry(
        "XS737",
        "usage.stdin-option",
        "{option} is for `-` (standard input), which is not among the FILEs",
        "{option} 用于 `-`（标准输入），但 FILE 中没有 `-`",
    ),
    Entry(
        "XS738",
        "usage.stdin-unread",
        "standard input has data but no FILE was given; to check it, pass - "
        "(xiangshe check - [--stdin-format trace|jsonl|json|yaml]); to check the "
        "bundled canonical ceremony, give no input (< /dev/null)",
        "标准输入有数据，但没有给出 FILE；要检查它，请传 -"
        "（xiangshe check - [--stdin-format trace|jsonl|json|yaml]）；要检查所附的标准仪注，请不给输入（< /dev/null）",
    ),
    Entry(
        "XS739",
        "usage.stdin-silent",
        "standard input is an open pipe that sent nothing within {wait} s and no FILE was given; "
        "to check it, pass -; to check the bundled canonical ceremony, give no input (< /dev/null)",
        "标准输入是一个打开的管道，{wait} 秒内没有送来任何内容，也没有给出 FILE；要检查它，请传 -；"
        "要检查所附的标准仪注，请不给输入（< /dev/null）",
    ),
    Entry(
        "XS742",
        "usage.force-without-baseline",
        "--force goes with --write-baseline (check never writes otherwise)",
        "--force 须与 --write-baseline 同用（check 不另写文件）",
    ),
    Entry(
        "XS743",
        "usage.no-baseline-unreadable",
        "no baseline is written while a staging cannot be read",
        "有仪注无法读取时不写基线",
    ),
    Entry(
        "XS744",
        "usage.report-directory",
        "is a directory; report takes one staging file (check takes directories)",
        "是目录；report 只接受一个仪注文件（check 可接受目录）",
    ),
    Entry(
        "XS745", "input.too-large", "more than {limit} bytes; the limit is {limit}", "超过 {limit} 字节；上限为 {limit}"
    ),
    Entry(
        "XS746",
        "input.file-too-large",
        "file is {size} bytes; the limit is {limit}",
        "文件有 {size} 字节；上限为 {limit}",
    ),
    Entry(
        "XS747",
        "input.limit-hint",
        "a larger input needs --max-input-size SIZE (e.g. 200M)",
        "更大的输入须用 --max-input-size SIZE（如 200M）",
    ),
    Entry("XS748", "input.binary", "binary file: a trace is UTF-8 text", "二进制文件：仪注须为 UTF-8 文本"),
    Entry("XS749", "input.not-utf8", "not UTF-8 text", "不是 UTF-8 文本"),
    Entry("XS750", "input.cannot-read", "cannot read: {reason}", "无法读取：{reason}"),
    Entry("XS740", "usage.rule-ambiguous", "{word} is ambiguous: {ids}", "{word} 有歧义: {ids}"),
    Entry(
        "XS741",
        "usage.rule-not-encoded",
        "{word} is not an encoded rule in force; {hint}",
        "{word} 不是生效的已编码规则；{hint}",
    ),
    # every reading at once (constraints/allreadings.py, reports/allreadings.py)
    Entry(
        "XS860",
        "readings.all-hold",
        "holds under every reading that bears on it: {readings} alike",
        "于其所涉诸说皆合：{readings}",
    ),
    Entry(
        "XS861",
        "readings.all-fail",
        "fails under every reading that bears on it: {readings} alike{differ}",
        "于其所涉诸说皆不合：{readings}{differ}",
    ),
    Entry("XS862", "readings.flips", "holds under {holds}; fails under {fails}", "从{holds}则合；从{fails}则不合"),
    Entry("XS863", "readings.at-lines", "{readings} at {lines}", "{readings}（{lines}）"),
    Entry(
        "XS864",
        "readings.none-bear",
        "no contested point with two readings that can be checked bears on it: {verdict} under every reading",
        "所涉之点无两说可检查者：诸说之下皆{verdict}",
    ),
    Entry(
        "XS865",
        "readings.bound",
        "only {checked} of {total} combinations checked (--max-combinations {limit}): inconclusive",
        "仅检查了 {total} 种组合中的 {checked} 种（--max-combinations {limit}）：无定论",
    ),
    Entry("XS866", "readings.only-under", "only under {readings}", "仅从{readings}"),
    Entry("XS867", "readings.under-every", "under every reading", "诸说皆然"),
    Entry("XS868", "readings.unchecked", "cannot be checked: {reason}", "无法检查：{reason}"),
    Entry("XS869", "readings.holds", "holds", "合"),
    Entry("XS870", "readings.fails", "fails", "不合"),
    Entry(
        "XS871",
        "readings.audit-guan",
        "the scoring audit: {n} shot(s) 中侯 in rounds 2–3, first at line {line}",
        "计分核查：第二、三番有 {n} 矢中侯，首见第 {line} 行",
    ),
    Entry(
        "XS872",
        "readings.audit-xian-huo",
        "the scoring audit (N10): {n} announcement(s) of a winner, first at line {line}",
        "计分核查（N10）：告胜 {n} 次，首见第 {line} 行",
    ),
    Entry("XS873", "readings.turns-on", "the verdict turns on {points}", "结论取决于：{points}"),
    Entry("XS874", "readings.differ", " (the findings differ with {points})", "（所见之误随{points}而异）"),
    Entry(
        "XS875",
        "readings.summary",
        "{stagings} staging(s) checked under {combinations} combination(s) of readings; "
        "the verdict turns on a reading in {flips}",
        "共 {stagings} 个仪注，于 {combinations} 种读法组合下检查；其中 {flips} 个的结论取决于读法",
    ),
    Entry("XS876", "readings.bears", "bears on it: {why}", "所涉：{why}"),
    Entry(
        "XS877",
        "readings.no-baseline",
        "every reading at once compares the findings themselves: a baseline does not apply "
        "(leave out --baseline and --write-baseline)",
        "诸说并检比较的是所见之误本身：基线不适用（请去掉 --baseline 与 --write-baseline）",
    ),
    Entry("XS878", "readings.findings", "{n} finding(s)", "{n} 处误"),
    Entry("XS879", "readings.lines", "line {lines}", "第 {lines} 行"),
    # repair (constraints/repair.py, reports/repair.py)
    Entry("XS801", "repair.ok", "{path}: ok, nothing to repair", "{path}: 合乎礼文，无须修正"),
    Entry(
        "XS802",
        "repair.found",
        "{path}: violations: {findings}, to answer: {causes}; smallest repairs: {count}, edits each: {edits}; "
        "each re-checked: every machine and rule holds after it",
        "{path}: 违例 {findings} 处，须答 {causes} 处；最小修正 {count} 种，每种 {edits} 步；"
        "均已复核：修正后各状态机与规则皆成立",
    ),
    Entry("XS803", "repair.heading", "repair {n} (edits: {edits}):", "修正 {n}（{edits} 步）："),
    Entry("XS804", "repair.insert", "after line {line}, insert {event}", "于第 {line} 行之后，插入 {event}"),
    Entry("XS805", "repair.insert-first", "before the first event, insert {event}", "于首个事件之前，插入 {event}"),
    Entry("XS806", "repair.delete", "delete line {line}, {event}", "删去第 {line} 行 {event}"),
    Entry(
        "XS807",
        "repair.change",
        "at line {line}, change {old} to {new} ({fields})",
        "第 {line} 行，将 {old} 改为 {new}（{fields}）",
    ),
    Entry(
        "XS808",
        "repair.move",
        "move line {line}, {event}, to after line {to}",
        "将第 {line} 行 {event} 移至第 {to} 行之后",
    ),
    Entry(
        "XS809",
        "repair.move-block",
        "move lines {first}–{last} ({n} events, from {event}) to after line {to}",
        "将第 {first}–{last} 行（{n} 个事件，自 {event} 起）移至第 {to} 行之后",
    ),
    Entry("XS810", "repair.cite", "{step} — 「{quote}」 ({where})", "{step} —— 「{quote}」（{where}）"),
    Entry(
        "XS811",
        "repair.none",
        "{path}: no repair found (--max-edits {edits}): {why}; {tried} candidates checked. "
        "This is not a proof that none exists: the search tries the edits near the findings that the "
        "libretto, the machines and the findings suggest",
        "{path}: 未找到修正（--max-edits {edits}）：{why}；复核候选 {tried} 个。"
        "这并不证明没有修正：搜索只尝试礼文脚本、状态机与违例所提示的、违例附近的修改",
    ),
    Entry(
        "XS812",
        "repair.bound-edits",
        "every candidate it proposes, up to that many edits, was checked",
        "所提示的候选（至多该步数）皆已复核",
    ),
    Entry(
        "XS813",
        "repair.bound-candidates",
        "the candidate budget ({budget}) was spent (--budget)",
        "候选预算 {budget} 个已用尽（--budget）",
    ),
    Entry(
        "XS814",
        "repair.bound-time",
        "the time budget of {seconds} s was spent (--timeout)",
        "时间预算 {seconds} 秒已用尽（--timeout）",
    ),
    Entry(
        "XS815",
        "repair.wrote",
        "wrote {path}: repair 1, re-checked (ok)",
        "已写入 {path}：修正 1，已复核（合乎礼文）",
    ),
    Entry(
        "XS816",
        "repair.searched",
        "{tried} candidates checked; aligned with the libretto performed for {reference}",
        "复核候选 {tried} 个；对照礼文脚本（{reference}）",
    ),
    Entry(
        "XS822",
        "repair.cut",
        "the search was cut by its time budget of {seconds} s (--timeout): a longer one may list others as small",
        "搜索为时间预算 {seconds} 秒所截（--timeout）：更久的搜索或可列出同样小的其他修正",
    ),
    Entry(
        "XS824",
        "repair.delete-with",
        "delete line {line}, {event}, and the same person's steps that follow from it, at lines {lines} ({events})",
        "删去第 {line} 行 {event}，并删去同一人因之而行者：第 {lines} 行（{events}）",
    ),
    Entry("XS823", "repair.time", "{path}: searched in {seconds} s", "{path}：搜索用时 {seconds} 秒"),
    Entry("XS817", "repair.first", "{what}: {rule} at line {line}", "{what}：第 {line} 行 {rule}"),
    Entry("XS818", "repair.finding", "finding", "违例"),
    Entry(
        "XS820",
        "repair.rename",
        "change the object {old} to {new} in each of its {n} events (lines {lines})",
        "将器物 {old} 改为 {new}，凡 {n} 个事件（第 {lines} 行）",
    ),
    Entry(
        "XS821",
        "repair.insert-after-new",
        "right after the {before} inserted above, insert {event}",
        "紧接上面插入的 {before} 之后，插入 {event}",
    ),
    Entry(
        "XS825",
        "repair.insert-run",
        "{step}, and right after it what the text has follow it ({n}): {events}",
        "{step}，其后紧接礼文随之者（{n} 步）：{events}",
    ),
    Entry(
        "XS826",
        "repair.delete-round",
        "withdraw {persons} from round {round}: delete each of the {n} events that name them in it (lines {lines})",
        "令 {persons} 不与第 {round} 番射：删去其中提及彼等之事件，凡 {n} 个（第 {lines} 行）",
    ),
    Entry(
        "XS827",
        "repair.delete-run",
        "delete lines {first}–{last}, the {n} steps {person} takes there ({events})",
        "删去第 {first}–{last} 行，{person} 于此所行 {n} 步（{events}）",
    ),
    Entry(
        "XS819",
        "usage.repair-directory",
        "is a directory; repair takes one staging file",
        "是目录；修正只接受一个仪注文件",
    ),
    # next and complete (constraints/frontier.py, reports/frontier.py)
    Entry("XS830", "frontier.cup", "{cup} is filled ({state}) and not yet drunk{by}", "{cup}已实（{state}）而未饮{by}"),
    Entry(
        "XS831",
        "frontier.round",
        "round {round} is under way ({phase}) and not finished: it ends with {last}",
        "第 {round} 番射正在进行（{phase}），尚未结束：至 {last} 而终",
    ),
    Entry("XS832", "frontier.pending", "{rule} {name}: {message}", "{rule} {name}：{message}"),
    Entry(
        "XS833",
        "frontier.implement",
        "{instance} is {state}; its part ends in {final}",
        "{instance}今为{state}；至{final}而事毕",
    ),
    Entry("XS834", "frontier.clause", "still to be enacted in {phase}", "{phase}中尚待行之"),
    Entry(
        "XS835",
        "frontier.departs",
        "the staging departs from the libretto here: {found}; the libretto has {expected}",
        "仪注于此与礼文之序不合：{found}；礼文此处为 {expected}",
    ),
    Entry("XS836", "frontier.libretto-ended", "the libretto has ended", "礼文已终"),
    Entry(
        "XS837",
        "frontier.not-line-format",
        "complete writes the line format: give a .trace file (convert with generate's formats or by hand)",
        "续写只用行格式：请给出行格式的仪注文件",
    ),
    Entry(
        "XS838",
        "frontier.holds",
        "completed to the end of {until}: {added} lines ({events} events) added; the completion holds",
        "续至 {until} 之末：增 {added} 行（{events} 事）；续成者合乎规则",
    ),
    Entry(
        "XS839",
        "frontier.fails",
        "the libretto's continuation does not hold for this staging: {findings} findings, the first: {first}",
        "依礼文续写后不合规则：{findings} 处，首处：{first}",
    ),
    Entry(
        "XS840",
        "frontier.prefix-fails",
        "the staging already breaks {findings} rules or machines; fix it first (xiangshe check, xiangshe repair)",
        "仪注本身已有 {findings} 处违规；请先改正（xiangshe check）",
    ),
    Entry("XS841", "frontier.fragment-inserted", "line {line} inserted: {text}", "插入第 {line} 行：{text}"),
    Entry("XS842", "frontier.fragment-replaced", "line {line} replaced: {text}", "改第 {line} 行：{text}"),
    Entry("XS843", "frontier.fragment-removed", "line {line} commented out: {text}", "第 {line} 行改为注释：{text}"),
    Entry(
        "XS844",
        "frontier.options",
        "the libretto for {options} (from the {source})",
        "依礼文，选项 {options}（据{source}）",
    ),
    Entry("XS845", "frontier.nothing-next", "nothing: the libretto has ended", "无：礼文已终"),
    Entry("XS846", "frontier.would-break", "would break {ids} if it came now", "若此时行之，则违 {ids}"),
    Entry(
        "XS847",
        "frontier.after",
        "{path}: after line {line} ({events} events), in {phase}",
        "{path}：第 {line} 行之后（{events} 事），在 {phase}",
    ),
    Entry("XS848", "frontier.next", "what may come next (the libretto's order)", "其后可行者（依礼文之序）"),
    Entry("XS849", "frontier.owed", "what must still happen", "尚待完成者"),
    Entry("XS850", "frontier.machines", "what the machines allow", "状态机所许"),
    Entry("XS851", "frontier.source-header", "header", "文首选项"),
    Entry("XS852", "frontier.source-cast", "cast and pairs", "人物与耦"),
    Entry(
        "XS853",
        "frontier.prefix-breaks",
        "the staging already breaks {findings}: {first}",
        "仪注已违 {findings} 处：{first}",
    ),
    Entry("XS854", "frontier.no-events", "before the first event", "首事之前"),
    Entry(
        "XS855",
        "frontier.same-file",
        "-o names the input itself: complete never changes its input; give another file",
        "-o 即输入文件：续写从不改动输入；请另给文件",
    ),
    Entry("XS856", "frontier.kind-cup", "cup", "酒器"),
    Entry("XS857", "frontier.kind-round", "round", "射番"),
    Entry("XS858", "frontier.kind-rule", "rule", "规则"),
    Entry("XS859", "frontier.kind-implement", "implement", "器具"),
    Entry("XS900", "frontier.kind-clause", "clause", "经文"),
    Entry("XS901", "frontier.at-line", "[line {line}]", "[第 {line} 行]"),
    Entry("XS902", "frontier.at-lines", "[lines {lines}]", "[第 {lines} 行]"),
    # counterexample (constraints/counterexample.py)
    Entry(
        "XS920",
        "counterexample.not-minimal",
        "{where}: not minimal either: its minimising stopped at its bound of events replayed (a long"
        " example); every event dropped was checked, and it still breaks this rule alone",
        "{where}: 亦未化至最简：化简已达其重放事件之上限（所附违例甚长）；所删每一事件皆经检查，仍只违此规则",
    ),
)

BY_NAME: dict[str, Entry] = {e.name: e for e in CATALOGUE}
BY_CODE: dict[str, Entry] = {e.code: e for e in CATALOGUE}
LANGUAGES = ("en", "zh")


def parameters(template: str) -> tuple[str, ...]:
    """The named parameters of a template, in order, each once."""
    import string  # only here (SARIF's arguments, the catalogue's checks): a check has no use for it

    names = (field for _, field, _, _ in string.Formatter().parse(template) if field is not None)
    return tuple(dict.fromkeys(names))


def render(value: object, lang: str) -> str:
    """A value in a language: a Message, a Join or a Localised rendered, anything else as written."""
    return value.render(lang) if isinstance(value, Text) else str(value)


class Text(str):
    """English text that can say itself in another language (`render`)."""

    def render(self, lang: str) -> str:  # noqa: ARG002 (English is all plain text can say)
        return str.__str__(self)


class Localised(Text):
    """Text made by a function of the language (an input error with its frame, quoted line and hint)."""

    make: Callable[[str], str]

    def __new__(cls, make: Callable[[str], str]) -> Localised:
        self = super().__new__(cls, make("en"))
        self.make = make
        return self

    def render(self, lang: str) -> str:
        return self.make(lang)

    def __reduce__(self):
        return (str, (str.__str__(self),))


class Message(Text):
    """A sentence of the catalogue: the English text, with its id and parameters."""

    code: str
    name: str
    params: Mapping[str, object]

    def __new__(cls, name: str, /, **params: object) -> Message:
        entry = BY_NAME[name]
        self = super().__new__(cls, entry.en.format_map({k: render(v, "en") for k, v in params.items()}))
        self.code, self.name, self.params = entry.code, name, params
        return self

    @property
    def id(self) -> str:
        return self.code

    def render(self, lang: str) -> str:
        if lang == "en":
            return str.__str__(self)
        template = getattr(BY_NAME[self.name], lang)
        return template.format_map({k: render(v, lang) for k, v in self.params.items()})

    def arguments(self) -> list[str]:
        """The parameters in the order of the English template, as English text (SARIF's `arguments`)."""
        return [render(self.params[p], "en") for p in parameters(BY_NAME[self.name].en)]

    def __reduce__(self):
        return (_message, (self.name, dict(self.params)))


def _message(name: str, params: dict) -> Message:
    return Message(name, **params)


class Join(Text):
    """Several values joined with a separator of each language (`, ` and `，`)."""

    items: tuple[object, ...]
    seps: dict[str, str]

    def __new__(cls, items: Iterable[object], en: str = ", ", zh: str = "，") -> Join:
        items = tuple(items)
        self = super().__new__(cls, en.join(render(i, "en") for i in items))
        self.items, self.seps = items, {"en": en, "zh": zh}
        return self

    def render(self, lang: str) -> str:
        return self.seps.get(lang, self.seps["en"]).join(render(i, lang) for i in self.items)

    def __reduce__(self):
        return (_join, (self.items, self.seps["en"], self.seps["zh"]))


def _join(items: tuple, en: str, zh: str) -> Join:
    return Join(items, en, zh)


DOC = "docs/messages.md"


def document() -> str:
    """docs/messages.md: every message with its code, name and both templates (generated: `python -m
    xiangshe.domain.messages --write`; tests/test_messages.py fails when the committed one is stale)."""
    out = [
        "# Messages",
        "",
        "Every sentence xiangshe writes about a staging or the rulebook, by id: the code (stable: shown",
        "as the message `id` in SARIF, with the parameters as its `arguments`, and never reused), the",
        "name the code that writes it uses, the English template and the Chinese one (`--lang zh`).",
        "`{name}` is a parameter: what the user or the rulebook wrote, a number, or another message.",
        "",
        "Generated from `domain/messages.py` by `python -m xiangshe.domain.messages --write`; do not edit.",
        "",
        "| code | name | English | 中文 |",
        "| --- | --- | --- | --- |",
    ]

    def cell(text: str) -> str:
        return "`" + text.replace("|", "\\|") + "`"

    for e in CATALOGUE:
        out.append(f"| {e.code} | {e.name} | {cell(e.en)} | {cell(e.zh)} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / DOC
    if sys.argv[1:] == ["--write"]:
        path.write_text(document(), encoding="utf-8")
    else:
        sys.stdout.write(document())
