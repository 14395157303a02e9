"""Worker processes for work spread over the cores (`check --jobs`, `check-rules --jobs`): a pool
started with the "spawn" method (a fresh interpreter: it imports and loads what it needs), or, where
asked and the platform forks safely (`forked`), with "fork" (a copy of this process: what it has
loaded is there at once), whose workers leave SIGINT to the process that started them, and which is
terminated however the block that uses it is left (Ctrl-C: the workers stop at once, where an
executor would wait for every task submitted). reports/interrupt.py says what a Ctrl-C does in the
main process.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool


@contextmanager
def pool(
    jobs: int,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[object, ...] = (),
    fork: bool = False,
) -> Iterator[Pool]:
    """`jobs` worker processes, each ignoring SIGINT, then running `initializer(*initargs)` (once per
    worker: load what every task needs); terminated when the block is left. With `fork`, copies of
    this process where `forked()` holds (they need not import or load again what it has), else
    spawned."""
    import multiprocessing

    method = "fork" if fork and forked() else "spawn"
    if method == "fork":  # a copy would write again what this process has not yet written out
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):  # closed, or a reader gone: the command finds out when it writes
                pass
    started = None
    try:
        with _sigint_deferred():  # a Ctrl-C while they are started waits until the pool can stop them
            started = multiprocessing.get_context(method).Pool(jobs, _start, (initializer, initargs))
        yield started
    finally:
        if started is not None:
            started.terminate()


def forked() -> bool:
    """Whether workers may be forked: on Linux, from a process running no other thread (a lock
    another thread holds would be held for ever in the copy). Elsewhere fork is unsafe (macOS's
    system libraries) or missing (Windows)."""
    import threading

    return sys.platform.startswith("linux") and threading.active_count() == 1


def _start(initializer: Callable[..., object] | None, initargs: tuple[object, ...]) -> None:
    ignore_sigint()
    if initializer is not None:
        initializer(*initargs)


def ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """While processes are started: SIGINT ignored, so that they start ignoring it (a Ctrl-C goes
    to the whole process group, and would otherwise interrupt them while they start, each with a
    traceback), and held back in this process (blocked: a blocked signal is kept, not ignored),
    then delivered to the handler in force before. Where signals cannot be blocked, a Ctrl-C in
    the block is noted and raised again after it. In the main thread only (where handlers are set)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # before the block: starting it unblocks SIGINT again
    caught: list[int] = []
    can_block = hasattr(signal, "pthread_sigmask")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if can_block else None
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN if can_block else lambda n, _f: caught.append(n))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal held back arrives now
        if caught:
            signal.raise_signal(signal.SIGINT)
