"""The frontier of a partial staging: what may come next, what must still happen, and its completion.

A partial staging is a prefix of a ceremony (it may or may not declare itself a `fragment`). Three
sources say what follows it:

- the machines (fsm/): each person's and each object's state after the prefix, and the acts their
  edges allow from there (an act one of a person's machines knows and refuses is not allowed);
- the libretto (domain/libretto/): the prefix is aligned with the canonical performance for the
  staging's options (read from the header's `Options(…)` line that `generate` writes, else inferred
  from the cast and the pairs, the text's branches tried in turn until one performance holds the
  whole prefix); the performance then says which event comes next, who acts next in the current
  phase, and which clauses of the text are still to be enacted in it;
- the rules in force: a candidate next event is checked by appending it to the prefix; one that
  would break a machine or a rule at once is marked with what it would break (never silently kept).

What must still happen: the cups filled and not yet drunk, the round of shooting begun and not
finished, the rules triggered whose response is still pending (constraints/scope.py `Pending`, the
contract of the response templates: `owed_after`), the implements whose part has not ended (the
`final` states of their machines) and the libretto's clauses of the current phase not yet enacted —
each with the text that asks for it, a quote located in the text (domain/text.py).

`complete` appends the performance after the aligned point, up to the end of the current phase or
of the ceremony, adjusts the `fragment` line to the phases the result stages (the only line of the
input it may change, and it says so), and checks the result with the real checker before it is shown.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import field, fields, replace
from functools import lru_cache

from xiangshe.constraints.check import Finding, Result, check_trace
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.scope import ends
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.libretto import Cast as LibrettoCast
from xiangshe.domain.libretto import Options, StagingError
from xiangshe.domain.libretto.perform import Clause, header, perform
from xiangshe.domain.parse import parse_lines
from xiangshe.domain.text import Citation
from xiangshe.domain.trace import Event, Fragment, Trace, phase_span
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.fsm.replay import object_steps, person_tables, replay, steps
from xiangshe.fsm.table import Table

#: vessels whose filled states are a debt: the cup must be drunk (卒爵, 卒觯) before the ceremony moves on
FILLED = {"爵": ("实", "实·不洗"), "觯": ("实", "实·不洗")}
DRAIN = {"爵": "卒爵", "觯": "卒觯"}
_OPTIONS_LINE = re.compile(r"^#\s*Options\((?P<args>.*)\)\s*$")
_TO = ("phase", "end")


# -- the staging's options -----------------------------------------------------------------------


def header_options(trace: Trace) -> Options | None:
    """The options `generate` wrote in the header (`#   Options(zhongbin=6, …)`), if any and valid."""
    first_event = trace.events[0].line if trace.events else len(trace.source_lines) + 1
    for raw in trace.source_lines[: first_event - 1]:
        m = _OPTIONS_LINE.match(raw.strip())
        if m is None:
            continue
        try:
            call = ast.parse(f"f({m['args']})", mode="eval").body
            assert isinstance(call, ast.Call)
            known = {f.name for f in fields(Options)}
            kw = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg in known}
            if "outcome" in kw:
                kw["outcome"] = tuple(kw["outcome"])
            kw["until"] = "Φ52"
            return Options(**kw)
        except (SyntaxError, ValueError, TypeError, AssertionError, StagingError):
            return None
    return None


def cast_options(trace: Trace) -> Options:
    """The options the cast and the pairs show (who takes part, who shoots); the rest default."""
    roles = trace.cast.by_role
    persons = trace.cast.persons
    pairs = trace.cast.pairs.values()
    zhongbin = len(roles.get("众宾", ()))
    dafu = len(roles.get("大夫", ()))
    shooters = {p.upper for p in pairs} | {p.lower for p in pairs}

    def role(name: str) -> str:
        return persons[name].role if name in persons else ""

    dafu_shoot = any(role(n) == "大夫" for n in shooters)
    zhong_pairs = sum(1 for p in pairs if role(p.upper) == "众宾" and role(p.lower) == "众宾")
    kw: dict[str, object] = {
        "zhongbin": zhongbin or 6,
        "dafu": dafu,
        "zhugong": len(roles.get("诸公", ())),
        "taishi": bool(roles.get("大师")),
        "bin_zhuren_shoot": any(role(n) == "宾" for n in shooters),
        "dafu_shoot": dafu_shoot if dafu else True,
        "zhongbin_pairs": zhong_pairs if trace.cast.pairs else 1,
        "zhang_shoot": "众宾1" in shooters,
    }
    if trace.occasion.presiding == "君":
        kw["jun"] = "与射"
    try:
        return Options(**kw)  # type: ignore[arg-type]
    except StagingError:
        return Options()


def candidates(base: Options) -> list[Options]:
    """`base`, then the text's branches that the cast does not show, one combination at a time."""
    out = [base]
    outcomes = [(a, b) for a in ("右", "左", "钧") for b in ("右", "左", "钧")]
    for shi_bu_bei in (base.shi_bu_bei, not base.shi_bu_bei):
        for yu in (base.yu, not base.yu):
            for outcome in outcomes:
                for loses in (False, True):
                    try:
                        o = replace(base, shi_bu_bei=shi_bu_bei, yu=yu, outcome=outcome, dafu_partner_loses=loses)
                    except StagingError:
                        continue
                    if o not in out:
                        out.append(o)
    return out


# -- the libretto's performance, as events -------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One event of the libretto's performance."""

    key: tuple[str, ...]  # the event's words, normalised for comparison
    text: str  # the event as the trace writes it
    line: int  # its index in `Script.lines`
    phase: str | None
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Script:
    """The performance of the libretto for one set of options, as trace lines and as steps."""

    options: Options
    lines: tuple[str, ...]  # the trace text's lines (header and body)
    body: int  # index in `lines` of the body's first line
    steps: tuple[Step, ...]
    clauses: tuple[Clause, ...]


def event_key(text: str) -> tuple[str, ...]:
    """An event's words for comparison: actor, act, then the rest in sorted order."""
    words = text.split()
    return (*words[:2], *sorted(words[2:]))


def event_keys(trace: Trace, e: Event) -> set[tuple[str, ...]]:
    """An event's forms for comparison: as written (the libretto writes 司马 for the 司正 who acts as
    司马) and in the vocabulary's words."""
    written = trace.line_text(e.line).partition("#")[0].strip()
    return {event_key(e.render()), *([event_key(written)] if written else [])}


def script(options: Options, title: str = "乡射礼 — a staging") -> Script:
    """The libretto performed for `options` (the whole ceremony), as a Script; kept for the last few
    options (by their repr: Options compares without its explicit arrows)."""
    return _script(repr(options), title, options)


@lru_cache(maxsize=8)
def _script(key: str, title: str, options: Options) -> Script:  # noqa: ARG001 (`key` keys the cache)
    return _perform(title, options, "Φ52")


def _perform(title: str, options: Options, until: str) -> Script:
    """The libretto performed for `options` up to the phase `until` (not kept: the callers keep it)."""
    o = replace(options, until=until, arrows=dict(options.arrows))
    cast = LibrettoCast(o)
    perf = perform(o, cast)
    head = header(o, cast, title)
    out: list[Step] = []
    phase = None
    for i, row in enumerate(perf.lines):
        if row.startswith("phase "):
            phase = row.split()[1]
        elif row and not row.startswith("#"):
            event = row.partition("#")[0].strip()
            out.append(Step(event_key(event), event, len(head) + i, phase, perf.enacts.get(i, ())))
    return Script(o, tuple(head + perf.lines), len(head), tuple(out), tuple(perf.clauses))


# -- aligning a prefix with the performance -------------------------------------------------------


@dataclass(frozen=True)
class Departure:
    """Where the prefix leaves the libretto: its event, and what the libretto has there instead."""

    line: int
    found: str
    expected: str | None  # None: the libretto has ended
    clauses: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class Alignment:
    script: Script
    source: str  # where the options come from: "header" or "cast"
    start: int  # the step where the prefix's first event stands
    matched: int  # how many of the prefix's events the libretto holds, from `start`
    departure: Departure | None

    @property
    def next_step(self) -> int:
        return self.start + self.matched


def _match(keys: Sequence[set[tuple[str, ...]]], steps: Sequence[Step], phase: str | None) -> tuple[int, int]:
    """The start (in `steps`) that holds the longest run of `keys` (each event's forms), and that
    run's length."""
    if not keys:
        return 0, 0
    best = (0, 0)
    for j, s in enumerate(steps):
        if s.key not in keys[0] or (phase is not None and s.phase != phase):
            continue
        n = 0
        while n < len(keys) and j + n < len(steps) and steps[j + n].key in keys[n]:
            n += 1
        if n > best[1]:
            best = (j, n)
        if n == len(keys):
            break
    return best


def align(trace: Trace) -> Alignment:
    """Align `trace` with the performance of its options (see the module's docstring)."""
    keys = [event_keys(trace, e) for e in trace.events]
    phase = trace.events[0].phase if trace.events else None
    title = _title(trace)
    given = header_options(trace)
    tried = [("header", given)] if given is not None else []
    tried += [("cast", o) for o in candidates(cast_options(trace))]
    # matched against the performance up to the prefix's last phase (its steps are the first steps of
    # the whole one): a departing prefix tries every candidate, and most differ only later
    upto = max((e.phase for e in trace.events if e.phase), default="Φ52")
    best: tuple[Options, str, int, int] | None = None
    for source, o in tried:
        start, n = _match(keys, _steps_until(o, upto), phase)
        if best is None or n > best[3]:
            best = (o, source, start, n)
        if n == len(keys):
            break
    assert best is not None
    chosen, source, start, n = best
    s = script(chosen, title)
    departure = None
    if n < len(keys):
        e = trace.events[n]
        step = s.steps[start + n] if n and start + n < len(s.steps) else None
        if not n:  # nothing matched: the libretto's first step of the prefix's phase
            step = next((x for x in s.steps if phase is None or x.phase == phase), None)
        departure = Departure(
            e.line, e.render(), step.text if step else None, tuple(c.cite for c in step.clauses) if step else ()
        )
    return Alignment(s, source, start, n, departure)


@lru_cache(maxsize=64)
def _steps_until_key(key: str, options: Options, until: str) -> tuple[Step, ...]:  # noqa: ARG001 (`key` keys the cache)
    return _perform("", options, until).steps


def _steps_until(options: Options, until: str) -> tuple[Step, ...]:
    """The libretto's steps for `options` up to the phase `until` (kept for many options: the
    candidates a departing prefix is tried against)."""
    return _steps_until_key(repr(options), options, until)


def _title(trace: Trace) -> str:
    first = trace.source_lines[0] if trace.source_lines else ""
    return first[2:] if first.startswith("# ") else "乡射礼 — a staging"


# -- states after the prefix ---------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """An act a machine allows from a state, with the words of the text its edge quotes."""

    act: str
    machine: str
    state: str
    cite: Citation


@dataclass(frozen=True)
class Standing:
    """A person's or an object's machines after the prefix: their states and the acts they allow."""

    who: str
    states: tuple[tuple[str, str], ...]  # (machine, state)
    allowed: tuple[Allowed, ...]


def _allowed(table: Table, state: str) -> list[Allowed]:
    seen: dict[str, Allowed] = {}
    for e in table.edges:
        if e.source == state and e.act not in seen:
            seen[e.act] = Allowed(e.act, table.name, state, e.cite)
    return list(seen.values())


def standings(trace: Trace) -> tuple[list[Standing], list[Standing]]:
    """Each person's and each object instance's states after `trace`, and the acts allowed next."""
    people: dict[str, dict[str, tuple[Table, str]]] = {
        name: {t.name: (t, t.initial) for t in person_tables(p)} for name, p in trace.cast.persons.items()
    }
    objects: dict[str, tuple[Table, str]] = {}
    for e in trace.events:
        if e.obj is not None:
            m = object_steps(e.obj.kind)
            if m is not None:
                table, state = objects.get(e.obj.key, (m.table, m.initial))
                objects[e.obj.key] = (table, m.by_act.get(e.act, {}).get(state, state))
        for name, (table, state) in list(people.get(e.actor, {}).items()):
            row = steps(table).by_act.get(e.act)
            if row is not None and state in row:
                people[e.actor][name] = (table, row[state])
    persons = []
    for who, machines in people.items():
        allowed: list[Allowed] = []
        for table, state in machines.values():
            allowed += _allowed(table, state)
        refused = {
            a.act
            for a in allowed
            for t, s in machines.values()
            if a.act in steps(t).by_act and s not in steps(t).by_act[a.act]
        }
        persons.append(
            Standing(
                who,
                tuple((t.name, s) for t, s in machines.values()),
                tuple(a for a in allowed if a.act not in refused),
            )
        )
    things = [Standing(key, ((t.name, s),), tuple(_allowed(t, s))) for key, (t, s) in objects.items()]
    return persons, things


# -- next ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """An event the libretto has someone do next, and what it would break if it came now."""

    who: str
    event: str
    cites: tuple[Citation, ...]
    breaks: tuple[str, ...]  # ids of the machines and rules it would break at once ("" none)
    first: bool  # the libretto's very next event


@dataclass(frozen=True)
class Obligation:
    """Something the prefix leaves owed, with the words of the text that ask for it."""

    kind: str  # cup, round, rule, implement, clause
    what: str  # a Message
    line: int | None  # the line of the prefix where it was opened
    cites: tuple[Citation, ...]
    rule: str | None = None


@dataclass(frozen=True)
class Frontier:
    path: str
    events: int
    phase: str | None  # the current phase (the last declared, else the last event's)
    options: Options
    source: str
    aligned: bool
    departure: Departure | None
    findings: tuple[Finding, ...]  # what the prefix already breaks
    candidates: tuple[Candidate, ...]
    obligations: tuple[Obligation, ...]
    persons: tuple[Standing, ...]
    objects: tuple[Standing, ...]
    result: Result = field(repr=False, compare=False, default=None)  # type: ignore[assignment]


def as_fragment(trace: Trace) -> Trace:
    """`trace` checked as the part it is: a fragment, with the phases it declares or none named."""
    if trace.fragment is not None:
        return trace
    return replace(trace, fragment=Fragment(0, None))


def current_phase(trace: Trace) -> str | None:
    last_event = trace.events[-1].phase if trace.events else None
    last_line = trace.phase_lines[-1][1] if trace.phase_lines else None
    if last_line is None:
        return last_event
    if last_event is None:
        return last_line
    order = list(vocabulary().phases)
    return max(last_line, last_event, key=order.index)


def still_owed(rule: Rule | None, phase: str | None) -> bool:
    """Is a finding of `rule` on a prefix that stops in `phase` a debt rather than a fault? So for a
    rule whose answer comes after its trigger (`owed_after`: a response) unless the phases where the
    answer is due are all behind: a prefix stops where it stops, even in the middle of a phase."""
    if rule is None or not rule.encoded or not rule.template.owed_after:
        return False
    order = list(vocabulary().phases)
    due = [v for p in rule.template.needs() for c in p.conds if c.key == "phase" and not c.negate for v in c.values]
    here = order.index(phase) if phase in order else len(order)
    return not due or max(order.index(p) for p in due if p in order) >= here


def split(
    result: Result, rules: Sequence[Rule], phase: str | None, trace: Trace | None = None
) -> tuple[list[Finding], list[Finding]]:
    """A prefix's findings: faults (scope findings left out: a prefix is a part), and debts: the
    responses still owed (`still_owed`), and the scoring audit's checks of the round under way (a
    prefix that stops in the middle of the count has not laid it all out yet)."""
    by_id = {r.id: r for r in rules}
    rnd = vocabulary().phases[phase].round if phase in vocabulary().phases else 0
    begun = next((e.line for e in trace.events if e.round == rnd), None) if trace is not None and rnd else None
    faults: list[Finding] = []
    debts: list[Finding] = []
    for f in result.findings:
        if f.rule.startswith("scope."):
            continue
        audit_due = f.rule.startswith("audit.") and begun is not None and (f.line is None or f.line >= begun)
        (debts if audit_due or still_owed(by_id.get(f.rule), phase) else faults).append(f)
    return faults, debts


def _with_event(trace: Trace, event: str, phase: str | None = None) -> Trace:
    """`trace` with `event` appended (under a `phase` line when it begins another phase)."""
    heading = [f"phase {phase}"] if phase is not None and phase != current_phase(trace) else []
    text = "\n".join([*trace.source_lines, *heading, event]) + "\n"
    return as_fragment(parse_lines(text, trace.path))


def _breaks(trace: Trace, event: str, rules: Sequence[Rule], phase: str | None = None) -> tuple[str, ...]:
    """What `event`, appended to `trace`, would break at once (machines and rules at its line)."""
    from xiangshe.constraints.check import refusal_finding, rule_findings
    from xiangshe.constraints.gates import plan
    from xiangshe.constraints.pattern import Context

    longer = _with_event(trace, event, phase)
    last = longer.events[-1]
    rep = replay(longer)
    found = [refusal_finding(longer, r) for r in rep.refusals if r.event.index == last.index]
    ctx = Context(longer, rep)
    by_id = {r.id: r for r in rules}
    for rule in plan(rules).run(ctx):  # the rules only (the audit of a round under way is owed, not broken)
        found += [f for f in rule_findings(longer, ctx, rule) if f.event == last.index]
    here = current_phase(longer)
    return tuple(dict.fromkeys(f.rule for f in found if not still_owed(by_id.get(f.rule), here)))


def next_steps(
    trace: Trace, rules: Sequence[Rule], readings: dict[str, str] | None = None, alignment: Alignment | None = None
) -> Frontier:
    """What may come next after `trace` and what must still happen (see the module's docstring)."""
    from xiangshe.domain.messages import Message

    al = alignment or align(trace)
    part = as_fragment(trace)
    result = check_trace(part, rules, readings)
    phase = current_phase(trace)
    persons, objects = standings(trace)
    s = al.script
    rest = list(s.steps[al.next_step :]) if al.departure is None else []
    here = [x for x in rest if x.phase == phase or phase is None]
    if here and phase is None:
        here = [x for x in here if x.phase == here[0].phase]
    if not here and rest:  # the phase is done: what the next one begins with
        here = [x for x in rest if x.phase == rest[0].phase]
    firsts: dict[str, Step] = {}
    for x in here:
        firsts.setdefault(x.key[0], x)
    cands = []
    for who, x in firsts.items():
        cands.append(
            Candidate(
                who,
                x.text,
                tuple(c.cite for c in x.clauses),
                _breaks(trace, x.text, rules, x.phase),
                x is rest[0],
            )
        )
    obligations: list[Obligation] = []
    states = {o.who: o for o in objects}
    last_line: dict[str, int] = {}
    for e in trace.events:
        if e.obj is not None:
            last_line[e.obj.key] = e.line
    for key, st in states.items():
        (machine, state) = st.states[0]
        kind = next((k for k in FILLED if machine == k), None)
        if kind is None or state not in FILLED[kind]:
            continue
        drain = next((x for x in rest if x.key[1] == DRAIN[kind] and key in _objects(x.text)), None)
        cites = tuple(c.cite for c in drain.clauses) if drain is not None else ()
        if not cites:
            edge = next(e for e in _table(machine).edges if e.act == DRAIN[kind] and e.source == state)
            cites = (edge.cite,)
        by = f" ({drain.text})" if drain is not None else ""
        obligations.append(
            Obligation("cup", Message("frontier.cup", cup=key, state=state, by=by), last_line.get(key), cites)
        )
    rnd = vocabulary().phases[phase].round if phase else 0
    if rnd:
        in_round = [p for p, ph in vocabulary().phases.items() if ph.round == rnd]
        begun = next((e for e in trace.events if e.round == rnd), None)
        if phase != in_round[-1] or any(x.phase == phase for x in rest):
            closing = [x for x in s.steps if x.phase == in_round[-1] and x.clauses]
            ends_with = closing[-1].clauses[-1:] if closing else ()
            obligations.append(
                Obligation(
                    "round",
                    Message("frontier.round", round=rnd, phase=phase, last=in_round[-1]),
                    begun.line if begun else None,
                    tuple(c.cite for c in ends_with),
                )
            )
    by_id = {r.id: r for r in rules}
    faults, debts = split(result, rules, phase, trace)
    for p in result.scope.pending if result.scope else ():
        r = by_id.get(p.rule)
        obligations.append(
            Obligation(
                "rule",
                Message("frontier.pending", rule=p.rule, name=r.name if r else p.rule, message=p.message),
                p.line,
                tuple(r.citations[:1]) if r else (),
                p.rule,
            )
        )
    for f in debts:
        obligations.append(
            Obligation(
                "rule",
                Message("frontier.pending", rule=f.rule, name=f.name, message=f.message),
                f.line,
                (f.citation,),
                f.rule,
            )
        )
    for o in ends(trace, replay(trace)):
        if states.get(o.instance) is None or o.machine in FILLED:
            continue
        obligations.append(
            Obligation(
                "implement",
                Message("frontier.implement", instance=o.instance, state=o.state, final=" / ".join(o.final)),
                o.line,
                (o.citation,),
            )
        )
    seen: set[int] = set()
    for x in here:
        for c in x.clauses:
            if id(c) not in seen:
                seen.add(id(c))
                obligations.append(Obligation("clause", Message("frontier.clause", phase=x.phase), None, (c.cite,)))
    findings = tuple(faults)
    return Frontier(
        trace.path,
        len(trace),
        phase,
        s.options,
        al.source,
        al.departure is None,
        al.departure,
        findings,
        tuple(cands),
        tuple(obligations),
        tuple(persons),
        tuple(objects),
        result,
    )


def _objects(event: str) -> set[str]:
    """The object keys an event's text may name (爵1, 觯@宾 …): its words after the act."""
    from xiangshe.domain.trace import ObjectRef

    out = set()
    for w in event.split()[2:]:
        if "=" in w:
            continue
        m = re.match(r"^(\D+?)(\d+)$", w)
        if m:
            out.add(ObjectRef(m[1], m[2]).key)
    return out


def _table(name: str) -> Table:
    from xiangshe.fsm.table import table_named

    t = table_named(name)
    assert t is not None
    return t


# -- complete ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Completion:
    """The prefix completed: the text, what was added, the fragment line's change, the check."""

    path: str
    to: str
    text: str | None  # None: no completion that holds
    added: int  # lines appended
    added_events: int
    header: tuple[str, int, str] | None  # (inserted | replaced | removed, line, the new line)
    until: str | None  # the last phase the completion stages
    options: Options
    source: str
    departure: Departure | None
    prefix: Result
    result: Result | None  # the completion's check
    faults: tuple[Finding, ...] = ()  # what the prefix already breaks (not what it still owes)

    @property
    def holds(self) -> bool:
        return self.result is not None and self.result.ok

    @property
    def exit_code(self) -> int:
        if self.holds:
            return 0
        if self.faults:
            return 1
        return 3


def _cut(lines: Sequence[str], start: int, phase: str | None, to: str) -> int:
    """Where the completion ends: the end of `phase` (the line before the next phase's heading) or of
    the ceremony."""
    if to == "end":
        return len(lines)
    order = list(vocabulary().phases)
    for i in range(start, len(lines)):
        row = lines[i]
        if row.startswith("phase ") and (phase is None or order.index(row.split()[1]) > order.index(phase)):
            if phase is None:  # before the first phase: the first phase is the current one
                phase = row.split()[1]
                continue
            while i > start and (not lines[i - 1].strip() or lines[i - 1].startswith("# -- Φ")):
                i -= 1
            return i
    return len(lines)


def _tail(trace: Trace, lines: Sequence[str], at: int) -> int:
    """Skip in `lines` (from `at`) what the prefix already wrote after its last event: its phase lines
    and the libretto's comments it copied."""
    last = trace.events[-1].line if trace.events else 0
    for raw in trace.source_lines[last:]:
        row = raw.strip()
        if not row:
            continue
        j = at
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and lines[j].strip() == row:
            at = j + 1
        elif row.startswith("phase "):
            k = next((k for k in range(at, len(lines)) if lines[k].strip() == row), None)
            if k is not None:
                at = k + 1
    return at


def complete(
    trace: Trace, rules: Sequence[Rule], readings: dict[str, str] | None = None, to: str = "phase"
) -> Completion:
    """`trace` completed from the libretto to the end of its current phase (`to="phase"`) or of the
    ceremony (`to="end"`), checked; no text when the prefix departs from the libretto or the
    completion does not hold."""
    if to not in _TO:
        raise ValueError(to)
    prefix = check_trace(as_fragment(trace), rules, readings)
    faults = tuple(split(prefix, rules, current_phase(trace), trace)[0])
    al = align(trace)
    s = al.script
    base = Completion(trace.path, to, None, 0, 0, None, None, s.options, al.source, al.departure, prefix, None, faults)
    if faults:
        return base
    if al.departure is not None:
        return base
    lines = list(s.lines)
    mine = [r.rstrip() for r in trace.source_lines]
    if [r.rstrip() for r in lines[: len(mine)]] == mine:
        at = len(mine)  # a line-for-line prefix of the performance
    elif trace.events:
        at = _tail(trace, lines, s.steps[al.next_step - 1].line + 1)
    else:
        at = _tail(trace, lines, s.body)
    end = _cut(lines, at, current_phase(trace), to)
    added = lines[at:end]
    while added and not added[-1].strip():
        added.pop()
    body = [*trace.source_lines]
    while body and not body[-1].strip() and added and not added[0].strip():
        body.pop()
    text_lines = body + added
    first = parse_lines("\n".join(text_lines) + "\n", trace.path)
    staged = sorted(
        {*(e.phase for e in first.events if e.phase), *(p for _, p in first.phase_lines)},
        key=list(vocabulary().phases).index,
    )
    whole = to == "end" and al.start == 0
    change = _fragment_line(trace, text_lines, staged, whole)
    if change is not None:
        how, line, new = change
        if how == "inserted":
            text_lines.insert(line - 1, new)
        else:
            text_lines[line - 1] = new
    text = "\n".join(text_lines) + "\n"
    done = parse_lines(text, trace.path)
    result = check_trace(done, rules, readings)
    events = sum(1 for r in added if r.strip() and not r.lstrip().startswith(("#", "phase ")))
    return replace(
        base,
        text=text if result.ok else None,
        added=len(added),
        added_events=events,
        header=change,
        until=staged[-1] if staged else None,
        result=result,
    )


def _fragment_line(
    trace: Trace, lines: Sequence[str], staged: Sequence[str], whole: bool
) -> tuple[str, int, str] | None:
    """How the `fragment` line must change for the completion to claim what it stages."""
    frag = trace.fragment
    if whole:
        if frag is None:
            return None
        return ("removed", frag.line, f"# {lines[frag.line - 1].strip()}  (xiangshe complete: now the whole ceremony)")
    want = f"fragment {phase_span(list(staged))}" if staged else "fragment"
    if frag is None:
        first = next(
            (i for i, r in enumerate(lines, 1) if r.strip() and not r.lstrip().startswith("#")), len(lines) + 1
        )
        return ("inserted", first, want)
    if frag.phases is None or tuple(frag.phases) == tuple(staged):
        return None
    return ("replaced", frag.line, want)


def prefix_of(completed: str, original: str, header: tuple[str, int, str] | None) -> bool:
    """Is `original` (the input's text) the start of `completed`, but for the fragment line's change?"""
    out = completed.splitlines()
    if header is not None:
        how, line, _ = header
        if how == "inserted":
            del out[line - 1]
        else:
            out[line - 1] = original.splitlines()[line - 1]
    mine = original.splitlines()
    while mine and not mine[-1].strip():
        mine.pop()
    return out[: len(mine)] == mine
