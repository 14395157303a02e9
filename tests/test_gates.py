"""A check evaluates only the rules its plan says can find something (constraints/gates.py): a rule
whose triggers do not occur, whose limit is not passed, or whose forbidden pattern matches nothing
finds nothing. On every bundled staging and on seeded mutants of the canonical ceremony, each rule
the plan leaves out finds nothing when evaluated anyway, and the split into rules reached and not
reached is the plain one (some trigger matches an event)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import tracegen
from sampling import rules_by_kind, sample_or_slow

from xiangshe.constraints.gates import gate, plan, triggered
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain.parse import parse_file, parse_lines
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "traces").rglob("*.trace"))
RULES = active_rules()


def mutant(seed: int) -> Trace:
    canon = tracegen.canonical()
    rng = random.Random(seed)
    got = tracegen.canonical_lines(canon)
    for _ in range(8):
        got = tracegen.mutate(got, rng, canon)
    return parse_lines(tracegen.render(tracegen.cast_header(canon), got), f"mutant{seed}.trace")


CASES = [str(p.relative_to(ROOT)) for p in BUNDLED[::5]] + ["mutant0", "mutant1"]
#: the default sample: the mutants, every staging that is not a violating example, and the violating
#: examples of a few rules of each template kind (tests/sampling.py); the rest under -m slow
SAMPLED_RULES = {r.id for r in rules_by_kind(RULES)}


def in_sample(case: str) -> bool:
    path = Path(case)
    return path.parent.name != "violations" or path.name.split(".")[0] in SAMPLED_RULES


def load(case: str) -> Trace:
    return mutant(int(case.removeprefix("mutant"))) if case.startswith("mutant") else parse_file(ROOT / case, case)


def test_the_sample_has_mutants_whole_ceremonies_and_violations() -> None:
    chosen = [c for c in CASES if in_sample(c)]
    assert {"mutant0", "mutant1", "traces/canonical.trace"} <= set(chosen)
    assert 3 <= sum(Path(c).parent.name == "violations" for c in chosen) < len(chosen) - 3


@pytest.mark.parametrize("case", sample_or_slow(CASES, in_sample, str))
def test_a_rule_left_out_finds_nothing(case: str) -> None:
    trace = load(case)
    ctx = Context(trace, replay(trace))
    run = {r.id for r in plan(RULES).run(ctx)}
    wrong = [r.id for r in RULES if r.encoded and r.id not in run and r.template.holds(ctx)]
    assert not wrong, f"{case}: left out, yet they find something: {wrong}"
    yes, no = plan(RULES).reached(Context(trace, replay(trace)))  # without the run's memo
    plain = [r.id for r in RULES if r.encoded and triggered(r.template)]
    hit = [i for i in plain if any(ctx.hits(p) for p in next(r for r in RULES if r.id == i).template.triggers())]
    assert (list(yes), list(no)) == (hit, [i for i in plain if i not in hit])


def test_the_gates_leave_out_rules() -> None:
    """On a short staging most rules are left out; a rule without a gate (of the cast, of the
    occasion) never."""
    trace = parse_file(BUNDLED[-1], "t")
    ctx = Context(trace, replay(trace))
    run = plan(RULES).run(ctx)
    assert len(run) < len(RULES) // 4
    ungated = [r.id for r in RULES if r.encoded and gate(r.template) is None]
    assert ungated and set(ungated) <= {r.id for r in run}
