"""Mutants of the canonical ceremony on short windows: for every mutant and every encoded rule, the
Python meaning and the z3 meaning agree (the differential guarantee of tests/test_differential.py,
on the mutants of benchmarks/mutation.py: deletion, duplication, swap of neighbours, substitution
of the actor by another person acting in the same phase).

Every mutant is a window of exactly WIDTH events (a deletion is cut from WIDTH+1 events, a
duplication from WIDTH-1), and every window declares the whole cast of the ceremony: so all the
rules are encoded over one symbolic trace, once, and each mutant costs one solver run (pinning the
trace fixes every term; each rule's formula is then evaluated in the one model) instead of one
encoding and one run per rule. A test checks that this gives the verdicts of
`constraints.smt.holds_on`, which test_differential uses.

Default run: one mutant of each operator at every third of 40 points spread over the ceremony
(~55 mutants × every encoded rule); the other points under `pytest -m slow`, and every 7th event.
benchmarks/mutation.py --differential runs any stride and prints the count.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
import tracegen
import z3
from sampling import rules_by_kind
from test_differential import CANON, RULES, agree

from xiangshe.constraints.pattern import Context
from xiangshe.constraints.smt import Symbolic, solver
from xiangshe.domain.parse import parse_lines
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay

WIDTH = 8
LINES = tracegen.canonical_lines(CANON)
HEADER = "".join(
    f"cast {p.name} {p.role}" + (f" rank={p.rank}" if p.rank else "") + "\n" for p in CANON.cast.persons.values()
) + "".join(f"pair {q.name} 上射={q.upper} 下射={q.lower}\n" for q in CANON.cast.pairs.values())


def present() -> dict[str | None, list[str]]:
    out: dict[str | None, list[str]] = {}
    for e in CANON.events:
        out.setdefault(e.phase, [])
        if e.actor not in out[e.phase]:
            out[e.phase].append(e.actor)
    return out


PRESENT = present()


def _window(i: int, width: int) -> tuple[int, list[tracegen.Line]]:
    start = min(max(0, i - width // 2), len(LINES) - width)
    return start, list(LINES[start : start + width])


def window_mutants(
    i: int, ops: tuple[str, ...] = ("delete", "duplicate", "swap", "actor"), every_actor: bool = False
) -> Iterator[tuple[str, list[tracegen.Line]]]:
    """The mutants at event i, each a window of WIDTH events around it."""
    if "delete" in ops:
        s, w = _window(i, WIDTH + 1)
        del w[i - s]
        yield f"delete@{i}", w
    if "duplicate" in ops:
        s, w = _window(i, WIDTH - 1)
        w.insert(i - s, w[i - s])
        yield f"duplicate@{i}", w
    if "swap" in ops and i + 1 < len(LINES):
        s, w = _window(i, WIDTH)
        if i + 1 - s < len(w):
            w[i - s], w[i + 1 - s] = w[i + 1 - s], w[i - s]
            yield f"swap@{i}", w
    if "actor" in ops:
        others = [p for p in PRESENT[CANON[i].phase] if p != CANON[i].actor]
        for who in others if every_actor else others[i % len(others) :][:1] if others else []:
            s, w = _window(i, WIDTH)
            phase, line = w[i - s]
            w[i - s] = (phase, " ".join([who, *line.split()[1:]]))
            yield f"actor@{i}→{who}", w


@cache
def encoded(k: int, _persons: tuple[str, ...]) -> tuple[Symbolic, tuple[z3.BoolRef, ...]]:
    """Every encoded rule over one symbolic trace of k steps and the ceremony's cast (once)."""
    trace = parse_lines(HEADER + "主人 揖\n", "cast")
    sym = Symbolic(k, trace.cast)
    return sym, tuple(r.template.encode(sym) for r in RULES)


def z3_verdicts(trace: Trace) -> list[bool]:
    """For each rule of RULES: does the trace satisfy its z3 meaning? The trace pins every step
    term and the machine relations then fix every state term, so the constraints have exactly one
    model: one solver run finds it, and each rule's formula is evaluated in it."""
    sym, formulas = encoded(len(trace), tuple(trace.cast.persons))
    s = solver()
    s.add(sym.fix(trace))
    s.add(sym.constraints)
    result = s.check()
    assert result == z3.sat, f"z3: {result} on a pinned trace"
    model = s.model()
    return [z3.is_true(model.eval(f, model_completion=True)) for f in formulas]


def py_verdicts(trace: Trace) -> list[bool]:
    ctx = Context(trace, replay(trace))
    return [not r.template.holds(ctx) for r in RULES]


def compare(name: str, lines: list[tracegen.Line]) -> list[str]:
    """The rules whose two meanings disagree on this mutant (an empty list: they all agree)."""
    trace = parse_lines(tracegen.render(HEADER, lines), f"{name}.trace")
    assert len(trace) == WIDTH and tuple(trace.cast.persons) == tuple(CANON.cast.persons)
    py, z = py_verdicts(trace), z3_verdicts(trace)
    return [f"{r.id}: Python {a}, z3 {b}" for r, a, b in zip(RULES, py, z, strict=True) if a != b]


def points(count: int) -> list[int]:
    return sorted({round(k * (len(LINES) - 2) / (count - 1)) for k in range(count)})


#: one worker encodes the canonical-width trace for z3 once (~15 s) and every test here reuses it
pytestmark = [pytest.mark.z3, pytest.mark.xdist_group("mutation-encoding")]

DEFAULT = [m for i in points(40) for m in window_mutants(i)]
SAMPLE_POINTS = set(points(40)[::3]) | {points(40)[-1]}


def at(name: str) -> int:
    return int(name.split("@")[1].split("→")[0])


def test_the_default_sample_has_every_operator_across_the_ceremony() -> None:
    sample = [n for n, _ in DEFAULT if at(n) in SAMPLE_POINTS]
    assert {n.split("@")[0] for n in sample} == {"delete", "duplicate", "swap", "actor"} and len(sample) >= 50
    phases = {CANON[at(n)].phase for n in sample}
    assert {"Φ01", "Φ52"} <= phases and len(phases) >= 10


def test_shared_encoding_gives_the_verdicts_of_holds_on() -> None:
    """z3_verdicts (one encoding, push/pop) equals holds_on, rule by rule, on a few mutants."""
    from xiangshe.constraints.smt import holds_on

    index = {r.id: k for k, r in enumerate(RULES)}
    for name, lines in DEFAULT[::80]:
        trace = parse_lines(tracegen.render(HEADER, lines), name)
        z = z3_verdicts(trace)
        for r in rules_by_kind(RULES, per_kind=1):  # a rule of every template kind (holds_on encodes afresh)
            assert z[index[r.id]] == holds_on(r, trace), (name, r.id)
    agree(RULES[0], DEFAULT[0][1], HEADER)  # and test_differential's own helper agrees


def test_mutants_are_not_all_accepted() -> None:
    """The sample is not vacuous: some mutants break some rule (in both meanings)."""
    broken = 0
    for name, lines in DEFAULT[::4]:
        trace = parse_lines(tracegen.render(HEADER, lines), name)
        broken += not all(py_verdicts(trace))
    assert broken >= 3


@pytest.mark.parametrize(
    ("name", "lines"),
    [pytest.param(n, w, id=n, marks=() if at(n) in SAMPLE_POINTS else pytest.mark.slow) for n, w in DEFAULT],
)
def test_python_and_z3_agree_on_every_rule_for_each_mutant(name: str, lines: list[tracegen.Line]) -> None:
    assert compare(name, lines) == []


@pytest.mark.slow
@pytest.mark.parametrize("i", range(0, len(LINES), 7))
def test_python_and_z3_agree_on_mutants_everywhere(i: int) -> None:
    """`pytest -m slow`: every operator (every other person present, for the actor) at every 7th event."""
    for name, lines in window_mutants(i, every_actor=True):
        assert compare(name, lines) == [], name
