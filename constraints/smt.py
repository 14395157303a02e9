"""The z3 meaning of the rulebook: a bounded symbolic trace and the rules' encodings over it.

A trace of k steps is one set of small bit-vector variables per step (actor, act, object, to, for,
at, each attribute, phase); z3 sees only indices, and Chinese names stay in Python (`Domain`). The cast is
fixed per unrolling (roles and ranks are constants); pairs and sides are terms, concrete here.
Machine states are variables tied by the tables' transition relations (fsm.smt). Quantifiers over
positions are finite conjunctions and disjunctions over range(k).

This module is never imported on the `check` path.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import z3

from xiangshe.constraints.pattern import NONE, PERSON_ATTRS, Pattern
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.templates import PersonPattern
from xiangshe.domain.trace import SIDES, Cast, Trace
from xiangshe.domain.vocabulary import PERSON_KEYS, Vocabulary, vocabulary
from xiangshe.fsm.smt import machine_relation, state_index
from xiangshe.fsm.table import Table, table_for_object, table_named, tables

SEED = 0


@contextmanager
def fresh_context() -> Iterator[None]:
    """Run a question in a z3 context of its own. z3 shares terms within a context, and what an
    earlier question built there changes the models a later one gets: with a context per
    question, a search gives the same answer whatever ran before it in the process.
    (z3's Python API takes the default context from a module global; it is swapped here.)"""
    import z3.z3 as core

    saved = core._main_ctx
    core._main_ctx = z3.Context()
    try:
        yield
    finally:
        core._main_ctx = saved


class Solver(z3.Solver):
    """z3's solver, but a Ctrl-C is not an answer. While it searches z3 takes SIGINT for itself and
    answers unknown ("interrupted from keyboard"), which would read as "the solver gave up" and let
    the command go on to a verdict: the signal is given back to Python instead (KeyboardInterrupt,
    or whatever the program made of SIGINT)."""

    def check(self, *assumptions):
        result = super().check(*assumptions)
        if result == z3.unknown and self.reason_unknown() in INTERRUPTED:
            signal.raise_signal(signal.SIGINT)
        return result


INTERRUPTED = ("interrupted from keyboard",)  # z3's reason_unknown() after it caught SIGINT


def solver() -> Solver:
    """A solver whose answers do not depend on the machine or the run."""
    s = Solver()
    s.set("random_seed", SEED)
    return s


@dataclass
class Domain:
    """Index maps from the vocabulary's words (and the cast's persons) to integers; 0 is "none"."""

    vocab: Vocabulary
    cast: Cast
    persons: list[str] = field(init=False)
    objects: list[tuple[str, str]] = field(init=False)  # (kind, instance)
    #: instances beyond the vocabulary's `instances` that a concrete trace names (觯12): numbered
    #: kinds take any number, the vocabulary's count is only what a search enumerates
    extra: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        v = self.vocab
        self.persons = list(self.cast.persons)
        self.person_ix = {p: i + 1 for i, p in enumerate(self.persons)}
        self.acts = sorted(v.acts)
        self.act_ix = {a: i + 1 for i, a in enumerate(self.acts)}
        self.objects = []
        for kind in sorted(v.objects):
            ok = v.objects[kind]
            insts = self.persons if ok.personal else [str(n) for n in range(1, ok.instances + 1)]
            self.objects += [(kind, i) for i in insts]
        self.objects += [o for o in dict.fromkeys(self.extra) if o not in self.objects]
        self.obj_ix = {self._okey(k, i): n + 1 for n, (k, i) in enumerate(self.objects)}
        self.places = sorted(v.places)
        self.place_ix = {p: i + 1 for i, p in enumerate(self.places)}
        # counts (chun=, qi=: any whole number) are the scoring audit's, which z3 does not model;
        # no rule pattern can name them (their values are not a closed set), so they have no slot
        self.attr_ix = {
            key: {val: i + 1 for i, val in enumerate(a.values)} for key, a in v.attributes.items() if not a.count
        }
        self.phase_ix = {pid: ph.order for pid, ph in v.phases.items()}
        self.rank_ix = {r: i + 1 for i, r in enumerate(v.ranks)}
        self.side_ix = {s: i + 1 for i, s in enumerate(SIDES)}
        self.pair_ix = {name: i + 1 for i, name in enumerate(self.cast.pairs)}

    @staticmethod
    def _okey(kind: str, inst: str) -> str:
        return f"{kind}{inst}" if inst.isdigit() else f"{kind}@{inst}"

    def slot_values(self, key: str) -> dict[str, int]:
        if key in ("actor", *PERSON_KEYS):
            return self.person_ix
        if key == "at":
            return self.place_ix
        return self.attr_ix[key]


class Symbolic:
    """A k-step unrolling: step terms, person terms, machine state terms, and the template API."""

    def __init__(
        self,
        k: int,
        cast: Cast,
        vocab: Vocabulary | None = None,
        tag: str = "",
        free_pairs: int = 0,
        shooter_roles: frozenset[str] | None = None,
        objects: Iterable[tuple[str, str]] = (),
    ) -> None:
        """`free_pairs` > 0 makes the pairing symbolic: each person's pair (0 = none, or one of
        1…free_pairs) and side are variables, so that a search can choose the pairs."""
        self.k, self.cast, self.vocab = k, cast, vocab or vocabulary()
        self.d = Domain(self.vocab, cast, tuple(objects))
        self.steps = range(k)
        self.tag = tag
        d = self.d
        largest = max(
            k,
            len(d.acts),
            len(d.objects),
            len(d.persons),
            len(d.places),
            len(d.phase_ix),
            free_pairs,
            *(len(v) for v in d.attr_ix.values()),
            *(len(t.states) for t in tables()),
        )
        #: every value is a small index: bit-vectors of this width (a sign bit to spare) let z3
        #: bit-blast the question into SAT, much faster here than linear integer arithmetic
        self.width = largest.bit_length() + 2
        self.slots: dict[str, list[z3.BitVecRef]] = {
            key: [self.var(f"{tag}{key}_{t}") for t in range(k)]
            for key in ("actor", "act", "obj", "phase", *PERSON_KEYS, "at", *self.d.attr_ix)
        }
        self.persons = list(range(1, len(self.d.persons) + 1))
        people = [cast.persons[p] for p in self.d.persons]
        self.role = {i: p.role for i, p in zip(self.persons, people, strict=True)}
        self.rank = {i: self.d.rank_ix.get(p.rank or "", 0) for i, p in zip(self.persons, people, strict=True)}
        self.constraints: list[z3.BoolRef] = []
        self.free_pairs = free_pairs
        self.shooter_roles = shooter_roles
        if free_pairs:
            self.pair = {i: self.var(f"{tag}pair_{i}") for i in self.persons}
            self.side = {i: self.var(f"{tag}side_{i}") for i in self.persons}
            for i in self.persons:
                self.constraints += [
                    self.pair[i] >= 0,
                    self.pair[i] <= free_pairs,
                    self.side[i] >= 0,
                    self.side[i] <= 2,
                    (self.pair[i] == 0) == (self.side[i] == 0),
                ]
                if shooter_roles is not None and self.role[i] not in shooter_roles:
                    self.constraints.append(self.pair[i] == 0)  # never in a pair
            for n in range(1, free_pairs + 1):
                members = self.count(self.pair[i] == n for i in self.persons)
                sides = self.total(z3.If(self.pair[i] == n, self.side[i], 0) for i in self.persons)
                self.constraints.append(z3.Or(members == 0, z3.And(members == 2, sides == 3)))
        else:
            self.pair = {
                i: self.val(self.d.pair_ix.get(p.pair or "", 0)) for i, p in zip(self.persons, people, strict=True)
            }
            self.side = {
                i: self.val(self.d.side_ix.get(p.side or "", 0)) for i, p in zip(self.persons, people, strict=True)
            }
        self.states: dict[tuple[str, str], list[z3.BitVecRef]] = {}  # (table name, instance) -> s[t]
        self.ok: dict[tuple[str, str], list[z3.BoolRef]] = {}
        self.rounds = {
            r: [self.d.phase_ix[pid] for pid, ph in self.vocab.phases.items() if ph.round == r] for r in range(4)
        }
        self.rounds[0] = [0, *self.rounds[0]]
        self._match: dict[tuple[Pattern, int], z3.BoolRef] = {}
        self.alphabet: set[str] | None = None  # a search's acts (None: every act)
        self._term: dict[tuple[str, int], z3.BitVecRef] = {}
        self._act_is: dict[tuple[int, str], z3.BoolRef] = {}

    # -- the template API ----------------------------------------------------------------------
    Not = staticmethod(z3.Not)
    Implies = staticmethod(z3.Implies)

    @staticmethod
    def And(*xs) -> z3.BoolRef:
        return z3.And(*xs)

    @staticmethod
    def Or(*xs) -> z3.BoolRef:
        return z3.Or(*xs)

    @staticmethod
    def all(xs: Iterable) -> z3.BoolRef:
        xs = list(xs)
        return z3.And(xs) if xs else z3.BoolVal(True)

    @staticmethod
    def any(xs: Iterable) -> z3.BoolRef:
        xs = list(xs)
        return z3.Or(xs) if xs else z3.BoolVal(False)

    @staticmethod
    def false() -> z3.BoolRef:
        return z3.BoolVal(False)

    def var(self, name: str) -> z3.BitVecRef:
        return z3.BitVec(name, self.width)

    def val(self, n: int) -> z3.BitVecRef:
        return z3.BitVecVal(n, self.width)

    def total(self, xs: Iterable) -> z3.BitVecRef:
        out = self.val(0)
        for x in xs:
            out = out + x
        return out

    def bound(self, n: int) -> z3.BitVecRef:
        """The number n, to compare with a count of steps (0 … k): any n below 0 compares as -1
        and any above k as k + 1, so that it fits the bit-vectors' width and compares alike."""
        return self.val(max(-1, min(n, self.k + 1)))

    def count(self, xs: Iterable) -> z3.BitVecRef:
        return self.total(z3.If(x, self.val(1), self.val(0)) for x in xs)

    def _in(self, term: z3.BitVecRef, ixs: Iterable[int]) -> z3.BoolRef:
        """term ∈ ixs, written as a few ranges rather than one equality per index."""
        runs: list[list[int]] = []
        for i in sorted(set(ixs)):
            if runs and runs[-1][1] == i - 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        return self.any(term == lo if lo == hi else z3.And(term >= lo, term <= hi) for lo, hi in runs)

    @staticmethod
    def _ix(index: dict[str, int], values: frozenset[str]) -> set[int]:
        """The indices of `values` in `index`, with `none` as 0."""
        return {index[v] for v in values if v != NONE} | ({0} if NONE in values else set())

    def _persons_where(self, pred) -> list[int]:
        return [p for p in self.persons if pred(p)]

    def _person_attr(self, who: z3.BitVecRef, attr: str, values: frozenset[str]) -> z3.BoolRef:
        """`who` (a person term, 0 = nobody) has `attr` in `values` (`none` for absent)."""
        nobody = who == 0 if NONE in values else z3.BoolVal(False)
        if attr == "role":
            return z3.Or(nobody, self._in(who, self._persons_where(lambda p: self.role[p] in values)))
        if attr == "rank":
            ix = self._ix(self.d.rank_ix, values)
            return z3.Or(nobody, self._in(who, self._persons_where(lambda p: self.rank[p] in ix)))
        if attr in ("side", "pair"):
            terms = self.side if attr == "side" else self.pair
            ix = self._ix(self.d.side_ix if attr == "side" else {}, values)
            return z3.Or(nobody, self.any(z3.And(who == p, self._in(terms[p], ix)) for p in self.persons))
        raise KeyError(attr)

    def _machine_state(
        self, table: Table, who_terms: list[tuple[z3.BoolRef, str]], t: int, values: frozenset[str]
    ) -> z3.BoolRef:
        ix = state_index(table)
        hit = [
            z3.And(cond, self._in(self.state(table, inst)[t], [ix[v] for v in values if v in ix]))
            for cond, inst in who_terms
        ]
        covered = self.any(cond for cond, _ in who_terms)
        return z3.Or(self.any(hit), z3.And(z3.Not(covered), z3.BoolVal(NONE in values)))

    def cond(self, key: str, values: frozenset[str], t: int, objs: frozenset[str] | None) -> z3.BoolRef:
        s = self.slots
        if key in PERSON_KEYS:
            return self._person_attr(s[key][t], "role", values)
        if key in ("at", *self.d.attr_ix):
            return self._in(s[key][t], self._ix(self.d.slot_values(key), values))
        if key == "phase":
            return self._in(s["phase"][t], [self.d.phase_ix[v] for v in values])
        if key == "round":
            return self._in(s["phase"][t], [i for v in values for i in self.rounds[int(v)]])
        if key == "obj.state":
            # the state of whatever object the event names, under that object's own machine
            hits, covered = [], []
            for k, i in self.d.objects:
                table = table_for_object(k)
                if table is None:
                    continue
                okey = Domain._okey(k, i)
                is_it = s["obj"][t] == self.d.obj_ix[okey]
                covered.append(is_it)
                if objs is None or k in objs:
                    ix = state_index(table)
                    hits.append(z3.And(is_it, self._in(self.state(table, okey)[t], [ix[v] for v in values if v in ix])))
            none_case = z3.And(z3.Not(self.any(covered)), z3.BoolVal(NONE in values))
            return z3.Or(self.any(hits), none_case)
        head, _, attr = key.partition(".")
        who = s["actor"][t] if head == "actor" else s[head][t]
        if attr in PERSON_ATTRS:
            return self._person_attr(who, attr, values)
        table = table_named(attr)
        assert table is not None
        holders = [(z3.And(who == p, gate), self.d.persons[p - 1]) for p, gate in self.holders(table)]
        return self._machine_state(table, holders, t, values)

    def holders(self, table: Table) -> list[tuple[int, z3.BoolRef]]:
        """The persons who run a person machine, each with the condition under which he does
        (a shooter's machine runs only for a person in a pair)."""
        out = []
        for p in self.persons:
            person = self.cast.persons[self.d.persons[p - 1]]
            if person.role in table.roles:
                out.append((p, z3.BoolVal(True)))
            elif table.shooters:
                if self.free_pairs:
                    if self.shooter_roles is None or person.role in self.shooter_roles:
                        out.append((p, self.pair[p] != 0))
                elif person.pair:
                    out.append((p, z3.BoolVal(True)))
        return out

    def match(self, pat: Pattern, t: int) -> z3.BoolRef:
        key = (pat, t)
        if key not in self._match:
            self._match[key] = self._build_match(pat, t)
        return self._match[key]

    def _build_match(self, pat: Pattern, t: int) -> z3.BoolRef:
        s = self.slots
        parts = [s["act"][t] != 0]  # an idle step (act 0, in a search) matches nothing
        if pat.acts is not None:
            parts.append(self._in(s["act"][t], [self.d.act_ix[a] for a in pat.acts]))
        if pat.roles is not None:
            parts.append(self._in(s["actor"][t], self._persons_where(lambda p: self.role[p] in pat.roles)))
        if pat.objs is not None:
            parts.append(
                self._in(s["obj"][t], [self.d.obj_ix[Domain._okey(k, i)] for k, i in self.d.objects if k in pat.objs])
            )
        for c in pat.conds:
            hit = self.cond(c.key, c.values, t, pat.objs)
            parts.append(z3.Not(hit) if c.negate else hit)
        return self.all(parts)

    def term(self, key: str, t: int) -> z3.BitVecRef:
        """The value of `key` at step t as an index term (0 = none), for correlations."""
        if (key, t) not in self._term:
            self._term[(key, t)] = self._build_term(key, t)
        return self._term[(key, t)]

    def _build_term(self, key: str, t: int) -> z3.BitVecRef:
        s = self.slots
        if key in s:
            return s[key][t]
        if key == "round":
            r: z3.BitVecRef = self.val(0)
            for n in (1, 2, 3):
                r = z3.If(self._in(s["phase"][t], self.rounds[n]), n, r)
            return r
        head, _, attr = key.partition(".")
        who = s["actor"][t] if head == "actor" else s[head][t]
        if attr == "pair":
            table = self.pair
        elif attr == "side":
            table = self.side
        elif attr == "rank":
            table = {p: self.val(self.rank[p]) for p in self.persons}
        elif attr == "role":
            roles = sorted(set(self.role.values()))
            table = {p: self.val(roles.index(self.role[p]) + 1) for p in self.persons}
        else:
            raise KeyError(f"{key} cannot be correlated in z3")
        out: z3.BitVecRef = self.val(0)
        for p in self.persons:
            out = z3.If(who == p, table[p], out)
        return out

    def agree(self, same: Sequence[tuple[str, str]], i: int, j: int) -> z3.BoolRef:
        return self.all(self.term(a, i) == self.term(b, j) for a, b in same)

    def present(self, p: int) -> z3.BoolRef:
        """Person p is in the trace's cast. A concrete trace's cast is given; in a search a
        person is present when an event names him or he is in a pair."""
        if not self.free_pairs:
            return z3.BoolVal(True)
        s = self.slots
        named = [
            z3.And(s["act"][t] != 0, s[key][t] == p)  # idle steps name nobody
            for t in self.steps
            for key in ("actor", "to", "for")
        ]
        return z3.Or(self.pair[p] != 0, *named)

    def pairable(self, p: int) -> bool:
        """Can person p be in a pair (耦)? In a search, only the roles that shoot can."""
        if not self.free_pairs:
            return bool(self.cast.persons[self.d.persons[p - 1]].pair)
        return self.shooter_roles is None or self.role[p] in self.shooter_roles

    def same_pair(self, p: int, q: int) -> z3.BoolRef:
        return z3.And(self.pair[p] == self.pair[q], self.pair[p] != 0)

    def person_match(self, pp: PersonPattern, p: int) -> z3.BoolRef:
        """Person p (a known index) matches the person pattern."""
        parts = []
        for key, values in pp.conds:
            if key == "role":
                parts.append(z3.BoolVal(self.role[p] in values))
            elif key == "rank":
                parts.append(z3.BoolVal(self.rank[p] in self._ix(self.d.rank_ix, values)))
            else:
                parts.append(self._in(self.side[p], self._ix(self.d.side_ix, values)))
        return self.all(parts)

    # -- machines ------------------------------------------------------------------------------
    def act_is(self, t: int, act: str) -> z3.BoolRef:
        """The term act[t] == act, made once and shared by every machine instance."""
        key = (t, act)
        if key not in self._act_is:
            self._act_is[key] = self.slots["act"][t] == self.d.act_ix[act]
        return self._act_is[key]

    def state(self, table: Table, inst: str) -> list[z3.BitVecRef]:
        """The state terms of one machine instance, adding its relation the first time."""
        key = (table.name, inst)
        if key not in self.states:
            s = self.slots
            if table.is_person:
                p = self.d.person_ix[inst]
                gate = dict(self.holders(table)).get(p, z3.BoolVal(False))
                acts = [self.d.act_ix[a] for a in table.acts]
                concerns = [z3.And(gate, s["actor"][t] == p, self._in(s["act"][t], acts)) for t in self.steps]
            else:
                oid = self.d.obj_ix[inst]
                concerns = [s["obj"][t] == oid for t in self.steps]
            acts = (
                self.d.act_ix
                if self.alphabet is None
                else {a: i for a, i in self.d.act_ix.items() if a in self.alphabet}
            )
            states, cons, ok = machine_relation(
                table, f"{self.tag}{table.slug}:{inst}", concerns, s["act"], acts, self.act_is
            )
            self.states[key], self.ok[key] = states, ok
            self.constraints += cons
        return self.states[key]

    # -- concrete traces -----------------------------------------------------------------------
    def fix(self, trace: Trace) -> list[z3.BoolRef]:
        """Equalities pinning every step term to the trace's values."""
        d, out = self.d, []
        for t, e in enumerate(trace.events):
            attrs = dict(e.attrs)
            vals = {
                "actor": d.person_ix[e.actor],
                "act": d.act_ix[e.act],
                "obj": d.obj_ix[e.obj.key] if e.obj else 0,
                "phase": d.phase_ix[e.phase] if e.phase else 0,
            }
            for key in (*PERSON_KEYS, "at", *d.attr_ix):
                v = attrs.get(key)
                vals[key] = d.slot_values(key)[v] if v is not None else 0
            out += [self.slots[key][t] == val for key, val in vals.items()]
        return out


def holds_on(rule: Rule, trace: Trace) -> bool:
    """The z3 meaning of `rule` evaluated on a concrete trace: does the trace satisfy it?"""
    assert rule.template is not None
    sym = Symbolic(
        len(trace), trace.cast, objects=[(e.obj.kind, e.obj.instance) for e in trace.events if e.obj is not None]
    )
    formula = rule.template.encode(sym)
    s = solver()
    s.add(sym.fix(trace))
    s.add(sym.constraints)
    result = s.check(z3.Not(formula))
    if result == z3.unknown:
        raise RuntimeError(f"z3 gave up on {rule.id}: {s.reason_unknown()}")
    return result == z3.unsat
