"""`explain RULE`: the rule, its quotes in context, the contested readings that concern it, and a
passing and a failing example (windows of bundled traces). Golden outputs: tests/golden/explain-*.out
(`pytest tests/test_explain.py --update-golden` rewrites them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.explain import explain, readings_of
from xiangshe.constraints.rulebook import active_rules, find_rule, rulebook
from xiangshe.domain.parse import parse_file
from xiangshe.reports.render import explain_text
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
VIOLATIONS = ROOT / "traces" / "violations"
STAGINGS = [ROOT / "traces" / "canonical.trace", *sorted((ROOT / "traces" / "variants").glob("*.trace"))]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


#: a reading by default and its alternative, a pair rule, a cast rule without a line, a deferred
#: rule, and a rule of the 君 whose passing example comes from another rule's violating example
GOLDEN_CASES = [("explain", "不贯不释"), ("explain", "bu-guan-bu-shi-hou"), ("explain", "R108"),
                ("explain", "wu-jie"), ("explain", "dian-jue-er-ci"),
                ("explain", "shang-she-tui-yu-wu-yi-gan"), ("explain", "R120", "--format", "json")]


@pytest.mark.parametrize("args", GOLDEN_CASES, ids=lambda a: "-".join(a[1:]))
def test_explain_golden(args: tuple[str, ...], update_golden: bool) -> None:
    result = invoke(*args)
    actual = f"$ xiangshe {' '.join(args)}\n{result.output}[exit {result.exit_code}]\n"
    name = "explain-" + "-".join(a.lstrip("-") for a in args[1:]).replace("format-", "") + ".out"
    golden = GOLDEN / name
    if update_golden:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden output {golden.name}: run pytest --update-golden"
    assert actual == golden.read_text(encoding="utf-8")


def test_explain_shows_the_contested_readings_of_the_rule() -> None:
    out = invoke("explain", "bu-guan-bu-shi-hou").output
    assert "contested readings:" in out and "guan  What is a 贯" in out
    assert "▸ hou" in out and "郑玄注" in out and "[default]" in out       # zheng (郑注) is the default
    assert "敖继公" in out and "encoder's own" in out
    assert "not checkable: a trace does not record how far a bow was drawn" in out
    plain = invoke("explain", "da-fu-yu-shi-wei-ou").output
    assert "contested readings" not in plain


def test_explain_json_carries_examples_and_readings() -> None:
    doc = json.loads(invoke("explain", "不贯不释", "--format", "json").stdout)
    rule = doc["rules"][0]
    assert [c["point"] for c in rule["contested"]] == ["guan"]
    assert rule["contested"][0]["follows"] == "zheng"
    failing, passing = rule["examples"]["failing"], rule["examples"]["passing"]
    assert failing["path"] == "traces/violations/bu-guan-bu-shi.trace"
    assert failing["finding"]["rule"] == "bu-guan-bu-shi"
    assert failing["line"] in [w["line"] for w in failing["window"]]
    assert passing["path"] == "traces/canonical.trace"
    assert "释获" in next(w["text"] for w in passing["window"] if w["line"] == passing["line"])


@pytest.mark.parametrize("rule", [r for r in rulebook() if r.encoded][::6], ids=lambda r: r.id)
def test_examples_pass_and_fail_the_rule_they_illustrate(rule) -> None:
    x = explain(rule, VIOLATIONS, STAGINGS, ROOT)
    readings = readings_of(rule)
    assert x.failing is not None, "every encoded rule has a violating example"
    assert x.failing.finding.rule == rule.id
    assert x.failing.line is None or x.failing.line in dict(x.failing.window)
    assert x.passing is not None
    trace = parse_file(ROOT / x.passing.path, x.passing.path)
    found = check_trace(trace, active_rules(readings), readings).findings
    assert not [f for f in found if f.rule == rule.id], "the passing example keeps the rule"
    if x.passing.line is not None:         # the line shown is one the rule speaks of
        text = trace.line_text(x.passing.line)
        pats = rule.template.patterns()
        assert not pats or any(a in text for p in pats for a in (p.acts or ())) \
            or text.startswith("pair")


def test_a_rule_without_a_violating_example_says_so(tmp_path: Path) -> None:
    rule = find_rule("bu-guan-bu-shi")[0]
    x = explain(rule, tmp_path, STAGINGS, ROOT)         # an empty directory of violations
    assert x.failing is None and x.failing_files == ()
    text = explain_text(x)
    assert "failing example  no violating example is bundled for this rule" in text
    assert "passing example  traces/canonical.trace:" in text


def test_a_rule_no_staging_triggers_says_so(tmp_path: Path) -> None:
    rule = find_rule("jun-yue-zuo-er-hou-jiu-wu")[0]
    x = explain(rule, VIOLATIONS, STAGINGS, ROOT)
    assert x.passing is None
    assert "passing example  none: no bundled staging triggers the rule and keeps it" in explain_text(x)
