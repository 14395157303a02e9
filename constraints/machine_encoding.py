"""The machines over an unrolling: the state terms of each machine instance, tied by its table's
transition relation (fsm.smt), added to the unrolling's constraints the first time an instance is
read. Which persons run a person machine (`holders`), and the no-refusal terms (`ok`)."""

from __future__ import annotations

import z3

from xiangshe.constraints.unrolling import Unrolling
from xiangshe.fsm.smt import machine_relation
from xiangshe.fsm.table import Table


class MachineEncoding:
    def __init__(self, u: Unrolling) -> None:
        self.u = u
        self.states: dict[tuple[str, str], list[z3.BitVecRef]] = {}  # (table name, instance) -> s[t]
        self.ok: dict[tuple[str, str], list[z3.BoolRef]] = {}  # (table name, instance) -> no refusal at t
        self.alphabet: set[str] | None = None  # a search's acts (None: every act)
        self._act_is: dict[tuple[int, str], z3.BoolRef] = {}

    def act_is(self, t: int, act: str) -> z3.BoolRef:
        """The term act[t] == act, made once and shared by every machine instance."""
        key = (t, act)
        if key not in self._act_is:
            self._act_is[key] = self.u.slots["act"][t] == self.u.d.act_ix[act]
        return self._act_is[key]

    def holders(self, table: Table) -> list[tuple[int, z3.BoolRef]]:
        """The persons who run a person machine, each with the condition under which he does
        (a shooter's machine runs only for a person in a pair)."""
        u, out = self.u, []
        for p in u.persons:
            person = u.cast.persons[u.d.persons[p - 1]]
            if person.role in table.roles:
                out.append((p, z3.BoolVal(True)))
            elif table.shooters:
                if u.free_pairs:
                    if u.shooter_roles is None or person.role in u.shooter_roles:
                        out.append((p, u.pair[p] != 0))
                elif person.pair:
                    out.append((p, z3.BoolVal(True)))
        return out

    def state(self, table: Table, inst: str) -> list[z3.BitVecRef]:
        """The state terms of one machine instance, adding its relation the first time."""
        key = (table.name, inst)
        if key not in self.states:
            u = self.u
            s, d = u.slots, u.d
            if table.is_person:
                p = d.person_ix[inst]
                gate = dict(self.holders(table)).get(p, z3.BoolVal(False))
                acts = [d.act_ix[a] for a in table.acts]
                concerns = [z3.And(gate, s["actor"][t] == p, u.among(s["act"][t], acts)) for t in u.steps]
            else:
                oid = d.obj_ix[inst]
                concerns = [s["obj"][t] == oid for t in u.steps]
            index = d.act_ix if self.alphabet is None else {a: i for a, i in d.act_ix.items() if a in self.alphabet}
            states, cons, ok = machine_relation(
                table, f"{u.tag}{table.slug}:{inst}", concerns, s["act"], index, self.act_is
            )
            self.states[key], self.ok[key] = states, ok
            u.constraints += cons
        return self.states[key]

    def no_refusal(self, table: Table, inst: str) -> list[z3.BoolRef]:
        """The terms saying the instance's machine refuses no step (its relation joins the
        unrolling's constraints)."""
        self.state(table, inst)
        return self.ok[(table.name, inst)]
