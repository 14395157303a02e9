"""Patterns, correlations and person patterns over an unrolling: `match(pattern, t)` (does step t
match the pattern?), `agree(same, i, j)` (do steps i and j agree on the `same` keys?) and
`person_match` (a person of the cast against a person pattern). A condition on a machine's state
reads the machine encoding."""

from __future__ import annotations

from collections.abc import Sequence

import z3

from xiangshe.constraints.machine_encoding import MachineEncoding
from xiangshe.constraints.pattern import NONE, PERSON_ATTRS, Pattern
from xiangshe.constraints.templates import PersonPattern
from xiangshe.constraints.unrolling import Domain, Unrolling
from xiangshe.domain.vocabulary import PERSON_KEYS
from xiangshe.fsm.smt import state_index
from xiangshe.fsm.table import Table, table_for_object, table_named


class PatternEncoding:
    def __init__(self, u: Unrolling, machines: MachineEncoding) -> None:
        self.u, self.machines = u, machines
        self._match: dict[tuple[Pattern, int], z3.BoolRef] = {}
        self._term: dict[tuple[str, int], z3.BitVecRef] = {}

    def _person_attr(self, who: z3.BitVecRef, attr: str, values: frozenset[str]) -> z3.BoolRef:
        """`who` (a person term, 0 = nobody) has `attr` in `values` (`none` for absent)."""
        u = self.u
        nobody = who == 0 if NONE in values else z3.BoolVal(False)
        if attr == "role":
            return z3.Or(nobody, u.among(who, u.persons_where(lambda p: u.role[p] in values)))
        if attr == "rank":
            ix = u.indices(u.d.rank_ix, values)
            return z3.Or(nobody, u.among(who, u.persons_where(lambda p: u.rank[p] in ix)))
        if attr in ("side", "pair"):
            terms = u.side if attr == "side" else u.pair
            ix = u.indices(u.d.side_ix if attr == "side" else {}, values)
            return z3.Or(nobody, u.any(z3.And(who == p, u.among(terms[p], ix)) for p in u.persons))
        raise KeyError(attr)

    def _machine_state(
        self, table: Table, who_terms: list[tuple[z3.BoolRef, str]], t: int, values: frozenset[str]
    ) -> z3.BoolRef:
        u, ix = self.u, state_index(table)
        hit = [
            z3.And(cond, u.among(self.machines.state(table, inst)[t], [ix[v] for v in values if v in ix]))
            for cond, inst in who_terms
        ]
        covered = u.any(cond for cond, _ in who_terms)
        return z3.Or(u.any(hit), z3.And(z3.Not(covered), z3.BoolVal(NONE in values)))

    def cond(self, key: str, values: frozenset[str], t: int, objs: frozenset[str] | None) -> z3.BoolRef:
        u = self.u
        s = u.slots
        if key in PERSON_KEYS:
            return self._person_attr(s[key][t], "role", values)
        if key in ("at", *u.d.attr_ix):
            return u.among(s[key][t], u.indices(u.d.slot_values(key), values))
        if key == "phase":
            return u.among(s["phase"][t], [u.d.phase_ix[v] for v in values])
        if key == "round":
            return u.among(s["phase"][t], [i for v in values for i in u.rounds[int(v)]])
        if key == "obj.state":
            # the state of whatever object the event names, under that object's own machine
            hits, covered = [], []
            for k, i in u.d.objects:
                table = table_for_object(k)
                if table is None:
                    continue
                okey = Domain.object_key(k, i)
                is_it = s["obj"][t] == u.d.obj_ix[okey]
                covered.append(is_it)
                if objs is None or k in objs:
                    ix = state_index(table)
                    state = self.machines.state(table, okey)[t]
                    hits.append(z3.And(is_it, u.among(state, [ix[v] for v in values if v in ix])))
            none_case = z3.And(z3.Not(u.any(covered)), z3.BoolVal(NONE in values))
            return z3.Or(u.any(hits), none_case)
        head, _, attr = key.partition(".")
        who = s["actor"][t] if head == "actor" else s[head][t]
        if attr in PERSON_ATTRS:
            return self._person_attr(who, attr, values)
        table = table_named(attr)
        assert table is not None
        holders = [(z3.And(who == p, gate), u.d.persons[p - 1]) for p, gate in self.machines.holders(table)]
        return self._machine_state(table, holders, t, values)

    def match(self, pat: Pattern, t: int) -> z3.BoolRef:
        key = (pat, t)
        if key not in self._match:
            self._match[key] = self._build_match(pat, t)
        return self._match[key]

    def _build_match(self, pat: Pattern, t: int) -> z3.BoolRef:
        u = self.u
        s = u.slots
        parts = [s["act"][t] != 0]  # an idle step (act 0, in a search) matches nothing
        if pat.acts is not None:
            parts.append(u.among(s["act"][t], [u.d.act_ix[a] for a in pat.acts]))
        if (roles := pat.roles) is not None:
            parts.append(u.among(s["actor"][t], u.persons_where(lambda p: u.role[p] in roles)))
        if pat.objs is not None:
            objs = [u.d.obj_ix[Domain.object_key(k, i)] for k, i in u.d.objects if k in pat.objs]
            parts.append(u.among(s["obj"][t], objs))
        for c in pat.conds:
            hit = self.cond(c.key, c.values, t, pat.objs)
            parts.append(z3.Not(hit) if c.negate else hit)
        return u.all(parts)

    def term(self, key: str, t: int) -> z3.BitVecRef:
        """The value of `key` at step t as an index term (0 = none), for correlations."""
        if (key, t) not in self._term:
            self._term[(key, t)] = self._build_term(key, t)
        return self._term[(key, t)]

    def _build_term(self, key: str, t: int) -> z3.BitVecRef:
        u = self.u
        s = u.slots
        if key in s:
            return s[key][t]
        if key == "round":
            r: z3.BitVecRef = u.val(0)
            for n in (1, 2, 3):
                r = z3.If(u.among(s["phase"][t], u.rounds[n]), n, r)
            return r
        head, _, attr = key.partition(".")
        who = s["actor"][t] if head == "actor" else s[head][t]
        if attr == "pair":
            table = u.pair
        elif attr == "side":
            table = u.side
        elif attr == "rank":
            table = {p: u.val(u.rank[p]) for p in u.persons}
        elif attr == "role":
            roles = sorted(set(u.role.values()))
            table = {p: u.val(roles.index(u.role[p]) + 1) for p in u.persons}
        else:
            raise KeyError(f"{key} cannot be correlated in z3")
        out: z3.BitVecRef = u.val(0)
        for p in u.persons:
            out = z3.If(who == p, table[p], out)
        return out

    def agree(self, same: Sequence[tuple[str, str]], i: int, j: int) -> z3.BoolRef:
        return self.u.all(self.term(a, i) == self.term(b, j) for a, b in same)

    def person_match(self, pp: PersonPattern, p: int) -> z3.BoolRef:
        """Person p (a known index) matches the person pattern."""
        u, parts = self.u, []
        for key, values in pp.conds:
            if key == "role":
                parts.append(z3.BoolVal(u.role[p] in values))
            elif key == "rank":
                parts.append(z3.BoolVal(u.rank[p] in u.indices(u.d.rank_ix, values)))
            else:
                parts.append(u.among(u.side[p], u.indices(u.d.side_ix, values)))
        return u.all(parts)
