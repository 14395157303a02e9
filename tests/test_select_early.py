"""`check --select`/`--ignore` do only the work the checks they apply read (constraints/check.py
`applied`, reports/batch.py): what is reported of those checks must be what checking everything and
dropping the other findings afterwards reports — the findings kept, the suppressed ones, the unused
suppressions (of selected checks only), the checks not applied. What the report then covers less is
said, not hidden: the scope lists the rules applied (and a fragment's pending obligations of those),
what is left open is null unless `scope.open` is applied, and the scoring audit is null unless an
`audit.*` check is. A rule that reads a machine's state still has the replay it reads.

The stagings are parsed once and checked in full once per module (the early checks are made for
each selection). The inner loop (`-m "not z3 and not browser"`) compares each selection on the
canonical ceremony and on the violating example of the first rule of each template kind (every
template's code under every selection); the default run adds a deterministic draw of 40 violating
examples (`wide`)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from sampling import first_of_each_kind

from xiangshe.constraints.check import NOT_REPLAYED, Result, check_trace
from xiangshe.constraints.gates import plan
from xiangshe.constraints.lint import apply
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import active_rules
from xiangshe.constraints.select import Selection, in_force, terms
from xiangshe.domain.parse import parse_file, parse_lines
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay
from xiangshe.reports import render
from xiangshe.reports.tally import Tally

ROOT = Path(__file__).resolve().parents[1]
RULES = active_rules()
VIOLATIONS = sorted((ROOT / "traces" / "violations").glob("*.trace"))
#: the violating examples of the first rule of each template kind
OF_EACH_KIND = [ROOT / "traces" / "violations" / f"{r.id}.trace" for r in first_of_each_kind(RULES)]


@cache
def parsed(path: Path) -> Trace:
    """The staging at `path`, parsed once (read it, do not change it)."""
    return parse_file(path, path.name)


@cache
def checked_in_full(path: Path) -> Result:
    """The staging at `path` checked against every rule in force, once."""
    return check_trace(parsed(path), RULES)


def _suppressed(path: Path, suppress: tuple[tuple[int, str], ...]):
    """The staging at `path`, with `# xiangshe: ignore[TERMS] …` written at the given lines."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for n, words in suppress:
        lines[n - 1] = lines[n - 1].split("#")[0] + f"   # xiangshe: ignore[{words}] a reason"
    return parse_lines("\n".join(lines), path.name)


def _applied(trace, selection: Selection) -> frozenset[str]:
    return frozenset(selection.applied(in_force(RULES))) - selection.ignored_in(trace.path)


def _both(trace, selection: Selection, full: Result | None = None) -> tuple[dict, dict]:
    """The JSON of one staging checked with the selection applied early, and what checking
    everything (`full`, unless it is to be made here) then dropping what is not applied reports,
    narrowed as the early check says less."""
    ids = in_force(RULES)
    applied = _applied(trace, selection)
    late = apply([full or check_trace(trace, RULES)], selection, ids).results[0]
    early = apply([check_trace(trace, RULES, None, applied)], selection, ids).results[0]
    return _narrowed(render.trace_json(late), applied), render.trace_json(early)


def _narrowed(doc: dict, applied: frozenset[str]) -> dict:
    """What the full check's JSON says, narrowed to what a check of `applied` covers."""
    doc = dict(doc)
    if not any(i.startswith("audit.") for i in applied):
        doc["scoring"] = None
    s = doc["scope"] = dict(doc["scope"])
    for k in ("rules_throughout", "rules_reached", "rules_not_reached"):
        s[k] = [r for r in s[k] if r in applied]
    s["pending"] = [p for p in s["pending"] if p["rule"] in applied]
    if "scope.open" not in applied:
        s["open"] = None
    return doc


def _selection(select: str | None, ignore: str | None = None) -> Selection:
    return Selection(
        terms([select], "--select") if select else None,
        terms([ignore], "--ignore") if ignore else (),
    )


SELECTIONS = [
    ("bu-guan-bu-shi", None),
    ("zu-jue-yu-jie-shang,si-ma-sheng-shi", None),  # rules that read a machine's state
    ("machine.jue", None),
    ("audit.r132", None),
    ("scope.open", None),
    (None, "machine,audit"),
    ("ordering", None),
    ("machine,audit", None),
    ("rule", "R120"),
    (None, "rule"),
    ("suppression,bin-li-ci-xu,R1", None),
]


STAGINGS = {
    "of-each-kind": [ROOT / "traces" / "canonical.trace", *OF_EACH_KIND],
    "drawn": random.Random(15).sample(VIOLATIONS, 40),
}


@pytest.mark.parametrize("stagings", ["of-each-kind", pytest.param("drawn", marks=pytest.mark.wide)])
@pytest.mark.parametrize(("select", "ignore"), SELECTIONS)
def test_the_canonical_and_sampled_violations_report_alike(
    select: str | None, ignore: str | None, stagings: str
) -> None:
    selection = _selection(select, ignore)
    for path in STAGINGS[stagings]:
        late, early = _both(parsed(path), selection, checked_in_full(path))
        assert early == late, path.name


@pytest.mark.parametrize(
    ("select", "ignore"),
    [
        ("machine.shi", None),
        ("machine", None),
        ("audit", None),
        ("audit.r132", None),
        ("scope", None),
        ("bu-guan-bu-shi,machine.suan", None),
        (None, "machine"),
        (None, "audit"),
        (None, "rule"),
    ],
)
def test_machine_audit_and_scope_findings_selected_or_not(select: str | None, ignore: str | None) -> None:
    """A staging with machine refusals, scoring audit findings, scope findings and rule findings:
    whichever of them is selected (or ignored), the findings kept are those of the full check."""
    from test_formats import MIXED

    trace = parse_lines(MIXED, "mixed.trace")
    kinds = {f.rule.split(".")[0] for f in check_trace(trace, RULES).findings}
    assert {"machine", "audit", "scope"} <= kinds and len(kinds) > 3  # and rules'
    late, early = _both(trace, _selection(select, ignore))
    assert early == late
    assert early["violations"]


def test_a_fragment_lists_the_pending_of_the_rules_selected_only() -> None:
    """A response rule's obligation left open at a fragment's end is listed in the scope when the
    rule is selected (alone), and not when nothing but the machines is."""
    seen = 0
    for path in VIOLATIONS:
        trace = parsed(path)
        if trace.fragment is None:
            continue
        full = checked_in_full(path)
        if full.scope is None or not full.scope.pending:
            continue
        pending = {p.rule for p in full.scope.pending}
        for rule in sorted(pending):
            late, early = _both(trace, _selection(rule), full)
            assert early == late, path.name
            assert {p["rule"] for p in early["scope"]["pending"]} == {rule}
        late, early = _both(trace, _selection("machine"), full)  # no rule selected at all
        assert early == late, path.name
        assert early["scope"]["pending"] == [] and early["scope"]["rules_reached"] == []
        seen += 1
        if seen == 5:
            break
    assert seen, "no violation staging leaves a response rule pending"


def test_a_rule_that_reads_a_state_selected_alone_finds_what_it_finds_in_the_full_check() -> None:
    """Each rule whose patterns read a machine's state (`obj.state`, `actor.<machine>`), selected
    alone on its own violation staging: its findings are those of the full check — the replay it
    reads was made, though no machine is selected."""
    readers = plan(RULES).read_machines
    assert readers, "no rule in force reads a machine's state"
    checked = 0
    for path in VIOLATIONS:
        rule = path.stem
        if rule not in readers:
            continue
        want = [f for f in checked_in_full(path).findings if f.rule == rule]
        got = check_trace(parsed(path), RULES, None, frozenset({rule})).findings
        assert list(got) == want and want, rule
        checked += 1
    assert checked >= 10


BLIND_STAGINGS = {
    "of-each-kind": [ROOT / "traces" / "canonical.trace", *OF_EACH_KIND],
    "variants-and-drawn": [
        *sorted((ROOT / "traces" / "variants").glob("*.trace")),
        *random.Random(16).sample(VIOLATIONS, 30),
    ],
}


@pytest.mark.parametrize("stagings", ["of-each-kind", pytest.param("variants-and-drawn", marks=pytest.mark.wide)])
def test_a_rule_said_to_read_no_state_reads_none(stagings: str) -> None:
    """`Template.reads_machines` is exact for the rules in force: one it says reads no state finds
    the same without the replay (NOT_REPLAYED, whose empty records any read would fail on) on the
    canonical ceremony and the violating example of the first rule of each template kind (the inner
    loop), and on the variants and a draw of 30 violation stagings (the default run)."""
    readers = plan(RULES).read_machines
    blind = [r for r in RULES if r.encoded and r.id not in readers]
    for path in BLIND_STAGINGS[stagings]:
        trace = parsed(path)
        seeing, unseeing = Context(trace, replay(trace)), Context(trace, NOT_REPLAYED)
        for r in blind:
            assert r.template.holds(unseeing) == r.template.holds(seeing), (path.name, r.id)


def test_what_is_not_made_is_said_not_hidden() -> None:
    """Under a selection without the audit and scope.open: no scoring (null), what is left open not
    looked at (null; the text says so), the rules counted are the ones applied; without a
    selection, all of it as before."""
    path = ROOT / "traces" / "canonical.trace"
    trace = parse_file(path, path.name)
    full = check_trace(trace, RULES)
    one = check_trace(trace, RULES, None, frozenset({"bu-guan-bu-shi"}))
    assert full.scoring and one.scoring is None
    assert full.scope is not None and one.scope is not None
    assert full.scope.open == () and one.scope.open is None
    assert one.scope.reached == ("bu-guan-bu-shi",) and one.scope.throughout == () and one.scope.narrowed
    assert not full.scope.narrowed and len(full.scope.reached) > 1
    doc = render.trace_json(one)
    assert doc["scoring"] is None and doc["scope"]["open"] is None
    text = render.scope_text(Tally.of([one]))[0]
    assert "rules applied: 0 checked throughout, 1 of 1 triggered" in text and "not looked at" in text
    text = render.scope_text(Tally.of([full]))[0]
    assert "rules in force:" in text and "nothing left open" in text


def test_suppressions_of_checks_selected_or_not() -> None:
    """A suppression used, one of a selected rule that finds nothing there (reported unused), and
    one naming only rules not selected (not reported, whether they would find something or not)."""
    path = ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"
    trace = parse_file(path, path.name)
    f = next(f for f in check_trace(trace, RULES).findings if f.rule == "bu-guan-bu-shi")
    assert f.line is not None
    events = [e.line for e in trace.events if e.line != f.line]
    staged = _suppressed(
        path, ((f.line, "bu-guan-bu-shi, bin-li-ci-xu"), (events[0], "bin-li-ci-xu"), (events[-1], "bu-guan-bu-shi"))
    )
    late, early = _both(staged, _selection("bu-guan-bu-shi,suppression"))
    assert early == late
    assert [s["rule"] for s in early["suppressed"]] == ["bu-guan-bu-shi"]
    unused = [v["line"] for v in early["violations"] if v["rule"] == "suppression.unused"]
    assert unused == [events[-1]]  # not the one naming only bin-li-ci-xu, which is not selected
