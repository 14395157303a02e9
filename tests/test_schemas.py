"""The published JSON Schemas (schemas/*.schema.json): the JSON that commands print validates against
them, they are strict enough to reject what they should, and the trace schema is what the
vocabulary generates and accepts every bundled trace.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from xiangshe import schemas

from xiangshe.domain.parse import parse_file, parse_yaml, to_jsonl
from xiangshe.domain.schema import SCHEMA_PATH, render, trace_schema
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
VIOLATIONS = sorted((ROOT / "traces" / "violations").glob("*.trace"))
VARIANTS = sorted((ROOT / "traces" / "variants").glob("*.trace"))
CANONICAL = ROOT / "traces" / "canonical.trace"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def validator(name: str) -> jsonschema.protocols.Validator:
    """The schema's own dialect: draft-07 for traces (what editors implement), 2020-12 for outputs."""
    schema = schemas.load(name)
    cls = jsonschema.validators.validator_for(schema, default=None)
    assert cls is (jsonschema.Draft7Validator if name == "trace" else jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def assert_valid(name: str, doc) -> None:
    errors = list(validator(name).iter_errors(doc))
    assert not errors, jsonschema.exceptions.best_match(errors)


def check_json(*args: str) -> dict:
    result = invoke("check", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


# -- the schema command and the packaging --------------------------------------------------------

@pytest.mark.parametrize("name", schemas.NAMES)
def test_schema_command_prints_the_published_schema(name: str) -> None:
    result = invoke("schema", name)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text())
    validator(name)


def test_schema_command_offers_every_schema_and_refuses_others() -> None:
    from xiangshe.verify import schema
    assert tuple(schema.params[0].type.choices) == schemas.NAMES
    assert sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json")) == \
        sorted(f"{n}.schema.json" for n in schemas.NAMES)
    result = invoke("schema", "trac")
    assert result.exit_code == 2 and "trace" in result.output


# -- check -------------------------------------------------------------------------------------

def test_check_json_of_the_canonical_ceremony_validates() -> None:
    doc = check_json()
    assert doc["traces"][0]["scoring"]            # the audit is there to be validated
    assert_valid("check", doc)


def test_check_json_of_every_violating_example_validates() -> None:
    doc = check_json(*(str(p.relative_to(ROOT)) for p in VIOLATIONS))
    assert len(doc["traces"]) == len(VIOLATIONS)
    assert all(t["violations"] for t in doc["traces"])
    assert_valid("check", doc)


def test_check_json_of_machine_and_audit_findings_validates(tmp_path: Path) -> None:
    from test_formats import MIXED
    (tmp_path / "mixed.trace").write_text(MIXED, encoding="utf-8")
    doc = check_json(str(tmp_path / "mixed.trace"))
    kinds = {v["rule"].split(".")[0] for v in doc["traces"][0]["violations"]}
    assert {"machine", "audit"} <= kinds and len(kinds) > 2     # and rules' findings
    assert any(v["line"] is None for v in doc["traces"][0]["violations"])
    assert_valid("check", doc)


@pytest.mark.parametrize("trace", [p for p in VIOLATIONS if "." in p.stem][:4] + VIOLATIONS[::40],
                         ids=lambda p: p.stem)
def test_check_json_of_a_violating_example_under_its_reading_validates(trace: Path) -> None:
    from test_cli import readings_for
    doc = check_json(str(trace.relative_to(ROOT)), *readings_for(trace))
    assert doc["traces"][0]["ok"] is False
    assert_valid("check", doc)


def test_check_json_with_scoring_and_several_files_validates() -> None:
    files = [str(CANONICAL.relative_to(ROOT)), str(VARIANTS[0].relative_to(ROOT)),
             "traces/violations/bu-guan-bu-shi.trace"]
    doc = check_json("--scoring", *files)
    assert [t["path"] for t in doc["traces"]] == files
    assert_valid("check", doc)


def test_check_schema_is_strict() -> None:
    doc = check_json("traces/violations/bu-guan-bu-shi.trace")
    v = validator("check")
    assert v.is_valid(doc)
    for mutate in (lambda d: d["traces"][0]["violations"][0].pop("source_line"),
                   lambda d: d["traces"][0].pop("ok"),
                   lambda d: d.pop("traces"),
                   lambda d: d["traces"][0]["violations"][0].__setitem__("line", "35"),
                   lambda d: d["traces"][0].__setitem__("events", -1),
                   lambda d: d["traces"][0]["scoring"][0]["arrows"][0].__setitem__("side", "右"),
                   lambda d: d["traces"][0]["violations"][0].__setitem__("extra", 1)):
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert not v.is_valid(bad)


# -- rules, coverage, counterexample -----------------------------------------------------------

def test_rules_json_validates_and_the_schema_is_strict() -> None:
    doc = json.loads(invoke("rules", "--format", "json").stdout)
    assert_valid("rules", doc)
    deferred = next(r for r in doc["rules"] if r["status"] != "encoded")
    deferred.pop("reason")                         # a rule not encoded must say why
    assert not validator("rules").is_valid(doc)


def test_coverage_json_validates() -> None:
    doc = json.loads(invoke("coverage", "--format", "json").stdout)
    assert_valid("coverage", doc)
    doc["percent_accounted"] = 101
    assert not validator("coverage").is_valid(doc)


@pytest.mark.parametrize(("depth", "found", "examples"), [("12", True, True), ("1", True, True),
                                                          ("1", False, False)])
def test_counterexample_json_validates(depth: str, found: bool, examples: bool,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """z3's shortest; a bundled example when z3 finds none up to the depth; nothing at all."""
    if not examples:
        monkeypatch.setattr("xiangshe.verify.VIOLATIONS", ROOT / "no-such-directory")
    result = invoke("counterexample", "bu-guan-bu-shi", "--depth", depth, "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["found"] is found
    assert doc.get("shortest") is (None if not found else depth == "12")
    assert_valid("counterexample", doc)
    doc.pop("trace" if found else "outcome")
    assert not validator("counterexample").is_valid(doc)


# -- the trace schema --------------------------------------------------------------------------

def test_committed_trace_schema_is_the_generated_one() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render(trace_schema()), \
        "schemas/trace.schema.json is stale: run python -m domain.schema --write"


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in to_jsonl(parse_file(path)).splitlines()]


@pytest.fixture(scope="module")
def trace_validator() -> jsonschema.protocols.Validator:
    return validator("trace")


@pytest.mark.parametrize("trace", [CANONICAL, *VARIANTS[:3]], ids=lambda p: p.stem)
def test_bundled_stagings_as_json_lines_records_validate(trace: Path, trace_validator) -> None:
    recs = records(trace)
    assert any("cast" in r for r in recs) and any("phase" in r for r in recs)
    errors = list(trace_validator.iter_errors(recs))
    assert not errors, jsonschema.exceptions.best_match(errors)


def test_every_violating_example_as_yaml_validates(trace_validator) -> None:
    for path in VIOLATIONS:
        text = yaml.safe_dump(records(path), allow_unicode=True)
        doc = yaml.safe_load(text)
        errors = list(trace_validator.iter_errors(doc))
        assert not errors, f"{path.name}: {jsonschema.exceptions.best_match(errors)}"
        assert len(parse_yaml(text, path.name)) == len(parse_file(path))   # the same trace


def test_a_hand_written_yaml_trace_with_bare_numbers_validates(trace_validator) -> None:
    text = """\
- {cast: 甲, role: 弟子}
- {cast: 乙, role: 弟子, rank: 士}
- {pair: 上耦, 上射: 甲, 下射: 乙}
- phase: Φ27
- {actor: 甲, act: 射, obj: 矢, arrow: 1, result: 中正, src: L134}
- {actor: 释获者, act: 释获, obj: 算12, for: 甲, arrow: 1, side: 右}
- {actor: 众宾2, act: 拜, to: 司马, n: 2}
- {actor: zhong-bin3, act: bow, to: host, n: 2, face: facing-north}
- {actor: zhu-ren, act: qu, obj: jue-2, at: shang-fei}
"""
    assert trace_validator.is_valid(yaml.safe_load(text))
    parse_yaml(text, "hand.yaml")                      # and xiangshe reads it


@pytest.mark.parametrize(("record", "why"), [
    ({"actor": "主人", "act": "献爵", "obj": "爵"}, "an unknown act"),
    ({"actor": "主人", "act": "取", "obj": "杯"}, "an unknown object"),
    ({"actor": "主人", "act": "取", "obj": "爵10"}, "an instance out of range"),
    ({"actor": "主人", "act": "取", "obj": "矢2"}, "a number on a personal object"),
    ({"actor": "主人", "act": "取", "obj": "爵", "at": "上筐"}, "an unknown place"),
    ({"actor": "弟子1", "act": "射", "obj": "矢", "result": "穿"}, "an unknown result"),
    ({"actor": "弟子1", "act": "射", "obj": "矢", "arrow": 5}, "a fifth arrow"),
    ({"actor": "主人", "act": "拜", "with": "宾"}, "an unknown key"),
    ({"actor": "主人", "act": "relase", "obj": "jue"}, "a misspelt alias"),
    ({"actor": "爵", "act": "拜"}, "an object as a person"),
    ({"act": "拜"}, "no actor"),
    ({"phase": "Φ53"}, "an unknown phase"),
    ({"cast": "甲", "role": "弟兄"}, "an unknown role"),
    ({"cast": "射", "role": "弟子"}, "an act as a name"),
    ({"pair": "上耦", "上射": "甲"}, "a pair without its 下射"),
])
def test_a_wrong_word_fails_validation(record: dict, why: str, trace_validator) -> None:
    assert not trace_validator.is_valid([record]), why


def test_completions_carry_gloss_and_slug() -> None:
    schema = schemas.load("trace")
    act = schema["definitions"]["event"]["properties"]["act"]
    i = act["enum"].index("释获")
    assert len(act["enumDescriptions"]) == len(act["enum"])
    assert "(shi-huo)" in act["enumDescriptions"][i]
