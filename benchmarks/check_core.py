"""Benchmark of the checking core (`check_trace`), in-process, the traces parsed beforehand: what a
check costs once the rulebook is loaded and the staging read.

- example_ms: milliseconds per check of a bundled violating example (traces/violations, ~36 events
  each: the per-rule cost), the mean over all of them, median of the runs;
- canonical_check_s: seconds to check the canonical ceremony (3813 events), median of the runs;
- check_events_per_s: events per second over a ~100k-event batch of generated stagings and their
  mutants (benchmarks/gen_batch.py, as benchmarks/run.py builds it), median of the runs.

Each figure has its CPU time beside it (`*_cpu`). The collector is run before each timed region and
left as `check_trace` leaves it (paused inside a check).

Usage: python benchmarks/check_core.py [--runs N] [--events N] [--no-batch]
  (the last line of stdout is one JSON object)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall and median CPU seconds of `runs` calls of `fn`."""
    walls, cpus = [], []
    for _ in range(runs):
        gc.collect()
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return statistics.median(walls), statistics.median(cpus)


def measure(runs: int = 5, batch_events: int | None = 100_000) -> dict[str, float | int | None]:
    """The three figures (and their CPU times); `batch_events=None` skips the batch."""
    from xiangshe import CANONICAL
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    rules = active_rules()
    examples = [parse_file(p, p.name) for p in sorted((ROOT / "traces" / "violations").glob("*.trace"))]
    canonical = parse_file(CANONICAL, "canonical.trace")
    check_trace(canonical, rules)  # warm: caches filled once per process are not a check's cost

    def all_examples() -> None:
        for t in examples:
            check_trace(t, rules)

    ex_wall, ex_cpu = _timed(all_examples, runs)
    can_wall, can_cpu = _timed(lambda: check_trace(canonical, rules), runs)
    out: dict[str, float | int | None] = {
        "examples": len(examples),
        "example_ms": round(ex_wall / len(examples) * 1000, 3),
        "example_ms_cpu": round(ex_cpu / len(examples) * 1000, 3),
        "canonical_check_s": round(can_wall, 4),
        "canonical_check_s_cpu": round(can_cpu, 4),
        "check_events_per_s": None,
        "runs": runs,
        "load": round(os.getloadavg()[0], 2),
    }
    if batch_events:
        from benchmarks.gen_batch import batch_files, build

        traces = [parse_file(p, p.name) for p in batch_files(build(batch_events))]
        events = sum(len(t) for t in traces)

        def batch() -> None:
            for t in traces:
                check_trace(t, rules)

        b_wall, b_cpu = _timed(batch, runs)
        out.update(
            batch_events=events,
            check_events_per_s=round(events / b_wall),
            check_events_per_s_cpu=round(events / b_cpu),
        )
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--events", type=int, default=100_000, help="events in the batch")
    ap.add_argument("--no-batch", action="store_true", help="skip the batch")
    args = ap.parse_args(argv)
    print(json.dumps(measure(args.runs, None if args.no_batch else args.events)))


if __name__ == "__main__":
    main()
