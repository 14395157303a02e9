"""Asking z3: a solver whose answers do not depend on the machine, the run or what was asked before
(`solver`, `fresh_context`), and that gives a Ctrl-C back to Python at once (`Solver`)."""

from __future__ import annotations

import signal
import threading
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
    """z3's solver, but a Ctrl-C is never lost in it, nor taken for an answer.

    z3 would take SIGINT for itself while it searches (its `ctrl_c` parameter) and answer unknown,
    or, when the signal lands as it finishes, drop it (the search ends with its own answer and the
    Ctrl-C is gone; z3 issue #2621). So z3 is told not to (`ctrl_c` off) and the search runs in a
    thread of its own while the main thread waits for it, where Python's handler for SIGINT runs
    at once: it stops z3 (`Context.interrupt`, meant to be called from another thread), waits for
    the search to end and lets the interrupt go on (KeyboardInterrupt, or whatever the program made
    of SIGINT). Where SIGINT is ignored (a batch's worker processes) or outside the main thread,
    which gets no signals, the search runs where it is asked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set("ctrl_c", False)

    def check(self, *assumptions: Any) -> Any:  # z3's CheckSatResult (untyped)
        ask = super().check
        unsignalled = threading.current_thread() is not threading.main_thread()
        if unsignalled or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            return ask(*assumptions)
        answer: list[Any] = []
        lock = threading.Lock()
        state = {"cancelled": False, "running": False}
        left = threading.Event()

        def search() -> None:
            with lock:
                if state["cancelled"]:  # interrupted before the search began: z3 is not asked
                    return
                state["running"] = True
            try:
                answer.append(ask(*assumptions))
            except BaseException as e:  # handed to the main thread, raised there
                answer.append(e)
            finally:
                left.set()

        worker = threading.Thread(target=search, name="z3-check", daemon=True)
        try:
            with _sigint_blocked():  # the search's thread is started with SIGINT blocked, and keeps it so:
                worker.start()  # the kernel gives a Ctrl-C to this thread, which wakes from its wait
            worker.join()
        except BaseException:  # the Ctrl-C (or whatever its handler raised), even during start()
            with lock:
                state["cancelled"] = True
                running = state["running"]
            while running and not left.wait(0.05):  # until z3 has stopped: the process may
                self.ctx.interrupt()  # not end, nor free the context, under a running search
            raise
        if isinstance(answer[0], BaseException):
            raise answer[0]
        return answer[0]


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread for the block (and so in a thread started in it, which inherits
    the mask). A signal sent to the process goes to one of its threads that does not block it: were
    it the search's, Python's handler would wait for the main thread's next bytecode, and the main
    thread waits in `join` until the search ends (seconds). Where threads have no signal mask
    (Windows), signals go to the main thread anyway."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def solver() -> Solver:
    """A solver whose answers do not depend on the machine or the run."""
    s = Solver()
    s.set("random_seed", SEED)
    return s
