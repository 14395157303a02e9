"""Ctrl-C stops a command at once: exit 130, one line `xiangshe: interrupted` on stderr, no traceback,
no verdict on stdout (nothing at all, but for the reports a batch had already streamed, each whole),
and no worker process left running. Real processes, sent SIGINT once
they are observably at work (they have spent some CPU time, or started their workers); every wait is
bounded, and nothing is asserted about how long anything took.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's state in /proc")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> set[int]:
    """The processes `pid` started, by any of its threads (a thread may end while they are read:
    z3's search runs in one of its own)."""
    found: set[int] = set()
    tasks = Path(f"/proc/{pid}/task")
    for t in tasks.iterdir() if tasks.exists() else ():
        try:
            found.update(int(c) for c in (t / "children").read_text().split())
        except FileNotFoundError:  # the thread (or the process) has ended
            pass
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _until(condition: Callable[[], bool], timeout: float = 180) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _interrupt(
    args: list[str], at_work: Callable[[subprocess.Popen], bool], group: bool = False
) -> tuple[int, str, str, set[int]]:
    """Run `xiangshe ARGS`, send SIGINT once `at_work` (to its whole process group, as a terminal's
    Ctrl-C does, if `group`); the exit status, stdout, stderr, and the processes it had started."""
    p = subprocess.Popen(
        [sys.executable, "-m", "xiangshe", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,
    )
    try:
        assert _until(lambda: p.poll() is not None or at_work(p)), "the command never got to work"
        assert p.poll() is None, f"the command finished before it could be interrupted: {p.returncode}"
        children = _children(p.pid)
        if group:
            os.killpg(p.pid, signal.SIGINT)
        else:
            os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()  # closed however the test ends (no ResourceWarning later)
        p.stderr.close()
    return p.returncode, out, err, children


def _interrupted(status: int, out: str, err: str, streamed: Path | None = None) -> None:
    """Interrupted: exit 130, the one line on stderr, and no verdict. A batch of copies of one staging
    in the folder `streamed` streams each copy's report as it is done (README, `check --jobs`), so what
    it had written stays: whole reports, each the same as the first but for the file's name, and no
    verdict of the batch (its summary and readings lines would make the last one differ)."""
    assert status == 130, (status, out[-500:], err[-500:])
    if streamed is not None and out:
        blocks = [b for b in re.split(f"(?m)^(?={re.escape(str(streamed))})", out) if b]
        alike = {re.sub(r"c\d+\.trace", "c.trace", b) for b in blocks}
        assert len(alike) == 1, out[-500:]
        assert not re.search(r"(?m)^(ok: |readings: )", out)
    else:
        assert out == ""  # no verdict, not even a partial one
    assert err == "xiangshe: interrupted\n", err[-1000:]


def _busy(seconds: float) -> Callable[[subprocess.Popen], bool]:
    """The command and the processes it started have worked `seconds` of CPU between them."""

    def busy(p: subprocess.Popen) -> bool:
        total = 0.0
        for pid in (p.pid, *_children(p.pid)):
            try:
                total += _cpu_seconds(pid)
            except FileNotFoundError:  # a worker that has just ended
                pass
        return total >= seconds

    return busy


def test_check_is_interrupted(tmp_path: Path) -> None:
    """A long batch: 2,000 names of the canonical ceremony (hard links, so that `check`, which checks a
    file named twice once, reads each)."""
    for i in range(2000):
        os.link(ROOT / "traces" / "canonical.trace", tmp_path / f"c{i}.trace")
    status, out, err, children = _interrupt(["check", "--jobs", "2", str(tmp_path)], _busy(2.0))
    _interrupted(status, out, err, streamed=tmp_path)  # not "Aborted!" and exit 1 (violations)
    assert children, "the batch was not checked in worker processes"
    assert _until(lambda: not any(_running(c) for c in children), timeout=60), [c for c in children if _running(c)]


@pytest.mark.z3
def test_a_z3_search_is_interrupted_not_taken_for_an_answer() -> None:
    """z3 catches SIGINT while it searches and answers "unknown": that must not read as "the solver
    gave up" and lead to the bundled example (exit 1). This rule's search is the longest of the rulebook
    (about 8 s of CPU before its work budget is spent: benchmarks/counterexamples.py; z3 is loaded at
    0.1 s): the Ctrl-C comes at 2.5 s. (da-fu-zhi-ou-wei-shang, here before, now ends in about 3 s: the
    Ctrl-C sometimes came after it had answered.)"""
    status, out, err, _ = _interrupt(["counterexample", "qu-shi-si-ma-fan-wei"], _busy(2.5))
    _interrupted(status, out, err)


#: rules whose z3 search runs for many seconds: the workers are busy when the Ctrl-C comes
LONG_SEARCHES = ("da-fu-zhi-ou-wei-shang", "bu-gu-bu-shi", "shang-she-tui-yu-wu-yi-gan")


@pytest.mark.z3
@pytest.mark.parametrize("group", [False, True], ids=["process", "process group"])
def test_check_rules_is_interrupted_and_its_workers_stop(group: bool) -> None:
    """Interrupted as its workers start (a Ctrl-C to the whole group reaches them too: they start
    ignoring it, and say nothing) or while they search."""
    status, out, err, children = _interrupt(
        ["check-rules", "--search-all", "--jobs", "2", *(f"--rule={r}" for r in LONG_SEARCHES)],
        # its workers started, and 1.5 s of CPU between them and the command (the command's own start-up
        # takes under 1 s now: waiting for 1 s of its own CPU let the searches end first)
        lambda p: len(_children(p.pid)) >= 2 and _busy(1.5)(p),
        group,
    )
    _interrupted(status, out, err)
    assert len(children) >= 2
    assert _until(lambda: not any(_running(c) for c in children), timeout=60), [c for c in children if _running(c)]


def test_a_ctrl_c_swallowed_in_a_destructor_still_stops_the_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGINT that lands in an object's __del__ (z3's AstRef, say) raises where Python cannot
    propagate it: it is kept as pending, said nothing of, and nothing is printed after it."""
    from xiangshe.reports import echo, interrupt

    monkeypatch.setattr(interrupt, "_pending", False)
    monkeypatch.setattr(sys, "unraisablehook", interrupt._unraisable(lambda u: pytest.fail(f"printed {u}")))

    class Dropped:
        def __del__(self) -> None:
            interrupt._raise(signal.SIGINT, None)

    Dropped()
    assert interrupt.pending()
    with pytest.raises(interrupt.Interrupted):
        echo.echo("a verdict")


def test_a_destructor_failing_after_a_ctrl_c_is_said_nothing_of(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that stops an object's __init__ half-way (z3's BoolSortRef before its `ctx` is set)
    leaves its __del__ to fail later: after the interrupt that error is not printed; before any
    interrupt, a failing destructor is shown as Python shows it."""
    from xiangshe.reports import interrupt

    shown: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", interrupt._unraisable(shown.append))

    class HalfBuilt:
        def __del__(self) -> None:
            raise AttributeError("'HalfBuilt' object has no attribute 'ctx'")

    monkeypatch.setattr(interrupt, "_pending", False)
    HalfBuilt()
    assert len(shown) == 1  # no interrupt: the error is a fault, and shown
    monkeypatch.setattr(interrupt, "_pending", True)
    HalfBuilt()
    assert len(shown) == 1


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="threads have no signal mask here")
def test_a_z3_search_runs_in_a_thread_that_blocks_sigint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search runs in a thread of its own with SIGINT blocked, so that the kernel gives a Ctrl-C
    to the main thread, waiting for it, whose handler then runs at once: were the signal given to
    the search's thread, the handler would wait for the search to end (seconds, under load). The
    main thread's mask is left as it was, and z3 is told not to take SIGINT itself."""
    import threading

    import z3

    from xiangshe.constraints.solving import Solver

    seen: dict[str, object] = {}

    def check(_self: object, *_assumptions: object) -> object:
        seen["thread"] = threading.current_thread().name
        seen["mask"] = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        return z3.sat

    settings: list[tuple[object, ...]] = []
    set_param = z3.Solver.set

    def record(self: object, *args: object, **keys: object) -> None:
        settings.append(args)
        set_param(self, *args, **keys)

    monkeypatch.setattr(signal, "getsignal", lambda _n: signal.default_int_handler)  # as the command line has it
    monkeypatch.setattr(z3.Solver, "check", check)
    monkeypatch.setattr(z3.Solver, "set", record)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    s = Solver()
    assert ("ctrl_c", False) in settings
    assert s.check() == z3.sat
    assert seen["thread"] == "z3-check"
    assert signal.SIGINT in seen["mask"]  # type: ignore[operator]
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
