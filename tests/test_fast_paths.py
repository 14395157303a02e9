"""The fast paths of `check` give the results of the plain ones.

- `fsm.replay.replay` (edges looked up in a dict collected from each table's `transitions` Machine)
  gives the same Replay as `replay_triggers` (every event fired as a `transitions` trigger).
- `Context.hits` / `walk` (candidates from an index by act, phase and role, then a compiled test)
  find exactly the events that a plain reading of the pattern, event by event, matches.
- every rule's `holds` on the indexed Context equals `holds` on a Context that scans every event
  with that plain reading.

On the bundled stagings and violations and on seeded mutants of the canonical ceremony (several
mutations each, random pairs), so that machines refuse and rules fire.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import tracegen

from xiangshe.constraints.pattern import NONE, PERSON_ATTRS, Context, Pattern
from xiangshe.constraints.rulebook import rulebook
from xiangshe.domain.parse import TraceErrors, parse_file, parse_lines
from xiangshe.domain.trace import Event, Trace
from xiangshe.domain.vocabulary import PERSON_KEYS
from xiangshe.fsm.replay import replay, replay_triggers

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "traces").rglob("*.trace"))
RULES = [r for r in rulebook() if r.encoded]
PATTERNS = sorted({p for r in RULES for p in r.template.patterns()}, key=str)


def mutants(count: int = 12, edits: int = 6) -> list[Trace]:
    canon = tracegen.canonical()
    lines = tracegen.canonical_lines(canon)
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        got = list(lines)
        for _ in range(edits):
            got = tracegen.mutate(got, rng, canon)
        header = tracegen.random_header(canon, rng) if seed % 2 else tracegen.cast_header(canon)
        out.append(parse_lines(tracegen.render(header, got), f"mutant{seed}.trace"))
    return out


TRACES = [parse_file(p, str(p.relative_to(ROOT))) for p in BUNDLED] + mutants()
IDS = [str(p.relative_to(ROOT)) for p in BUNDLED] + [f"mutant{i}" for i in range(len(TRACES) - len(BUNDLED))]


def plain_value(ctx: Context, e: Event, key: str) -> str | None:
    """What a pattern's key reads of an event, spelled out (the specification of Context.value)."""
    if key == "actor":
        return e.actor
    if key == "obj":
        return e.obj.key if e.obj else None
    if key == "phase":
        return e.phase
    if key == "round":
        return str(e.round)
    if key == "obj.state":
        return ctx.replay.obj_state[e.index]
    head, dot, attr = key.partition(".")
    if dot:
        who = e.actor if head == "actor" else dict(e.attrs).get(head)
        if who is None:
            return None
        if attr in PERSON_ATTRS:
            return getattr(ctx.persons[who], attr)
        return ctx.replay.actor_state[e.index].get(attr)
    return dict(e.attrs).get(key)


def plain_matches(ctx: Context, p: Pattern, e: Event) -> bool:
    if p.acts is not None and e.act not in p.acts:
        return False
    if p.roles is not None and ctx.persons[e.actor].role not in p.roles:
        return False
    if p.objs is not None and (e.obj is None or e.obj.kind not in p.objs):
        return False
    for c in p.conds:
        v = plain_value(ctx, e, c.key)
        if c.key in PERSON_KEYS and v is not None:
            v = ctx.persons[v].role
        if ((v if v is not None else NONE) in c.values) == c.negate:
            return False
    return True


class ScanContext(Context):
    """A Context that finds a pattern's events by reading every event of the trace plainly."""

    def _hit(self, p: Pattern):
        found = [e for e in self.trace.events if plain_matches(self, p, e)]
        return found, {e.index for e in found}


def test_the_sample_exercises_refusals_and_rules() -> None:
    ctxs = [Context(t, replay(t)) for t in TRACES]
    refusals = sum(len(c.replay.refusals) for c in ctxs)
    fired = sum(bool(r.template.holds(c)) for c in ctxs for r in RULES)
    assert refusals > 20 and fired > 20, (refusals, fired)


@pytest.mark.parametrize("trace", TRACES, ids=IDS)
def test_dict_replay_equals_transitions_triggers(trace: Trace) -> None:
    fast, slow = replay(trace), replay_triggers(trace)
    assert fast.refusals == slow.refusals
    assert fast.obj_state == slow.obj_state
    assert fast.actor_state == slow.actor_state
    assert fast.changes == slow.changes


@pytest.mark.parametrize("trace", TRACES, ids=IDS)
def test_indexed_hits_equal_a_plain_scan(trace: Trace) -> None:
    ctx = Context(trace, replay(trace))
    for p in PATTERNS:
        want = [e.index for e in trace.events if plain_matches(ctx, p, e)]
        assert [e.index for e in ctx.hits(p)] == want, str(p)
        assert [e.index for e in trace.events if ctx.matches(p, e)] == want, str(p)


@pytest.mark.parametrize("trace", TRACES, ids=IDS)
def test_holds_on_the_index_equals_holds_on_a_scan(trace: Trace) -> None:
    rep = replay(trace)
    fast, slow = Context(trace, rep), ScanContext(trace, rep)
    for r in RULES:
        assert r.template.holds(fast) == r.template.holds(slow), r.id


def test_a_repeated_event_is_resolved_again_once_the_cast_grows() -> None:
    """The parser reuses the resolution of an event written as an earlier one, while the cast is
    the same: a role with one person names him, but not once a second is declared."""
    with pytest.raises(TraceErrors) as err:
        parse_lines("cast 甲 众宾\n众宾 揖\n众宾 揖\ncast 乙 众宾\n众宾 揖\n", "m.trace")
    assert [(e.line, e.message) for e in err.value.errors] == [(5, "众宾 is ambiguous: the cast has 甲, 乙")]
    t = parse_lines("cast 甲 众宾\n众宾 揖\n众宾 揖\n众宾3 揖\n众宾3 揖 to=甲\n众宾3 揖\n", "m.trace")
    assert [(e.line, e.actor, e.attrs) for e in t.events] == [
        (2, "甲", ()),
        (3, "甲", ()),
        (4, "众宾3", ()),
        (5, "众宾3", (("to", "甲"),)),
        (6, "众宾3", ()),
    ]
    assert list(t.cast.persons) == ["甲", "众宾3"]
