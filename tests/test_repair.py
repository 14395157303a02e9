"""`xiangshe repair`: the smallest edit of a failing staging, shown as instructions in its own terms
with the text that asks for each step, re-checked (constraints/repair.py, reports/repair.py).

Through the command line (every repair written with -o is checked again by `xiangshe check`) and on
the functions. The default run repairs a small sample of the bundled violating examples; every one
of them is under `-m slow`.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from test_cli import invoke, readings_for  # the same CliRunner call and readings of an example

from xiangshe import schemas
from xiangshe.constraints.check import check_trace
from xiangshe.constraints.repair import Outcome, repair
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain import bundled
from xiangshe.domain.parse import parse_file, parse_jsonl, parse_lines, to_jsonl
from xiangshe.domain.text import TEXT
from xiangshe.reports.repair import record, repair_json

ROOT = Path(__file__).resolve().parents[1]
VIOLATIONS = sorted(bundled.VIOLATIONS.glob("*.trace"))
BU_GUAN = bundled.VIOLATIONS / "bu-guan-bu-shi.trace"
#: a small default sample: a changed attribute, a missing event, an occasion, a missing order, a
#: missing step before a wash, a missing command
SAMPLE = [
    "bu-guan-bu-shi.trace",
    "zuo-she-ru-chu.trace",
    "wei-jun-you-she-yu-guo-zhong.trace",
    "chou-zu-xi-yi-rang-sheng.trace",
    "bin-bei-mian-dian-jue.trace",
    "wu-suan-jue-shi-er-ren.trace",
]


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def repaired_and_rechecked(path: Path, tmp_path: Path) -> dict:
    """repair PATH -o OUT --format json: exit 1, a repair; then `check OUT` holds (exit 0)."""
    out = tmp_path / f"fixed-{path.name}"
    opts = readings_for(path)
    result = invoke("repair", str(path), "-o", str(out), "--format", "json", *opts)
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == "repaired" and doc["repairs"], doc
    assert doc["output_file"] is not None
    checked = invoke("check", str(out), *opts)
    assert checked.exit_code == 0, checked.output
    assert out.read_text(encoding="utf-8") == doc["repairs"][0]["staging"]
    return doc


# -- through the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLE)
def test_a_sample_of_violating_examples_is_repaired_and_the_repair_checks(name: str, tmp_path: Path) -> None:
    repaired_and_rechecked(bundled.VIOLATIONS / name, tmp_path)


#: the examples no repair is found for within the default bounds yet (docs/repair.md, "Speed"):
#: more than two edits, an edit the search does not propose, or the time bound on a long staging
NOT_YET: set[str] = set()


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(reason="no repair within the default bounds yet", strict=False))
        if p.stem in NOT_YET
        else p
        for p in VIOLATIONS
    ],
    ids=lambda p: p.stem,
)
def test_every_violating_example_is_repaired_and_the_repair_checks(path: Path, tmp_path: Path) -> None:
    repaired_and_rechecked(path, tmp_path)


def test_text_says_each_step_in_the_stagings_terms_with_its_quote() -> None:
    result = invoke("repair", str(BU_GUAN.relative_to(ROOT)))
    assert result.exit_code == 1, result.output
    out = result.stdout
    # the shot's result changed to a hit on the 正, as the libretto stages it, with the clause it enacts
    assert "at line 39, change `弟子1 射 矢 arrow=1 result=中侯` to `弟子1 射 矢 arrow=1 result=中正` (result)" in out
    assert "「乃射」 (xiangsheli.txt:136)" in out
    # or the tally deleted, with the rule's quote
    assert "delete line 40, `释获者 释获 算 for=弟子1 arrow=1 side=右` — 「不贯不释」 (xiangsheli.txt:134)" in out
    assert out.index("repair 1 (edits: 1)") < out.index("repair 2 (edits: 1)")


def test_every_quote_shown_is_the_texts_at_its_line() -> None:
    doc = json.loads(invoke("repair", str(BU_GUAN), "--format", "json").stdout)
    for r in doc["repairs"]:
        for e in r["edits"]:
            cite = TEXT.cite(e["quote"], e["source_line"])
            assert cite.line == e["source_line"]


def test_an_already_ok_staging_exits_0(tmp_path: Path) -> None:
    result = invoke("repair", str(bundled.VARIANTS / "wu-da-fu.trace"), "-o", str(tmp_path / "x.trace"))
    assert result.exit_code == 0, result.output
    assert "ok, nothing to repair" in result.stdout
    assert not (tmp_path / "x.trace").exists()


def test_no_repair_within_a_tiny_bound_exits_3_and_says_so_honestly() -> None:
    result = invoke("repair", str(BU_GUAN), "--budget", "1")
    assert result.exit_code == 3, result.output
    assert "no repair found (--max-edits 2): the candidate budget (1) was spent (--budget)" in result.stdout
    assert "This is not a proof that none exists" in result.stdout
    doc = json.loads(invoke("repair", str(BU_GUAN), "--budget", "1", "--format", "json").stdout)
    assert doc["status"] == "none" and doc["bound"] == "candidates" and doc["repairs"] == []


def test_bad_input_exits_2_located(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trace"
    bad.write_text("fragment Φ14\nphase Φ14\n宾 许诺诺\n", encoding="utf-8")
    result = invoke("repair", str(bad))
    assert result.exit_code == 2
    assert f"{bad}:3: error: unknown act 许诺诺" in result.output
    assert "did you mean" in result.output
    assert invoke("repair", str(tmp_path)).exit_code == 2  # a directory
    assert invoke("repair", str(BU_GUAN), "--reading", "guan=nowhere").exit_code == 2


def test_output_is_never_written_over_an_existing_file_and_the_input_is_untouched(tmp_path: Path) -> None:
    out = tmp_path / "fixed.trace"
    out.write_text("keep me\n", encoding="utf-8")
    before = BU_GUAN.read_bytes()
    result = invoke("repair", str(BU_GUAN), "-o", str(out))
    assert result.exit_code == 2 and "the file exists" in result.output
    assert out.read_text(encoding="utf-8") == "keep me\n"
    assert invoke("repair", str(BU_GUAN), "-o", str(out), "--force").exit_code == 1
    assert check_trace(parse_file(out)).ok
    assert BU_GUAN.read_bytes() == before


def test_json_validates_against_the_published_schema() -> None:
    schema = schemas.load("repair")
    validator = jsonschema.Draft202012Validator(schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    docs = [
        json.loads(invoke("repair", str(BU_GUAN), "--format", "json").stdout),
        json.loads(invoke("repair", str(BU_GUAN), "--format", "json", "--budget", "1").stdout),
        json.loads(invoke("repair", str(bundled.CANONICAL), "--format", "json").stdout),
    ]
    for doc in docs:
        errors = list(validator.iter_errors(doc))
        assert not errors, jsonschema.exceptions.best_match(errors)
    broken = dict(docs[0], status="fixed")
    assert list(validator.iter_errors(broken))
    assert json.loads(invoke("schema", "repair").stdout) == schema


def test_a_json_lines_staging_is_repaired_in_record_form(tmp_path: Path) -> None:
    src = tmp_path / "plan.jsonl"
    src.write_text(to_jsonl(parse_file(BU_GUAN)), encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    result = invoke("repair", str(src), "-o", str(out))
    assert result.exit_code == 1, result.output
    assert '{"actor": "弟子1", "act": "射", "obj": "矢", "arrow": "1", "result": "中正"}' in result.stdout
    assert invoke("check", str(out)).exit_code == 0
    assert parse_jsonl(out.read_text(encoding="utf-8"), str(out))  # JSON Lines, as the input was


def test_the_text_says_it_in_chinese() -> None:
    result = invoke("--lang", "zh", "repair", str(BU_GUAN))
    assert result.exit_code == 1
    assert "第 39 行，将" in result.stdout and "「乃射」" in result.stdout


# -- on the functions -----------------------------------------------------------------------------


def test_a_missing_event_is_inserted_from_the_libretto_with_its_clause() -> None:
    trace = parse_file(bundled.VIOLATIONS / "zuo-she-ru-chu.trace")
    outcome = repair(trace, "trace", active_rules())
    assert outcome.status == "repaired" and outcome.exit_code == 1
    first = outcome.repairs[0].edits
    assert [(e.kind, e.new, e.source) for e in first] == [("insert", "司射 作 to=弟子1", "libretto")]
    assert first[0].cite is not None and first[0].cite.quote == "司射作射如初"
    assert check_trace(parse_lines(outcome.repairs[0].text, "<fixed>")).ok


def test_repairs_are_listed_smallest_first_in_a_stable_order() -> None:
    trace = parse_file(BU_GUAN)
    a = repair(trace, "trace", active_rules())
    b = repair(trace, "trace", active_rules())
    assert [r.edits for r in a.repairs] == [r.edits for r in b.repairs]
    sizes = [len(r.edits) for r in a.repairs]
    assert sizes == sorted(sizes) and len(a.repairs) >= 2
    for r in a.repairs:
        assert check_trace(parse_lines(r.text, "<fixed>")).ok


def test_the_search_stops_at_its_bounds() -> None:
    trace = parse_file(BU_GUAN)
    few = repair(trace, "trace", active_rules(), budget=3)
    assert few.status == "none" and few.bound == "candidates" and few.tried <= 3 and few.exit_code == 3
    timed = repair(trace, "trace", active_rules(), seconds=0.0)
    assert timed.status == "none" and timed.bound == "time"


def test_an_ok_staging_needs_no_search() -> None:
    outcome = repair(parse_file(bundled.VARIANTS / "zuo-sheng.trace"), "trace", active_rules())
    assert isinstance(outcome, Outcome) and outcome.status == "ok" and outcome.tried == 0 and outcome.exit_code == 0


def test_record_form_of_an_event() -> None:
    assert record("宾 拜 to=主人 face=北面") == {"actor": "宾", "act": "拜", "to": "主人", "face": "北面"}
    assert record("occasion presiding=州长") == {"occasion": "presiding=州长"}


def test_json_of_a_repair_names_the_edit_and_its_quote() -> None:
    outcome = repair(parse_file(BU_GUAN), "trace", active_rules())
    doc = repair_json(outcome, "x.trace", "trace")
    edit = doc["repairs"][0]["edits"][0]
    assert edit["kind"] == "change" and edit["fields"] == ["result"] and edit["proposed_by"] == "libretto"
    assert edit["quote"] == "乃射" and edit["source_line"] == 136


def test_a_vessel_used_for_another_is_renamed_in_one_edit() -> None:
    outcome = repair(parse_file(bundled.VIOLATIONS / "qi-ta-yong-zhi.trace"), "trace", active_rules())
    assert outcome.status == "repaired"
    [edit] = outcome.repairs[0].edits
    assert (edit.kind, edit.old, edit.new, edit.fields) == ("rename", "爵1", "觯1", ("object",))
    assert edit.span >= 2  # every event on the 爵, in one edit
    fixed = parse_lines(outcome.repairs[0].text, "<fixed>")
    assert not any(e.obj_token == "爵1" for e in fixed.events) and check_trace(fixed).ok


def test_two_insertions_say_where_each_goes() -> None:
    outcome = repair(parse_file(bundled.VIOLATIONS / "gao-zuo-you-zu-she-san-bi.trace"), "trace", active_rules())
    assert outcome.status == "repaired"
    edits = outcome.repairs[0].edits
    assert len(edits) == 2 and {e.kind for e in edits} == {"insert"}
    # applied in order, each right after its line: the 释获者 goes up the west stairs, then reports
    assert [e.new for e in edits] == ["释获者 告 to=宾 words=左右卒射", "释获者 升 at=西阶"]
    fixed = parse_lines(outcome.repairs[0].text, "<fixed>")
    acts = [e.render() for e in fixed.events][-2:]
    assert acts == ["释获者 升 at=西阶", "释获者 告 to=宾 words=左右卒射"]


def run_repair(*args: str, seed: str) -> tuple[bytes, str]:
    """`python -m xiangshe repair ARGS` in a fresh process under PYTHONHASHSEED=seed: (stdout, stderr)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONHASHSEED=seed)
    done = subprocess.run([sys.executable, "-m", "xiangshe", "repair", *args], capture_output=True, env=env, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    return done.stdout, done.stderr.decode()


@pytest.mark.parametrize("fmt", ["text", pytest.param("json", marks=pytest.mark.slow)])
def test_the_same_command_gives_the_same_output_whatever_the_hash_seed_and_the_order_of_the_readings(
    fmt: str,
) -> None:
    path = str(BU_GUAN.relative_to(ROOT))
    one, err = run_repair(path, "--format", fmt, "--reading", "guan=zheng", "--reading", "shi=alternate", seed="1")
    two, _ = run_repair(path, "--format", fmt, "--reading", "shi=alternate", "--reading", "guan=zheng", seed="2")
    assert one == two
    assert b"candidates checked" in one or b"candidates_checked" in one
    assert " s" not in one.decode().splitlines()[-1] and "searched in" in err  # the time taken: apart, on stderr


def test_a_step_undone_by_the_same_persons_later_steps_is_deleted_with_them_in_one_edit() -> None:
    # the 大夫 comes down with the 宾 (大夫不降): deleting the descent alone leaves his way back up refused
    outcome = repair(parse_file(bundled.VIOLATIONS / "xian-gong-da-fu-bu-jiang.trace"), "trace", active_rules())
    assert outcome.status == "repaired"
    [edit] = outcome.repairs[0].edits
    assert (edit.kind, edit.old) == ("delete", "大夫 降 at=西阶")
    assert [body for _, body in edit.also] == ["大夫 升 at=西阶", "大夫 反就席"]
    fixed = parse_lines(outcome.repairs[0].text, "<fixed>")
    assert not any(e.actor == "大夫" and e.phase == "Φ12" for e in fixed.events) and check_trace(fixed).ok
    doc = repair_json(outcome, "x.trace", "trace")
    jsonschema.Draft202012Validator(schemas.load("repair")).validate(doc)
    assert doc["repairs"][0]["edits"][0]["also"] == [
        {"line": 113, "event": "大夫 升 at=西阶"},
        {"line": 114, "event": "大夫 反就席"},
    ]


def test_an_order_with_the_steps_the_libretto_has_follow_it_is_inserted_as_one_edit() -> None:
    # the third round shot before the 乐正 ordered 《驺虞》: the order alone leaves the 大师's 许诺 and the
    # 乐正's 反位 missing; the libretto's run of four events is one edit, where its phase (Φ38) ends
    outcome = repair(parse_file(bundled.VIOLATIONS / "zou-zou-yu-jian-ruo-yi.trace"), "trace", active_rules())
    assert outcome.status == "repaired"
    [edit] = outcome.repairs[0].edits
    assert (edit.kind, edit.group, edit.anchor) == ("insert", "libretto-run", 40)
    assert edit.new == "乐正 命 to=工1 face=东面 words=奏《驺虞》，间若一"
    assert [body for _, body in edit.also] == ["工1 许诺", "乐正 退", "乐正 反位"]
    assert edit.cite is not None and TEXT.occurrences(edit.cite.quote)
    fixed = parse_lines(outcome.repairs[0].text, "<fixed>")
    assert [e.line for e in fixed.events if e.actor == "乐正" and e.phase == "Φ38"] == [41, 43, 44]
    assert check_trace(fixed).ok
    doc = repair_json(outcome, "x.trace", "trace")
    jsonschema.Draft202012Validator(schemas.load("repair")).validate(doc)
    step = doc["repairs"][0]["edits"][0]
    assert step["group"] == "libretto-run" and [a["line"] for a in step["also"]] == [None, None, None]
    assert step["instruction"].startswith(
        "after line 40, insert `乐正 命 to=工1 face=东面 words=奏《驺虞》，间若一`, and"
    )


def test_the_persons_who_broke_a_rule_in_a_round_are_withdrawn_from_it_in_one_edit() -> None:
    # a pair of 众宾 shoots in round 1 (the 三耦's alone): every event of the round naming them, deleted
    from xiangshe.constraints.repair_blocks import withdrawn
    from xiangshe.constraints.repair_rows import _parse, rows_of

    trace = parse_file(bundled.VIOLATIONS / "di-yi-fan-wei-san-ou-she.trace")
    rules = active_rules()
    findings = check_trace(trace, rules).findings
    [whole, *alone] = withdrawn(trace, rows_of(trace, "trace"), findings[0], findings)
    assert (whole.edit.group, whole.edit.persons, whole.edit.round) == ("round", ("众宾4", "众宾5"), 1)
    assert [c.edit.persons for c in alone] == [("众宾4",), ("众宾5",)]
    fixed = _parse(whole.rows, "<fixed>")
    assert fixed is not None and not any("众宾4" in e.text or "众宾5" in e.text for e in fixed.events)
    assert check_trace(fixed, rules).ok
