"""Pause the cyclic garbage collector while a trace is parsed or checked.

Parsing and checking allocate many small objects that live as long as the trace (events, their
attribute tuples, the replay's states): every full collection walks them all again, which makes the
time per event grow with the size of the trace. Nothing here depends on the collector (reference
counting frees what it can); cycles made meanwhile are collected once it runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the collector inside the block; enable it after, if it was enabled before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


_own = False  # this process is the command line's and ends with its command (`own_process`)


def own_process(own: bool = True) -> None:
    """Say that this process is the command line's (own) or no longer is (the command is done): what
    it loads lives until the command ends, so `settle` moves it out of the collector's sight. A program
    that calls a command in-process does not say so, and keeps its collector as it was."""
    global _own
    _own = own
    settle()


def settle() -> None:
    """In the command line's own process, freeze what is loaded so far (gc.freeze): no later collection
    walks the modules, the rulebook or the machine tables again. Elsewhere, nothing."""
    if _own:
        gc.freeze()


@contextmanager
def loading() -> Iterator[None]:
    """Load what lives as long as the command (its modules, the rulebook …) with the collector paused:
    the many objects it makes are never walked while they are young; in the command line's own process
    they are frozen (`settle`) before the collector runs again. Elsewhere, only the pause."""
    with gc_paused():
        try:
            yield
        finally:
            settle()
