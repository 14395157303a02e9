"""The literate rulebook's loader: a load error is located at the line of the key it is about; every
rule stands under the block quote of its passages (and the loader says so when it does not); the
rewriter that writes those block quotes and wraps long notes changes no rule; every ```rule example
of docs/rulebook.md is real syntax."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xiangshe.constraints import literate
from xiangshe.constraints.rulebook import RULES_DIR, parse_rule_file, rulebook
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rulebook.md"

GOOD = """\
# T. a test section

Prose: the commentary on the rule.

> 不贯不释 (L134)
```rule
id = "t-bu-guan-bu-shi"
name = "测不贯不释"
catalogue = "R999"
quote = "不贯不释"
kind = "absence"
pattern = "释获者 释获 算 round=1"
note = \"\"\"
a note \\
over two lines.\"\"\"
```
"""


def load(tmp_path: Path, text: str) -> list:
    path = tmp_path / "rules" / "t.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return parse_rule_file(path, vocabulary(), tmp_path)


def error(tmp_path: Path, text: str) -> RulebookError:
    with pytest.raises(RulebookError) as err:
        load(tmp_path, text)
    return err.value


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_good_file_loads_and_its_note_is_unwrapped(tmp_path: Path) -> None:
    [rule] = load(tmp_path, GOOD)
    assert rule.id == "t-bu-guan-bu-shi"
    assert rule.line == line_of(GOOD, "```rule")
    assert rule.extra["note"] == "a note over two lines."


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('kind = "absence"', 'kind = "absense"', "kind = "),
        ("round=1", "round=4", "pattern = "),
        ('catalogue = "R999"', 'catalogue = "X1"', "catalogue = "),
        ('quote = "不贯不释"', 'quote = "不贯不射"', "quote = "),
        ('id = "t-bu-guan-bu-shi"', 'id = "T bu"', "id = "),
        ('note = """', 'colour = "red"\nnote = """', "colour = "),
        ('kind = "absence"', 'kind = "absence"\nwhen = "no-such-point=x"', "when = "),
        ('kind = "absence"', 'kind = "absence"\nsame = ["nose"]', "same = "),
        ('pattern = "释获者', 'pattern = 释获者', "pattern = "),  # not TOML: located by tomllib's line
    ],
)
def test_a_load_error_is_located_at_the_offending_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    text = GOOD.replace(old, new)
    if key == "same = ":
        text = text.replace('kind = "absence"', 'kind = "unique"')
    err = error(tmp_path, text)
    assert err.path == "rules/t.md"
    assert err.line == line_of(text, key), err.render()
    assert err.render().startswith(f"rules/t.md:{err.line}: error: ")


@pytest.mark.parametrize(
    ("fields", "key", "says"),
    [  # each field is read as its declared type says (templates.py): a count, a flag, a choice …
        ('kind = "at_most"\nn = -1', "n = ", "n is a whole number ≥ 0, not -1"),
        ('kind = "at_most"\nn = true', "n = ", "n is a whole number ≥ 0, not True"),
        (
            'kind = "count_before"\nfirst = "司射 诱射"\nthen = "释获者 释获 算"\nop = "<"\nn = 1',
            "op = ",
            "op is '==' or '<=' or '>=', not '<'",
        ),
        (
            'kind = "alternate"\na = "司射 诱射"\nb = "释获者 释获 算"\nonly_with_a = "yes"',
            "only_with_a = ",
            "only_with_a is true or false, not 'yes'",
        ),
        (
            'kind = "absence_between"\nafter = "司射 诱射"\nforbid = "司射 升"\n'
            'then = "释获者 释获 算"\nfault = "after"',
            "fault = ",
            "fault is 'forbid' or 'then', not 'after'",
        ),
        ('kind = "occasion_kind"\nfield = "zhongg"', "field = ", "'zhongg' is not a field of the occasion"),
    ],
)
def test_each_field_is_read_as_its_type_and_a_bad_value_is_located(
    tmp_path: Path, fields: str, key: str, says: str
) -> None:
    text = GOOD.replace('kind = "absence"\n', fields + "\n")
    if "pattern" not in fields and "kind = \"at_most\"" not in fields and "occasion_kind" not in fields:
        text = text.replace('pattern = "释获者 释获 算 round=1"\n', "")
    err = error(tmp_path, text)
    assert says in err.message, err.render()
    assert err.line == line_of(text, key), err.render()


def test_a_missing_field_is_located_at_the_kind(tmp_path: Path) -> None:
    text = GOOD.replace('pattern = "释获者 释获 算 round=1"\n', "")
    err = error(tmp_path, text)
    assert "needs `pattern`" in err.message
    assert err.line == line_of(text, "kind = ")


def test_a_rule_without_its_block_quote_is_an_error_at_the_fence(tmp_path: Path) -> None:
    text = GOOD.replace("> 不贯不释 (L134)\n", "")
    err = error(tmp_path, text)
    assert err.line == line_of(text, "```rule")
    assert "no block quote" in err.message
    assert "> 不贯不释 (L134)" in (err.hint or "")


@pytest.mark.parametrize(
    "quote",
    ["> 不贯不释 (L135)", "> 不贯不释", "> 不贯不释 (L134)\n> 不鼓不释 (L160)", ">不贯不释 (L134)"],
)
def test_a_block_quote_that_differs_from_the_quotes_is_an_error_at_the_block_quote(tmp_path: Path, quote: str) -> None:
    text = GOOD.replace("> 不贯不释 (L134)", quote)
    err = error(tmp_path, text)
    assert err.line == line_of(text, ">"), err.render()
    assert "block quote" in err.message
    assert "> 不贯不释 (L134)" in (err.hint or "")


def test_the_block_quote_names_every_quote_and_a_span_of_lines(tmp_path: Path) -> None:
    text = GOOD.replace('quote = "不贯不释"', 'quote = ["不贯不释", "宾坐取爵，适洗"]')
    err = error(tmp_path, text)
    assert "> 不贯不释 (L134)\n    > 宾坐取爵，适洗 (L24–25)" in (err.hint or "")
    text = text.replace("> 不贯不释 (L134)", "> 不贯不释 (L134)\n> 宾坐取爵，适洗 (L24–25)")
    assert [r.id for r in load(tmp_path, text)] == ["t-bu-guan-bu-shi"]


def test_the_rewriter_writes_the_block_quotes_and_wraps_long_notes(tmp_path: Path) -> None:
    long = "郑注: 「大夫不序於下尊也」 — he does not wait below among the shooters, " * 4
    text = GOOD.replace("> 不贯不释 (L134)\n", "> a stale quote\n").replace(
        'note = """\na note \\\nover two lines."""', f'note = "{long}"'
    )
    out = literate.rewrite(text, "t.md")
    assert "> a stale quote" not in out and "> 不贯不释 (L134)\n```rule" in out
    assert all(literate.columns(line) <= literate.WIDTH for line in out.splitlines())
    [rule] = load(tmp_path, out)
    assert rule.extra["note"] == long
    assert literate.rewrite(out, "t.md") == out  # once is enough


def test_the_rewriter_stops_at_a_rule_that_does_not_load_and_writes_nothing(tmp_path: Path, capsys) -> None:
    good, bad = tmp_path / "a.md", tmp_path / "b.md"
    stale = GOOD.replace("> 不贯不释 (L134)\n", "> a stale quote\n")
    good.write_text(stale, encoding="utf-8")
    bad.write_text(GOOD.replace('quote = "不贯不释"', 'quote = "不贯而释"'), encoding="utf-8")
    assert literate.main([str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "is not in xiangsheli.txt" in err and "Traceback" not in err
    assert good.read_text(encoding="utf-8") == stale  # the file before it is not rewritten either


def test_the_bundled_rulebook_is_as_the_rewriter_writes_it() -> None:
    for path in sorted(RULES_DIR.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert literate.rewrite(text, str(path)) == text, f"run python -m xiangshe.constraints.literate ({path.name})"


def test_no_file_cites_the_catalogue_files_the_project_does_not_have() -> None:
    names = ("RULES" + ".md", "GLOSS" + "ARY")
    files = [
        *RULES_DIR.glob("*.md"),
        ROOT / "domain" / "vocabulary.toml",
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not [n for n in names if n in text], path


def test_every_rule_example_of_the_documentation_loads() -> None:
    text = DOC.read_text(encoding="utf-8")
    rules = parse_rule_file(DOC, vocabulary(), ROOT)
    assert len(rules) == len(re.findall(r"^```rule$", text, flags=re.M)) >= 10
    ids = {r.id for r in rulebook()}
    for rule in rules:  # each example is taken from the real rulebook, and says what it says there
        assert rule.id in ids, rule.id
        real = next(r for r in rulebook() if r.id == rule.id)
        assert (rule.meaning, rule.status, rule.citations, rule.when) == (
            real.meaning,
            real.status,
            real.citations,
            real.when,
        ), rule.id
