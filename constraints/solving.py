"""Asking z3: a solver whose answers do not depend on the machine, the run or what was asked before
(`solver`, `fresh_context`), and that gives a Ctrl-C back to Python."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import z3

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


class Solver(z3.Solver):  # type: ignore[misc]  # z3 has no type hints: its Solver is Any
    """z3's solver, but a Ctrl-C is not an answer. While it searches z3 takes SIGINT for itself and
    answers unknown ("interrupted from keyboard"), which would read as "the solver gave up" and let
    the command go on to a verdict: the signal is given back to Python instead (KeyboardInterrupt,
    or whatever the program made of SIGINT)."""

    def check(self, *assumptions: Any) -> Any:  # z3's CheckSatResult (untyped)
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
