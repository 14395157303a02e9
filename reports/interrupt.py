"""Ctrl-C stops the command at once: exit 130 (128 + SIGINT) with one line on stderr, no traceback
and no verdict (nothing after the interrupt is computed, so nothing claims one).

click turns a KeyboardInterrupt into "Aborted!" and exit 1, which reads like "violations found";
so the command line's handler raises `Interrupted` instead, which click lets through to `main`.
z3 takes SIGINT for itself while it searches and gives it back once it stops (constraints.smt.Solver);
worker processes ignore it and are terminated by the process that started them.
"""

from __future__ import annotations

import signal
import sys

EXIT = 130


class Interrupted(BaseException):
    """The user pressed Ctrl-C (SIGINT). A BaseException: no `except Exception` holds it up."""


def _raise(_signum, _frame) -> None:
    raise Interrupted


def install() -> None:
    """Make SIGINT raise Interrupted, unless it was ignored when the program started (nohup, `&`)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _raise)


def stop() -> None:
    """Say so and exit 130 (on a terminal the line is cleared first: the ^C echo, a progress line)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)           # a second Ctrl-C does not interrupt the exit
    clear = "\r\033[K" if sys.stderr.isatty() else ""
    sys.stderr.write(f"{clear}xiangshe: interrupted\n")
    sys.stderr.flush()
    sys.exit(EXIT)
