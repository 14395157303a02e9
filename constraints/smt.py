"""The z3 meaning of the rulebook: a bounded symbolic trace and the rules' encodings over it.

`Symbolic` is what a template's `clauses` reads: a k-step unrolling (constraints/unrolling.py: the
step and person terms, the boolean and counting terms) with the patterns encoded over it
(constraints/pattern_encoding.py) and the machines whose states patterns read
(constraints/machine_encoding.py); asking z3 is constraints/solving.py. The cast is fixed per
unrolling (roles and ranks are constants); pairs and sides are terms, concrete here.

This module is never imported on the `check` path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import z3

from xiangshe.constraints.machine_encoding import MachineEncoding
from xiangshe.constraints.pattern import Pattern
from xiangshe.constraints.pattern_encoding import PatternEncoding
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.solving import solver
from xiangshe.constraints.templates import PersonPattern
from xiangshe.constraints.unrolling import Unrolling
from xiangshe.domain.trace import Cast, Trace
from xiangshe.domain.vocabulary import Vocabulary

__all__ = ["Symbolic", "holds_on", "solver"]


class Symbolic:
    """A k-step unrolling with the template API: `match`, `agree`, `person_match` over it, and the
    unrolling's own terms (`all`, `any`, `count`, `steps`, `persons`, `slots`, `constraints` …:
    looked up on `unrolling`). `machines` holds the state terms of the machine instances read so
    far; their relations join `constraints`.

    The parts refer to each other one way (patterns → machines → unrolling, never back): with no
    cycle, an unrolling's z3 terms are freed as soon as it is dropped, not at some later garbage
    collection — z3 reuses the ids of freed terms, and the models a later search gets depend on them."""

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
        self.unrolling = Unrolling(k, cast, vocab, tag, free_pairs, shooter_roles, objects)
        self.machines = MachineEncoding(self.unrolling)
        self.patterns = PatternEncoding(self.unrolling, self.machines)

    def __getattr__(self, name: str) -> Any:
        if name in ("unrolling", "machines", "patterns"):  # not yet set (copying, unpickling)
            raise AttributeError(name)
        return getattr(self.unrolling, name)

    def match(self, pat: Pattern, t: int) -> z3.BoolRef:
        return self.patterns.match(pat, t)

    def agree(self, same: Sequence[tuple[str, str]], i: int, j: int) -> z3.BoolRef:
        return self.patterns.agree(same, i, j)

    def person_match(self, pp: PersonPattern, p: int) -> z3.BoolRef:
        return self.patterns.person_match(pp, p)


def holds_on(rule: Rule, trace: Trace) -> bool:
    """The z3 meaning of `rule` evaluated on a concrete trace: does the trace satisfy it?"""
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
    return bool(result == z3.unsat)
