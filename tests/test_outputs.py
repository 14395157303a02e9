"""reports/outputs.py, called directly: each command's output in each of its formats."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.lint import lint
from xiangshe.constraints.rulebook import active_rules
from xiangshe.constraints.select import Selection
from xiangshe.domain.bundled import CANONICAL, VIOLATIONS
from xiangshe.domain.parse import parse_file
from xiangshe.reports.outputs import check_output, rulecheck_json, rulecheck_output

RULES = active_rules()


def _item(**kw):
    fields = ("check", "subject", "ok", "severity", "message", "location", "quote", "source_line")
    return SimpleNamespace(**{f: kw.get(f) for f in fields})


def test_rulecheck_json_has_the_verdict_the_readings_and_every_check_in_order() -> None:
    report = SimpleNamespace(
        ok=False, items=[_item(check="quotes", ok=True), _item(check="vacuity", ok=False)], only=None
    )
    doc = json.loads(rulecheck_json(report, {"guan": "zheng"}))
    assert list(doc) == ["ok", "readings", "checks"] and doc["ok"] is False
    assert [c["check"] for c in doc["checks"]] == ["quotes", "vacuity"]
    assert list(doc["checks"][0]) == [
        "check",
        "subject",
        "ok",
        "severity",
        "message",
        "location",
        "quote",
        "source_line",
    ]
    assert rulecheck_output(report, "json", {"guan": "zheng"}, False) == rulecheck_json(report, {"guan": "zheng"})
    report.only = ["bu-guan-bu-shi"]  # check-rules --rule: the rules it checked, after the readings
    assert list(json.loads(rulecheck_json(report, {}))) == ["ok", "readings", "rules", "checks"]


@pytest.fixture(scope="module")
def linted():
    traces = [parse_file(CANONICAL, "c.trace"), parse_file(VIOLATIONS / "bu-guan-bu-shi.trace", "v.trace")]
    return lint([check_trace(t, RULES) for t in traces], RULES, Selection())


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_check_output_in_every_format_names_both_traces(linted, fmt: str) -> None:
    out = check_output(fmt, linted.results, RULES, {}, linted)
    assert "v.trace" in out and ("c.trace" in out or fmt in ("github",))
    if fmt in ("json", "sarif"):
        json.loads(out)
    if fmt == "github":
        assert out.startswith("::error file=v.trace")
