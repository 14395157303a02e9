"""`check --format sarif|junit`: SARIF 2.1.0 valid against the official schema (vendored from
oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json: the 2.1.0 errata01 schema), and JUnit XML
whose counts CI can trust.
"""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
import sarif as sarif_schema
from click.testing import CliRunner

from xiangshe import version
from xiangshe.constraints.readings import defaults
from xiangshe.constraints.rulebook import active_rules
from xiangshe.fsm.table import tables
from xiangshe.reports.sarif import AUDIT_CHECKS
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = sarif_schema.SCHEMA
SCHEMA_SHA256 = "ddddcccbf95c7c50c037b5b07eff4140556278ca574ff374db46786b5fce7949"
VIOLATION = "traces/violations/bu-guan-bu-shi.trace"
CANONICAL = "traces/canonical.trace"

#: machine refusals (矢, 算, 楅), a wrong announcement (audit.r132, on a line), five arrows in a
#: round (audit.n01, on no line), and rule violations, several to a rule
MIXED = """\
cast 甲 弟子
cast 乙 弟子
pair 上耦 上射=甲 下射=乙
phase Φ27
甲 射 矢 arrow=1 result=中正
释获者 释获 算 for=甲 arrow=1 side=右
甲 射 矢 arrow=2 result=中正
释获者 释获 算 for=甲 arrow=2 side=右
乙 射 矢 arrow=1 result=中正
释获者 释获 算 for=乙 arrow=1 side=左
甲 射 矢 arrow=3 result=不中
甲 射 矢 arrow=4 result=不中
甲 射 矢 arrow=1 result=不中
phase Φ32
释获者 告 to=宾 words=左右钧
甲 退楅 楅
"""


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def validator():
    """The official schema's validator, with a one-pass uniqueItems (tests/sarif.py)."""
    return sarif_schema.validator()


@pytest.mark.parametrize(
    "items",
    [
        "[1, 1.0]",
        "[1, true]",
        "[0, false]",
        '[{"a": 1, "b": [1, {"c": 2}]}, {"b": [1.0, {"c": 2.0}], "a": 1}]',
        '[{"a": 1}, {"a": 1, "b": null}]',
        "[[1, 2], [2, 1]]",
        "[[1, [2]], [1, [2.0]]]",
        '["1", 1]',
        "[null, null]",
        '[{"rule": "甲"}, {"rule": "乙"}, {"rule": "甲"}]',
        '[{"id": "R1", "x": [true]}, {"id": "R1", "x": [1]}]',
    ],
)
def test_the_one_pass_unique_items_is_jsonschemas(items: str) -> None:
    """tests/sarif.py's uniqueItems says what jsonschema's pairwise comparison says (the items as JSON)."""
    schema, array = {"type": "array", "uniqueItems": True}, json.loads(items)
    assert sarif_schema.FastUniqueDraft4(schema).is_valid(array) == jsonschema.Draft4Validator(schema).is_valid(array)


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "mixed.trace").write_text(MIXED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return "mixed.trace"


def expected_ids(readings: dict[str, str] | None = None) -> list[str]:
    return (
        [r.id for r in active_rules(readings) if r.encoded]
        + [f"machine.{t.slug}" for t in tables()]
        + [f"audit.{c.lower()}" for c, _, _ in AUDIT_CHECKS]
    )


def sarif(*args: str) -> tuple[dict, int]:
    result = invoke("check", "--format", "sarif", *args)
    return json.loads(result.output), result.exit_code


def junit(*args: str) -> tuple[ET.Element, int]:
    result = invoke("check", "--format", "junit", *args)
    return ET.fromstring(result.output.encode("utf-8")), result.exit_code


# --- SARIF ---------------------------------------------------------------------------------------


def test_the_vendored_schema_is_the_official_one() -> None:
    assert hashlib.sha256(SCHEMA.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"


@pytest.mark.parametrize(
    "files", [[VIOLATION], [CANONICAL], [VIOLATION, CANONICAL]], ids=["violation", "canonical", "both"]
)
def test_sarif_validates_against_the_official_schema(validator, files: list[str]) -> None:
    log, _ = sarif(*files)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def test_sarif_of_machines_audit_and_several_findings_validates(validator, mixed: str) -> None:
    log, code = sarif(mixed)
    assert code == 1
    assert not list(validator.iter_errors(log))
    ids = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert {"machine.shi", "machine.suan", "machine.bi", "audit.r132", "audit.n01"} <= ids
    n01 = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "audit.n01")
    assert "region" not in n01["locations"][0]["physicalLocation"]  # a finding on no line
    assert n01["partialFingerprints"]["xiangshe/v1"] == "audit.n01:mixed.trace:"


def test_sarif_driver_describes_every_check() -> None:
    log, code = sarif(VIOLATION)
    assert code == 1
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "xiangshe" and driver["version"] == version() == "0.1.0"
    ids = [d["id"] for d in driver["rules"]]
    assert ids == expected_ids() and len(set(ids)) == len(ids)
    rule = next(d for d in driver["rules"] if d["id"] == "bu-guan-bu-shi")
    assert rule["name"] == "不贯不释" and rule["shortDescription"]["text"] == "R120 不贯不释"
    assert rule["fullDescription"]["text"].startswith("every tally released in rounds 2–3")
    assert "「不贯不释」" in rule["help"]["text"] and "constraints/rules/e_di_er_fan.md:" in rule["help"]["text"]
    props = rule["properties"]
    assert props["catalogue"] == "R120" and props["category"] == "scoring"
    assert {"text": "不贯不释", "source_line": 134} in props["quotes"]
    machine = next(d for d in driver["rules"] if d["id"] == "machine.bi")
    assert machine["name"] == "楅"


def test_sarif_result_locates_the_finding_in_the_trace_and_the_text() -> None:
    log, _ = sarif(VIOLATION)
    [run] = log["runs"]
    [res] = run["results"]
    assert res["ruleId"] == "bu-guan-bu-shi" and res["level"] == "error"
    assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
    assert res["message"]["text"].startswith("no earlier 「* 射 矢 result=中正 round=2|3」")
    loc = res["locations"][0]["physicalLocation"]
    assert loc == {"artifactLocation": {"uri": VIOLATION}, "region": {"startLine": 40}}
    [text] = res["relatedLocations"]
    assert text["physicalLocation"] == {
        "artifactLocation": {"uri": "domain/xiangsheli.txt"},
        "region": {"startLine": 134},
    }
    assert text["message"]["text"] == "「不贯不释」"
    assert res["partialFingerprints"] == {"xiangshe/v1": f"bu-guan-bu-shi:{VIOLATION}:40"}
    assert run["properties"]["readings"]["guan"] == "zheng"


def test_sarif_follows_the_readings_in_force() -> None:
    log, code = sarif("traces/violations/bu-guan-bu-shi-hou.trace", "--reading", "guan=hou")
    assert code == 1
    [run] = log["runs"]
    assert run["properties"]["readings"]["guan"] == "hou"
    ids = [d["id"] for d in run["tool"]["driver"]["rules"]]
    assert ids == expected_ids(defaults() | {"guan": "hou"})
    assert {r["ruleId"] for r in run["results"]} == {"bu-guan-bu-shi-hou"}


def test_sarif_of_the_canonical_ceremony_has_no_results() -> None:
    log, code = sarif()
    assert code == 0 and log["runs"][0]["results"] == []


# --- JUnit ---------------------------------------------------------------------------------------


def test_junit_of_the_canonical_ceremony_has_no_failures() -> None:
    root, code = junit(CANONICAL)
    assert code == 0 and root.tag == "testsuites"
    [suite] = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert suite.get("name") == CANONICAL and suite.get("failures") == "0"
    assert int(suite.get("tests")) == len(cases) == len(expected_ids())
    assert [c.get("name") for c in cases] == expected_ids()
    assert all(c.get("classname") == CANONICAL for c in cases)
    assert not list(root.iter("failure"))


def test_junit_counts_the_findings_of_each_trace() -> None:
    root, code = junit(VIOLATION, CANONICAL)
    assert code == 1
    bad, good = root.findall("testsuite")
    assert (bad.get("failures"), good.get("failures")) == ("1", "0")
    assert root.get("failures") == "1"
    assert int(root.get("tests")) == int(bad.get("tests")) + int(good.get("tests"))
    [failing] = [c for c in bad.findall("testcase") if c.find("failure") is not None]
    assert failing.get("name") == "bu-guan-bu-shi" and failing.get("classname") == VIOLATION
    failure = failing.find("failure")
    assert failure.get("message").startswith(f"{VIOLATION}:40: no earlier")
    assert failure.text.startswith(f"{VIOLATION}:40: error: ")
    assert "text  xiangsheli.txt:134  「不贯不释」" in failure.text


def test_junit_failures_are_the_findings_grouped_by_rule(mixed: str) -> None:
    sarif_log, _ = sarif(mixed)
    findings = sarif_log["runs"][0]["results"]
    root, code = junit(mixed)
    assert code == 1
    [suite] = root.findall("testsuite")
    assert int(suite.get("failures")) == len(findings) == len(list(suite.iter("failure")))
    per_case = {c.get("name"): len(c.findall("failure")) for c in suite.findall("testcase")}
    for rid in {f["ruleId"] for f in findings}:
        assert per_case[rid] == sum(1 for f in findings if f["ruleId"] == rid)
    assert per_case["machine.shi"] > 1


# --- the command line ----------------------------------------------------------------------------


def test_other_commands_keep_text_and_json_only() -> None:
    result = invoke("rules", "--format", "sarif")
    assert result.exit_code == 2


@pytest.mark.parametrize("fmt", ["sarif", "junit"])
def test_bad_input_still_exits_2(fmt: str) -> None:
    result = invoke("check", "--format", fmt, "traces/no-such.trace")
    assert result.exit_code == 2 and "no such file" in result.output
