"""Bounded search with z3: counterexamples to a rule, and queries.

`refute(rule)` looks for a shortest trace that every machine and every other rule (in force under
the readings) allows but `rule` forbids, deepening k = 1, 2, …; `prove_within(property)` asks whether
a property holds for all traces up to k steps. Outcomes are honest: Refuted (with a trace, replayed
and confirmed by the Python checker), Exhausted (no counterexample up to k steps — never called a
proof), Unknown (the solver gave up).

The search space is the *alphabet* of the question (acts and kinds of object), closed under the
rules that constrain it: the acts of the rule's patterns, the acts of the machines that must be
walked to make them possible (the objects' machines, the person machines of the roles named, the
machines whose states a pattern reads), and, for every rule an event of the space can trigger, the
acts that could satisfy it. The closure is a heuristic, not a proof of completeness: "none up to k
steps" is reported as a result about that space, never as a proof.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any, cast

import z3

from xiangshe.constraints.pattern import Pattern, machines_of
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.smt import Symbolic
from xiangshe.constraints.solving import fresh_context, solver
from xiangshe.constraints.unrolling import Domain
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.occasion import occasion_of
from xiangshe.domain.parse import parse_lines
from xiangshe.domain.trace import Cast, Trace, phase_span
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.fsm.table import table_for_object, tables

RLIMIT = 60_000_000  # z3's work budget per check (deterministic, unlike a timeout)
#: z3's work budget for a whole `counterexample` search (all its checks, in z3's resource count:
#: deterministic, so the answer does not depend on the machine's load; None: none, only RLIMIT per
#: check). What z3 cannot settle within it gets the rule's bundled example (minimised, not shown to
#: be shortest), which now costs 1–4 s at most: the budget keeps every rule's `counterexample`
#: within ~10 s (BENCHMARKS.md, issue 15: counterexamples within 10 s)
BUDGET: int | None = 10_000_000
SPENT = "the search's work budget spent"

#: the cast a search draws its persons from: one person of each role a rule may name, and enough
#: shooters (in symbolic pairs) for the pairing rules
SEARCH_CAST = """\
cast 主人 主人
cast 宾 宾
cast 大夫 大夫
cast 大夫2 大夫
cast 诸公 诸公
cast 君 君
cast 介 介
cast 众宾1 众宾
cast 众宾2 众宾
cast 司正 司正
cast 司射 司射
cast 获者 获者
cast 释获者 释获者
cast 执算者 执算者
cast 乐正 乐正
cast 工1 工
cast 大师 大师
cast 笙1 笙
cast 相者1 相者
cast 弟子1 弟子
cast 弟子2 弟子
cast 有司 有司
cast 举觯者1 举觯者
cast 执觯者1 执觯者
cast 执爵者 执爵者
cast 胜者之弟子 胜者之弟子
cast 小臣 小臣
cast 使人1 使人
cast 从者1 从者
"""
FREE_PAIRS = 3
#: roles that can be in a pair (耦), and roles that handle a bow and arrows of their own
SHOOTER_ROLES = frozenset({"主人", "宾", "大夫", "众宾", "弟子", "君", "诸公"})
BOW_ROLES = SHOOTER_ROLES | {"司射", "司正"}
#: break the symmetries between pairs' numbers, persons of one role and numbered instances (Search.symmetry).
#: Off, on the evidence: a difference between two processes seen once with it on was not reproduced
#: (the text and resource count of every check alike across hash seeds), and under BUDGET it found no
#: rule more and lost two that z3 finds without it (BENCHMARKS.md, issue 15: counterexamples within 10 s)
SYMMETRY = False
INSTANCES = 2  # object instances per kind in a search (爵1, 爵2 …)


@dataclass(frozen=True)
class Refuted:
    trace: Trace
    text: str  # the counterexample in the line format (cast, pairs, events)
    steps: int


@dataclass(frozen=True)
class Exhausted:
    depth: int


@dataclass(frozen=True)
class Unknown:
    reason: str
    depth: int


Outcome = Refuted | Exhausted | Unknown


def search_cast() -> Cast:
    return parse_lines(SEARCH_CAST + "主人 揖\n", "<search cast>").cast


def obligations(rule: Rule) -> tuple[list[Pattern], list[Pattern]]:
    """(triggers, needs): when an event matching a trigger occurs, the rule can only be kept by
    events matching the needs (the template's contract). Rules that forbid (absence, unique …) need
    nothing: avoiding is free."""
    if not rule.encoded:
        return [], []
    t = rule.template
    return (t.triggers(), t.needs()) if t.needs() else ([], [])


def _acts(patterns: Sequence[Pattern]) -> set[str] | None:
    out: set[str] = set()
    for p in patterns:
        if p.acts is None:
            return None
        out |= p.acts
    return out


def _kinds(patterns: Sequence[Pattern]) -> set[str]:
    return {k for p in patterns for k in (p.objs or ())}


def _machine_closure(acts: set[str], patterns: Sequence[Pattern]) -> set[str]:
    """Add the acts of the machines whose states a pattern reads, of the machines of the objects a
    pattern names, and of the person machines of the roles it names: they may have to be walked to
    the state where an act is possible."""
    out = set(acts)
    for p in patterns:
        for t in machines_of(p):
            out |= set(t.acts)
        for kind in p.objs or ():
            obj_table = table_for_object(kind)
            if obj_table is not None:
                out |= set(obj_table.acts)
        # the person machines of the roles the pattern names, when its acts are theirs: a 宾 can
        # only 降 once his machine has him on the hall (入, 升 …)
        for t in tables():
            if not t.is_person or p.roles is None or not (p.acts or set()) & set(t.acts):
                continue
            if set(p.roles) & set(t.roles) or (t.shooters and set(p.roles) & SHOOTER_ROLES):
                out |= set(t.acts)
    return out


def _can_fire(triggers: Sequence[Pattern], acts: set[str], kinds: set[str]) -> bool:
    """Can an event of the alphabet (its acts, on its kinds of object or on none) match a trigger?"""
    for p in triggers:
        if p.acts is not None and not p.acts & acts:
            continue
        if p.objs is not None and not p.objs & kinds:
            continue
        return True
    return False


def search_space(rule: Rule, others: Sequence[Rule]) -> tuple[set[str], set[str]]:
    """The acts and the object kinds a counterexample to `rule` may use: the rule's own, closed
    under the machines that must be walked and the obligations of the rules they can trigger."""
    every = set(vocabulary().acts)
    pats = rule.template.patterns() if rule.encoded else []
    acts = _acts(pats)
    if acts is None:
        return every, set(vocabulary().objects)
    acts = _machine_closure(acts, pats)
    kinds = _kinds(pats) | {
        k for t in tables() if set(t.acts) & acts for k in t.objects if any(k in (p.objs or ()) for p in pats)
    }
    changed = True
    while changed:
        changed = False
        for r in others:
            triggers, needs = obligations(r)
            if not needs or not _can_fire(triggers, acts, kinds):
                continue
            more = _acts(needs)
            if more is None:  # 「君 *」: any act the alphabet has already satisfies it
                more = set()
            more = _machine_closure(more, needs)
            more_kinds = _kinds(needs)
            if not (more <= acts and more_kinds <= kinds):
                acts |= more
                kinds |= more_kinds
                changed = True
    return acts, kinds


class Search:
    """One search question: the unrolling, its domain and machine constraints, and a decoder."""

    def __init__(
        self,
        k: int,
        acts: set[str],
        cast: Cast,
        free_pairs: int = FREE_PAIRS,
        kinds: set[str] | None = None,
        machines: bool = True,
    ) -> None:
        self.k, self.acts, self.cast = k, acts, cast
        self.sym = Symbolic(k, cast, free_pairs=free_pairs, tag=f"k{k}.", shooter_roles=SHOOTER_ROLES)
        self.sym.machines.alphabet = acts
        self.vocab = vocabulary()
        d: Domain = self.sym.d
        self.d = d
        self.objects = [
            (kind, inst)
            for kind, inst in d.objects
            if (kinds is None or kind in kinds)
            and (
                (not self.vocab.objects[kind].personal and int(inst) <= INSTANCES)
                or (self.vocab.objects[kind].personal and cast.persons[inst].role in BOW_ROLES)
            )
        ]
        self.constraints: list[z3.BoolRef] = []
        self._domains()
        if machines:
            self._machines()

    def _domains(self) -> None:
        sym, d, s = self.sym, self.d, self.sym.slots
        act_ix = sorted(d.act_ix[a] for a in self.acts)
        obj_ix = [0] + [d.obj_ix[Domain.object_key(k, i)] for k, i in self.objects]
        n_persons = len(d.persons)
        for t in sym.steps:
            c = self.constraints
            c.append(sym.among(s["act"][t], [0, *act_ix]))  # 0: an idle step
            c.append(z3.Implies(s["act"][t] == 0, z3.And(s["obj"][t] == 0, s["to"][t] == 0, s["for"][t] == 0)))
            c += [s["actor"][t] >= 1, s["actor"][t] <= n_persons]
            c.append(sym.among(s["obj"][t], obj_ix))
            for key in ("to", "for"):
                c += [s[key][t] >= 0, s[key][t] <= n_persons]
            c += [s["at"][t] >= 0, s["at"][t] <= len(d.places)]
            for key, values in d.attr_ix.items():
                c += [s[key][t] >= 0, s[key][t] <= len(values)]
            c += [s["phase"][t] >= 1, s["phase"][t] <= len(d.phase_ix)]
            if t:
                c.append(s["phase"][t] >= s["phase"][t - 1])  # the phases follow the text
                # the idle steps come last: a trace is its events in order, and idle steps between
                # them would only give the solver many placements of the same trace to refute
                c.append(z3.Implies(s["act"][t - 1] == 0, s["act"][t] == 0))
            # an act on an object must be an act of its machine (as `check` requires of input);
            # a personal object belongs to the recipient, or else to the actor
            for kind, inst in self.objects:
                oid = d.obj_ix[Domain.object_key(kind, inst)]
                table = table_for_object(kind)
                if table is not None:
                    allowed = [d.act_ix[a] for a in table.acts if a in self.acts]
                    c.append(z3.Implies(s["obj"][t] == oid, sym.among(s["act"][t], allowed)))
                if self.vocab.objects[kind].personal:
                    owner = d.person_ix[inst]
                    c.append(
                        z3.Implies(
                            s["obj"][t] == oid, z3.If(s["to"][t] != 0, s["to"][t] == owner, s["actor"][t] == owner)
                        )
                    )

    def symmetry(self) -> list[z3.BoolRef]:
        """Constraints that keep one trace of each set that differ only by a renaming of
        interchangeable things, so that z3 need not refute each of them (its unsat proofs for lengths
        short of a counterexample are most of a long search). Each set keeps a member: a trace of
        the search is still found, and its length is the same.

        - the pairs' numbers (耦1, 耦2 …) name nothing a rule reads (rules ask whether two persons
          are in the same pair, or in one at all): the first pair-holder in cast order is in 耦1, and
          a pair n > 1 is used only once n - 1 is, by a person earlier in cast order;
        - persons of one role (and rank) are alike to the rules and machines: the earlier in cast
          order is named by an event no later than the later one is;
        - so are the numbered instances of a kind of object (爵1, 爵2): the first is used no later."""
        sym, s = self.sym, self.sym.slots
        out: list[z3.BoolRef] = []
        if sym.free_pairs:
            holders = [p for p in sym.persons if sym.pairable(p)]
            for i, p in enumerate(holders):
                for n in range(2, sym.free_pairs + 1):
                    out.append(z3.Implies(sym.pair[p] == n, sym.any(sym.pair[q] == n - 1 for q in holders[:i])))
        alike: dict[tuple[str, int], list[int]] = {}
        for p in sym.persons:
            alike.setdefault((sym.role[p], sym.rank[p]), []).append(p)

        def named(p: int, t: int) -> z3.BoolRef:
            return z3.And(s["act"][t] != 0, z3.Or(*(s[key][t] == p for key in ("actor", "to", "for"))))

        for group in alike.values():
            for p, q in pairwise(group):
                out += [z3.Implies(named(q, t), sym.any(named(p, u) for u in range(t + 1))) for t in sym.steps]
        numbered: dict[str, list[int]] = {}
        for kind, inst in self.objects:
            if not self.vocab.objects[kind].personal:
                numbered.setdefault(kind, []).append(self.d.obj_ix[Domain.object_key(kind, inst)])
        for ids in numbered.values():
            for a, b in pairwise(ids):
                out += [
                    z3.Implies(s["obj"][t] == b, sym.any(s["obj"][u] == a for u in range(t + 1))) for t in sym.steps
                ]
        return out

    def _machines(self) -> None:
        """Every instance the alphabet can move runs its machine, and no step is refused."""
        for table in tables():
            self.constraints += self.machine(table.slug)

    def machine(self, slug: str) -> list[z3.BoolRef]:
        """The no-refusal constraints of every instance of one machine that the alphabet can move
        (its relation goes to `sym.constraints`)."""
        sym = self.sym
        table = next(t for t in tables() if t.slug == slug)
        if not set(table.acts) & self.acts:
            return []
        if table.is_person:
            keys = [self.d.persons[p - 1] for p, _gate in sym.machines.holders(table)]
        else:
            keys = [Domain.object_key(kind, inst) for kind, inst in self.objects if kind in table.objects]
        out = []
        for key in keys:
            out += sym.machines.no_refusal(table, key)
        return out

    def decode(self, model: z3.ModelRef) -> str:
        """The model as a trace in the line format: the cast, the chosen pairs, the events."""
        d, s = self.d, self.sym.slots

        def val(term: Any) -> Any:  # z3's terms and values are untyped
            return model.eval(term, model_completion=True).as_long()

        persons = ["", *d.persons]
        acts = ["", *d.acts]
        places = ["", *d.places]
        objects = [("", ""), *d.objects]
        phases = {ph.order: pid for pid, ph in self.vocab.phases.items()}
        present = {
            p
            for p in self.sym.persons
            if val(self.sym.pair[p])
            or any(val(s[key][t]) == p for t in self.sym.steps if val(s["act"][t]) for key in ("actor", "to", "for"))
        }
        lines = [line for line in SEARCH_CAST.splitlines() if line.split()[1] in {persons[p] for p in present}]
        # the occasion the clauses were built under (occasion rules read it from the cast): the 君's
        # presence follows the cast by default, so a search cast's 君 who does not act is declared
        jun = occasion_of(self.cast).jun
        if jun != ("在" if any(line.split()[2] == "君" for line in lines) else "不在"):
            lines.append(f"occasion jun={jun}")
        pairs: dict[int, dict[int, str]] = {}
        for p in self.sym.persons:
            pid, side = val(self.sym.pair[p]), val(self.sym.side[p])
            if pid:
                pairs.setdefault(pid, {})[side] = persons[p]
        for pid, members in sorted(pairs.items()):
            lines.append(f"pair 耦{pid} 上射={members[1]} 下射={members[2]}")
        phase = None
        for t in self.sym.steps:
            if val(s["act"][t]) == 0:
                continue  # an idle step
            ph = phases.get(val(s["phase"][t]))
            if ph != phase:
                lines.append(f"phase {ph}")
                phase = ph
            words = [persons[val(s["actor"][t])], acts[val(s["act"][t])]]
            kind, inst = objects[val(s["obj"][t])]
            if kind:
                words.append(kind if self.vocab.objects[kind].personal else f"{kind}{inst}")
            for key in ("to", "for"):
                v = val(s[key][t])
                if v:
                    words.append(f"{key}={persons[v]}")
            if val(s["at"][t]):
                words.append(f"at={places[val(s['at'][t])]}")
            for key, values in d.attr_ix.items():
                v = val(s[key][t])
                if v:
                    names = {i: n for n, i in values.items()}
                    words.append(f"{key}={names[v]}")
            lines.append(" ".join(words))
        staged = [line.split()[1] for line in lines if line.startswith("phase ")]
        # a counterexample is a part of the ceremony, not the whole: it declares so (scope.py), with
        # the phases its events stage, which due_within reads to ask for a break the checker faults
        lines.insert(0, "fragment" + (f" {phase_span(staged)}" if staged else ""))
        return "\n".join(lines) + "\n"


def due_within(rule: Rule, search: Search, j: int) -> z3.BoolRef:
    """Is what `rule` owes for a trigger at step j due inside the fragment `decode` renders (its
    header declares the phases its events stage)? The z3 clauses read the candidate as complete: an
    answer missing after step j breaks them. The checker reads a fragment as a part that may go on
    after its end, and lists such a break as pending, not a fault, where the answer may come after
    the fragment's end (scope.due_beyond). A candidate broken only so would be refuted by z3 and not
    confirmed by the checker. So the search asks for a break that the checker faults: this mirrors
    due_beyond over the phases of the unrolling's events. It narrows only the target rule's
    negation (never the other rules or the machines), so every candidate is still replayed and
    must break the rule in the checker's eyes; what it excludes are traces the checker would not
    call counterexamples. A rule that owes nothing after its trigger is unchanged.

    - `same` names the phase: due within the trigger's phase, so the fragment must go on past it —
      some event after step j stages a later phase (the phases follow the text in a search);
    - else the `then` pattern names its phases: an event stages one of them (the fragment shows
      them) and an event stages the last of them or a later one (the fragment reaches past it);
    - else the answer may always come after the fragment's end: no break in a fragment is a fault."""
    if not rule.encoded or not rule.template.owed_after:
        return z3.BoolVal(True)
    sym, d = search.sym, search.d
    s = sym.slots
    events = [(s["act"][i], s["phase"][i]) for i in sym.steps]
    if "phase" in {k for pair in rule.template.correlation() for k in pair}:
        return sym.any(z3.And(act != 0, phase > s["phase"][j]) for act, phase in events[j + 1 :])
    phases = [v for p in rule.template.needs() for c in p.conds if c.key == "phase" and not c.negate for v in c.values]
    if not phases:
        return z3.BoolVal(False)
    shown = sym.any(z3.And(act != 0, sym.among(phase, [d.phase_ix[p] for p in phases])) for act, phase in events)
    last = max(d.phase_ix[p] for p in phases)
    reaches = sym.any(z3.And(act != 0, phase >= last) for act, phase in events)
    return z3.And(shown, reaches)


STAGES = (1, 2, 4, 8, 12, 16, 24, 32, 40)


def refute(rule: Rule, others: Sequence[Rule], depth: int = 12, budget: int | None = None) -> Outcome:
    """Deepen in stages (an unrolling of 1 step, then 2, 4, 8, …): short counterexamples are
    found on small unrollings, which are cheap to build. What a stage learnt (the rules and
    machines its candidates broke) is asserted from the start of the next. The search runs in a
    z3 context of its own, so that its answer does not depend on what ran before it.

    `budget` bounds z3's work over the whole search (its resource count, deterministic); once it
    is spent the answer is Unknown, as when one check spends RLIMIT. A stage is not built (its
    unrolling costs more to build than the short ones) when what is left of the budget is less than
    the last check spent: the next, longer question would not be settled within it. The answer
    still depends only on z3's resource count, never on time."""
    with fresh_context():
        done, learnt, work = 0, cast(tuple[str, ...], ()), _Work(budget)
        for size in [*[n for n in STAGES if n < depth], depth]:
            if work.budget is not None and work.budget - work.spent < work.last:
                return Unknown(SPENT, done + 1)
            outcome, learnt = _refute_within(rule, others, size, start=done + 1, learnt=learnt, work=work)
            if not isinstance(outcome, Exhausted):
                return outcome
            done = size
        return Exhausted(depth)


def _refute_within(
    rule: Rule,
    others: Sequence[Rule],
    depth: int,
    start: int = 1,
    learnt: Sequence[str] = (),
    work: _Work | None = None,
) -> tuple[Outcome, tuple[str, ...]]:
    """A shortest trace that the machines and `others` allow and `rule` forbids, if one has
    between `start` and `depth` steps; and the rules and machines learnt on the way.

    One unrolling of `depth` steps serves every length k = start, start + 1, …: the question for
    k is "is the rule broken within the first k steps, all later steps idle?". The first k with
    a yes is the shortest length. Each question goes to a fresh solver, which bit-blasts it to
    SAT (an incremental solver would not: it keeps to its slower SMT core). Asking for the whole
    stage at once and then narrowing down was tried and is slower: the long candidates it finds
    break more rules, and each must be learnt.

    The other rules and the machines are added lazily (counterexample-guided refinement): the
    solver starts from the domains and the rule's negation; each candidate is replayed by the
    Python checker, and the rules and machines it breaks are encoded and asserted before asking
    again. Leaving constraints out only widens the space, so a no stays sound, and a candidate
    counts only once the checker finds nothing but `rule` broken."""
    others = [r for r in others if r.encoded and r.id != rule.id]
    acts, kinds = search_space(rule, others)
    search = Search(depth, acts, search_cast(), kinds=kinds, machines=False)
    if SYMMETRY:
        search.constraints += search.symmetry()
    sym = search.sym
    # a break at step j that the checker faults in the fragment the candidate declares, not one it
    # would list as pending (due_within)
    broken = [z3.And(z3.Not(c), due_within(rule, search, j)) for j, c in enumerate(rule.template.clauses(sym))]
    lazy = _Refinement(search, [rule, *others])
    lazy.learn(learnt)
    static = len(broken) == 1 and rule.template.of_cast
    if static:
        start = 1
    for k in range(start, depth + 1):
        # a trace has at least one event, and none after the first k steps
        idle = [sym.slots["act"][t] == 0 for t in range(k, depth)]
        goal = z3.And(broken[0] if static else z3.Or(broken[:k]), sym.slots["act"][0] != 0, *idle)
        while True:
            limit = work.limit() if work is not None else RLIMIT
            if limit <= 0:
                return Unknown(SPENT, k), lazy.learnt
            s = solver()
            s.set("rlimit", limit)
            s.add(*lazy.facts, goal)
            result = s.check()
            if work is not None:
                work.count(s)
            if result == z3.unknown:
                spent = work is not None and work.budget is not None and work.spent >= work.budget
                return Unknown(SPENT if spent else s.reason_unknown(), k), lazy.learnt
            if result == z3.unsat:
                break
            text = search.decode(s.model())
            trace = parse_lines(text, f"<counterexample to {rule.id}>")
            if lazy.refine(trace, rule):
                continue  # the candidate broke other rules: ask again
            return Refuted(trace, text, k), lazy.learnt
    return Exhausted(depth), lazy.learnt


@dataclass
class _Work:
    """z3's work budget of a search and what its checks have spent of it (z3's resource count,
    which runs on over every solver of the search's context)."""

    budget: int | None
    spent: int = 0
    last: int = 0  # what the last check spent

    def limit(self) -> int:
        return RLIMIT if self.budget is None else min(RLIMIT, self.budget - self.spent)

    def count(self, s: z3.Solver) -> None:
        stats = s.statistics()
        if "rlimit count" in stats.keys():
            now = max(self.spent, int(stats.get_key_value("rlimit count")))
            self.last, self.spent = now - self.spent, now


class _Refinement:
    """The constraints asserted so far in a search (domains, then the rules and machines that
    candidates broke), and the step that adds more."""

    def __init__(self, search: Search, rules: Sequence[Rule]) -> None:
        self.search = search
        self.rules = {r.id: r for r in rules}
        self.asserted: set[str] = set()
        self.facts: list[z3.BoolRef] = list(search.constraints)
        self.sent = 0  # sym.constraints already in facts
        self._flush()

    @property
    def learnt(self) -> tuple[str, ...]:
        return tuple(sorted(self.asserted))

    def learn(self, ids: Sequence[str]) -> None:
        """Assert these rules (ids) and machines (machine.<slug>) from the start."""
        for rid in ids:
            if rid in self.asserted or (not rid.startswith("machine.") and rid not in self.rules):
                continue
            self.asserted.add(rid)
            if rid.startswith("machine."):
                self.facts += self.search.machine(rid.removeprefix("machine."))
            else:
                self.facts.append(self.rules[rid].template.encode(self.search.sym))
        self._flush()

    def _flush(self) -> None:
        """Take in the machine relations built since the last call."""
        cons = self.search.sym.constraints
        self.facts += cons[self.sent :]
        self.sent = len(cons)

    def refine(self, trace: Trace, rule: Rule) -> bool:
        """Replay the candidate; assert what it breaks besides `rule`. False: it breaks only `rule`.
        Raises Disagreement when the checker and z3 disagree."""
        from xiangshe.constraints.check import check_trace

        found = {
            f.rule for f in check_trace(trace, list(self.rules.values())).findings if not f.rule.startswith("audit.")
        }
        if rule.id not in found:
            raise Disagreement(f"z3's candidate breaks {rule.id}, the checker says it does not:\n{trace.path}")
        new = sorted(found - {rule.id} - self.asserted)
        if not new and found != {rule.id}:
            raise Disagreement(
                f"z3 keeps {sorted(found - {rule.id})} in a candidate that the checker "
                f"says breaks them (counterexample to {rule.id})"
            )
        self.learn(new)
        return bool(new)


class Disagreement(Exception):
    """z3 found a counterexample that the Python checker does not confirm: a bug to report."""


def breaks_only(trace: Trace, rule: Rule, rules: Sequence[Rule], readings: dict[str, str] | None) -> bool:
    """Does the Python checker find `rule` broken and nothing else (no other rule, no machine)?
    The scoring audit is not part of the z3 model (it is arithmetic over a whole round): its
    findings do not count against a counterexample, and `counterexample` reports them apart."""
    from xiangshe.constraints.check import check_trace

    found = {f.rule for f in check_trace(trace, rules, readings).findings}
    return {r for r in found if not r.startswith("audit.")} == {rule.id}


def _verdict(text: str, rule: Rule, rules: Sequence[Rule], readings: dict[str, str] | None) -> bool:
    from xiangshe.domain.parse import TraceErrors

    try:
        trace = parse_lines(text, "<counterexample>")
    except TraceErrors:
        return False
    return breaks_only(trace, rule, rules, readings)


def witness(
    rule: Rule, examples: Sequence[Trace], rules: Sequence[Rule], readings: dict[str, str] | None
) -> Trace | None:
    """The first of `examples` (a rule's bundled violating examples) that breaks it and nothing
    else under these readings: a counterexample, though not shown to be a shortest one."""
    return next((t for t in examples if breaks_only(t, rule, rules, readings)), None)


def minimise(text: str, rule: Rule, rules: Sequence[Rule], readings: dict[str, str] | None = None) -> str:
    """Drop every event, pair and attribute the counterexample does not need, keeping it one
    (deterministic: greedy, in order). Raises Disagreement if Python rejects it from the start."""
    return minimise_within(text, rule, rules, readings)[0]


class _Spent(Exception):
    """The replays allowed to a minimisation are spent."""


def minimise_within(
    text: str,
    rule: Rule,
    rules: Sequence[Rule],
    readings: dict[str, str] | None = None,
    effort: int | None = None,
) -> tuple[str, bool]:
    """`minimise`, with at most `effort` events replayed by the checker over all its tries (None: no
    bound; deterministic: a count, not a time). The counterexample as far as it got, and whether
    it is minimal (False: the effort ran out first; every step taken was confirmed, so it is still
    a counterexample). A bundled example can be a whole ceremony of thousands of events."""
    if not _verdict(text, rule, rules, readings):
        raise Disagreement(f"z3's counterexample to {rule.id} is not confirmed by the checker:\n{text}")
    lines = text.splitlines()
    replayed = 0

    def ok(candidate: list[str]) -> bool:
        nonlocal replayed
        replayed += len(candidate)
        if effort is not None and replayed > effort:
            raise _Spent
        return _verdict(prune_cast(candidate), rule, rules, readings)

    try:
        _narrow(lines, ok)
    except _Spent:
        return prune_cast(lines), False
    return prune_cast(lines), True


def _narrow(lines: list[str], ok: Callable[[list[str]], bool]) -> None:
    """Narrow `lines` in place (so that what a try that ran out of effort had confirmed is kept)."""
    _drop_runs(lines, ok)
    i = 0
    while i < len(lines):  # whole lines: events and pairs
        head = lines[i].split()[0] if lines[i].split() else ""
        if head not in ("cast", "phase") and ok(lines[:i] + lines[i + 1 :]):
            del lines[i]
            continue
        i += 1
    # then attributes: z3 fills every free slot, so most go; first all of them at once, then a
    # line's at once, then one at a time (each try is a replay by the checker)
    events = [i for i, line in enumerate(lines) if line.split() and line.split()[0] not in ("cast", "pair", "phase")]
    bare = {i: " ".join(lines[i].split()[:2]) for i in events}
    if any(bare[i] != lines[i] for i in events) and ok([bare.get(i, line) for i, line in enumerate(lines)]):
        lines[:] = [bare.get(i, line) for i, line in enumerate(lines)]
    for i, line in enumerate(lines):
        words = line.split()
        if not words or words[0] in ("cast", "pair", "phase"):
            continue
        if len(words) > 2 and ok(lines[:i] + [" ".join(words[:2])] + lines[i + 1 :]):
            lines[i] = " ".join(words[:2])
            continue
        j = 2
        while j < len(words):
            trial = words[:j] + words[j + 1 :]
            if ok(lines[:i] + [" ".join(trial)] + lines[i + 1 :]):  # an attribute or the object
                words = trial
                lines[i] = " ".join(words)
                continue
            j += 1


#: a counterexample with more lines to drop than this (a bundled example can have thousands of events)
#: is first cut down by dropping runs of lines, halving their length (delta debugging), before the
#: one-line pass; z3's counterexamples (at most 40 steps) and short examples go straight to it
LONG = 64


def _drop_runs(lines: list[str], ok: Callable[[list[str]], bool]) -> None:
    """Drop runs of events and pairs that the counterexample does not need (in place): runs of half
    the lines that may be dropped, then of a quarter …, down to a few lines (each try a replay by
    the checker). Deterministic: runs in order. What is left is then narrowed line by line."""

    def droppable(ls: list[str]) -> list[int]:
        return [i for i, line in enumerate(ls) if (line.split() or [""])[0] not in ("cast", "phase")]

    size = len(droppable(lines)) // 2
    if 2 * size <= LONG:
        return
    while size >= 4:
        j = 0
        while j < len(idx := droppable(lines)):
            run = set(idx[j : j + size])
            candidate = [line for i, line in enumerate(lines) if i not in run]
            if ok(candidate):
                lines[:] = candidate  # the next run slides into place
            else:
                j += size
        size //= 2


def prune_cast(lines: list[str]) -> str:
    """Keep the cast lines of the persons the events and pairs name, and phases that are used."""
    named = set()
    for line in lines:
        words = line.split()
        if not words or words[0] in ("cast", "phase"):
            continue
        if words[0] == "pair":
            named |= {w.split("=", 1)[1] for w in words[2:]}
        else:
            named.add(words[0])
            named |= {w.split("=", 1)[1] for w in words if w.startswith(("to=", "for="))}
    out = []
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0] == "cast" and words[1] not in named:
            continue
        if words and words[0] == "phase":
            nxt = next((w for w in lines[i + 1 :] if w.split()), "")
            if not nxt or nxt.split()[0] == "phase":
                continue
        out.append(line)
    return "\n".join(out) + "\n"
