"""`check --select`/`--ignore` leave the rules they do not apply out of the check itself
(constraints/check.py `applied`, reports/batch.py): what is reported must be what checking every
rule and dropping the findings afterwards reports — the findings kept, the suppressed ones, the
unused suppressions (of selected checks only), the rules not applied, and the scope (its reached
rules and a fragment's pending ones are not filtered by the selection)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.lint import apply
from xiangshe.constraints.rulebook import active_rules
from xiangshe.constraints.select import Selection, in_force, terms
from xiangshe.domain.parse import parse_file, parse_lines
from xiangshe.reports import render

ROOT = Path(__file__).resolve().parents[1]
RULES = active_rules()
VIOLATIONS = sorted((ROOT / "traces" / "violations").glob("*.trace"))


def _suppressed(path: Path, suppress: tuple[tuple[int, str], ...]):
    """The staging at `path`, with `# xiangshe: ignore[TERMS] …` written at the given lines."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for n, words in suppress:
        lines[n - 1] = lines[n - 1].split("#")[0] + f"   # xiangshe: ignore[{words}] a reason"
    return parse_lines("\n".join(lines), path.name)


def _both(trace, selection: Selection) -> tuple[dict, dict]:
    ids = in_force(RULES)
    applied = frozenset(selection.applied(ids)) - selection.ignored_in(trace.path)
    late = apply([check_trace(trace, RULES)], selection, ids).results[0]
    early = apply([check_trace(trace, RULES, None, applied)], selection, ids).results[0]
    return render.trace_json(late), render.trace_json(early)


def _selection(select: str | None, ignore: str | None = None) -> Selection:
    return Selection(
        terms([select], "--select") if select else None,
        terms([ignore], "--ignore") if ignore else (),
    )


SELECTIONS = [
    ("bu-guan-bu-shi", None),
    ("ordering", None),
    ("machine,audit", None),
    ("rule", "R120"),
    (None, "rule"),
    ("suppression,bin-li-ci-xu,R1", None),
]


@pytest.mark.parametrize(("select", "ignore"), SELECTIONS)
def test_the_canonical_and_sampled_violations_report_alike(select: str | None, ignore: str | None) -> None:
    selection = _selection(select, ignore)
    paths = [ROOT / "traces" / "canonical.trace", *random.Random(15).sample(VIOLATIONS, 40)]
    for path in paths:
        late, early = _both(parse_file(path, path.name), selection)
        assert early == late, path.name


def test_a_fragment_keeps_the_pending_of_rules_not_selected() -> None:
    """A response rule's obligation left open at a fragment's end is listed in the scope even when
    the rule is not selected: the unselected rule is still evaluated there."""
    seen = 0
    for path in VIOLATIONS:
        trace = parse_file(path, path.name)
        full = check_trace(trace, RULES)
        if trace.fragment is None or full.scope is None or not full.scope.pending:
            continue
        pending = {p.rule for p in full.scope.pending}
        selection = _selection("machine", None)  # no rule selected at all
        late, early = _both(trace, selection)
        assert early == late, path.name
        assert {p["rule"] for p in early["scope"]["pending"]} == pending
        seen += 1
        if seen == 5:
            break
    assert seen, "no violation staging leaves a response rule pending"


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
