"""Reading traces: the line format, JSON Lines, and located errors for bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from xiangshe.domain.parse import TraceErrors, parse_file, parse_jsonl, parse_lines, to_jsonl, to_lines
from xiangshe.domain.trace import Trace

GOOD = """\
cast 甲 弟子
cast 乙 弟子
pair 上耦 上射=甲 下射=乙
phase Φ21
甲 射 矢 arrow=1 result=中正   # a shot
司马 命去侯
众宾2 取 爵2 at=上篚
主人 献 爵 to=宾
"""


def errors(text: str) -> list[str]:
    with pytest.raises(TraceErrors) as err:
        parse_lines(text, "t.trace")
    return [e.render() for e in err.value.errors]


def test_events_know_their_line_phase_round_and_objects() -> None:
    t = parse_lines(GOOD, "t.trace")
    assert [e.line for e in t] == [5, 6, 7, 8]
    shot = t[0]
    assert (shot.actor, shot.act, shot.obj.key, shot.get("result")) == ("甲", "射", "矢@甲", "中正")
    assert (shot.phase, shot.round) == ("Φ21", 1)
    assert t[1].actor == "司正"  # 司马 is the 司正's other office
    assert t[2].obj.key == "爵2" and t[3].obj.key == "爵1"
    assert t.cast.persons["甲"].side == "上射" and t.cast.persons["乙"].pair == "上耦"
    assert t.cast.persons["众宾2"].role == "众宾" and t.cast.persons["众宾2"].rank == "士"


def test_line_format_and_json_lines_read_the_same_trace() -> None:
    a = parse_lines(GOOD, "t.trace")
    b = parse_jsonl(to_jsonl(a), "t.jsonl")
    c = parse_lines(to_lines(a), "t2.trace")
    for other in (b, c):
        assert [(e.actor, e.act, e.obj, e.attrs, e.phase) for e in other] == [
            (e.actor, e.act, e.obj, e.attrs, e.phase) for e in a
        ]
        assert other.cast.persons == {k: v for k, v in other.cast.persons.items()}
        assert {p.name: (p.pair, p.side) for p in other.cast.persons.values()} == {
            p.name: (p.pair, p.side) for p in a.cast.persons.values()
        }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("释获着 释获 算", "t.trace:1: error: unknown person 释获着"),
        ("主人 献爵 爵", "unknown act 献爵"),
        ("主人 献 盘", "unknown object 盘"),
        ("主人 献 爵 too=宾", "unknown key too="),
        ("主人 献 爵 to=宾客", "unknown person 宾客"),
        ("甲 射 矢 result=中", "result=中: result is one of"),
        ("主人 取 爵 at=上匪", "unknown place 上匪"),
        ("主人 取 爵10000", "爵10000: 爵 has instances 1–9999"),
        ("主人 取 爵0", "爵0: 爵 has instances"),
        ("主人 取 洗2", "洗2: 洗 has instances 1–1"),
        ("phase Φ99", "unknown phase Φ99"),
        ("主人", "an event needs at least an actor and an act"),
        ("主人 献 爵 宾", "too many words"),
        ("众宾 取 爵", "众宾 is a role with several persons"),
        ("cast 甲 宾客", "unknown role 宾客"),
        ("pair 耦 上射=主人", "pair 耦 needs 上射=… and 下射=…"),
        ("主人 献 爵 to=宾 to=宾", "to= is given twice"),
    ],
)
def test_bad_lines_are_located_errors(text: str, expected: str) -> None:
    found = errors(text)
    assert any(expected in e for e in found), found
    assert all(e.startswith("t.trace:") for e in found)


def test_unknown_words_get_did_you_mean() -> None:
    [msg] = errors("释获着 释获 算")
    assert "did you mean" in msg and "释获者" in msg
    assert "   1 | 释获着 释获 算" in msg


def test_errors_are_all_reported_not_just_the_first() -> None:
    assert len(errors("甲甲 射 矢\n主人 献爵 爵\n")) == 2


def test_empty_trace_is_an_error() -> None:
    assert "no events" in errors("# nothing but a comment\n")[0]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x00\x01\x02binary", "binary file"),
        (b"\xff\xfe\xfa not utf8", "not UTF-8"),
        (b"", "no events"),
    ],
)
def test_unreadable_files_are_errors(tmp_path: Path, data: bytes, expected: str) -> None:
    p = tmp_path / "x.trace"
    p.write_bytes(data)
    with pytest.raises(TraceErrors) as err:
        parse_file(p, "x.trace")
    assert expected in err.value.render()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"actor": "主人", "act": "献"', "not valid JSON"),
        ('["主人", "献"]', "must be a JSON object"),
        ('{"actor": "主人", "act": 3}', "values must be strings"),
        ('{"act": "献"}', 'needs "actor" and "act"'),
    ],
)
def test_bad_json_lines(line: str, expected: str) -> None:
    with pytest.raises(TraceErrors) as err:
        parse_jsonl(line + "\n", "t.jsonl")
    assert expected in err.value.render() and err.value.render().startswith("t.jsonl:1:")


def test_json_lines_records_round_trip() -> None:
    text = to_jsonl(parse_lines(GOOD, "t.trace"))
    records = [json.loads(x) for x in text.splitlines()]
    assert {"phase": "Φ21"} in records
    assert {"actor": "甲", "act": "射", "obj": "矢", "arrow": "1", "result": "中正"} in records


YAML = """\
- {cast: 甲, role: 弟子}
- {cast: 乙, role: 弟子}
- {pair: 上耦, 上射: 甲, 下射: 乙}
- phase: Φ21
- actor: 甲
  act: 射
  obj: 矢
  arrow: 1
  result: 中正
"""


def test_yaml_reads_the_same_records_with_lines() -> None:
    from xiangshe.domain.parse import parse_yaml

    [e] = parse_yaml(YAML, "t.yaml").events
    assert (e.line, e.render(), e.phase) == (5, "甲 射 矢 arrow=1 result=中正", "Φ21")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- !!python/object/apply:os.system ['echo pwned']\n", "is not allowed"),
        ("- !!python/object:os.system {}\n", "is not allowed"),
        ("- {actor: 甲, actor: 乙, act: 射}\n", "duplicate key actor"),
        ("- [a\n", "not valid YAML"),
        ("a: b\n", "a YAML trace is a list of records"),
        ("- {actor: 主人, act: 揖, n: !!binary aGk=}\n", "is not allowed"),
        ("- " * 5000 + "x\n", "YAML"),
    ],
)
def test_bad_yaml_is_a_located_error_and_never_runs_code(text: str, expected: str) -> None:
    from xiangshe.domain.parse import parse_yaml

    with pytest.raises(TraceErrors) as err:
        parse_yaml(text, "t.yaml")
    assert expected in err.value.render()


_REPEATS = {  # JSON Lines whose lines repeat: parse_jsonl reads a repeated event line once
    "rounds": None,  # the canonical's events twice (set below)
    "errors": '{"actor": "主人", "act": "飞"}\n' * 30,
    "a count": '{"actor": "主人", "act": "拜", "to": "宾", "n": "x"}\n' * 3,
    "ignore": '{"actor": "主人", "act": "拜", "to": "宾", "ignore": "R120: why"}\n' * 3,
    "a person added": '{"actor": "众宾2", "act": "拜", "to": "主人"}\n' * 2
    + '{"actor": "众宾2", "act": "拜", "to": "主人", "n": "q"}\n' * 2,
    "a second of a role": '{"cast": "甲", "role": "弟子"}\n{"actor": "弟子", "act": "揖"}\n'
    '{"cast": "乙", "role": "弟子"}\n{"actor": "弟子", "act": "揖"}\n',
    "spaces": '{"actor": "主人", "act": "揖"}\n {"actor": "主人", "act": "揖"} \n{"actor": "主人", "act": "揖"}x\n' * 2,
    "crlf": '{"actor": "主人", "act": "揖"}\r\n{"actor": "主人", "act": "揖"}\r{"actor": "主人", "act": "揖"}\r\n',
}


@pytest.mark.parametrize("name", list(_REPEATS))
def test_a_repeated_jsonl_line_reads_as_if_read_anew(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same trace (events, lines, directives, cast) or the same errors, whether parse_jsonl
    remembers the event lines it has read or reads every line anew; and in pieces as at once."""
    import xiangshe.domain.parse as parse

    text = _REPEATS[name]
    if text is None:
        canonical = Path(__file__).resolve().parents[1] / "traces" / "canonical.trace"
        lines = to_jsonl(parse_file(canonical)).splitlines(keepends=True)
        events = [ln for ln in lines if ln.startswith(('{"actor"', '{"phase"'))]
        text = "".join(lines) + "".join(events)

    def read() -> object:
        try:
            t = parse_jsonl(text, "t.jsonl")
        except TraceErrors as err:
            return err.render(), err.more
        return t.events, t.source_lines, t.directives, t.cast.persons, t.phase_lines

    remembered = read()
    monkeypatch.setattr(parse, "_KNOWN_LINES", 0)
    anew = read()
    assert remembered == anew
    chunks = parse._line_chunks
    monkeypatch.setattr(parse, "_line_chunks", lambda text: chunks(text, 7))
    assert read() == anew


def test_an_event_is_frozen_compared_and_hashed_by_its_fields() -> None:
    import gc
    import pickle

    from xiangshe.domain.trace import Event, ObjectRef

    fields = (3, 7, "甲", "射", ObjectRef("矢", "1"), (("arrow", "1"),), "Φ21", 1, "甲 射 矢 arrow=1", "矢", 12)
    names = ("index", "line", "actor", "act", "obj", "attrs", "phase", "round", "text", "obj_token", "source_line")
    e = Event(*fields)
    assert tuple(getattr(e, n) for n in names) == fields
    same, other = Event(**dict(zip(names, fields, strict=True))), Event(*fields[:2], "乙", *fields[3:])
    assert e == same and hash(e) == hash(same) and repr(e) == repr(same) and e != other
    assert pickle.loads(pickle.dumps(e)) == e  # as check --jobs sends it between processes
    assert not gc.is_tracked(e)  # the collector never walks the events (domain/trace.py)
    with pytest.raises(AttributeError):
        e.actor = "乙"  # type: ignore[misc]


@pytest.mark.parametrize("fmt", ["trace", "jsonl"])
def test_a_staging_read_leaves_nothing_of_its_events_for_the_collector_to_walk(fmt: str) -> None:
    """A trace holds its events and its lines in tuples of objects the collector does not track: once a
    collection has passed, neither is tracked, and no later full collection walks them (a batch held in
    memory made every full collection walk a million events)."""
    import gc

    canonical = Path(__file__).resolve().parents[1] / "traces" / "canonical.trace"
    trace = parse_file(canonical)
    if fmt == "jsonl":
        trace = parse_jsonl(to_jsonl(trace), "canonical.jsonl")
    gc.collect()
    assert len(trace.events) > 4000
    assert not gc.is_tracked(trace.events) and not gc.is_tracked(trace.source_lines)
    assert not any(gc.is_tracked(e) for e in trace.events)
    again = Trace(trace.path, list(trace.events), trace.cast, source_lines=list(trace.source_lines))  # type: ignore[arg-type]
    assert again.events == trace.events and again.source_lines == trace.source_lines  # lists are taken as tuples


_EVENT = '{"actor": "主人", "act": "揖", "to": "宾"}\n'
_BYTES = {
    "plain": (_EVENT * 3).encode(),
    "mark": b"\xef\xbb\xbf" + (_EVENT * 2).encode(),
    "crlf": _EVENT.replace("\n", "\r\n").encode() + _EVENT.replace("\n", "\r").encode() + _EVENT.encode(),
    "not-utf8-after-known": (_EVENT * 2).encode() + '{"actor": "主人", "act": "拜"}\n'.encode("gb18030"),
    "not-utf8-after-an-error": (_EVENT + '{"actor": "主人"}\n').encode() + b'{"actor": "\xff"}\n' + _EVENT.encode(),
    "mark-mid-file": _EVENT.encode() + b"\xef\xbb\xbf" + _EVENT.encode(),
    "surrogate-bytes": _EVENT.encode() + b'{"actor": "\xed\xa0\x80", "act": "\xe6\x8f\x96"}\n',
}


@pytest.mark.parametrize("name", list(_BYTES))
def test_json_lines_read_from_bytes_as_from_the_decoded_text(name: str) -> None:
    """A file of JSON Lines is read line by line from its bytes (a line read before is never decoded
    again): the same trace as its text decoded whole, or the same errors — a file that is not UTF-8 only
    `decode`'s error, however many lines before it were read, remembered or wrong."""
    from xiangshe.domain.parse import decode, parse_jsonl_data

    data = _BYTES[name]

    def outcome(read: Callable[[], Trace]) -> object:
        try:
            t = read()
        except TraceErrors as err:
            return err.render()
        return [(e.line, e.render(), e.text) for e in t.events], t.source_lines, t.phase_lines, t.directives

    def from_text() -> Trace:
        return parse_jsonl(decode(data, "t.jsonl"), "t.jsonl")

    for _ in range(2):  # the second time, every line read without error is remembered
        assert outcome(lambda: parse_jsonl_data(data, "t.jsonl")) == outcome(from_text)
        assert outcome(lambda: parse_jsonl_data(bytearray(data), "t.jsonl")) == outcome(from_text)


def test_a_lone_surrogate_in_text_is_never_remembered_for_a_file() -> None:
    """Text given to parse_jsonl may hold a lone surrogate (its bytes are not UTF-8): the line is read,
    but not remembered, so a file holding those bytes is still refused as not UTF-8."""
    from xiangshe.domain.parse import parse_jsonl_data

    line = '{"actor": "主人", "act": "揖", "to": "宾", "src": "x\ud800"}\n'
    assert len(parse_jsonl(line * 2, "t.jsonl")) == 2  # read, and read again
    cast = '{"cast": "主人", "role": "主人"}\n{"cast": "宾", "role": "宾"}\n'  # the persons a remembered line needs
    with pytest.raises(TraceErrors) as err:
        parse_jsonl_data((cast + line).encode("utf-8", "surrogatepass"), "t.jsonl")
    assert err.value.errors[0].message.name == "input.not-utf8"
