"""The naive reference: a single-pass Declare checker over each trace's activity labels.

One walk over each trace updates the state of every constraint the label concerns (an index from
label to the constraints that read it, built once for the model); at the end of the trace the
constraints still pending are broken:

- absence(a): broken at the first a;
- precedence(a, b): broken at a b while no a has come;
- response(a, b): pending after an a, discharged by a later b; broken if pending at the end;
- succession(a, b): both of the above, on the one constraint.

No sharing with our checker: it reads only the labels and the model, as pm4py does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from benchmarks.declare_subset import ABSENCE, PRECEDENCE, RESPONSE, SUCCESSION, Constraint

# what an occurrence of a label does to a constraint
BREAK, ARM, SEEN_FIRST, DISCHARGE, OWE = range(5)


class Checker:
    """The model compiled into label → [(what the label does, constraint number)]."""

    def __init__(self, constraints: Sequence[Constraint]) -> None:
        self.constraints = list(constraints)
        self.on: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for k, (template, acts) in enumerate(self.constraints):
            if template not in (ABSENCE, PRECEDENCE, RESPONSE, SUCCESSION):
                raise ValueError(f"unknown template {template}")
            if template == ABSENCE:
                self.on[acts[0]].append((BREAK, k))
            if template in (PRECEDENCE, SUCCESSION):
                self.on[acts[0]].append((SEEN_FIRST, k))
                self.on[acts[1]].append((ARM, k))
            if template in (RESPONSE, SUCCESSION):
                self.on[acts[0]].append((OWE, k))
                self.on[acts[1]].append((DISCHARGE, k))

    def broken(self, trace: Sequence[str]) -> set[Constraint]:
        """The constraints `trace` breaks, in one pass over it."""
        broken: set[int] = set()
        seen: set[int] = set()  # precedences whose first has come
        owing: set[int] = set()  # responses waiting for their b
        on = self.on
        for x in trace:
            for what, k in on.get(x, ()):
                if what == BREAK:
                    broken.add(k)
                elif what == SEEN_FIRST:
                    seen.add(k)
                elif what == ARM:
                    if k not in seen:
                        broken.add(k)
                elif what == OWE:
                    owing.add(k)
                else:
                    owing.discard(k)
        broken |= owing
        return {self.constraints[k] for k in broken}
