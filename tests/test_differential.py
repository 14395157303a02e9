"""The core guarantee: every rule's Python meaning and z3 meaning agree.

For each encoded rule, Hypothesis draws short traces from events made from the rule's own
patterns (so that they trigger it often) and from the canonical ceremony, and mutated windows of
the canonical ceremony; the Python verdict must equal the z3 verdict on every one of them.

A drawn trace the parser rejects is not compared; each property counts its draws and fails when
fewer than VALID_FLOOR of them were valid traces (a generator gone wrong would otherwise make the
property pass on nothing). The default run draws for a sample of the rules (a few of each template
kind, see tests/sampling.py); `pytest -m slow` draws for the others and runs the thorough properties.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
import tracegen
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import rule_params

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import Rule, rulebook
from xiangshe.constraints.smt import holds_on
from xiangshe.domain.parse import TraceErrors, parse_file, parse_lines
from xiangshe.fsm.replay import replay

RULES = [r for r in rulebook() if r.encoded]
CANON = tracegen.canonical()
HEADER = tracegen.cast_header(CANON)
CANON_LINES = tracegen.canonical_lines(CANON)
VALID_FLOOR = 0.5  # of the drawn traces, at least this share must parse (today nearly all do)

pytestmark = pytest.mark.z3


def agree(rule: Rule, lines: list[tracegen.Line], header: str = HEADER) -> bool:
    """Python and z3 agree on the trace; False (nothing compared) when the parser rejects it."""
    try:
        trace = parse_lines(tracegen.render(header, lines), "generated.trace")
    except TraceErrors:
        return False  # a generated word the parser rejects (e.g. an auto-named person)
    py = not rule.template.holds(Context(trace, replay(trace)))
    z = holds_on(rule, trace)
    assert py == z, f"{rule.id}: Python says {py}, z3 says {z} on\n{tracegen.render('', lines)}"
    return True


def run_counted(rule: Rule, draw: Callable[[st.DataObject], tuple[str, list[tracegen.Line]]], **config) -> None:
    """Run the property `agree(rule, *draw(data))` under Hypothesis and fail when too few of the
    drawn traces were valid."""
    drawn = valid = 0

    @settings(**config)
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        nonlocal drawn, valid
        header, lines = draw(data)
        drawn += 1
        valid += agree(rule, lines, header)

    prop()
    need = max(1, math.ceil(VALID_FLOOR * drawn))
    assert valid >= need, (
        f"{rule.id}: only {valid} of {drawn} drawn traces parse (the floor is {need}): the generator "
        "draws traces the parser rejects, so the property compares (almost) nothing"
    )


def test_the_floor_fails_a_property_that_draws_no_valid_trace() -> None:
    with pytest.raises(AssertionError, match="drawn traces parse"):
        run_counted(RULES[0], lambda _data: (HEADER, [(None, "无此人 揖")]))


def test_rulebook_has_encoded_rules() -> None:
    assert len(RULES) >= 1


@pytest.mark.parametrize("rule", rule_params(RULES))
def test_python_and_z3_agree_on_random_traces(rule: Rule) -> None:
    pool = tracegen.pool_for(rule, CANON)
    walks = tracegen.walks_for(rule, CANON)
    traces = st.lists(st.sampled_from(pool), min_size=1, max_size=7)
    if walks:
        traces = st.one_of(traces, st.sampled_from(walks))
    run_counted(rule, lambda data: (HEADER, data.draw(traces, label="trace")))


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_python_and_z3_agree_on_mutated_canonical_windows(rule: Rule) -> None:
    def draw(data: st.DataObject) -> tuple[str, list[tracegen.Line]]:
        length = data.draw(st.integers(2, 8), label="length")
        start = data.draw(st.integers(0, 10_000), label="start") % max(1, len(CANON_LINES) - length)
        seed = data.draw(st.integers(0, 2**16), label="seed")
        return HEADER, tracegen.mutate(CANON_LINES[start : start + length], random.Random(seed), CANON)

    run_counted(rule, draw)


CAST_RULES = [r for r in RULES if r.template.kind in ("pair", "cast_absence")]


@pytest.mark.parametrize("rule", CAST_RULES, ids=lambda r: r.id)
def test_python_and_z3_agree_on_random_pairings(rule: Rule) -> None:
    def draw(data: st.DataObject) -> tuple[str, list[tracegen.Line]]:
        rng = random.Random(data.draw(st.integers(0, 2**16), label="seed"))
        return tracegen.random_header(CANON, rng), [(None, "主人 揖")]

    run_counted(rule, draw)


def _example_windows(rule: Rule) -> list[tuple[str, list[tracegen.Line]]]:
    out = []
    for path in sorted(tracegen.ROOT.glob(f"traces/violations/{rule.id}.trace")) + sorted(
        tracegen.ROOT.glob(f"traces/violations/{rule.id}.*.trace")
    ):
        trace = parse_file(path)
        at = [f.event for f in check_trace(trace, [rule]).findings if f.event is not None]
        header = tracegen.cast_header(trace) or HEADER
        out += [(header, w) for w in tracegen.example_windows(trace, at)]
    return out


@pytest.mark.parametrize("rule", rule_params(RULES))
def test_python_and_z3_agree_on_mutated_violating_examples(rule: Rule) -> None:
    windows = _example_windows(rule)
    assert windows, f"{rule.id}: no window of a violating example (test_rules requires one)"

    def draw(data: st.DataObject) -> tuple[str, list[tracegen.Line]]:
        header, window = data.draw(st.sampled_from(windows), label="window")
        if data.draw(st.booleans(), label="mutate"):
            window = tracegen.mutate(window, random.Random(data.draw(st.integers(0, 2**16))), CANON)
        return header, window

    run_counted(rule, draw)


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_python_and_z3_agree_thoroughly(rule: Rule) -> None:
    """The same property with many more examples (`pytest -m slow`)."""
    pool = tracegen.pool_for(rule, CANON, seed=1, size=80)
    walks = tracegen.walks_for(rule, CANON, seed=1, count=30)
    traces = st.lists(st.sampled_from(pool), min_size=1, max_size=10)
    if walks:
        traces = st.one_of(traces, st.sampled_from(walks))
    run_counted(rule, lambda data: (HEADER, data.draw(traces, label="trace")), max_examples=150)
