"""Ctrl-C stops the command at once: exit 130 (128 + SIGINT) with one line on stderr, no traceback
and no verdict (nothing after the interrupt is computed, so nothing claims one).

click turns a KeyboardInterrupt into "Aborted!" and exit 1, which reads like "violations found";
so the command line's handler raises `Interrupted` instead, which click lets through to `main`.
z3 is kept from taking SIGINT for itself and stopped by the main thread when it comes (constraints.solving.Solver);
worker processes ignore it and are terminated by the process that started them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import signal
else:  # the C module that `signal` wraps: the same functions, without the enums `signal` builds at import
    import _signal as signal  # (3 M instructions of every start); what they return is compared by identity only

EXIT = 130


class Interrupted(BaseException):
    """The user pressed Ctrl-C (SIGINT). A BaseException: no `except Exception` holds it up."""


_pending = False  # a Ctrl-C came: even if its exception was swallowed (raised inside a __del__)


def _raise(_signum, _frame) -> None:
    global _pending
    _pending = True
    raise Interrupted


def _unraisable(previous):
    """Python drops an exception raised where it cannot propagate (an object's __del__, such as z3's
    AstRef) and prints it: an Interrupted there is kept as pending instead, and said nothing of. Once
    a Ctrl-C has come, an error in a destructor is said nothing of either: the interrupt may have
    stopped the object's __init__ half-way (z3's BoolSortRef without its `ctx`), and its __del__ then
    fails on what was never set — a consequence of the interrupt, not a fault to show the user."""

    def hook(unraisable) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, Interrupted):
            return
        if _pending:
            return
        previous(unraisable)

    return hook


def install() -> None:
    """Make SIGINT raise Interrupted, unless it was ignored when the program started (nohup, `&`)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _raise)
        sys.unraisablehook = _unraisable(sys.unraisablehook)


def pending() -> bool:
    return _pending


def check() -> None:
    """Raise Interrupted if a Ctrl-C came whose exception was swallowed: nothing is printed after it."""
    if _pending:
        raise Interrupted


def stop() -> None:
    """Say so and exit 130 (on a terminal the line is cleared first: the ^C echo, a progress line)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not interrupt the exit
    clear = "\r\033[K" if sys.stderr.isatty() else ""
    sys.stderr.write(f"{clear}xiangshe: interrupted\n")
    sys.stderr.flush()
    sys.exit(EXIT)
