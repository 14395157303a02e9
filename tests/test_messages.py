"""Messages by id (domain/messages.py): every sentence the program writes has a code, an English and a
Chinese template with the same parameters; `--lang zh` renders it by its id, never by a pattern over
the English; SARIF carries the id and arguments; docs/messages.md is the catalogue as generated."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from xiangshe.domain.messages import BY_CODE, CATALOGUE, DOC, Join, Message, document, parameters

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e.code)
def test_every_message_has_both_languages_with_the_same_parameters(entry) -> None:
    assert re.fullmatch(r"XS\d{3}", entry.code) and re.fullmatch(r"[a-z0-9]+(?:[.-][a-z0-9]+)*", entry.name)
    assert entry.en and entry.zh and entry.en != entry.zh or entry.name == "arrow.scores"
    assert sorted(parameters(entry.en)) == sorted(parameters(entry.zh)), entry.name
    # what stays in Latin letters under zh: parameters, reading and attribute names, and the command
    # line's own words (options, commands, FILE, the input formats), which the user types as written
    literal = (
        r"\{[a-z_]+\}|xian-huo|side=|chun=|xiangsheli\.txt|z3|fragment|--[\w-]+|\bFILE\b|xiangshe|\bcheck\b|"
        r"\breport\b|trace\|jsonl\|json\|yaml|/dev/null|UTF-8|\bSIZE\b"
    )
    assert not re.search(r"[A-Za-z]{3,}", re.sub(literal, "", entry.zh))


def test_codes_and_names_are_unique() -> None:
    assert len({e.code for e in CATALOGUE}) == len({e.name for e in CATALOGUE}) == len(CATALOGUE)


def test_every_message_is_written_somewhere() -> None:
    files = [
        ROOT / "verify.py",
        *(p for d in ("domain", "constraints", "fsm", "reports") for p in (ROOT / d).rglob("*.py")),
    ]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files if p != ROOT / "domain" / "messages.py")
    unused = [e.name for e in CATALOGUE if f'"{e.name}"' not in source]
    assert not unused, f"in the catalogue but never written: {unused}"


def test_the_committed_doc_is_the_generated_one() -> None:
    assert (ROOT / DOC).read_text(encoding="utf-8") == document(), (
        f"{DOC} is stale: run python -m xiangshe.domain.messages --write"
    )


def test_no_regex_translation_remains() -> None:
    assert not (ROOT / "reports" / "zh.py").exists()
    import xiangshe.reports.messages as msg

    assert not hasattr(msg, "sentence") and not hasattr(msg, "finding_message") and not hasattr(msg, "_INPUT_ERRORS")


def test_a_message_is_its_english_and_renders_by_id() -> None:
    same = Message("same", keys="who")
    m = Message("precedence.no-earlier", first="宾 拜", same=same)
    assert m == "no earlier 「宾 拜」 with the same who" and str(m) == m and type(str(m)) is str
    assert m.render("zh") == "此前没有「宾 拜」（who 相同）"  # the nested message in the same language
    assert m.code == m.id == "XS102" and m.arguments() == ["宾 拜", " with the same who"]
    back = pickle.loads(pickle.dumps(m))
    assert type(back) is Message and back.render("zh") == m.render("zh")
    j = Join(["a", Message("layout.nothing")], " or ", "或")
    assert (j, j.render("zh")) == ("a or nothing", "a或无")


def test_sarif_message_strings_with_the_arguments_give_the_text() -> None:
    from xiangshe.reports.sarif import message_string

    m = Message("absence-between.before", forbid="宾 拜", after="主人 揖", then="宾 升", line=12, same="")
    template = message_string(m.code)["text"]
    assert re.sub(r"\{(\d+)\}", lambda g: m.arguments()[int(g[1])], template) == m
    assert set(BY_CODE) >= {m.code}


def test_a_finding_under_zh_is_rendered_from_the_catalogue() -> None:
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.domain.parse import parse_file
    from xiangshe.reports import messages as msg
    from xiangshe.reports.render import finding_text

    trace = parse_file(ROOT / "traces" / "violations" / "bai-ci-bai-ru.trace")
    [f, *_] = check_trace(trace, rulebook()).findings
    assert isinstance(f.message, Message)
    msg.set_language("zh")
    try:
        shown = finding_text(f, "x.trace")
    finally:
        msg.set_language(None)
    assert f.message.render("zh") in shown and str(f.message) not in shown


def test_an_input_error_under_zh_is_rendered_from_the_catalogue(tmp_path: Path) -> None:
    from xiangshe.domain.parse import TraceErrors, parse_file
    from xiangshe.reports import messages as msg

    bad = tmp_path / "bad.trace"
    bad.write_text("phase Φ01\n宾 拜拜\n", encoding="utf-8")
    with pytest.raises(TraceErrors) as err:
        parse_file(bad)
    text = err.value.render()
    assert ": error: " in text
    msg.set_language("zh")
    try:
        shown = msg.input_errors(text)
    finally:
        msg.set_language(None)
    assert ": 错误: 未知的动作 拜拜" in shown and ": error: " not in shown and "did you mean" not in shown
