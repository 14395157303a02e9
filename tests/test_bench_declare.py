"""The benchmark's Declare translation agrees with our checker (skipped without pm4py: bench extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("pm4py")
pd = pytest.importorskip("pandas")

import pm4py  # noqa: E402

from benchmarks import naive  # noqa: E402
from benchmarks.declare_subset import ABSENCE, PRECEDENCE, Universe, translate  # noqa: E402
from xiangshe.constraints.pattern import Context  # noqa: E402
from xiangshe.constraints.rulebook import active_rules  # noqa: E402
from xiangshe.domain.libretto import Options, generate  # noqa: E402
from xiangshe.domain.parse import parse_lines  # noqa: E402


def _variants() -> list:
    """The default staging and two mutants that break subset rules: the events of the first
    activity of a translated precedence removed (its `then` is left without it), and a 旅 with a
    觯 copied into Φ20, where it is forbidden (未旅: the 旅酬 waits until after the archery)."""
    text = generate(Options())
    base = text.splitlines()
    trace = parse_lines(text, "base")
    universe = Universe()
    labs = universe.add(trace)
    precedences = [
        c for cs in translate(active_rules(), universe).constraints.values() for c in cs if c[0] == PRECEDENCE
    ]
    first = precedences[0][1][0]
    drop = {e.line for e, lab in zip(trace.events, labs, strict=True) if lab == first}
    removed = [line for n, line in enumerate(base, 1) if n not in drop]
    lv = next(e.line for e in trace.events if e.act == "旅" and e.obj and e.obj.kind == "觯")
    phase20 = next(i for i, line in enumerate(base) if line.startswith("phase Φ20"))
    copied = base[: phase20 + 1] + [base[lv - 1]] + base[phase20 + 1 :]
    return [trace, parse_lines("\n".join(removed), "removed"), parse_lines("\n".join(copied), "copied")]


def _frame(label_lists):
    rows = [(f"c{k}", lab, i) for k, labs in enumerate(label_lists) for i, lab in enumerate(labs)]
    df = pd.DataFrame(rows, columns=["case", "activity", "t"])
    df["t"] = pd.to_datetime(df["t"], unit="s")
    return pm4py.format_dataframe(df, case_id="case", activity_key="activity", timestamp_key="t")


def test_declare_translation_agrees_with_our_checker() -> None:
    traces = _variants()
    universe = Universe()
    label_lists = [universe.add(t) for t in traces]
    tr = translate(active_rules(), universe)
    assert tr.rules and tr.excluded
    model = tr.model()
    assert model.get(PRECEDENCE) and all(isinstance(k, str) for k in model.get(ABSENCE, {}))

    ours = [{r.id for r in tr.rules if r.template.holds(Context(t, None))} for t in traces]
    by = tr.by_constraint()
    results = pm4py.conformance_declare(_frame(label_lists), model)
    theirs = []
    for res in results:
        rids: set[str] = set()
        for template, acts in res["deviations"]:
            rids.update(by[(template, tuple(acts) if isinstance(acts, tuple) else (acts,))])
        theirs.append(rids)
    base_naive = [{rid for rid, cs in tr.constraints.items() if naive.violated(labs, cs)} for labs in label_lists]

    assert ours[0] == set()  # the generated staging keeps the subset
    assert ours[1] and ours[2]  # each mutant breaks a subset rule
    assert "wei-lv" in ours[2]
    assert theirs == ours
    assert base_naive == ours
