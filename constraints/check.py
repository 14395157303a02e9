"""Check a trace: replay it through the machines and evaluate every encoded rule (no solver here)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from xiangshe.constraints.gates import plan
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import Rule, active_rules
from xiangshe.constraints.scope import IDS as SCOPE_IDS
from xiangshe.constraints.scope import (
    NAMES,
    OPEN,
    Pending,
    Problem,
    Scope,
    due_beyond,
    missing_phases,
    scope,
    staged_phases,
)
from xiangshe.constraints.scoring import RoundScore, audit, audit_id, audit_name
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import InputError, TraceError, did_you_mean
from xiangshe.domain.gcpause import gc_paused
from xiangshe.domain.messages import Message
from xiangshe.domain.parse import TraceErrors
from xiangshe.domain.sources import Source
from xiangshe.domain.text import Citation
from xiangshe.domain.trace import Event, Trace
from xiangshe.fsm.replay import Refusal, Replay, Steps, object_steps, replay
from xiangshe.fsm.table import Table

if TYPE_CHECKING:
    from xiangshe.constraints.suppress import Suppression


@dataclass(frozen=True, slots=True)  # slots: a large trace has a hundred thousand of them
class Finding:
    """One problem in one trace, located in the trace, in the rulebook and in the text."""

    rule: str  # the rule's id, or machine.<slug> for a machine refusal
    name: str  # the rule's Chinese name, or the machine's name
    catalogue: str | None
    event: int | None  # 0-based index of the event in the trace
    line: int | None  # line in the trace file
    message: str
    citation: Citation
    defined: str  # where the rule or the machine edge is defined (path:line)
    headings: tuple[str, ...]
    excerpt: str
    reading: str | None = None
    subject: str = ""  # what the finding is about, as the baseline fingerprints it: the event
    # in the vocabulary's words, else the line with its spacing collapsed
    thread: str = ""  # findings with the same thread follow from the first of them
    # (`causes`): a machine instance stuck in one state, or a rule's
    # correlated instance; "" for a finding that stands on its own

    @property
    def sort_key(self) -> tuple[object, ...]:
        return (self.line or 0, self.rule)


@dataclass(frozen=True)
class Suppressed:
    """A finding that is not a violation: suppressed inline (with its reason) or by the baseline."""

    finding: Finding
    kind: str  # "inline" or "baseline"
    reason: str
    line: int | None = None  # where the inline suppression is written


@dataclass(frozen=True)
class Result:
    """The outcome of checking one staging: its findings, or, when it could not be read as a trace,
    its input errors (then it has no events, findings or scoring, and `check` exits 2)."""

    path: str
    events: int
    findings: tuple[Finding, ...]
    scoring: tuple[RoundScore, ...] | None = ()  # None: the audit was not made (no audit.* applied)
    suppressions: tuple[Suppression, ...] = ()  # as written in the trace (constraints/suppress.py)
    suppressed: tuple[Suppressed, ...] = ()  # findings suppressed (constraints/lint.py)
    not_applied: tuple[str, ...] = ()  # the checks not applied to it (--select, --ignore …)
    input_errors: tuple[InputError, ...] = ()  # when it could not be read as a trace
    more_errors: int = 0  # how many more input errors were only counted
    scope: Scope | None = None  # what the check covered (constraints/scope.py)

    @property
    def ok(self) -> bool:
        return not self.findings and not self.input_errors

    @property
    def readable(self) -> bool:
        return not self.input_errors

    def input_text(self) -> str:
        """The located input errors as `check` prints them (and how many more were only counted)."""
        if not self.input_errors:
            return ""
        return TraceErrors(list(self.input_errors), self.more_errors).render()


def unreadable(path: str, err: TraceErrors | InputError) -> Result:
    """The result of a staging that could not be read: its located input errors, in its place."""
    errors = tuple(err.errors) if isinstance(err, TraceErrors) else (err,)
    return Result(path, 0, (), (), input_errors=errors, more_errors=getattr(err, "more", 0))


@gc_paused()  # the trace is read and checked under one pause: no collection walks it in between
def check_source(
    source: Source,
    rules: Sequence[Rule] | None = None,
    readings: dict[str, str] | None = None,
    applied: Collection[str] | None = None,
) -> Result:
    """Read and check one source; its input errors, if it cannot be read, become its result (one
    bad file never hides the others). `applied`: as for `check_trace`."""
    try:
        trace = source.read()
        return check_trace(trace, rules, readings, applied)
    except (TraceErrors, TraceError) as err:
        return unreadable(source.display, err)


def validate(trace: Trace) -> None:
    """Acts on an object must be acts its machine knows: anything else is bad input (exit 2)."""
    errors = []
    machines: dict[str, Steps | None] = {}  # an object kind's machine, looked up once per kind
    for e in trace.events:
        if e.obj is None:
            continue
        kind = e.obj.kind
        m = machines[kind] if kind in machines else machines.setdefault(kind, object_steps(kind))
        if m is not None and e.act not in m.by_act:
            t = m.table
            errors.append(
                TraceError(
                    trace.path,
                    e.line,
                    Message("input.not-an-act", act=e.act, kind=e.obj.kind),
                    trace.line_text(e.line),
                    Message("input.acts-on", kind=e.obj.kind, acts=", ".join(t.acts), hint=did_you_mean(e.act, t.acts)),
                )
            )
    if errors:
        raise TraceErrors(errors[:20])


def refusal_finding(trace: Trace, r: Refusal, thread: str = "", shared: Shared | None = None) -> Finding:
    """The finding of a machine's refusal. With `shared`, what equal refusals say is made once."""
    t: Table = r.table
    share = shared or Shared()
    key = (t.path, t.name, r.instance, r.event.act, r.state, r.allowed)
    said = share.refusals.get(key)
    if said is None:
        needed = next((e for e in t.edges if e.act == r.event.act), t.edges[0])
        who = r.instance if not t.is_person else f"{r.instance} ({t.name})"
        said = share.refusals[key] = (
            f"machine.{t.slug}",
            Message("machine.refused", who=who, act=r.event.act, state=r.state, allowed=", ".join(r.allowed))
            if r.allowed
            else Message("machine.refused-nothing", who=who, act=r.event.act, state=r.state),
            needed.cite,
            f"{t.path}:{needed.defined_at}  {needed.act}: {needed.source} → {needed.dest}",
        )
    rule, message, citation, defined = said
    return Finding(
        rule=rule,
        name=t.name,
        catalogue=None,
        event=r.event.index,
        line=r.event.line,
        message=message,
        citation=citation,
        defined=defined,
        headings=(),
        excerpt=trace.line_text(r.event.line),
        subject=share.subject(r.event),
        thread=share.text(thread),
    )


def rule_findings(trace: Trace, ctx: Context, rule: Rule, shared: Shared | None = None) -> list[Finding]:
    """The findings of one rule on the trace of `ctx`. With `shared`, the equal values of findings (a
    message, an event's words, a thread) are one object across the rules and events of a check."""
    found = rule.template.holds(ctx)  # (an AttributeError for a rule without a template)
    if not found:  # most rules a check evaluates find nothing
        return []
    share = shared or Shared()
    out = []
    rid, name, catalogue, citation, location = rule.id, rule.name, rule.catalogue, rule.citations[0], rule.location
    headings, reading = rule.headings, rule.reading
    for v in found:
        index: int | None
        line: int | None
        if v.at is not None:
            e = trace[v.at]
            index, line, subject = e.index, e.line, share.subject(e)
        else:
            index, line, subject = None, v.line, _subject(trace, v.line)
        thread = share.text(f"{rid}|{v.key!r}") if v.key is not None else ""
        out.append(
            Finding(
                rid,
                name,
                catalogue,
                index,
                line,
                share.message(v.message),
                citation,
                location,
                headings,
                trace.line_text(line) if line else "",
                reading,
                subject,
                thread,
            )
        )
    return out


class Shared:
    """The values of one check's findings, each made once: a large trace repeats its events, and its
    findings repeat their messages, subjects and threads (a million events find a hundred thousand
    times what a few hundred distinct ones say). Only values that are equal in every language are
    shared: a message is keyed by its name and its parameters' values, not by its English text."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        self._subjects: dict[tuple[object, ...], str] = {}
        self._messages: dict[object, str] = {}
        #: what a machine's refusal says (its rule, message, citation, definition), by the refusal's words
        self.refusals: dict[tuple[object, ...], tuple[str, str, Citation, str]] = {}

    def text(self, s: str) -> str:
        return self._texts.setdefault(s, s)

    def subject(self, e: Event) -> str:
        """The event as its findings name it (`Event.render`), made once for its words."""
        key = (e.actor, e.act, e.obj_token, e.attrs)
        got = self._subjects.get(key)
        if got is None:
            got = self._subjects[key] = e.render()
        return got

    def message(self, m: str) -> str:
        key = _structure(m)
        return m if key is None else self._messages.setdefault(key, m)


def _structure(value: object) -> object:
    """A key equal for two values only if they say the same in every language (a message: its name
    and its parameters' keys, recursively), or None when that cannot be told."""
    kind = type(value)
    if kind is Message:
        assert isinstance(value, Message)
        parts: list[object] = [kind, value.name]
        for k, v in value.params.items():
            got = _structure(v)
            if got is None:
                return None
            parts += (k, got)
        return tuple(parts)
    if kind in (str, int, bool) or value is None:
        return (kind, value)
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None and params.frozen:  # a pattern: equal fields, equal text
        try:
            hash(value)
        except TypeError:
            return None
        return (kind, value)
    return None


def refusal_threads(trace: Trace, rep: Replay) -> list[str]:
    """For each refusal of `rep`, its thread: a machine instance refused again in the state it was
    first refused in, with nothing having moved it since (a refusal leaves the machine where it
    was), is judged against the same stale state, so its later refusals follow from the first; the
    thread is the instance, its state and the event of the first refusal of the run."""
    if not rep.refusals:
        return []
    moved: dict[object, list[int]] = {}  # (label, actor) and label -> the events that moved it
    for e, changes in zip(trace.events, rep.changes, strict=True):
        for label, _, _ in changes:  # (the event's own index: its int is not made again)
            moved.setdefault((label, e.actor), []).append(e.index)
            moved.setdefault(label, []).append(e.index)
    runs: dict[object, tuple[str, int]] = {}  # instance -> (state, event of the first refusal of its run)
    out = []
    for r in rep.refusals:
        t = r.table
        ident = (t.name, r.instance) if t.is_person else (t.slug, r.instance)
        moves = moved.get((t.name, r.instance) if t.is_person else r.instance, [])
        run = runs.get(ident)
        if run is None or run[0] != r.state or bisect_left(moves, r.event.index) > bisect_left(moves, run[1]):
            run = runs[ident] = (r.state, r.event.index)
        out.append(f"machine.{t.slug}|{r.instance}|{r.state}|{run[1]}")
    return out


#: the findings that are never grouped under a refusal at their event (`causes`, rule 3)
STANDALONE = ("audit.", "scope.", "suppression.")


def causes(findings: Sequence[Finding]) -> list[int | None]:
    """For each finding, the index (in `findings`) of the finding it follows from, or None for a
    cause: one fault, one finding shown, the rest grouped under it. The heuristic, in order:

    1. a machine refusal of an instance that is still in the state it was first refused in, with
       nothing having moved it since, follows from that first refusal (the machine stays where it
       was on a refusal, so every later act of the instance is judged against the stale state);
    2. a finding of a rule about the same correlated instance as an earlier finding of that rule,
       for the kinds where one fault makes every later event of the instance fail (precedence,
       response, count_before: constraints/templates.py), follows from the first;
    3. any other finding of a rule or a machine at an event a machine refused follows from that
       refusal (one faulty event, one cause); the findings of the scoring audit, of the scope and
       of suppressions say something else about the staging and stand on their own.

    A finding is only ever grouped under a cause (the root of its chain), never under another
    consequence; nothing is dropped: every finding stays in the list, and the JSON marks the
    grouped ones with `caused_by`."""
    parent: list[int | None] = [None] * len(findings)
    first: dict[str, int] = {}
    for i, f in enumerate(findings):
        if f.thread:
            if f.thread in first:
                parent[i] = first[f.thread]
            else:
                first[f.thread] = i
    refused: dict[int, int] = {}
    for i, f in enumerate(findings):
        if f.rule.startswith("machine.") and f.event is not None:
            refused.setdefault(f.event, i)
    for i, f in enumerate(findings):
        if (
            parent[i] is None
            and f.event is not None
            and refused.get(f.event, i) != i
            and not f.rule.startswith(STANDALONE)
        ):
            parent[i] = refused[f.event]

    def root(i: int) -> int:
        seen = {i}
        while (up := parent[i]) is not None and up not in seen:
            i = up
            seen.add(i)
        return i

    out: list[int | None] = []
    for i in range(len(findings)):
        r = root(i) if parent[i] is not None else i
        out.append(None if r == i else r)
    return out


#: the replay of a check that applies no machine, no rule reading a state and no `scope.open`:
#: nothing reads it (Template.reads_machines; a read of it would fail, not pass unseen)
NOT_REPLAYED = Replay()


@gc_paused()
def check_trace(
    trace: Trace,
    rules: Sequence[Rule] | None = None,
    readings: dict[str, str] | None = None,
    applied: Collection[str] | None = None,
) -> Result:
    """Replay `trace` and evaluate `rules` (default: the rules in force under the default readings).

    `applied`: the ids of the checks whose findings will be kept (the selection, constraints/lint.py;
    None: all). The check then does only what they read: a rule outside it is not evaluated (its
    findings would be dropped); the machines are replayed only for a machine's check (`machine.*`),
    a rule that reads a state (`Template.reads_machines`) or `scope.open`; the scoring audit is
    made only for one of its checks (`audit.*`), else the result has no scoring (None). The scope
    lists the rules applied (and a fragment's pending obligations of those), what is left open
    only when `scope.open` is applied (else None: not looked at), and finds only what its checks
    applied find. Its other parts (the claim, the phases staged or missing, the occasion) are
    always stated: they cost one pass over the events."""
    validate(trace)
    suppressions: tuple[Suppression, ...] = ()
    if trace.directives:
        from xiangshe.constraints.suppress import read

        suppressions = read(trace)
    rules = rules if rules is not None else active_rules()
    steps = full = plan(rules)  # the rules applied, with their gates
    machines = audited = True
    checks: Collection[str] = SCOPE_IDS
    if applied is not None:
        steps = steps.only(applied)
        machines = any(i.startswith("machine.") for i in applied)
        audited = any(i.startswith("audit.") for i in applied)
        checks = [i for i in SCOPE_IDS if i in applied]
    looked = OPEN in checks
    replayed = machines or looked or bool(steps.read_machines)
    rep = replay(trace) if replayed else NOT_REPLAYED
    shared = Shared()
    findings: list[Finding] = []
    if machines:
        threads = refusal_threads(trace, rep)
        findings = [refusal_finding(trace, r, th, shared) for r, th in zip(rep.refusals, threads, strict=True)]
        del threads
    ctx = Context(trace, rep, steps.network_for(trace))
    staged = staged_phases(trace)  # read once, for the phases a whole staging misses and for its scope
    pending: list[Pending] = []
    missing: tuple[str, ...] | None = None  # the phases a whole staging misses, found at its first finding
    for rule in steps.run(ctx):  # the others find nothing here, by their templates' contract
        for f in rule_findings(trace, ctx, rule, shared):
            if missing is None:
                missing = missing_phases(trace, staged)
            if due_beyond(trace, rule, f.event, missing):  # a fragment (or a staging cut short) stops before it is due
                pending.append(Pending(f.rule, f.line, f.message))
            else:
                findings.append(f)
    rounds = audit(trace, readings) if audited else None
    if rounds is not None:
        findings += audit_findings(trace, rounds)
    covered, problems = scope(trace, rep if looked else None, ctx, steps, checks, staged)
    narrowed = steps is not full  # Plan.only gives the plan itself when every rule is applied
    covered = replace(covered, pending=tuple(pending), narrowed=narrowed)
    findings += [scope_finding(trace, p) for p in problems]
    findings.sort(key=lambda f: f.sort_key)
    scoring = tuple(rounds) if rounds is not None else None
    return Result(trace.path, len(trace), tuple(findings), scoring, suppressions, scope=covered)


def scope_finding(trace: Trace, p: Problem) -> Finding:
    """A scope check's finding (a whole ceremony that is not whole, something left open …)."""
    return Finding(
        p.check,
        NAMES[p.check],
        None,
        p.event,
        p.line,
        p.message,
        p.citation,
        Message("defined.scope", path="constraints/scope.py"),
        (),
        trace.line_text(p.line) if p.line else "",
        None,
        p.subject,
    )


def _subject(trace: Trace, line: int | None) -> str:
    return " ".join(trace.line_text(line).split()) if line else ""


def audit_findings(trace: Trace, rounds: Sequence[RoundScore]) -> list[Finding]:
    """The scoring audit's failed checks (a wrong announcement, more than four arrows …), each under
    its own check's name; `event` is the index of the event the check is about (the announcement),
    None for a check about a round as a whole (the counts of N01, N06, N08)."""
    failed = {c.line for rs in rounds for c in rs.checks if not c.ok and c.line}
    at_line = {e.line: e.index for e in trace.events if e.line in failed} if failed else {}
    out = []
    for rs in rounds:
        for c in rs.checks:
            if not c.ok:
                out.append(
                    Finding(
                        audit_id(c.catalogue),
                        audit_name(c.catalogue),
                        c.catalogue,
                        at_line.get(c.line) if c.line else None,
                        c.line,
                        c.what,
                        c.cite,
                        Message("defined.audit", path="constraints/scoring.py"),
                        (),
                        trace.line_text(c.line) if c.line else "",
                        None,
                        _subject(trace, c.line),
                    )
                )
    return out
