"""The hits found in one pass (constraints/network.py) are the events `Context.matches` matches, for
patterns whose conditions the pass decides each way: by the branch alone (the phase, the actor's
role), from the event's attributes, its object's kind or state, the role of the person it names, a
state of the actor's; with its signatures remembered, and with none remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangshe.constraints import network
from xiangshe.constraints.network import Network
from xiangshe.constraints.pattern import Context, Pattern, parse_pattern
from xiangshe.domain.parse import parse_file
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.fsm.replay import replay

ROOT = Path(__file__).resolve().parents[1]

#: each decided a different way (the comment says how)
TEXTS = [
    "* 揖 phase!=Φ01",  # the branch's phase alone: no signature at all
    "* 揖 actor.role=宾|主人",  # the branch's role alone
    "* * phase=Φ44",  # a pattern of no act: every act's branches of that phase
    "* 射 * result=中正|中侯 round=2|3",  # attributes and the round
    "* 取|奠 觯",  # the object's kind only
    "* 祭 爵 obj.state!=none",  # the object's kind and state
    "* 揖 to=宾",  # the role of the person the event names
    "* 揖 to!=none at!=none",  # a name and an attribute, each absent or not
    "* * * actor.射者=袒·执弓",  # a state of the actor's
    "* 揖 at=none",  # an attribute's absence
]


@pytest.fixture(scope="module")
def canonical() -> Context:
    trace = parse_file(ROOT / "traces" / "canonical.trace", "traces/canonical.trace")
    return Context(trace, replay(trace))


@pytest.fixture(scope="module")
def patterns() -> list[Pattern]:
    return [parse_pattern(t, vocabulary()) for t in TEXTS]


def _hits_by_pass(ctx: Context, patterns: list[Pattern]) -> dict[str, list[int]]:
    together = Context(ctx.trace, ctx.replay, Network(patterns))
    return {p.text: [e.index for e in together.hits(p)] for p in patterns}


def _hits_by_matches(ctx: Context, patterns: list[Pattern]) -> dict[str, list[int]]:
    return {p.text: [e.index for e in ctx.trace.events if ctx.matches(p, e)] for p in patterns}


def test_every_way_of_deciding_is_exercised(canonical: Context, patterns: list[Pattern]) -> None:
    """Each pattern matches something and misses something in the canonical: a test it passes by
    matching nothing, or everything, would say little."""
    events = len(canonical.trace)
    counts = {t: len(v) for t, v in _hits_by_matches(canonical, patterns).items()}
    assert all(0 < n < events for n in counts.values()), counts


def test_the_pass_finds_what_matches_finds(canonical: Context, patterns: list[Pattern]) -> None:
    net = Network(patterns)
    first = Context(canonical.trace, canonical.replay, net)
    want = _hits_by_matches(canonical, patterns)
    assert {p.text: [e.index for e in first.hits(p)] for p in patterns} == want
    remembered = sum(len(b.memo) for b in net._branches.values())
    assert remembered > 0  # the first pass worked signatures out and kept them
    again = Context(canonical.trace, canonical.replay, net)  # a second trace reads them back
    assert {p.text: [e.index for e in again.hits(p)] for p in patterns} == want
    assert sum(len(b.memo) for b in net._branches.values()) == remembered


def test_the_pass_without_memory_finds_the_same(
    canonical: Context, patterns: list[Pattern], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(network, "MEMO_LIMIT", 0)
    net = Network(patterns)
    assert _hits_by_pass(canonical, patterns) == _hits_by_matches(canonical, patterns)
    Context(canonical.trace, canonical.replay, net).hits(patterns[0])
    assert sum(len(b.memo) for b in net._branches.values()) == 0


@pytest.mark.parametrize("held", [slice(0, 3), slice(3, 6)], ids=["with-a-pattern-of-any-act", "of-named-acts"])
def test_a_pattern_outside_the_network_is_found_as_before(
    canonical: Context, patterns: list[Pattern], held: slice
) -> None:
    """A Context given a network still answers for a pattern it does not hold (scope's, explain's),
    and says every act the staging performs, those no pattern of the network names too."""
    together = Context(canonical.trace, canonical.replay, Network(patterns[held]))
    got = {p.text: [e.index for e in together.hits(p)] for p in patterns}
    assert got == _hits_by_matches(canonical, patterns)
    assert set(together.act_names()) == {e.act for e in canonical.trace.events}


@pytest.mark.parametrize(
    "path",
    [
        "traces/canonical.trace",
        *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "traces/violations").glob("*shi*.trace"))[:12],
    ],
)
def test_check_finds_the_same_with_the_network_and_without(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check_trace` gives the same result whether its plan finds the hits in one pass (after
    NETWORK_AFTER events for each rule) or pattern by pattern (before)."""
    from xiangshe.constraints import gates
    from xiangshe.constraints.check import check_trace

    trace = parse_file(ROOT / path, path)
    results = []
    for after in (0, 10**12):
        monkeypatch.setattr(gates, "NETWORK_AFTER", after)
        monkeypatch.setattr(gates, "_plans", {})  # a new plan: its count of events starts again
        results.append(check_trace(trace))
    assert results[0] == results[1]
    assert path == "traces/canonical.trace" or results[0].findings  # a violating example finds something


@pytest.mark.parametrize("rule_id", ["hou-ru-qi-hou", "jing-ru-qi-jing", "zhong-ru-qi-zhong"])
def test_an_occasion_kind_rule_finds_what_its_other_pattern_matches(rule_id: str) -> None:
    """An occasion_kind rule tests its condition on its own pattern's hits (no pattern is made per
    check): it finds exactly the events the pattern its z3 meaning uses (`other`) matches, on its
    violating example and on the canonical."""
    from xiangshe.constraints.rulebook import rulebook

    [rule] = [r for r in rulebook() if r.id == rule_id]
    found = []
    for path in (f"traces/violations/{rule_id}.trace", "traces/canonical.trace"):
        trace = parse_file(ROOT / path, path)
        ctx = Context(trace, replay(trace))
        _, other = rule.template.other(trace.cast)
        got = [v.at for v in rule.template.holds(ctx)]
        assert got == [e.index for e in trace.events if ctx.matches(other, e)], path
        found.append(len(got))
    assert found[0] > 0 and found[1] == 0, found
