"""A bounded symbolic trace: k steps of small bit-vector variables (actor, act, object, to, for, at,
each attribute, phase), the cast's persons (their pairs and sides: constants for a concrete cast,
variables for a search that chooses the pairs), and the boolean and counting terms over them.

z3 sees only indices; Chinese names stay in Python (`Domain`). Quantifiers over positions are finite
conjunctions and disjunctions over range(k).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import field
from typing import Any

import z3

from xiangshe.constraints.pattern import NONE
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.trace import SIDES, Cast, Trace
from xiangshe.domain.vocabulary import PERSON_KEYS, Vocabulary, vocabulary
from xiangshe.fsm.smt import conj, disj
from xiangshe.fsm.table import tables


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
        self.obj_ix = {self.object_key(k, i): n + 1 for n, (k, i) in enumerate(self.objects)}
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
    def object_key(kind: str, inst: str) -> str:
        """An object instance's key, as `obj_ix` and the traces' ObjectRef.key spell it."""
        return f"{kind}{inst}" if inst.isdigit() else f"{kind}@{inst}"

    def slot_values(self, key: str) -> dict[str, int]:
        if key in ("actor", *PERSON_KEYS):
            return self.person_ix
        if key == "at":
            return self.place_ix
        return self.attr_ix[key]


class Unrolling:
    """The variables of a k-step trace and its cast, with the terms the encodings build from."""

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
        #: what every question over the unrolling assumes (the pairing; the machines' relations)
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
        self.rounds = {
            r: [self.d.phase_ix[pid] for pid, ph in self.vocab.phases.items() if ph.round == r] for r in range(4)
        }
        self.rounds[0] = [0, *self.rounds[0]]

    # -- boolean and counting terms --------------------------------------------------------------
    Not = staticmethod(z3.Not)
    Implies = staticmethod(z3.Implies)

    @staticmethod
    def And(*xs: Any) -> z3.BoolRef:
        return conj(xs) if _terms(xs) else z3.And(*xs)

    @staticmethod
    def Or(*xs: Any) -> z3.BoolRef:
        return disj(xs) if _terms(xs) else z3.Or(*xs)

    @staticmethod
    def all(xs: Iterable[Any]) -> z3.BoolRef:
        xs = list(xs)
        return Unrolling.And(*xs) if xs else z3.BoolVal(True)

    @staticmethod
    def any(xs: Iterable[Any]) -> z3.BoolRef:
        xs = list(xs)
        return Unrolling.Or(*xs) if xs else z3.BoolVal(False)

    def var(self, name: str) -> z3.BitVecRef:
        return z3.BitVec(name, self.width)

    def val(self, n: int) -> z3.BitVecRef:
        return z3.BitVecVal(n, self.width)

    def total(self, xs: Iterable[Any]) -> z3.BitVecRef:
        out = self.val(0)
        for x in xs:
            out = out + x
        return out

    def bound(self, n: int) -> z3.BitVecRef:
        """The number n, to compare with a count of steps (0 … k): any n below 0 compares as -1
        and any above k as k + 1, so that it fits the bit-vectors' width and compares alike."""
        return self.val(max(-1, min(n, self.k + 1)))

    def count(self, xs: Iterable[Any]) -> z3.BitVecRef:
        return self.total(z3.If(x, self.val(1), self.val(0)) for x in xs)

    def among(self, term: z3.BitVecRef, ixs: Iterable[int]) -> z3.BoolRef:
        """term ∈ ixs, written as a few ranges rather than one equality per index."""
        runs: list[list[int]] = []
        for i in sorted(set(ixs)):
            if runs and runs[-1][1] == i - 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        if not isinstance(term, z3.BitVecRef):
            return self.any(term == lo if lo == hi else z3.And(term >= lo, term <= hi) for lo, hi in runs)
        # the same terms as `term == lo`, `z3.And(term >= lo, term <= hi)` (signed), made directly
        ctx, width = term.ctx, term.size()
        a, c = term.as_ast(), term.ctx_ref()

        def rel(make: Any, n: int) -> z3.BoolRef:
            value = z3.BitVecVal(n, width, ctx)  # made when z3 would make it, and held while the term is made
            return z3.BoolRef(make(c, a, value.as_ast()), ctx)

        return self.any(
            rel(z3.Z3_mk_eq, lo) if lo == hi else conj([rel(z3.Z3_mk_bvsge, lo), rel(z3.Z3_mk_bvsle, hi)])
            for lo, hi in runs
        )

    @staticmethod
    def indices(index: dict[str, int], values: frozenset[str]) -> set[int]:
        """The indices of `values` in `index`, with `none` as 0."""
        return {index[v] for v in values if v != NONE} | ({0} if NONE in values else set())

    def persons_where(self, pred: Callable[[int], bool]) -> list[int]:
        return [p for p in self.persons if pred(p)]

    # -- the cast --------------------------------------------------------------------------------
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


def _terms(xs: Sequence[Any]) -> bool:
    """Are these all boolean z3 terms of one context (what conj and disj take)?"""
    ctx = xs[0].ctx if xs and isinstance(xs[0], z3.BoolRef) else None
    return ctx is not None and all(isinstance(x, z3.BoolRef) and x.ctx is ctx for x in xs)
