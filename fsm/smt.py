"""A machine table as a z3 transition relation over a bounded unrolling.

The meaning is the replay's: at a step that concerns the instance, an act with an edge from the
current state moves it to the edge's destination; any other step (and a refused act) leaves the
state unchanged. `ok[t]` says whether step t was not a refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3

from xiangshe.fsm.table import Table


def state_index(table: Table) -> dict[str, int]:
    return {s: i for i, s in enumerate(table.states)}


# The same terms as z3.And, z3.Or and z3.If make, built straight from z3's C API: z3's Python
# functions check and coerce every argument (~50 µs a call, ten times the cost of making the term),
# and a search's unrollings are hundreds of thousands of such calls. Only for arguments that are
# already z3 terms of one context (no Python bools or ints).


def _nary(make: Callable[..., Any], xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    ctx = xs[0].ctx
    return z3.BoolRef(make(ctx.ref(), len(xs), (z3.Ast * len(xs))(*(x.as_ast() for x in xs))), ctx)


def conj(xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """z3.And(xs) of one or more boolean terms."""
    return _nary(z3.Z3_mk_and, xs)


def disj(xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """z3.Or(xs) of one or more boolean terms."""
    return _nary(z3.Z3_mk_or, xs)


def ite(cond: z3.BoolRef, then: z3.BitVecRef, other: z3.BitVecRef) -> z3.BitVecRef:
    """z3.If(cond, then, other) of bit-vector terms of one width."""
    ctx = cond.ctx
    return z3.BitVecRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)


def machine_relation(
    table: Table,
    name: str,
    concerns: Sequence[z3.BoolRef],
    act: Sequence[z3.BitVecRef],
    act_index: dict[str, int],
    act_is: Callable[[int, str], z3.BoolRef] | None = None,
) -> tuple[list[z3.BitVecRef], list[z3.BoolRef], list[z3.BoolRef]]:
    """State variables s[0..k] of one instance, the constraints linking them, and ok[t].

    Only the edges whose act is in `act_index` are written: a search passes its alphabet, and an
    act outside it never occurs. `act_is(t, a)` may supply the (shared) term act[t] == a."""
    index = state_index(table)
    k = len(concerns)
    width = act[0].size() if act else 8  # the step terms' bit-vector width
    s = [z3.BitVec(f"{name}@{t}", width) for t in range(k + 1)]
    constraints: list[z3.BoolRef] = [s[0] == index[table.initial]]
    ok = []
    edges = [e for e in table.edges if e.act in act_index]
    is_act = act_is or (lambda t, a: act[t] == act_index[a])
    value = {i: z3.BitVecVal(i, width) for i in index.values()}  # the states as terms, made once
    for t in range(k):
        at = {src: s[t] == index[src] for src in sorted({e.source for e in edges})}  # sorted: a set's order varies
        fires = [(conj([is_act(t, e.act), at[e.source]]), value[index[e.dest]]) for e in edges]
        nxt: z3.BitVecRef = s[t]
        for cond, dest in reversed(fires):
            nxt = ite(cond, dest, nxt)
        constraints.append(s[t + 1] == ite(concerns[t], nxt, s[t]))
        ok.append(z3.Implies(concerns[t], disj([c for c, _ in fires]) if fires else z3.BoolVal(False)))
    return s, constraints, ok
