"""A query: does a property (a rule template with its patterns, as `xiangshe query` takes it) hold for
every trace of at most `depth` steps that the machines and the rules in force allow? z3 answers with
a shortest counterexample (minimised), with "none up to the depth" (not a proof), or gives up.

`ask` returns an `Answer` for the command line to print; it prints nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xiangshe.constraints import search
from xiangshe.constraints.rulebook import Rule, query_rule
from xiangshe.constraints.search import Exhausted, Outcome, Refuted
from xiangshe.domain.dataclass import dataclass


@dataclass(frozen=True)
class Answer:
    prop: Rule  # the property, as a rule
    data: dict[str, Any]  # the property as asked (kind and fields)
    depth: int
    readings: dict[str, str]
    outcome: Outcome  # z3's answer
    text: str | None = None  # the counterexample, minimised; None: there is none

    @property
    def holds(self) -> bool | None:
        """True: no counterexample up to the depth (not a proof); False: one; None: z3 gave up."""
        return True if isinstance(self.outcome, Exhausted) else False if self.text is not None else None

    @property
    def steps(self) -> int | None:
        return self.outcome.steps if isinstance(self.outcome, Refuted) else None

    @property
    def reason(self) -> str | None:
        return getattr(self.outcome, "reason", None) if self.holds is None else None

    @property
    def exit_code(self) -> int:
        """0 it holds up to the depth; 1 a counterexample; 3 the solver gave up."""
        return {True: 0, False: 1, None: 3}[self.holds]


def fields(kind: str, same: Sequence[str] = (), **given: Any) -> dict[str, Any]:
    """The property as the rulebook states it, from the command line's options: the fields given
    (None: not given), and `same` as KEY or KEY=KEY."""
    data: dict[str, Any] = {"kind": kind} | {k: v for k, v in given.items() if v is not None}
    if same:
        data["same"] = {k: (v or k) for k, _, v in (x.partition("=") for x in same)}
    return data


def ask(data: dict[str, Any], rules_in_force: Sequence[Rule], readings: dict[str, str], depth: int) -> Answer:
    """Ask z3 whether the property `data` holds up to `depth` steps; an InputError if `data` is not a
    property (an unknown kind, a bad pattern)."""
    prop = query_rule(data)
    outcome = search.refute(prop, rules_in_force, depth)  # through the module: a test may replace it
    text = (
        search.minimise(outcome.text, prop, [*rules_in_force, prop], readings) if isinstance(outcome, Refuted) else None
    )
    return Answer(prop, data, depth, readings, outcome, text)
