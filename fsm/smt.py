"""A machine table as a z3 transition relation over a bounded unrolling.

The meaning is the replay's: at a step that concerns the instance, an act with an edge from the
current state moves it to the edge's destination; any other step (and a refused act) leaves the
state unchanged. `ok[t]` says whether step t was not a refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from fsm.table import Table


def state_index(table: Table) -> dict[str, int]:
    return {s: i for i, s in enumerate(table.states)}


def machine_relation(table: Table, name: str, concerns: Sequence[z3.BoolRef],
                     act: Sequence[z3.ArithRef], act_index: dict[str, int]
                     ) -> tuple[list[z3.ArithRef], list[z3.BoolRef], list[z3.BoolRef]]:
    """State variables s[0..k] of one instance, the constraints linking them, and ok[t].

    Only the edges whose act is in `act_index` are written: a search passes its alphabet, and an
    act outside it never occurs."""
    index = state_index(table)
    k = len(concerns)
    s = [z3.Int(f"{name}@{t}") for t in range(k + 1)]
    constraints: list[z3.BoolRef] = [s[0] == index[table.initial]]
    ok = []
    edges = [e for e in table.edges if e.act in act_index]
    for t in range(k):
        fires = [(z3.And(act[t] == act_index[e.act], s[t] == index[e.source]), index[e.dest])
                 for e in edges]
        nxt: z3.ArithRef = s[t]
        for cond, dest in reversed(fires):
            nxt = z3.If(cond, dest, nxt)
        constraints.append(s[t + 1] == z3.If(concerns[t], nxt, s[t]))
        ok.append(z3.Implies(concerns[t], z3.Or([c for c, _ in fires]) if fires else z3.BoolVal(False)))
    return s, constraints, ok
