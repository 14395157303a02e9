"""The published JSON Schemas (schemas/*.schema.json): the JSON that commands print validates against
them, they are strict enough to reject what they should, and the trace schema is what the
vocabulary generates and accepts every bundled trace.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from xiangshe import schemas
from xiangshe.domain import bundled
from xiangshe.domain.parse import parse_file, parse_yaml, to_jsonl
from xiangshe.domain.schema import SCHEMA_PATH, render, trace_schema
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
VIOLATIONS = sorted(bundled.VIOLATIONS.glob("*.trace"))
VARIANTS = bundled.variants()
CANONICAL = bundled.CANONICAL


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
    assert sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json")) == sorted(
        f"{n}.schema.json" for n in schemas.NAMES
    )
    result = invoke("schema", "trac")
    assert result.exit_code == 2 and "trace" in result.output


# -- check -------------------------------------------------------------------------------------


def test_check_json_of_the_canonical_ceremony_validates() -> None:
    doc = check_json()
    assert doc["traces"][0]["scoring"]  # the audit is there to be validated
    assert_valid("check", doc)


#: every violating example under -m slow; by default every 21st (deterministic, across every section)
EXAMPLES = [
    pytest.param(VIOLATIONS[::21], id="sample"),
    pytest.param(VIOLATIONS, id="all", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("examples", EXAMPLES)
def test_check_json_of_every_violating_example_validates(examples) -> None:
    doc = check_json(*(str(p.relative_to(ROOT)) for p in examples))
    assert len(doc["traces"]) == len(examples)
    assert all(t["violations"] for t in doc["traces"])
    assert_valid("check", doc)


def test_check_json_of_machine_and_audit_findings_validates(tmp_path: Path) -> None:
    from test_formats import MIXED

    (tmp_path / "mixed.trace").write_text(MIXED, encoding="utf-8")
    doc = check_json(str(tmp_path / "mixed.trace"))
    kinds = {v["rule"].split(".")[0] for v in doc["traces"][0]["violations"]}
    assert {"machine", "audit"} <= kinds and len(kinds) > 2  # and rules' findings
    assert any(v["line"] is None for v in doc["traces"][0]["violations"])
    assert_valid("check", doc)


@pytest.mark.parametrize("trace", [p for p in VIOLATIONS if "." in p.stem][:4] + VIOLATIONS[::40], ids=lambda p: p.stem)
def test_check_json_of_a_violating_example_under_its_reading_validates(trace: Path) -> None:
    from test_cli import readings_for

    doc = check_json(str(trace.relative_to(ROOT)), *readings_for(trace))
    assert doc["traces"][0]["ok"] is False
    assert_valid("check", doc)


def test_check_json_with_scoring_and_several_files_validates() -> None:
    files = [
        str(CANONICAL.relative_to(ROOT)),
        str(VARIANTS[0].relative_to(ROOT)),
        "traces/violations/bu-guan-bu-shi.trace",
    ]
    doc = check_json("--scoring", *files)
    assert [t["path"] for t in doc["traces"]] == files
    assert_valid("check", doc)


def test_check_json_under_a_selection_validates() -> None:
    """What a narrow --select does not make is null (the scoring audit, what is left open)."""
    doc = check_json(
        "--select", "bu-guan-bu-shi", str(CANONICAL.relative_to(ROOT)), "traces/violations/bu-guan-bu-shi.trace"
    )
    assert all(t["scoring"] is None and t["scope"]["open"] is None for t in doc["traces"])
    assert_valid("check", doc)
    doc = check_json("--select", "audit,scope.open", str(CANONICAL.relative_to(ROOT)))
    assert doc["traces"][0]["scoring"] and doc["traces"][0]["scope"]["open"] == []
    assert_valid("check", doc)


def test_check_schema_is_strict() -> None:
    doc = check_json("traces/violations/bu-guan-bu-shi.trace")
    v = validator("check")
    assert v.is_valid(doc)
    for mutate in (
        lambda d: d["traces"][0]["violations"][0].pop("source_line"),
        lambda d: d["traces"][0].pop("ok"),
        lambda d: d.pop("traces"),
        lambda d: d["traces"][0]["violations"][0].__setitem__("line", "35"),
        lambda d: d["traces"][0].__setitem__("events", -1),
        lambda d: d["traces"][0]["scoring"][0]["arrows"][0].__setitem__("side", "右"),
        lambda d: d["traces"][0]["violations"][0].__setitem__("extra", 1),
    ):
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert not v.is_valid(bad)


# -- rules, coverage, counterexample -----------------------------------------------------------


def test_rules_json_validates_and_the_schema_is_strict() -> None:
    doc = json.loads(invoke("rules", "--format", "json").stdout)
    assert_valid("rules", doc)
    deferred = next(r for r in doc["rules"] if r["status"] != "encoded")
    deferred.pop("reason")  # a rule not encoded must say why
    assert not validator("rules").is_valid(doc)


def test_coverage_json_validates() -> None:
    doc = json.loads(invoke("coverage", "--format", "json").stdout)
    assert_valid("coverage", doc)
    doc["percent_accounted"] = 101
    assert not validator("coverage").is_valid(doc)


@pytest.mark.z3
@pytest.mark.parametrize(("depth", "found", "examples"), [("12", True, True), ("1", True, True), ("1", False, False)])
def test_counterexample_json_validates(
    depth: str, found: bool, examples: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """z3's shortest; a bundled example when z3 finds none up to the depth; nothing at all."""
    if not examples:
        monkeypatch.setattr("xiangshe.domain.bundled.VIOLATIONS", ROOT / "no-such-directory")
    result = invoke("counterexample", "bu-guan-bu-shi", "--depth", depth, "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["found"] is found
    assert doc.get("shortest") is (None if not found else depth == "12")
    assert_valid("counterexample", doc)
    doc.pop("trace" if found else "outcome")
    assert not validator("counterexample").is_valid(doc)


# -- the trace schema --------------------------------------------------------------------------


def test_committed_trace_schema_is_the_generated_one() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render(trace_schema()), (
        "schemas/trace.schema.json is stale: run python -m xiangshe.domain.schema --write"
    )


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in to_jsonl(parse_file(path)).splitlines()]


@pytest.fixture(scope="module")
def trace_validator() -> jsonschema.protocols.Validator:
    return validator("trace")


@pytest.mark.parametrize(
    "trace",
    [CANONICAL, VARIANTS[0], *(pytest.param(v, marks=pytest.mark.slow) for v in VARIANTS[1:])],
    ids=lambda p: p.stem,
)
def test_bundled_stagings_as_json_lines_records_validate(trace: Path, trace_validator) -> None:
    recs = records(trace)
    assert any("cast" in r for r in recs) and any("phase" in r for r in recs)
    errors = list(trace_validator.iter_errors(recs))
    assert not errors, jsonschema.exceptions.best_match(errors)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_every_violating_example_as_yaml_validates(trace_validator, examples) -> None:
    for path in examples:
        text = yaml.safe_dump(records(path), allow_unicode=True)
        doc = yaml.safe_load(text)
        errors = list(trace_validator.iter_errors(doc))
        assert not errors, f"{path.name}: {jsonschema.exceptions.best_match(errors)}"
        assert len(parse_yaml(text, path.name)) == len(parse_file(path))  # the same trace


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
    parse_yaml(text, "hand.yaml")  # and xiangshe reads it


@pytest.mark.parametrize(
    ("record", "why"),
    [
        ({"actor": "主人", "act": "献爵", "obj": "爵"}, "an unknown act"),
        ({"actor": "主人", "act": "取", "obj": "杯"}, "an unknown object"),
        ({"actor": "主人", "act": "取", "obj": "爵10000"}, "an instance out of range"),
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
    ],
)
def test_a_wrong_word_fails_validation(record: dict, why: str, trace_validator) -> None:
    assert not trace_validator.is_valid([record]), why


def test_completions_carry_gloss_and_slug() -> None:
    schema = schemas.load("trace")
    act = schema["definitions"]["event"]["properties"]["act"]
    i = act["enum"].index("释获")
    assert len(act["enumDescriptions"]) == len(act["enum"])
    assert "(shi-huo)" in act["enumDescriptions"][i]


# -- the schemas as other tools read them: ECMA-262 regexes, check-jsonschema ---------------------


def _patterns(node, where: str = "#"):
    """Every regex of a schema: `pattern` values and `patternProperties` keys, with where they are."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield f"{where}/pattern", value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from ((f"{where}/patternProperties", k) for k in value)
            yield from _patterns(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _patterns(value, f"{where}/{i}")


def test_every_regex_of_every_schema_is_ecma_262_unicode() -> None:
    """JSON Schema regexes are ECMA-262 with the `u` flag, where `\\-` outside a class is a syntax
    error (Python's re.escape writes it): check-jsonschema, editors and JS validators refuse it."""
    import regress  # check-jsonschema's ECMA-262 engine (the test extra)

    found = 0
    for path in sorted((ROOT / "schemas").glob("*.schema.json")):
        for where, pattern in _patterns(json.loads(path.read_text(encoding="utf-8"))):
            found += 1
            try:
                regress.Regex(pattern, "u")
            except regress.RegressError as err:
                pytest.fail(f"{path.name} {where}: {pattern!r} is not ECMA-262 unicode: {err}")
    assert found >= 10


def test_the_unicode_regex_check_refuses_what_re_escape_writes() -> None:
    import re

    import regress  # check-jsonschema's ECMA-262 engine (the test extra)

    with pytest.raises(regress.RegressError):
        regress.Regex(f"^{re.escape('zhu-ren')}$", "u")
    from xiangshe.domain.schema import ecma_escape

    for word in ("zhu-ren", "a.b(c)|d", "乡射 #1"):
        pattern = f"^{ecma_escape(word)}$"
        regress.Regex(pattern, "u")
        assert re.fullmatch(pattern, word)


def check_jsonschema(*args: str) -> subprocess.CompletedProcess:
    exe = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or shutil.which("check-jsonschema")
    assert exe, "check-jsonschema is not installed: pip install -e '.[test]'"
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


def test_check_jsonschema_in_its_default_mode_accepts_bundled_traces(tmp_path: Path) -> None:
    """What docs/ci-example.yml runs: the schema as `xiangshe schema trace` prints it, bundled traces
    as YAML and as a JSON array, check-jsonschema's default (ECMA-262 unicode) regexes."""
    schema = tmp_path / "trace.schema.json"
    schema.write_text(invoke("schema", "trace").stdout, encoding="utf-8")
    docs = []
    for path in VIOLATIONS[:4]:
        recs = records(path)
        doc = tmp_path / f"{path.stem}.yaml"
        doc.write_text(yaml.safe_dump(recs, allow_unicode=True), encoding="utf-8")
        docs.append(doc)
    (tmp_path / "as-json.json").write_text(json.dumps(records(VIOLATIONS[4]), ensure_ascii=False), encoding="utf-8")
    docs.append(tmp_path / "as-json.json")
    ok = check_jsonschema("--schemafile", str(schema), *map(str, docs))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {actor: zhu-ren, act: 献爵, obj: jue-2}\n", encoding="utf-8")
    refused = check_jsonschema("--schemafile", str(schema), str(bad))
    assert refused.returncode == 1 and "bad.yaml" in refused.stdout + refused.stderr


# -- explain, query, check-rules: every command with --format json has its schema ----------------


def test_every_command_with_json_output_has_a_schema() -> None:
    import click

    with_json = sorted(
        name
        for name, cmd in cli.commands.items()
        for p in cmd.params
        if p.name == "fmt" and isinstance(p.type, click.Choice) and "json" in p.type.choices
    )
    assert {"check", "rules", "explain", "coverage", "counterexample", "query", "check-rules"} <= set(with_json)
    assert set(with_json) <= set(schemas.NAMES), set(with_json) - set(schemas.NAMES)


def test_explain_schema_describes_rules_as_the_rules_schema_does() -> None:
    explained = schemas.load("explain")["$defs"]
    listed = schemas.load("rules")["$defs"]
    rule = dict(listed["rule"])
    rule.pop("additionalProperties")
    assert explained["rule"] == rule and explained["quote"] == listed["quote"]


@pytest.mark.parametrize(
    "word",
    [
        "R120",
        "R108",
        "wu-jie",
        "dian-jue-er-ci",
        "shang-she-tui-yu-wu-yi-gan",
        "fan-dian-zhe-yu-zuo-jiang-ju-zhe-yu-you",
    ],
)
def test_explain_json_of_rules_validates(word: str) -> None:
    doc = json.loads(invoke("explain", word, "--format", "json").stdout)
    assert_valid("explain", doc)


@pytest.mark.parametrize("word", ["machine.jue", "machine.she-zhe", "machine.si-she", "audit.r132", "audit.n08"])
def test_explain_json_of_machines_and_audit_checks_validates(word: str) -> None:
    doc = json.loads(invoke("explain", word, "--format", "json").stdout)
    assert_valid("explain", doc)


def test_explain_schema_is_strict() -> None:
    v = validator("explain")
    doc = json.loads(invoke("explain", "不贯不释", "--format", "json").stdout)
    assert v.is_valid(doc)
    for mutate in (
        lambda d: d["rules"][0].pop("examples"),
        lambda d: d["rules"][0].__setitem__("extra", 1),
        lambda d: d["rules"][0]["examples"]["failing"].pop("window"),
        lambda d: d["rules"][0]["contested"][0]["options"][0].pop("encoded"),
        lambda d: d.__setitem__("machines", []),
        lambda d: d.pop("rules"),
    ):
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert not v.is_valid(bad)
    machine = json.loads(invoke("explain", "machine.jue", "--format", "json").stdout)
    machine["machines"][0]["edges"][0].pop("quote")
    assert not v.is_valid(machine)


QUERIES = [
    ("absence", "--pattern", "司射 升 * actor.司射=袒·搢扑", "--depth", "3"),
    ("precedence", "--first", "* 洗 爵|觯", "--then", "* 实 爵|觯", "--same", "obj", "--depth", "4"),
    ("at_most", "--pattern", "主人 献 爵", "-n", "40", "--depth", "2"),
]


@pytest.mark.z3
@pytest.mark.parametrize("args", QUERIES, ids=lambda a: a[0])
def test_query_json_validates(args: tuple[str, ...]) -> None:
    result = invoke("query", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    assert doc["holds"] is (result.exit_code == 0)
    assert doc["property"]["kind"] == args[0]  # the property asked, as given
    assert_valid("query", doc)
    if not doc["holds"]:
        doc.pop("counterexample")
        assert not validator("query").is_valid(doc)


def test_query_json_when_the_solver_gives_up_validates(monkeypatch: pytest.MonkeyPatch) -> None:
    from xiangshe.constraints import search

    monkeypatch.setattr(search, "refute", lambda *_a, **_k: search.Unknown("timeout", 3))
    result = invoke("query", *QUERIES[0], "--format", "json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert doc["holds"] is None and doc["outcome"] == "unknown: timeout"
    assert_valid("query", doc)
    doc.pop("outcome")
    assert not validator("query").is_valid(doc)


@pytest.mark.z3
@pytest.mark.xdist_group("check-rules")
def test_check_rules_json_validates_and_the_schema_is_strict(rulecheck_report) -> None:
    from xiangshe.constraints.readings import defaults
    from xiangshe.reports.outputs import rulecheck_output

    doc = json.loads(rulecheck_output(rulecheck_report, "json", defaults(), False))
    assert {c["check"] for c in doc["checks"]} == {"quotes", "machines", "vacuity", "consistency", "redundancy"}
    assert_valid("check-rules", doc)
    v = validator("check-rules")
    for mutate in (
        lambda d: d["checks"][0].pop("location"),
        lambda d: d["checks"][0].__setitem__("severity", "fatal"),
        lambda d: d["checks"][0].__setitem__("check", "spelling"),
        lambda d: d.pop("ok"),
        lambda d: d.__setitem__("rules", []),
    ):
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert not v.is_valid(bad)
