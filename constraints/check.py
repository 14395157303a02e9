"""Check a trace: replay it through the machines and evaluate every encoded rule (no solver here)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import Rule, active_rules
from xiangshe.constraints.scoring import RoundScore, audit, audit_id
from xiangshe.domain.errors import TraceError, did_you_mean
from xiangshe.domain.gcpause import gc_paused
from xiangshe.domain.parse import TraceErrors
from xiangshe.domain.text import Citation
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import Refusal, object_steps, replay
from xiangshe.fsm.table import Table


@dataclass(frozen=True)
class Finding:
    """One problem in one trace, located in the trace, in the rulebook and in the text."""

    rule: str                 # the rule's id, or machine.<slug> for a machine refusal
    name: str                 # the rule's Chinese name, or the machine's name
    catalogue: str | None
    event: int | None         # 0-based index of the event in the trace
    line: int | None          # line in the trace file
    message: str
    citation: Citation
    defined: str              # where the rule or the machine edge is defined (path:line)
    headings: tuple[str, ...]
    excerpt: str
    reading: str | None = None

    @property
    def sort_key(self) -> tuple:
        return (self.line or 0, self.rule)


@dataclass(frozen=True)
class Result:
    path: str
    events: int
    findings: tuple[Finding, ...]
    scoring: tuple[RoundScore, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.findings


def validate(trace: Trace) -> None:
    """Acts on an object must be acts its machine knows: anything else is bad input (exit 2)."""
    errors = []
    for e in trace.events:
        if e.obj is None:
            continue
        m = object_steps(e.obj.kind)
        if m is not None and e.act not in m.by_act:
            t = m.table
            errors.append(TraceError(trace.path, e.line,
                                     f"{e.act} is not an act on {e.obj.kind}",
                                     trace.line_text(e.line),
                                     f"acts on {e.obj.kind}: {', '.join(t.acts)}; "
                                     + did_you_mean(e.act, t.acts)))
    if errors:
        raise TraceErrors(errors[:20])


def refusal_finding(trace: Trace, r: Refusal) -> Finding:
    t: Table = r.table
    needed = next((e for e in t.edges if e.act == r.event.act), t.edges[0])
    allowed = ", ".join(r.allowed) if r.allowed else "nothing"
    who = r.instance if not t.is_person else f"{r.instance} ({t.name})"
    return Finding(
        rule=f"machine.{t.slug}", name=t.name, catalogue=None, event=r.event.index,
        line=r.event.line,
        message=f"{who} cannot {r.event.act} while {r.state}; allowed here: {allowed}",
        citation=needed.cite,
        defined=f"{t.path}:{needed.defined_at}  {needed.act}: {needed.source} → {needed.dest}",
        headings=(), excerpt=trace.line_text(r.event.line))


def rule_findings(trace: Trace, ctx: Context, rule: Rule) -> list[Finding]:
    assert rule.template is not None
    out = []
    for v in rule.template.holds(ctx):
        if v.at is not None:
            e = trace[v.at]
            index, line = e.index, e.line
        else:
            index, line = None, v.line
        out.append(Finding(rule.id, rule.name, rule.catalogue, index, line, v.message,
                           rule.citations[0], rule.location, rule.headings,
                           trace.line_text(line) if line else "", rule.reading))
    return out


@gc_paused()
def check_trace(trace: Trace, rules: Sequence[Rule] | None = None,
                readings: dict[str, str] | None = None) -> Result:
    """Replay `trace` and evaluate `rules` (default: the rules in force under the default readings)."""
    validate(trace)
    rep = replay(trace)
    findings = [refusal_finding(trace, r) for r in rep.refusals]
    ctx = Context(trace, rep)
    for rule in rules if rules is not None else active_rules():
        if rule.encoded:
            findings += rule_findings(trace, ctx, rule)
    rounds = audit(trace, readings)
    findings += audit_findings(trace, rounds)
    findings.sort(key=lambda f: f.sort_key)
    return Result(trace.path, len(trace), tuple(findings), tuple(rounds))


def audit_findings(trace: Trace, rounds: Sequence[RoundScore]) -> list[Finding]:
    """The scoring audit's failed checks (a wrong announcement, more than four arrows …)."""
    out = []
    for rs in rounds:
        for c in rs.checks:
            if not c.ok:
                out.append(Finding(audit_id(c.catalogue), "数获", c.catalogue, None, c.line,
                                   c.what, c.cite, "constraints/scoring.py  the scoring audit", (),
                                   trace.line_text(c.line) if c.line else ""))
    return out
