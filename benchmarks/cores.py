"""The machine's own ceiling for `--jobs 2`: how much slower one process runs while another runs beside it.

A pure-Python workload (dictionaries and strings, as the checker's) is timed in CPU seconds alone, then
as each of two processes started together; ROUNDS rounds, medians. On two independent cores the two
take as long as one (slowdown 1.0, ceiling 2.0); where the two "cores" share one physical core or the
host's time, each runs slower, and no program can divide its work by more than the ceiling printed.

Usage: python benchmarks/cores.py [ROUNDS]   (default 5; the last line printed is JSON)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time


def work() -> int:
    d: dict[str, int] = {}
    for i in range(1_500_000):
        k = f"k{i % 5000}"
        d[k] = d.get(k, 0) + i
    return len(d)


def cpu_of_one() -> float:
    t = time.process_time()
    work()
    return time.process_time() - t


def together(n: int) -> list[float]:
    """The CPU seconds of each of n processes forked at once."""
    r, w = os.pipe()
    pids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            os.write(w, (json.dumps(cpu_of_one()) + "\n").encode())
            os._exit(0)
        pids.append(pid)
    for p in pids:
        os.waitpid(p, 0)
    os.close(w)
    with os.fdopen(r) as f:
        return [json.loads(x) for x in f.read().split()]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    alone: list[float] = []
    two: list[float] = []
    load = os.getloadavg()[0]
    for _ in range(rounds):
        alone += together(1)
        two += together(2)
    a, t = statistics.median(alone), statistics.median(two)
    print(f"one process alone: {a:.3f} s CPU; each of two together: {t:.3f} s CPU (medians of {rounds})")
    print(
        json.dumps(
            {
                "cpu_alone_s": round(a, 3),
                "cpu_each_of_two_s": round(t, 3),
                "slowdown": round(t / a, 3),
                "ceiling_speedup": round(2 * a / t, 2),
                "load_before": round(load, 2),
                "load_after": round(os.getloadavg()[0], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
