"""The naive baseline: a straightforward single pass per Declare constraint over each trace.

For every trace (a list of activity labels) and every constraint of the model, walk the trace once:

- absence(a): a never occurs;
- precedence(a, b): no b before the first a;
- response(a, b): no a after the last b.

No index, no sharing between constraints: the cost is (number of constraints) × (events).
"""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.declare_subset import ABSENCE, PRECEDENCE, RESPONSE, Constraint


def holds(trace: Sequence[str], constraint: Constraint) -> bool:
    template, acts = constraint
    if template == ABSENCE:
        (a,) = acts
        for x in trace:
            if x == a:
                return False
        return True
    a, b = acts
    if template == PRECEDENCE:
        for x in trace:
            if x == a:
                return True
            if x == b:
                return False
        return True
    if template == RESPONSE:
        pending = False
        for x in trace:
            if x == a:
                pending = True
            elif x == b:
                pending = False
        return not pending
    raise ValueError(f"unknown template {template}")


def violated(trace: Sequence[str], constraints: Sequence[Constraint]) -> list[Constraint]:
    return [c for c in constraints if not holds(trace, c)]
