"""The line format's fast paths agree with its long way (domain/parse.py): an event of the common shape
ACTOR ACT [OBJECT] [key=value …] is split by `_common_event` and, in the plain words of its cast and the
vocabulary, read by look-ups (`_Reader.plain`); a statement read before takes its words (`_Seen`). Every
bundled staging, and lines that are not plain (unknown words, bad keys, aliases, other scripts, odd
spacing and comments), read alike with these paths and without them: the same events, cast, directives
and errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sampling import sample_or_slow

from xiangshe.domain import parse
from xiangshe.domain.bundled import TRACES
from xiangshe.domain.parse import TraceErrors, parse_jsonl, parse_lines, to_jsonl
from xiangshe.domain.vocabulary import vocabulary

STAGINGS = sorted(TRACES.rglob("*.trace"))


def in_sample(path: Path) -> bool:
    """The default run's stagings (the others are `slow`): the canonical, the keeps and the audit's, and
    every fourth variant and eighth violating example."""
    kind = path.parent.name
    if kind in ("variants", "violations"):
        return sorted(path.parent.glob("*.trace")).index(path) % (4 if kind == "variants" else 8) == 0
    return True


CAST = "cast 甲 弟子\ncast 乙 弟子\ncast 张三 主人\npair 上耦 上射=甲 下射=乙\n"

#: lines that are not all plain: each is read after CAST and a phase, alone and among the others
ODD = [
    "甲 拾取矢 矢 arrow=1    # L122 却手自弓下取一个",  # plain
    "甲 射 矢 arrow=1 result=中正 # L1234567890",  # a source line too long to be one
    "甲 射 矢 arrow=2 #L12x",  # \\b fails: no source line
    "甲\u3000射\u3000矢 arrow=3",  # full-width spaces
    "\t甲 射 矢\tarrow=4 result=不中  ",  # tabs, leading and trailing space
    "张三 献 爵 to=甲 at=阼阶上",
    "主人 献 爵 to=甲",  # a role word for its holder (张三)
    "主人 獻 爵 to=甲",  # a traditional act
    "张三 獻 觶2 to=甲",  # a traditional object
    "张三 献 jue2 to=甲",  # an alias of an object
    "张三 献 jue-cup-2 to=甲",
    "张三 xian 爵 to=甲",  # an alias of an act
    "张三 献 爵 to=甲 at=ZUO-JIE-SHANG",  # an alias of a place, in capitals
    "张三 献 爵1 to=甲 to=乙",  # a key twice
    "张三 献 爵10000 to=甲",  # out of range
    "张三 献 爵0 to=甲",
    "张三 献 爵01 to=甲",  # a number with a leading zero
    "张三 献 爵 to=甲 colour=红",  # an unknown key
    "张三 献 爵 to=甲 at=天上",  # an unknown place
    "张三 献 盃 to=甲",  # an unknown object
    "张三 飞 to=甲",  # an unknown act
    "丙 揖",  # an unknown person
    "众宾7 揖",  # a role and a number: added to the cast
    "衆賓8 揖",  # the same in another script
    "众宾 揖",  # a role with several persons
    "甲 射 矢2 arrow=1",  # a personal object with a number
    "甲 射 矢 to=乙",  # a personal object: the recipient's
    "释获者 告 to=张三 words=右贤于左 chun=三 qi=1",  # counts
    "释获者 告 to=张三 words=右贤于左 chun=x",
    "甲 揖 =",  # an empty key=value
    "甲 揖 a=b=c",
    "甲 揖 to==乙",
    "甲 to=乙 揖",  # key=value before the act
    "甲 揖 to=乙 乙",  # a word after key=value
    "甲",  # no act
    "甲 拾取矢 矢 弓 爵 arrow=1",  # too many words
    "cast 丁 弟子 # a declaration between events",
    "phase Φ21",
    "甲 揖 # xiangshe: ignore[R120] because",
    "# xiangshe: ignore[R120] the next statement",
    "甲 揖",
    "甲 揖",  # a statement read before in this trace
    "fragment Φ21",  # after the first event: an error
]


def read(reader, text: str, name: str):
    """What a reader makes of a text: its events, cast (in order), directives, phases and fragment, or its
    errors as rendered."""
    try:
        t = reader(text, name)
    except TraceErrors as err:
        return err.render("en")
    return t.events, list(t.cast.persons.items()), t.cast.pairs, t.directives, t.phase_lines, t.fragment


def long_way(monkeypatch: pytest.MonkeyPatch, reader, text: str, name: str):
    """As `read`, with no event read by look-ups and nothing remembered between statements."""
    with monkeypatch.context() as m:
        m.setattr(parse._Reader, "plain", lambda *_: None)
        m.setattr(parse, "_KNOWN_LINES", 0)
        parse.forget()
        return read(reader, text, name)


def fast(reader, text: str, name: str):
    parse.forget()
    first = read(reader, text, name)
    again = read(reader, text, name)  # every statement now read before
    assert again == first
    return first


def test_the_long_way_is_taken_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The switch the tests below use does turn the fast paths off (else they would compare a path with
    itself)."""
    calls: list[tuple] = []
    resolve = parse._Reader._resolve
    monkeypatch.setattr(parse._Reader, "_resolve", lambda self, *a: calls.append(a) or resolve(self, *a))
    text = CAST + "甲 揖\n甲 揖 to=乙\n甲 揖\n"
    assert len(long_way(monkeypatch, parse_lines, text, "t")[0]) == 3
    assert len(calls) == 2  # (the third as the first: the trace's own record of what it resolved)
    calls.clear()
    assert len(fast(parse_lines, text, "t")[0]) == 3
    assert calls == []  # the fast paths read them all


def test_the_common_shape_is_split_as_the_long_way_splits_it() -> None:
    """`_common_event` gives the words `_split_kv` gives an event of the shape ACTOR ACT [OBJECT]
    [key=value …], and None for every other statement (which the long way reads, or rejects)."""
    pairs = parse._Pairs()
    lines = [ln for p in STAGINGS for ln in p.read_text(encoding="utf-8").splitlines()] + ODD
    assert len(lines) > 100_000
    shaped = 0
    for line in lines:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        rest, kv = parse._split_kv(words)
        common = words[0] not in parse._HEADS and 2 <= len(rest) <= 3 and rest == words[: len(rest)]
        expected = (rest[0], rest[1], rest[2] if len(rest) == 3 else None, tuple(kv)) if common else None
        assert parse._common_event(words, pairs.__getitem__) == expected, line
        shaped += common
    assert shaped > 100_000


@pytest.mark.parametrize("path", sample_or_slow(STAGINGS, in_sample, lambda p: str(p.relative_to(TRACES))))
def test_a_bundled_staging_reads_alike_either_way(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert fast(parse_lines, text, path.name) == long_way(monkeypatch, parse_lines, text, path.name)


def test_the_canonical_as_json_lines_reads_alike_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    text = to_jsonl(parse_lines((TRACES / "canonical.trace").read_text(encoding="utf-8"), "c"))
    assert fast(parse_jsonl, text, "c.jsonl") == long_way(monkeypatch, parse_jsonl, text, "c.jsonl")


@pytest.mark.parametrize("line", ODD)
def test_an_odd_line_reads_alike_either_way(monkeypatch: pytest.MonkeyPatch, line: str) -> None:
    text = CAST + "phase Φ27\n" + line + "\n"
    got = fast(parse_lines, text, "odd.trace")
    assert got == long_way(monkeypatch, parse_lines, text, "odd.trace")
    crlf = text.replace("\n", "\r\n")  # lines that end in \r\n
    assert fast(parse_lines, crlf, "odd.trace") == long_way(monkeypatch, parse_lines, crlf, "odd.trace")


def test_odd_lines_together_read_alike_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    head = CAST + "phase Φ27\n"
    text = head + "\n".join(ODD * 2) + "\n"
    got = fast(parse_lines, text, "odd.trace")
    assert isinstance(got, str)  # errors, past the cap too
    assert got == long_way(monkeypatch, parse_lines, text, "odd.trace")
    good = [ln for ln in ODD if not ln.startswith("fragment") and isinstance(fast(parse_lines, head + ln, "g"), tuple)]
    assert len(good) > 15
    text = head + "\n".join(good * 2) + "\n"
    got = fast(parse_lines, text, "good.trace")
    assert isinstance(got, tuple)
    assert got == long_way(monkeypatch, parse_lines, text, "good.trace")


def test_plain_pairs_are_the_words_resolve_gives_back() -> None:
    vocab = vocabulary()
    assert vocab.plain_pairs
    for key, value in vocab.plain_pairs:
        assert key not in parse.PERSON_KEYS
        section = "places" if key in parse.PLACE_KEYS else f"attr:{key}"
        assert vocab.resolve(section, value) == value


@pytest.mark.parametrize(
    "data",
    [
        b"",
        "主人 揖\n".encode(),
        b"\xef\xbb\xbf" + "主人 揖\n".encode(),
        b"\xef\xbb\xbf\xef\xbb\xbf" + "主人 揖\n".encode(),  # a second mark is text
        b"\xef\xbb",
        b"\xef\xbb\xbf\n\xff\n",
        b"\xef\xbb\xbf\xff\n",
        b"a\n\xef\xbb\xbf\xff",
        "主人 揖\n".encode() + "主人 拜".encode("gb18030"),
        b"\xef\xbb\xbf" + "主人 揖\n".encode() + "主人 拜".encode("gb18030"),
        b"\n\n\xef\xbb\xbf\n\x80",
    ],
)
def test_a_trace_decodes_as_utf_8_sig_decodes_it(data: bytes) -> None:
    """`decode` drops one byte-order mark and reads UTF-8, and places an error on the line that decoding
    with utf-8-sig places it (its offset counted after the mark)."""
    try:
        expected: str | int = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        expected = data[: err.start].count(b"\n") + 1
    for given in (data, bytearray(data)):
        try:
            got: str | int = parse.decode(given, "t")
        except TraceErrors as err:
            assert err.errors[0].message.name == "input.not-utf8"
            got = err.errors[0].line
        assert got == expected


def test_an_event_s_source_line_is_the_number_its_comment_begins_with() -> None:
    """`# L14 …` (spaces before the L allowed, the number 1–9 ASCII digits and a whole word): the line of
    the text the event enacts, read once per comment (`_Sources`); as the comment reads alone."""
    rule = re.compile(r"^\s*L([0-9]{1,9})\b")
    odd = [
        "甲 揖 # L14x",
        "甲 揖 #L14",
        "甲 揖 #\u3000L14 正",
        "甲 揖 # L0123456789",
        "甲 揖 # L012345678 ",
        "甲 揖 # l14",
    ]
    texts = [p.read_text(encoding="utf-8") for p in STAGINGS[::7]] + [CAST + "\n".join(odd * 2) + "\n"]
    parse.forget()
    seen = 0
    for text in texts:
        for e in parse_lines(text, "t"):
            m = rule.match(e.text.split("#", 1)[1]) if "#" in e.text else None
            assert e.source_line == (int(m.group(1)) if m else None), e.text
            seen += e.source_line is not None
    assert seen > 5_000
