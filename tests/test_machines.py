"""Unit tests for every machine table, generated from the table itself.

For each table: every state is reachable from the initial state; every edge fires when replayed
through `transitions` along a shortest path to its source; an act the table knows but that is not
allowed in a state is refused, naming the machine, the state, the acts allowed and the quote.
"""

from __future__ import annotations

from collections import deque

import pytest
import tracegen

from xiangshe.constraints.check import check_trace
from xiangshe.domain.parse import parse_lines
from xiangshe.domain.text import TEXT
from xiangshe.fsm.replay import replay
from xiangshe.fsm.table import Edge, Table, tables

TABLES = tables()
CAST = tracegen.cast_header(tracegen.canonical())


def actor_and_object(t: Table) -> tuple[str, str]:
    """Who performs the table's acts in a synthetic trace, and the object word (if any)."""
    if t.objects:
        return "主人", t.objects[0]
    canon = tracegen.canonical()
    for p in canon.cast.persons.values():
        if p.role in t.roles or (t.shooters and p.pair):
            return p.name, ""
    pytest.skip(f"no person of the canonical cast runs {t.name}")


def shortest_paths(t: Table) -> dict[str, list[Edge]]:
    paths: dict[str, list[Edge]] = {t.initial: []}
    queue = deque([t.initial])
    while queue:
        s = queue.popleft()
        for e in t.edges:
            if e.source == s and e.dest not in paths:
                paths[e.dest] = paths[s] + [e]
                queue.append(e.dest)
    return paths


def run(t: Table, edges: list[Edge]):
    actor, obj = actor_and_object(t)
    lines = [f"{actor} {e.act} {obj}".strip() for e in edges] or [f"{actor} 揖"]
    trace = parse_lines(CAST + "\n".join(lines) + "\n", "m.trace")
    return trace, replay(trace)


def test_there_are_tables() -> None:
    assert TABLES


@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.slug)
def test_every_state_is_reachable(t: Table) -> None:
    unreachable = set(t.states) - set(shortest_paths(t))
    assert not unreachable, f"{t.name}: unreachable states {sorted(unreachable)}"


@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.slug)
def test_every_edge_fires_through_transitions(t: Table) -> None:
    paths = shortest_paths(t)
    for e in t.edges:
        walk = paths[e.source] + [e]
        trace, rep = run(t, walk)
        mine = [r for r in rep.refusals if r.table.name == t.name]
        assert not mine, f"{t.name}: {[(r.state, r.event.act) for r in mine]}"
        # the state before the last event, as the replay reports it, is the edge's source
        before = rep.obj_state[-1] if t.objects else rep.actor_state[-1][t.name]
        assert before == e.source


@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.slug)
def test_edges_quote_the_text(t: Table) -> None:
    for e in t.edges:
        assert e.cite.quote in TEXT.flat
        assert TEXT.cite(e.cite.quote, e.cite.line).line == e.cite.line


@pytest.mark.parametrize("t", TABLES, ids=lambda t: t.slug)
def test_a_refused_act_is_reported_and_leaves_the_state(t: Table) -> None:
    paths = shortest_paths(t)
    for state, path in sorted(paths.items()):
        refused = [a for a in t.acts if t.step(state, a) is None]
        if not refused:
            continue
        act = refused[0]
        actor, obj = actor_and_object(t)
        lines = [f"{actor} {e.act} {obj}".strip() for e in path] + [f"{actor} {act} {obj}".strip()]
        trace = parse_lines(CAST + "\n".join(lines) + "\n", "m.trace")
        findings = [f for f in check_trace(trace, rules=[]).findings if f.rule == f"machine.{t.slug}"]
        assert findings, f"{t.name}: {act} in {state} was not refused"
        f = findings[0]
        assert f"cannot {act} while {state}" in f.message
        assert f.event == len(lines) - 1
        allowed = t.allowed(state)
        assert ("allowed here: " + (", ".join(allowed) if allowed else "nothing")) in f.message
        return
    pytest.skip(f"{t.name} allows every act in every state")


def test_canonical_ceremony_has_no_refusals() -> None:
    rep = replay(tracegen.canonical())
    assert not rep.refusals, [(r.event.line, r.table.name, r.state, r.event.act) for r in rep.refusals[:5]]


# 若矢不备 … 乃复求矢，加于楅: a short set stays on the 楅 until the arrow found is added; nobody takes
# up a short set, and an arrow is not added to a full one.
_SHORT = (
    "cast 弟子1 弟子\ncast 弟子7 弟子\ncast 有司 有司\n有司 授 矢 to=弟子1\n弟子1 搢三挟一个 矢\n"
    + "弟子1 射 矢\n弟子1 挟 矢\n" * 3
    + "弟子1 射 矢\n"
    "弟子7 委矢 矢 to=弟子1 at=楅\n司马 不备 矢 to=弟子1\n"
)


@pytest.mark.parametrize(
    "tail, refused",
    [
        ("弟子1 拾取矢 矢\n", "拾取矢"),  # the count has not reached 乘矢
        ("弟子7 加 矢 to=弟子1 at=楅\n弟子1 拾取矢 矢\n", None),  # found, added: complete again
        ("弟子7 加 矢 to=弟子1 at=楅\n弟子7 加 矢 to=弟子1 at=楅\n", "加"),  # a fifth arrow
    ],
)
def test_a_short_set_on_the_bi_is_completed_before_it_is_taken(tail: str, refused: str | None) -> None:
    trace = parse_lines(_SHORT + tail, "m.trace")
    rep = replay(trace)
    got = [r.event.act for r in rep.refusals if r.table.name == "矢"]
    assert got == ([refused] if refused else []), got
