"""Reading a batch fast: an event read before, in any trace of the process, is not resolved again
when the cast has the persons it names (domain/parse.py `_Seen`); it reads exactly as it would
alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangshe.domain import parse
from xiangshe.domain.parse import TraceErrors, parse_jsonl, parse_lines, to_jsonl

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh() -> None:
    """Nothing remembered from earlier tests."""
    parse.forget()


def alone(reader, text: str, path: str):
    """The trace as it reads in a process that has read nothing before."""
    parse.forget()
    return reader(text, path)


def errors(reader, text: str, path: str) -> list[str]:
    with pytest.raises(TraceErrors) as err:
        reader(text, path)
    return [e.render().splitlines()[0] for e in err.value.errors]


@pytest.mark.parametrize("reader", [parse_jsonl, parse_lines])
def test_a_person_read_before_is_still_unknown_to_a_cast_without_him(reader) -> None:
    first = {
        parse_jsonl: '{"cast": "甲", "role": "弟子"}\n{"cast": "乙", "role": "弟子"}\n'
        '{"actor": "甲", "act": "献", "obj": "爵", "to": "乙"}\n',
        parse_lines: "cast 甲 弟子\ncast 乙 弟子\n甲 献 爵 to=乙\n",
    }[reader]
    assert [e.actor for e in reader(first, "a")] == ["甲"]
    no_actor = {
        parse_jsonl: '{"actor": "甲", "act": "献", "obj": "爵", "to": "乙"}\n',
        parse_lines: "甲 献 爵 to=乙\n",
    }[reader]
    assert errors(reader, no_actor, "b")[:1] == ["b:1: error: unknown person 甲"]
    no_recipient = {
        parse_jsonl: '{"cast": "甲", "role": "弟子"}\n{"actor": "甲", "act": "献", "obj": "爵", "to": "乙"}\n',
        parse_lines: "cast 甲 弟子\n甲 献 爵 to=乙\n",
    }[reader]
    assert [e.split(": ", 1)[1] for e in errors(reader, no_recipient, "c")] == ["error: unknown person 乙"]


@pytest.mark.parametrize("reader", [parse_jsonl, parse_lines])
def test_a_role_word_read_before_names_this_cast_s_holder(reader) -> None:
    # 主人 first stands for himself (a role of one person, not declared), then for the cast's 张三
    one = {parse_jsonl: '{"actor": "主人", "act": "揖"}\n', parse_lines: "主人 揖\n"}[reader]
    assert [e.actor for e in reader(one, "a")] == ["主人"]
    named = {
        parse_jsonl: '{"cast": "张三", "role": "主人"}\n{"actor": "主人", "act": "揖"}\n',
        parse_lines: "cast 张三 主人\n主人 揖\n",
    }[reader]
    t = reader(named, "b")
    assert [e.actor for e in t] == ["张三"]
    assert list(t.cast.persons) == ["张三"]


def test_a_suppression_is_read_on_every_line_that_writes_it() -> None:
    text = '{"actor": "主人", "act": "揖", "ignore": "R120: why"}\n' * 2
    for path in ("a", "b"):
        t = parse_jsonl(text, path)
        assert [(d.line, d.text) for d in t.directives] == [(1, "R120: why"), (2, "R120: why")]


def bundled() -> list[tuple[str, str]]:
    """A few bundled stagings (the canonical, variants, violations) as line format and JSON Lines."""
    paths = [ROOT / "traces" / "canonical.trace", *sorted((ROOT / "traces" / "variants").glob("*.trace"))[:3]]
    paths += sorted((ROOT / "traces" / "violations").glob("*.trace"))[:8]
    out = []
    for p in paths:
        text = p.read_text(encoding="utf-8")
        out.append((p.name, text))
        try:
            out.append((p.stem + ".jsonl", to_jsonl(alone(parse_lines, text, p.name))))
        except TraceErrors:
            pass
    return out


def read(name: str, text: str):
    reader = parse_jsonl if name.endswith(".jsonl") else parse_lines
    try:
        t = reader(text, name)
    except TraceErrors as err:
        return err.render("en")
    return t.events, t.cast, t.directives, t.phase_lines, t.fragment


def test_a_batch_reads_as_each_of_its_stagings_alone() -> None:
    stagings = bundled()
    each = []
    for s in stagings:
        parse.forget()
        each.append(read(*s))
    parse.forget()
    batch = [read(*s) for s in stagings]
    assert parse._SEEN[0].lines and parse._SEEN[0].words  # the batch did reuse what it read
    assert batch == each
    again = [read(*s) for s in reversed(stagings)]  # every line now read before
    assert again == each[::-1]


def test_what_is_remembered_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(parse, "_KNOWN_LINES", 3)
    text = (ROOT / "traces" / "canonical.trace").read_text(encoding="utf-8")
    expected = alone(parse_lines, text, "c").events
    jsonl = to_jsonl(alone(parse_lines, text, "c"))
    parse.forget()
    assert parse_jsonl(jsonl, "c.jsonl").events == alone(parse_jsonl, jsonl, "c.jsonl").events
    assert len(parse._SEEN[0].lines) == 3 and len(parse._SEEN[0].words) == 3
    assert [(e.actor, e.act, e.obj, e.attrs) for e in parse_jsonl(jsonl, "c.jsonl")] == [
        (e.actor, e.act, e.obj, e.attrs) for e in expected
    ]


def test_a_count_that_is_not_one_is_an_error_in_every_trace_and_on_every_line() -> None:
    # it was reported once, and its words remembered as an event read without error: the same line was
    # then read without one later in the trace, and in the next trace whose cast had its persons
    lines = "cast 张三 主人\nphase Φ27\n释获者 告 to=张三 chun=三\n释获者 告 to=张三 chun=x\n释获者 告 to=张三 chun=x\n"
    jsonl = (
        '{"cast": "张三", "role": "主人"}\n{"phase": "Φ27"}\n'
        + '{"actor": "释获者", "act": "告", "to": "张三", "chun": "三"}\n'
        + '{"actor": "释获者", "act": "告", "to": "张三", "chun": "x"}\n' * 2
    )
    expected = [f"t:{n}: error: chun=x: chun is a count, a whole number (3, 三, 十一 …)" for n in (4, 5)]
    for reader, text in ((parse_lines, lines), (parse_jsonl, jsonl)):
        assert errors(reader, text, "t") == expected
        assert errors(reader, text, "t") == expected
