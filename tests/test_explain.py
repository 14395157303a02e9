"""`explain RULE`: the rule, its quotes in context, the contested readings that concern it, and a
passing and a failing example (windows of bundled traces). Golden outputs: tests/golden/explain-*.out
(`pytest tests/test_explain.py --update-golden` rewrites them).
"""

from __future__ import annotations

import json
from pathlib import Path

import checked
import pytest
from click.testing import CliRunner
from sampling import rule_params

from xiangshe.constraints.explain import explain, readings_of
from xiangshe.constraints.rulebook import find_rule, rulebook
from xiangshe.domain import bundled
from xiangshe.fsm.table import tables
from xiangshe.reports.render import explain_text
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
VIOLATIONS = bundled.VIOLATIONS
ENCODED = [r for r in rulebook() if r.encoded]
STAGINGS = bundled.stagings()


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


#: a reading by default and its alternative, a pair rule, a cast rule without a line, a deferred
#: rule, and a rule of the 君 whose passing example comes from another rule's violating example
GOLDEN_CASES = [
    ("explain", "不贯不释"),
    ("explain", "bu-guan-bu-shi-hou"),
    ("explain", "R108"),
    ("explain", "wu-jie"),
    ("explain", "dian-jue-er-ci"),
    ("explain", "shang-she-tui-yu-wu-yi-gan"),
    ("explain", "R120", "--format", "json"),
]


def golden_name(args: tuple[str, ...]) -> str:
    return "explain-" + "-".join(a.lstrip("-") for a in args[1:]).replace("format-", "") + ".out"


@pytest.mark.parametrize("args", GOLDEN_CASES, ids=lambda a: "-".join(a[1:]))
def test_explain_golden(args: tuple[str, ...], update_golden: bool) -> None:
    result = invoke(*args)
    actual = f"$ xiangshe {' '.join(args)}\n{result.output}[exit {result.exit_code}]\n"
    golden = GOLDEN / golden_name(args)
    if update_golden:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden output {golden.name}: run pytest --update-golden"
    assert actual == golden.read_text(encoding="utf-8")


def test_explain_shows_the_contested_readings_of_the_rule() -> None:
    out = invoke("explain", "bu-guan-bu-shi-hou").output
    assert "contested readings:" in out and "guan  What is a 贯" in out
    assert "▸ hou" in out and "郑玄注" in out and "[default]" in out  # zheng (郑注) is the default
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


@pytest.mark.xdist_group("bundled-checks")  # the passing examples' checks are shared (tests/checked.py)
@pytest.mark.parametrize("rule", rule_params(ENCODED, inner_per_kind=1))
def test_examples_pass_and_fail_the_rule_they_illustrate(rule) -> None:
    """A few rules of each template kind by default; every encoded rule under -m slow; the inner
    loop one rule of each kind and every rule with a contested reading (tests/sampling.py)."""
    x = explain(rule, VIOLATIONS, STAGINGS, ROOT)
    readings = readings_of(rule)
    assert x.failing is not None, "every encoded rule has a violating example"
    assert x.failing.finding.rule == rule.id
    assert x.failing.line is None or x.failing.line in dict(x.failing.window)
    if x.passing is None:  # a rule no bundled staging triggers (the 君's, R207 …): said so
        assert "passing example  none:" in explain_text(x)
        return
    trace = checked.parsed(x.passing.path)
    found = checked.checked(x.passing.path, readings).findings
    assert not [f for f in found if f.rule == rule.id], "the passing example keeps the rule"
    if x.passing.line is not None:  # the line shown is one the rule speaks of
        text = trace.line_text(x.passing.line)
        pats = rule.template.patterns()
        assert (
            not pats or any(p.acts is None or any(a in text for a in p.acts) for p in pats) or text.startswith("pair")
        )


def test_a_rule_without_a_violating_example_says_so(tmp_path: Path) -> None:
    rule = find_rule("bu-guan-bu-shi")[0]
    x = explain(rule, tmp_path, STAGINGS, bundled.ROOT)  # an empty directory of violations
    assert x.failing is None and x.failing_files == ()
    text = explain_text(x)
    assert "failing example  no violating example is bundled for this rule" in text
    assert "passing example  traces/canonical.trace:" in text


def test_a_rule_no_staging_triggers_says_so(tmp_path: Path) -> None:
    # every rule is triggered by a bundled staging now (the ruler's in traces/variants/yan-she.trace):
    # explain it against none, with no keeping examples (a root without traces/keeps/)
    rule = find_rule("jun-yue-zuo-er-hou-jiu-wu")[0]
    violations = tmp_path / "traces" / "violations"
    violations.mkdir(parents=True)
    name = f"{rule.id}.trace"
    (violations / name).write_text((VIOLATIONS / name).read_text(encoding="utf-8"), encoding="utf-8")
    x = explain(rule, violations, [], tmp_path)
    assert x.passing is None
    assert "passing example  none: no bundled staging triggers the rule and keeps it" in explain_text(x)


# -- what explain accepts: any script and case, machine and audit ids --------------------------------


@pytest.mark.parametrize(
    "word",
    [
        "不贯不释",
        "不貫不釋",
        "bu-guan-bu-shi",
        "BU-GUAN-BU-SHI",
        "Bu-Guan-Bu-Shi",
        " bu-guan-bu-shi ",
        "R120",
        "r120",
        "Ｒ１２０",
    ],
)
def test_explain_accepts_any_script_and_case(word: str) -> None:
    result = invoke("explain", word)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("不贯不释  (bu-guan-bu-shi, R120)")


@pytest.mark.parametrize("table", tables(), ids=lambda t: t.slug)
def test_explain_a_machine_by_the_id_its_findings_carry(table) -> None:
    """A finding of a machine is `machine.<slug>`: explain shows the table, every state, every edge
    (where it is defined) and the quote of every edge in context."""
    for word in (f"machine.{table.slug}", f"MACHINE.{table.slug.upper()}", f"machine.{table.name}"):
        result = invoke("explain", word)
        assert result.exit_code == 0, result.output
        out = result.output
        assert out.startswith(f"{table.name}  (machine.{table.slug})")
        for state in table.states:
            assert f"\n    {state}" in out, state
        for e in table.edges:
            assert f"{table.path}:{e.defined_at}" in out and f"【{e.cite.quote}】" in out
            assert e.act in out and e.source in out and e.dest in out
    doc = json.loads(invoke("explain", f"machine.{table.slug}", "--format", "json").stdout)
    m = doc["machines"][0]
    assert m["id"] == f"machine.{table.slug}" and [s["state"] for s in m["states"]] == list(table.states)
    assert [(e["act"], e["from"], e["to"]) for e in m["edges"]] == [(e.act, e.source, e.dest) for e in table.edges]


def test_explain_a_machine_finding_of_a_real_check(tmp_path: Path) -> None:
    from test_formats import MIXED

    (tmp_path / "mixed.trace").write_text(MIXED, encoding="utf-8")
    found = json.loads(invoke("check", "--format", "json", str(tmp_path / "mixed.trace")).stdout)
    ids = {v["rule"] for v in found["traces"][0]["violations"]}
    assert any(i.startswith("machine.") for i in ids) and any(i.startswith("audit.") for i in ids)
    for rid in ids:  # every id a finding carries is explained
        result = invoke("explain", rid)
        assert result.exit_code == 0 and f"{rid}" in result.output.splitlines()[0], rid


@pytest.mark.parametrize("word", ["audit.r132", "AUDIT.R132", "audit.n01", "N01", "n08", "audit.N06"])
def test_explain_an_audit_check(word: str) -> None:
    from xiangshe.constraints.scoring import AUDIT_CHECKS, audit_name

    result = invoke("explain", word)
    assert result.exit_code == 0, result.output
    catalogue = word.split(".")[-1].upper()
    what, quote = next((w, q) for c, w, q in AUDIT_CHECKS if c == catalogue)
    assert result.output.startswith(f"{audit_name(catalogue)}  (audit.{catalogue.lower()}, {catalogue})")
    assert what in result.output and f"【{quote}】" in result.output
    doc = json.loads(invoke("explain", word, "--format", "json").stdout)
    assert doc["audits"][0]["quotes"][0]["text"] == quote


#: (what is typed, what the did-you-mean must offer)
UNKNOWN = [
    ("不贯不放", "不贯不释"),
    ("不貫不放", "不贯不释"),
    ("bu-guan-bu-sh", "bu-guan-bu-shi"),
    ("BU-GUAN-BU-SH", "bu-guan-bu-shi"),
    ("R999", "R"),
    ("machine.jeu", "machine.jue"),
    ("machine.nothing", "machine."),
    ("jue", "machine.jue"),
    ("爵", "machine.jue"),
    ("audit.r133", "audit.r132"),
    ("audit.", "audit."),
    ("", ""),
]


@pytest.mark.parametrize(("word", "offered"), UNKNOWN)
def test_explain_unknown_word_exits_2_with_did_you_mean(word: str, offered: str) -> None:
    result = invoke("explain", word)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: no rule, machine or audit check {word}; "), result.output
    assert "Traceback" not in result.output
    assert ("did you mean" in result.output or "known:" in result.output) and offered in result.output
