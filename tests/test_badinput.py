"""Bad input through the command line, every category in every format: exit 2, a message located as
`path:line: error: …` at the line where it applies, never a traceback, and the file left as it was.

A table: (category, suffix, bytes, the line the error is at, a fragment of the message).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.domain.parse import MAX_BYTES
from xiangshe.verify import cli

DEEP = 100_000
CASES: list[tuple[str, str, bytes, int, str]] = [
    # malformed
    ("malformed", "trace", "主人\n", 1, "an event needs at least an actor and an act"),
    ("malformed", "trace", "主人 揖\n主人 献 爵 宾 to=宾\n", 2, "too many words"),
    ("malformed", "trace", "主人 揖\nto=宾 主人 揖\n", 2, "key=value pairs come after"),
    ("malformed", "jsonl", '{"actor": "主人", "act": "揖"}\n{"actor": "主人", "act": "献"\n', 2, "not valid JSON"),
    ("malformed", "jsonl", '{"actor": "主人", "act": "揖"}\n["主人", "揖"]\n', 2, "must be a JSON object"),
    ("malformed", "jsonl", '{"actor": "主人", "act": "揖"}\n{"act": "揖"}\n', 2, 'needs "actor" and "act"'),
    ("malformed", "json", '[{"actor": "主人", "act": "揖"},\n {"actor": "主人", "act": "献"\n', 2, "not valid JSON"),
    ("malformed", "json", '[{"actor": "主人", "act": "揖"},\n ["主人", "揖"]]\n', 2, "each record is a JSON object"),
    ("malformed", "json", '[{"actor": "主人", "act": "揖"},\n {"act": "揖"}]\n', 2, 'needs "actor" and "act"'),
    ("malformed", "json", '{"actor": "主人", "act": "揖"}\n', 1, "a JSON trace is an array of records"),
    ("malformed", "json", '[{"actor": "主人", "act": "揖"},\n]\n', 2, "not valid JSON: Expecting value"),
    ("malformed", "json", '[{"actor": "主人", "act": "揖"}]\n[]\n', 2, "not valid JSON: Extra data"),
    ("malformed", "json", '[{"actor": "主人", "act": "揖"},\n {actor: "主人"}]\n', 2, "property name enclosed"),
    ("malformed", "yaml", "- {actor: 主人, act: 揖}\n- [a\n", 3, "not valid YAML"),
    ("malformed", "yml", "actor: 主人\nact: 揖\n", 1, "a YAML trace is a list of records"),
    ("malformed", "yaml", "- {actor: 主人, act: 揖}\n- 主人 揖\n", 2, "each record is a mapping"),
    ("malformed", "yaml", "- {actor: 主人, act: 揖}\n---\n- {actor: 主人, act: 揖}\n", 2, "not valid YAML"),
    # wrong types
    ("wrong type", "trace", "主人 拜 to=宾 n=three\n", 1, "n=three: n is one of"),
    ("wrong type", "trace", "甲 射 矢 arrow=1.5\n", 1, "arrow=1.5"),
    ("wrong type", "jsonl", '{"actor": "主人", "act": "拜", "to": "宾", "n": 3}\n', 1, "values must be strings: n"),
    ("wrong type", "jsonl", '{"actor": ["主人"], "act": "揖"}\n', 1, "values must be strings: actor"),
    ("wrong type", "jsonl", '{"actor": "主人", "act": "揖", "to": null}\n', 1, "values must be strings: to"),
    ("wrong type", "jsonl", '{"actor": "主人", "act": {"揖": 1}}\n', 1, "values must be strings: act"),
    ("wrong type", "json", '[{"actor": "主人", "act": "拜", "to": "宾", "n": "three"}]', 1, "n=three: n is one of"),
    ("wrong type", "json", '[{"actor": ["主人"], "act": "揖"}]', 1, "values must be strings or numbers: actor"),
    (
        "wrong type",
        "json",
        '[\n{"actor": "主人", "act": "揖", "to": null}]',
        2,
        "values must be strings or numbers: to",
    ),
    ("wrong type", "json", '[{"actor": "主人", "act": "揖", "n": true}]', 1, "values must be strings or numbers: n"),
    ("wrong type", "json", '[{"actor": "主人", "act": "拜", "to": "宾", "n": 3.0}]', 1, "n=3.0: n is one of"),
    ("wrong type", "json", '[{"actor": "主人", "act": "拜", "to": "宾", "n": 1e0}]', 1, "n=1e0: n is one of"),
    ("wrong type", "yaml", "- {actor: 主人, act: 拜, to: 宾, n: three}\n", 1, "n=three: n is one of"),
    ("wrong type", "yaml", "- {actor: [主人], act: 揖}\n", 1, "keys and values must be plain words"),
    ("wrong type", "yaml", "- actor: 主人\n  act: 揖\n  to: {宾: 1}\n", 3, "keys and values must be plain words"),
    ("wrong type", "yml", "- {actor: 主人, act: 拜, to: 宾, n: 3.0}\n", 1, "n=3.0"),
    # unknown words (with a "did you mean")
    ("unknown word", "trace", "主人 揖\n释获着 释获 算\n", 2, "unknown person 释获着"),
    ("unknown word", "trace", "主人 献爵 爵\n", 1, "unknown act 献爵"),
    ("unknown word", "trace", "主人 取 爵 at=上匪\n", 1, "unknown place 上匪"),
    ("unknown word", "jsonl", '{"actor": "主人", "act": "献", "obj": "盘"}\n', 1, "unknown object 盘"),
    ("unknown word", "jsonl", '{"phase": "Φ99"}\n{"actor": "主人", "act": "揖"}\n', 1, "unknown phase Φ99"),
    ("unknown word", "json", '[{"actor": "主人", "act": "献", "obj": "盘"}]', 1, "unknown object 盘"),
    (
        "unknown word",
        "json",
        '[\r{"actor": "主人", "act": "揖"},\r{"actor": "主人", "act": "献爵"}]',
        3,
        "unknown act 献爵",
    ),
    ("unknown word", "yaml", "- {actor: 主人, act: 献, obj: 爵, too: 宾}\n", 1, "unknown key too="),
    ("unknown word", "yml", "- {cast: 甲, role: 宾客}\n- {actor: 主人, act: 揖}\n", 1, "unknown role 宾客"),
    # duplicate keys
    ("duplicate key", "trace", "主人 献 爵 to=宾 to=宾\n", 1, "to= is given twice"),
    (
        "duplicate key",
        "jsonl",
        '{"actor": "主人", "act": "揖"}\n{"actor": "主人", "act": "揖", "actor": "宾"}\n',
        2,
        "duplicate key actor",
    ),
    ("duplicate key", "jsonl", '{"cast": "甲", "role": "弟子", "role": "众宾"}\n', 1, "duplicate key role"),
    (
        "duplicate key",
        "yaml",
        "- {actor: 主人, act: 揖}\n- actor: 主人\n  act: 揖\n  act: 拜\n",
        4,
        "duplicate key act",
    ),
    ("duplicate key", "trace", "cast 甲 弟子\ncast 甲 众宾\n甲 揖\n", 2, "甲 is declared twice"),
    (
        "duplicate key",
        "json",
        '[\n  {"actor": "主人", "act": "揖"},\n  {"actor": "主人",\n   "act": "揖",\n   "act": "拜"}\n]\n',
        5,
        "duplicate key act",
    ),
    ("duplicate key", "json", '[{"actor": "主人", "act": "揖", "to": {"a": "1", "a": "2"}}]', 1, "duplicate key a"),
    # empty files
    *[("empty", sfx, "", 1, "the trace has no events") for sfx in ("trace", "jsonl", "json", "yaml", "yml")],
    ("empty", "json", "[]\n", 1, "the trace has no events"),
    ("empty", "json", " \n\t\n", 1, "the trace has no events"),
    ("empty", "trace", "# only a comment\n\n", 1, "the trace has no events"),
    ("empty", "jsonl", "\n\n", 1, "the trace has no events"),
    ("empty", "yaml", "# nothing\n", 1, "the trace has no events"),
    ("empty", "yaml", "[]\n", 1, "the trace has no events"),
    # binary files, text not in UTF-8
    *[("binary", sfx, b"\x7fELF\x02\x01\x00\x00\x00", 1, "binary file") for sfx in ("trace", "jsonl", "json", "yaml")],
    ("not UTF-8", "json", '[{"actor": "主人", "act": "揖"}]'.encode("utf-16"), 1, None),
    ("binary", "trace", b"\xe4\xb8\xbb\xe4\xba\xba \xe6\x8f\x96\n\x00\x01", 2, "binary file"),
    ("not UTF-8", "trace", "主人 揖\n".encode() + "主人 拜".encode("gb18030"), 2, "not UTF-8"),
    ("not UTF-8", "jsonl", '{"actor": "主人", "act": "揖"}\n'.encode("utf-16"), 1, None),
    ("not UTF-8", "yaml", b"- {actor: \xff}\n", 1, "not UTF-8"),
    # unsafe YAML tags (and in the other formats, the same words are merely unknown)
    ("unsafe tag", "yaml", "- !!python/object/apply:os.system ['echo pwned']\n", 1, "is not allowed"),
    ("unsafe tag", "yaml", "- {actor: 主人, act: !!python/name:os.system 揖}\n", 1, "is not allowed"),
    ("unsafe tag", "yml", "- !!python/object/new:subprocess.Popen [[ls]]\n", 1, "is not allowed"),
    ("unsafe tag", "yaml", "- {actor: 主人, act: 揖, n: !!binary aGk=}\n", 1, "is not allowed"),
    ("unsafe tag", "yaml", "- {actor: 主人, act: !custom 揖}\n", 1, "is not allowed"),
    ("unsafe tag", "jsonl", '{"actor": "!!python/object/apply:os.system", "act": "揖"}\n', 1, "unknown person"),
    ("unsafe tag", "trace", "!!python/object/apply:os.system 揖\n", 1, "unknown person"),
    ("unsafe tag", "json", '[{"actor": "!!python/object/apply:os.system", "act": "揖"}]', 1, "unknown person"),
    # YAML aliases: a few lines that stand for billions of nodes (the last would take hours to walk)
    ("alias", "yaml", "- &a {actor: 主人, act: 揖}\n- *a\n", 2, "YAML aliases (*a) are not allowed"),
    ("alias", "yaml", "- &a {actor: 主人, act: 揖}\n- {<<: *a, act: 拜}\n", 2, "YAML aliases (*a)"),
    ("alias", "yml", "- {actor: 主人, act: 揖, to: &p 宾}\n- {actor: 主人, act: 拜, to: *p}\n", 2, "(*p)"),
    (
        "alias",
        "yaml",
        "- &m {" + ", ".join(f"k{i}: v" for i in range(5000)) + "}\n" + "- *m\n" * 50_000,
        2,
        "YAML aliases (*m) are not allowed",
    ),
    # very deep nesting
    ("deep nesting", "jsonl", "[" * DEEP + "\n", 1, "nested too deeply"),
    ("deep nesting", "jsonl", '{"a": ' * DEEP + "\n", 1, "nested too deeply"),
    ("deep nesting", "yaml", "[" * DEEP + "\n", 1, "not valid YAML"),
    ("deep nesting", "yaml", "- " * DEEP + "x\n", 1, "not valid YAML"),
    ("deep nesting", "yml", "{a: " * DEEP + "\n", 1, "not valid YAML"),
    ("deep nesting", "trace", "[" * DEEP + " 揖\n", 1, "unknown person"),
    ("deep nesting", "json", "[" * DEEP + "\n", 1, "nested too deeply"),
    ("deep nesting", "json", '[{"actor": ' + "[" * DEEP + "\n", 1, "nested too deeply"),
    # numbers that are not ASCII digits, or too long to be a number
    ("odd number", "trace", "主人 取 爵³\n", 1, "爵 has instances"),
    ("odd number", "trace", "主人 取 爵٣\n", 1, "爵 has instances"),
    ("odd number", "trace", "主人 取 爵" + "1" * 5000 + "\n", 1, "爵 has instances"),
    # a line break that is not one: U+2028 inside a JSON string stays on its line (and is shown escaped)
    ("line break", "jsonl", '{"actor": "主人", "act": "揖", "words": "a\u2028b"}\n', 1, "words=a\\u2028b: words is"),
    ("line break", "trace", "主人 揖\u2028x\n主人 献爵\n", 1, "bad.trace:2: error: unknown act 献爵"),
    (
        "line break",
        "json",
        '[{"actor": "主人", "act": "揖", "words": "a\u2028b"},\n{"actor": "主人", "act": "献爵"}]',
        1,
        "bad.json:2: error: unknown act 献爵",
    ),
]


def _id(case: tuple) -> str:
    category, suffix, data, line, _ = case
    return f"{category}-{suffix}-{line}-{len(data)}"


def _check(path: Path, line: int, fragment: str | None) -> None:
    before = path.read_bytes()
    result = CliRunner().invoke(cli, ["check", str(path)])
    out = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, out
    assert "Traceback" not in out and "internal error" not in out
    assert out.startswith(f"{path}:{line}: error: "), out[:300]
    if fragment is not None:
        assert fragment in out, out[:300]
    assert path.read_bytes() == before  # the user's file is untouched


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_bad_input_exits_2_located_and_untouched(tmp_path: Path, case: tuple) -> None:
    _category, suffix, data, line, fragment = case
    path = tmp_path / f"bad.{suffix}"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    _check(path, line, fragment)


def test_every_category_is_tried_in_every_format() -> None:
    seen = {(c, "yaml" if s == "yml" else s) for c, s, *_ in CASES}
    for category in (
        "malformed",
        "wrong type",
        "unknown word",
        "duplicate key",
        "empty",
        "binary",
        "unsafe tag",
        "deep nesting",
    ):
        for suffix in ("trace", "jsonl", "json", "yaml"):
            assert (category, suffix) in seen, (category, suffix)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_bad_input_on_standard_input_is_located_alike(case: tuple) -> None:
    """The same table through `-`: read as --stdin-format says, named as --stdin-filename says."""
    _category, suffix, data, line, fragment = case
    data = data if isinstance(data, bytes) else data.encode("utf-8")
    fmt = {"yml": "yaml"}.get(suffix, suffix)
    result = CliRunner().invoke(
        cli, ["check", "-", "--stdin-format", fmt, "--stdin-filename", f"plans/bad.{suffix}"], input=data
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"plans/bad.{suffix}:{line}: error: "), result.stderr[:300]
    if fragment is not None:
        assert fragment.replace("bad.", "plans/bad.") in result.stderr, result.stderr[:300]


@pytest.mark.parametrize("suffix", ["trace", "jsonl", "json", "yaml"])
def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"huge.{suffix}"
    with path.open("wb") as f:  # sparse: the limit is checked before reading
        f.truncate(MAX_BYTES + 1)
    _check(path, 1, f"the limit is {MAX_BYTES}")


def test_the_size_limit_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "trace-format.md").read_text(encoding="utf-8")
    assert f"{MAX_BYTES // (1024 * 1024)} MiB" in doc


def test_errors_in_several_files_are_all_reported(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.yaml"
    a.write_text('{"actor": "主人", "act": "揖", "act": "拜"}\n', encoding="utf-8")
    b.write_text("- !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(a), str(b)])
    assert result.exit_code == 2
    assert f"{a}:1: error: duplicate key act" in result.output
    assert f"{b}:1: error: tag" in result.output


# -- output files: generate, counterexample and query never write over a file ------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--until", "Φ02"],
        pytest.param(["counterexample", "wu-jie", "--depth", "6"], marks=pytest.mark.z3),
        pytest.param(
            ["query", "precedence", "--first", "* 洗 爵|觯", "--then", "* 实 爵|觯", "--same", "obj", "--depth", "4"],
            marks=pytest.mark.z3,
        ),
    ],
    ids=["generate", "counterexample", "query"],
)
def test_output_files_are_never_overwritten(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "mine.trace"
    out.write_bytes(b"my own staging\n")
    result = CliRunner().invoke(cli, [*args, "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert f"{out}: error: the file exists" in result.output and "Traceback" not in result.output
    assert out.read_bytes() == b"my own staging\n"


def test_an_output_in_a_missing_directory_is_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "x.trace"
    result = CliRunner().invoke(cli, ["generate", "--until", "Φ02", "-o", str(out)])
    assert result.exit_code == 2 and f"{out}: error: cannot write" in result.output
    assert not out.exists()


# -- bad input about a whole file or argument, not a line in it --------------------------------------

KNOWN = "a staging is .trace, .jsonl, .json, .yaml or .yml"
GOOD = "主人 揖\n".encode()
#: (category, the arguments after `check`, the files to make (a name ending in / is a directory),
#: what stdin holds, the message that must begin a line of stderr)
WHOLE: list[tuple[str, list[str], dict[str, bytes | None], bytes, str]] = [
    ("unknown type", ["plan.toml"], {"plan.toml": GOOD}, b"", f"plan.toml: error: unknown file type .toml; {KNOWN}"),
    ("unknown type", ["plan.txt"], {"plan.txt": GOOD}, b"", f"plan.txt: error: unknown file type .txt; {KNOWN}"),
    ("unknown type", ["plan"], {"plan": GOOD}, b"", f"plan: error: unknown file type (no extension); {KNOWN}"),
    (
        "unknown type",
        ["plan.trace.bak"],
        {"plan.trace.bak": GOOD},
        b"",
        f"plan.trace.bak: error: unknown file type .bak; {KNOWN}",
    ),
    ("unknown type", ["plan.tarce"], {"plan.tarce": GOOD}, b"", "  did you mean .trace?"),
    ("unknown type", ["plan.jsn"], {"plan.jsn": GOOD}, b"", "  did you mean .json, .jsonl?"),
    ("unknown type", ["plan.YMAL"], {"plan.YMAL": GOOD}, b"", "  did you mean .yml, .yaml?"),
    ("unknown type", ["plan.jsonld"], {"plan.jsonld": GOOD}, b"", "plan.jsonld: error: unknown file type .jsonld"),
    ("no such file", ["nothing.trace"], {}, b"", "nothing.trace: error: no such file"),
    ("no such file", ["plans/gone.json"], {"plans/": None}, b"", "plans/gone.json: error: no such file"),
    ("empty directory", ["plans"], {"plans/": None}, b"", "plans: error: no staging files in this directory"),
    (
        "no staging in a directory",
        ["plans"],
        {"plans/notes.txt": GOOD, "plans/.draft.trace": GOOD, "plans/.git/x.trace": GOOD, "plans/sub/": None},
        b"",
        "plans: error: no staging files in this directory",
    ),
    ("stdin twice", ["-", "-"], {}, GOOD, "-: error: standard input is named twice; it can be read once"),
    ("empty argument", [""], {"a.trace": GOOD}, b"", "'': error: an empty FILE argument; name a file"),
    (
        "stdin options without -",
        ["--stdin-format", "yaml", "plan.trace"],
        {"plan.trace": GOOD},
        b"",
        "error: --stdin-format is for `-` (standard input), which is not among the FILEs",
    ),
    (
        "stdin options without -",
        ["--stdin-filename", "x.trace"],
        {},
        GOOD,
        "error: --stdin-filename is for `-` (standard input), which is not among the FILEs",
    ),
    ("stdin format unknown", ["-", "--stdin-format", "toml"], {}, GOOD, "Error: Invalid value for '--stdin-format'"),
    (
        "stdin with data, no FILE",
        [],
        {},
        GOOD,
        "error: standard input has data but no FILE was given; to check it, pass -",
    ),
]


@pytest.mark.parametrize("case", WHOLE, ids=lambda c: f"{c[0]}-{'_'.join(c[1])}")
def test_bad_input_about_a_whole_file_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: tuple) -> None:
    _category, args, files, stdin, message = case
    monkeypatch.chdir(tmp_path)
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir() if data is None else path.write_bytes(data)
    result = CliRunner().invoke(cli, ["check", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert any(line.startswith(message) for line in result.stderr.splitlines()), result.stderr[:500]
    for name, data in files.items():  # nothing the user wrote is touched
        assert data is None or (tmp_path / name).read_bytes() == data


@pytest.mark.parametrize("name", ["PLAN.YAML", "plan.Yml", "plan.JSON", "plan.JsonL", "plan.TRACE"])
def test_suffixes_are_matched_in_any_letter_case(tmp_path: Path, name: str) -> None:
    """An upper-case suffix takes its format's reader: an unknown act is found, located, as that format
    says it (read as the line format, the JSON or YAML would be 'unknown person')."""
    suffix = name.rsplit(".", 1)[1].lower()
    text = {
        "yaml": "- {actor: 主人, act: 献爵}\n",
        "yml": "- {actor: 主人, act: 献爵}\n",
        "json": '[{"actor": "主人", "act": "献爵"}]',
        "jsonl": '{"actor": "主人", "act": "献爵"}\n',
        "trace": "主人 献爵\n",
    }[suffix]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _check(path, 1, "unknown act 献爵")
    fixed = {
        "yaml": "- {fragment: ''}\n- {actor: 主人, act: 揖}\n",
        "yml": "- {fragment: ''}\n- {actor: 主人, act: 揖}\n",
        "json": '[{"fragment": ""}, {"actor": "主人", "act": "揖"}]',
        "jsonl": '{"fragment": ""}\n{"actor": "主人", "act": "揖"}\n',
        "trace": "fragment\n主人 揖\n",
    }[suffix]
    path.write_text(fixed, encoding="utf-8")  # a part of the ceremony, declared so
    assert CliRunner().invoke(cli, ["check", str(path)]).exit_code == 0


# -- large but valid input: every count is rendered ---------------------------------------------------


@pytest.mark.parametrize(("tallies", "words"), [(199, "九十九纯一奇"), (200, "一百纯"), (2001, "一千纯一奇")])
def test_a_round_of_any_number_of_tallies_is_audited(tmp_path: Path, tallies: int, words: str) -> None:
    path = tmp_path / "many.trace"
    path.write_text(
        "cast 甲 弟子\ncast 乙 弟子\npair 上耦 上射=甲 下射=乙\nphase Φ27\n"
        + "释获者 释获 算 for=甲 arrow=1 side=右\n" * tallies,
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["check", "--scoring", str(path)])
    assert result.exit_code == 1, result.output[-500:]
    assert f"右 {tallies} ({words})" in result.output


# -- options with a shape of their own: a usage error (exit 2) that names the option ------------------

FIRST, THEN = ["--first", "* 洗 爵|觯", "--then", "* 实 爵|觯"], ["--depth", "2"]
ARROWS = [
    f"--arrow=2:{p}:{s}={r}"
    for p in ("上耦", "次耦", "下耦")
    for s, r in (("上射", "中正,中正,中正,中正"), ("下射", "不中,不中,不中,不中"))
]
OPTION_CASES: list[tuple[list[str], str]] = [
    (["generate", "--arrow", "2:上耦:上射=x,y"], "'--arrow': 2:上耦:上射=x,y: four results, not 2 (x, y)"),
    (["generate", "--arrow", "2:上耦:上射=x,y,z,w"], "four results, not x, y, z, w; each one of 中正"),
    (["generate", "--arrow", "2:上耦=中正,不中,中正,中正"], "write ROUND:PAIR:上射|下射=R1,R2,R3,R4"),
    (["generate", "--arrow", "2:上耦:上射"], "write ROUND:PAIR:上射|下射=R1,R2,R3,R4"),
    (["generate", "--arrow", "4:上耦:上射=中正,不中,中正,中正"], "the round is 1, 2 or 3, not '4'"),
    (["generate", "--arrow", "2:上耦:中射=中正,不中,中正,中正"], "the side is 上射 or 下射"),
    (["generate", "--arrow", "2:上藕:上射=中正,不中,中正,中正"], "no pair 上藕 in this staging; did you mean 上耦?"),
    (["generate", "--arrow", "1:宾耦:上射=中正,不中,中正,中正"], "only the 三耦 (上耦, 次耦, 下耦) shoot in round 1"),
    (
        ["generate", "--arrow", "2:上耦:上射=中正,中正,中正,中正", "--arrow", "2:上耦:上射=中正,中正,中正,中正"],
        "is given twice",
    ),
    (
        [
            "generate",
            "--no-bin-zhuren-shoot",
            "--no-dafu-shoot",
            "--zhongbin-pairs",
            "0",
            "--outcome",
            "左",
            "左",
            *ARROWS,
        ],
        "leave no way to reach the outcome 左",
    ),
    (["generate", "--until", "Φ99"], "'--until': no phase 'Φ99'"),
    (["generate", "--until", "foo"], "'--until': no phase 'foo'"),
    (["query", "at_most", "--pattern", "主人 揖", "-n", "-1", *THEN], "'-n': -1 is not in the range"),
    (["query", "at_most", "--pattern", "主人 揖", "-n", "x", *THEN], "'-n': 'x' is not a valid integer"),
    (
        ["query", "precedence", *FIRST, "--same", "nosuchkey", *THEN],
        "same: 'nosuchkey' is not a key that can be correlated\n  did you mean",
    ),
    (["query", "precedence", *FIRST, "--same", "objj", *THEN], "did you mean obj"),
    (["query", "precedence", *FIRST, "--same", "", *THEN], "same: '' is not a key"),
    (["query", "precedence", *FIRST, "--same", "obj=nosuch", *THEN], "same: 'nosuch' is not a key"),
    (["query", "precedence", *FIRST, "--same", "obj.state", *THEN], "same: 'obj.state' is not a key"),
    (["coverage", "--min", "nan"], "'--min': nan is not a percentage"),
    (["coverage", "--min", "101"], "'--min': 101.0 is not in the range"),
]


@pytest.mark.parametrize("args", [a for a, _ in OPTION_CASES], ids=lambda a: " ".join(a)[:60])
def test_a_bad_option_value_exits_2_and_says_why(args: list[str]) -> None:
    fragment = dict((tuple(a), f) for a, f in OPTION_CASES)[tuple(args)]
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output[-500:]
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert fragment in result.output, result.output[-500:]


@pytest.mark.z3
def test_a_count_beyond_the_depth_is_searched_not_overflowed() -> None:
    result = CliRunner().invoke(cli, ["query", "at_most", "--pattern", "主人 揖", "-n", "100000", *THEN])
    assert result.exit_code == 0 and "holds for every trace of at most 2 steps" in result.output, result.output


def test_a_report_whose_directory_cannot_be_made_is_bad_input(tmp_path: Path, monkeypatch) -> None:
    trace = Path(__file__).resolve().parents[1] / "traces" / "canonical.trace"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").write_text("a file where the directory would go\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", str(trace)])
    assert result.exit_code == 2, result.output
    assert "reports: error: cannot make the directory for the report" in result.output
    assert (tmp_path / "reports").read_text(encoding="utf-8").startswith("a file")


def test_a_report_into_a_read_only_directory_is_bad_input(tmp_path: Path, monkeypatch) -> None:
    """As root no directory is read-only to the process: the file system's refusal is simulated."""
    trace = Path(__file__).resolve().parents[1] / "traces" / "canonical.trace"
    monkeypatch.chdir(tmp_path)

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    result = CliRunner().invoke(cli, ["report", str(trace)])
    assert result.exit_code == 2 and "reports: error: cannot make the directory" in result.output
    assert "Permission denied" in result.output


def test_a_pipe_is_read_no_further_than_the_size_limit(tmp_path: Path) -> None:
    """A pipe (or a device) has no size to refuse it by: reading stops past the limit."""
    import os
    import threading

    path = tmp_path / "endless.trace"
    os.mkfifo(path)

    def write() -> None:
        chunk = "主人 揖\n".encode() * 8192
        try:
            with path.open("wb") as f:
                for _ in range(2 * MAX_BYTES // len(chunk)):  # bounded, should the reader not stop
                    f.write(chunk)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    result = CliRunner().invoke(cli, ["check", str(path)])
    writer.join(timeout=60)
    assert result.exit_code == 2 and f"the limit is {MAX_BYTES}" in result.output, result.output[:300]


# -- many errors: the first MAX_ERRORS are shown, the rest counted ----------------------------------


@pytest.mark.parametrize(
    ("suffix", "text", "more"),
    [
        ("trace", "主人 献爵 爵\n" * 1000, 980),  # the same error, again and again
        ("trace", "".join(f"甲{i} 揖\n" for i in range(500)), 480),  # a different word on each line
        ("trace", "主人 揖 to=宾客 at=上匪\n" * 30, 40),  # two errors a line
        ("jsonl", '{"actor": "主人", "act": "献爵"}\n' * 300, 280),
        ("yaml", "- {actor: 主人, act: 献爵}\n" * 300, 280),
    ],
)
def test_errors_past_the_limit_are_counted(tmp_path: Path, suffix: str, text: str, more: int) -> None:
    from xiangshe.domain.parse import MAX_ERRORS

    path = tmp_path / f"many.{suffix}"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    assert result.output.count(": error: ") == MAX_ERRORS
    assert result.output.count("did you mean") + result.output.count("known: ") == MAX_ERRORS
    assert f"{path}: … and {more} more errors (the first {MAX_ERRORS} are shown)\n" in result.output
