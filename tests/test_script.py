"""Any script the users write in: traditional characters, variant forms, pinyin slugs and English
aliases resolve to the same vocabulary, and check exactly like the vocabulary's own characters."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import opencc
import pytest

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.readings import select
from xiangshe.constraints.rulebook import active_rules, rulebook
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.parse import TraceErrors, parse_lines
from xiangshe.domain.script import apply_variants, fold, variants
from xiangshe.domain.vocabulary import VOCABULARY_PATH, load_vocabulary, vocabulary
from xiangshe.reports.render import check_json

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
VIOLATIONS = sorted((ROOT / "traces" / "violations").glob("*.trace"))
S2T = opencc.OpenCC("s2t")
T2S = opencc.OpenCC("t2s")
_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def readings_of(path: Path) -> dict[str, str]:
    """The readings a violating example is written against (its rule's `when`)."""
    rule = next((r for r in rulebook() if r.id == path.stem.split(".")[0]), None)
    return select([f"{p}={o}" for p, o in (rule.when if rule else ())])


def checked(text: str, readings: dict[str, str]) -> dict:
    """The JSON of `check` for a trace text, without its path."""
    result = check_trace(parse_lines(text, "x.trace"), active_rules(readings), readings)
    doc = json.loads(check_json([result], readings))
    for t in doc["traces"]:
        del t["path"]
    return doc


# -- the headline: the canonical ceremony in traditional characters -------------------------------


def test_canonical_in_traditional_characters_checks_exactly_like_the_original() -> None:
    text = CANONICAL.read_text(encoding="utf-8")
    traditional = S2T.convert(text)
    assert traditional != text and "賓" in traditional and "釋獲" in traditional
    original, converted = checked(text, {}), checked(traditional, {})
    assert original["traces"][0]["ok"] and original["traces"][0]["events"] > 3000
    assert converted == original  # same events, no violations, same scoring audit


@pytest.mark.parametrize("path", VIOLATIONS[::12], ids=lambda p: p.stem)
def test_violating_examples_in_traditional_characters_report_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    readings = readings_of(path)
    original, converted = checked(text, readings), checked(S2T.convert(text), readings)
    assert original["traces"][0]["violations"], path  # the example does break its rule
    # a pair's name is the user's own identifier, echoed as written (賓耦): fold it for the comparison
    for v in converted["traces"][0]["violations"]:
        if v["message"].startswith("pair "):
            name, _, rest = v["message"][5:].partition(":")
            v["message"] = f"pair {T2S.convert(name)}:{rest}"
    assert converted == original  # same rule, same event and line, same message


def test_the_trace_keeps_the_vocabulary_form_and_quotes_the_line_as_written() -> None:
    trace = parse_lines("cast 衆賓2 衆賓\n主人 獻 爵 to=賓 at=西階上\n衆賓2 受 觶2\n", "t.trace")
    first, second = trace.events
    assert (first.actor, first.act, dict(first.attrs)) == ("主人", "献", {"to": "宾", "at": "西阶上"})
    assert (second.actor, second.act, second.obj_token, str(second.obj)) == ("众宾2", "受", "觯2", "觯2")
    assert first.text == "主人 獻 爵 to=賓 at=西階上"


# -- pinyin slugs and English aliases -------------------------------------------------------------


def _alias_of(section: str, word: str, english: bool) -> str:
    term = getattr(vocabulary(), section)[word]
    return term.en if english and term.en else term.slug


@cache
def _vocabulary_toml() -> dict:
    import tomllib

    return tomllib.loads(VOCABULARY_PATH.read_text(encoding="utf-8"))


def _value_alias(section: str, value: str, english: bool) -> str:
    data = _vocabulary_toml()
    table = data["ranks"] if section == "ranks" else data["attributes"][section[5:]]
    values = table["order"] if section == "ranks" else table["values"]
    aliases = table.get("en" if english else "slugs")
    return aliases[values.index(value)] if aliases else value


def _person(word: str, english: bool) -> str:
    v = vocabulary()
    if word in v.roles:
        return _alias_of("roles", word, english)
    m = _NUMBERED.match(word)
    if m and m.group(1) in v.roles:
        return _alias_of("roles", m.group(1), english) + m.group(2)
    return word


def in_aliases(text: str, english: bool) -> str:
    """A trace rewritten with slugs (or English aliases): every word of the vocabulary replaced."""
    v = vocabulary()
    out = []
    for raw in text.splitlines():
        body, hash_, comment = raw.partition("#")
        words = body.split()
        if not words or words[0] in ("phase", "fragment", "occasion"):
            out.append(raw)
            continue
        if words[0] == "cast":
            rank = [w for w in words[3:] if w.startswith("rank=")]
            extra = [f"rank={_value_alias('ranks', r[5:], english)}" for r in rank]
            words = ["cast", _person(words[1], english), _alias_of("roles", words[2], english), *extra]
        elif words[0] == "pair":
            sides = {"上射": "upper", "下射": "lower"}
            words = ["pair", words[1]] + [
                f"{sides[k]}={_person(val, english)}" for k, _, val in (w.partition("=") for w in words[2:])
            ]
        else:
            plain = [w for w in words if "=" not in w]
            new = [_person(plain[0], english), _alias_of("acts", plain[1], english)]
            if len(plain) == 3:
                kind, suffix = v.object_kind(plain[2])
                new.append(_alias_of("objects", kind.name, english) + suffix)
            for k, _, val in (w.partition("=") for w in words if "=" in w):
                if k in ("to", "for"):
                    val = _person(val, english)
                elif k == "at":
                    val = v.places[val].slug
                elif k in ("result", "side", "beat", "face"):
                    val = _value_alias(f"attr:{k}", val, english)
                new.append(f"{k}={val}")
            words = new
        out.append(" ".join(words) + (f"  #{comment}" if hash_ else ""))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("english", [False, True], ids=["pinyin", "english"])
def test_canonical_with_slugs_or_english_aliases_checks_like_the_original(english: bool) -> None:
    text = CANONICAL.read_text(encoding="utf-8")
    rewritten = in_aliases(text, english)
    assert ("release-tally" in rewritten) == english and ("shi-huo-zhe" in rewritten) != english
    assert checked(rewritten, {}) == checked(text, {})


@pytest.mark.parametrize("path", VIOLATIONS[5::20], ids=lambda p: p.stem)
def test_violating_examples_with_english_aliases_report_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    readings = readings_of(path)
    assert checked(in_aliases(text, True), readings) == checked(text, readings)


def test_a_hand_written_english_trace() -> None:
    trace = parse_lines(
        "host bow n=2 at=zuo-jie-shang face=facing-west\n"
        "Scorekeeper release-tally tallies for=student1 arrow=1 side=right\n",
        "t.trace",
    )
    assert [(e.actor, e.act, e.obj_token, dict(e.attrs)) for e in trace] == [
        ("主人", "拜", None, {"n": "2", "at": "阼阶上", "face": "西面"}),
        ("释获者", "释获", "算", {"for": "弟子1", "arrow": "1", "side": "右"}),
    ]


# -- the curated table of variants ----------------------------------------------------------------


@pytest.mark.parametrize(
    "written, expected",
    [
        ("鄉射禮", "乡射礼"),
        ("觶", "觯"),
        ("賓", "宾"),
        ("獲", "获"),
        ("筭", "算"),
        ("醻", "酬"),
        ("矦", "侯"),
        ("賔", "宾"),
        ("衆賓", "众宾"),
        ("釋獲者", "释获者"),
        ("説決拾", "说决拾"),
        ("\uf96f決拾", "说决拾"),
        ("釈獲", "释获"),
        ("袒纁襦", "袒薰襦"),
        ("觶２", "觯2"),
    ],
)
def test_words_fold_to_the_vocabulary(written: str, expected: str) -> None:
    assert fold(written) == expected


def _vocabulary_chars() -> set[str]:
    return set(vocabulary().chars) - {c for c in vocabulary().chars if c.isascii()}


def test_every_entry_of_the_table_maps_a_character_opencc_misses_to_one_the_vocabulary_uses() -> None:
    chars = _vocabulary_chars()
    table = variants()
    assert len(table) >= 30
    for variant, target in table.items():
        assert len(variant) == 1 and len(target) == 1, variant
        assert target in chars, f"{variant} → {target}: {target} is not used by the vocabulary"
        assert variant not in chars, f"{variant} is itself a character of the vocabulary"
        assert T2S.convert(variant) != target, f"OpenCC already maps {variant} to {target}"


def test_the_vocabulary_is_stable_under_folding() -> None:
    """A word made of the vocabulary's characters is never converted (the reason OpenCC need not be
    loaded for it): each character is unchanged by t2s, NFKC and the table."""
    for c in _vocabulary_chars():
        assert T2S.convert(c) == c and apply_variants(c) == c and fold(c) == c, c


def test_every_traditional_form_of_the_vocabulary_folds_back() -> None:
    v = vocabulary()
    words = [*v.roles, *v.objects, *v.places, *v.acts] + [x for a in v.attributes.values() for x in a.values]
    assert [w for w in words if fold(S2T.convert(w)) != w] == []


def test_checking_the_canonical_ceremony_does_not_load_opencc() -> None:
    code = (
        "import sys; from pathlib import Path; from domain.parse import parse_file; "
        f"parse_file(Path({str(CANONICAL)!r})); print('opencc' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- aliases are unique, errors are in the user's script ------------------------------------------


def test_colliding_aliases_are_a_load_error(tmp_path: Path) -> None:
    text = VOCABULARY_PATH.read_text(encoding="utf-8").replace('en = "guest"', 'en = "host"', 1)
    bad = tmp_path / "vocabulary.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(RulebookError, match="alias 'host' of \\[roles.宾\\] is also an alias"):
        load_vocabulary(bad)


def test_unknown_traditional_word_is_located_with_a_suggestion_in_traditional() -> None:
    with pytest.raises(TraceErrors) as err:
        parse_lines("釋獲着 釋獲 算 for=弟子1 arrow=1 side=右\n", "t.trace")
    shown = err.value.render()
    assert shown.startswith("t.trace:1: error: unknown person 釋獲着")
    assert "釋獲者" in shown and "释获者" not in shown


def test_unknown_slug_suggests_slugs() -> None:
    with pytest.raises(TraceErrors) as err:
        parse_lines("scorekeeper release-taly tallies\n", "t.trace")
    assert "unknown act release-taly" in err.value.render()
    assert "did you mean release-tally" in err.value.render()


# -- messages in English or Chinese ---------------------------------------------------------------


def _cli(*args: str, env: dict[str, str] | None = None):
    from click.testing import CliRunner

    from xiangshe.reports.messages import set_language
    from xiangshe.verify import cli

    try:
        return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    finally:
        set_language(None)


@pytest.mark.parametrize("how", ["option", "environment"])
def test_check_text_in_chinese(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    path = "traces/violations/bu-guan-bu-shi.trace"
    english = _cli("check", path)
    chinese = (
        _cli("--lang", "zh", "check", path) if how == "option" else _cli("check", path, env={"XIANGSHE_LANG": "zh"})
    )
    assert english.exit_code == chinese.exit_code == 1
    assert f"{path}:40: error: " in english.stdout and "\n  why   " in english.stdout
    assert f"{path}:40: 错误: " in chinese.stdout
    for word in ("规则", "原文", "计分核查", "所从之说", "此前没有「"):
        assert word in chinese.stdout and word not in english.stdout, word
    assert "理由" not in chinese.stdout  # the rule's English reading is not mixed in
    assert "1 violation in 1 of 1 trace (26 events)" in english.stdout
    assert "1 处违例，共 1 份仪注中 1 份（26 个事件）" in chinese.stdout
    assert "不贯不释" in chinese.stdout  # the rule and its quote are shown as written


def test_json_is_not_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    path = "traces/violations/bu-guan-bu-shi.trace"
    assert (
        _cli("--lang", "zh", "check", "--format", "json", path).stdout == _cli("check", "--format", "json", path).stdout
    )


def test_bad_input_in_chinese(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trace"
    bad.write_text("釋獲着 釋獲 算\n主人 拜 n=7\n", encoding="utf-8")
    out = _cli("--lang", "zh", "check", str(bad))
    assert out.exit_code == 2
    assert f"{bad}:1: 错误: 未知的人物 釋獲着" in out.stderr and "是否要写 釋獲者" in out.stderr
    assert f"{bad}:2: 错误: n=7: n 只能是 1, 2, 3" in out.stderr
    english = _cli("check", str(bad))
    assert f"{bad}:1: error: unknown person 釋獲着" in english.stderr and "did you mean 釋獲者" in english.stderr
