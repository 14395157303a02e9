"""What a long staging shares rather than holds once an event (memory per event: benchmarks/parse_speed.py
measures it). A staging repeated three times makes three times the events, not three times the distinct
records: the replay's states of an actor, the events' index ints, the findings' messages and subjects."""

from __future__ import annotations

from functools import cache

from xiangshe.constraints.check import check_trace
from xiangshe.domain.libretto import Options, generate
from xiangshe.domain.parse import parse_jsonl, parse_lines, to_jsonl
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay

_HEAD = ('{"cast"', '{"pair"', '{"occasion"', '{"fragment"')


@cache
def repeated(times: int) -> Trace:
    """The default generated ceremony's declarations, then its phases and events `times` times."""
    lines = to_jsonl(parse_lines(generate(Options()), "<generated>")).splitlines()
    head = [ln for ln in lines if ln.startswith(_HEAD)]
    body = [ln for ln in lines if not ln.startswith(_HEAD)]
    return parse_jsonl("\n".join(head + body * times) + "\n", f"repeated{times}.jsonl")


def test_an_event_holds_one_int_object_for_its_index_and_line() -> None:
    trace = repeated(3)
    ints = {id(e.index) for e in trace.events if e.index > 256} | {id(e.line) for e in trace.events if e.line > 256}
    assert len(ints) <= len(trace.source_lines) < 2 * len(trace.events)
    assert [e.index for e in trace.events] == list(range(len(trace.events)))


def test_replay_shares_its_per_event_records() -> None:
    made = {}
    for times in (1, 3):
        trace = repeated(times)
        rep = replay(trace)
        assert len(rep.actor_state) == len(rep.changes) == len(trace.events)
        states = {(e.actor, tuple(s.items())) for e, s in zip(trace.events, rep.actor_state, strict=True)}
        made[times] = len({id(s) for s in rep.actor_state})
        assert made[times] <= len(states)  # one dict for an actor's equal states
        assert len({id(c) for c in rep.changes}) == len(set(rep.changes))
    assert made[3] < 2 * made[1]


def test_the_findings_share_their_equal_messages_and_subjects() -> None:
    findings = check_trace(repeated(3)).findings
    assert len(findings) > 100
    for field in ("message", "subject", "thread"):
        values = [getattr(f, field) for f in findings]
        assert len({id(v) for v in values}) <= len(set(values)) + sum(f.rule.startswith("audit.") for f in findings)
