"""What a check covered, and whether the staging is the whole it claims to be.

A trace is a whole ceremony unless it declares itself a fragment (`fragment Φ03–Φ07` before its
first event). "ok" is earned only by what was checked, so `check` states the scope of every staging:
the phases it stages; the rules in force that hold throughout (prohibitions, counts, rules of the
cast: checked on every event), those it triggered (what obliges something happened and was checked)
and those it never triggered (vacuous in it); and what its machines leave open at its end.

Three checks follow from the claim (each a finding, suppressible like any other):
- `scope.phases`: a whole ceremony stages every phase the text prescribes (a `phase` line with no
  events under it stages it empty: the 宾 and 主人 who do not shoot leave Φ28 so) (Φ10, the entry of the
  遵者, and Φ29, the 大夫 shooting, only when a 大夫 or a 公 is in the cast); a staging that stops at Φ21,
  or skips the 旅酬, is not a whole ceremony — declare the part it is.
- `scope.open`: at the end of a whole ceremony every implement whose machine names the states where
  its part ends (the 侯 let down, the 中 taken away, the food removed or left set …) is in one of them:
  a 侯 still spread, or a 俎 still in someone's hands, is unfinished business. In a fragment the same
  things are listed, not faulted.
- `scope.fragment`: a fragment's events lie in the phases it declares.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from operator import attrgetter

from xiangshe.constraints.gates import Plan, plan
from xiangshe.constraints.pattern import Context, Pattern
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.messages import Join, Message
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Occasion, Trace, phase_span
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.fsm.replay import Replay, object_steps
from xiangshe.fsm.table import Table

PHASES, OPEN, OUTSIDE = "scope.phases", "scope.open", "scope.fragment"
IDS = (PHASES, OPEN, OUTSIDE)
NAMES = {PHASES: "全礼之节", OPEN: "事毕", OUTSIDE: "片段之节"}
WHAT = {
    PHASES: "a trace that declares no fragment is a whole ceremony and stages every phase the text "
    "prescribes (Φ10 and Φ29 only when a 大夫 or a 公 is in the cast; a `phase` line with no "
    "events under it stages the phase empty)",
    OPEN: "at the end of a whole ceremony every implement whose machine names final states is in one "
    "of them (the 侯 let down, the 中 taken away, no 荐 or 俎 left in someone's hands)",
    OUTSIDE: "the events of a fragment lie in the phases its `fragment` line declares",
}
#: the words of the text each check answers to: the ceremony's opening, its archery's close
QUOTES = {PHASES: "乡射之礼", OPEN: "司马命弟子说侯之左下纲而释之", OUTSIDE: "乡射之礼"}
#: roles whose presence makes Φ10 (遵者入·献大夫) and Φ29 (大夫射) part of the whole ceremony
ZUN_ZHE = ("大夫", "诸公")
CONDITIONAL = {"Φ10": ZUN_ZHE, "Φ29": ZUN_ZHE}


@dataclass(frozen=True)
class Open:
    """An implement or vessel whose machine ends outside the states where its part ends."""

    instance: str
    machine: str
    state: str
    final: tuple[str, ...]
    line: int  # the last event that moved or named it
    citation: Citation  # the edge into a final state


@dataclass(frozen=True)
class Pending:
    """In a fragment: an obligation of a response rule (something must follow) that may be met
    after the fragment's end, so it is listed, not faulted."""

    rule: str
    line: int | None
    message: str


@dataclass(frozen=True)
class Problem:
    """A scope finding before it is a Finding: which check, where, what, and the words it cites."""

    check: str
    line: int | None
    event: int | None
    message: str
    citation: Citation
    subject: str


@dataclass(frozen=True)
class Scope:
    """What a staging covers: the whole ceremony or a fragment, the phases it stages and misses, the
    rules in force it reaches or not, and what it leaves open."""

    whole: bool  # no fragment declaration
    declared: tuple[str, ...] | None  # the fragment's phases (None: not named, or whole)
    phases: tuple[str, ...]  # the phases the trace stages, in order
    missing: tuple[str, ...]  # for a whole ceremony: required phases not staged
    throughout: tuple[str, ...]  # ids of rules in force that hold throughout (no trigger)
    reached: tuple[str, ...]  # ids of rules in force whose trigger occurs
    unreached: tuple[str, ...]  # ids of rules in force whose trigger never occurs
    # (the three: of the rules the check applied, under --select/--ignore)
    open: tuple[Open, ...] | None  # None: not looked at (scope.open not applied, --select/--ignore)
    pending: tuple[Pending, ...] = ()
    occasion: Occasion | None = None  # the occasion the rules were checked under (domain/occasion.py)
    narrowed: bool = False  # the rules listed are those a selection applied, not all in force

    def claim(self) -> str:
        """What the staging claims to be, in words."""
        if self.whole:
            return Message("scope.claim-whole")
        if self.declared:
            return Message("scope.claim-fragment", span=phase_span(self.declared))
        return Message("scope.claim-fragment-unnamed")


def required_phases(trace: Trace) -> tuple[str, ...]:
    """The phases a whole ceremony with this cast stages."""
    roles = set(trace.cast.by_role)
    return tuple(p for p in vocabulary().phases if p not in CONDITIONAL or roles & set(CONDITIONAL[p]))


def ends(trace: Trace, rep: Replay) -> list[Open]:
    """The instances whose machine names final states and that end outside them."""
    last: dict[tuple[str, str], tuple[str, int, Table]] = {}
    for e in trace.events:
        if e.obj is None:
            continue
        m = object_steps(e.obj.kind)
        if m is None or not m.table.final:
            continue
        before = rep.obj_state[e.index]
        assert before is not None  # replay records the state of every object that has a machine
        last[(m.table.name, e.obj.key)] = (m.by_act.get(e.act, {}).get(before, before) or before, e.line, m.table)
    out = []
    for (name, key), (state, line, table) in last.items():
        if state not in table.final:
            edge = next((x for x in table.edges if x.dest in table.final), table.edges[0])
            out.append(Open(key, name, state, table.final, line, edge.cite))
    return sorted(out, key=lambda o: o.line)


def reached(ctx: Context, rules: Sequence[Rule] | Plan) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The encoded rules that hold throughout (prohibitions, counts, rules of the cast: checked on
    every event), those whose trigger some event matches (what obliges something happened, and
    the rule was checked against it), and those whose trigger never occurs (vacuous here). Of the
    rules a check applied, given as its plan (`check --select`: the scope is what it covered)."""
    p = rules if isinstance(rules, Plan) else plan(rules)
    yes, no = p.reached(ctx)
    return p.throughout, yes, no


def due_beyond(trace: Trace, rule: Rule, event: int | None, missing: Collection[str] = ()) -> bool:
    """In a fragment, may what a response rule (`first` … then `then`) still awaits at `event`
    come after the fragment's end? Not when it is due within the trigger's phase (`same` names the
    phase) and the fragment goes on past that phase, nor when the `then` pattern names its phases
    and the fragment reaches past the last of them: then the part it declares should have held it,
    and the finding is a fault.

    In a staging that declares no fragment yet misses phases (a fault of its own, `scope.phases`),
    what is owed in phases it does not stage at all (`missing`: `missing_phases(trace)`) is listed
    the same way: a staging that stops early owes them because it stops, and the missing phases
    already say so."""
    frag = trace.fragment
    if not rule.encoded or not rule.template.owed_after:
        return False
    if frag is None:
        needs = rule.template.needs()
        owed = [_named_phases(p) for p in needs]
        return bool(needs) and all(owed) and all(q in missing for named in owed for q in named)
    order = list(vocabulary().phases)
    covered = frag.phases or tuple(p for _, p in trace.phase_lines) or tuple(e.phase for e in trace.events if e.phase)
    last = max((order.index(p) for p in covered), default=-1)
    staged_last = max((order.index(e.phase) for e in trace.events if e.phase), default=-1)
    keys = {k for pair in rule.template.correlation() for k in pair}
    here = trace[event].phase if event is not None else None
    if "phase" in keys and here is not None:
        return order.index(here) >= max(last, staged_last)
    phases = [q for p in rule.template.needs() for q in _named_phases(p)]
    if not phases:
        return True
    if frag.phases and not set(phases) & set(frag.phases):
        return True  # it falls in phases the fragment says it does not show
    return max(order.index(p) for p in phases) > last


def _named_phases(p: Pattern) -> list[str]:
    """The phases pattern `p` confines its events to (`phase=…`; none: any phase)."""
    return [v for c in p.conds if c.key == "phase" and not c.negate for v in c.values]


def staged_phases(trace: Trace) -> tuple[str, ...]:
    """The phases `trace` stages, in the ceremony's order: those of its events and those its `phase`
    lines declare (a phase may be declared empty)."""
    staged = set(map(_PHASE, trace.events))  # read in one call over the events: a long trace has many
    staged.discard(None)
    staged.update(p for _, p in trace.phase_lines)
    order = {p: i for i, p in enumerate(vocabulary().phases)}
    return tuple(sorted(staged, key=order.__getitem__))


_PHASE = attrgetter("phase")


def missing_phases(trace: Trace, staged: Collection[str] | None = None) -> tuple[str, ...]:
    """For a staging that declares no fragment, the required phases it does not stage (none for a
    fragment); `staged`: its `staged_phases`, when known."""
    if trace.fragment is not None:
        return ()
    have = staged_phases(trace) if staged is None else staged
    return tuple(p for p in required_phases(trace) if p not in have)


@cache
def _phase_citation(phase: str) -> Citation:
    """The line of the text where the canonical ceremony's staging of `phase` begins."""
    from xiangshe import CANONICAL
    from xiangshe.domain.parse import parse_file

    for e in parse_file(CANONICAL, "canonical.trace").events:
        if e.phase == phase and e.source_line:
            line = TEXT.lines[e.source_line - 1]
            return Citation(line, e.source_line, e.source_line, TEXT.name)
    return TEXT.cite("乡射之礼")


def scope(
    trace: Trace,
    rep: Replay | None,
    ctx: Context,
    rules: Sequence[Rule] | Plan,
    checks: Collection[str] = IDS,
    staged: tuple[str, ...] | None = None,
) -> tuple[Scope, list[Problem]]:
    """The scope of a check of `trace`, and the findings of the scope's `checks` (see the module's
    docstring; under --select, those applied). `rules`: the rules the check applied, or their plan;
    `staged`: the trace's `staged_phases`, when the caller has them.
    Without `rep` (the check applies neither `scope.open` nor anything else that replays the
    machines), what is left open is not looked at: `Scope.open` is None."""
    staged = staged_phases(trace) if staged is None else staged
    frag = trace.fragment
    whole = frag is None
    missing = missing_phases(trace, staged)
    always, yes, no = reached(ctx, rules)
    opened = ends(trace, rep) if rep is not None else None
    problems: list[Problem] = []
    if missing and PHASES in checks:
        names = vocabulary().phases
        last = trace.events[-1] if trace.events else None
        first = missing[0]
        problems.append(
            Problem(
                PHASES,
                last.line if last else None,
                last.index if last else None,
                Message(
                    "scope.phases",
                    missing=len(missing),
                    required=len(required_phases(trace)),
                    span=phase_span(missing),
                    first=first,
                    name=names[first].name,
                    staged=f" {phase_span(staged)}" if staged else "",
                ),
                _phase_citation(first),
                "fragment",
            )
        )
    if whole and not missing:  # a staging that stops early leaves things open because it stops
        for o in opened if opened is not None and OPEN in checks else ():
            problems.append(
                Problem(
                    OPEN,
                    o.line,
                    None,
                    Message("scope.open", instance=o.instance, state=o.state, final=Join(o.final, " or ", "或")),
                    o.citation,
                    f"{o.instance} {o.state}",
                )
            )
    elif frag is not None and frag.phases and OUTSIDE in checks:
        declared = set(frag.phases)
        seen: set[str] = set()
        for e in trace.events:
            if e.phase and e.phase not in declared and e.phase not in seen:
                seen.add(e.phase)
                problems.append(
                    Problem(
                        OUTSIDE,
                        e.line,
                        e.index,
                        Message("scope.outside", phase=e.phase, span=phase_span(frag.phases), line=frag.line),
                        _phase_citation(e.phase),
                        e.render(),
                    )
                )
    return Scope(
        whole,
        frag.phases if frag else None,
        staged,
        missing,
        always,
        yes,
        no,
        tuple(opened) if opened is not None else None,
        occasion=trace.occasion,
    ), problems
