"""Worker processes for work spread over the cores (`check --jobs`, `check-rules --jobs`), started
with the "spawn" method (a fresh interpreter: it imports and loads what it needs), or, where asked
and the platform forks safely (`forked`), with "fork" (a copy of this process: what it has loaded is
there at once). They leave SIGINT to the process that started them, and are terminated however the
block that uses them is left (Ctrl-C: the workers stop at once, where an executor would wait for
every task submitted). reports/interrupt.py says what a Ctrl-C does in the main process.

- `pool`: a multiprocessing pool (`check-rules --jobs`: a few long tasks);
- `in_order`: many short tasks whose answers are wanted in order as soon as each is done (`check
  --jobs`): one pipe to each worker and none of a pool's threads, so that this process spends on a
  task no more than reading its answer; two tasks in flight a worker, so that none waits for the next.
"""

from __future__ import annotations

import pickle
import signal
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.pool import Pool
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

IN_FLIGHT = 2  # tasks sent to a worker before its first answer: it finds the next one waiting


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

    method = _method(fork)
    started = None
    try:
        with _sigint_deferred():  # a Ctrl-C while they are started waits until the pool can stop them
            started = multiprocessing.get_context(method).Pool(jobs, _start, (initializer, initargs))
        yield started
    finally:
        if started is not None:
            started.terminate()


class WorkerDied(RuntimeError):
    """A worker process ended (killed, out of memory) before answering every task it was given."""


def in_order(
    jobs: int,
    work: Callable[[Any], object],
    tasks: Sequence[object],
    initializer: Callable[..., object] | None = None,
    initargs: tuple[object, ...] = (),
    fork: bool = False,
) -> Generator[object, None, None]:
    """`work(task)` of each of `tasks`, in their order, each as soon as it and all before it are done,
    by `jobs` worker processes (each ignoring SIGINT, then running `initializer(*initargs)` once);
    forked as `pool` says. A task's exception is raised here, in its place; a worker that dies raises
    WorkerDied. The workers are terminated once the iterator is done or closed (a generator: close it,
    or exhaust it, to stop them at once)."""
    import multiprocessing
    from multiprocessing.connection import wait

    method = _method(fork)
    # (a literal method each: the typed context that has Process)
    context = multiprocessing.get_context("fork") if method == "fork" else multiprocessing.get_context("spawn")
    workers: list[tuple[BaseProcess, Connection]] = []
    try:
        with _sigint_deferred(tracker=method != "fork"):  # forked copies share no semaphore: no tracker
            for _ in range(jobs):
                here, there = context.Pipe()
                worker = context.Process(target=_serve, args=(there, work, initializer, initargs), daemon=True)
                worker.start()
                there.close()
                workers.append((worker, here))
        given: dict[Connection, list[int]] = {conn: [] for _, conn in workers}  # each worker's tasks, oldest first
        done: dict[int, Any] = {}  # (ok, answer or exception) by task: some come before earlier tasks' answers
        died = {process.sentinel: process for process, _ in workers}
        waiting = iter(range(len(tasks)))  # the tasks not yet sent, in order

        def give(conn: Connection) -> None:
            """The next task not yet sent, if any, to this worker."""
            for task in waiting:
                _give(conn, tasks[task])
                given[conn].append(task)
                return

        for _ in range(IN_FLIGHT):
            for _, conn in workers:
                give(conn)
        for i in range(len(tasks)):
            while i not in done:
                for ready in wait([*(c for c, g in given.items() if g), *died]):
                    if ready in died:  # a worker ends only once this is done: it was killed
                        raise WorkerDied(f"a worker process ended with status {died[ready].exitcode}")
                    conn = ready  # type: ignore[assignment]  # wait() returns what it was given
                    try:
                        done[given[conn].pop(0)] = pickle.loads(conn.recv_bytes())
                    except (EOFError, ConnectionError):  # it ended half-way through its answer, or unread
                        raise WorkerDied("a worker process ended before it answered") from None
                    give(conn)
            ok, answer = done.pop(i)
            if not ok:
                raise answer
            yield answer
    finally:
        for process, conn in workers:
            if process.exitcode is None:
                process.terminate()
            conn.close()
        for process, _ in workers:
            process.join()


def _give(conn: Connection, task: object) -> None:
    """Send a worker its task; a worker gone (its end of the pipe closed or reset) is WorkerDied."""
    try:
        conn.send(task)
    except ConnectionError:
        raise WorkerDied("a worker process ended before it was given its task") from None


def _serve(
    conn: Connection,
    work: Callable[[Any], object],
    initializer: Callable[..., object] | None,
    initargs: tuple[object, ...],
) -> None:
    """A worker of `in_order`: each task received, its answer sent back, (True, answer) or (False,
    the exception), until the pipe is closed."""
    failed: BaseException | None = None
    try:
        _start(initializer, initargs)
    except Exception as err:  # said in answer to the first task
        failed = err
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        try:
            if failed is not None:
                raise failed
            answer = pickle.dumps((True, work(task)), pickle.HIGHEST_PROTOCOL)
        except Exception as err:
            try:
                answer = pickle.dumps((False, err), pickle.HIGHEST_PROTOCOL)
            except Exception:  # an exception that does not pickle: said as one that does
                answer = pickle.dumps((False, RuntimeError(f"{type(err).__name__}: {err}")), pickle.HIGHEST_PROTOCOL)
        conn.send_bytes(answer)


def _method(fork: bool) -> str:
    """Fork if asked and `forked()`, else spawn; before a fork, what this process has yet to write
    is written out (a copy would write it again)."""
    method = "fork" if fork and forked() else "spawn"
    if method == "fork":
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):  # closed, or a reader gone: the command finds out when it writes
                pass
    return method


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
def _sigint_deferred(tracker: bool = True) -> Iterator[None]:
    """While processes are started: SIGINT ignored, so that they start ignoring it (a Ctrl-C goes
    to the whole process group, and would otherwise interrupt them while they start, each with a
    traceback), and held back in this process (blocked: a blocked signal is kept, not ignored),
    then delivered to the handler in force before. Where signals cannot be blocked, a Ctrl-C in
    the block is noted and raised again after it. In the main thread only (where handlers are set).
    With `tracker`, multiprocessing's resource tracker is started first (a spawned worker would start
    it, and starting it unblocks SIGINT again); forked workers that share no semaphore need none."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if tracker:
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
