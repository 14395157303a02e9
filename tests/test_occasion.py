"""The occasion header: its forms, its defaults, its errors, and the rules that read it."""

from __future__ import annotations

import pytest

from xiangshe.constraints.check import check_trace
from xiangshe.domain.parse import TraceErrors, parse_jsonl, parse_lines, parse_yaml, to_jsonl, to_lines

EVENT = "fragment Φ01\n{}phase Φ01\n主人 戒 to=宾\n"


def trace(header: str):
    return parse_lines(EVENT.format(header + "\n" if header else ""), "t.trace")


def test_nothing_declared_is_the_zhou_zhang_in_his_xu() -> None:
    o = trace("").occasion
    assert (o.presiding, o.venue, o.site, o.hou, o.zhong, o.jing, o.jun, o.rank) == (
        "州长",
        "序",
        None,
        "采侯",
        "鹿中",
        "翿旌",
        "不在",
        "士",
    )
    assert o.line is None and o.declared == ()


def test_a_presiding_officer_brings_the_ji_defaults_of_his_rank() -> None:
    o = trace("occasion presiding=乡大夫").occasion
    assert (o.venue, o.zhong, o.jing, o.hou, o.rank) == ("庠", "兕中", "物", "采侯", "大夫")
    o = trace("occasion presiding=君 site=郊").occasion
    assert (o.zhong, o.jing, o.hou, o.jun) == ("闾中", "旌", "皮侯", "在")
    o = trace("occasion 君").occasion
    assert (o.site, o.zhong, o.jing, o.hou) == ("国中", "皮树中", "翿旌", "麋侯")


@pytest.mark.parametrize(
    "header",
    [
        "occasion presiding=乡大夫 venue=榭 zhong=鹿中",
        "occasion 乡大夫 豫 鹿中",
        "occasion 鄉大夫 xu lu-zhong",
        "occasion presiding=county-officer venue=序 zhong=鹿中",
    ],
)
def test_spellings(header: str) -> None:
    o = trace(header).occasion
    assert (o.presiding, o.venue, o.zhong) == ("乡大夫", "序", "鹿中")
    assert o.declared == ("presiding", "venue", "zhong") and o.line == 2


def test_the_record_forms_and_the_round_trip() -> None:
    t = trace("occasion presiding=乡大夫 zhong=兕中")
    back = parse_jsonl(to_jsonl(t))
    assert back.occasion.declared == t.occasion.declared and back.occasion.zhong == "兕中"
    assert "occasion presiding=乡大夫 zhong=兕中" in to_lines(t)
    flat = parse_jsonl(
        '{"occasion": "", "presiding": "君", "site": "竟"}\n{"actor": "主人", "act": "戒", "to": "宾"}\n'
    )
    assert (flat.occasion.zhong, flat.occasion.jing) == ("虎中", "龙旃")
    y = parse_yaml("- occasion: presiding=乡大夫\n- {actor: 主人, act: 戒, to: 宾}\n")
    assert y.occasion.zhong == "兕中"


@pytest.mark.parametrize(
    "header, expected",
    [
        ("occasion presidng=州长", "did you mean presiding"),
        ("occasion zhong=鹿钟", "did you mean 鹿中"),
        ("occasion 鹿钟", "is not a value of any field"),
        ("occasion 州长\noccasion 序", "a second occasion declaration"),
        ("occasion presiding=君 jun=不在", "the 君 presides"),
    ],
)
def test_bad_declarations_are_input_errors(header: str, expected: str) -> None:
    with pytest.raises(TraceErrors) as err:
        trace(header)
    assert expected in err.value.render()


def test_an_occasion_after_the_first_event_is_an_error() -> None:
    with pytest.raises(TraceErrors) as err:
        parse_lines("phase Φ01\n主人 戒 to=宾\noccasion 序\n")
    assert "before the first event" in err.value.render()


def test_the_rules_read_the_occasion() -> None:
    def rules(header: str, body: str = "") -> set[str]:
        text = "fragment Φ20\n" + header + "\nphase Φ20\n" + (body or "司射 由楹内") + "\n"
        return {f.rule for f in check_trace(parse_lines(text, "t.trace")).findings}

    assert rules("") == set()
    assert rules("", "司射 由楹外") == {"yu-ze-gou-ying-nei"}
    assert rules("occasion venue=庠", "司射 由楹外") == set()
    assert rules("occasion venue=庠") == {"tang-ze-you-ying-wai"}
    assert rules("occasion presiding=乡大夫 zhong=鹿中", "司射 由楹外") == {"da-fu-si-zhong"}
    assert rules("occasion presiding=乡大夫", "司射 由楹外") == set()


def test_scope_json_echoes_the_occasion() -> None:
    from xiangshe.reports.render import scope_json

    r = check_trace(trace("occasion presiding=乡大夫"))
    o = scope_json(r)["occasion"]
    assert o["presiding"] == "乡大夫" and o["zhong"] == "兕中" and o["declared"] == ["presiding"]
    assert o["line"] == 2
