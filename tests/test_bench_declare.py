"""The benchmark's Declare model agrees with our checker, trace by trace and constraint by constraint,
on a batch where at least 30% of the traces break it (skipped without pm4py: the bench extra).

`wide`: the default run (and CI) runs these, the inner loop leaves them out — pm4py's import and
the model's preparation alone are about 5 s of CPU, and they test the benchmark's translation, not
the checker, whose verdicts the inner loop tests on the same stagings (test_rules, test_cli)."""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from pathlib import Path

import pytest

# pm4py is imported by the tests that use it, not at collection: each xdist worker collects every
# module, and pm4py's import alone costs more than a second; one worker runs these tests (and makes
# `prep` once)
pytestmark = [
    pytest.mark.skipif(
        not all(importlib.util.find_spec(m) for m in ("pm4py", "pandas")), reason="pm4py and pandas: the bench extra"
    ),
    pytest.mark.xdist_group("pm4py"),
    pytest.mark.wide,
]
if str(Path(__file__).resolve().parents[1]) not in sys.path:  # `pytest` as well as `python -m pytest`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import e2e, run  # noqa: E402
from benchmarks.declare_subset import ABSENCE, PRECEDENCE, RESPONSE, SUCCESSION, Universe, translate  # noqa: E402
from benchmarks.gen_batch import ROOT, bundled, faults, graft, to_jsonl  # noqa: E402
from benchmarks.naive import Checker  # noqa: E402
from xiangshe.constraints.rulebook import active_rules  # noqa: E402
from xiangshe.domain.parse import parse_jsonl  # noqa: E402


@pytest.fixture(scope="module")
def prep(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The bundled canonical and variants, the violation stagings of the rules that translate, and the
    canonical with each of every third fault grafted in: parsed, labelled, translated, and pm4py's
    event log written and read back by the benchmark's own pm4py worker."""
    stagings = bundled(run.declare_rules().__contains__)
    grafts = faults(stagings)
    canonical = to_jsonl(stagings[0][1])
    rng = random.Random(15)
    out = tmp_path_factory.mktemp("declare")
    files, traces = [ROOT / name for name, _ in stagings], [t for _, t in stagings]
    for k, fault in enumerate(grafts[::3]):
        text = graft(canonical, fault, rng)
        if text is not None:
            files.append(out / f"graft-{k}.jsonl")
            traces.append(parse_jsonl(text, files[-1].name))
    universe = Universe()
    label_lists = [universe.add(t) for t in traces]
    tr = translate(active_rules(), universe)
    data = {"files": files, "traces": traces, "labels": label_lists, "universe": universe, "translation": tr}
    (out / "model.json").write_text(run.json.dumps(tr.to_json(), ensure_ascii=False), encoding="utf-8")
    run.write_csv(out / "log.csv", label_lists)
    data["pm4py"] = e2e.pm4py_e2e(str(out / "log.csv"), str(out / "model.json"))["verdicts"]
    return data


def test_the_model_has_the_declare_templates_and_the_batch_breaks_it(prep: dict) -> None:
    tr = prep["translation"]
    templates = {t for t, _ in tr.all_constraints()}
    assert {ABSENCE, PRECEDENCE, RESPONSE, SUCCESSION} <= templates
    got = run.agreement(prep, prep["pm4py"])
    assert got["share_breaking_subset"] >= 0.3
    assert {ABSENCE, PRECEDENCE} <= set(got["templates_broken"])


def test_a_precedence_and_a_response_over_the_same_labels_are_one_succession(prep: dict) -> None:
    """No pair of labels is left with both a precedence and a response; each succession is named by
    a precedence rule and a response rule of ours (「视侯中，俯正足」 is one), and the CLI's verdict of
    either rule names both, as pm4py's verdict of the succession does."""
    tr = prep["translation"]
    made = tr.all_constraints()
    assert not {a for t, a in made if t == PRECEDENCE} & {a for t, a in made if t == RESPONSE}
    kinds = {r.id: r.template.kind for r in tr.rules}
    successions = {c: rids for c, rids in tr.by_constraint().items() if c[0] == SUCCESSION}
    assert successions
    for rids in successions.values():
        assert {kinds[r] for r in rids} == {"precedence", "response"}
    assert {"you-she-shi-hou-zhong-er-zheng-zu", "you-she-shi-hou-zhong-fu-zheng-zu"} in [
        set(r) for r in successions.values()
    ]
    assert tr.with_partners(["you-she-shi-hou-zhong-fu-zheng-zu"]) == {
        "you-she-shi-hou-zhong-er-zheng-zu",
        "you-she-shi-hou-zhong-fu-zheng-zu",
    }
    assert tr.with_partners(["bai-ci-bai-ru"]) == {"bai-ci-bai-ru"}


def test_ours_pm4py_and_naive_agree_trace_by_trace_and_constraint_by_constraint(prep: dict) -> None:
    got = run.agreement(prep, prep["pm4py"])
    assert got["trace_mismatches"] == []
    assert got["constraint_mismatches"] == []
    n = got["traces"]
    assert got["agreement_traces"] == {"pm4py": f"{n}/{n}", "naive": f"{n}/{n}"}
    assert got["constraint_table"]  # constraints broken somewhere, each with its count per tool


def test_a_disagreement_is_reported(prep: dict) -> None:
    """The check can fail: pm4py's verdicts with one deviation dropped are a mismatch on both counts."""
    broken = next(i for i, dev in enumerate(prep["pm4py"]) if dev)
    tampered = [list(dev) for dev in prep["pm4py"]]
    dropped = tampered[broken].pop()
    got = run.agreement(prep, tampered)
    assert [m["trace"] for m in got["trace_mismatches"]] == [run_name(prep["files"][broken])]
    wanted = f"{dropped[0]}({', '.join([dropped[1]] if isinstance(dropped[1], str) else dropped[1])})"
    assert wanted in {row["constraint"] for row in got["constraint_mismatches"]}


def run_name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def test_naive_single_pass_agrees_with_pm4py_on_every_short_trace() -> None:
    """The naive checker against pm4py's own Declare semantics, on every trace of up to 5 events over
    three activities, for every absence, precedence, response and succession constraint over them."""
    from pm4py.algo.conformance.declare.variants.classic import apply_list

    acts = ("a", "b", "c")
    constraints = [(ABSENCE, (a,)) for a in acts]
    constraints += [(t, (a, b)) for t in (PRECEDENCE, RESPONSE, SUCCESSION) for a in acts for b in acts if a != b]
    model: dict = {}
    for t, a in constraints:
        model.setdefault(t, {})[a[0] if len(a) == 1 else a] = {"support": 1, "confidence": 1}
    traces = [list(w) for n in range(6) for w in itertools.product(acts, repeat=n)]
    checker = Checker(constraints)
    for trace, res in zip(traces, apply_list(traces, model), strict=True):
        theirs = {(t, (a,) if isinstance(a, str) else tuple(a)) for t, a in res["deviations"]}
        assert checker.broken(trace) == theirs, trace
