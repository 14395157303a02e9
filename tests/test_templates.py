"""Each rule template on tiny traces: the Python meaning, and the z3 meaning agreeing with it."""

from __future__ import annotations

import pytest

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import parse_rule_block
from xiangshe.constraints.smt import holds_on
from xiangshe.domain.parse import parse_lines
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.fsm.replay import replay

pytestmark = pytest.mark.z3  # each template is also checked against its z3 meaning

CAST = """\
cast 甲 弟子
cast 乙 弟子
cast 丙 众宾
cast 丁 众宾
pair 上耦 上射=甲 下射=乙
pair 下耦 上射=丙 下射=丁
"""


def rule(body: str):
    return parse_rule_block('id = "t"\nname = "测"\nquote = "不贯不释"\n' + body, "t.md", 1, (), vocabulary())


def verdict(r, lines: list[str]) -> list[int]:
    """Indices of the violating events (or -1 for cast violations), by the Python meaning."""
    trace = parse_lines(CAST + "\n".join(lines or ["主人 揖"]) + "\n", "t.trace")
    found = r.template.holds(Context(trace, replay(trace)))
    py = [v.at if v.at is not None else -1 for v in found]
    assert holds_on(r, trace) == (not py), "the z3 meaning disagrees with the Python meaning"
    return py


NO_PIERCE = rule(
    'kind = "precedence"\nfirst = "* 射 矢 result=中正"\nthen = "释获者 释获 算"\n'
    'same = { for = "actor", arrow = "arrow" }'
)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["phase Φ27", "甲 射 矢 arrow=1 result=中正", "释获者 释获 算 for=甲 arrow=1 side=右"], []),
        (["phase Φ27", "甲 射 矢 arrow=1 result=中侯", "释获者 释获 算 for=甲 arrow=1 side=右"], [1]),
        (["phase Φ27", "甲 射 矢 arrow=2 result=中正", "释获者 释获 算 for=甲 arrow=1 side=右"], [1]),
        (["phase Φ27", "乙 射 矢 arrow=1 result=中正", "释获者 释获 算 for=甲 arrow=1 side=右"], [1]),
        (["phase Φ27", "释获者 释获 算 for=甲 arrow=1 side=右", "甲 射 矢 arrow=1 result=中正"], [0]),
    ],
    ids=["pierced", "not-pierced", "other-arrow", "other-shooter", "tally-first"],
)
def test_precedence_with_correlation(lines: list[str], expected: list[int]) -> None:
    assert verdict(NO_PIERCE, lines) == expected


def test_absence() -> None:
    r = rule('kind = "absence"\npattern = "* 献|酢 觯"')
    assert verdict(r, ["主人 献 爵 to=宾", "主人 酬 觯 to=宾"]) == []
    assert verdict(r, ["主人 献 觯 to=宾", "宾 酢 觯 to=主人"]) == [0, 1]


def test_absence_with_phase_and_round_scope() -> None:
    r = rule('kind = "absence"\npattern = "释获者 释获 算 round=1"')
    assert verdict(r, ["phase Φ21", "释获者 释获 算 for=甲"]) == [0]
    assert verdict(r, ["phase Φ27", "释获者 释获 算 for=甲"]) == []


def test_response() -> None:
    r = rule('kind = "response"\nfirst = "主人 献 爵"\nthen = "主人 拜送"\nsame = ["to"]')
    assert verdict(r, ["主人 献 爵 to=宾", "主人 拜送 to=宾"]) == []
    assert verdict(r, ["主人 献 爵 to=宾", "主人 拜送 to=众宾1"]) == [0]
    assert verdict(r, ["主人 拜送 to=宾", "主人 献 爵 to=宾"]) == [1]


SHOT, HIT = "* 射 矢", "* 射 矢 result=中正"  # a hit is a shot: one event can match both patterns


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        (["中正", "中正"], [0]),  # the first hit is its own first shot: not an earlier one
        (["中侯", "中正", "中正"], []),
        (["中正", "中侯", "中正"], [0]),
    ],
)
def test_precedence_without_correlation_an_event_of_both_patterns(results: list[str], expected: list[int]) -> None:
    r = rule(f'kind = "precedence"\nfirst = "{SHOT}"\nthen = "{HIT}"')
    shots = [f"{who} 射 矢 arrow=1 result={res}" for who, res in zip("甲乙丙", results, strict=False)]
    assert verdict(r, ["phase Φ27", *shots]) == expected


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        (["中正", "中侯"], [0, 1]),  # the last hit answers no shot of its own: only a later one does
        (["中侯", "中正"], [1]),
        (["中侯", "中正", "中正"], [2]),
        (["中正", "中侯", "中侯"], [0, 1, 2]),
    ],
)
def test_response_without_correlation_an_event_of_both_patterns(results: list[str], expected: list[int]) -> None:
    r = rule(f'kind = "response"\nfirst = "{SHOT}"\nthen = "{HIT}"')
    shots = [f"{who} 射 矢 arrow=1 result={res}" for who, res in zip("甲乙丙", results, strict=False)]
    assert verdict(r, ["phase Φ27", *shots]) == expected


def test_walk_flags_each_event_of_its_patterns_in_trace_order() -> None:
    from xiangshe.constraints.pattern import parse_pattern

    lines = ["phase Φ27", "甲 射 矢 arrow=1 result=中正", "释获者 释获 算 for=甲 arrow=1 side=右"]
    lines += ["乙 射 矢 arrow=1 result=中侯", "丙 射 矢 arrow=1 result=中正", "释获者 释获 算 for=丙 arrow=1 side=左"]
    trace = parse_lines(CAST + "\n".join(lines) + "\n", "t.trace")
    ctx = Context(trace, replay(trace))
    texts = [HIT, "释获者 释获 算", SHOT, "* 射 矢 result=中侯"]
    for n in (1, 2, 3, 4):
        for first in range(len(texts) - n + 1):
            pats = [parse_pattern(t, vocabulary()) for t in texts[first : first + n]]
            flags = [tuple(ctx.matches(p, e) for p in pats) for e in trace.events]
            assert ctx.walk(*pats) == [(e, f) for e, f in zip(trace.events, flags, strict=True) if any(f)]


def test_unique() -> None:
    r = rule('kind = "unique"\npattern = "释获者 释获 算"\nsame = ["for", "arrow"]')
    assert verdict(r, ["释获者 释获 算 for=甲 arrow=1", "释获者 释获 算 for=甲 arrow=2"]) == []
    assert verdict(r, ["释获者 释获 算 for=甲 arrow=1", "释获者 释获 算 for=甲 arrow=1"]) == [1]


def test_at_most() -> None:
    r = rule('kind = "at_most"\npattern = "* 射 矢"\nn = 2\nsame = ["actor"]')
    assert verdict(r, ["甲 射 矢", "甲 射 矢", "乙 射 矢"]) == []
    assert verdict(r, ["甲 射 矢", "甲 射 矢", "甲 射 矢"]) == [2]


@pytest.mark.parametrize(
    ("op", "n", "shots", "ok"), [("==", 2, 2, True), ("==", 2, 1, False), (">=", 2, 3, True), ("<=", 1, 2, False)]
)
def test_count_before(op: str, n: int, shots: int, ok: bool) -> None:
    r = rule(f'kind = "count_before"\nfirst = "* 射 矢"\nthen = "* 释弓"\nop = "{op}"\nn = {n}\nsame = ["actor"]')
    lines = ["乙 射 矢"] + ["甲 射 矢"] * shots + ["甲 释弓"]
    assert verdict(r, lines) == ([] if ok else [shots + 1])


def test_absence_between() -> None:
    r = rule('kind = "absence_between"\nafter = "* 卒觯 觯"\nforbid = "* 洗 觯"\nthen = "* 实 觯"\nsame = ["obj"]')
    assert verdict(r, ["宾 卒觯 觯", "宾 实 觯"]) == []
    assert verdict(r, ["宾 卒觯 觯", "宾 洗 觯", "宾 实 觯"]) == [1]  # at the wash, the fault
    assert verdict(r, ["宾 卒觯 觯", "宾 洗 觯2", "宾 实 觯"]) == []  # another cup
    assert verdict(r, ["宾 洗 觯", "宾 卒觯 觯", "宾 实 觯"]) == []  # washed before draining
    assert verdict(r, ["宾 卒觯 觯", "宾 洗 觯", "宾 卒觯 觯", "宾 实 觯"]) == []  # reset by a later drain
    assert verdict(r, ["宾 洗 觯", "宾 实 觯"]) == []  # never drained
    # each wash of a window once, however many refills close over it
    assert verdict(r, ["宾 卒觯 觯", "宾 洗 觯", "宾 实 觯", "宾 实 觯"]) == [1]
    assert verdict(r, ["宾 卒觯 觯", "宾 洗 觯", "宾 洗 觯", "宾 实 觯"]) == [1, 2]
    assert verdict(r, ["宾 卒觯 觯", "宾 洗 觯", "宾 实 觯", "宾 洗 觯", "宾 实 觯"]) == [1, 3]


def test_alternate_within_pairs() -> None:
    r = rule('kind = "alternate"\na = "* 射 矢 actor.side=上射"\nb = "* 射 矢 actor.side=下射"\nsame = ["actor.pair"]')
    assert verdict(r, ["甲 射 矢", "丙 射 矢", "乙 射 矢", "丁 射 矢", "甲 射 矢"]) == []
    assert verdict(r, ["甲 射 矢", "甲 射 矢"]) == [1]
    assert verdict(r, ["乙 射 矢"]) == [0]
    # one missing event is one violation: the alternation resumes after it
    assert verdict(r, ["甲 射 矢", "甲 射 矢", "乙 射 矢", "甲 射 矢", "乙 射 矢"]) == [1]
    assert verdict(r, ["乙 射 矢", "甲 射 矢", "乙 射 矢"]) == [0]
    # two faults, two violations
    assert verdict(r, ["甲 射 矢", "甲 射 矢", "乙 射 矢", "乙 射 矢"]) == [1, 3]


def test_pair_and_cast_rules() -> None:
    pair = rule('kind = "pair"\nwho = "role=弟子"\npartner = "role=弟子"')
    assert verdict(pair, []) == []
    cast = rule('kind = "cast_absence"\nwho = "role=众宾 side=下射"')
    assert verdict(cast, []) == [-1]


def test_check_reports_rule_findings_with_lines() -> None:
    trace = parse_lines(CAST + "phase Φ27\n甲 射 矢 arrow=1 result=不中\n释获者 释获 算 for=甲 arrow=1\n", "t.trace")
    r = NO_PIERCE
    [f] = [f for f in check_trace(trace, [r]).findings if f.rule == "t"]
    assert (f.event, f.line, f.citation.line) == (1, 9, 134)
