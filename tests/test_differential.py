"""The core guarantee: every rule's Python meaning and z3 meaning agree.

For each encoded rule, Hypothesis draws short traces from events made from the rule's own
patterns (so that they trigger it often) and from the canonical ceremony, and mutated windows of
the canonical ceremony; the Python verdict must equal the z3 verdict on every one of them.
"""

from __future__ import annotations

import random

import pytest
import tracegen
from hypothesis import given, settings
from hypothesis import strategies as st

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


def agree(rule: Rule, lines: list[tracegen.Line], header: str = HEADER) -> None:
    try:
        trace = parse_lines(tracegen.render(header, lines), "generated.trace")
    except TraceErrors:
        return  # a generated word the parser rejects (e.g. an auto-named person): nothing to compare
    py = not rule.template.holds(Context(trace, replay(trace)))
    z = holds_on(rule, trace)
    assert py == z, f"{rule.id}: Python says {py}, z3 says {z} on\n{tracegen.render('', lines)}"


def test_rulebook_has_encoded_rules() -> None:
    assert len(RULES) >= 1


@pytest.mark.parametrize("rule", RULES[::2], ids=lambda r: r.id)
@given(data=st.data())
def test_python_and_z3_agree_on_random_traces(rule: Rule, data: st.DataObject) -> None:
    """Every other rule in the default run (every rule: the `thoroughly` test, `pytest -m slow`)."""
    pool = tracegen.pool_for(rule, CANON)
    walks = tracegen.walks_for(rule, CANON)
    traces = st.lists(st.sampled_from(pool), min_size=1, max_size=7)
    if walks:
        traces = st.one_of(traces, st.sampled_from(walks))
    lines = data.draw(traces, label="trace")
    agree(rule, lines)


@pytest.mark.slow  # with ~630 rules the default run keeps the random and the example-based draws
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
@given(start=st.integers(min_value=0, max_value=10_000), length=st.integers(2, 8), seed=st.integers(0, 2**16))
def test_python_and_z3_agree_on_mutated_canonical_windows(rule: Rule, start: int, length: int, seed: int) -> None:
    start %= max(1, len(CANON_LINES) - length)
    window = CANON_LINES[start : start + length]
    agree(rule, tracegen.mutate(window, random.Random(seed), CANON))


CAST_RULES = [r for r in RULES if r.template.kind in ("pair", "cast_absence")]


@pytest.mark.parametrize("rule", CAST_RULES, ids=lambda r: r.id)
@given(seed=st.integers(0, 2**16))
def test_python_and_z3_agree_on_random_pairings(rule: Rule, seed: int) -> None:
    rng = random.Random(seed)
    agree(rule, [(None, "主人 揖")], tracegen.random_header(CANON, rng))


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


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
@given(data=st.data())
def test_python_and_z3_agree_on_mutated_violating_examples(rule: Rule, data: st.DataObject) -> None:
    windows = _example_windows(rule)
    if not windows:
        pytest.skip("no violating example")
    header, window = data.draw(st.sampled_from(windows), label="window")
    if data.draw(st.booleans(), label="mutate"):
        window = tracegen.mutate(window, random.Random(data.draw(st.integers(0, 2**16))), CANON)
    agree(rule, window, header)


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
@settings(max_examples=150)
@given(data=st.data())
def test_python_and_z3_agree_thoroughly(rule: Rule, data: st.DataObject) -> None:
    """The same property with many more examples (`pytest -m slow`)."""
    pool = tracegen.pool_for(rule, CANON, seed=1, size=80)
    walks = tracegen.walks_for(rule, CANON, seed=1, count=30)
    traces = st.lists(st.sampled_from(pool), min_size=1, max_size=10)
    if walks:
        traces = st.one_of(traces, st.sampled_from(walks))
    agree(rule, data.draw(traces, label="trace"))
